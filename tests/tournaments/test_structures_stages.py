"""Stages as data: parsing, presets, entry rules and carried records (event-structures: Stages).

Pure: no database. Named examples cite the contract; hypothesis checks the merge and the
carried history against the standings core.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.stages import (
    MAX_CUT,
    PRESETS,
    EntryError,
    FinalRow,
    Stage,
    StageError,
    StageHistory,
    apply_entry,
    carried_history,
    first_stage_players,
    later_flight_players,
    legacy_stages,
    merge_final_standings,
    parse_stages,
    planned_rounds,
    preset_day_two,
    preset_flights,
    stages_feeding,
    stages_to_json,
)
from tournaments.standings import MatchRecord, Player, compute_standings
from tournaments.swiss import pair_round, recommended_structure

CONTRACT_EXAMPLE: list[dict[str, Any]] = [
    {"name": "Day 1", "kind": "swiss", "rounds": 8, "match_structure": "bo3", "round_minutes": 50},
    {
        "name": "Day 2",
        "kind": "swiss",
        "rounds": 5,
        "entry": {"from": [1], "points": 18},
        "carry": "points",
    },
    {
        "name": "Top 8",
        "kind": "single_elimination",
        "match_structure": "bo3",
        "entry": {"from": [2], "top": 8},
    },
]


def with_stage(index: int, **changes: Any) -> list[dict[str, Any]]:
    data = [dict(s) for s in CONTRACT_EXAMPLE]
    for key, value in changes.items():
        if value is None:
            data[index].pop(key, None)
        else:
            data[index][key] = value
    return data


# -- parsing ---------------------------------------------------------------------------------------
def test_structures_stages_contract_example_parses_and_round_trips() -> None:
    stages = parse_stages(CONTRACT_EXAMPLE, match_structures={"bo1", "bo3"})
    assert [s.number for s in stages] == [1, 2, 3]
    assert stages[1].entry is not None and stages[1].entry.points == 18
    assert stages[1].carry == "points"
    assert stages[2].entry is not None and stages[2].entry.top == 8
    assert stages[2].carry == "none"  # elimination stages always carry none
    expected = [dict(s, carry=s.get("carry", "none")) for s in CONTRACT_EXAMPLE]
    assert stages_to_json(stages) == expected
    assert parse_stages(stages_to_json(stages)) == stages


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "swiss"}, "stages"),
        ([], "stages"),
        (with_stage(0, kind="league"), "stages[0].kind"),
        (with_stage(0, entry={"from": [1], "top": 8}), "stages[0].entry"),
        (with_stage(1, entry=None), "stages[1].entry"),
        (with_stage(1, entry={"from": [2], "points": 18}), "stages[1].entry.from[0]"),
        (with_stage(2, entry={"from": [3], "top": 8}), "stages[2].entry.from[0]"),
        (with_stage(2, entry={"from": [2, 2], "top": 8}), "stages[2].entry.from[1]"),
        (with_stage(2, entry={"from": [2], "top": 1}), "stages[2].entry.top"),
        (with_stage(2, entry={"from": [2], "top": 257}), "stages[2].entry.top"),
        (with_stage(2, entry={"from": [2], "top": True}), "stages[2].entry.top"),
        (with_stage(1, entry={"from": [1], "points": -1}), "stages[1].entry.points"),
        (with_stage(2, entry={"top": 8}), "stages[2].entry.from"),
        (with_stage(2, entry={"from": [2], "top": 8, "points": 3}), "stages[2].entry"),
        (with_stage(2, entry={"from": [2], "top": 8, "when": 1}), "stages[2].entry.when"),
        (with_stage(2, entry={"players": [4, 5, 4]}), "stages[2].entry.players[2]"),
        (with_stage(2, entry={"players": [4]}), "stages[2].entry.players"),
        (with_stage(2, carry="points"), "stages[2].carry"),
        (with_stage(2, kind="round_robin", carry="points"), "stages[2].carry"),
        (with_stage(1, carry="all"), "stages[1].carry"),
        (with_stage(1, entry={"players": [4, 5]}), "stages[1].carry"),
        (with_stage(2, rounds=3), "stages[2].rounds"),
        (with_stage(0, rounds=0), "stages[0].rounds"),
        (with_stage(0, round_minutes=4), "stages[0].round_minutes"),
        (with_stage(0, match_structure="bo9"), "stages[0].match_structure"),
        (with_stage(0, name=" "), "stages[0].name"),
        (with_stage(0, colour="red"), "stages[0].colour"),
    ],
)
def test_structures_stages_errors_name_the_field(data: Any, field: str) -> None:
    with pytest.raises(StageError) as error:
        parse_stages(data, match_structures={"bo1", "bo3"})
    assert error.value.field == field


def test_structures_stages_carry_refuses_an_elimination_source() -> None:
    data = [
        {"kind": "swiss"},
        {"kind": "single_elimination", "entry": {"from": [1], "top": 8}},
        {"kind": "swiss", "entry": {"from": [2], "top": 4}, "carry": "points"},
    ]
    with pytest.raises(StageError, match="elimination") as error:
        parse_stages(data)
    assert error.value.field == "stages[2].carry"


def test_structures_stages_read_only_keys_of_the_stage_list_are_ignored() -> None:
    """``GET .../stages/`` adds number, status and players; sending them back is harmless."""
    data = with_stage(0, number=1, status="finished", players=[1, 2])
    assert parse_stages(data) == parse_stages(CONTRACT_EXAMPLE)


def test_structures_stages_a_stage_without_a_name_is_named_by_its_number() -> None:
    stages = parse_stages(
        [{"kind": "swiss"}, {"kind": "round_robin", "entry": {"from": [1], "top": 6}}]
    )
    assert [s.name for s in stages] == ["Stage 1", "Stage 2"]


# -- legacy shape and presets ----------------------------------------------------------------------
def test_structures_stages_legacy_event_is_swiss_then_top_cut() -> None:
    """An event without stages and with top_cut_size has two stages (event-structures: Stages)."""
    swiss, cut = legacy_stages(8)
    assert (swiss.kind, swiss.entry) == ("swiss", None)
    assert cut.kind == "single_elimination"
    assert cut.entry is not None and (cut.entry.sources, cut.entry.top) == ((1,), 8)
    assert [s.kind for s in legacy_stages(None)] == ["swiss"]
    assert [s.kind for s in legacy_stages(0)] == ["swiss"]
    with pytest.raises(StageError) as error:
        legacy_stages(1)
    assert error.value.field == "top_cut_size"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_structures_stages_presets_are_valid_stage_lists(name: str) -> None:
    stages = PRESETS[name]()
    assert parse_stages(stages_to_json(stages)) == stages
    assert stages[0].entry is None


def test_structures_stages_day_two_preset_carries_into_day_two() -> None:
    day1, day2, top = preset_day_two(points=18, top=32)
    assert day2.carry == "points" and day2.entry is not None and day2.entry.points == 18
    assert top.entry is not None and top.entry.top == 32 and top.entry.sources == (2,)


def test_structures_stages_flights_preset_merges_four_flights_into_day_two() -> None:
    stages = preset_flights([[5, 6], [7, 8], [9, 10]], points=18, top=8)
    assert [s.name for s in stages] == [
        "Flight A",
        "Flight B",
        "Flight C",
        "Flight D",
        "Day 2",
        "Top 8",
    ]
    day2 = stages[4]
    assert day2.entry is not None and day2.entry.sources == (1, 2, 3, 4)
    assert day2.carry == "points"
    assert stages_feeding(stages, 5) == (1, 2, 3, 4)
    assert first_stage_players(stages, range(1, 13)) == (1, 2, 3, 4, 11, 12)
    assert later_flight_players(stages) == frozenset(range(5, 11))


@pytest.mark.parametrize(
    ("kind", "players", "rounds"),
    [
        ("swiss", 100, recommended_structure(100)[0]),
        ("round_robin", 8, 7),
        ("round_robin", 7, 7),
        ("single_elimination", 8, 3),
        ("single_elimination", 6, 3),
        ("single_elimination", 256, 8),
        ("double_elimination", 8, 7),
    ],
)
def test_structures_stages_planned_rounds_without_rounds(
    kind: Any, players: int, rounds: int
) -> None:
    assert planned_rounds(Stage(1, "S", kind), players) == rounds


def test_structures_stages_planned_rounds_keeps_given_rounds() -> None:
    assert planned_rounds(Stage(1, "S", "swiss", rounds=4), 500) == 4


# -- entry rules -----------------------------------------------------------------------------------
def rows(
    points: list[int], start: int = 1, dropped: frozenset[int] = frozenset()
) -> list[FinalRow]:
    """Standings rows with registration ids start, start + 1, ...; ranks from the points."""
    out = []
    for k, p in enumerate(points):
        rank = 1 + sum(1 for q in points if q > p)
        out.append(FinalRow(start + k, rank, p, (("omw", 0.5),), start + k in dropped))
    return out


TOP_4 = parse_stages(
    [{"kind": "swiss"}, {"kind": "single_elimination", "entry": {"from": [1], "top": 4}}]
)[1]


def test_structures_stages_entry_top_n_in_seed_order() -> None:
    admission = apply_entry(TOP_4, {1: rows([12, 9, 9, 6, 6, 3])})
    assert admission.players == (1, 2, 3, 4)
    assert admission.cut is not None and admission.cut.tie_at_line


def test_structures_stages_entry_top_n_points_policy_takes_the_tie() -> None:
    """Decision 13's asymmetric cut: everyone on the Nth player's points."""
    admission = apply_entry(TOP_4, {1: rows([12, 9, 9, 6, 6, 3])}, cut_policy="points")
    assert admission.players == (1, 2, 3, 4, 5)


def test_structures_stages_entry_top_n_skips_dropped_players() -> None:
    admission = apply_entry(TOP_4, {1: rows([12, 9, 9, 6, 6, 3], dropped=frozenset({2}))})
    assert admission.players == (1, 3, 4, 5)


def test_structures_stages_entry_too_few_players_names_entry() -> None:
    with pytest.raises(EntryError) as error:
        apply_entry(TOP_4, {1: rows([3, 3, 3, 0], dropped=frozenset({1}))})
    assert error.value.field == "entry"


def test_structures_stages_entry_points_admits_every_active_player_at_the_threshold() -> None:
    (_, day2, _) = preset_day_two(points=6)
    admission = apply_entry(day2, {1: rows([12, 9, 6, 6, 3], dropped=frozenset({2}))})
    assert admission.players == (1, 3, 4)


def test_structures_stages_entry_points_too_few_names_entry() -> None:
    (_, day2, _) = preset_day_two(points=12)
    with pytest.raises(EntryError) as error:
        apply_entry(day2, {1: rows([12, 9, 6])})
    assert error.value.field == "entry"


def test_structures_stages_entry_points_into_a_bracket_at_most_256() -> None:
    stage = parse_stages(
        [{"kind": "swiss"}, {"kind": "single_elimination", "entry": {"from": [1], "points": 0}}]
    )[1]
    apply_entry(stage, {1: rows([0] * MAX_CUT)})
    with pytest.raises(EntryError):
        apply_entry(stage, {1: rows([0] * (MAX_CUT + 1))})


def test_structures_stages_entry_by_hand_keeps_the_list_order() -> None:
    stage = parse_stages(
        [{"kind": "swiss"}, {"kind": "round_robin", "entry": {"players": [9, 3, 5]}}]
    )[1]
    assert apply_entry(stage, {}).players == (9, 3, 5)
    with pytest.raises(EntryError):
        apply_entry(stage, {}, registered={3, 5})


def test_structures_stages_flights_are_ranked_together_by_points_then_tiebreakers() -> None:
    """Flights: "their players are merged and ranked together by points and tiebreakers"."""
    flight_a = [
        FinalRow(1, 1, 9, (("omw", 0.60),)),
        FinalRow(2, 2, 6, (("omw", 0.70),)),
        FinalRow(3, 3, 3, (("omw", 0.40),)),
    ]
    flight_b = [
        FinalRow(11, 1, 9, (("omw", 0.65),)),
        FinalRow(12, 2, 6, (("omw", 0.55),)),
        FinalRow(13, 3, 0, (("omw", 0.50),)),
    ]
    merged = merge_final_standings({1: flight_a, 2: flight_b})
    assert [(r.registration, r.rank, r.stage) for r in merged] == [
        (11, 1, 2),
        (1, 2, 1),
        (2, 3, 1),
        (12, 4, 2),
        (3, 5, 1),
        (13, 6, 2),
    ]
    stage = parse_stages(
        [
            {"kind": "swiss"},
            {"kind": "swiss", "entry": {"players": [11, 12, 13]}},
            {"kind": "single_elimination", "entry": {"from": [1, 2], "top": 4}},
        ]
    )[2]
    assert apply_entry(stage, {1: flight_a, 2: flight_b}).players == (11, 1, 2, 12)


def test_structures_stages_merge_keeps_a_flights_head_to_head_order() -> None:
    """Two players of one flight level on everything but head-to-head keep their order; a
    player of another flight level with them shares the better rank."""
    flight_a = [
        FinalRow(1, 1, 6, (("omw", 0.5), ("h2h", None))),
        FinalRow(2, 2, 6, (("omw", 0.5), ("h2h", None))),
    ]
    flight_b = [FinalRow(7, 1, 6, (("omw", 0.5), ("h2h", None)))]
    merged = merge_final_standings({1: flight_a, 2: flight_b})
    assert [(r.registration, r.rank) for r in merged] == [(1, 1), (7, 1), (2, 3)]


def test_structures_stages_merge_refuses_a_player_in_two_flights() -> None:
    with pytest.raises(EntryError):
        merge_final_standings({1: rows([3, 0]), 2: rows([3, 0])})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), min_size=1, max_size=30))
def test_structures_stages_merge_of_one_stage_gives_back_its_ranks(
    values: list[tuple[int, int]],
) -> None:
    """One stage merged alone keeps the standings core's ranks and order."""
    ordered = sorted(values, key=lambda v: (-v[0], -v[1]))
    table = []
    for k, (points, omw) in enumerate(ordered):
        rank = 1 + sum(1 for p, o in ordered if (p, o) > (points, omw))
        table.append(FinalRow(k + 1, rank, points, (("omw", omw / 4),)))
    merged = merge_final_standings({1: table})
    assert [(r.registration, r.rank) for r in merged] == [(r.registration, r.rank) for r in table]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), min_size=1, max_size=12),
        min_size=1,
        max_size=4,
    )
)
def test_structures_stages_merged_flights_keep_each_flights_order(
    flights: list[list[tuple[int, int]]],
) -> None:
    """Merged flights: everyone once, ranks never falling back, points never rising, and each
    flight's own order kept (its head-to-head decisions with it)."""
    finals: dict[int, list[FinalRow]] = {}
    for number, values in enumerate(flights, start=1):
        ordered = sorted(values, key=lambda v: (-v[0], -v[1]))
        finals[number] = [
            FinalRow(100 * number + k, k + 1, points, (("omw", omw / 4), ("h2h", None)))
            for k, (points, omw) in enumerate(ordered)
        ]
    merged = merge_final_standings(finals)
    assert sorted(r.registration for r in merged) == sorted(
        r.registration for rows in finals.values() for r in rows
    )
    assert [r.rank for r in merged] == sorted(r.rank for r in merged)
    assert [r.points for r in merged] == sorted((r.points for r in merged), reverse=True)
    assert merged[0].rank == 1
    for number, rows in finals.items():
        assert [r.registration for r in merged if r.stage == number] == [
            r.registration for r in rows
        ]


