"""Top cut: seeded single-elimination brackets."""

from __future__ import annotations

import pytest

from tournaments.topcut import (
    BracketError,
    BracketMatch,
    bracket_order,
    champion,
    next_bracket_round,
    seed_bracket,
)

PLAYERS = [f"s{i}" for i in range(1, 17)]


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
        (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
    ],
)
def test_bracket_order(size: int, order: list[int]) -> None:
    assert bracket_order(size) == order


def test_top_eight_first_round() -> None:
    matches = seed_bracket(PLAYERS, 8)
    assert [(m.table, m.a, m.b) for m in matches] == [
        (1, "s1", "s8"),
        (2, "s4", "s5"),
        (3, "s2", "s7"),
        (4, "s3", "s6"),
    ]


def test_favourites_meet_only_in_the_final() -> None:
    for size in (2, 4, 8, 16):
        matches = seed_bracket(PLAYERS, size)
        while matches:
            final = matches
            matches = next_bracket_round(matches, [m.a for m in matches])
        assert [(final[0].seed_a, final[0].seed_b)] == [(1, 2)]
        assert champion(final[0], final[0].a) == "s1"


def test_next_round_from_upsets_keeps_better_seed_first() -> None:
    first = seed_bracket(PLAYERS, 8)
    second = next_bracket_round(first, {1: "s8", 2: "s4", 3: "s7", 4: "s3"})
    assert second == [BracketMatch(1, "s4", "s8", 4, 8), BracketMatch(2, "s3", "s7", 3, 7)]
    final = next_bracket_round(second, ["s8", "s7"])
    assert final == [BracketMatch(1, "s7", "s8", 7, 8)]
    assert next_bracket_round(final, ["s8"]) == []


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: seed_bracket(PLAYERS, 6), "size"),
        (lambda: seed_bracket(PLAYERS[:3], 4), "ranked_ids"),
        (lambda: seed_bracket(["a", "a", "b", "c"], 4), "ranked_ids"),
        (lambda: next_bracket_round(seed_bracket(PLAYERS, 4), ["s1", "s9"]), "winners"),
        (lambda: next_bracket_round(seed_bracket(PLAYERS, 4), ["s1"]), "winners"),
        (lambda: next_bracket_round(seed_bracket(PLAYERS, 4), {1: "s1"}), "winners"),
    ],
)
def test_bad_bracket_input(call: object, field: str) -> None:
    with pytest.raises(BracketError) as info:
        call()  # type: ignore[operator]
    assert info.value.field == field
