"""Final placings (event-structures: Placings).

Pure: no database. Named examples quote the contract's sentences; hypothesis checks the
invariants on random events (a permutation of the entrants, places 1..N, monotone by how far
each one went).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.placings import (
    Elimination,
    PlacingError,
    Placings,
    StageOutcome,
    compute_placings,
)
from tournaments.stages import FinalRow

TOP_8_ROUNDS = {1: "Quarterfinals", 2: "Semifinals", 3: "Final"}


def swiss(number: int, ids: list[int], status: Any = "finished", **kw: Any) -> StageOutcome:
    """A Swiss stage whose standings list ``ids`` in order, each on its own points."""
    rows = tuple(
        FinalRow(pid, k + 1, 3 * (len(ids) - k), (("omw", 0.5),)) for k, pid in enumerate(ids)
    )
    return StageOutcome(number, "swiss", status, standing=rows, **kw)


def out(entrant: int, round_index: int) -> Elimination:
    return Elimination(entrant, round_index, TOP_8_ROUNDS[round_index])


def top_8(
    number: int, seeds: list[int], champion: int | None, gone: list[Elimination], **kw: Any
) -> StageOutcome:
    status = kw.pop("status", "finished")
    return StageOutcome(
        number,
        "single_elimination",
        status,
        seeds=tuple(seeds),
        eliminated=tuple(gone),
        champion=champion,
        **kw,
    )


def places(placings: Placings) -> list[tuple[int, int, int, str | None]]:
    return [(r.place, r.entrant, r.stage, r.eliminated_in) for r in placings.rows]


# Day 1: 12 players; day 2: the top 10 by points (1..10); top 8 seeded 1..8 from day 2.
DAY1 = swiss(1, list(range(1, 13)))
DAY2 = swiss(2, [3, 1, 2, 5, 4, 6, 8, 7, 10, 9], sources=(1,))
SEEDS = [3, 1, 2, 5, 4, 6, 8, 7]
# 3 beats 7 in the final; semifinal losers 2 (seed 3) and 5 (seed 4); quarterfinal losers
# are seeds 5..8 (4, 6, 8, 7).
BRACKET_OUT = [out(7, 1), out(4, 1), out(6, 1), out(8, 1), out(5, 2), out(2, 2), out(1, 3)]


def test_structures_placings_champion_finalist_then_by_round_reached() -> None:
    """ "Players who went further rank above those who stopped earlier"."""
    placings = compute_placings([DAY1, DAY2, top_8(3, SEEDS, 3, BRACKET_OUT, sources=(2,))])
    assert placings.final
    assert places(placings)[:4] == [
        (1, 3, 3, None),
        (2, 1, 3, "Final"),
        (3, 2, 3, "Semifinals"),
        (4, 5, 3, "Semifinals"),
    ]


def test_structures_placings_same_bracket_round_by_seed() -> None:
    """ "Players eliminated in the same bracket round are ordered by their final standing in the
    stage that seeded the bracket", each on a place of their own ("places 1..N without gaps"):
    the quarterfinal losers take 5, 6, 7, 8 in seed order."""
    placings = compute_placings([DAY1, DAY2, top_8(3, SEEDS, 3, BRACKET_OUT, sources=(2,))])
    assert places(placings)[4:8] == [
        (5, 4, 3, "Quarterfinals"),
        (6, 6, 3, "Quarterfinals"),
        (7, 8, 3, "Quarterfinals"),
        (8, 7, 3, "Quarterfinals"),
    ]


def test_structures_placings_swiss_finishers_by_their_last_stage_standing() -> None:
    """Day 2 players out of the cut, then day 1 players, each by that stage's standings."""
    placings = compute_placings([DAY1, DAY2, top_8(3, SEEDS, 3, BRACKET_OUT, sources=(2,))])
    assert places(placings)[8:] == [
        (9, 10, 2, None),
        (10, 9, 2, None),
        (11, 11, 1, None),
        (12, 12, 1, None),
    ]
    assert placings.to_json()["rows"][8] == {
        "place": 9,
        "registration": 10,
        "stage": 2,
        "eliminated_in": None,
    }


def test_structures_placings_not_final_while_a_stage_runs() -> None:
    """ "final is false until the last stage is finished; the rows so far are then the
    standings as they stand": players still in the bracket rank above those out of it."""
    running = top_8(3, SEEDS, None, BRACKET_OUT[:4], sources=(2,), status="running")
    placings = compute_placings([DAY1, DAY2, running])
    assert not placings.final
    assert [r.entrant for r in placings.rows[:8]] == [3, 1, 2, 5, 4, 6, 8, 7]
    assert [r.eliminated_in for r in placings.rows[:4]] == [None] * 4


def test_structures_placings_a_pending_stage_has_nobody_yet() -> None:
    pending = top_8(3, [], None, [], sources=(2,), status="pending")
    placings = compute_placings([DAY1, DAY2, pending])
    assert not placings.final
    assert [r.entrant for r in placings.rows[:10]] == [3, 1, 2, 5, 4, 6, 8, 7, 10, 9]
    assert {r.stage for r in placings.rows[:10]} == {2}


