"""Play cards M-Z that flip coins or roll dice (results recorded in ``random``, README
decision 10). Each row gives the recorded results and what the text gives for them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.m_z._table import check, named, play, row, scenario

STEEL = [(100, "Steel")] * 7
H, T = "heads", "tails"

ROWS = [
    # ------------------------------------------------------------- dice
    row("Nasty Or Nada", {"power": {"A": 130}, "hot_dogs": {"A": 9}}, run={"random": [1, 6, 2]}),
    row("Nasty Or Nada", {"power": {"A": 100}}, tag="no 6", run={"random": [1, 5, 2]}),
    row(
        "Nasty Or Nada - htd",
        {"power": {"A": 130}, "hot_dogs": {"A": 10}},
        run={"random": [6, 6, 1]},
    ),
    row(
        "Only Upside",
        {"power": {"A": 120}, "hot_dogs": {"A": 9}},
        run={"random": [4], "choices": {"number": 4}},
    ),
    row(
        "Only Upside",
        {"power": {"A": 100}, "hand": {"A": ["x1"]}},
        tag="missed",
        run={"random": [2], "choices": {"number": 4}, "drawn": ["x1"]},
    ),
    row(
        "Only Upside",
        {"error": "invalid_choice"},
        tag="a number from 1 to 6",
        run={"random": [6], "choices": {"number": 7}, "drawn": ["x1"]},
    ),
    row(
        "Only Upside - htd",
        {"power": {"A": 120}, "hot_dogs": {"A": 10}},
        run={"random": [1], "choices": {"number": 1}},
    ),
    row(
        "Roll And Hope",
        {"power": {"A": 150, "B": 100}, "hot_dogs": {"A": 9}},
        b=[150] * 7,
        run={"random": [6]},
    ),
    row(
        "Roll And Hope", {"power": {"A": 100, "B": 150}}, tag="5", b=[150] * 7, run={"random": [5]}
    ),
    row(
        "Roll Some Plays",
        {"hand": {"A": ["x1", "x2", "x3"]}, "playbook": {"A": 23}, "hot_dogs": {"A": 7}},
        run={"random": [3], "drawn": ["x1", "x2", "x3"]},
    ),
    row("Roller Dogs", {"hot_dogs": {"A": 5}}, hot_dogs=(5, 10), run={"random": [2]}),
    row("Roller Dogs", {"hot_dogs": {"A": 6}}, tag="3-4", hot_dogs=(5, 10), run={"random": [4]}),
    row("Roller Dogs", {"hot_dogs": {"A": 7}}, tag="5-6", hot_dogs=(5, 10), run={"random": [5]}),
    row("Sack Streak", {"power": {"B": 70}, "hot_dogs": {"A": 7}}, run={"random": [5, 6]}),
    row("Sack Streak", {"power": {"B": 85}}, tag="stops on 2", run={"random": [4, 2]}),
    # ------------------------------------------------------------- coins
    row("One-And-One", {"power": {"A": 120}, "hot_dogs": {"A": 9}}, run={"random": [H, H]}),
    row("One-And-One", {"power": {"A": 100}}, tag="tails", run={"random": [T]}),
    row("One-And-One - htd", {"power": {"A": 110}, "hot_dogs": {"A": 10}}, run={"random": [H, T]}),
    row("Pre-Game Ritual", {"power": {"A": 115}, "hot_dogs": {"A": 9}}, run={"random": [H, T, H]}),
    row(
        "Pre-Game Ritual",
        {"power": {"A": 100}, "hot_dogs": {"A": 9}},
        tag="1 heads",
        run={"random": [T, T, H]},
    ),
    row(
        "Risky Recovery",
        {"hot_dogs": {"A": 8}, "hand": {"B": ["x1", "x2"]}},
        hot_dogs=(5, 10),
        run={"random": [H], "drawn": ["x1", "x2"]},
    ),
    row(
        "Risky Recovery",
        {"hot_dogs": {"A": 5}, "hand": {"B": ["x1", "x2"]}},
        tag="tails",
        hot_dogs=(5, 10),
        run={"random": [T], "drawn": ["x1", "x2"]},
    ),
    row(
        "Risky Substitution",
        {"hero": {"A": "AB2"}, "power": {"A": 200}, "discard_has": {"A": ["A1"]}},
        run={"random": [H], "choices": {"hero": "AB2"}},
    ),
    row("Risky Substitution", {"hero": {"A": "A1"}}, tag="tails", run={"random": [T]}),
    row(
        "Shooters Shoot",
        {"power": {"B": 85}, "hot_dogs": {"A": 8}},
        run={"random": [T, T, H, T]},
    ),
    row(
        "Shooters Shoot - htd",
        {"power": {"B": 80}, "hot_dogs": {"A": 9}},
        run={"random": [T, T, T, T]},
    ),
    row(
        "Stainless Flip",
        {"power": {"A": 125}, "discard_has": {"A": ["AB1"]}, "hot_dogs": {"A": 9}},
        patch={"AB1": {"weapon": "Steel"}},
        run={"random": [H], "choices": {"discard": ["AB1"]}},
    ),
    row(
        "Stainless Flip",  # CR 5.2.3 A: no Steel hero to discard, nothing else happens
        {"power": {"A": 100}, "bench": {"A": ["AB1", "AB2", "AB3", "AB4"]}},
        tag="no steel hero",
    ),
    row(
        "Steel Flipper",
        {"power": {"A": 110}, "hand": {"A": ["x1"]}, "hot_dogs": {"A": 10}},
        a=STEEL,
        run={"random": [H], "drawn": ["x1"]},
    ),
    row("Steel Flipper", {"power": {"A": 110}, "hand": {"A": []}}, tag="fire", run={"random": [H]}),
    row(
        "Steel Helmet",
        {"power": {"A": 100}},
        a=STEEL,
        hand_b={"b1": named("Opp Loses 15")},
        b_runs=["b1"],
        run={"random": [H]},
    ),
    row(
        "Steel Helmet",
        {"power": {"A": 85}},
        tag="tails",
        a=STEEL,
        hand_b={"b1": named("Opp Loses 15")},
        b_runs=["b1"],
        run={"random": [T]},
    ),
    row("Steel Smash", {"power": {"A": 120}, "hot_dogs": {"A": 9}}, a=STEEL, run={"random": [H]}),
    row("Steel Smash", {"power": {"A": 100}}, tag="fire"),
    row(
        "Super Lucky",
        {"power": {"A": 120}, "hot_dogs": {"A": 9}},
        a=[(100, "Super")] * 7,
        run={"random": [H]},
    ),
    row("Super Lucky", {"power": {"A": 100}}, tag="fire"),
    row(
        "Three Strikes You're Out",
        {"power": {"B": 0}, "discard_has": {"A": ["AB1"]}, "hot_dogs": {"A": 9}},
        run={"random": [H, H, H], "choices": {"discard": ["AB1"]}},
    ),
    row(
        "Three Strikes You're Out",
        {"power": {"B": 100}},
        tag="2 heads",
        run={"random": [H, T, H], "choices": {"discard": ["AB1"]}},
    ),
    row(
        "Toss And Trade",
        {"hero": {"A": "AB1"}, "power": {"A": 200}, "discard_has": {"A": ["A1"]}},
        run={"random": [H], "choices": {"hero": "AB1"}},
    ),
    row(
        "Toss And Trade",
        {"hero": {"A": "A1"}, "discard_has": {"A": ["a2"]}, "hand": {"A": []}},
        tag="tails",
        hand_a={"a2": play("zero", 0)},
        run={"random": [T], "choices": {"discard": ["a2"]}},
    ),
    row(
        "Win The Toss",  # the top play runs free: Robin Who
        {"power": {"A": 105, "B": 95}, "hot_dogs": {"A": 9}},
        hidden={"p1": named("Robin Who")},
        run={"random": [H], "drawn": ["p1"]},
    ),
    row(
        "Win The Toss",
        {"power": {"A": 100}, "hot_dogs": {"A": 9}},
        tag="tails",
        run={"random": [T]},
    ),
]


@pytest.mark.parametrize(("card", "setup", "expect"), ROWS)
def test_coin_or_dice_card_does_what_its_text_says(
    card: str, setup: dict[str, Any], expect: dict[str, Any]
) -> None:
    check(scenario(card, **setup), expect)
