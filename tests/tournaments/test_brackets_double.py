"""Double elimination (event-structures: Stages, Placings).

A winners' side seeded as single elimination, the standard losers' side (losers round 1, then
drop-in and reduction rounds in turn), a grand final and a bracket reset only when the player
from the losers' side wins the first grand final.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.brackets import (
    BracketError,
    MatchRef,
    bracket_size,
    bracket_state,
    double_elimination,
)


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


@given(st.integers(2, 256), st.randoms(use_true_random=False))
@settings(max_examples=30, deadline=None)
def test_double_everyone_but_the_champion_loses_exactly_twice(n: int, rng: random.Random) -> None:
    """Every player but the champion loses exactly twice. The champion loses none, or one
    when they came from the losers' side: then the first grand final was theirs and the
    reset was played. Nobody plays with two losses; 2n - 2 matches, 2n - 1 with the reset."""
    ids = players(n)
    results: dict[MatchRef, str | None] = {}
    losses: Counter[str] = Counter()
    matches = 0
    while True:
        state = bracket_state("double_elimination", ids, results)
        if state.next_round is None:
            break
        for match in state.next_round.played:
            assert match.b is not None
            assert losses[match.a] < 2 and losses[match.b] < 2
            won = rng.choice((match.a, match.b))
            results[match.ref] = won
            losses[match.b if won == match.a else match.a] += 1
            matches += 1
    champion = state.champion
    assert champion is not None
    reset = MatchRef("grand_final", 2, 1) in results
    assert losses[champion] == (1 if reset else 0)
    assert all(losses[p] == 2 for p in ids if p != champion)
    assert matches == (2 * n - 1 if reset else 2 * n - 2)
    assert dict(state.losses) == {p: losses[p] for p in ids}
    # Every player but the champion goes out once, in a losers' round or the grand final.
    assert sorted(e.player for e in state.eliminations) == sorted(set(ids) - {champion})
    assert {e.ref.side for e in state.eliminations} <= {"losers", "grand_final"}
    assert [p.place for p in state.placings()] == list(range(1, n + 1))
    assert state.placings()[0].player == champion


@given(st.sampled_from([16, 32, 64, 128, 256]), st.randoms(use_true_random=False))
@settings(max_examples=20, deadline=None)
def test_double_no_rematch_before_losers_round_4(size: int, rng: random.Random) -> None:
    """The crossed drop-ins keep players who met on the winners' side apart early on."""
    ids = players(size)
    results: dict[MatchRef, str | None] = {}
    met: set[frozenset[str]] = set()
    while True:
        state = bracket_state("double_elimination", ids, results)
        if state.next_round is None:
            break
        for match in state.next_round.played:
            assert match.b is not None
            pair = frozenset((match.a, match.b))
            if match.ref.side == "losers" and match.ref.round <= 3:
                assert pair not in met, match
            met.add(pair)
            results[match.ref] = rng.choice((match.a, match.b))


@pytest.mark.parametrize("n", [3, 5, 6, 7, 9, 12, 17, 100, 129, 255])
def test_double_byes_go_to_the_top_seeds(n: int) -> None:
    size = bracket_size(n)
    first = double_elimination(players(n)).rounds[0]
    assert first.name == "Winners round 1"
    assert sorted(m.seed_a for m in first.matches if m.is_bye) == list(range(1, size - n + 1))


def test_double_eight_players_by_hand() -> None:
    """Favourites win: seeds 1 to 8 place in seed order, no reset, 2n - 2 = 14 matches."""
    ids = players(8)
    results: dict[str, str | None] = {}
    seen: list[tuple[str, list[tuple[str, str, str | None]]]] = []
    while True:
        state = bracket_state("double_elimination", ids, results)
        if state.next_round is None:
            break
        seen.append(
            (state.next_round.name, [(m.ref.code, m.a, m.b) for m in state.next_round.matches])
        )
        for match in state.next_round.played:
            results[match.ref.code] = match.a
    assert seen == [
        (
            "Winners round 1",
            [
                ("W1-1", "p1", "p8"),
                ("W1-2", "p4", "p5"),
                ("W1-3", "p2", "p7"),
                ("W1-4", "p3", "p6"),
            ],
        ),
        ("Winners round 2", [("W2-1", "p1", "p4"), ("W2-2", "p2", "p3")]),
        ("Losers round 1", [("L1-1", "p5", "p8"), ("L1-2", "p6", "p7")]),
        ("Winners round 3", [("W3-1", "p1", "p2")]),
        # Losers of winners' round 2 drop in reversed: W2-2's loser meets L1-1's winner.
        ("Losers round 2", [("L2-1", "p3", "p5"), ("L2-2", "p4", "p6")]),
        ("Losers round 3", [("L3-1", "p3", "p4")]),
        ("Losers round 4", [("L4-1", "p2", "p3")]),
        ("Grand final", [("GF1", "p1", "p2")]),
    ]
    assert len(results) == 14
    assert state.champion == "p1"
    assert [(p.place, p.player, p.eliminated_in) for p in state.placings()] == [
        (1, "p1", None),
        (2, "p2", "Grand final"),
        (3, "p3", "Losers round 4"),
        (4, "p4", "Losers round 3"),
        (5, "p5", "Losers round 2"),
        (6, "p6", "Losers round 2"),
        (7, "p7", "Losers round 1"),
        (8, "p8", "Losers round 1"),
    ]


