"""Play cards A-L that protect a hero, stop the opponent's plays, end the battle or decide
honors: each row checks power (A, B), the battle's winner and honors, or the illegal run."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.helpers import act, run_json
from tests.engine.boba.plays.a_l._table import check, row, scene

ROWS = [
    row("Full Court Press", {"error": "plays_prevented"}, opp_runs=["Buff Up 15"]),
    row("Full Court Press", {"power": (100, 100), "dogs": (8, 10)}, "nothing else"),
    row("Immunity", {"power": (100, 100), "dogs": (9, 6)}, opp_runs=["Gavel of Justice"]),
    row(
        "Immunity",
        {"power": (100, 115), "dogs": (9, 7)},
        "in any way: Ha! Gotcha passes nothing on",
        opp_runs=["Buff Up 15", "Ha! Gotcha"],
    ),
    row("Immunity", {"power": (100, 115)}, "their own hero still gains", opp_runs=["Buff Up 15"]),
    row(
        "Immunity",
        {"power": (100, 100)},
        "nor their gift: Even Money tails",
        opp_runs=[("Even Money", {"random": ["tails"]})],
    ),
    row(
        "Immunity",
        {"next": (70, 100), "dogs": (9, 6)},
        "only this hero: the next one is hit",
        extra=1,
        next_b=["Gavel of Justice"],
    ),
    row(
        "Immunity",
        {"heroes": ("A1", "B1"), "power": (100, 100), "dogs": (9, 8)},
        "the opponent's Forced Retreat cannot discard it",
        opp_runs=[("Forced Retreat", {"choices": {"hero": "AB1"}})],
    ),
    row(
        "Immunity",  # in any way: the opponent's Only Fire leaves its Ice weapon, so
        {"power": (100, 115)},  # their Icevantage still sees an Ice hero
        "nor its weapon",
        a=(100, "Ice"),
        opp_runs=["Only Fire", "Icevantage"],
    ),
    row(
        "Immunity",  # this hero only: Only Fire makes the next Ice hero Fire, so no +15
        {"next": (100, 100)},
        "the opponent's later hero is not immune",
        a=(100, "Ice"),
        opp_runs=["Only Fire"],
        extra=1,
        next_b=["Icevantage"],
        later_a=[(100, "Ice")],
    ),
    row("Indestructible", {"power": (100, 100), "dogs": (9, 6)}, opp_runs=["Gavel of Justice"]),
    # "this hero": a hero that replaces it is not protected (CR 3.2)
    row(
        "Indestructible",
        {"heroes": ("AD3", "B1"), "power": (90, 100), "dogs": (6, 6)},
        "not the hero replacing it",
        post=[("Blind Substitution", {"drawn": ["AD3"]})],
        opp_runs=["Gavel of Justice"],
    ),
    row(
        "Immunity",
        {"heroes": ("AD3", "B1"), "power": (90, 100), "dogs": (6, 6)},
        "not the hero replacing it",
        post=[("Blind Substitution", {"drawn": ["AD3"]})],
        opp_runs=["Gavel of Justice"],
    ),
    row(
        "Immunity",
        {"heroes": ("A1", "BD3"), "power": (100, 120), "dogs": (9, 7)},
        "the opponent's Leave It To Fate replaces only their own hero",
        opp_runs=[("Leave It To Fate", {"drawn": ["BD3"]})],
    ),
    row(
        "Indestructible",
        {"power": (115, 110)},
        "the opponent's Head Start cannot take the +15",
        pre=["Buff Up 15"],
        opp_runs=["Head Start"],
    ),
    row(
        "Immunity",
        {"power": (115, 110)},
        "nor reset it",
        pre=["Buff Up 15"],
        opp_runs=["Head Start"],
    ),
    row(
        "Indestructible - htd",
        {"power": (100, 100), "dogs": (10, 6)},
        opp_runs=["Gavel of Justice"],
    ),
    row(
        "Indestructible",
        {"power": (85, 100), "dogs": (10, 10)},
        "own plays still count",
        post=["It's Gonna Cost Ya"],
    ),
    # won: the next 2 battles' heroes can't be lowered by the opponent's plays
    row(
        "Hero's Resolve",
        {"winner": "A", "next": (100, 100), "dogs": (8, 6)},
        a=110,
        extra=1,
        next_b=["Gavel of Justice"],
    ),
    row(
        "Hero's Resolve",
        {"winner": "B", "next": (70, 100)},
        "lost",
        b=150,
        extra=1,
        next_b=["Gavel of Justice"],
    ),
    row(
        "Hero's Resolve",
        {"next": (115, 110)},
        "a reset by the opponent is a reduction too",
        a=150,
        extra=1,
        next_a=["Buff Up 15"],
        next_b=["Head Start"],
    ),
    # the battle ends now on current power; both players draw as after any battle
    row(
        "Call it a Day",
        {"power": (115, 100), "winner": "A", "pending": (1, 1), "dogs": (5, 10)},
        pre=["Buff Up 15"],
    ),
    row("Call it a Day", {"power": (100, 100), "winner": None}, "a tie"),
    row(
        "Call it a Day",
        {"power": (100, 115), "winner": "B", "dogs": (7, 8)},
        "after the opponent's play",
        honors="B",
        opp_runs=["Buff Up 15"],
    ),
    row(
        "Easy Choice",
        {"winner": "A", "honors_next": "B", "dogs": (9, 10)},
        a=150,
        choices={"honors": "B"},
    ),
    row(
        "Easy Choice - htd",
        {"winner": "B", "honors_next": "A", "dogs": (10, 10)},
        b=150,
        choices={"honors": "A"},
    ),
    row(
        "Honorable",
        {"winner": "B", "honors_next": "A", "hand": (1, 0), "dogs": (9, 10)},
        b=150,
        drawn=["Filler"],
    ),
]


@pytest.mark.parametrize(("card", "setup", "expected"), ROWS)
def test_control_card_text(card: str, setup: dict[str, Any], expected: dict[str, Any]) -> None:
    check(scene(card, **setup), expected)


def test_call_it_a_day_leaves_the_opponent_no_play_after_it() -> None:
    """The battle is won "now": B, who has not acted yet, can no longer run a play."""
    out = scene("Call it a Day", a=120, opp_hand=["Buff Up 15"])
    record = out.record
    k = next(i for i, a in enumerate(record["actions"]) if a.get("card") == "a1")
    record["actions"] = [*record["actions"][: k + 1], act("B", "run", "b1")]
    result = run_json(record)
    assert result["battles"][0]["winner"] == "A"
    assert result["error"]["code"] == "wrong_phase"
