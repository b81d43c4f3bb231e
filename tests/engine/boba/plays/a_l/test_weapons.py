"""Play cards A-L whose effect depends on a weapon type (the active heroes', one in hand or
in the discard pile, or one named): each row checks the effect with and without it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.a_l._table import check, prep, row, scene

FIRE, ICE, STEEL = (100, "Fire"), (100, "Ice"), (100, "Steel")
GLOW, HEX, GUM = (100, "Glow"), (100, "Hex"), (100, "Gum")


def discard_first(n: int = 1) -> Any:
    """A free setup play that discards AB1 (.. ABn) from A's hand to the discard pile."""
    chosen = [f"AB{i + 1}" for i in range(n)]
    return (prep({"discard": n, "from": "hand_heroes"}), {"choices": {"discard": chosen}})


ROWS = [
    # after both players finish: +10 on a Fire hero
    row("Baby Phoenix", {"power": (110, 100), "dogs": (9, 10)}, a=FIRE),
    row("Baby Phoenix", {"power": (100, 100)}, "not Fire", a=ICE),
    row(
        "Bigger Steel Roll", {"power": (150, 100), "dogs": (8, 10)}, "rolls 5", a=STEEL, random=[5]
    ),
    row("Bigger Steel Roll", {"power": (100, 100)}, "rolls 4", a=STEEL, random=[4]),
    row("Bigger Steel Roll", {"power": (100, 100)}, "not Steel: no roll", a=ICE),
    row(
        "Burnout",
        {"power": (100, 85), "bench": (3, 4), "dogs": (9, 10)},
        bench=[(120, "Fire")],
    ),
    row("Burnout", {"power": (100, 100), "bench": (4, 4)}, "no Fire hero", bench=[(120, "Ice")]),
    row("Frostbiter", {"power": (100, 85), "bench": (3, 4), "dogs": (9, 10)}, bench=[(120, "Ice")]),
    row("Frostbiter", {"power": (100, 100), "bench": (4, 4)}, "no Ice hero", bench=[(120, "Fire")]),
    row(
        "Cold Pressure",
        {"power": (100, 90), "next": (100, 90), "dogs": (8, 10)},
        a=ICE,
        later_a=[ICE],
        extra=1,
    ),
    row(
        "Cold Pressure",
        {"power": (100, 100), "next": (100, 90)},
        "Ice later",
        later_a=[ICE],
        extra=1,
    ),
    row(
        "Dead Red",
        {"power": (100, 90), "next": (100, 90), "hand": (1, 0), "dogs": (7, 10)},
        "named weapon",
        b=FIRE,
        later_b=[FIRE],
        hand=["Filler"],
        choices={"weapon": "Fire"},
        extra=1,
    ),
    row(
        "Dead Red",
        {"power": (100, 100), "hand": (0, 0), "discard": (2, 0)},
        "other weapon: discard a play",
        b=ICE,
        hand=["Filler"],
        choices={"weapon": "Fire", "discard": ["a2"]},
    ),
    row(
        "Fire Boost",
        {"power": (110, 110), "next": (110, 100), "dogs": (8, 10)},
        a=FIRE,
        b=FIRE,
        later_a=[FIRE],
        extra=1,
    ),
    row("Fire Boost", {"power": (100, 100)}, "no Fire", a=ICE, b=STEEL),
    # CR 5.1.6: the same ongoing effect does not stack, whoever else runs it
    row(
        "Fire Boost",
        {"power": (110, 110), "dogs": (8, 8)},
        "run by both: +10 once",
        a=FIRE,
        b=FIRE,
        opp_runs=["Fire Boost"],
    ),
    row(
        "Ice Boost",
        {"power": (110, 110), "next": (100, 110), "dogs": (8, 10)},
        a=ICE,
        b=ICE,
        later_b=[ICE],
        extra=1,
    ),
    row("Ice Boost", {"power": (100, 100)}, "no Ice", a=FIRE, b=STEEL),
    row(
        "Ice Boost",
        {"power": (110, 110), "dogs": (8, 8)},
        "run by both: +10 once",
        a=ICE,
        b=ICE,
        opp_runs=["Ice Boost"],
    ),
    row(
        "Fire Comeback",
        {"power": (150, 100), "heroes": ("AB1", "B1"), "dogs": (8, 10)},
        bench=[(150, "Fire")],
        pre=[discard_first()],
    ),
    row(
        "Fire Comeback - htd",
        {"power": (150, 100), "dogs": (9, 10)},
        bench=[(150, "Fire")],
        pre=[discard_first()],
    ),
    row(
        "Fire Comeback",
        {"power": (100, 100), "heroes": ("A1", "B1")},
        "no Fire hero discarded",
        bench=[(150, "Ice")],
        pre=[discard_first()],
    ),
    row(
        "Icy Comeback",
        {"power": (150, 100), "heroes": ("AB1", "B1"), "dogs": (8, 10)},
        bench=[(150, "Ice")],
        pre=[discard_first()],
    ),
    row(
        "Icy Comeback - htd",
        {"power": (150, 100), "dogs": (9, 10)},
        bench=[(150, "Ice")],
        pre=[discard_first()],
    ),
    row(
        "Icy Comeback",
        {"power": (100, 100), "heroes": ("A1", "B1")},
        "no Ice hero discarded",
        bench=[(150, "Fire")],
        pre=[discard_first()],
    ),
    # two Fire heroes in the earlier battles (this one has none)
    row(
        "Fire Crew",
        {"power": (120, 100), "dogs": (7, 10)},
        prior="DD",
        prior_a=[FIRE, FIRE],
    ),
    row("Fire Crew - htd", {"power": (110, 100), "dogs": (8, 10)}, prior="D", prior_a=[FIRE]),
    row("Fire Crew", {"power": (100, 100)}, "no Fire used", prior="D", prior_a=[ICE]),
    row(
        "Fire Crew",
        {"power": (120, 100)},
        "this battle's hero counts",
        prior="D",
        prior_a=[FIRE],
        a=FIRE,
    ),
    row("Ice Crew", {"power": (120, 100), "dogs": (7, 10)}, prior="DD", prior_a=[ICE, ICE]),
    row("Ice Crew - htd", {"power": (110, 100), "dogs": (8, 10)}, prior="D", prior_a=[ICE]),
    row("Ice Crew", {"power": (100, 100)}, "no Ice used", prior="D", prior_a=[FIRE]),
    row("Ice Crew", {"power": (110, 100)}, "this battle's hero counts", a=ICE),
    row("Fire Extinguisher", {"power": (100, 80), "dogs": (8, 10)}, b=FIRE),
    row("Fire Extinguisher - htd", {"power": (100, 80), "dogs": (9, 10)}, b=FIRE),
    row("Fire Extinguisher", {"power": (100, 100)}, "not Fire", b=ICE),
    row("Ice Pick", {"power": (100, 80), "dogs": (8, 10)}, b=ICE),
    row("Ice Pick - htd", {"power": (100, 80), "dogs": (9, 10)}, b=ICE),
    row("Ice Pick", {"power": (100, 100)}, "not Ice", b=FIRE),
    row("Fire Hose", {"power": (115, 100), "dogs": (9, 10)}, b=FIRE),
    row("Fire Hose", {"power": (100, 100)}, "not Fire", b=ICE),
    row("Icevantage", {"power": (115, 100), "dogs": (9, 10)}, b=ICE),
    row("Icevantage", {"power": (100, 100)}, "not Ice", b=FIRE),
    row("Fire Roll", {"power": (130, 100), "dogs": (8, 10)}, a=FIRE, random=[4]),
    row("Fire Roll", {"power": (100, 100)}, "rolls 3", a=FIRE, random=[3]),
    row("Fire Roll", {"power": (100, 100)}, "not Fire: no roll", a=ICE),
    row("Ice Roll", {"power": (130, 100), "dogs": (8, 10)}, a=ICE, random=[6]),
    row("Ice Roll", {"power": (100, 100)}, "rolls 3", a=ICE, random=[3]),
    row("Ice Roll", {"power": (100, 100)}, "not Ice: no roll", a=FIRE),
    row("Firework", {"power": (120, 100), "dogs": (9, 10)}, a=FIRE, random=["heads"]),
    row("Firework", {"power": (100, 100)}, "tails", a=FIRE, random=["tails"]),
    row("Firework", {"power": (100, 100)}, "not Fire: no flip", a=ICE),
    row("Flip & Glow", {"power": (120, 100), "dogs": (9, 10)}, a=GLOW, random=["heads"]),
    row("Flip & Glow", {"power": (100, 100)}, "tails", a=GLOW, random=["tails"]),
    row("Flip & Glow", {"power": (100, 100)}, "not Glow: no flip", a=FIRE),
    row("Hex Flipper", {"power": (120, 100), "dogs": (9, 10)}, a=HEX, random=["heads"]),
    row("Hex Flipper", {"power": (100, 100)}, "tails", a=HEX, random=["tails"]),
    row("Hex Flipper", {"power": (100, 100)}, "not Hex: no flip", a=FIRE),
    row("Ice Blast", {"power": (120, 100), "dogs": (9, 10)}, a=ICE, random=["heads"]),
    row("Ice Blast", {"power": (100, 100)}, "tails", a=ICE, random=["tails"]),
    row("Ice Blast", {"power": (100, 100)}, "not Ice: no flip", a=FIRE),
    row(
        "Ice Blast",  # CR 2.2.1: no flip happens, so a recorded one is refused
        {"error": "unexpected_random"},
        "not Ice: a recorded flip is refused",
        a=FIRE,
        random=["heads"],
    ),
    row("Lucky Gum", {"power": (120, 100), "dogs": (9, 10)}, a=GUM, random=["heads"]),
    row("Lucky Gum", {"power": (100, 100)}, "tails", a=GUM, random=["tails"]),
    row("Lucky Gum", {"power": (100, 100)}, "not Gum: no flip", a=FIRE),
    row("Flame Wall", {"error": "plays_prevented"}, a=FIRE, opp_runs=["Buff Up 15"]),
    row("Flame Wall - htd", {"error": "plays_prevented"}, a=FIRE, opp_runs=["Buff Up 15"]),
    row("Flame Wall - htd", {"dogs": (10, 10), "power": (100, 100)}, "free", a=FIRE),
    row(
        "Flame Wall",
        {"power": (100, 115), "dogs": (9, 8)},
        "not Fire",
        a=ICE,
        opp_runs=["Buff Up 15"],
    ),
    row("Icy Shield", {"error": "plays_prevented"}, a=ICE, opp_runs=["Buff Up 15"]),
    row("Icy Shield - htd", {"error": "plays_prevented"}, a=ICE, opp_runs=["Buff Up 15"]),
    row("Icy Shield - htd", {"dogs": (10, 10)}, "free", a=ICE),
    row(
        "Icy Shield",
        {"power": (100, 115), "dogs": (9, 8)},
        "not Ice",
        a=FIRE,
        opp_runs=["Buff Up 15"],
    ),
    row(
        "Flaming Flip",
        {"power": (120, 100), "bench": (3, 4), "dogs": (9, 10)},
        bench=[(120, "Fire")],
        random=["heads"],
    ),
    row(
        "Flaming Flip",
        {"power": (100, 100), "bench": (3, 4)},
        "tails",
        bench=[(120, "Fire")],
        random=["tails"],
    ),
    row(
        "Flaming Flip", {"power": (100, 100), "bench": (4, 4)}, "no Fire hero", bench=[(120, "Ice")]
    ),
    row(
        "Frozen Flip",
        {"power": (120, 100), "bench": (3, 4), "dogs": (9, 10)},
        bench=[(120, "Ice")],
        random=["heads"],
    ),
    row(
        "Frozen Flip",
        {"power": (100, 100), "bench": (3, 4)},
        "tails",
        bench=[(120, "Ice")],
        random=["tails"],
    ),
    row(
        "Frozen Flip", {"power": (100, 100), "bench": (4, 4)}, "no Ice hero", bench=[(120, "Fire")]
    ),
    # Steel becomes Ice: the opponent's Ice Pick then hits it
    row("Frost-Hardened", {"power": (80, 100), "dogs": (9, 8)}, a=STEEL, opp_runs=["Ice Pick"]),
    row(
        "Frost-Hardened - htd",
        {"power": (80, 100), "dogs": (10, 8)},
        a=STEEL,
        opp_runs=["Ice Pick"],
    ),
    row(
        "Frost-Hardened",
        {"power": (100, 100), "next": (80, 100)},
        "for the rest of the game",
        a=FIRE,
        later_a=[STEEL],
        extra=1,
        next_b=["Ice Pick"],
    ),
    row("Frozen Lineup", {"error": "substitution_prevented"}, a=ICE, extra=1, next_sub_b="BB1"),
    row(
        "Frozen Lineup",
        {"next": (100, 200), "dogs": (10, 8)},
        "not Ice",
        a=FIRE,
        extra=1,
        next_sub_b="BB1",
    ),
    row("Glow Draw Play", {"hand": (1, 0), "dogs": (10, 10)}, a=GLOW, drawn=["Filler"]),
    row("Glow Draw Play", {"hand": (0, 0)}, "not Glow", a=FIRE),
    row("Glow-Up", {"power": (120, 100), "dogs": (10, 10)}, a=GLOW),
    row("Glow-Up", {"power": (100, 100)}, "not Glow", a=HEX),
    row("Glowaway", {"power": (125, 100), "bench": (3, 4), "dogs": (8, 10)}, bench=[(120, "Glow")]),
    row("Glowaway", {"power": (100, 100), "bench": (4, 4)}, "no Glow hero", bench=[(120, "Fire")]),
    row("Gum Draw", {"hand": (2, 0), "dogs": (9, 10)}, a=GUM, drawn=["Filler", "Filler"]),
    row("Gum Draw", {"hand": (0, 0)}, "not Gum", a=FIRE),
    row("Gum Draw Play", {"hand": (1, 0), "dogs": (10, 10)}, a=GUM, drawn=["Filler"]),
    row("Gum Draw Play", {"hand": (0, 0)}, "not Gum", a=HEX),
    row("Hex Draw", {"hand": (2, 0), "dogs": (9, 10)}, a=HEX, drawn=["Filler", "Filler"]),
    row("Hex Draw", {"hand": (0, 0)}, "not Hex", a=FIRE),
    row("Hex Draw Play", {"hand": (1, 0), "dogs": (10, 10)}, a=HEX, drawn=["Filler"]),
    row("Hex Draw Play", {"hand": (0, 0)}, "not Hex", a=GUM),
    row("Hexvantage", {"power": (120, 100), "dogs": (9, 10)}, a=HEX),
    row("Hexvantage", {"power": (105, 100)}, "not Hex", a=FIRE),
    row(
        "Good Guess",
        {"power": (100, 100), "next": (100, 85), "dogs": (9, 10)},
        later_b=[ICE],
        choices={"weapon": "Ice"},
        extra=1,
    ),
    row(
        "Good Guess",
        {"next": (100, 100)},
        "wrong guess",
        later_b=[FIRE],
        choices={"weapon": "Ice"},
        extra=1,
    ),
    row("Ice Climber", {"power": (135, 100), "dogs": (8, 10)}, a=ICE, b=STEEL),
    row("Ice Climber - htd", {"power": (135, 100), "dogs": (9, 10)}, a=ICE, b=STEEL),
    row("Ice Climber", {"power": (100, 100)}, "opponent not Steel", a=ICE, b=FIRE),
    row("Ice Climber", {"power": (100, 100)}, "not Ice", a=STEEL, b=STEEL),
    row(
        "Ice Climber",
        {"power": (135, 100), "dogs": (7, 10)},
        "Ice by Frost-Hardened",
        a=STEEL,
        b=STEEL,
        pre=["Frost-Hardened"],
    ),
    row(
        "Lunch Break",
        {"bench": (3, 4), "dogs": (7, 10)},
        bench=[(120, "Glow")],
        dogs=(5, 10),
    ),
    row(
        "Lunch Break",
        {"bench": (4, 4), "dogs": (4, 10)},
        "no Glow hero",
        bench=[(120, "Ice")],
        dogs=(5, 10),
    ),
    row(
        "Lucky Discard",
        {"power": (120, 100), "discard": (2, 0), "dogs": (8, 10)},
        a=FIRE,
        drawn=[(130, "Fire")],
    ),
    row(
        "Lucky Discard",
        {"power": (100, 100), "discard": (2, 0)},
        "other weapon",
        a=FIRE,
        drawn=[(130, "Ice")],
    ),
    # a floor at the current power: the opponent's -30 cannot take it lower
    row(
        "Burning Fever",
        {"power": (100, 100), "dogs": (8, 6)},
        a=FIRE,
        opp_runs=["Gavel of Justice"],
    ),
    row(
        "Burning Fever - htd",
        {"power": (100, 100), "dogs": (9, 6)},
        a=FIRE,
        opp_runs=["Gavel of Justice"],
    ),
    row("Burning Fever", {"power": (70, 100)}, "not Fire", a=ICE, opp_runs=["Gavel of Justice"]),
    row("Burning Fever", {"power": (100, 100)}, "own cut too", a=FIRE, post=["It's Gonna Cost Ya"]),
    row(
        "Burning Fever",
        {"power": (115, 110)},
        "the opponent's Head Start cannot reset it",
        a=FIRE,
        pre=["Buff Up 15"],
        opp_runs=["Head Start"],
    ),
    row(
        "Chrome Will", {"power": (100, 100), "dogs": (9, 6)}, a=STEEL, opp_runs=["Gavel of Justice"]
    ),
    row("Chrome Will", {"power": (70, 100)}, "not Steel", a=FIRE, opp_runs=["Gavel of Justice"]),
    row(
        "Frozen Resolve",
        {"power": (100, 100), "dogs": (8, 6)},
        a=ICE,
        opp_runs=["Gavel of Justice"],
    ),
    row(
        "Frozen Resolve - htd",
        {"power": (100, 100), "dogs": (9, 6)},
        a=ICE,
        opp_runs=["Gavel of Justice"],
    ),
    row("Frozen Resolve", {"power": (70, 100)}, "not Ice", a=STEEL, opp_runs=["Gavel of Justice"]),
    # Fire heroes can't lose power for the rest of the game, either player's
    row(
        "Eternal Flame",
        {"power": (100, 100), "dogs": (6, 6)},
        a=FIRE,
        opp_runs=["Gavel of Justice"],
    ),
    row(
        "Eternal Flame",
        {"power": (100, 100), "dogs": (2, 10)},
        "the opponent's Fire hero too",
        b=FIRE,
        post=["Gavel of Justice"],
    ),
    row(
        "Eternal Flame",
        {"next": (100, 100), "dogs": (6, 6)},
        "for the rest of the game",
        later_a=[FIRE],
        extra=1,
        next_b=["Gavel of Justice"],
    ),
    row("Eternal Flame", {"power": (70, 100)}, "not Fire", a=ICE, opp_runs=["Gavel of Justice"]),
    row("Eternal Flame", {"power": (100, 100)}, "own cut too", a=FIRE, post=["It's Gonna Cost Ya"]),
    row(
        "Eternal Flame",
        {"power": (150, 150)},
        "a swap cannot lower it",
        a=(150, "Fire"),
        opp_runs=["Deadline Deal"],
    ),
]


@pytest.mark.parametrize(("card", "setup", "expected"), ROWS)
def test_weapon_card_text(card: str, setup: dict[str, Any], expected: dict[str, Any]) -> None:
    check(scene(card, **setup), expected)
