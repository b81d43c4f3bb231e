"""Final placings of an event run in stages (event-structures: Placings).

Pure code: no Django. The site passes each stage's outcome as plain values (who stood where in
a Swiss or round-robin stage, who was seeded where and eliminated when in a bracket) and shows
the rows :func:`compute_placings` returns.

The rule, from the contract:

- "Every registered player who played appears once, places 1..N without gaps": every entrant
  gets a place of its own; places are never shared. Players eliminated in the same bracket
  round therefore take consecutive places (the four quarterfinal losers of a top 8 are 5, 6, 7
  and 8), which the next sentence orders.
- "Players eliminated in the same bracket round are ordered by their final standing in the
  stage that seeded the bracket": that is their seed, since a bracket is seeded from that
  standing (event-structures: Stages).
- "Players who went further rank above those who stopped earlier": an entrant's last stage is
  the last stage it played; stages are ranked by how far along the event they are, their
  *depth* (0 for a stage drawing from no earlier one, else one more than the deepest stage it
  draws from), so that parallel flights are level. Within a bracket, the champion first, then
  players still in it (a running bracket), then by the round they were eliminated in, latest
  first; a double-elimination bracket's rounds are ordered by the ``round_index`` its bracket
  core gives them.
- "Players whose last stage was a Swiss or round-robin stage are ordered by their final
  standing in that stage": the stage's standings rows (carried ones where it carries);
  players of parallel flights at the same depth are merged as the entry rules merge them
  (:func:`tournaments.stages.merge_final_standings`).
- Two kinds of stage at the same depth (a bracket beside a Swiss from the same earlier stage)
  place the brackets' players first, stage by stage, then the merged Swiss ones.
- "``final`` is false until the last stage is finished": the rows are then the standings as
  they stand; a stage that has not started has no players yet.
- "Dropped players keep the place their record gives them": dropped rows stay where the
  standings put them. Team events place teams: entrants are team ids then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import BattledeskError
from tournaments.stages import ELIMINATION_KINDS, FinalRow, StageKind, merge_final_standings

StageStatus = Literal["pending", "running", "finished"]


class PlacingError(BattledeskError, ValueError):
    """Inconsistent stage outcomes: ``field`` names the part, e.g. ``stages[2].champion``."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


@dataclass(frozen=True)
class Elimination:
    """An entrant knocked out of a bracket: in the round named ``round_name``.

    ``round_index`` orders the bracket's rounds by how far into the bracket they are (larger:
    later), e.g. 1, 2, 3 for the quarterfinals, semifinals and final of a top 8.
    """

    entrant: int
    round_index: int
    round_name: str


@dataclass(frozen=True)
class StageOutcome:
    """One stage as placings read it.

    Swiss and round robin: ``standing``, the stage's standings rows (final once it finished;
    with carried records where it carries), in their order. Elimination: ``seeds``, its
    entrants in seed order, ``eliminated`` and, once decided, ``champion``. ``sources``: the
    stages its entry draws from (the contract's ``from``).
    """

    number: int
    kind: StageKind
    status: StageStatus
    sources: tuple[int, ...] = ()
    standing: tuple[FinalRow, ...] = ()
    seeds: tuple[int, ...] = ()
    eliminated: tuple[Elimination, ...] = ()
    champion: int | None = None

    @property
    def is_elimination(self) -> bool:
        return self.kind in ELIMINATION_KINDS

    @property
    def entrants(self) -> Iterable[int]:
        if self.is_elimination:
            return self.seeds
        return (row.registration for row in self.standing)


@dataclass(frozen=True)
class Placing:
    """One row: ``place`` from 1; ``stage``: the entrant's last stage; ``eliminated_in``: the
    bracket round it went out in (None for a champion, a player still in, or a Swiss or
    round-robin finish)."""

    place: int
    entrant: int
    stage: int
    eliminated_in: str | None


@dataclass(frozen=True)
class Placings:
    final: bool
    rows: tuple[Placing, ...]

    def to_json(
        self, entrant_key: Literal["registration", "team"] = "registration"
    ) -> dict[str, Any]:
        """The contract's shape, but for ``name``, which the site adds."""
        return {
            "final": self.final,
            "rows": [
                {
                    "place": row.place,
                    entrant_key: row.entrant,
                    "stage": row.stage,
                    "eliminated_in": row.eliminated_in,
                }
                for row in self.rows
            ],
        }


