"""Play cards A-L that replace, swap or reorder heroes, or restrict substitution (CR 3.2: a
replaced hero leaves with its effects; CR 4.3.2 substitution): each row checks the heroes
in the battle and their power (A, B), or the illegal substitution."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.a_l._table import check, prep, row, scene

DISCARD_AB1 = (prep({"discard": 1, "from": "hand_heroes"}), {"choices": {"discard": ["AB1"]}})

ROWS = [
    row(
        "Another Man's Treasure",
        {"heroes": ("AB1", "B1"), "power": (150, 100), "discard": (3, 0), "dogs": (7, 10)},
        bench=[(150, "Ice"), (120, "Fire")],
        pre=[DISCARD_AB1],
        choices={"hero": "AB1"},
    ),
    row("Another Man's Treasure", {"heroes": ("A1", "B1")}, "empty discard"),
    row(
        "Don't Call It A Comeback",
        {
            "heroes": ("AB1", "B1"),
            "power": (150, 100),
            "dogs": (9, 10),
            "bench": (3, 4),
            "discard": (3, 0),  # the prep play, A1 and the card itself
        },
        bench=[(150, "Ice"), (120, "Fire")],
        pre=[DISCARD_AB1],
        choices={"hero": "AB1"},
    ),
    row("Don't Call It A Comeback", {"heroes": ("A1", "B1")}, "empty discard"),
    # A has a hero in the discard, B none: only A's is replaced
    row(
        "Dumpster Battle",
        {"heroes": ("AB1", "B1"), "power": (150, 100), "dogs": (6, 10)},
        bench=[(150, "Ice"), (120, "Fire")],
        pre=[DISCARD_AB1],
        choices={"hero": {"A": "AB1"}},
    ),
    row(
        "Blind Substitution",
        {"heroes": ("AD3", "B1"), "power": (120, 100), "discard": (2, 0), "dogs": (7, 10)},
        drawn=["AD3"],
    ),
    row(
        "Blind Substitution - htd",
        {"heroes": ("AD3", "B1"), "power": (120, 100), "dogs": (8, 10)},
        drawn=["AD3"],
    ),
    # a replaced hero loses what plays gave it
    row(
        "Blind Substitution",
        {"power": (120, 100)},
        "effects on the old hero end",
        pre=["Buff Up 15"],
        drawn=["AD3"],
    ),
    row(
        "Leave It To Fate",
        {"heroes": ("AD3", "BD5"), "power": (120, 140), "discard": (2, 1), "dogs": (7, 10)},
        drawn=["AD3", "BD5"],
    ),
    row(
        "Curveball",
        {"heroes": ("AB2", "B1"), "power": (120, 100), "bench": (4, 4), "dogs": (7, 10)},
        bench=[(200, "Ice"), (120, "Fire"), (130, "Fire"), (140, "Fire")],
        choices={"hero": "AB2"},
        drawn=["AD1"],
    ),
    row(
        "Curveball - htd",
        {"heroes": ("AB2", "B1"), "bench": (4, 4), "dogs": (8, 10)},
        choices={"hero": "AB2"},
        drawn=["AD1"],
    ),
    row(
        "Forced Retreat",
        {"heroes": ("A1", "BB1"), "power": (100, 130), "discard": (1, 1), "dogs": (8, 10)},
        opp_bench=[(130, "Ice")],
        choices={"hero": "BB1"},
    ),
    row(
        "Forced Retreat - htd",
        {"heroes": ("A1", "BB2"), "power": (100, 60), "dogs": (9, 10), "discard": (1, 1)},
        opp_bench=[(130, "Ice"), (60, "Ice")],
        choices={"hero": "BB2"},
    ),
    row(
        "Forced Retreat",
        {"heroes": ("A1", "B1"), "power": (100, 100), "dogs": (8, 10), "discard": (1, 5)},
        "no hero in their hand",
        honors="B",
        opp_runs=[prep({"discard": "all", "from": "hand_heroes"})],
    ),
    # swap with the face-down hero of battle 3, who then fights battle 3 ... as this one
    row(
        "Last-Minute Re-Org",
        {"heroes": ("A3", "B1"), "power": (170, 100), "next2": (100, 100), "dogs": (7, 10)},
        later_a=[110, 170],
        choices={"battle": 3},
        extra=2,
    ),
    row(
        "Last-Minute Re-Org htd",
        {"heroes": ("A2", "B1"), "power": (110, 100), "next": (100, 100), "dogs": (8, 10)},
        later_a=[110, 170],
        choices={"battle": 2},
        extra=1,
    ),
    row(
        "Change The Future",
        {"power": (100, 100), "next": (160, 100), "dogs": (8, 10)},
        later_a=[110, 120, 130, 140, 150, 160],
        choices={"order": ["A7", "A6", "A5", "A4", "A3", "A2"]},
        extra=1,
    ),
    # B's six face-down heroes (150 each) are replaced by BD1-BD6 (100-150) in order
    row(
        "Lineup Randomizer",
        {"next": (100, 100), "next2": (100, 110), "discard": (1, 6), "dogs": (5, 10)},
        later_b=[150] * 6,
        drawn=["BD1", "BD2", "BD3", "BD4", "BD5", "BD6"],
        extra=2,
    ),
    row(
        "Drop The Giant",
        {"next": (100, 120), "dogs": (6, 10)},
        "170 next battle: replaced",
        later_b=[170],
        choices={"trigger": {"drawn": ["BD3"]}},
        extra=1,
    ),
    row(
        "Drop The Giant",
        {"next": (100, 160), "dogs": (6, 10)},
        "160 is not above 160",
        later_b=[160],
        choices={"trigger": {"drawn": ["BD3"]}},
        extra=1,
    ),
    # "the opponent's Hero in the next Battle": the hero who fights it, after substitution
    # (README decision 8; ruling which-hero-a-later-battle-effect-reaches)
    row(
        "Drop The Giant",
        {"next": (100, 120), "dogs": (6, 8)},
        "a 170 substitute is the hero of the next battle",
        opp_bench=[(170, "Ice")],
        next_sub_b="BB1",
        choices={"trigger": {"drawn": ["BD3"]}},
        extra=1,
    ),
    row(
        "Drop The Giant",
        {"next": (100, 100), "dogs": (6, 8), "discard": (1, 1)},
        "a 170 substituted away is not dropped",
        later_b=[170],
        opp_bench=[(100, "Ice")],
        next_sub_b="BB1",
        choices={"trigger": {"drawn": ["BD3"]}},
        extra=1,
    ),
    # the chosen face-down hero gets -10 when it is revealed, and 2 hot dogs come back
    row(
        "Delayed Recovery",
        {"power": (100, 100), "next": (90, 100), "dogs": (6, 10)},
        dogs=(5, 10),
        choices={"hero": "A2"},
        extra=1,
    ),
    row(
        "Delayed Recovery",
        {"next": (100, 100), "dogs": (4, 10)},
        "not until that hero is revealed",
        dogs=(5, 10),
        choices={"hero": "A3"},
        extra=1,
    ),
    row("Delayed Recovery", {"error": "invalid_choice"}, "a revealed hero", choices={"hero": "A1"}),
    row(
        "Delayed Recovery",
        {"error": "invalid_choice"},
        "the opponent's hero",
        choices={"hero": "B2"},
    ),
    row(
        "Delayed Recovery",
        {"heroes": ("A3", "B1"), "power": (160, 100), "dogs": (3, 10)},
        "revealed early by a swap",
        dogs=(5, 10),
        later_a=[100, 170],
        choices={"hero": "A3"},
        post=[("Last-Minute Re-Org", {"choices": {"battle": 3}})],
    ),
    row("Bench Blocker", {"power": (100, 80), "dogs": (7, 10)}),
    row(
        "Bench Blocker",
        {"power": (100, 100), "dogs": (7, 9)},
        "immune hero: no -20",
        honors="B",
        opp_runs=["Immunity"],
    ),
    row(
        "Bench Blocker",  # Immunity guards the hero, not the player: the ban stands
        {"error": "substitution_prevented"},
        "immunity does not lift the ban",
        honors="B",
        opp_runs=["Immunity"],
        extra=1,
        next_sub_b="BB1",
    ),
    row(
        "Bench Blocker",
        {"error": "substitution_prevented"},
        "no sub next battle",
        extra=1,
        next_sub_b="BB1",
    ),
    row("Bench Lock", {"error": "substitution_prevented"}, extra=1, next_sub_b="BB1"),
    row(
        "Late Game Lockdown",
        {"error": "substitution_prevented"},
        "battle 7",
        prior="ABABD",
        extra=1,
        next_sub_b="BB1",
    ),
    row(
        "Late Game Lockdown - htd",
        {"error": "substitution_prevented"},
        prior="ABABD",
        extra=1,
        next_sub_b="BB1",
    ),
    row(
        "Late Game Lockdown - htd",
        {"next": (100, 100), "dogs": (9, 10)},
        "its cost",
        prior="ABABD",
        extra=1,
    ),
    row(
        "Late Game Lockdown",
        {"next": (100, 200), "dogs": (8, 8)},
        "battle 6 still free",
        prior="ABAB",
        extra=1,
        next_sub_b="BB1",
    ),
    # the opponent must substitute next battle (paying 2)
    row("Forced Substitution", {"error": "substitution_required"}, "a pass", extra=1),
    row(
        "Forced Substitution",
        {"next": (100, 200), "dogs": (7, 8)},
        extra=1,
        next_sub_b="BB1",
    ),
    row("Forced Substitution - htd", {"error": "substitution_required"}, extra=1),
    row(
        "Forced Substitution - htd",
        {"next": (100, 200), "dogs": (8, 8)},
        "its cost",
        extra=1,
        next_sub_b="BB1",
    ),
]


@pytest.mark.parametrize(("card", "setup", "expected"), ROWS)
def test_hero_card_text(card: str, setup: dict[str, Any], expected: dict[str, Any]) -> None:
    check(scene(card, **setup), expected)
