"""Round robin by the circle method, Berger tables (event-structures: Stages: "round robin
plays everyone once (a bye each round for an odd count)"). The same function pairs the teams
of an APEX Madness round robin."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.brackets import BracketError, round_robin


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


@given(st.integers(2, 80))
@settings(max_examples=60, deadline=None)
def test_round_robin_every_pair_meets_exactly_once(n: int) -> None:
    ids = players(n)
    rounds = round_robin(ids)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = Counter(frozenset((m.a, m.b)) for r in rounds for m in r.matches)
    assert set(pairs) == {frozenset(p) for p in combinations(ids, 2)}
    assert set(pairs.values()) == {1}


@given(st.integers(2, 80))
@settings(max_examples=60, deadline=None)
def test_round_robin_nobody_twice_in_a_round(n: int) -> None:
    for r in round_robin(players(n)):
        seated = [p for m in r.matches for p in (m.a, m.b)]
        if r.bye is not None:
            seated.append(r.bye)
        assert sorted(seated) == sorted(players(n))
        assert [m.table for m in r.matches] == list(range(1, n // 2 + 1))


@given(st.integers(2, 80))
@settings(max_examples=60, deadline=None)
def test_round_robin_byes_one_per_player_for_an_odd_count(n: int) -> None:
    byes = [r.bye for r in round_robin(players(n))]
    if n % 2 == 0:
        assert byes == [None] * (n - 1)
    else:
        assert sorted(byes) == sorted(players(n))  # type: ignore[type-var]


@given(st.integers(2, 80))
@settings(max_examples=60, deadline=None)
def test_round_robin_seats_are_balanced(n: int) -> None:
    """Everyone takes the first seat in half their matches (n - 1 of them): exactly half
    when that is even, one more or one fewer when it is odd."""
    first = Counter(m.a for r in round_robin(players(n)) for m in r.matches)
    for player in players(n):
        assert abs(2 * first[player] - (n - 1)) <= 1


def test_round_robin_six_players_is_the_berger_table() -> None:
    rounds = round_robin(players(6))
    assert [[(m.a[1:], m.b[1:]) for m in r.matches] for r in rounds] == [
        [("1", "6"), ("2", "5"), ("3", "4")],
        [("6", "4"), ("5", "3"), ("1", "2")],
        [("2", "6"), ("3", "1"), ("4", "5")],
        [("6", "5"), ("1", "4"), ("2", "3")],
        [("3", "6"), ("4", "2"), ("5", "1")],
    ]
    assert [r.name for r in rounds] == [f"Round {k}" for k in range(1, 6)]


def test_round_robin_five_players_sit_out_in_turn() -> None:
    """The sixth place is empty: whoever the Berger table pairs with it has the bye."""
    rounds = round_robin(players(5))
    assert [r.bye for r in rounds] == ["p1", "p4", "p2", "p5", "p3"]
    assert [(m.a, m.b) for m in rounds[0].matches] == [("p2", "p5"), ("p3", "p4")]


def test_round_robin_round_names_are_translatable() -> None:
    label = round_robin(players(3))[2].label
    assert (label.message, dict(label.params)) == ("Round %(number)s", {"number": 3})


@pytest.mark.parametrize("ids", [["p1"], [], ["p1", "p1"], ["p1", ""]])
def test_round_robin_bad_players_are_refused(ids: list[str]) -> None:
    with pytest.raises(BracketError) as caught:
        round_robin(ids)
    assert caught.value.field == "players"


def test_round_robin_pairs_the_twelve_teams_of_an_apex_madness_event() -> None:
    """Teams are ids like players: 12 teams play 11 rounds of 6 team matches."""
    teams = [f"team-{k}" for k in range(1, 13)]
    rounds = round_robin(teams)
    assert [len(r.matches) for r in rounds] == [6] * 11
    assert {r.bye for r in rounds} == {None}
    assert (rounds[0].matches[0].a, rounds[0].matches[0].b) == ("team-1", "team-12")