def test_structures_placings_flights_are_level_and_merged() -> None:
    """Two flights feed day 2: their players out of day 2 are merged by points then
    tiebreakers, not placed flight after flight."""
    flight_a = StageOutcome(
        1,
        "swiss",
        "finished",
        standing=(
            FinalRow(1, 1, 9, (("omw", 0.6),)),
            FinalRow(2, 2, 6, (("omw", 0.5),)),
            FinalRow(3, 3, 0, (("omw", 0.5),)),
        ),
    )
    flight_b = StageOutcome(
        2,
        "swiss",
        "finished",
        standing=(
            FinalRow(11, 1, 9, (("omw", 0.7),)),
            FinalRow(12, 2, 3, (("omw", 0.5),)),
            FinalRow(13, 3, 0, (("omw", 0.4),)),
        ),
    )
    day2 = swiss(3, [11, 1], sources=(1, 2))
    placings = compute_placings([flight_a, flight_b, day2])
    assert [(r.entrant, r.stage) for r in placings.rows] == [
        (11, 3),
        (1, 3),
        (2, 1),
        (12, 2),
        (3, 1),
        (13, 2),
    ]


def test_structures_placings_dropped_players_keep_their_place() -> None:
    """ "Dropped players keep the place their record gives them"."""
    rows = (
        FinalRow(1, 1, 9, dropped=True),
        FinalRow(2, 2, 6),
        FinalRow(3, 3, 3),
    )
    placings = compute_placings([StageOutcome(1, "swiss", "finished", standing=rows)])
    assert [(r.place, r.entrant) for r in placings.rows] == [(1, 1), (2, 2), (3, 3)]


def test_structures_placings_team_events_place_teams() -> None:
    """ "A team event places teams ("team" instead of "registration")"."""
    placings = compute_placings([swiss(1, [40, 41])])
    assert placings.to_json("team")["rows"][0] == {
        "place": 1,
        "team": 40,
        "stage": 1,
        "eliminated_in": None,
    }


def test_structures_placings_double_elimination_by_losers_round() -> None:
    seeds = [1, 2, 3, 4]
    gone = [
        Elimination(4, 1, "Losers round 1"),
        Elimination(3, 2, "Losers round 2"),
        Elimination(2, 3, "Grand final"),
    ]
    stage = StageOutcome(
        1, "double_elimination", "finished", seeds=tuple(seeds), eliminated=tuple(gone), champion=1
    )
    assert places(compute_placings([stage])) == [
        (1, 1, 1, None),
        (2, 2, 1, "Grand final"),
        (3, 3, 1, "Losers round 2"),
        (4, 4, 1, "Losers round 1"),
    ]


@pytest.mark.parametrize(
    ("stages", "field"),
    [
        ([DAY1, DAY1], "stages[1].number"),
        ([DAY1, swiss(2, [1, 2], sources=(3,))], "stages[1].sources"),
        ([swiss(1, [1, 1])], "stages[0]"),
        ([top_8(1, [1, 2], 9, [])], "stages[0].champion"),
        ([top_8(1, [1, 2], None, [])], "stages[0].champion"),
        ([top_8(1, [1, 2], 1, [out(1, 3)])], "stages[0].champion"),
        ([top_8(1, [1, 2], 1, [out(5, 3)])], "stages[0].eliminated[0]"),
    ],
)
def test_structures_placings_inconsistent_outcomes_name_the_field(
    stages: list[StageOutcome], field: str
) -> None:
    with pytest.raises(PlacingError) as error:
        compute_placings(stages)
    assert error.value.field == field


# -- invariants ------------------------------------------------------------------------------------
@st.composite
def events(draw: st.DrawFn) -> tuple[list[StageOutcome], dict[int, int]]:
    """A Swiss stage, then optionally a carried Swiss, then optionally a bracket, with random
    eliminations; returns the stages and each entrant's last stage (how far it went)."""
    n = draw(st.integers(2, 60))
    order = draw(st.permutations(list(range(1, n + 1))))
    stages = [swiss(1, list(order))]
    reached = dict.fromkeys(order, 1)  # by stage number: each stage here is deeper
    field = list(order)
    if n >= 4 and draw(st.booleans()):
        field = field[: draw(st.integers(2, n))]
        stages.append(swiss(2, draw(st.permutations(field)), sources=(1,)))
        reached.update(dict.fromkeys(field, 2))
    if len(field) >= 2 and draw(st.booleans()):
        size = draw(st.integers(2, min(len(field), 16)))
        seeds = list(stages[-1].entrants)[:size]
        alive = list(seeds)
        gone: list[Elimination] = []
        round_index = 0
        while len(alive) > 1:
            round_index += 1
            losers = draw(
                st.lists(st.sampled_from(alive), min_size=1, max_size=len(alive) - 1, unique=True)
            )
            gone.extend(Elimination(x, round_index, f"Round {round_index}") for x in losers)
            alive = [x for x in alive if x not in losers]
        number = len(stages) + 1
        stages.append(
            StageOutcome(
                number,
                "single_elimination",
                "finished",
                sources=(number - 1,),
                seeds=tuple(seeds),
                eliminated=tuple(gone),
                champion=alive[0],
            )
        )
        reached.update(dict.fromkeys(seeds, number))
    return stages, reached


@settings(max_examples=150, deadline=None)
@given(events())
def test_structures_placings_invariants(event: tuple[list[StageOutcome], dict[int, int]]) -> None:
    stages, reached = event
    placings = compute_placings(stages)
    entrants = [r.entrant for r in placings.rows]
    assert sorted(entrants) == sorted(reached)  # everyone once
    assert [r.place for r in placings.rows] == list(range(1, len(entrants) + 1))
    depths = [reached[e] for e in entrants]
    assert depths == sorted(depths, reverse=True)  # who went further ranks above
    bracket = stages[-1]
    if bracket.is_elimination:
        assert placings.rows[0].entrant == bracket.champion
        gone = {e.entrant: e.round_index for e in bracket.eliminated}
        seed = {e: k for k, e in enumerate(bracket.seeds)}
        inside = [e for e in entrants if e in gone]
        assert inside == sorted(inside, key=lambda e: (-gone[e], seed[e]))
