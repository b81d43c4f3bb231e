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

Team events place teams: the entrants are whatever the stage outcomes hold, and
:data:`ENTRANT_NAMES` names them (registrations here; the team app adds ``"team"``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from django.core.cache import cache
from django.db.models import Count, Max, Q

from config.errors import NotFound
from config.published import version_of
from matches.models import (
    VISIBLE_TO_PLAYERS,
    Match,
    MatchStatus,
    ResultVersion,
    Round,
    RoundStage,
    RoundStatus,
)
from matches.services.standings import standings_snapshot
from tournaments import brackets, results
from tournaments.models import Registration, Tournament
from tournaments.placings import Elimination, Placings, StageOutcome, StageStatus, compute_placings
from tournaments.stages import (
    ELIMINATION_KINDS,
    SINGLE_ELIMINATION,
    SWISS,
    FinalRow,
    StageKind,
    legacy_stages,
)
from tournaments.status import EventStatus

EntrantKey = Literal["registration", "team"]

PLACINGS_CACHE_SECONDS: Final = 6 * 3600
# Within a bracket, a grand final is later than any round of either side.
_GRAND_FINAL_INDEX: Final = 10_000


def _registration_names(ids: Iterable[int]) -> dict[int, str]:
    people = Registration.objects.filter(pk__in=list(ids)).select_related("player")
    return {r.pk: r.name for r in people}


ENTRANT_NAMES: dict[str, Callable[[Iterable[int]], dict[int, str]]] = {
    "registration": _registration_names,
}
"""How each kind of entrant is named in :func:`placings_json`: the team app adds ``"team"``."""


def entrant_key(tournament: Tournament) -> EntrantKey:
    """``"team"`` for a team event (event-structures: Placings), else ``"registration"``."""
    return "team" if getattr(tournament, "team", None) else "registration"


# -- the stages as stored ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _PlayedStage:
    """One stage and the rounds of it players may see, oldest first."""

    number: int
    kind: StageKind
    sources: tuple[int, ...]
    rounds: tuple[Round, ...]
    seeds: tuple[int, ...] = ()  # in seed order, when the stage row keeps them
    status: StageStatus | None = None  # as the stage row says, when there is one


def _visible_rounds(tournament: Tournament) -> list[Round]:
    return list(
        tournament.rounds.filter(status__in=VISIBLE_TO_PLAYERS)
        .order_by("number")
        .only("id", "number", "stage", "status", "tournament_id")
    )


def _legacy_plan(tournament: Tournament, rounds: Sequence[Round]) -> list[_PlayedStage]:
    """An event run as one Swiss stage and the optional top cut (event-structures: Stages):
    stage 1 is its Swiss rounds, stage 2 its bracket rounds."""
    swiss = tuple(r for r in rounds if r.stage == RoundStage.SWISS)
    cut = tuple(r for r in rounds if r.stage == RoundStage.TOP_CUT)
    out = []
    for stage in legacy_stages(tournament.top_cut_size or (2 if cut else None)):
        played = swiss if stage.kind == SWISS else cut
        out.append(_PlayedStage(stage.number, stage.kind, stage.sources, played))
    return out


def _stage_plan(tournament: Tournament, rounds: Sequence[Round]) -> list[_PlayedStage]:
    return _legacy_plan(tournament, rounds)


# -- one stage's outcome ----------------------------------------------------------------------------
def _standing_rows(tournament: Tournament, stage: _PlayedStage) -> tuple[FinalRow, ...]:
    """The stage's standings after its last finished round, its own players only."""
    finished = [r for r in stage.rounds if r.status == RoundStatus.FINISHED]
    if not finished:
        return ()
    try:
        snapshot = standings_snapshot(tournament, finished[-1].number)
    except NotFound:
        return ()
    players = set(
        Match.objects.filter(round__in=stage.rounds).values_list("a_id", flat=True)
    ) | set(
        Match.objects.filter(round__in=stage.rounds, b__isnull=False).values_list("b_id", flat=True)
    )
    return tuple(
        FinalRow(
            registration=int(row["registration"]),
            rank=int(row["rank"]),
            points=int(row["points"]),
            tiebreakers=tuple(row["tiebreakers"].items()),
            dropped=bool(row["dropped"]),
        )
        for row in snapshot.rows
        if int(row["registration"]) in players
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


def _bracket_outcome(
    stage: _PlayedStage,
    status: StageStatus,
) -> StageOutcome:
    matches, seen = _played_matches(stage)
    seeds = list(stage.seeds) or seen
    if stage.status is None and not stage.rounds:
        status = "pending"
    if len(seeds) < 2:
        return StageOutcome(stage.number, stage.kind, "pending", stage.sources)
    kind: Literal["single_elimination", "double_elimination"] = (
        SINGLE_ELIMINATION if stage.kind == SINGLE_ELIMINATION else "double_elimination"
    )
    state = _played_out(kind, seeds, matches)
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
    if stage.status is None:
        status = "finished" if champion is not None else "running"
    if status == "finished" and champion is None:
        status = "running"  # a bracket without its champion is not over, whatever says so
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


def _swiss_status(
    tournament: Tournament, stage: _PlayedStage, later_started: bool, last: bool
) -> StageStatus:
    if stage.status is not None:
        return stage.status
    if not stage.rounds:
        return "pending"
    if later_started or (last and tournament.status == EventStatus.FINISHED):
        return "finished"
    return "running"


def stage_outcomes(tournament: Tournament) -> list[StageOutcome]:
    """Each stage of the event as the placings core reads it, in stage order."""
    plan = _stage_plan(tournament, _visible_rounds(tournament))
    if tournament.status == EventStatus.FINISHED:
        # An event finished before a later stage started (no top cut after all): it ends there.
        plan = [s for s in plan if s.rounds or s.seeds]
    out: list[StageOutcome] = []
    for k, stage in enumerate(plan):
        if stage.kind in ELIMINATION_KINDS:
            out.append(_bracket_outcome(stage, stage.status or "running"))
            continue
        later = any(s.rounds for s in plan[k + 1 :] if stage.number in s.sources)
        status = _swiss_status(tournament, stage, later, k == len(plan) - 1)
        standing = _standing_rows(tournament, stage) if status != "pending" else ()
        out.append(StageOutcome(stage.number, stage.kind, status, stage.sources, standing=standing))
    return out


# -- cached -------------------------------------------------------------------------------------------
def placings_version(tournament: Tournament) -> str:
    """What decides the placings: the newest result of any match of the event, its rounds'
    progress (how many, how many finished, which players may see), the event's status and
    its tiebreaker configuration. Two indexed aggregates."""
    newest = ResultVersion.objects.filter(match__round__tournament=tournament).aggregate(
        newest=Max("id")
    )["newest"]
    progress = tournament.rounds.aggregate(
        visible=Count("id", filter=Q(status__in=VISIBLE_TO_PLAYERS)),
        finished=Count("id", filter=Q(status=RoundStatus.FINISHED)),
        last=Max("number", filter=Q(status__in=VISIBLE_TO_PLAYERS)),
    )
    return version_of(
        "placings",
        tournament.pk,
        newest or 0,
        progress["visible"],
        progress["finished"],
        progress["last"] or 0,
        tournament.status,
        tournament.top_cut_size or 0,
        tournament.tiebreaker_fingerprint,
    )


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
    names = ENTRANT_NAMES.get(key, _registration_names)(row.entrant for row in rows)
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
    return {stage.number: stage.name for stage in legacy_stages(tournament.top_cut_size or None)}


def places_by_entrant(placings: Placings) -> Mapping[int, int]:
    """Each entrant's place (the CSV's ``place`` column, the archive)."""
    return {row.entrant: row.place for row in placings.rows}
