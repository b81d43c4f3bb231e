"""Play cards M-Z that replace the hero in the battle or change what a substitution costs
(CR 3.2, CR 4.3.2: a substitution normally costs 2 hot dogs)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.m_z._table import check, row, scenario

SUB_BATTLE_1 = [((), (), "AB1", None)]  # A substitutes AB1 for A1 in battle 1

ROWS = [
    # ------------------------------------------------------------- replace the active hero
    row(
        "Opps' Choice",  # the opponent picks AD3 (120); AD1 and A1 go to the discard
        {"hero": {"A": "AD3"}, "power": {"A": 120}, "discard_has": {"A": ["A1", "AD1"]}},
        run={"drawn": ["AD3", "AD1"]},
    ),
    row(
        "Polished Comeback",  # A1 (Steel, 130) came back from the discard; A2 went there
        {
            "hero": {"A": "A1"},
            "power": {"A": 130},
            "discard_has": {"A": ["A2"]},
            "hot_dogs": {"A": 7},
        },
        a=[(130, "Steel"), *[100] * 6],
        before_runs=SUB_BATTLE_1,
        run={"choices": {"hero": "A1"}},
    ),
    row(
        "Polished Comeback",
        {"hero": {"A": "A2"}, "hot_dogs": {"A": 7}},  # 2 for the substitution, 1 for the card
        tag="no steel hero",
        a=[(130, "Ice"), *[100] * 6],
        before_runs=SUB_BATTLE_1,
    ),
    row(
        "Radiant Comeback",
        {
            "hero": {"A": "A1"},
            "power": {"A": 130},
            "discard_has": {"A": ["A2"]},
            "hot_dogs": {"A": 6},
        },
        a=[(130, "Glow"), *[100] * 6],
        before_runs=SUB_BATTLE_1,
        run={"choices": {"hero": "A1"}},
    ),
    row(
        "Radiant Comeback - htd",
        {"hero": {"A": "A1"}, "power": {"A": 130}, "hot_dogs": {"A": 7}},
        a=[(130, "Glow"), *[100] * 6],
        before_runs=SUB_BATTLE_1,
        run={"choices": {"hero": "A1"}},
    ),
    row(
        "Sub And Power-Up",  # A1 goes back to the hand
        {"hero": {"A": "AB1"}, "power": {"A": 210}, "bench": {"A": ["A1", "AB2", "AB3", "AB4"]}},
        run={"choices": {"hero": "AB1"}},
    ),
    # ------------------------------------------------------------- substitution costs
    row(
        "Pay It For Me",
        {"hero+1": {"A": "AB1"}, "hot_dogs": {"A": 9, "B": 8}},
        after=1,
        after_sub_a="AB1",
    ),
    row(
        "Pay It For Me",  # B cannot pay the 2 in full: A substitutes at the usual cost
        {"hero+1": {"A": "AB1"}, "hot_dogs": {"A": 7, "B": 1}},
        tag="opponent short",
        hot_dogs=(10, 1),
        after=1,
        after_sub_a="AB1",
    ),
    row(
        "Pinch Hitter",
        {"hero+1": {"A": "AB1"}, "hot_dogs": {"A": 9, "B": 10}},
        after=1,
        after_sub_a="AB1",
    ),
    row(
        "Pinch Hitter",  # only the next battle
        {"hot_dogs": {"A": 7}},
        tag="battle after next",
        after=2,
        after_runs=[((), (), "AB2", None)],
        after_sub_a="AB1",
    ),
    row(
        "Unlimited Subs",
        {"hero+2": {"A": "AB2"}, "hot_dogs": {"A": 6}},
        after=2,
        after_sub_a="AB1",
        after_runs=[((), (), "AB2", None)],
    ),
]


@pytest.mark.parametrize(("card", "setup", "expect"), ROWS)
def test_hero_card_does_what_its_text_says(
    card: str, setup: dict[str, Any], expect: dict[str, Any]
) -> None:
    check(scenario(card, **setup), expect)
