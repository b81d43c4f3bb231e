"""Play cards M-Z that change power in the battle they are run (some also the next one).

Each row: the card (``c``, run by A), a scenario, and the power, hot dogs, zones its text
gives. Heroes are 100 Fire unless a row says otherwise (see ``_table``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.m_z._table import check, named, play, row, scenario

STEEL = [(100, "Steel")] * 7
ICE = [(100, "Ice")] * 7
OPP_CUT = {"b1": named("Opp Loses 15")}
ZERO = play("zero", 0)

ROWS = [
    # ------------------------------------------------------------- plain gains and cuts
    row("Opp Loses 15", {"power": {"A": 100, "B": 85}, "hot_dogs": {"A": 8}}),
    row("Robin Who", {"power": {"A": 105, "B": 95}, "hot_dogs": {"A": 9}}),
    # ------------------------------------------------------------- gains on a condition
    row(
        "Might Of The Underdog",
        {"power": {"A": 130}, "bench": {"A": ["AB1", "AB2", "AB3", "AB4", "AD3"]}},
        run={"drawn": ["AD3"]},  # power 120: "120 or lower"
    ),
    row("Might Of The Underdog", {"power": {"A": 100}}, tag="130 drawn", run={"drawn": ["AD4"]}),
    row(
        "More Plays, Less Power",
        {"power": {"B": 90}, "hot_dogs": {"A": 9}},
        hand_b={"b1": ZERO, "b2": ZERO},
    ),
    row(
        "More Plays, Less Power",
        {"power": {"B": 100}},
        tag="equal hands",
        hand_a={"a2": ZERO},
        hand_b={"b1": ZERO},
    ),
    row(
        "My Idol",  # the opponent's starting power, not its current power
        {"power": {"A": 150, "B": 155}, "hot_dogs": {"A": 8}},
        b=[150] * 7,
        honors="B",
        hand_b={"b1": named("Robin Who")},
        b_runs=["b1"],
    ),
    row(
        "No Huddle",
        {"power": {"A": 115}, "hot_dogs": {"A": 10}},
        hand_a={"a2": ZERO},
        before_runs=[(["a2"], ())],
    ),
    row("No Huddle", {"power": {"A": 100}}, tag="no play before", before=1),
    row("One And Done", {"power": {"A": 120}, "hot_dogs": {"A": 9}}),
    row(
        "One And Done",
        {"error": "play_condition_not_met"},
        tag="after another play",
        hand_a={"a2": ZERO},
        pre_a=["a2"],
    ),
    row(
        "One And Done",
        {"error": "play_limit_reached"},
        tag="before another play",
        hand_a={"a2": ZERO},
        post_a=["a2"],
    ),
    row(
        "Opening Strike",
        {"power": {"A": 130}, "hot_dogs": {"A": 8}},
        a=[150, *[100] * 6],
        before=1,
    ),
    row("Opening Strike", {"power": {"A": 100}}, tag="lost first", b=[150, *[100] * 6], before=1),
    row(
        "Overextended",
        {"power": {"B": 90}, "hot_dogs": {"A": 8, "B": 9}},
        honors="B",
        hand_b={"b1": ZERO, "b2": ZERO},
        b_runs=["b1", "b2"],
    ),
    row(
        "Overextended",
        {"power": {"B": 90}, "hot_dogs": {"A": 8, "B": 10}},
        tag="one opponent play",
        honors="B",
        hand_b={"b1": ZERO},
        b_runs=["b1"],
    ),
    row(
        "Overprepared",  # two plays run this battle, this one included
        {"power": {"B": 90}, "hot_dogs": {"A": 7}},
        hand_a={"a2": ZERO},
        pre_a=["a2"],
    ),
    row(
        "Pick On Someone Your Own Size",
        {"power": {"A": 150, "B": 150}, "hot_dogs": {"A": 8}},
        b=[150] * 7,
    ),
    row(
        "Power Drain",  # B substituted: B1 is in B's discard
        {"power": {"A": 105, "B": 190}, "hot_dogs": {"A": 8, "B": 8}},
        sub_b="BB1",
    ),
    row("QB Sneak", {"power": {"A": 101}, "hot_dogs": {"A": 9}}),
    row("QB Sneak - htd", {"power": {"A": 101}, "hot_dogs": {"A": 10}}),
    row("QB Sneak", {"power": {"A": 110}, "hot_dogs": {"A": 9}}, tag="not tied", a=[110] * 7),
    row("Rally Cap", {"power": {"A": 120}, "hot_dogs": {"A": 8}}, b=[115] * 7),
    row("Rally Cap - htd", {"power": {"A": 120}, "hot_dogs": {"A": 9}}, b=[115] * 7),
    row("Rally Cap", {"power": {"A": 100}}, tag="losing by 10", b=[110] * 7),
    row(
        "Recycle For 5",  # A1 (substituted) and the zero-cost play: 2 cards, hot dogs not
        {"power": {"A": 210}, "hot_dogs": {"A": 6}},
        hand_a={"a2": ZERO},
        pre_a=["a2"],
        sub_a="AB1",
    ),
    row("Running On Fumes", {"power": {"A": 115}, "hot_dogs": {"A": 1}}, hot_dogs=(1, 10)),
    row("Running On Fumes", {"power": {"A": 100}}, tag="2 left", hot_dogs=(2, 10)),
    row("Rusted Edge", {"power": {"A": 115}, "hot_dogs": {"A": 9}}, b=STEEL),
    row("Rusted Edge", {"power": {"A": 100}}, tag="no steel"),
    row(
        "Saving Bullets",
        {"power": {"A": 120}, "hot_dogs": {"A": 8}},
        b=[150, 150, *[100] * 5],
        before=2,
    ),
    row("Series MVP Award", {"power": {"A": 130}}, patch={"A1": {"name": "MVFree"}}),
    row("Series MVP Award", {"power": {"A": 100}}, tag="another hero"),
    row("Smitty", {"power": {"A": 135}, "hot_dogs": {"A": 8}}, b=STEEL),
    row("Smitty - htd", {"power": {"A": 135}, "hot_dogs": {"A": 9}}, b=STEEL),
    row("Smitty", {"power": {"A": 100}}, tag="opponent fire"),
    row("Stain-Less-Steel", {"power": {"B": 85}, "hot_dogs": {"A": 8}}, b=STEEL),
    row("Stain-Less-Steel - htd", {"power": {"B": 85}, "hot_dogs": {"A": 9}}, b=STEEL),
    row("Stain-Less-Steel", {"power": {"B": 100}}, tag="opponent fire"),
    row(
        "Storm The Field",  # 4 heroes and 1 play from the hand
        {
            "power": {"A": 125},
            "bench": {"A": []},
            "hand": {"A": []},
            "discard": {"A": ["AB1", "AB2", "AB3", "AB4", "a2", "c"]},
        },
        hand_a={"a2": ZERO},
    ),
    row(
        "Streaky",
        {"power": {"B": 90}, "hot_dogs": {"A": 10}},
        a=[150, 150, *[100] * 5],
        before=2,
    ),
    row(
        "Steel Crew",  # A1 and A2, both Steel: the hero in this battle is used too
        {"power": {"A": 120}, "hot_dogs": {"A": 8}},
        a=STEEL,
        before=1,
    ),
    row("Steel Crew - htd", {"power": {"A": 120}, "hot_dogs": {"A": 9}}, a=STEEL, before=1),
    row(
        "Steel Crew",
        {"power": {"A": 110}},
        tag="fire first",
        a=[100, *[(100, "Steel")] * 6],
        before=1,
    ),
    row("Streaky", {"power": {"B": 100}}, tag="one win", a=[100, 150, *[100] * 5], before=2),
    row(
        "Strength in Numbers",
        {"power": {"A": 125}, "hot_dogs": {"A": 7}},
        hand_a={"a2": ZERO},
    ),
    row("The Closer", {"power": {"A": 125}, "hot_dogs": {"A": 6}}),
    row("The Closer", {"power": {"A": 140}}, tag="battle 7", before=6),
    row(
        "To Fight Another Day",
        {"power": {"A": 120}, "hot_dogs": {"A": 8}},
        b=[150, *[100] * 6],
        before=1,
    ),
    row(
        "To Fight Another Day - htd",
        {"power": {"A": 120}, "hot_dogs": {"A": 9}},
        b=[150, *[100] * 6],
        before=1,
    ),
    row("To Fight Another Day", {"power": {"A": 100}}, tag="drew", before=1),
    row(
        "Turn the Tide",
        {"power": {"A": 160}, "hot_dogs": {"A": 6}},
        b=[150, 150, 150, *[100] * 4],
        before=3,
    ),
    row(
        "Turn the Tide",
        {"power": {"A": 100}},
        tag="drew one",
        b=[150, 100, 150, *[100] * 4],
        before=3,
    ),
    row(
        "Weapon Lineage",  # A1 (Fire) went to the discard by substitution in battle 1
        {"power": {"A": 110}, "hot_dogs": {"A": 7}},
        before_runs=[((), (), "AB1", None)],
    ),
    row("Weapon Mixer", {"power": {"A": 110}, "hot_dogs": {"A": 8}}, b=STEEL),
    row("Weapon Mixer", {"power": {"A": 105}}, tag="one type"),
    row("Weapon Tangle", {"power": {"A": 120}, "hot_dogs": {"A": 8}}),
    row("Weapon Tangle", {"power": {"A": 115}}, tag="different", b=STEEL),
    row("Weapon-Sync", {"power": {"A": 120}, "hot_dogs": {"A": 8}}, before=1),
    row(
        "Weapon-Sync",
        {"power": {"A": 100}, "hand_has": {"A": ["x1"]}},
        tag="different",
        a=[(100, "Ice"), *[100] * 6],
        before=1,
        run={"drawn": ["x1"]},
    ),
    row("Winners Win", {"power": {"A": 115}}, a=[150, 150, *[100] * 5], before=2),
    row("Winners Win", {"power": {"A": 100}}, tag="one win", a=[150, *[100] * 6], before=2),
    row("Worth The Risk?", {"power": {"A": 0}, "hot_dogs": {"A": 9}}, run={"random": [6]}),
    row("Worth The Risk?", {"power": {"A": 125}}, tag="3", run={"random": [3]}),
    row("Worth The Risk? - htd", {"power": {"A": 0}, "hot_dogs": {"A": 10}}, run={"random": [1]}),
    # ------------------------------------------------------------- set to a number
    row(
        "Noble Sacrifice",  # 0, then +10 for all your heroes (docs: rulings)
        {"power": {"A": 10}, "power+1": {"A": 110}, "hot_dogs": {"A": 8}},
        after=1,
    ),
    row(
        "Sacrifice it All to Win",  # the first play next battle is free, the second is not
        {"power": {"A": 0}, "hot_dogs": {"A": 5}},
        hand_a={"a2": play("three", 3), "a3": play("three", 3)},
        after=1,
        after_a=["a2", "a3"],
    ),
    # ------------------------------------------------------------- this battle and the next
    row(
        "Maximum Effort",
        {"power": {"A": 110}, "error": "plays_prevented"},
        hand_a={"a2": ZERO},
        after=1,
        after_a=["a2"],
    ),
    row(
        "Rob Peter Pay Paul",
        {"power": {"A": 115}, "power+1": {"A": 95}, "hot_dogs": {"A": 9}},
        after=1,
    ),
    row(
        "Rob Peter Pay Paul - htd",
        {"power": {"A": 115}, "power+1": {"A": 95}, "hot_dogs": {"A": 10}},
        after=1,
    ),
    row(
        "Save It For Later",
        {"power": {"A": 130}, "winner": "A", "power+1": {"A": 120}},
        a=[150, *[100] * 6],
        after=1,
    ),
    row(
        "Save It For Later",
        {"power": {"A": 80}, "power+1": {"A": 100}},
        tag="lost",
        after=1,
    ),
    row(
        "Transfer Portal",
        {"power": {"A": 70}, "power+1": {"A": 130}, "hot_dogs": {"A": 7}},
        after=1,
    ),
    row(
        "Transfer Portal - htd",
        {"power": {"A": 70}, "power+1": {"A": 130}, "hot_dogs": {"A": 8}},
        after=1,
    ),
    # ------------------------------------------------------------- the opponent's plays
    row(
        "Sweet Relish",  # the -15 made before it now raises
        {"power": {"A": 115}, "hot_dogs": {"A": 6}},
        honors="B",
        hand_b=OPP_CUT,
        b_runs=["b1"],
    ),
    row(
        "The Perfect Offense",
        {"power": {"A": 100}, "hot_dogs": {"A": 4}},
        honors="B",
        hand_b=OPP_CUT,
        b_runs=["b1"],
    ),
]


@pytest.mark.parametrize(("card", "setup", "expect"), ROWS)
def test_power_card_does_what_its_text_says(
    card: str, setup: dict[str, Any], expect: dict[str, Any]
) -> None:
    check(scenario(card, **setup), expect)
