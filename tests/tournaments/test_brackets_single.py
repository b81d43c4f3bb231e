"""Single elimination for 2 to 256 players (event-structures: Stages, Placings).

The bracket is the next power of two, the top seeds get the byes, rounds are named by the
places in them, no match ends drawn, and the placings rank players by how far they went, then
by seed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import topcut
from tournaments.brackets import (
    BracketError,
    BracketState,
    EliminationMatch,
    MatchRef,
    bracket_size,
    bracket_state,
    seed_order,
    single_elimination,
)


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


def play_out(ids: list[str], rng: random.Random) -> tuple[BracketState, list[EliminationMatch]]:
    """Play the bracket to its champion, each match won by a coin toss."""
    results: dict[MatchRef, str | None] = {}
    played: list[EliminationMatch] = []
    while True:
        state = bracket_state("single_elimination", ids, results)
        if state.next_round is None:
            return state, played
        for match in state.next_round.played:
            assert match.b is not None
            results[match.ref] = rng.choice((match.a, match.b))
            played.append(match)


@given(st.integers(2, 256), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_single_every_size_plays_n_minus_1_matches_to_one_champion(
    n: int, rng: random.Random
) -> None:
    ids = players(n)
    state, played = play_out(ids, rng)
    assert len(played) == n - 1
    assert state.champion in ids
    out = [e.player for e in state.eliminations]
    assert sorted(out) == sorted(set(ids) - {state.champion})
    assert [p.place for p in state.placings()] == list(range(1, n + 1))
    assert state.placings()[0].player == state.champion


@given(st.integers(2, 256), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_single_top_seed_can_only_meet_seed_2_in_the_final(n: int, rng: random.Random) -> None:
    state, played = play_out(players(n), rng)
    final = state.rounds[-1]
    for match in played:
        if {match.seed_a, match.seed_b} == {1, 2}:
            assert match.ref == final.matches[0].ref
            assert final.name == "Final"


@pytest.mark.parametrize("n", range(2, 257))
def test_single_byes_go_to_the_top_seeds(n: int) -> None:
    size = bracket_size(n)
    first = single_elimination(players(n)).rounds[0]
    assert len(first.matches) == size // 2
    assert sorted(m.seed_a for m in first.matches if m.is_bye) == list(range(1, size - n + 1))
    for match in first.played:
        assert match.seed_b == size + 1 - match.seed_a


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_single_seed_order_is_the_top_cut_layout(size: int) -> None:
    assert list(seed_order(size)) == topcut.bracket_order(size)


@pytest.mark.parametrize(
    ("n", "names"),
    [
        (2, ["Final"]),
        (3, ["Semifinals", "Final"]),
        (8, ["Quarterfinals", "Semifinals", "Final"]),
        (9, ["Round of 16", "Quarterfinals", "Semifinals", "Final"]),
        (
            256,
            [
                "Round of 256",
                "Round of 128",
                "Round of 64",
                "Round of 32",
                "Round of 16",
                "Quarterfinals",
                "Semifinals",
                "Final",
            ],
        ),
    ],
)
def test_single_named_rounds(n: int, names: list[str]) -> None:
    state, _ = play_out(players(n), random.Random(n))
    assert [r.name for r in state.rounds] == names


def test_single_round_names_are_translatable_message_ids() -> None:
    state = single_elimination(players(32))
    label = state.rounds[0].label
    assert (label.message, dict(label.params)) == ("Round of %(places)s", {"places": 32})
    assert label.render(lambda m: m.replace("Round of", "Runde der")) == "Runde der 32"


def test_single_six_players_by_hand() -> None:
    ids = players(6)
    state = single_elimination(ids)
    assert state.next_round is not None
    assert state.next_round.name == "Quarterfinals"
    assert [(m.ref.code, m.a, m.b) for m in state.next_round.matches] == [
        ("R1-1", "p1", None),
        ("R1-2", "p4", "p5"),
        ("R1-3", "p2", None),
        ("R1-4", "p3", "p6"),
    ]
    state = bracket_state("single_elimination", ids, {"R1-2": "p5", "R1-4": "p3"})
    assert state.next_round is not None
    assert [(m.ref.code, m.a, m.b) for m in state.next_round.matches] == [
        ("R2-1", "p1", "p5"),
        ("R2-2", "p2", "p3"),
    ]
    results = {"R1-2": "p5", "R1-4": "p3", "R2-1": "p5", "R2-2": "p2", "R3-1": "p2"}
    state = bracket_state("single_elimination", ids, results)
    assert state.next_round is None
    assert state.champion == "p2"
    assert [(p.place, p.player, p.eliminated_in) for p in state.placings()] == [
        (1, "p2", None),
        (2, "p5", "Final"),
        (3, "p1", "Semifinals"),
        (4, "p3", "Semifinals"),
        (5, "p4", "Quarterfinals"),
        (6, "p6", "Quarterfinals"),
    ]


def test_structures_placings_same_bracket_round_by_seed() -> None:
    """(event-structures: Placings) the same round's losers are ordered by their seed."""
    ids = players(8)
    results = {"R1-1": "p8", "R1-2": "p5", "R1-3": "p7", "R1-4": "p6"}
    state = bracket_state("single_elimination", ids, results)
    assert [(p.player, p.eliminated_in) for p in state.placings()[4:]] == [
        ("p1", "Quarterfinals"),
        ("p2", "Quarterfinals"),
        ("p3", "Quarterfinals"),
        ("p4", "Quarterfinals"),
    ]
    # Before the end, the players still in come first, by seed.
    assert [p.player for p in state.placings()[:4]] == ["p5", "p6", "p7", "p8"]
    assert state.eliminated_in("p5") is None
    gone = state.eliminated_in("p1")
    assert gone is not None and gone.ref.code == "R1-1"