def compute_placings(stages: Sequence[StageOutcome]) -> Placings:
    """Every entrant's place by the contract's rule (module docstring; event-structures:
    Placings). ``stages`` in stage order; a pending stage contributes nobody."""
    _check(stages)
    depth = _depths(stages)
    # The deepest stage an entrant played (of two at one depth, the later one).
    last: dict[int, int] = {}
    for stage in sorted(stages, key=lambda s: (depth[s.number], s.number)):
        if stage.status == "pending":
            continue
        for entrant in stage.entrants:
            last[entrant] = stage.number
    tiers: dict[int, list[StageOutcome]] = {}
    for stage in stages:
        tiers.setdefault(depth[stage.number], []).append(stage)
    order: list[tuple[int, int, str | None]] = []
    for level in sorted(tiers, reverse=True):
        swiss_rows: dict[int, Sequence[FinalRow]] = {}
        for stage in tiers[level]:
            if stage.status == "pending":
                continue
            if stage.is_elimination:
                order.extend(_bracket_order(stage, last))
            else:
                swiss_rows[stage.number] = [
                    r for r in stage.standing if last[r.registration] == stage.number
                ]
        if len(swiss_rows) == 1:
            ((number, only),) = swiss_rows.items()
            order.extend((row.registration, number, None) for row in only)
        elif swiss_rows:
            merged = merge_final_standings(swiss_rows)
            order.extend((row.registration, row.stage, None) for row in merged)
    rows = tuple(
        Placing(place, entrant, stage, eliminated_in)
        for place, (entrant, stage, eliminated_in) in enumerate(order, start=1)
    )
    final = bool(stages) and all(stage.status == "finished" for stage in stages)
    return Placings(final, rows)


def _bracket_order(
    stage: StageOutcome, last: Mapping[int, int]
) -> list[tuple[int, int, str | None]]:
    seed = {entrant: k for k, entrant in enumerate(stage.seeds)}
    out = {e.entrant: e for e in stage.eliminated}

    def key(entrant: int) -> tuple[int, int, int]:
        if entrant == stage.champion:
            return (0, 0, seed[entrant])
        gone = out.get(entrant)
        if gone is None:
            return (1, 0, seed[entrant])
        return (2, -gone.round_index, seed[entrant])

    ordered = sorted((e for e in stage.seeds if last[e] == stage.number), key=key)
    return [(e, stage.number, out[e].round_name if e in out else None) for e in ordered]


def _depths(stages: Sequence[StageOutcome]) -> dict[int, int]:
    depth: dict[int, int] = {}
    for stage in stages:
        depth[stage.number] = 1 + max((depth[s] for s in stage.sources), default=-1)
    return depth


def _check(stages: Sequence[StageOutcome]) -> None:
    seen: set[int] = set()
    for i, stage in enumerate(stages):
        path = f"stages[{i}]"
        if stage.number in seen:
            raise PlacingError(f"{path}.number", f"stage {stage.number} is listed twice")
        for source in stage.sources:
            if source not in seen:
                raise PlacingError(f"{path}.sources", f"stage {source} is not an earlier stage")
        seen.add(stage.number)
        entrants = list(stage.entrants)
        if len(set(entrants)) != len(entrants):
            raise PlacingError(path, "an entrant is listed twice")
        if not stage.is_elimination:
            if stage.seeds or stage.eliminated or stage.champion is not None:
                raise PlacingError(path, "a Swiss or round-robin stage has standings, not seeds")
            continue
        if stage.standing:
            raise PlacingError(f"{path}.standing", "a bracket has seeds, not standings")
        members = set(entrants)
        out: set[int] = set()
        for k, gone in enumerate(stage.eliminated):
            if gone.entrant not in members or gone.entrant in out:
                raise PlacingError(
                    f"{path}.eliminated[{k}]",
                    f"entrant {gone.entrant} is not seeded or is eliminated twice",
                )
            out.add(gone.entrant)
        if stage.champion is not None and (stage.champion not in members or stage.champion in out):
            raise PlacingError(f"{path}.champion", "must be a seeded entrant not eliminated")
        if stage.status == "finished" and stage.champion is None and len(members) > 1:
            raise PlacingError(f"{path}.champion", "a finished bracket has a champion")
