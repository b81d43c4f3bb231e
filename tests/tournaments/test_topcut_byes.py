"""Brackets for any number of qualified players (2 to 64): the top seeds get the byes.

An asymmetric cut (rules README, decision 13: everyone tied on points with the Nth player)
qualifies a number of players that is not a power of two. The bracket is the next power of
two; seed s meets seed size + 1 - s, and has a bye when that seed does not exist.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.topcut import (
    BracketError,
    BracketMatch,
    bracket_order,
    bracket_size_for,
    champion,
    next_bracket_round,
    seed_bracket,
    seed_cut_bracket,
)

PLAYERS = [f"s{i}" for i in range(1, 65)]


def play_out(matches: list[BracketMatch], pick: object) -> tuple[str, list[list[BracketMatch]]]:
    """Play every round, ``pick(match)`` naming each played match's winner."""
    rounds = [matches]
    while True:
        winners = {m.table: pick(m) for m in matches if not m.is_bye}  # type: ignore[operator]
        following = next_bracket_round(matches, winners)
        if not following:
            (final,) = matches
            return champion(final, winners[final.table]), rounds
        rounds.append(following)
        matches = following


def test_decision_13_six_qualified_top_two_seeds_get_byes() -> None:
    first = seed_cut_bracket(PLAYERS[:6])
    assert first == [
        BracketMatch(1, "s1", None, 1, None),
        BracketMatch(2, "s4", "s5", 4, 5),
        BracketMatch(3, "s2", None, 2, None),
        BracketMatch(4, "s3", "s6", 3, 6),
    ]
    assert [m.is_bye for m in first] == [True, False, True, False]
    # bye winners advance without being named
    second = next_bracket_round(first, {2: "s5", 4: "s3"})
    assert second == [BracketMatch(1, "s1", "s5", 1, 5), BracketMatch(2, "s2", "s3", 2, 3)]
    assert next_bracket_round(first, ["s5", "s3"]) == second  # winners of played matches only
    assert next_bracket_round(first, ["s1", "s5", "s2", "s3"]) == second  # or of all matches
    final = next_bracket_round(second, ["s5", "s2"])
    assert final == [BracketMatch(1, "s2", "s5", 2, 5)]
    assert next_bracket_round(final, ["s5"]) == []


def test_decision_13_five_qualified_three_byes() -> None:
    first = seed_cut_bracket(PLAYERS[:5])
    assert [(m.seed_a, m.seed_b) for m in first] == [(1, None), (4, 5), (2, None), (3, None)]


def test_bracket_sizes() -> None:
    assert [bracket_size_for(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 33, 64)] == [
        2, 4, 4, 8, 8, 16, 16, 32, 64, 64,
    ]  # fmt: skip
    assert bracket_order(32)[:4] == [1, 32, 16, 17]
    assert len(seed_bracket(PLAYERS, 32)) == 16


@pytest.mark.parametrize("n", range(2, 17))
def test_every_seed_once_and_byes_to_the_top_seeds(n: int) -> None:
    first = seed_cut_bracket(PLAYERS[:n])
    size = bracket_size_for(n)
    assert len(first) == size // 2
    assert [m.table for m in first] == list(range(1, size // 2 + 1))
    seeds = [m.seed_a for m in first] + [m.seed_b for m in first if m.seed_b is not None]
    assert sorted(seeds) == list(range(1, n + 1))
    players = [m.a for m in first] + [m.b for m in first if m.b is not None]
    assert sorted(players) == sorted(PLAYERS[:n])
    for m in first:
        assert m.a == PLAYERS[m.seed_a - 1]
        if m.is_bye:
            assert m.seed_b is None
        else:
            assert m.seed_b == size + 1 - m.seed_a and m.b == PLAYERS[m.seed_b - 1]
    bye_seeds = sorted(m.seed_a for m in first if m.is_bye)
    assert bye_seeds == list(range(1, size - n + 1))


@pytest.mark.parametrize("n", [2, 4, 8, 16, 32, 64])
def test_powers_of_two_are_seed_bracket(n: int) -> None:
    assert seed_cut_bracket(PLAYERS[:n]) == seed_bracket(PLAYERS, n)
    assert not any(m.is_bye for m in seed_cut_bracket(PLAYERS[:n]))


@pytest.mark.parametrize("n", range(2, 65))
def test_final_is_one_v_two_when_favourites_win(n: int) -> None:
    winner, rounds = play_out(seed_cut_bracket(PLAYERS[:n]), lambda m: m.a)
    final = rounds[-1][0]
    assert (final.seed_a, final.seed_b) == (1, 2)
    assert winner == "s1"
    assert len(rounds) == bracket_size_for(n).bit_length() - 1


@settings(max_examples=200)
@given(n=st.integers(2, 64), data=st.data())
def test_random_winners_down_to_a_champion(n: int, data: st.DataObject) -> None:
    first = seed_cut_bracket(PLAYERS[:n])
    lost: list[str] = []
    beaten_by: dict[str, list[int]] = {p: [] for p in PLAYERS[:n]}

    def pick(m: BracketMatch) -> str:
        assert m.b is not None and m.seed_b is not None
        assert m.seed_a < m.seed_b  # the better seed is listed first
        a_wins = data.draw(st.booleans())
        w, loser = (m.a, m.b) if a_wins else (m.b, m.a)
        lost.append(loser)
        beaten_by[w].append(m.seed_b if a_wins else m.seed_a)
        return w

    winner, rounds = play_out(first, pick)
    # every player but the champion loses exactly once; byes happen only in round one
    assert sorted(lost) == sorted(p for p in PLAYERS[:n] if p != winner)
    assert all(not m.is_bye for r in rounds[1:] for m in r)
    assert all(len(r) == len(rounds[0]) >> k for k, r in enumerate(rounds))
    # the final is 1 v 2 only when seeds 1 and 2 won every match they played
    final = rounds[-1][0]
    ones_and_twos_unbeaten = all(
        p not in lost[: len(lost) - 1] for p in ("s1", "s2") if p in PLAYERS[:n]
    )
    assert ((final.seed_a, final.seed_b) == (1, 2)) == ones_and_twos_unbeaten


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: seed_cut_bracket(PLAYERS[:1]), "players"),
        (lambda: seed_cut_bracket([*PLAYERS, "s65"]), "players"),
        (lambda: seed_cut_bracket(["a", "b", "a"]), "qualified_ids"),
        (lambda: seed_bracket(PLAYERS, 6), "size"),
        (lambda: seed_bracket(PLAYERS, 128), "size"),
        (
            lambda: next_bracket_round(seed_cut_bracket(PLAYERS[:6]), {1: "s4", 2: "s5", 4: "s3"}),
            "winners",
        ),
        (lambda: next_bracket_round(seed_cut_bracket(PLAYERS[:6]), ["s5"]), "winners"),
        (lambda: next_bracket_round(seed_cut_bracket(PLAYERS[:6]), {2: "s5"}), "winners"),
        (lambda: next_bracket_round([], []), "matches"),
    ],
)
def test_bad_bye_bracket_input(call: object, field: str) -> None:
    with pytest.raises(BracketError) as info:
        call()  # type: ignore[operator]
    assert info.value.field == field
