"""Play cards A-L that change a hero's power (plainly or under a condition on the game so
far): each row runs the card and checks the battle's final power (A, B) and the cost paid."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.a_l._table import check, disagreement, prep, row, scene

DISCARD_2 = (prep({"discard": 2, "from": "hand_heroes"}), {"choices": {"discard": ["AB1", "AB2"]}})
DISCARD_3 = (
    prep({"discard": 3, "from": "hand_heroes"}),
    {"choices": {"discard": ["AB1", "AB2", "AB3"]}},
)

ROWS = [
    row("Buff Up 15", {"power": (115, 100), "dogs": (8, 10)}),
    row("1 For 10", {"power": (90, 100), "hand": (1, 0), "dogs": (10, 10)}, drawn=["Filler"]),
    row("2 For 20", {"power": (80, 100), "hand": (2, 0), "dogs": (9, 10)}, drawn=["Filler"] * 2),
    row("2 Get 10", {"power": (110, 100), "next": (110, 100), "dogs": (8, 10)}, extra=1),
    row("10/10 Unfair", {"power": (100, 90), "next": (110, 100), "dogs": (8, 10)}, extra=1),
    # +10 for each other play run this battle
    row("10 Per Play", {"power": (120, 100), "dogs": (9, 10)}, "2 before", pre=[prep(), prep()]),
    row("10 Per Play", {"power": (100, 100)}, "alone"),
    row(
        "3 Weapon Streak",
        {"power": (125, 100), "dogs": (8, 10)},
        prior="DD",
        prior_a=[(100, "Fire"), (100, "Fire")],
        a=(100, "Fire"),
    ),
    row(
        "3 Weapon Streak",
        {"power": (100, 100)},
        "broken streak",
        prior="DD",
        prior_a=[(100, "Ice"), (100, "Fire")],
        a=(100, "Fire"),
    ),
    row(
        "5 Weapon Streak",
        {"power": (140, 100), "dogs": (7, 10)},
        prior="ABABD",
        prior_a=[(150, "Ice")] * 5,
        a=(100, "Ice"),
    ),
    row(
        "5 Weapon Streak",
        {"power": (100, 100)},
        "4 of 5",
        prior="ABABD",
        prior_a=[(150, "Fire")] + [(150, "Ice")] * 4,
        a=(100, "Ice"),
    ),
    row("3-Dog-Special", {"power": (110, 100)}, "exactly 3 left", dogs=(3, 10)),
    row("3-Dog-Special", {"power": (100, 100)}, "4 left", dogs=(4, 10)),
    row("10 For A Sub", {"power": (210, 100), "dogs": (7, 10)}, "after a substitution", sub="AB1"),
    row("10 For A Sub", {"power": (100, 100), "dogs": (9, 10)}, "no substitution"),
    # +5 for each hot dog left after paying 2 of 10
    row("Banked Power", {"power": (140, 100), "dogs": (8, 10)}),
    row("Banked Power", {"power": (105, 100)}, "3 left", dogs=(3, 10)),
    row("Baseline Bonus", {"power": (110, 100), "dogs": (9, 10)}, "unchanged power"),
    row("Baseline Bonus", {"power": (115, 100)}, "already raised", pre=["Buff Up 15"]),
    row(
        "Battle Back",
        {"power": (115, 100), "hand": (1, 0), "dogs": (8, 10)},
        "behind: draws",
        prior="B",
        drawn=["Filler"],
    ),
    row("Battle Back", {"power": (115, 100), "hand": (0, 0)}, "level: no draw", prior="D"),
    row("Belly Buster", {"power": (100, 90), "dogs": (9, 10)}, "equal hot dogs before cost"),
    row("Belly Buster", {"power": (100, 100)}, "opponent has fewer", dogs=(10, 9)),
    row("Buff Or Debuff", {"power": (115, 100), "dogs": (8, 10)}, "opponent has more after cost"),
    row("Buff Or Debuff", {"power": (100, 85)}, "you have more", dogs=(10, 5)),
    row("Buff Or Debuff", {"power": (100, 100)}, "equal after cost", dogs=(10, 8)),
    row("Catch-Up Bonus", {"power": (110, 100), "dogs": (9, 10)}, "behind: recovers 1"),
    row("Catch-Up Bonus", {"power": (110, 100), "dogs": (8, 5)}, "ahead", dogs=(10, 5)),
    row("Combo Kick", {"power": (135, 100), "dogs": (6, 10)}, "second play", pre=["Buff Up 15"]),
    row("Combo Kick", {"power": (115, 100)}, "first play"),
    row("Combo Kick", {"power": (115, 100)}, "third play", pre=[prep(), prep()]),
    row("Comeback Season", {"power": (130, 100), "dogs": (8, 10)}, "behind", prior="B"),
    row("Comeback Season", {"power": (100, 100)}, "level", prior="AB"),
    row("Comeback Time", {"power": (115, 100), "dogs": (9, 10)}, "lost 2", prior="BB"),
    row("Comeback Time", {"power": (100, 100)}, "won one of 2", prior="AB"),
    row("Competitive Disadvantage", {"power": (100, 80), "dogs": (8, 10)}, prior="BDB"),
    row("Competitive Disadvantage", {"power": (100, 100)}, "no wins", prior="A"),
    row("Deadline Deal", {"power": (150, 100), "dogs": (7, 10)}, b=150),
    row("Discarded Heroes", {"power": (120, 100), "dogs": (9, 10)}, pre=[DISCARD_2]),
    row("Discarded Heroes", {"power": (100, 100)}, "empty discard"),
    # battle 3: 4 battles remain
    row("Early Round Magic", {"power": (120, 100), "dogs": (8, 10)}, "battle 3", prior="DD"),
    row("Early Round Magic", {"power": (130, 100)}, "battle 1"),
    row("Edge Rush", {"power": (185, 180), "dogs": (5, 10)}, b=180),
    row("Edge Rush", {"power": (65, 60)}, "lowers too", b=60),
    row("Fairweather Fan", {"power": (110, 100), "dogs": (9, 10)}, "battle 5", prior="ABAB"),
    row("Fairweather Fan", {"error": "play_condition_not_met"}, "battle 4", prior="ABA"),
    row("Front Run", {"power": (120, 100), "dogs": (8, 10)}, "opponent ran nothing"),
    row(
        "Front Run",
        {"power": (100, 115)},
        "opponent ran a play",
        honors="B",
        opp_runs=["Buff Up 15"],
    ),
    row("Free Booster", {"power": (120, 100), "dogs": (10, 10)}, "no plays last battle", prior="D"),
    row(
        "Free Booster",
        {"power": (120, 100), "dogs": (7, 10)},
        "a play last battle",
        prior="D",
        earlier=[prep()],
    ),
    row("Free Booster", {"error": "play_condition_not_met"}, "battle 1"),
    row("Gavel of Justice", {"power": (100, 70), "dogs": (6, 10)}),
    row("Gavel of Justice - htd", {"power": (100, 70), "dogs": (7, 10)}),
    row(
        "Going Back to Back",
        {"power": (115, 100), "dogs": (5, 10)},
        prior="A",
        earlier=["Buff Up 15"],
    ),
    row(
        "Going Back to Back - htd",
        {"power": (115, 100), "dogs": (6, 10)},
        prior="A",
        earlier=["Buff Up 15"],
    ),
    row("Going Back to Back", {"power": (100, 100)}, "no extra before", prior="A"),
    row(
        "Going Back to Back",
        {"power": (100, 100)},
        "a loss is not extra power",
        prior="A",
        earlier=["It's Gonna Cost Ya"],
    ),
    row("Ha! Gotcha", {"power": (115, 115), "dogs": (7, 10)}, pre=["Buff Up 15"]),
    row(
        "Head Start",
        {"power": (110, 100), "dogs": (5, 8)},
        honors="B",
        opp_runs=["Buff Up 15"],
        pre=["Buff Up 15"],
    ),
    row(
        "Hero Reset",
        {"power": (100, 100), "dogs": (8, 6)},
        honors="B",
        opp_runs=["Gavel of Justice"],
    ),
    row("Hero Reset", {"power": (100, 100)}, "drops a gain", pre=["Buff Up 15"]),
    # 2 for the substitution + 2 for Buff Up 15, +5 each; the substitute has 200
    row(
        "Hot Dog Dominance",
        {"power": (235, 100), "dogs": (6, 10)},
        sub="AB1",
        pre=["Buff Up 15"],
    ),
    row("Hot Dog Dominance", {"power": (100, 100)}, "nothing spent"),
    row(
        "Hot Dog Dominance",
        {"power": (110, 100), "dogs": (8, 7)},
        "2 discarded to the opponent's Hungry Demands",
        honors="B",
        opp_runs=["Hungry Demands"],
        marks=disagreement(
            "Hot Dog Dominance",
            "counts every hot dog you discarded this battle; the engine counts only those paid"
            " (a forced discard such as Hungry Demands gives nothing)",
        ),
    ),
    row(
        "I Get Some, You Get Some.",
        {"power": (110, 100), "next": (100, 110), "dogs": (9, 10)},
        extra=1,
    ),
    row("Lineup Pressure", {"power": (100, 85), "dogs": (8, 10)}, "3 revealed", prior="DD"),
    row(
        "Lose 1 To Win 2 (Hopefully)",
        {"power": (50, 100), "next": (115, 100), "next2": (115, 100), "dogs": (8, 10)},
        extra=2,
    ),
    row("Low Turnover", {"power": (115, 100), "dogs": (9, 10)}, "no hero discarded"),
    row("Low Turnover", {"power": (100, 100)}, "heroes discarded", pre=[DISCARD_2]),
    row("High Turnover", {"power": (125, 100), "dogs": (8, 10)}, "3 discarded", pre=[DISCARD_3]),
    row("High Turnover", {"power": (100, 100)}, "2 discarded", pre=[DISCARD_2]),
    row(
        "Fallen Fighters",
        {"power": (120, 100), "bench": (2, 4), "dogs": (9, 10)},
        "2 Fire heroes discarded",
        bench=[(150, "Fire"), (150, "Fire"), (150, "Ice")],
        pre=[(prep({"discard": 1, "from": "hand_heroes"}), {"choices": {"discard": ["AB1"]}})],
        choices={"discard": ["AB2"]},
    ),
    row(
        "Fallen Fighters",
        {"power": (100, 100)},
        "no hero in hand",
        pre=[prep({"discard": "all", "from": "hand_heroes"})],
    ),
    row("Late-Game Magic", {"power": (120, 100), "dogs": (8, 10)}, "battle 5", prior="ABAB"),
    row("Late-Game Magic", {"error": "play_condition_not_met"}, "battle 4", prior="ABA"),
    row("Late Hit", {"power": (100, 65), "dogs": (7, 10)}, "battle 7", prior="ABABDD"),
    row("Late Hit", {"error": "play_condition_not_met"}, "battle 6", prior="ABABD"),
    row(
        "Brothers In Arms",
        {"power": (120, 100), "dogs": (8, 10)},
        "opponent used Fire before",
        a=(100, "Fire"),
        b=(100, "Ice"),
        prior="D",
        prior_b=[(100, "Fire")],
        prior_a=[(100, "Steel")],
    ),
    row(
        "Brothers In Arms - htd",
        {"power": (120, 100), "dogs": (9, 10)},
        a=(100, "Fire"),
        b=(100, "Fire"),
    ),
    row(
        "Brothers In Arms",
        {"power": (100, 100)},
        "never the same weapon",
        a=(100, "Fire"),
        b=(100, "Ice"),
    ),
    row(
        "Different Leagues", {"power": (100, 90), "dogs": (9, 10)}, a=(100, "Fire"), b=(100, "Ice")
    ),
    row("Different Leagues", {"power": (100, 100)}, "same weapon", a=(100, "Ice"), b=(100, "Ice")),
    row(
        "Copycat",
        {"power": (130, 100), "dogs": (6, 10)},
        "copies Buff Up 15 and its cost",
        pre=["Buff Up 15"],
    ),
    row(
        "Emergency Shutdown",
        {"power": (100, 100), "dogs": (2, 8)},
        "2 hot dogs: cancels",
        dogs=(2, 10),
        honors="B",
        b=(100, "Ice"),
        opp_runs=["Cold Pressure"],
    ),
    row(
        "Emergency Shutdown",
        {"power": (90, 100)},
        "3 hot dogs",
        dogs=(3, 10),
        honors="B",
        b=(100, "Ice"),
        opp_runs=["Cold Pressure"],
    ),
    row("High Stakes Pump-Up", {"power": (110, 150), "next": (80, 100)}, "lost", b=150, extra=1),
    row("High Stakes Pump-Up", {"power": (110, 100), "next": (100, 100)}, "won", extra=1),
    row("Big Win Energy", {"power": (100, 90), "next": (140, 100), "dogs": (7, 10)}, b=90, extra=1),
    row("Big Win Energy", {"next": (100, 100)}, "lost", b=150, extra=1),
    row(
        "Dragging Anchor",
        {"power": (100, 100), "next": (100, 90), "next2": (100, 90), "dogs": (8, 10)},
        extra=2,
    ),
    row(
        "Double-Edged Flip",
        {"power": (100, 85), "next": (100, 100), "dogs": (8, 10)},
        "heads: now",
        random=["heads"],
        extra=1,
    ),
    row(
        "Double-Edged Flip",
        {"power": (100, 100), "next": (100, 85)},
        "tails: next hero",
        random=["tails"],
        extra=1,
    ),
]


@pytest.mark.parametrize(("card", "setup", "expected"), ROWS)
def test_power_card_text(card: str, setup: dict[str, Any], expected: dict[str, Any]) -> None:
    check(scene(card, **setup), expected)
