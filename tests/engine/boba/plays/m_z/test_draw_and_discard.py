"""Play cards M-Z that move cards: draws, discards, searches, shuffles, reveals and looks.
Cards taken from hidden zones are named in ``drawn`` (CR 5.1.5); the checks are the hands,
discard piles and playbook sizes the text leaves."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.m_z._table import check, named, play, row, scenario

ZERO = play("zero", 0)
BENCH = ["AB1", "AB2", "AB3", "AB4"]
WIN = [150] * 7

ROWS = [
    # ------------------------------------------------------------- draw plays
    row(
        "Money Line",  # the end-of-battle draw and two more
        {"winner": "A", "hand_n": {"A": 3, "B": 1}, "playbook": {"A": 23}},
        a=WIN,
        draw_after=True,
    ),
    row("Money Line", {"winner": "B", "hand_n": {"A": 1}}, tag="lost", b=WIN, draw_after=True),
    row(
        "Play Booster",  # two plays used this battle, this one included
        {"hand": {"A": ["x1", "x2"]}, "playbook": {"A": 24}, "hot_dogs": {"A": 8}},
        hand_a={"a2": ZERO},
        pre_a=["a2"],
        run={"drawn": ["x1", "x2"]},
    ),
    row(
        "Plays Or Dogs?",
        {"hand": {"A": ["x1", "x2"]}, "hot_dogs": {"A": 9}},
        tag="plays",
        run={"choices": {"option": "plays"}, "drawn": ["x1", "x2"]},
    ),
    row(
        "Quick Draw",
        {"hand": {"A": ["x1", "x2"]}, "hot_dogs": {"A": 9}},
        run={"drawn": ["x1", "x2"]},
    ),
    row(
        "Quick Draw",  # two end-of-battle draws and one from the card
        {"hand_has": {"A": ["x1"]}, "hand_n": {"A": 3}},
        tag="battle 3",
        before=2,
        run={"drawn": ["x1"]},
    ),
    row(
        "Super Draw",
        {"hand": {"A": ["x1", "x2"]}},
        a=[(100, "Super")] * 7,
        run={"drawn": ["x1", "x2"]},
    ),
    row("Super Draw", {"hand": {"A": []}}, tag="fire"),
    row(
        "Sacrifice And Scheme",
        {"hand": {"A": ["x1", "x2"]}, "bench": {"A": ["AB3", "AB4"]}, "hot_dogs": {"A": 9}},
        run={"drawn": ["x1", "x2"], "choices": {"discard": ["AB1", "AB2"]}},
    ),
    row(
        "Tear a Page",
        {"hand": {"A": ["x1"]}, "discard_has": {"A": ["a2"]}, "hot_dogs": {"A": 10}},
        hand_a={"a2": ZERO},
        run={"choices": {"discard": ["a2"]}, "drawn": ["x1"]},
    ),
    row("Tear a Page", {"hand": {"A": []}, "playbook": {"A": 26}}, tag="no play to discard"),
    row(
        "Trade-Up",
        {"hand": {"A": ["x1", "x2"]}, "discard_has": {"A": ["a2"]}, "hot_dogs": {"A": 8}},
        hand_a={"a2": ZERO},
        run={"choices": {"discard": ["a2"]}, "drawn": ["x1", "x2"]},
    ),
    # ------------------------------------------------------------- reveal and keep
    row(
        "Power Pick",
        {"power": {"A": 110}, "hand": {"A": ["p3"]}, "discard_has": {"A": ["x1", "x2"]}},
        hidden={"p3": play("three", 3)},
        run={"drawn": ["x1", "p3", "x2"], "choices": {"keep": ["p3"]}},
    ),
    row(
        "Power Pick",
        {"power": {"A": 100}, "hand": {"A": ["p1"]}, "hot_dogs": {"A": 8}},
        tag="keeps a 1",
        hidden={"p1": play("one", 1)},
        run={"drawn": ["p1", "x1", "x2"], "choices": {"keep": ["p1"]}},
    ),
    row(
        "Tough Call",
        {"hand": {"A": ["x2"]}, "discard_has": {"A": ["x1", "x3"]}, "hot_dogs": {"A": 8}},
        run={"drawn": ["x1", "x2", "x3"], "choices": {"keep": ["x2"]}},
    ),
    row(
        "Tough Call - htd",
        {"hand": {"A": ["x3"]}, "discard_has": {"A": ["x1", "x2"]}, "hot_dogs": {"A": 9}},
        run={"drawn": ["x1", "x2", "x3"], "choices": {"keep": ["x3"]}},
    ),
    row(
        "Wildcard Wager",  # Robin Who costs 1: run free
        {"power": {"A": 105, "B": 95}, "hot_dogs": {"A": 10}, "discard_has": {"A": ["p1"]}},
        hidden={"p1": named("Robin Who")},
        run={"drawn": ["p1"]},
    ),
    row(
        "Wildcard Wager",
        {"hand": {"A": []}, "discard_has": {"A": ["x1"]}},
        tag="costs 9",
        run={"drawn": ["x1"]},
    ),
    # ------------------------------------------------------------- the opponent's hand
    row(
        "Momentum Breaker",
        {"power": {"B": 95}, "hand": {"B": ["b1"]}, "discard": {"B": ["b2"]}, "hot_dogs": {"A": 9}},
        hand_b={"b1": ZERO, "b2": ZERO},
        run={"drawn": ["b2"]},
    ),
    row(
        "Overwhelm",
        {"hand": {"B": ["b2"]}, "discard": {"B": ["b1", "b3"]}, "hot_dogs": {"A": 6}},
        hand_b={"b1": ZERO, "b2": ZERO, "b3": ZERO},
        run={"drawn": ["b1", "b3"]},
    ),
    row(
        "Play Pluck",
        {"hand": {"B": ["b2"]}, "discard": {"B": ["b1"]}, "hot_dogs": {"A": 9}},
        hand_b={"b1": ZERO, "b2": ZERO},
        run={"drawn": ["b1"]},
    ),
    row(
        "Random Bench Ejection",
        {"bench": {"B": ["BB1", "BB3", "BB4"]}, "discard": {"B": ["BB2"]}},
        run={"drawn": ["BB2"]},
    ),
    row(
        "Random Bench Ejection",
        {"bench": {"B": ["BB1", "BB2", "BB3", "BB4"]}, "discard": {"B": []}},
        tag="opponent 90",
        b=[90] * 7,
    ),
    row(
        "Play Reset",  # A shuffles 2 and draws 2, B shuffles 1 and draws 1
        {
            "hand": {"A": ["x1", "x2"], "B": ["x3"]},
            "playbook": {"A": 26, "B": 26},
            "hot_dogs": {"A": 8},
        },
        hand_a={"a2": ZERO, "a3": ZERO},
        hand_b={"b1": ZERO},
        run={"drawn": ["x1", "x2", "x3"]},
    ),
    # ------------------------------------------------------------- looking changes nothing
    row("Play Re-Order", {"hand": {"A": []}, "playbook": {"A": 26}, "hot_dogs": {"A": 9}}),
    row("Playbook Knowledge", {"playbook": {"B": 26}, "hand": {"B": []}, "hot_dogs": {"A": 9}}),
    row(
        "Pre-Game Spy",
        {"hand": {"B": ["b1", "b2"]}, "hot_dogs": {"A": 8}},
        hand_b={"b1": ZERO, "b2": ZERO},
    ),
    row(
        "Transparency Clause",
        {"hand": {"B": ["b1", "b2"]}, "hot_dogs": {"A": 8}},
        hand_b={"b1": ZERO, "b2": ZERO},
    ),
    row("X-Ray Vision", {"lineup": {"B": [f"B{i}" for i in range(1, 8)]}, "hot_dogs": {"A": 9}}),
    # ------------------------------------------------------------- heroes in hand and deck
    row(
        "Over Under",
        {
            "hand": {"A": ["x1"]},
            "bench": {"A": ["AB3", "AB4", "AD1"]},
            "discard_has": {"A": ["AB1", "AB2"]},
            "hot_dogs": {"A": 8},
        },
        run={"choices": {"discard": ["AB1", "AB2"]}, "drawn": ["x1", "AD1"]},
    ),
    row(
        "Over Under - htd",
        {"hand": {"A": ["x1"]}, "bench": {"A": ["AB1", "AB4", "AD1"]}, "hot_dogs": {"A": 9}},
        run={"choices": {"discard": ["AB2", "AB3"]}, "drawn": ["x1", "AD1"]},
    ),
    row(
        "Rebuild",
        {
            "bench": {"A": ["AD1", "AD2", "AD3", "AD4"]},
            "discard_has": {"A": BENCH},
            "hot_dogs": {"A": 8},
        },
        b=[150, *[100] * 6],
        before=1,
        run={"drawn": ["AD1", "AD2", "AD3", "AD4"]},
    ),
    row(
        "Rebuild - htd",
        {"bench": {"A": ["AD1", "AD2", "AD3", "AD4"]}, "hot_dogs": {"A": 9}},
        b=[150, *[100] * 6],
        before=1,
        run={"drawn": ["AD1", "AD2", "AD3", "AD4"]},
    ),
    row("Rebuild", {"bench": {"A": BENCH}}, tag="drew", before=1),
    row(
        "Return from the Depths",  # A1, AB1, AB2 in the discard go back; two heroes drawn
        {
            "bench": {"A": ["AB4", "AD1", "AD2"]},
            "discard_lacks": {"A": ["A1", "AB1", "AB2"]},
            "hot_dogs": {"A": 9},
        },
        sub_a="AB3",
        hand_a={"a2": named("Sacrificed Heroes")},
        pre_a=[{"player": "A", "do": "run", "card": "a2", "choices": {"discard": ["AB1", "AB2"]}}],
        run={"drawn": ["AD1", "AD2"]},
    ),
    row(
        "Return from the Depths",
        {"bench": {"A": ["AB2", "AB3", "AB4"]}, "discard_has": {"A": ["A1"]}},
        tag="one hero",
        sub_a="AB1",
    ),
    row(
        "Roster Cuts",
        {"discard_has": {"A": ["AD1", "AD2", "AD3"]}, "hot_dogs": {"A": 7}},
        run={"drawn": ["AD1", "AD2", "AD3"]},
    ),
    row(
        "Roster Cuts - htd",
        {"discard_has": {"A": ["AD1", "AD2", "AD3"]}, "hot_dogs": {"A": 8}},
        run={"drawn": ["AD1", "AD2", "AD3"]},
    ),
    row(
        "Scrap Metal",
        {"power": {"B": 90}, "discard_has": {"A": ["AB1"]}},
        patch={"AB1": {"weapon": "Steel"}},
        run={"choices": {"discard": ["AB1"]}},
    ),
    row("Scrap Metal", {"power": {"B": 100}, "bench": {"A": BENCH}}, tag="no steel hero"),
    row(
        "Waiver Wire Pickup",
        {"bench": {"A": [*BENCH, "AD1"]}, "hot_dogs": {"A": 8}},
        run={"drawn": ["AD1"]},
    ),
    # ------------------------------------------------------------- plays used before
    row(
        "Recycle",
        {
            "hand_has": {"A": ["x1", "x2"]},
            "discard_lacks": {"A": ["a2"]},
            "playbook": {"A": 24},
            "hot_dogs": {"A": 8},
        },
        hand_a={"a2": ZERO},
        before_runs=[(["a2"], ())],
        run={"drawn": ["x1", "x2"]},
    ),
    row(
        "Recycle",  # a play used this battle is not from an earlier battle: it stays
        {"discard_has": {"A": ["a2"]}, "playbook": {"A": 24}, "hot_dogs": {"A": 8}},
        tag="used this battle",
        hand_a={"a2": ZERO},
        pre_a=["a2"],
        run={"drawn": ["x1", "x2"]},
    ),
    row(
        "Recycle - htd",
        {"hand_has": {"A": ["x1", "x2"]}, "discard_lacks": {"A": ["a2"]}, "hot_dogs": {"A": 9}},
        hand_a={"a2": ZERO},
        before_runs=[(["a2"], ())],
        run={"drawn": ["x1", "x2"]},
    ),
    row(
        "Refill And Reload",
        {"hand_has": {"A": ["x1"]}, "discard_lacks": {"A": ["a2"]}, "playbook": {"A": 25}},
        hand_a={"a2": ZERO},
        before_runs=[(["a2"], ())],
        run={"choices": {"shuffle": ["a2"]}, "drawn": ["x1"]},
    ),
    row(
        "Reload",
        {"hand_has": {"A": ["a2"]}, "discard_lacks": {"A": ["a2"]}, "hot_dogs": {"A": 9}},
        hand_a={"a2": ZERO},
        before_runs=[(["a2"], ())],
        run={"choices": {"search": "a2"}},
    ),
    row(
        "Reload",  # a play used in this battle is not from a previous one: nothing comes back
        {"hand": {"A": []}, "discard_has": {"A": ["a2"]}, "hot_dogs": {"A": 9}},
        tag="used this battle",
        hand_a={"a2": ZERO},
        pre_a=["a2"],
        run={"choices": {"search": "a2"}},
    ),
    row(
        "Second Wind",  # the zero play and A1 leave the discard; two plays drawn
        {
            "discard": {"A": ["c"]},
            "hand": {"A": ["x1", "x2"]},
            "playbook": {"A": 25},
            "hot_dogs": {"A": 5},
        },
        sub_a="AB1",
        hand_a={"a2": ZERO},
        pre_a=["a2"],
        run={"drawn": ["x1", "x2"]},
    ),
    # ------------------------------------------------------------- discards when losing
    row(
        "Outside The Pocket",
        {"power": {"A": 130}, "winner": "B", "hand": {"A": []}, "discard_has": {"A": ["a2"]}},
        b=WIN,
        hand_a={"a2": ZERO},
    ),
    row(
        "Outside The Pocket", {"winner": "A", "hand": {"A": ["a2"]}}, tag="won", hand_a={"a2": ZERO}
    ),
    row(
        "Surging Power",
        {
            "power": {"A": 120},
            "winner": "B",
            "hand_has": {"A": ["a3"]},
            "discard_has": {"A": ["a2", "a4"]},
        },
        b=[100, 100, 100, 100, 150, 100, 100],
        before=4,
        hand_a={"a2": ZERO, "a3": ZERO, "a4": ZERO},
        run={"choices": {"trigger": {"discard": ["a2", "a4"]}}},
    ),
    row("Surging Power", {"error": "play_condition_not_met"}, tag="battle 1"),
]


@pytest.mark.parametrize(("card", "setup", "expect"), ROWS)
def test_card_moving_card_does_what_its_text_says(
    card: str, setup: dict[str, Any], expect: dict[str, Any]
) -> None:
    check(scenario(card, **setup), expect)