def test_double_six_players_by_hand_with_a_bracket_reset() -> None:
    """Seeds 1 and 2 have byes; losers round 1 is byes alone, so it is never played; the
    losers' side champion wins the first grand final and the reset decides."""
    ids = players(6)
    state = double_elimination(ids)
    assert state.next_round is not None
    assert [(m.ref.code, m.a, m.b) for m in state.next_round.matches] == [
        ("W1-1", "p1", None),
        ("W1-2", "p4", "p5"),
        ("W1-3", "p2", None),
        ("W1-4", "p3", "p6"),
    ]
    results: dict[str, str | None] = {"W1-2": "p5", "W1-4": "p3"}
    state = bracket_state("double_elimination", ids, results)
    assert state.next_round is not None
    assert [(m.ref.code, m.a, m.b) for m in state.next_round.matches] == [
        ("W2-1", "p1", "p5"),
        ("W2-2", "p2", "p3"),
    ]
    results |= {"W2-1": "p1", "W2-2": "p3"}
    state = bracket_state("double_elimination", ids, results)
    byes_only = next(r for r in state.rounds if r.name == "Losers round 1")
    assert [(m.a, m.b) for m in byes_only.matches] == [("p4", None), ("p6", None)]
    assert state.next_round is not None
    assert state.next_round.name == "Winners round 3"
    assert [(m.a, m.b) for m in state.next_round.matches] == [("p1", "p3")]
    results |= {"W3-1": "p3"}
    state = bracket_state("double_elimination", ids, results)
    assert state.next_round is not None
    assert [(m.ref.code, m.a, m.b) for m in state.next_round.matches] == [
        ("L2-1", "p2", "p4"),
        ("L2-2", "p5", "p6"),
    ]
    results |= {"L2-1": "p4", "L2-2": "p5", "L3-1": "p4"}
    state = bracket_state("double_elimination", ids, results)
    assert state.next_round is not None
    assert [(m.ref.code, m.a, m.b) for m in state.next_round.matches] == [("L4-1", "p1", "p4")]
    results |= {"L4-1": "p1"}
    state = bracket_state("double_elimination", ids, results)
    assert state.next_round is not None
    (final,) = state.next_round.matches
    assert (final.ref.code, final.a, final.b, final.reset) == ("GF1", "p3", "p1", False)
    results |= {"GF1": "p1"}
    state = bracket_state("double_elimination", ids, results)
    assert state.champion is None
    assert state.next_round is not None
    (reset,) = state.next_round.matches
    assert (state.next_round.name, reset.ref.code, reset.a, reset.b, reset.reset) == (
        "Grand final",
        "GF2",
        "p3",
        "p1",
        True,
    )
    results |= {"GF2": "p3"}
    state = bracket_state("double_elimination", ids, results)
    assert state.champion == "p3"
    assert len(results) == 2 * 6 - 1
    assert [(p.place, p.player, p.eliminated_in) for p in state.placings()] == [
        (1, "p3", None),
        (2, "p1", "Grand final"),
        (3, "p4", "Losers round 4"),
        (4, "p5", "Losers round 3"),
        (5, "p2", "Losers round 2"),
        (6, "p6", "Losers round 2"),
    ]


def test_double_two_players_is_a_final_and_a_grand_final() -> None:
    results: dict[str, str | None] = {"W1-1": "p2", "GF1": "p2"}
    state = bracket_state("double_elimination", players(2), results)
    assert state.champion == "p2"
    assert [r.name for r in state.rounds] == ["Winners round 1", "Grand final"]
    gone = state.eliminated_in("p1")
    assert gone is not None and gone.ref.code == "GF1"


def test_structures_no_bracket_reset_when_the_winners_side_player_wins() -> None:
    """(event-structures: Stages) the grand final is one match unless the player from the
    losers' side wins it."""
    results: dict[str, str | None] = {"W1-1": "p1", "GF1": "p1", "GF2": "p1"}
    with pytest.raises(BracketError) as caught:
        bracket_state("double_elimination", players(2), results)
    assert caught.value.field == "winners[GF2]"


def test_double_drawn_grand_final_is_refused_naming_it() -> None:
    with pytest.raises(BracketError) as caught:
        bracket_state("double_elimination", players(2), {"W1-1": "p1", "GF1": None})
    assert caught.value.field == "winners[GF1]"
    assert "cannot end drawn" in str(caught.value)


def test_double_drawn_losers_match_is_refused_naming_it() -> None:
    results: dict[str, str | None] = {"W1-1": "p1", "W1-2": "p2", "L1-1": None}
    with pytest.raises(BracketError) as caught:
        bracket_state("double_elimination", players(4), results)
    assert caught.value.field == "winners[L1-1]"
    assert "Losers round 1" in str(caught.value)


def test_double_unknown_kind_is_refused() -> None:
    with pytest.raises(BracketError) as caught:
        bracket_state("triple_elimination", players(4), {})  # type: ignore[arg-type]
    assert caught.value.field == "kind"
