"""Play cards M-Z with ongoing effects (CR 5.1.1, 5.1.3, 5.1.4): auras for the rest of the
game, effects on the next battle or a chosen one, weapons changed, plays or substitutions
prevented, triggers on later events. Rows look at the battles after the card too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.m_z._table import check, named, play, row, scenario

STEEL = [(100, "Steel")] * 7
ZERO = play("zero", 0)
OPP_CUT = {"b1": named("Opp Loses 15")}

ROWS = [
    # ------------------------------------------------------------- power for the rest of the game
    row(
        "Member Bounce",
        {"power": {"A": 110}, "power+1": {"A": 110}, "hot_dogs": {"A": 7}},
        after=1,
    ),
    row(
        "The 12th Man",
        {"power": {"B": 90}, "power+1": {"B": 90}, "hot_dogs": {"A": 7}},
        after=1,
    ),
    row(
        "Scorching Pressure",
        {"power": {"B": 90}, "power+1": {"B": 90}, "hot_dogs": {"A": 8}},
        after=1,
    ),
    row(
        "Scorching Pressure",
        {"power": {"B": 90}, "power+1": {"B": 100}},
        tag="ice next",
        a=[100, (100, "Ice"), *[100] * 5],
        after=1,
    ),
    row(
        "Steel Pressure",
        {"power": {"B": 90}, "power+1": {"B": 90}, "hot_dogs": {"A": 8}},
        a=STEEL,
        after=1,
    ),
    row("Steel Pressure", {"power": {"B": 100}}, tag="fire"),
    row(
        "Steel Boost",  # all Steel heroes: the opponent's too
        {"power": {"A": 110, "B": 100}, "power+1": {"A": 110, "B": 110}, "hot_dogs": {"A": 8}},
        a=STEEL,
        b=[100, *[(100, "Steel")] * 6],
        after=1,
    ),
    row(
        "Steel Shield",
        {"power": {"A": 100}, "power+1": {"A": 100}, "hot_dogs": {"A": 7}},
        a=STEEL,
        hand_b=OPP_CUT,
        b_runs=["b1"],
        after=1,
    ),
    row(
        "Steel Shield",  # its own player's cut too: Noble Sacrifice's 0 does not happen
        {"power": {"A": 110}},
        tag="own set to 0",
        a=STEEL,
        hand_a={"a2": named("Noble Sacrifice")},
        post_a=["a2"],
    ),
    row(
        "Unbreakable Ice",
        {"power": {"A": 100}, "hot_dogs": {"A": 6}},
        a=[(100, "Ice")] * 7,
        hand_b=OPP_CUT,
        b_runs=["b1"],
    ),
    row(
        "Unbreakable Ice",
        {"power": {"A": 85}},
        tag="fire",
        hand_b=OPP_CUT,
        b_runs=["b1"],
    ),
    row(
        "Steel Resolve",  # +15 after both players finish
        {"power": {"A": 115}, "hot_dogs": {"A": 9}},
        a=STEEL,
    ),
    row("Steel Resolve", {"power": {"A": 100}}, tag="fire"),
    row(
        "Make It, Take It",  # won battle 1: +5 in battle 2 (and 2 is won: +5 in 3)
        {"winner": "A", "power+1": {"A": 105}, "power+2": {"A": 105}, "hot_dogs": {"A": 9}},
        a=[150, *[100] * 6],
        after=2,
    ),
    row(
        "Make It, Take It - htd",
        {"power+1": {"A": 105}, "hot_dogs": {"A": 10}},
        a=[150, *[100] * 6],
        after=1,
    ),
    row("Make It, Take It", {"power+1": {"A": 100}}, tag="drew", after=1),
    row(
        "Substitution Boost",  # both substituted heroes next battle
        {"power+1": {"A": 205, "B": 205}, "hot_dogs": {"A": 8, "B": 8}},
        after=1,
        after_sub_a="AB1",
        after_sub_b="BB1",
    ),
    # ------------------------------------------------------------- next battle or a chosen one
    row(
        "No Retreat",
        {"power": {"A": 100}, "power+1": {"A": 110}, "hot_dogs": {"A": 9}},
        after=1,
    ),
    row(
        "No Retreat",
        {"power+1": {"A": 200}},
        tag="substituted",
        after=1,
        after_sub_a="AB1",
    ),
    row(
        "Overcommited",
        {"power+1": {"B": 90}, "hot_dogs": {"A": 8}},
        hand_b={"b1": ZERO, "b2": ZERO},
        after=1,
        after_b=["b1", "b2"],
    ),
    row(
        "Plan Ahead",
        {"power": {"A": 100}, "power+1": {"A": 100}, "power+2": {"A": 135}, "hot_dogs": {"A": 6}},
        after=2,
        run={"choices": {"battle": 3}},
    ),
    row(
        "Scare Tactics",  # B (honors in battle 2) runs a 4 first: the revealed 4 is free
        {"hot_dogs": {"A": 9}},
        b=[150] * 7,
        hand_a={"a2": play("four", 4)},
        hand_b={"b1": play("four", 4)},
        run={"choices": {"card": "a2"}},
        after=1,
        after_b=["b1"],
        after_a=["a2"],
    ),
    row(
        "Scare Tactics",
        {"hot_dogs": {"A": 5}},
        tag="cheaper opponent play",
        b=[150] * 7,
        hand_a={"a2": play("four", 4)},
        hand_b={"b1": play("three", 3)},
        run={"choices": {"card": "a2"}},
        after=1,
        after_b=["b1"],
        after_a=["a2"],
    ),
    # ------------------------------------------------------------- weapons for the rest of the game
    row(
        "Molten Steel",  # A's Steel hero is Fire: Smitty (Fire against Steel) gives +35
        {"power": {"A": 135}, "hot_dogs": {"A": 7}},
        a=STEEL,
        b=STEEL,
        hand_a={"a2": named("Smitty")},
        post_a=["a2"],
    ),
    row(
        "Molten Steel - htd",
        {"power": {"A": 135}, "hot_dogs": {"A": 8}},
        a=STEEL,
        b=STEEL,
        hand_a={"a2": named("Smitty")},
        post_a=["a2"],
    ),
    row(
        "Only Fire",  # A's Steel hero is Fire: Scorching Pressure bites
        {"power": {"B": 90}, "hot_dogs": {"A": 5}},
        a=STEEL,
        hand_a={"a2": named("Scorching Pressure")},
        post_a=["a2"],
    ),
    row(
        "Only Fire - htd",
        {"power": {"B": 90}, "hot_dogs": {"A": 6}},
        a=STEEL,
        hand_a={"a2": named("Scorching Pressure")},
        post_a=["a2"],
    ),
    row(
        "Only Ice",  # A's Fire hero is Ice: Unbreakable Ice keeps it from the -15
        {"power": {"A": 100}, "hot_dogs": {"A": 3}},
        hand_a={"a2": named("Unbreakable Ice")},
        post_a=["a2"],
        hand_b=OPP_CUT,
        b_runs=["b1"],
    ),
    row(
        "Only Ice - htd",
        {"power": {"A": 100}, "hot_dogs": {"A": 4}},
        hand_a={"a2": named("Unbreakable Ice")},
        post_a=["a2"],
        hand_b=OPP_CUT,
        b_runs=["b1"],
    ),
    row(
        "Only Steel",  # B's Fire hero is Steel: Rusted Edge gives +15
        {"power": {"A": 115}, "hot_dogs": {"A": 6}},
        hand_a={"a2": named("Rusted Edge")},
        post_a=["a2"],
    ),
    row(
        "Only Steel",  # all heroes, for the rest of the game: B's own hero next battle
        {"power+1": {"B": 115}, "hot_dogs": {"A": 7, "B": 9}},
        tag="next battle, own hero",
        hand_b={"b1": named("Rusted Edge")},
        after=1,
        after_b=["b1"],
    ),
    row(
        "Only Steel - htd",
        {"power": {"A": 115}, "hot_dogs": {"A": 7}},
        hand_a={"a2": named("Rusted Edge")},
        post_a=["a2"],
    ),
    # ------------------------------------------------------------- prevented
    row(
        "No More Subs",
        {"error": "substitution_prevented", "hot_dogs": {"A": 6}},
        after=1,
        after_sub_b="BB1",
    ),
    row(
        "Steel Cage",
        {"error": "substitution_prevented"},
        a=STEEL,
        after=1,
        after_sub_b="BB1",
    ),
    row(
        "Steel Cage",
        {"hero+1": {"B": "BB1"}},
        tag="fire",
        after=1,
        after_sub_b="BB1",
    ),
    row(
        "Torched",
        {"error": "substitution_prevented"},
        after=1,
        after_sub_b="BB1",
    ),
    row(
        "Torched",
        {"hero+1": {"B": "BB1"}},
        tag="ice",
        a=[(100, "Ice")] * 7,
        after=1,
        after_sub_b="BB1",
    ),
    row(
        "Sticky Strength",
        {"error": "substitution_prevented"},
        a=[(100, "Gum")] * 7,
        after=1,
        after_sub_b="BB1",
    ),
    row(
        "Sticky Strength",
        {"error": "substitution_prevented"},
        tag="second battle",
        a=[(100, "Gum")] * 7,
        after=2,
        after_runs=[((), (), None, "BB1")],
    ),
    row(
        "Steel Defense",
        {"error": "plays_prevented"},
        a=STEEL,
        hand_b={"b1": ZERO},
        b_runs=["b1"],
    ),
    row(
        "Steel Defense - htd",
        {"error": "plays_prevented", "hot_dogs": {"A": 10}},
        a=STEEL,
        hand_b={"b1": ZERO},
        b_runs=["b1"],
    ),
    row("Steel Defense", {"hand": {"B": []}}, tag="fire", hand_b={"b1": ZERO}, b_runs=["b1"]),
    row(
        "Restricted List",
        {"error": "play_limit_reached"},
        hand_b={"b1": ZERO, "b2": ZERO},
        after=1,
        after_b=["b1", "b2"],
    ),
    row(
        "Restricted List",
        {"hand_has": {"B": ["b2"]}, "discard_has": {"B": ["b1"]}},
        tag="one play",
        hand_b={"b1": ZERO, "b2": ZERO},
        after=1,
        after_b=["b1"],
    ),
    row(
        "Prevent D",
        {"error": "plays_prevented"},
        before=5,
        hand_b={"b1": ZERO},
        after=1,
        after_b=["b1"],
    ),
    row(
        "Prevent D - htd",
        {"error": "plays_prevented", "hot_dogs": {"A": 8}},
        before=5,
        hand_b={"b1": ZERO},
        after=1,
        after_b=["b1"],
    ),
    row(
        "Prevent D",
        {"discard_has": {"B": ["b1"]}},
        tag="battle 6 is free",
        before=5,
        hand_b={"b1": ZERO},
        b_runs=["b1"],
    ),
    row(
        "Play Lockdown",  # no draw for B after battle 1
        {"hand_n": {"A": 1, "B": 0}, "playbook": {"A": 25, "B": 26}, "hot_dogs": {"A": 6}},
        draw_after=True,
    ),
    row(
        "Play Lockdown",  # B wins battle 2: the draw after it is allowed
        {"winner+1": "B", "playbook": {"B": 25}},
        tag="until a win",
        b=[100, 150, *[100] * 5],
        after=1,
        draw_after=True,
    ),
    row(
        "Play Lockdown",  # a card's draw for B is blocked too (Risky Recovery, tails)
        {"hand": {"A": [], "B": []}, "playbook": {"B": 26}},
        tag="a card's draw",
        hand_a={"a2": named("Risky Recovery")},
        post_a=[{"player": "A", "do": "run", "card": "a2", "random": ["tails"]}],
    ),
    # ------------------------------------------------------------- triggers
    row(
        "Pay The Price",  # A rolls a die (Roll And Hope, a 2): B's hero -5
        {"power": {"A": 100, "B": 95}, "hot_dogs": {"A": 7}},
        hand_a={"a2": named("Roll And Hope")},
        post_a=[{"player": "A", "do": "run", "card": "a2", "random": [2]}],
    ),
    row(
        "You're Not Alone",  # B runs a play: A draws one
        {"hand": {"A": ["x1"]}, "hot_dogs": {"A": 6}},
        hand_b={"b1": ZERO},
        b_runs=[{"player": "B", "do": "run", "card": "b1", "drawn": ["x1"]}],
    ),
    row(
        "Play Surge",  # checked once both players are done: B ran 3 after it
        {"power": {"A": 115}, "hot_dogs": {"A": 9}},
        hand_b={"b1": ZERO, "b2": ZERO, "b3": ZERO},
        b_runs=["b1", "b2", "b3"],
    ),
    row(
        "Play Surge",
        {"power": {"A": 100}},
        tag="two plays",
        hand_b={"b1": ZERO, "b2": ZERO},
        b_runs=["b1", "b2"],
    ),
    row(
        "Play Surge",  # run second, after B's three plays
        {"power": {"A": 115}},
        tag="second player",
        honors="B",
        hand_b={"b1": ZERO, "b2": ZERO, "b3": ZERO},
        b_runs=["b1", "b2", "b3"],
    ),
    # ------------------------------------------------------------- nullifying
    row(
        "Pulling The Plug",  # B's The 12th Man is cancelled going forward, this battle too
        {"power": {"A": 100}, "power+1": {"A": 100}, "hot_dogs": {"A": 9}},
        honors="B",
        hand_b={"b1": named("The 12th Man")},
        b_runs=["b1"],
        after=1,
    ),
    row(
        "Pulling The Plug",  # Make It, Take It's trigger ends: no +5 after the battle 2 win
        {"power": {"A": 155}, "power+1": {"A": 150}},
        tag="a trigger",
        a=[150] * 7,
        hand_a={"a2": named("Make It, Take It")},
        before_runs=[(["a2"], ())],
        after=1,
    ),
    row(
        "Pulling The Plug - htd",  # and so is A's own Member Bounce
        {"power+1": {"A": 100}, "hot_dogs": {"A": 7}},
        hand_a={"a2": named("Member Bounce")},
        pre_a=["a2"],
        after=1,
    ),
]


@pytest.mark.parametrize(("card", "setup", "expect"), ROWS)
def test_ongoing_card_does_what_its_text_says(
    card: str, setup: dict[str, Any], expect: dict[str, Any]
) -> None:
    check(scenario(card, **setup), expect)