def test_single_next_round_waits_for_the_whole_round() -> None:
    state = bracket_state("single_elimination", players(8), {"R1-1": "p1"})
    assert state.next_round is not None
    assert state.next_round.number == 1
    assert [r.number for r in state.rounds] == [1]


def test_structures_elimination_match_cannot_end_drawn() -> None:
    with pytest.raises(BracketError) as caught:
        bracket_state("single_elimination", players(8), {"R1-2": None})
    assert caught.value.field == "winners[R1-2]"
    assert "cannot end drawn" in str(caught.value)
    assert "p4 v p5" in str(caught.value)


@pytest.mark.parametrize(
    ("results", "field"),
    [
        ({"R1-1": "p2"}, "winners[R1-1]"),  # did not play that match
        ({"R2-1": "p1"}, "winners[R2-1]"),  # its players are not known yet
        ({"R4-1": "p1"}, "winners[R4-1]"),  # no such match
        ({MatchRef("winners", 1, 1): "p1"}, "winners[W1-1]"),  # another kind's match
    ],
)
def test_single_bad_results_are_refused_naming_the_match(
    results: dict[str | MatchRef, str | None], field: str
) -> None:
    with pytest.raises(BracketError) as caught:
        bracket_state("single_elimination", players(8), results)  # type: ignore[arg-type]
    assert caught.value.field == field


def test_single_a_bye_may_be_named_but_only_for_its_player() -> None:
    state = bracket_state("single_elimination", players(6), {"R1-1": "p1"})
    assert state.next_round is not None and state.next_round.number == 1
    with pytest.raises(BracketError) as caught:
        bracket_state("single_elimination", players(6), {"R1-1": "p8"})
    assert caught.value.field == "winners[R1-1]"


@pytest.mark.parametrize(("ids", "field"), [(["p1"], "players"), (players(257), "players")])
def test_single_sizes_outside_2_to_256_are_refused(ids: list[str], field: str) -> None:
    with pytest.raises(BracketError) as caught:
        single_elimination(ids)
    assert caught.value.field == field


def test_single_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(BracketError, match="twice"):
        single_elimination(["p1", "p2", "p1"])


@pytest.mark.parametrize("code", ["R1-1", "W12-3", "L4-2", "GF1", "GF2"])
def test_match_reference_codes_round_trip(code: str) -> None:
    assert MatchRef.parse(code).code == code


@pytest.mark.parametrize("code", ["", "GF3", "R0-1", "X1-1", "R1"])
def test_match_reference_bad_codes_are_refused(code: str) -> None:
    with pytest.raises(BracketError):
        MatchRef.parse(code)


@pytest.mark.parametrize("key", ["final", 3, ("R", 1, 1)])
def test_single_results_keyed_by_something_else_are_refused(key: object) -> None:
    with pytest.raises(BracketError) as caught:
        bracket_state("single_elimination", players(4), {key: "p1"})  # type: ignore[arg-type]
    assert caught.value.field == "winners"


def test_single_results_given_by_reference_and_by_code_agree() -> None:
    by_code = bracket_state("single_elimination", players(4), {"R1-1": "p4"})
    by_ref = bracket_state("single_elimination", players(4), {MatchRef("single", 1, 1): "p4"})
    assert by_code == by_ref
    with pytest.raises(BracketError, match="given twice"):
        bracket_state(
            "single_elimination",
            players(4),
            {"R1-1": "p4", MatchRef("single", 1, 1): "p4"},  # type: ignore[arg-type]
        )
