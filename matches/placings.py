"""An event's final placings as stored data gives them (event-structures: Placings).

Reads only. :func:`event_placings` turns each stage's rounds into a
:class:`tournaments.placings.StageOutcome` and lets the pure core rank everyone
(:func:`tournaments.placings.compute_placings`, whose docstring is the rule):

- a Swiss or round-robin stage: its standings rows as stored (the standings snapshot after its
  last finished round; with carried records where it carries), kept to the stage's players;
- a single- or double-elimination stage: its seeds and the results of its recorded matches,
  played out by the bracket core (:func:`tournaments.brackets.bracket_state`), which names the
  round each player went out in.

Only rounds players may see (published or finished) count, so placings never show a bracket
before it is published. The result is cached per *placings version*
(:func:`placings_version`: the event's newest result version, its rounds' progress, its status
and its tiebreaker configuration), so two thousand readers cost one computation.

Team events place teams: each stage's outcome is read from its team matches
(matches.services.team_stages: team standings, brackets of teams), and :data:`ENTRANT_NAMES`
names them (``"team"`` instead of ``"registration"``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Q

from accounts.names import display_safe
from config.errors import NotFound
from config.published import version_of
from engine.games import get_game
from matches.models import (
    VISIBLE_TO_PLAYERS,
    Match,
    MatchStatus,
    ResultVersion,
    Round,
    RoundStatus,
    StandingsSnapshot,
)
from matches.services import team_stages
from matches.services.history import _record, scoring
from matches.services.standings import standings_snapshot
from tournaments import brackets, results
from tournaments.models import Registration, Stage, Team, TeamMember, Tournament
from tournaments.placings import Elimination, Placings, StageOutcome, StageStatus, compute_placings
from tournaments.selectors import stage_rows
from tournaments.stages import (
    ELIMINATION_KINDS,
    ROUND_ROBIN,
    SINGLE_ELIMINATION,
    FinalRow,
    StageKind,
)
from tournaments.standings import MatchRecord, Player, compute_standings
from tournaments.status import EventStatus

EntrantKey = Literal["registration", "team"]

PLACINGS_CACHE_SECONDS: Final = 6 * 3600
# Within a bracket, a grand final is later than any round of either side.
_GRAND_FINAL_INDEX: Final = 10_000


def _registration_names(tournament: Tournament, ids: Iterable[int]) -> dict[int, str]:
    """Each registration's public name (``Registration.name``), reading only what it needs:
    plain values, no model rows; many of them by the event rather than by a list of ids."""
    wanted = list(ids)
    people = (
        Registration.objects.filter(tournament=tournament)
        if len(wanted) > _NAMES_BY_ID
        else Registration.objects.filter(pk__in=wanted)
    )
    rows = people.values_list(
        "pk",
        "walk_in_name",
        "player_id",
        "player__display_name",
        "player__first_name",
        "player__last_name",
        "player__username",
    )
    names = {}
    for pk, walk_in, player, display, first, last, username in rows:
        if player is None:
            names[pk] = display_safe(walk_in)
        else:
            full = f"{first} {last}".strip()
            names[pk] = display_safe(display or full or username)
    return names


_NAMES_BY_ID: Final = 500


def _team_names(tournament: Tournament, ids: Iterable[int]) -> dict[int, str]:
    """Each team's name (a team event places teams)."""
    return dict(Team.objects.filter(tournament=tournament).values_list("pk", "name"))


ENTRANT_NAMES: dict[str, Callable[[Tournament, Iterable[int]], dict[int, str]]] = {
    "registration": _registration_names,
    "team": _team_names,
}
"""How each kind of entrant is named in :func:`placings_json`."""


def entrant_key(tournament: Tournament) -> EntrantKey:
    """``"team"`` for a team event (event-structures: Placings), else ``"registration"``."""
    if getattr(tournament, "team", None) and "team" in ENTRANT_NAMES:
        return "team"
    return "registration"


# -- the stages as stored ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _PlayedStage:
    """One stage and the rounds of it players may see, oldest first."""

    number: int
    kind: StageKind
    sources: tuple[int, ...]
    rounds: tuple[Round, ...]
    seeds: tuple[int, ...] = ()  # a bracket's players in seed order, once the row keeps them
    status: StageStatus | None = None  # as the stage row says, when there is one
    players: frozenset[int] | None = None  # who plays it, once the row keeps them


