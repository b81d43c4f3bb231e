"""python manage.py swiss_state SLUG [--round N] [--output FILE]: an event's Swiss history as
the STATE.json of ``python -m tournaments.swiss`` (docs/swiss.md), so anyone can check the
site's standings and pairings outside it.

The state is built with :func:`matches.services.swiss_history`: player ids are registration ids
as strings, ``rounds`` are the finished Swiss rounds up to round N (default: the last finished
one), ``scoring`` and ``tiebreakers`` are the event's, and ``seed`` is the seed of round N + 1
as the site stores it (``Round.seed``), so:

- ``python -m tournaments.swiss standings STATE.json`` gives the site's standings after round
  N: the same ranks, points, records and tiebreakers (both round percentages to six places).
- ``python -m tournaments.swiss pair STATE.json`` gives round N + 1 as the site paired it. The
  site pairs only the players it is pairing (everyone else counts as dropped), so the players
  are described as they were for round N + 1: when round N + 1 exists, exactly its players are
  active (a player who dropped later is not marked dropped here, one who dropped or was not
  checked in before it is); when it does not exist yet, the players the site would pair now.

Not reproducible, and said on standard error when detected: a round N + 1 whose seats an
organiser changed by hand (swaps, table moves); results of rounds up to N corrected after
round N + 1 was paired; registration settings (fixed table, granted byes, seeding) changed
since. Players entering late in round N + 1 must be in the state for the pairing, so they also
appear in its standings, with no matches, where the site's standings after round N do not list
them. The top cut is not part of a Swiss state.

A top-level ``battledesk`` object (event, round N, round N + 1, the notes) says where the state
comes from; the Swiss command line ignores it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from config.commands import DatabaseCommand
from matches import services
from matches.models import Match, ResultChange, ResultVersion, Round, RoundStage, RoundStatus
from tournaments.models import AuditEntry, LateEntryPolicy, Registration, Tournament
from tournaments.standings import MatchRecord, Player
from tournaments.status import EventStatus

HAND_CHANGES = ("round.swapped", "round.table_set")


def player_json(player: Player) -> dict[str, Any]:
    return {
        "id": player.id,
        "dropped": player.dropped,
        "late_entry_round": player.late_entry_round,
        "fixed_table": player.fixed_table,
        "seeding": player.seeding,
        "bye_rounds": list(player.bye_rounds),
        "late_entry_losses": player.late_entry_losses,
    }


def match_json(match: MatchRecord) -> dict[str, Any]:
    if match.b is None:
        return {"a": match.a, "bye": True}
    out: dict[str, Any] = {
        "a": match.a,
        "b": match.b,
        "result": match.result,
        "games": list(match.games),
    }
    if match.penalty_game_losses != (0, 0):
        out["penalties"] = list(match.penalty_game_losses)
    if match.battles is not None:
        out["battles"] = list(match.battles)
    return out


def build_state(
    tournament: Tournament, after: int | None = None
) -> tuple[dict[str, Any], list[str]]:
    """The event's STATE.json after Swiss round ``after`` (default: the last finished one),
    with the notes on what it cannot reproduce."""
    finished = list(
        tournament.rounds.filter(stage=RoundStage.SWISS, status=RoundStatus.FINISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if after is None:
        after = finished[-1] if finished else 0
    elif after != 0 and after not in finished:
        done = ", ".join(str(n) for n in finished) or "none"
        raise CommandError(
            f"--round {after}: not a finished Swiss round of '{tournament.slug}' "
            f"(finished: {done})."
        )
    number = after + 1
    notes: list[str] = []
    nxt = tournament.rounds.filter(number=number).first()
    candidates: list[Registration] | None
    if (
        nxt is not None
        and nxt.stage == RoundStage.SWISS
        and nxt.status != RoundStatus.PAIRING
        and nxt.matches.exists()
    ):
        # Round N + 1 exists: exactly its players were being paired.
        ids = {pk for pair in nxt.matches.values_list("a_id", "b_id") for pk in pair if pk}
        candidates = list(Registration.objects.filter(pk__in=ids).select_related("player"))
        seed = nxt.seed
        notes.extend(_drift(tournament, nxt, after))
    elif nxt is None and tournament.status == EventStatus.RUNNING:
        # Not paired yet: the players the site would pair now, with the seed it would use.
        candidates = services.pairable_registrations(tournament)
        seed = f"{tournament.pairing_seed}:{number}" if tournament.pairing_seed else ""
        if not tournament.pairing_seed:
            notes.append(
                "the event has no pairing seed yet (the site draws one when it pairs round 1): "
                "the state's seed cannot match it"
            )
    else:
        # No Swiss round N + 1 to come: the players as they are, drops as recorded.
        candidates = None
        if nxt is not None and nxt.stage == RoundStage.SWISS:
            seed = nxt.seed
        else:
            seed = f"{tournament.pairing_seed}:{number}" if tournament.pairing_seed else ""

    history = services.swiss_history(tournament, upto=after, extra=candidates or ())
    players = list(history.players)
    if candidates is not None:
        active = {str(r.pk) for r in candidates}
        played = {pid for rnd in history.rounds for m in rnd for pid in (m.a, m.b) if pid}
        late_losses = tournament.late_entry_policy == LateEntryPolicy.LOSS
        entering = []
        for i, player in enumerate(players):
            player = replace(player, dropped=player.id not in active)
            registration = history.registrations[int(player.id)]
            if player.id not in played and not player.dropped:
                entering.append(player.id)
                if number > 1 and registration.late_entry_round is None:
                    # What the site records when it pairs round N + 1
                    # (matches.services.pairing._pair_swiss_round).
                    player = replace(player, late_entry_round=number, late_entry_losses=late_losses)
            players[i] = player
        if entering and number > 1:
            notes.append(
                f"{len(entering)} player(s) entering in round {number} are in the state for "
                f"the pairing, so its standings list them; the site's standings after round "
                f"{after} do not ({', '.join(entering)})"
            )
    state: dict[str, Any] = {
        "players": [player_json(p) for p in players],
        "rounds": [[match_json(m) for m in rnd] for rnd in history.rounds],
        "scoring": _scoring_json(tournament),
        "seed": seed,
        "tiebreakers": list(tournament.tiebreakers),
        # Ignored by python -m tournaments.swiss: where the state comes from.
        "battledesk": {
            "event": tournament.slug,
            "after_round": after,
            "next_round": number,
            "notes": notes,
        },
    }
    return state, notes


def _scoring_json(tournament: Tournament) -> dict[str, Any]:
    data = asdict(services.scoring(tournament))
    data["bye_games"] = list(data["bye_games"])
    return data


def _drift(tournament: Tournament, nxt: Round, after: int) -> list[str]:
    """What happened since round ``nxt`` was paired that the state cannot replay."""
    notes = []
    by_hand = [
        e.action
        for e in AuditEntry.objects.filter(tournament=tournament, action__in=HAND_CHANGES).only(
            "action", "data"
        )
        if e.data.get("round") == nxt.number
    ]
    if by_hand:
        notes.append(
            f"round {nxt.number} was changed by hand after pairing ({', '.join(sorted(set(by_hand)))}): "
            "pairing the state gives the draw before those changes"
        )
    corrected = ResultVersion.objects.filter(
        match__in=Match.objects.filter(round__tournament=tournament, round__number__lte=after),
        change=ResultChange.CORRECTED,
        created_at__gt=nxt.created_at,
    ).count()
    if corrected:
        notes.append(
            f"{corrected} result(s) of rounds up to {after} were corrected after round "
            f"{nxt.number} was paired: the state has the corrected results, the pairing used "
            "the old ones"
        )
    return notes


class Command(DatabaseCommand):
    help = (
        "Write an event's Swiss history as the STATE.json of python -m tournaments.swiss "
        "(docs/swiss.md), to check its standings and pairings outside the site."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the event's slug")
        parser.add_argument(
            "--round",
            type=int,
            default=None,
            dest="after",
            metavar="N",
            help="the state after Swiss round N (default: the last finished round); "
            "its seed and players are those of round N + 1",
        )
        parser.add_argument(
            "--output", "-o", default=None, metavar="FILE", help="write here (default: stdout)"
        )

    def handle(
        self, *args: Any, slug: str, after: int | None, output: str | None, **options: Any
    ) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No event with the slug '{slug}'.")
        if after is not None and after < 0:
            raise CommandError(f"--round {after}: a round number, 0 or more.")
        state, notes = build_state(tournament, after)
        text = json.dumps(state, indent=1) + "\n"
        if output:
            try:
                Path(output).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"{output}: {exc.strerror or exc}") from None
        else:
            self.stdout.write(text, ending="")
        for note in notes:
            self.stderr.write(f"note: {note}")
