"""Play cards A-L about hot dogs (recovering, losing, paying, play costs): each row checks
the available hot dogs (A, B) at the end of the scene (CR 2.1.4: 10 each, available or
discarded)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.a_l._table import cheap, check, row, scene

ROWS = [
    row("Back From The Dumps", {"dogs": (8, 9)}, dogs=(5, 6)),
    row("Back From The Dumps", {"dogs": (10, 10)}, "fewer discarded", dogs=(9, 10)),
    # every recovery gets one more: Back From The Dumps then gives 4 each
    row("Bonus Recovery", {"dogs": (8, 8)}, dogs=(4, 4), post=["Back From The Dumps"]),
    row(
        "Bonus Recovery",
        {"dogs": (10, 9)},
        "the opponent's recovery too",
        dogs=(6, 5),
        opp_runs=["Back From The Dumps"],
    ),
    row("Bun Shortage", {"dogs": (1, 4)}, dogs=(4, 4), post=["Back From The Dumps"]),
    row(
        "Bun Shortage",
        {"dogs": (7, 4)},
        "for the rest of the game",
        dogs=(10, 4),
        extra=1,
        next_b=["Back From The Dumps"],
    ),
    row("Bundle Deal", {"dogs": (9, 10), "power": (115, 100)}, post=["Buff Up 15"]),
    row(
        "Bundle Deal",  # "your next Play" is the very next one; a cost never goes below 0
        {"dogs": (8, 10), "power": (115, 100)},
        "a free next play uses it up",
        post=[cheap(0), "Buff Up 15"],
    ),
    row(
        "Bundle Deal",
        {"dogs": (9, 10), "next": (115, 100)},
        "the next play in a later battle",
        extra=1,
        next_a=["Buff Up 15"],
    ),
    row(
        "Bundle Deal",
        {"dogs": (7, 10), "power": (130, 100)},
        "only the next play",
        post=["Buff Up 15", "Buff Up 15"],
    ),
    row("Burn To Burn", {"dogs": (9, 8), "hand": (0, 0)}, hand=["Filler"]),
    row("Burn To Burn", {"dogs": (9, 10)}, "no play to discard"),
    row(
        "Drain And Deny",
        {"power": (100, 90), "dogs": (10, 5)},
        "no recovery for them next battle",
        dogs=(10, 5),
        extra=1,
        next_b=["Back From The Dumps"],
    ),
    row(
        "Drought",
        {"dogs": (10, 8)},
        "loses 2, no recovery this battle",
        opp_runs=["Back From The Dumps"],
    ),
    row(
        "Drought",
        {"dogs": (10, 8)},
        "nor next battle",
        extra=1,
        next_b=["Back From The Dumps"],
    ),
    row("Feast Or Famine", {"dogs": (7, 10), "winner": "A"}, "win", a=150, dogs=(5, 10)),
    row("Feast Or Famine", {"dogs": (4, 10), "winner": "B"}, "lose", b=150, dogs=(5, 10)),
    row("Feast Or Famine", {"dogs": (5, 10)}, "draw", dogs=(5, 10)),
    row("Get What You Pay For", {"power": (130, 100), "dogs": (7, 10)}, choices={"pay": 3}),
    row(
        "Get What You Pay For",
        {"power": (200, 100), "dogs": (0, 10)},
        "all 10",
        choices={"pay": 10},
    ),
    # the opponent's recovery comes to A instead
    row(
        "Grilled Bandit",
        {"dogs": (9, 5)},
        dogs=(8, 5),
        opp_runs=["Back From The Dumps"],
    ),
    row("Hot Dog Stock Exchange", {"dogs": (3, 8)}, "battle 7", prior="ABABDD", dogs=(9, 3)),
    row("Hot Dog Stock Exchange", {"error": "play_condition_not_met"}, "battle 6", prior="ABABD"),
    row("Hot Dog Thief", {"dogs": (6, 9)}, dogs=(5, 10)),
    row("Hungry Demands", {"dogs": (7, 8)}),
    row("Hungry Demands", {"dogs": (7, 0)}, "only 1 left", dogs=(10, 1)),
    row(
        "Hungry Demands",  # Immunity guards "this Hero", not its player's hot dogs
        {"dogs": (7, 7)},
        "immunity guards the hero, not hot dogs",
        honors="B",
        opp_runs=["Immunity"],
    ),
    # from battle 4 on: both lose 1 at the start of each later battle
    row("Incendiary Dog", {"dogs": (6, 9)}, "battle 4", prior="ABD", extra=1),
    row("Incendiary Dog", {"dogs": (5, 8)}, "2 battles later", prior="ABD", extra=2),
    row("Incendiary Dog", {"error": "play_condition_not_met"}, "battle 3", prior="AB"),
    # the play itself counts
    row("Instant Refund", {"dogs": (10, 10)}, pre=["Buff Up 15"]),
    row("Instant Refund", {"dogs": (7, 10)}, "alone", dogs=(6, 10)),
    row("It's Gonna Cost Ya", {"power": (85, 100), "dogs": (7, 10)}, dogs=(5, 10)),
    row(
        "It's Gonna Cost Ya",
        {"dogs": (6, 10)},
        "up to 2: takes 1",
        dogs=(5, 10),
        choices={"recover": 1},
    ),
    # battles 1-6 drawn; at the start of battle 7 every hot dog comes back
    row("Late Game Push", {"dogs": (10, 5), "trophies": (0, 0)}, dogs=(5, 5), extra=6),
    row("Late Game Push", {"dogs": (3, 5)}, "not before battle 7", dogs=(5, 5), extra=5),
    row("Late Game Push", {"error": "play_condition_not_met"}, "battle 5", prior="ABAB"),
    row("Lose And Discard", {"dogs": (6, 10), "winner": "B"}, "I lose", b=150),
    row(
        "Lose And Discard",
        {"dogs": (7, 9), "next_winner": "A"},
        "they lose later",
        later_a=[150],
        extra=1,
    ),
    row("Lunch Table", {"power": (120, 100), "dogs": (5, 7)}, dogs=(5, 5), extra=1),
    row("Lunch Table", {"dogs": (3, 5)}, "not this battle", dogs=(5, 5)),
    row(
        "Consolation Combo",
        {"dogs": (6, 10), "pending": (2, 1)},
        "lost: 1 hot dog, 1 more draw",
        b=150,
        dogs=(5, 10),
    ),
    row("Consolation Combo", {"dogs": (5, 10), "pending": (1, 1)}, "won", a=150, dogs=(5, 10)),
    row("Fair Trade", {"dogs": (9, 6), "hand": (2, 0)}, dogs=(10, 5), drawn=["Filler"] * 2),
    # this one free; next plays 1 less this battle and next
    row("Flash Sale", {"dogs": (9, 10)}, post=["Buff Up 15"]),
    row(
        "Flash Sale",
        {"dogs": (8, 10)},
        "next battle too",
        post=["Buff Up 15"],
        extra=1,
        next_a=["Buff Up 15"],
    ),
    row("Dog Gone Inflation", {"dogs": (9, 6), "power": (100, 115)}, opp_runs=["Buff Up 15"]),
    row(
        "Dog Gone Inflation",
        {"dogs": (9, 6)},
        "next battle too",
        extra=1,
        next_b=["Buff Up 15"],
    ),
    # 1 hot dog per hero in their hand; what they cannot pay costs a random hero
    row("Hero Tax", {"dogs": (6, 6), "bench": (4, 4)}),
    row(
        "Hero Tax",
        {"dogs": (6, 0), "bench": (4, 2)},
        "2 hot dogs for 4 heroes",
        dogs=(10, 2),
        drawn=["BB3", "BB4"],
    ),
]


@pytest.mark.parametrize(("card", "setup", "expected"), ROWS)
def test_hot_dog_card_text(card: str, setup: dict[str, Any], expected: dict[str, Any]) -> None:
    check(scene(card, **setup), expected)