def _visible_rounds(tournament: Tournament) -> list[Round]:
    return list(
        tournament.rounds.filter(status__in=VISIBLE_TO_PLAYERS)
        .order_by("number")
        .only("id", "number", "stage", "stage_number", "status", "tournament_id")
    )


def _stage_plan(tournament: Tournament, rounds: Sequence[Round]) -> list[_PlayedStage]:
    """The event's stages (its Stage rows; for an event without any, its legacy stages: Swiss,
    then the top cut) with the rounds of each (``Round.stage_number``)."""
    by_stage: dict[int, list[Round]] = {}
    for round_ in rounds:
        by_stage.setdefault(round_.stage_number, []).append(round_)
    out = []
    for row in stage_rows(tournament):
        rule = row.to_rule()
        seeds = tuple(int(p) for p in row.players or ()) if rule.is_elimination else ()
        out.append(
            _PlayedStage(
                number=rule.number,
                kind=rule.kind,
                sources=rule.sources,
                rounds=tuple(by_stage.get(rule.number, ())),
                seeds=seeds,
                status=row.status if row.pk is not None else None,  # type: ignore[arg-type]
                players=frozenset(int(p) for p in row.players) if row.players else None,
            )
        )
    return out


# -- one stage's outcome ----------------------------------------------------------------------------
_STATUS_ORDER: Final[Mapping[str, int]] = {"pending": 0, "running": 1, "finished": 2}


def _status(stage: _PlayedStage, derived: StageStatus) -> StageStatus:
    """The stage's status: the further of what its row says and what its rounds show (a
    stage the services ran before they kept stage rows' times has rounds but no start)."""
    if stage.status is None or _STATUS_ORDER[derived] >= _STATUS_ORDER[stage.status]:
        return derived
    return stage.status


def _stage_players(stage: _PlayedStage) -> frozenset[int]:
    if stage.players is not None:
        return stage.players
    pairs = Match.objects.filter(round__in=stage.rounds).values_list("a_id", "b_id")
    return frozenset(p for pair in pairs for p in pair if p is not None)


def _standing_rows(tournament: Tournament, stage: _PlayedStage) -> tuple[FinalRow, ...]:
    """The stage's standings after its last finished round (the stored snapshot, with the
    records it carries), its own players only."""
    finished = [r for r in stage.rounds if r.status == RoundStatus.FINISHED]
    if not finished:
        return ()
    if stage.kind == ROUND_ROBIN:
        return _round_robin_rows(tournament, stage, finished)
    try:
        snapshot = standings_snapshot(tournament, finished[-1].number)
    except NotFound:
        return ()
    players = _stage_players(stage)
    return tuple(
        FinalRow(registration, rank, points, tuple(tiebreakers.items()), dropped)
        for registration, rank, points, tiebreakers, dropped in _snapshot_lines(snapshot)
        if registration in players
    )


_LINES_SQL = """
    SELECT (line->>'registration')::bigint, (line->>'rank')::int, (line->>'points')::int,
           (line->'tiebreakers')::text, (line->>'dropped')::boolean
    FROM {table} AS s,
         jsonb_array_elements(s.rows) WITH ORDINALITY AS lines(line, n)
    WHERE s.id = %s ORDER BY n
"""


