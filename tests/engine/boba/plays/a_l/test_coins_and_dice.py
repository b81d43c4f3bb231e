"""Play cards A-L that flip coins or roll dice (outcomes from the record's ``random``, README
decision 10): each row gives the coins/dice and checks what the text makes of them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.a_l._table import cheap, check, row, scene

H, T = "heads", "tails"

ROWS = [
    row("3rd Time Charm", {"power": (200, 100), "hand": (0, 0), "dogs": (8, 10)}, random=[H, H, H]),
    row(
        "3rd Time Charm",
        {"power": (100, 100), "hand": (2, 0)},
        "a play per tails",
        random=[T, H, T],
        drawn=["Filler"] * 2,
    ),
    row("3rd Time Charm - htd", {"power": (200, 100), "dogs": (9, 10)}, random=[H, H, H]),
    row("1/6 For 15", {"power": (0, 100), "dogs": (9, 10)}, "rolls 1", random=[1]),
    row("1/6 For 15", {"power": (115, 100)}, "rolls 3", random=[3]),
    row(
        "1/6 For 15",
        {"power": (0, 100), "dogs": (7, 10)},
        "rolls 1 after a buff",
        pre=["Buff Up 15"],
        random=[1],
    ),
    row(
        "1/6 For 15",  # CR 5.1.2: effects resolve in order; a later buff counts from 0
        {"power": (15, 100), "dogs": (7, 10)},
        "a later buff counts",
        post=["Buff Up 15"],
        random=[1],
    ),
    # 2 heads: one card drawn, one hot dog back (5 - 2 + 1)
    row(
        "Add Firepower",
        {"hand": (1, 0), "dogs": (4, 10)},
        random=[H, T, H, T],
        choices={"option": ["card", "dog"]},
        drawn=["Filler"],
        dogs=(5, 10),
    ),
    row(
        "Add Firepower",
        {"hand": (0, 0), "bench": (6, 4), "dogs": (5, 10)},
        "2 heroes for 2 heads",
        random=[T, H, H, T],
        choices={"option": ["card", "card"]},
        drawn=["AD1", "AD2"],
        dogs=(7, 10),
    ),
    row(
        "Bull Market",
        {"power": (100, 115), "dogs": (8, 7)},
        "heads: +1 on their plays",
        random=[H],
        opp_runs=["Buff Up 15"],
    ),
    row(
        "Bull Market",
        {"next": (100, 115), "dogs": (8, 7)},
        "heads: next battle too",
        random=[H],
        extra=1,
        next_b=["Buff Up 15"],
    ),
    row("Bull Market", {"dogs": (8, 8)}, "tails", random=[T], opp_runs=["Buff Up 15"]),
    row(
        "Cloudy With A Chance Of Hot Dogs",
        {"dogs": (9, 10)},
        "guessed right",
        dogs=(5, 10),
        choices={"number": 4},
        random=[4],
    ),
    row(
        "Cloudy With A Chance Of Hot Dogs",
        {"dogs": (5, 10)},
        "guessed wrong",
        dogs=(5, 10),
        choices={"number": 4},
        random=[2],
    ),
    row(
        "Cloudy With A Chance Of Hot Dogs",
        {"error": "invalid_choice"},
        "a number from 1 to 6",
        choices={"number": 7},
        random=[3],
    ),
    row(
        "Crystal Ball",
        {"power": (130, 100), "dogs": (10, 10)},
        "my number",
        choices={"number": 2, "opp_number": 5},
        random=[2],
    ),
    row(
        "Crystal Ball",
        {"power": (100, 130)},
        "their number",
        choices={"number": 2, "opp_number": 5},
        random=[5],
    ),
    row(
        "Crystal Ball",
        {"power": (100, 100)},
        "neither",
        choices={"number": 2, "opp_number": 5},
        random=[6],
    ),
    row(
        "Crystal Ball",
        {"error": "invalid_choice"},
        "the opponent's number must differ",
        choices={"number": 3, "opp_number": 3},
        random=[3],
    ),
    row(
        "Crystal Ball",
        {"error": "invalid_choice"},
        "a number from 1 to 6",
        choices={"number": 9, "opp_number": 2},
        random=[2],
    ),
    row("Cursed Coin", {"power": (100, 80), "dogs": (8, 10)}, random=[H, T, H]),
    row("Cursed Coin - htd", {"power": (100, 70), "dogs": (9, 10)}, random=[H, H, H]),
    row("Cursed Coin", {"power": (100, 100)}, "no heads", random=[T, T, T]),
    row("Dice Duel", {"power": (125, 100), "dogs": (10, 10)}, "I roll higher", random=[5, 2]),
    row("Dice Duel", {"power": (100, 125)}, "they roll higher", random=[1, 6]),
    row("Dice Duel", {"power": (90, 90)}, "tie", random=[3, 3]),
    row(
        "Discard Or 10",
        {"power": (110, 100), "hand": (2, 0)},
        "heads",
        random=[H],
        hand=["Filler"] * 2,
    ),
    row(
        "Discard Or 10",
        {"power": (100, 100), "hand": (1, 0), "discard": (2, 0)},
        "tails: a random play",
        random=[T],
        hand=["Filler"] * 2,
        drawn=["a3"],
    ),
    row("Dog Gone Flip", {"dogs": (8, 5)}, "heads", random=[H], dogs=(5, 5)),
    row("Dog Gone Flip", {"dogs": (5, 8)}, "tails", random=[T], dogs=(5, 5)),
    row("Double Down", {"power": (120, 100)}, "2 heads", random=[H, H]),
    row("Double Down", {"power": (60, 100)}, "2 tails", random=[T, T]),
    row("Double Down", {"power": (100, 100)}, "mixed", random=[H, T]),
    row(
        "Double or Nothin'",
        {"power": (230, 100), "dogs": (9, 10)},
        "2 heads: adds the top hero",
        random=[H, H],
        drawn=[(130, "Ice")],
    ),
    row("Double or Nothin'", {"power": (100, 100)}, "one tails", random=[H, T]),
    row("Even Money", {"power": (120, 100), "dogs": (10, 10)}, "heads", random=[H]),
    row("Even Money", {"power": (100, 120)}, "tails", random=[T]),
    row("Flip Ya For 2 Plays", {"hand": (2, 0)}, "heads", random=[H], drawn=["Filler"] * 2),
    row("Flip Ya For 2 Plays", {"hand": (0, 2)}, "tails", random=[T], drawn=["Filler"] * 2),
    row("Greedy Gamble", {"dogs": (7, 10)}, "heads", random=[H], dogs=(4, 10)),
    row("Greedy Gamble", {"dogs": (1, 10)}, "tails", random=[T], dogs=(4, 10)),
    row("Heads I Win, Tails You Lose", {"power": (115, 100), "dogs": (9, 10)}, "heads", random=[H]),
    row("Heads I Win, Tails You Lose", {"power": (100, 95)}, "tails", random=[T]),
    row("Heads I Win, Tails You Lose - htd", {"power": (115, 100), "dogs": (10, 10)}, random=[H]),
    row("Heads-Up!", {"power": (115, 100), "dogs": (8, 10)}, random=[H, H, T, H]),
    row("Heads-Up! - htd", {"power": (120, 100), "dogs": (9, 10)}, random=[H, H, H, H]),
    row("Heavy Swing", {"power": (100, 65), "dogs": (8, 10)}, "heads", random=[H]),
    row("Heavy Swing", {"power": (100, 100)}, "tails", random=[T]),
    row("High Fastball", {"power": (100, 80), "dogs": (8, 10)}, random=[4]),
    row("High Fastball", {"power": (100, 70)}, "rolls 6", random=[6]),
    row("Hollow Bat", {"power": (125, 100), "dogs": (8, 10)}, "rolls 3", random=[3]),
    row("Hollow Bat", {"power": (75, 100)}, "rolls 2", random=[2]),
    row("Hollow Bat - htd", {"power": (125, 100), "dogs": (9, 10)}, random=[6]),
    row("Jump Ball", {"power": (110, 100)}, "heads", random=[H]),
    row("Jump Ball", {"power": (90, 100)}, "tails", random=[T]),
    row("Line Drive", {"power": (140, 100), "dogs": (9, 10)}, "rolls 4", random=[4]),
    row("Line Drive", {"power": (105, 100)}, "rolls 6", random=[6]),
    row("Lucky 7", {"power": (200, 100), "bench": (4, 4)}, "adds to 7", random=[3, 4]),
    row(
        "Lucky 7",
        {"power": (100, 100), "bench": (3, 4)},
        "any other sum: a random hero",
        random=[3, 3],
        drawn=["AB2"],
    ),
    row("Lucky Bounce", {"power": (120, 100), "dogs": (8, 10)}, random=[4]),
    row(
        "Lucky Shot",
        {"power": (130, 100), "hand": (2, 0)},
        "heads and 5",
        random=[H, 5],
        hand=["Filler"] * 2,
    ),
    row(
        "Lucky Shot",
        {"power": (100, 100), "hand": (0, 0)},
        "tails: discard 2",
        random=[T, 5],
        hand=["Filler"] * 2,
        choices={"discard": ["a2", "a3"]},
    ),
    row(
        "Lucky Shot",
        {"power": (100, 100), "hand": (1, 0)},
        "heads and 3",
        random=[H, 3],
        hand=["Filler"] * 3,
        choices={"discard": ["a2", "a3"]},
    ),
    # any coin flipped later: the opponent's active hero -5 (Jump Ball heads: +10 for A)
    row(
        "Loan Sharked",
        {"power": (110, 95), "dogs": (8, 10)},
        post=[("Jump Ball", {"random": [H]})],
    ),
    row(
        "Loan Sharked - htd",
        {"power": (100, 105), "dogs": (9, 10)},
        "the opponent's flip too",
        opp_runs=[("Jump Ball", {"random": [H]})],
    ),
    row(
        "Loan Sharked",
        {"next": (100, 85)},
        "for the rest of the game",
        extra=1,
        next_b=[("Cursed Coin", {"random": [T, T, T]})],
    ),
    # the opponent rolls after paying: 2-5 runs the play, otherwise it is stopped (cost paid)
    row(
        "Leave It To Chance",
        {"power": (100, 100), "dogs": (5, 8)},
        "rolls 1",
        opp_runs=[("Buff Up 15", {"random": [1]})],
    ),
    row(
        "Leave It To Chance",
        {"power": (100, 100), "dogs": (5, 8)},
        "rolls 6",
        opp_runs=[("Buff Up 15", {"random": [6]})],
    ),
    row(
        "Leave It To Chance",
        {"power": (100, 115), "dogs": (5, 8)},
        "rolls 2",
        opp_runs=[("Buff Up 15", {"random": [2]})],
    ),
    row(
        "Leave It To Chance",
        {"next": (100, 100), "dogs": (5, 8)},
        "for the rest of the game",
        extra=1,
        next_b=[("Buff Up 15", {"random": [6]})],
    ),
    row(
        "Luck Of The Draw",
        {"power": (115, 100), "dogs": (10, 10), "playbook": (25, 26)},
        "I roll higher: my top play free",
        random=[5, 2],
        drawn=["Buff Up 15"],
    ),
    row(
        "Luck Of The Draw",
        {"power": (100, 115), "dogs": (10, 10), "playbook": (26, 25)},
        "they roll higher",
        random=[1, 4],
        drawn=["Buff Up 15"],
    ),
    row("Luck Of The Draw", {"power": (100, 100)}, "tie", random=[3, 3]),
    # every die rolled later lets the roller draw a play
    row(
        "Deep In The Playbook",
        {"power": (110, 100), "hand": (1, 0), "dogs": (8, 10)},
        post=[("Lucky Bounce", {"random": [2], "drawn": ["Filler"]})],
    ),
    row(
        "Deep In The Playbook",
        {"power": (200, 100), "hand": (2, 0)},
        "a play for each die",
        post=[("Lucky 7", {"random": [3, 4], "drawn": ["Filler", "Filler"]})],
    ),
    row(
        "Deep In The Playbook",
        {"power": (100, 125), "hand": (1, 1)},
        "both players' dice",
        post=[("Dice Duel", {"random": [3, 4], "drawn": ["Filler", "Filler"]})],
    ),
    row(
        "Deep In The Playbook",
        {"hand": (0, 1)},
        "the opponent's roll",
        opp_runs=[("Lucky Bounce", {"random": [2], "drawn": ["Filler"]})],
    ),
    # the 5 top plays: those costing 3 or more give +10 each
    row(
        "Big Spender Bonus",
        {"power": (120, 100), "playbook": (21, 26), "discard": (6, 0), "dogs": (8, 10)},
        drawn=[cheap(3), cheap(4), cheap(1), cheap(0), cheap(2)],
    ),
    # CR 5.2.3 A: a discard at the start of the text is a prerequisite of the effect; a
    # required discard that can't be done in full discards nothing (docs/game-record.md)
    row(
        "Big Spender Bonus",
        {"power": (100, 100), "dogs": (8, 10), "playbook": (3, 26), "discard": (1, 0)},
        "only 3 plays left to discard",
        playbook=(3, 26),
    ),
]


@pytest.mark.parametrize(("card", "setup", "expected"), ROWS)
def test_chance_card_text(card: str, setup: dict[str, Any], expected: dict[str, Any]) -> None:
    check(scene(card, **setup), expected)
