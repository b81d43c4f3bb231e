"""Ghost Dog, once the one judge step in A-L, is executable now (become_hot_dog): the play
becomes one more hot dog for its owner (README decision 9), which the opponent's plays
cannot remove, and which goes to the discard as a play when spent. No other card in this
range has a judge step (test_all_cards_covered.py keeps it so)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.a_l._table import check, row, scene

ROWS = [
    row("Ghost Dog", {"dogs": (11, 10), "hand": (0, 0), "discard": (0, 0)}, "one more hot dog"),
    row(
        "Ghost Dog",
        {"power": (210, 100), "dogs": (0, 10), "discard": (2, 0)},
        "spent like a hot dog, then discarded",
        post=[("Get What You Pay For", {"choices": {"pay": 11}})],
    ),
    row(
        "Ghost Dog",
        {"dogs": (1, 7)},
        "the opponent's Hungry Demands cannot take it",
        dogs=(1, 10),
        opp_runs=["Hungry Demands"],
    ),
]


@pytest.mark.parametrize(("card", "setup", "expected"), ROWS)
def test_ghost_dog_card_text(card: str, setup: dict[str, Any], expected: dict[str, Any]) -> None:
    check(scene(card, **setup), expected)