def _snapshot_lines(
    snapshot: StandingsSnapshot,
) -> list[tuple[int, int, int, dict[str, Any], bool]]:
    """(registration, rank, points, tiebreakers, dropped) of each standings row, in order.

    On PostgreSQL only those fields leave the database (the rows also hold every opponent of
    every player: megabytes to decode for 8,192 players); elsewhere the rows are read whole."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                _LINES_SQL.format(
                    table=connection.ops.quote_name(StandingsSnapshot._meta.db_table)
                ),
                [snapshot.pk],
            )
            return [
                (int(reg), int(rank), int(points), json.loads(tiebreakers), bool(dropped))
                for reg, rank, points, tiebreakers, dropped in cursor.fetchall()
            ]
    return [
        (
            int(row["registration"]),
            int(row["rank"]),
            int(row["points"]),
            dict(row["tiebreakers"]),
            bool(row["dropped"]),
        )
        for row in snapshot.rows
    ]


def _round_robin_rows(
    tournament: Tournament, stage: _PlayedStage, finished: Sequence[Round]
) -> tuple[FinalRow, ...]:
    """A round robin's standings over its finished rounds, by the event's tiebreakers (the
    standings core, as the Swiss ones)."""
    rules = get_game(tournament.game).match_rules()
    by_round: dict[int, list[MatchRecord]] = {r.number: [] for r in finished}
    rows = Match.objects.filter(round__in=finished).values_list(
        "round__number", "a_id", "b_id", "games_a", "games_b", "games_drawn", "game_details"
    )
    for number, a, b, games_a, games_b, drawn, details in rows:
        games = (games_a, games_b, drawn or 0) if games_a is not None else None
        by_round[number].append(_record(a, b, games, rules.match_score(details)))
    dropped = set(
        Registration.objects.filter(
            pk__in=_stage_players(stage), dropped_at__isnull=False
        ).values_list("pk", flat=True)
    )
    players = tuple(
        Player(id=str(pk), dropped=pk in dropped) for pk in sorted(_stage_players(stage))
    )
    standings = compute_standings(
        players,
        tuple(tuple(by_round[n]) for n in sorted(by_round)),
        scoring(tournament),
        tournament.tiebreakers,
    )
    return tuple(
        FinalRow(
            registration=int(row.player_id),
            rank=row.rank,
            points=row.points,
            tiebreakers=tuple(row.tiebreakers),
            dropped=row.dropped,
        )
        for row in standings
    )


_Played = tuple[int, int, int | None, int | None]  # round number, a, b (None: a bye), winner


def _played_matches(stage: _PlayedStage) -> tuple[list[_Played], list[int]]:
    """Every match of the stage, oldest round first, as (round, a, b, winner) (a match not
    final has no winner; a bye no b), and the first round's players in seed order. One query."""
    rows = (
        Match.objects.filter(round__in=stage.rounds)
        .order_by("round__number", "table", "id")
        .values_list(
            "round__number", "a_id", "b_id", "seed_a", "seed_b", "status", "games_a", "games_b"
        )
    )
    out: list[_Played] = []
    first_round = stage.rounds[0].number if stage.rounds else None
    seeds: dict[int, int] = {}
    for number, a, b, seed_a, seed_b, status, games_a, games_b in rows:
        if number == first_round:
            if seed_a:
                seeds[a] = seed_a
            if b is not None and seed_b:
                seeds[b] = seed_b
        winner = None
        if status == MatchStatus.FINAL and b is not None:
            outcome = results.outcome((games_a or 0, games_b or 0, 0))
            winner = a if outcome == "a" else b if outcome == "b" else None
        out.append((number, a, b, winner))
    return out, [p for p, _s in sorted(seeds.items(), key=lambda t: t[1])]


def _bracket_outcome(stage: _PlayedStage) -> StageOutcome:
    """A bracket's seeds, who went out where, and its champion, from its recorded matches."""
    matches, seen = _played_matches(stage)
    seeds = list(stage.seeds) or seen
    if len(seeds) < 2:
        return StageOutcome(stage.number, stage.kind, "pending", stage.sources)
    kind: Literal["single_elimination", "double_elimination"] = (
        SINGLE_ELIMINATION if stage.kind == SINGLE_ELIMINATION else "double_elimination"
    )
    state = _played_out(kind, seeds, matches)
    return _outcome_of(stage, seeds, state)


def _outcome_of(stage: _PlayedStage, seeds: Sequence[int], state: Any) -> StageOutcome:
    """A played bracket's outcome (players' or teams'): who went out where, and its champion.
    A bracket is over when it has its champion, and not before, whatever its row says."""
    eliminated = tuple(
        Elimination(
            int(gone.player),
            _GRAND_FINAL_INDEX + gone.ref.round
            if gone.ref.side == "grand_final"
            else gone.ref.round,
            gone.name,
        )
        for gone in state.eliminations
    )
    champion = int(state.champion) if state.champion is not None else None
    status: StageStatus = "finished" if champion is not None else "running"
    return StageOutcome(
        stage.number,
        stage.kind,
        status,
        stage.sources,
        seeds=tuple(seeds),
        eliminated=eliminated,
        champion=champion,
    )


