"""Starting a BOS record from the registered lists with the reserve swaps in effect
(BOS: Reserves): the swaps made on the list's items, and the lines the page fills in from the
recorded per-game details."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from engine.bos.adjudication import recorded_swap_lines, swap_reserves
from engine.bos.match import DetailsError, form_swaps


def _item(name: str, kind: str, count: int) -> dict[str, Any]:
    return {"id": name.lower().replace(" ", "-"), "name": name, "type": kind, "count": count}


SECTIONS: dict[str, list[dict[str, Any]]] = {
    "summons": [_item("Spark Pup", "summon", 2), _item("Coal Golem", "summon", 2)],
    "spells": [_item("Kindle", "spell", 2)],
    "reserves": [_item("Brand Knight", "summon", 3), _item("Scorch Rain", "spell", 1)],
}


def _counts(sections: dict[str, Any], key: str) -> dict[str, int]:
    return {item["name"]: item["count"] for item in sections.get(key, [])}


def test_bos_reserves_swap_moves_copies_both_ways() -> None:
    swapped = swap_reserves(
        SECTIONS,
        [
            {"out": "spark pup", "in": "Brand Knight", "count": 2},
            {"out": "Kindle", "in": "Scorch Rain", "count": 1},
        ],
        "A_swaps",
    )
    assert _counts(swapped, "summons") == {"Coal Golem": 2, "Brand Knight": 2}
    assert _counts(swapped, "spells") == {"Kindle": 1, "Scorch Rain": 1}
    assert _counts(swapped, "reserves") == {"Brand Knight": 1, "Spark Pup": 2, "Kindle": 1}
    assert _counts(SECTIONS, "summons") == {"Spark Pup": 2, "Coal Golem": 2}  # input untouched


def test_bos_reserves_swaps_are_cumulative() -> None:
    """A card swapped in before game 2 can be swapped out again before game 3."""
    swapped = swap_reserves(
        SECTIONS,
        [
            {"out": "Spark Pup", "in": "Brand Knight", "count": 1},
            {"out": "Brand Knight", "in": "Spark Pup", "count": 1},
        ],
        "A_swaps",
    )
    assert _counts(swapped, "summons") == {"Spark Pup": 2, "Coal Golem": 2}
    assert _counts(swapped, "reserves")["Brand Knight"] == 3


@pytest.mark.parametrize(
    ("swap", "words"),
    [
        ({"out": "Spark Pup", "in": "Brand Knight", "count": 3}, "the main deck holds 2, not 3"),
        ({"out": "Coal Golem", "in": "Scorch Rain", "count": 2}, "the reserves hold 1, not 2"),
        (
            {"out": "Brand Knight", "in": "Scorch Rain", "count": 1},
            "not a summon or spell of the main deck",
        ),
        ({"out": "Spark Pup", "in": "Kindle", "count": 1}, "the reserves hold 0, not 1"),
    ],
)
def test_bos_reserves_swap_beyond_the_list_is_refused_with_the_rule(
    swap: dict[str, Any], words: str
) -> None:
    with pytest.raises(DetailsError) as refused:
        swap_reserves(SECTIONS, [swap], "B_swaps")
    assert refused.value.field == "B_swaps"
    assert words in str(refused.value) and "BOS: Reserves" in str(refused.value)


def test_recorded_swap_lines_are_one_players_swaps_over_every_game() -> None:
    details = [
        {"winner": "a", "bids": [1, 0]},
        {
            "winner": "b",
            "bids": [0, 2],
            "swaps": {"a": [{"out": "Kindle", "in": "Scorch Rain", "count": 1}], "b": []},
        },
        {
            "winner": "a",
            "bids": [3, 0],
            "swaps": {
                "a": [{"out": "3 Headed Pup", "in": "Brand Knight", "count": 2}],
                "b": [{"out": "X", "in": "Y", "count": 1}],
            },
        },
        "junk",
    ]
    assert (
        recorded_swap_lines(details, "a")
        == "1x Kindle > Scorch Rain\n2x 3 Headed Pup > Brand Knight"
    )
    assert recorded_swap_lines(details, "b") == "1x X > Y"
    assert recorded_swap_lines(None, "a") == recorded_swap_lines({"swaps": 1}, "b") == ""


_NAME = (
    st.text(
        st.characters(whitelist_categories=("L", "N"), whitelist_characters=" '-"),
        min_size=1,
        max_size=30,
    )
    .map(lambda s: " ".join(s.split()))
    .filter(bool)
)


@example([("X Ray", "x", 1), ("12 Oaks", "2x", 2)])
@given(st.lists(st.tuples(_NAME, _NAME, st.integers(1, 10)), max_size=10))
def test_recorded_swap_lines_read_back_as_the_same_swaps(swaps: list[tuple[str, str, int]]) -> None:
    items = [{"out": o, "in": i, "count": n} for o, i, n in swaps]
    text = recorded_swap_lines([{"swaps": {"a": items}}], "a")
    assert form_swaps(text, "A_swaps") == items


def test_bos_reserves_swap_reads_a_junk_count_as_one_copy() -> None:
    junk = {
        "summons": [{"id": "p", "name": "Spark Pup", "type": "summon", "count": "lots"}],
        "reserves": [_item("Brand Knight", "summon", 1)],
    }
    swapped = swap_reserves(
        junk, [{"out": "Spark Pup", "in": "Brand Knight", "count": 1}], "A_swaps"
    )
    assert _counts(swapped, "summons") == {"Brand Knight": 1}