# -- carried records -------------------------------------------------------------------------------
def won(a: str, b: str) -> MatchRecord:
    return MatchRecord(a, b, "a", (2, 0, 0))


FLIGHTS_TO_DAY_TWO = parse_stages(
    [
        {"name": "Flight A", "kind": "swiss"},
        {"name": "Flight B", "kind": "swiss", "entry": {"players": [7, 8, 9, 10]}},
        {
            "name": "Day 2",
            "kind": "swiss",
            "entry": {"from": [1, 2], "points": 3},
            "carry": "points",
        },
        {"name": "Day 3", "kind": "swiss", "entry": {"from": [3], "top": 2}, "carry": "points"},
    ]
)


def flight_a() -> StageHistory:
    players = tuple(Player(p) for p in "ABCDEF")
    return StageHistory(
        1,
        players,
        (
            (won("A", "B"), won("C", "D"), won("E", "F")),
            (won("A", "C"), won("B", "E"), won("D", "F")),
            (won("A", "F"), won("B", "D"), won("C", "E")),
        ),
    )


def flight_b() -> StageHistory:
    return StageHistory(
        2,
        tuple(Player(p) for p in "WXYZ"),
        ((won("W", "X"), won("Y", "Z")), (won("W", "Y"), won("X", "Z"))),
    )