def _played_out(
    kind: Literal["single_elimination", "double_elimination"],
    seeds: Sequence[int],
    matches: Sequence[_Played],
) -> brackets.BracketState:
    """The bracket after the recorded results: each match the bracket core knows the players
    of takes the result of the recorded match between them (the earliest one not used yet:
    in a double elimination two players may meet twice)."""
    ids = [str(s) for s in seeds]
    waiting: dict[frozenset[int], list[int]] = {}
    for _number, a, b, winner in matches:
        if a is not None and b is not None and winner is not None:
            waiting.setdefault(frozenset((a, b)), []).append(winner)
    winners: dict[brackets.MatchRef, str | None] = {}
    state = brackets.bracket_state(kind, ids, winners)
    while True:
        found = False
        for round_ in state.rounds:
            for match in round_.played:
                if match.ref in winners or match.b is None:
                    continue
                queue = waiting.get(frozenset((int(match.a), int(match.b))))
                if queue:
                    winners[match.ref] = str(queue.pop(0))
                    found = True
        if not found:
            return state
        state = brackets.bracket_state(kind, ids, winners)


def _stage_row(tournament: Tournament, number: int) -> Stage:
    """The stage's row (an event without stage rows: its legacy stage, unsaved)."""
    return next(row for row in stage_rows(tournament) if row.number == number)


def _team_standing_rows(tournament: Tournament, stage: _PlayedStage) -> tuple[FinalRow, ...]:
    """A team Swiss or round-robin stage's team standings after its finished rounds."""
    if not any(r.status == RoundStatus.FINISHED for r in stage.rounds):
        return ()
    return tuple(team_stages.team_final_rows(tournament, _stage_row(tournament, stage.number)))


def _team_bracket_outcome(tournament: Tournament, stage: _PlayedStage) -> StageOutcome:
    """A bracket of teams: its seeds, who went out where and its champion, from its team
    matches (team_stages.team_bracket_of)."""
    seeds = stage.seeds
    if len(seeds) < 2:
        return StageOutcome(stage.number, stage.kind, "pending", stage.sources)
    state = team_stages.team_bracket_of(tournament, _stage_row(tournament, stage.number))
    return _outcome_of(stage, seeds, state)


def stage_outcomes(tournament: Tournament) -> list[StageOutcome]:
    """Each stage of the event as the placings core reads it, in stage order.

    A stage none of whose rounds players may see yet contributes nobody (pending). A Swiss or
    round-robin stage is finished once a stage drawing from it has a round, or the event has
    finished; a bracket once it has its champion. An event finished before a later stage
    started (no top cut after all) ends where it stopped."""
    plan = _stage_plan(tournament, _visible_rounds(tournament))
    event_over = tournament.status == EventStatus.FINISHED
    teams_play = tournament.is_team_event
    if event_over:
        plan = [s for s in plan if s.rounds]
    out: list[StageOutcome] = []
    for k, stage in enumerate(plan):
        if not stage.rounds:
            out.append(StageOutcome(stage.number, stage.kind, "pending", stage.sources))
            continue
        if stage.kind in ELIMINATION_KINDS:
            if teams_play:
                out.append(_team_bracket_outcome(tournament, stage))
            else:
                out.append(_bracket_outcome(stage))
            continue
        later = any(s.rounds for s in plan[k + 1 :] if stage.number in s.sources)
        derived: StageStatus = "finished" if later or event_over else "running"
        standing = (
            _team_standing_rows(tournament, stage)
            if teams_play
            else _standing_rows(tournament, stage)
        )
        out.append(
            StageOutcome(
                stage.number, stage.kind, _status(stage, derived), stage.sources, standing=standing
            )
        )
    return out


# -- cached -------------------------------------------------------------------------------------------
def placings_version(tournament: Tournament) -> str:
    """What decides the placings: the newest result of any match of the event, its rounds'
    progress (how many, how many finished, which players may see), its stages' (started,
    finished), the event's status and its tiebreaker configuration. Three indexed
    aggregates."""
    return placings_versions([tournament])[tournament.pk]


