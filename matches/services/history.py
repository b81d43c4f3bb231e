"""The Swiss history: who played whom with what result, who can be paired, and the scoring."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from engine.games import get_game
from engine.plugin import MatchStructure
from matches.models import (
    Match,
    Round,
    RoundStage,
    RoundStatus,
)
from tournaments import results, swiss
from tournaments.models import (
    FirstRoundPairing,
    LateEntryPolicy,
    Registration,
    RegistrationStatus,
    Tournament,
)
from tournaments.standings import MatchRecord, Player


def _structure_games_to_win(tournament: Tournament) -> int:
    structure = tournament.structure
    return structure.games_to_win if structure is not None else 1


def stage_structure(tournament: Tournament, stage_number: int) -> MatchStructure | None:
    """The match structure of the event's stage ``stage_number``: the stage's own, else the
    event's (event-structures: Stages; None only for an event whose structure is unknown)."""
    # All of the event's stages (a handful of rows), so that a caller checking many results
    # (an archive import) prefetches them once and asks no query per match.
    key = next(
        (s.match_structure for s in tournament.stages.all() if s.number == stage_number), None
    )
    if key:
        structure = get_game(tournament.game).match_structure(key)
        if structure is not None:
            return structure
    return tournament.structure


def round_structure(round_: Round) -> MatchStructure | None:
    """The match structure a round's matches are played in: its stage's."""
    return stage_structure(round_.tournament, round_.stage_number)


def stage_games_to_win(tournament: Tournament, stage_number: int) -> int:
    """Games a match win needs in this stage: its own match structure, else the event's."""
    structure = stage_structure(tournament, stage_number)
    return structure.games_to_win if structure is not None else 1


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


@dataclass(frozen=True)
class SwissHistory:
    """An event's Swiss rounds as the pure cores take them, ids as strings. ``registrations``:
    everyone's, with accounts; a history read ``for_pairing`` holds the candidates' only."""

    players: tuple[Player, ...]
    rounds: tuple[tuple[MatchRecord, ...], ...]
    registrations: dict[int, Registration]


def _record(
    a: int, b: int | None, games: tuple[int, int, int] | None, score: tuple[int, int] | None
) -> MatchRecord:
    """A final match as the pure cores take it (a bye when ``b`` is None); `score`: the
    game's own score over the match from its details (BoBA: trophies)."""
    if b is None:
        # The bye's games as recorded: its stage's structure's match win (pairing._bye).
        return MatchRecord(a=str(a), b=None, result="a", games=games or (0, 0, 0))
    games = games or (0, 0, 0)
    return MatchRecord(
        a=str(a),
        b=str(b),
        result=results.outcome(games),
        games=games,
        battles=score,
    )


@dataclass(frozen=True)
class _PlayerRules:
    """What the event adds to a registration's player: read once per history, not per player."""

    seeded: bool
    late_losses: bool

    @classmethod
    def of(cls, tournament: Tournament) -> _PlayerRules:
        return cls(
            seeded=tournament.first_round_pairing == FirstRoundPairing.SEEDED,
            late_losses=tournament.late_entry_policy == LateEntryPolicy.LOSS,
        )


def _player_of(
    rules: _PlayerRules,
    pk: int,
    dropped_at: object,
    late_entry_round: int | None,
    fixed_table: int | None,
    seed: float | None,
    bye_rounds: Sequence[int] | None,
) -> Player:
    """A registration's player from its pairing fields (_PAIRING_VALUES' order), read from a
    model instance or a row of plain values."""
    return Player(
        id=str(pk),
        dropped=dropped_at is not None,
        late_entry_round=late_entry_round or 1,
        fixed_table=fixed_table,
        # Round 1 top half against bottom half only when the event pairs it by seed.
        seeding=seed if rules.seeded else None,
        bye_rounds=tuple(int(r) for r in bye_rounds or ()),
        late_entry_losses=rules.late_losses and (late_entry_round or 1) > 1,
    )


# What pairing reads of a registration (_player_of; the event, which a related manager sets on
# what it loads): the rest, and the account, only cost time when 8,192 of them are loaded.
_PAIRING_FIELDS = (
    "id",
    "tournament",
    "dropped_at",
    "late_entry_round",
    "fixed_table",
    "seed",
    "bye_rounds",
)
# The same as plain values (_player_of's order), for the players pairing only reads.
_PAIRING_VALUES = ("id", "dropped_at", "late_entry_round", "fixed_table", "seed", "bye_rounds")