def test_structures_stages_carried_flights_line_up_round_for_round() -> None:
    """A late, shorter flight merges without renumbering anyone (event-structures: Stages)."""
    history = carried_history(
        FLIGHTS_TO_DAY_TWO, 3, {1: flight_a(), 2: flight_b()}, ["A", "C", "W", "X"]
    )
    assert history.first_round == {1: 1, 2: 1}
    assert history.next_round == 4
    assert len(history.rounds) == 3
    assert won("W", "X") in history.rounds[0] and won("A", "B") in history.rounds[0]
    assert [m for m in history.rounds[2] if "W" in (m.a, m.b)] == []
    active = sorted(p.id for p in history.players if not p.dropped)
    assert active == ["A", "C", "W", "X"]
    points = {r.player_id: r.points for r in compute_standings(history.players, history.rounds)}
    assert (points["A"], points["C"], points["W"], points["X"]) == (9, 6, 6, 3)


def test_structures_stages_carried_pairing_makes_no_rematch_across_stages() -> None:
    """carry points: "no rematch of any earlier stage is paired" (event-structures: Stages)."""
    history = carried_history(FLIGHTS_TO_DAY_TWO, 3, {1: flight_a(), 2: flight_b()}, list("ABCD"))
    result = pair_round(history.players, history.rounds, round_number=history.next_round)
    pairs = {frozenset((p.a, p.b)) for p in result.pairings}
    # A met B and C, B met D: only A-D and B-C avoid a rematch.
    assert pairs == {frozenset("AD"), frozenset("BC")}
    assert result.stats.rematches == 0