def placings_versions(tournaments: Sequence[Tournament]) -> dict[int, str]:
    """:func:`placings_version` of each event (by id), for many events in the same three
    grouped aggregates (a series' leaderboard, a player's history)."""
    ids = [t.pk for t in tournaments]
    newest = dict(
        ResultVersion.objects.filter(match__round__tournament_id__in=ids)
        .values("match__round__tournament_id")
        .annotate(newest=Max("id"))
        .values_list("match__round__tournament_id", "newest")
    )
    stages = {
        row.pop("tournament_id"): row
        for row in Stage.objects.filter(tournament_id__in=ids)
        .values("tournament_id")
        .annotate(
            count=Count("id"),
            started=Max("started_at"),
            finished=Max("finished_at"),
            done=Count("id", filter=Q(finished_at__isnull=False)),
        )
        .order_by()
    }
    progress = {
        row.pop("tournament_id"): row
        for row in Round.objects.filter(tournament_id__in=ids)
        .values("tournament_id")
        .annotate(
            visible=Count("id", filter=Q(status__in=VISIBLE_TO_PLAYERS)),
            finished=Count("id", filter=Q(status=RoundStatus.FINISHED)),
            last=Max("number", filter=Q(status__in=VISIBLE_TO_PLAYERS)),
        )
        .order_by()
    }
    no_stages = {"count": 0, "started": None, "finished": None, "done": 0}
    no_rounds = {"visible": 0, "finished": 0, "last": None}
    out = {}
    for tournament in tournaments:
        played = progress.get(tournament.pk, no_rounds)
        staged = stages.get(tournament.pk, no_stages)
        out[tournament.pk] = version_of(
            "placings",
            tournament.pk,
            newest.get(tournament.pk) or 0,
            played["visible"],
            played["finished"],
            played["last"] or 0,
            tournament.status,
            tournament.top_cut_size or 0,
            tournament.tiebreaker_fingerprint,
            staged["count"],
            staged["started"],
            staged["finished"],
            staged["done"],
        )
    return out


def event_placings(tournament: Tournament, *, version: str | None = None) -> Placings:
    """The event's placings (``final`` once its last stage is finished), computed once per
    :func:`placings_version`."""
    version = version or placings_version(tournament)
    key = f"placings:{tournament.pk}:{_digest(version)}"
    found = cache.get(key)
    if isinstance(found, Placings):
        return found
    placings = compute_placings(stage_outcomes(tournament))
    cache.set(key, placings, PLACINGS_CACHE_SECONDS)
    return placings


def _digest(version: str) -> str:
    return hashlib.sha256(version.encode()).hexdigest()[:32]


def placings_json(
    tournament: Tournament,
    *,
    placings: Placings | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> dict[str, Any]:
    """The contract's JSON (event-structures: Placings) with each entrant's name; ``limit`` and
    ``offset`` page the rows (``count`` is their number in all)."""
    placings = placings or event_placings(tournament)
    key = entrant_key(tournament)
    rows = placings.rows[offset : None if limit is None else offset + limit]
    names = ENTRANT_NAMES.get(key, _registration_names)(tournament, (r.entrant for r in rows))
    return {
        "final": placings.final,
        "count": len(placings.rows),
        "rows": [
            {
                "place": row.place,
                key: row.entrant,
                "name": names.get(row.entrant, ""),
                "stage": row.stage,
                "eliminated_in": row.eliminated_in,
            }
            for row in rows
        ],
    }


def stage_names(tournament: Tournament) -> dict[int, str]:
    """Each stage's name by number ("Swiss", "Top 8")."""
    return {row.number: row.name for row in stage_rows(tournament)}


def places_by_entrant(placings: Placings) -> Mapping[int, int]:
    """Each entrant's place (the CSV's ``place`` column, the archive)."""
    return {row.entrant: row.place for row in placings.rows}


def places_by_registration(tournament: Tournament, placings: Placings) -> dict[int, int]:
    """Each registration's place: its own, or in a team event its team's (every member of a
    team shares the team's place: the standings CSV, the top decklists, a series)."""
    places = places_by_entrant(placings)
    if entrant_key(tournament) != "team":
        return dict(places)
    return {
        registration: places[team]
        for team, registration in TeamMember.objects.filter(
            team__tournament=tournament
        ).values_list("team_id", "registration_id")
        if team in places
    }