def swiss_history(
    tournament: Tournament,
    *,
    upto: int | None = None,
    extra: Sequence[Registration] = (),
    for_pairing: bool = False,
    round_numbers: Sequence[int] | None = None,
) -> SwissHistory:
    """The finished Swiss rounds (up to round ``upto``) and everyone who played in them.

    ``round_numbers``: these rounds instead (a stage's own, finished ones).

    ``extra`` registrations (those about to be paired) join the players. One query for the
    matches, one for the registrations. ``for_pairing``: ``extra`` are the
    :func:`pairing_candidates`, and the other players are read as plain values (no model
    instance, no account, so no names): the same players, loaded faster; ``registrations``
    then holds the ``extra`` registrations only (pairing reads the players, not them).
    """
    if round_numbers is not None:
        # A stage's own rounds (matches.services.stages): the caller chose them.
        numbers = sorted(n for n in round_numbers if upto is None or n <= upto)
    else:
        rounds_qs = tournament.rounds.filter(stage=RoundStage.SWISS, status=RoundStatus.FINISHED)
        if upto is not None:
            rounds_qs = rounds_qs.filter(number__lte=upto)
        numbers = list(rounds_qs.order_by("number").values_list("number", flat=True))
    # Plain tuples, not model instances: 8,000 matches of a large event load in milliseconds.
    # The details come as the database's text: a flight's 3,072 BoBA matches share a few
    # dozen distinct ones, so each is decoded and scored once (match_score of the same JSON).
    rows = (
        # A team event's deciding game is left out: the standings core takes a player once a
        # round, and a Head Coach may have played a board too (docs/teams.md).
        Match.objects.filter(
            round__tournament=tournament, round__number__in=numbers, is_decider=False
        )
        .order_by("round__number", "table", "id")
        .annotate(details_text=Cast("game_details", TextField()))
        .values_list(
            "round__number", "a_id", "b_id", "games_a", "games_b", "games_drawn", "details_text"
        )
    )
    rules = get_game(tournament.game).match_rules()
    scores: dict[str | None, tuple[int, int] | None] = {None: rules.match_score(None)}
    by_round: dict[int, list[MatchRecord]] = {n: [] for n in numbers}
    ids: set[int] = {r.pk for r in extra}
    for number, a, b, games_a, games_b, drawn, details in rows:
        games = (games_a, games_b, drawn or 0) if games_a is not None else None
        if details not in scores:
            scores[details] = rules.match_score(json.loads(details))
        by_round[number].append(_record(a, b, games, scores[details]))
        ids.add(a)
        if b is not None:
            ids.add(b)
    player_rules = _PlayerRules.of(tournament)
    if for_pairing:
        # The players about to be paired were just loaded (pairing_candidates), with what
        # pairing reads: only those who played before and are not paired now are missing,
        # read as plain values (thousands of them in a day 2 drawn from flights).
        registrations = {r.pk: r for r in extra}
        by_id = {
            pk: _player_of(
                player_rules,
                r.pk,
                r.dropped_at,
                r.late_entry_round,
                r.fixed_table,
                r.seed,
                r.bye_rounds,
            )
            for pk, r in registrations.items()
        }
        missing = ids - registrations.keys()
        if missing:
            values = Registration.objects.filter(pk__in=missing).values_list(*_PAIRING_VALUES)
            by_id.update((row[0], _player_of(player_rules, *row)) for row in values)
        players = tuple(by_id[pk] for pk in sorted(by_id))
    else:
        people = Registration.objects.filter(pk__in=ids).select_related("player")
        registrations = {r.pk: r for r in people}
        players = tuple(
            _player_of(
                player_rules,
                r.pk,
                r.dropped_at,
                r.late_entry_round,
                r.fixed_table,
                r.seed,
                r.bye_rounds,
            )
            for r in (registrations[pk] for pk in sorted(registrations))
        )
    return SwissHistory(players, tuple(tuple(by_round[n]) for n in numbers), registrations)


def _pairable(tournament: Tournament) -> QuerySet[Registration]:
    qs = tournament.registrations.filter(
        status=RegistrationStatus.REGISTERED, dropped_at__isnull=True
    )
    if qs.filter(checked_in_at__isnull=False).exists():
        qs = qs.filter(checked_in_at__isnull=False)
    return qs


def pairable_registrations(tournament: Tournament) -> list[Registration]:
    """Who is paired next: registered, not dropped; once anyone checked in, only those."""
    return list(_pairable(tournament).select_related("player"))


def pairing_candidates(
    tournament: Tournament,
    *,
    among: Collection[int] | None = None,
    excluding: Collection[int] = (),
) -> list[Registration]:
    """:func:`pairable_registrations` with only what pairing reads of them (no account).
    ``among`` / ``excluding`` narrow it in the query, so pairing one flight of a large event
    loads that flight's players only, not every registration of the event."""
    qs = _pairable(tournament)
    if among is not None:
        qs = qs.filter(pk__in=list(among))
    if excluding:
        qs = qs.exclude(pk__in=list(excluding))
    return list(qs.only(*_PAIRING_FIELDS))


def bye_games(tournament: Tournament, stage_number: int | None = None) -> results.Games:
    """A bye is worth the games a match win of the stage's structure needs: 1-0 in best of
    1, 2-0 in best of 3 (rules README decision 11), so it never inflates game-win %. Without
    ``stage_number``: the event's structure."""
    if stage_number is None:
        return (_structure_games_to_win(tournament), 0, 0)
    return (stage_games_to_win(tournament, stage_number), 0, 0)


def scoring(tournament: Tournament) -> swiss.Scoring:
    """The event's scoring: standard match points, a bye worth the event structure's match
    win. A recorded bye is worth the games it records (its stage's structure: ``_record``);
    ``bye_games`` here are what a bye without games and a late entry's lost rounds are worth."""
    won, lost, _drawn = bye_games(tournament)
    return swiss.Scoring(bye_games=(won, lost))


def _winner(match: Match) -> str:
    games = match.games or (0, 0, 0)
    return str(match.b_id) if results.outcome(games) == "b" else str(match.a_id)