def test_structures_stages_carrying_twice_stacks_the_stages() -> None:
    """Day 3 carries day 2, which carried the flights: day 2's rounds follow the flights'."""
    day2 = StageHistory(3, tuple(Player(p) for p in "ACWX"), ((won("A", "W"), won("C", "X")),))
    history = carried_history(
        FLIGHTS_TO_DAY_TWO, 4, {1: flight_a(), 2: flight_b(), 3: day2}, ["A", "C"]
    )
    assert history.first_round == {1: 1, 2: 1, 3: 4}
    assert history.rounds[3] == (won("A", "W"), won("C", "X"))
    assert history.next_round == 5
    compute_standings(history.players, history.rounds)  # the core accepts the history


def test_structures_stages_carried_history_refuses_a_player_in_two_flights() -> None:
    doubled = StageHistory(2, (Player("A"), Player("W")), ((won("A", "W"),),))
    with pytest.raises(StageError) as error:
        carried_history(FLIGHTS_TO_DAY_TWO, 3, {1: flight_a(), 2: doubled}, ["A"])
    assert error.value.field == "histories"


def test_structures_stages_carried_history_shifts_late_entries_and_byes() -> None:
    late = StageHistory(
        3,
        (Player("A"), Player("L", late_entry_round=2, bye_rounds=(2,))),
        ((MatchRecord("A"),), (MatchRecord("L"),)),
    )
    history = carried_history(
        FLIGHTS_TO_DAY_TWO, 4, {1: flight_a(), 2: flight_b(), 3: late}, ["A", "L", "N"]
    )
    by_id = {p.id: p for p in history.players}
    assert (by_id["L"].late_entry_round, by_id["L"].bye_rounds) == (5, (5,))
    assert by_id["A"].late_entry_round == 1  # his first stage keeps his entry
    assert by_id["N"].late_entry_round == history.next_round  # by hand, joins at zero
    compute_standings(history.players, history.rounds)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(2, 12), min_size=1, max_size=4),
    st.lists(st.integers(0, 4), min_size=4, max_size=4),
    st.integers(0, 2**16),
)
def test_structures_stages_carried_history_is_a_valid_standings_history(
    sizes: list[int], rounds_per_flight: list[int], seed: int
) -> None:
    """Any flights merged: the standings core accepts the history, every match of every
    flight is in it once, and only the admitted players are active."""
    rng = random.Random(seed)
    data: list[dict[str, Any]] = [{"kind": "swiss"}]
    histories: dict[int, StageHistory] = {}
    for number, size in enumerate(sizes, start=1):
        ids = [f"f{number}p{k}" for k in range(size)]
        if number > 1:
            data.append(
                {"kind": "swiss", "entry": {"players": [100 * number + k for k in range(size)]}}
            )
        own: list[tuple[MatchRecord, ...]] = []
        for _ in range(rounds_per_flight[number - 1]):
            shuffled = rng.sample(ids, len(ids))
            own.append(tuple(won(shuffled[k], shuffled[k + 1]) for k in range(0, len(ids) - 1, 2)))
        histories[number] = StageHistory(number, tuple(Player(p) for p in ids), tuple(own))
    data.append(
        {
            "kind": "swiss",
            "entry": {"from": list(range(1, len(sizes) + 1)), "points": 0},
            "carry": "points",
        }
    )
    stages = parse_stages(data)
    everyone = [p.id for h in histories.values() for p in h.players]
    admitted = rng.sample(everyone, rng.randint(0, len(everyone)))
    history = carried_history(stages, len(stages), histories, admitted)
    compute_standings(history.players, history.rounds)
    assert Counter(m for r in history.rounds for m in r) == Counter(
        m for h in histories.values() for r in h.rounds for m in r
    )
    assert len(history.rounds) == max(rounds_per_flight[: len(sizes)])
    assert {p.id for p in history.players if not p.dropped} == set(admitted)
