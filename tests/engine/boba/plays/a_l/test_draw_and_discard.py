"""Play cards A-L that draw, reveal, search or discard cards (cards from hidden zones come
from the record's ``drawn``, CR 5.1.5): each row checks hand (plays), bench (heroes in
hand), discard pile and playbook sizes as (A, B)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.a_l._table import cheap, check, prep, row, scene

F2 = ["Filler"] * 2
DISCARD_ALL = prep({"discard": "all", "from": "hand_heroes"})

ROWS = [
    row("1-4-1 Play", {"hand": (1, 0), "playbook": (25, 26), "dogs": (9, 10)}, drawn=["Filler"]),
    row("1-4-1 Play - htd", {"hand": (1, 0), "dogs": (10, 10)}, drawn=["Filler"]),
    row("2 Plays", {"hand": (2, 0), "playbook": (24, 26), "dogs": (8, 10)}, drawn=F2),
    row(
        "4 New Plays Baby!",
        {"hand": (4, 0), "playbook": (24, 26), "dogs": (8, 10)},
        hand=F2,
        drawn=["Filler"] * 4,
    ),
    row("1-4-1 Hero", {"bench": (5, 4), "dogs": (9, 10)}, drawn=["AD1"]),
    # the higher revealed hero draws a play; both revealed heroes are discarded
    row(
        "A Game Of War",
        {"hand": (1, 0), "discard": (2, 1), "playbook": (25, 26)},
        "mine is higher",
        drawn=["AD5", "BD2", "Filler"],
    ),
    row(
        "A Game Of War",
        {"hand": (0, 1), "discard": (2, 1), "playbook": (26, 25)},
        "theirs is higher",
        drawn=["AD1", "BD2", "Filler"],
    ),
    row("A Game Of War", {"hand": (0, 0), "discard": (2, 1)}, "equal", drawn=["AD2", "BD2"]),
    row(
        "A Hard Bargain",
        {"error": "plays_prevented"},
        "130 or more: no more plays for them",
        drawn=["BD4"],
        opp_runs=["Buff Up 15"],
    ),
    row(
        "A Hard Bargain",
        {"power": (100, 115), "discard": (1, 2), "dogs": (8, 8)},
        "under 130",
        drawn=["BD3"],
        opp_runs=["Buff Up 15"],
    ),
    row(
        "Adding Depth", {"bench": (5, 4), "hand": (0, 0), "dogs": (8, 10)}, "a hero", drawn=["AD1"]
    ),
    row("Adding Depth - htd", {"hand": (1, 0), "dogs": (9, 10)}, "a play", drawn=["Filler"]),
    row(
        "Bench Scout",
        {"bench": (5, 4), "discard": (1, 0), "dogs": (9, 10)},
        drawn=["AD1", "AD2", "AD3", "AD4"],
        choices={"keep": ["AD3"]},
    ),
    row(
        "Big Time Recruit",
        {"bench": (5, 4), "discard": (1, 0), "dogs": (9, 10)},
        drawn=["AD1", "AD2", "AD3"],
        choices={"keep": ["AD2"]},
    ),
    row(
        "Locker Room Evacuation",
        {"bench": (5, 4), "discard": (5, 0), "dogs": (9, 10)},
        drawn=["AD1", "AD2", "AD3", "AD4", "AD5"],
        choices={"keep": ["AD2"]},
    ),
    row(
        "Cheap Addition",
        {"hand": (1, 0), "playbook": (25, 26), "discard": (1, 0), "dogs": (9, 10)},
        drawn=["Filler"] * 5,
        choices={"keep": ["x3"]},
    ),
    row(
        "Cheap Draw", {"hand": (3, 1), "playbook": (23, 25), "dogs": (9, 10)}, drawn=["Filler"] * 4
    ),
    row(
        "Cheap Trick",
        {"hand": (1, 0), "power": (110, 100), "playbook": (25, 26)},
        "costs 2: drawn, +10",
        drawn=[cheap(2), "x1"],
    ),
    row(
        "Cheap Trick",
        {"hand": (0, 0), "power": (100, 100), "playbook": (26, 26)},
        "costs 3: back",
        drawn=[cheap(3)],
    ),
    row(
        "Clean Slate",
        {"hand": (3, 3), "discard": (2, 2), "dogs": (9, 10), "playbook": (23, 23)},
        hand=["Filler"],
        opp_hand=F2,
        drawn=["Filler"] * 6,
    ),
    row("Combo Deal", {"hand": (2, 0), "power": (110, 100), "dogs": (7, 10)}, drawn=F2),
    row(
        "Called Shot",
        {"hand": (0, 1), "discard": (1, 1), "dogs": (7, 10)},
        opp_hand=["Buff Up 15", "Edge Rush"],
        choices={"name": "Buff Up 15"},
    ),
    row(
        "Called Shot",
        {"hand": (0, 2), "discard": (1, 0)},
        "a miss",
        opp_hand=["Buff Up 15", "Edge Rush"],
        choices={"name": "Gavel of Justice"},
    ),
    row(
        "Damage On Discard",
        {"power": (100, 70), "hand": (0, 0), "discard": (3, 0), "dogs": (8, 10)},
        hand=F2,
    ),
    row("Damage On Discard", {"power": (100, 100), "hand": (1, 0)}, "only 1 play", hand=["Filler"]),
    row(
        "Burn That Play",
        {"power": (110, 100), "hand": (0, 0), "discard": (2, 0)},
        hand=["Filler"],
    ),
    row("Burn That Play", {"power": (100, 100)}, "no other play"),
    # the discarded AB1 goes back into the hero deck: only the two plays stay discarded
    row(
        "Discard Rebate",
        {"discard": (2, 0), "bench": (3, 4), "dogs": (10, 10)},
        pre=[(prep({"discard": 1, "from": "hand_heroes"}), {"choices": {"discard": ["AB1"]}})],
        choices={"shuffle": ["AB1"]},
    ),
    row(
        "Double Replacement",
        {"bench": (5, 4), "discard": (2, 0), "dogs": (9, 10)},
        choices={"discard": ["AB1"]},
        drawn=["AD1", "AD2"],
    ),
    row(
        "Double Replacement",
        {"bench": (0, 4), "discard": (6, 0)},
        "no hero in hand",
        pre=[DISCARD_ALL],
    ),
    row("First Draw", {"hand": (1, 0), "dogs": (10, 10)}, "first play", drawn=["Filler"]),
    row("First Draw", {"hand": (0, 0)}, "second play", pre=[prep()]),
    row(
        "I Get 1. You Lose 1.",
        {"hand": (1, 1), "discard": (1, 1), "dogs": (8, 10)},
        opp_hand=F2,
        drawn=["Filler", "b2"],
    ),
    row("Good Fortune", {"power": (110, 100), "hand": (0, 0)}, "won last", prior="A"),
    row(
        "Good Fortune",
        {"power": (100, 100), "hand": (1, 0), "dogs": (9, 10)},
        "lost last",
        prior="B",
        drawn=["Filler"],
    ),
    row("Good Fortune", {"power": (100, 100), "hand": (0, 0)}, "drew last", prior="D"),
    row("Good Fortune", {"power": (100, 100), "hand": (0, 0), "dogs": (9, 10)}, "battle 1"),
    row("Locked Playbook", {"pending": (1, 0), "dogs": (9, 10)}),
    row(
        "Locked Playbook",
        {"hand": (0, 0), "playbook": (26, 26), "dogs": (9, 9)},
        "nor during the battle",
        opp_runs=["1-4-1 Play"],
    ),
    row(
        "Locked Playbook",
        {"winner": "A", "pending": (1, 0), "dogs": (6, 10)},
        "Call it a Day's draw is locked too",
        a=120,
        post=["Call it a Day"],
    ),
    row(
        "Locked Playbook",
        {"hand": (0, 1), "pending": (1, 1)},
        "ends with the battle",
        extra=1,
        next_b=[("1-4-1 Play", {"drawn": ["Filler"]})],
    ),
    row("Contract Limitations", {"power": (115, 100), "pending": (0, 1), "dogs": (9, 10)}),
    row("Contract Limitations - htd", {"power": (115, 100), "pending": (0, 1), "dogs": (10, 10)}),
    row(
        "Lost Plays",
        {"playbook": (23, 23), "discard": (4, 3), "dogs": (9, 10)},
        drawn=["Filler"] * 6,
    ),
    row("Lost Plays - htd", {"playbook": (23, 23), "dogs": (10, 10)}, drawn=["Filler"] * 6),
    row(
        "By Any Means Necessary",
        {"power": (115, 100), "dogs": (4, 10), "playbook": (25, 26)},
        drawn=["Buff Up 15"],
    ),
    # adds the drawn hero's power
    row(
        "Dogpile",
        {"power": (230, 100), "bench": (5, 4), "dogs": (5, 10)},
        drawn=[(130, "Ice")],
    ),
]


@pytest.mark.parametrize(("card", "setup", "expected"), ROWS)
def test_card_zone_text(card: str, setup: dict[str, Any], expected: dict[str, Any]) -> None:
    check(scene(card, **setup), expected)
