"""Swiss pairing: worked cases, reasons, tables, round 1, and the sparse graph against the full one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.swiss_sim import random_history, simulate
from tournaments.standings import MatchRecord, Player, StateError, compute_standings
from tournaments.swiss import BYE_MOVED_UP, pair_round, recommended_structure


def ids(result: object) -> set[frozenset[str]]:
    return {frozenset((p.a, p.b)) for p in result.pairings}  # type: ignore[attr-defined]


def test_rematch_avoided_with_two_pair_downs() -> None:
    players = [Player("a"), Player("b"), Player("c"), Player("d")]
    rounds = [
        [MatchRecord("a", "c", "a", (2, 0, 0)), MatchRecord("b", "d", "a", (2, 0, 0))],
        [MatchRecord("a", "b", "draw", (1, 1, 0)), MatchRecord("c", "d", "draw", (1, 1, 0))],
    ]
    result = pair_round(players, rounds, seed=3)
    assert ids(result) == {frozenset("ad"), frozenset("bc")}
    assert [p.reason for p in result.pairings] == [
        "paired down from 4 to 1 pts; rematch avoided",
        "paired down from 4 to 1 pts; rematch avoided",
    ]
    assert result.stats.rematches == 0 and result.stats.pair_downs == 2


def test_forced_rematch_is_explained() -> None:
    players = [Player("a"), Player("b")]
    rounds = [[MatchRecord("a", "b", "a", (2, 0, 0))]]
    result = pair_round(players, rounds)
    assert [(p.a, p.b, p.reason) for p in result.pairings] == [
        ("a", "b", "paired down from 3 to 0 pts; rematch: no rematch-free pairing exists")
    ]
    assert result.stats.rematches == 1


def test_score_groups_and_one_step_pair_down() -> None:
    # after one round: winners w1..w3 on 3, losers l1..l3 on 0, plus x on 3 from a bye
    players = [Player(p) for p in ("w1", "w2", "w3", "l1", "l2", "l3", "x")]
    rounds = [
        [
            MatchRecord("w1", "l1", "a", (2, 0, 0)),
            MatchRecord("w2", "l2", "a", (2, 1, 0)),
            MatchRecord("w3", "l3", "a", (2, 0, 0)),
            MatchRecord("x"),
        ]
    ]
    result = pair_round(players, rounds, seed=11)
    reasons = sorted(p.reason for p in result.pairings)
    assert reasons == [
        "same score group (0 pts)",
        "same score group (3 pts)",
        "same score group (3 pts)",
    ]
    assert result.bye in {"l1", "l2", "l3"}
    assert result.bye_reason == "bye: lowest ranked without a bye"


def test_no_second_bye_while_someone_else_can_take_it() -> None:
    players = [Player(p) for p in "abc"]
    rounds = [[MatchRecord("a", "b", "a", (2, 0, 0)), MatchRecord("c")]]
    result = pair_round(players, rounds)
    assert result.bye == "b"
    assert ids(result) == {frozenset("ac")}


def test_second_bye_when_nobody_else_can() -> None:
    players = [Player("a"), Player("b"), Player("c")]
    rounds = [
        [MatchRecord("a", "b", "a", (2, 0, 0)), MatchRecord("c")],
        [MatchRecord("a", "c", "a", (2, 0, 0)), MatchRecord("b")],
        [MatchRecord("b", "c", "a", (2, 0, 0)), MatchRecord("a")],
    ]
    result = pair_round(players, rounds)
    assert result.stats.rematches == 1 and result.stats.second_byes == 1
    assert result.bye_reason == "second bye: no player without a bye could take it"


def test_dropped_and_late_players() -> None:
    players = [Player("a"), Player("b", dropped=True), Player("c"), Player("d", late_entry_round=3)]
    rounds = [[MatchRecord("a", "b", "a", (2, 0, 0)), MatchRecord("c")]]
    result = pair_round(players, rounds)
    assert ids(result) == {frozenset("ac")} and result.bye is None
    later = pair_round(players, [*rounds, [MatchRecord("a", "c", "draw", (1, 1, 0))]])
    assert "d" in {later.bye, *(x for p in later.pairings for x in (p.a, p.b))}


def test_fixed_tables_are_honoured_and_the_rest_numbered_from_the_top() -> None:
    players = [Player(f"p{i}") for i in range(8)]
    players[7] = Player("p7", fixed_table=2)
    rounds = [
        [
            MatchRecord("p0", "p1", "a", (2, 0, 0)),
            MatchRecord("p2", "p3", "a", (2, 0, 0)),
            MatchRecord("p4", "p5", "a", (2, 0, 0)),
            MatchRecord("p6", "p7", "a", (2, 0, 0)),
        ]
    ]
    result = pair_round(players, rounds, seed=5)
    tables = {p.table: (p.a, p.b) for p in result.pairings}
    assert sorted(tables) == [1, 2, 3, 4]
    assert "p7" in tables[2]
    winners = {"p0", "p2", "p4", "p6"}
    assert set(tables[1]) <= winners and set(tables[3]) <= winners  # top of the standings first


def test_round_one_random_from_seed_and_deterministic() -> None:
    players = [Player(f"p{i}") for i in range(9)]
    one = pair_round(players, [], seed=1)
    assert one == pair_round(players, [], seed=1)
    assert any(pair_round(players, [], seed=s).pairings != one.pairings for s in range(2, 6))
    assert len(one.pairings) == 4 and one.bye is not None
    assert one.pairings[0].reason == "round 1: random from seed 1"


def test_round_one_by_seeding_top_half_against_bottom_half() -> None:
    players = [Player(f"s{i}", seeding=100 - i) for i in range(1, 7)]
    result = pair_round(players, [])
    assert [(p.a, p.b, p.reason) for p in result.pairings] == [
        ("s1", "s4", "round 1 by seeding: seed 1 v seed 4"),
        ("s2", "s5", "round 1 by seeding: seed 2 v seed 5"),
        ("s3", "s6", "round 1 by seeding: seed 3 v seed 6"),
    ]


def test_round_number_must_follow_the_history() -> None:
    with pytest.raises(StateError) as info:
        pair_round([Player("a"), Player("b")], [], round_number=3)
    assert info.value.field == "round"


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (1, (0, 0)),
        (2, (1, 0)),
        (8, (3, 0)),
        (9, (5, 4)),
        (16, (5, 4)),
        (17, (5, 8)),
        (32, (5, 8)),
        (33, (6, 8)),
        (64, (6, 8)),
        (65, (7, 8)),
        (128, (7, 8)),
        (129, (8, 8)),
        (226, (8, 8)),
        (227, (9, 8)),
        (409, (9, 8)),
        (410, (10, 8)),
        (5000, (10, 8)),
    ],
)
def test_recommended_structure(players: int, expected: tuple[int, int]) -> None:
    assert recommended_structure(players) == expected


@pytest.mark.parametrize(
    ("n_players", "n_rounds", "seed", "limit"),
    [(200, 5, 1, 160), (257, 6, 2, 160), (330, 5, 3, 160), (90, 7, 4, 20), (60, 8, 5, 12)],
)
def test_sparse_graph_is_as_good_as_the_full_graph(
    n_players: int, n_rounds: int, seed: int, limit: int
) -> None:
    players, rounds = simulate(n_players, n_rounds, seed)
    ours = pair_round(players, rounds, seed=seed, full_graph_limit=limit)
    full = pair_round(players, rounds, seed=seed, full_graph_limit=10**9)
    assert full.stats.graph == "complete"
    key = ("rematches", "second_byes", "pair_down_squares", "pair_downs")
    assert [getattr(ours.stats, k) for k in key] == [getattr(full.stats, k) for k in key]
    assert ours.stats.pair_down_squares >= ours.stats.lower_bound_squares


KEY = ("rematches", "second_byes", "pair_down_squares", "pair_downs")


def costs(result: object) -> list[int]:
    return [getattr(result.stats, k) for k in KEY]  # type: ignore[attr-defined]


@settings(max_examples=40, derandomize=True)
@given(st.integers(0, 10**9), st.integers(14, 40), st.integers(2, 7), st.booleans())
def test_lower_bound_and_certificate_are_sound(
    hseed: int, n_players: int, n_rounds: int, swiss: bool
) -> None:
    """Forced onto the score-group path even for small fields (where it is not used): whenever
    it claims optimality it matches the complete graph, and the bound never exceeds the optimum.
    """
    if swiss:
        players, rounds = simulate(n_players, n_rounds, hseed, draw_rate=0.15)
    else:
        players, rounds = random_history(hseed, n_players, n_rounds)
    ours = pair_round(players, rounds, seed=hseed, full_graph_limit=0, complete_fallback_limit=0)
    full = pair_round(players, rounds, seed=hseed, full_graph_limit=10**9)
    assert ours.stats.graph in {"by score group", "dense"}
    if ours.stats.proven_optimal:
        assert costs(ours) == costs(full)
    by_rule = full.bye_reason in (None, "bye: lowest ranked without a bye")
    if full.stats.rematches == 0 and full.stats.second_byes == 0 and by_rule:
        # the bound assumes the bye by rule, as any pairing without a rematch has it
        assert full.stats.lower_bound_squares <= full.stats.pair_down_squares
    if ours.stats.proven_optimal:
        assert ours.bye_reason == full.bye_reason
    assert costs(ours)[:3] >= costs(full)[:3]


# -- the bye rule (README decision 11) and pre-assigned byes -----------------------------------


def test_bye_rule_lowest_ranked_without_bye_before_pair_downs() -> None:
    # After round 1: p1 3 (bye), p3 3, p0 1, p2 1 (they drew each other), p4 0. The bye goes to
    # p4, the lowest ranked without one, although p2 on the bye would need smaller pair-downs
    # (p1-p3 and p0-p4: 1 + 1) than the two 3-v-1 pair-downs left without p4 (p0-p2 met).
    players = [Player(f"p{i}") for i in range(5)]
    rounds = [
        [
            MatchRecord("p1"),
            MatchRecord("p4", "p3", "b", (1, 2, 0)),
            MatchRecord("p2", "p0", "draw", (1, 1, 0)),
        ]
    ]
    for seed in range(5):
        result = pair_round(players, rounds, seed=seed)
        assert result.bye == "p4"
        assert result.bye_reason == "bye: lowest ranked without a bye"
        assert result.stats.rematches == 0 and result.stats.pair_down_squares == 8
        assert ids(result) in (
            {frozenset(("p1", "p0")), frozenset(("p3", "p2"))},
            {frozenset(("p1", "p2")), frozenset(("p3", "p0"))},
        )


def test_bye_rule_goes_higher_only_when_the_lowest_forces_a_rematch() -> None:
    # p3, the lowest ranked without a bye, on the bye would leave p4 and p6 (who met everyone
    # else) two rematches; p1 on the bye leaves one, so the bye moves up to p1.
    players, rounds = random_history(5, 7, 3)
    result = pair_round(players, rounds, seed=0)
    assert result.bye == "p1" and result.bye_reason == BYE_MOVED_UP
    assert result.stats.rematches == 1


def test_pre_assigned_byes_are_left_out_and_reported() -> None:
    players = [Player("a", bye_rounds=(1, 2)), Player("b"), Player("c"), Player("d")]
    first = pair_round(players, [], seed=1)
    assert first.assigned_byes == ("a",) and first.bye is not None and len(first.pairings) == 1
    assert "a" not in {first.bye, *(x for p in first.pairings for x in (p.a, p.b))}
    rounds = [
        [MatchRecord("a"), MatchRecord(first.bye)]
        + [MatchRecord(p.a, p.b, "a", (2, 0, 0)) for p in first.pairings]
    ]
    second = pair_round(players, rounds, seed=1)
    assert second.assigned_byes == ("a",)
    # the odd-field bye among b, c, d goes to the lowest ranked of them without a bye
    fresh_loser = first.pairings[0].b
    assert second.bye == fresh_loser
    assert second.bye_reason == "bye: lowest ranked without a bye"
    assert second.to_json()["assigned_byes"] == ["a"]
    third = pair_round(players, [*rounds, [MatchRecord("a"), MatchRecord(fresh_loser)]], seed=1)
    assert third.assigned_byes == ()
    assert "a" in {x for p in third.pairings for x in (p.a, p.b)}


def test_pre_assigned_bye_before_the_late_entry_is_refused() -> None:
    with pytest.raises(StateError) as info:
        pair_round([Player("a", late_entry_round=3, bye_rounds=(2,)), Player("b")], [])
    assert info.value.field == "players[0].bye_rounds[0]"


@settings(max_examples=8, derandomize=True)
@given(st.integers(0, 10**6), st.integers(50, 150), st.integers(2, 6))
def test_bye_rule_large_fields_lowest_ranked_without_bye(
    seed: int, half: int, n_rounds: int
) -> None:
    """Fields of 101 to 301 players (above the complete-graph limit): the bye is the lowest-
    ranked player without one (Swiss histories leave that free of rematches)."""
    players, rounds = simulate(2 * half + 1, n_rounds, seed, drop_rate=0.0)
    result = pair_round(players, rounds, seed=seed)
    assert result.bye is not None
    assert result.bye_reason == "bye: lowest ranked without a bye"
    rows = compute_standings(players, rounds)
    fresh_ranks = [r.rank for r in rows if r.byes == 0]
    assert {r.rank for r in rows if r.player_id == result.bye} == {max(fresh_ranks)}
    assert result.stats.rematches == 0 and result.stats.proven_optimal
    # forced onto the score-group path (no complete-graph fallback): the same bye
    blockwise = pair_round(players, rounds, seed=seed, complete_fallback_limit=0)
    assert blockwise.bye_reason == "bye: lowest ranked without a bye"
    assert {r.rank for r in rows if r.player_id == blockwise.bye} == {max(fresh_ranks)}


# A history on which rustworkx answered the same round 4 two ways in one process while the draw
# per edge had 64 values (two pairings tied on every weight level, the draw included).
_TIED_HISTORY = [
    [("1610", "1600", "a", 4, 0), ("1603", "1602", "b", 2, 4), ("1605", "1601", "b", 3, 6),
     ("1609", "1607", "b", 1, 6), ("1604", "1606", "a", 4, 1), ("1608", "1611", "b", 2, 5)],
    [("1601", "1604", "a", 6, 0), ("1607", "1602", "a", 4, 0), ("1611", "1610", "a", 5, 0),
     ("1606", "1609", "a", 5, 1), ("1603", "1605", "b", 2, 5), ("1608", "1600", "a", 6, 2)],
    [("1611", "1601", "b", 1, 4), ("1607", "1604", "a", 4, 2), ("1608", "1606", "b", 2, 4),
     ("1605", "1602", "draw", 3, 3), ("1610", "1609", "b", 1, 4), ("1600", "1603", "b", 0, 5)],
]  # fmt: skip


def test_repeated_pairing_of_the_same_input_is_the_same() -> None:
    """The site pairs a round and python -m tournaments.swiss re-pairs it from STATE.json: the
    same input must give the same pairing every time, exact ties of the whole weight included
    (a CI run once saw the two disagree)."""
    games = {"a": (1, 0, 0), "b": (0, 1, 0), "draw": (0, 0, 1)}
    rounds = [
        [
            MatchRecord(a, b, result, games[result], battles=(won, lost))
            for a, b, result, won, lost in rnd
        ]
        for rnd in _TIED_HISTORY
    ]
    players = [Player(str(1600 + i)) for i in range(12)]
    tiebreakers = ("omw", "gw", "ogw", "battle_diff", "h2h")
    outcomes = {
        tuple(
            (p.a, p.b, p.table)
            for p in pair_round(players, rounds, None, "5f6", None, tiebreakers).pairings
        )
        for _ in range(20)
    }
    assert len(outcomes) == 1


@pytest.mark.parametrize(("n_players", "spread"), [(2_000, 45), (10_000, 60)])
def test_edge_weights_fit_rustworkx_128_bit_integers(n_players: int, spread: int) -> None:
    """Every weight level is scaled by the draw's span; the largest weight must stay below
    2**127 or rustworkx cannot take it (it refuses larger integers)."""
    from tournaments.swiss_graph import PairingProblem

    problem = object.__new__(PairingProblem)
    problem.players = [Player(str(i)) for i in range(n_players)]
    problem.points = sorted((i * spread // (n_players - 1) for i in range(n_players)), reverse=True)
    problem.rank = list(range(1, n_players + 1))
    problem.had_bye = [False] * n_players
    problem.random = [0] * n_players
    problem.played = [set() for _ in range(n_players)]
    problem._setup()
    assert problem.base + problem.u_rematch < 2**127
    assert 0 < problem.weight(n_players - 1, problem.bye_vertex) <= problem.base
