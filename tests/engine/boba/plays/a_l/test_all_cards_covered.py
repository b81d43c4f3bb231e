"""Every Play card of the library whose name starts with A-L (or a digit or symbol) has at
least one row in the tables of this package (issue 11: a test for every Play card)."""

from __future__ import annotations

import json
import re
from typing import Any

from engine.boba.play_library import LIBRARY_PATH, normalise_name
from tests.engine.boba.plays.a_l import (
    test_coins_and_dice,
    test_draw_and_discard,
    test_heroes_and_substitution,
    test_hot_dogs,
    test_judge,
    test_power,
    test_protection_and_control,
    test_weapons,
)
from tests.engine.boba.plays.a_l._table import card_of

TABLES = [
    test_coins_and_dice.ROWS,
    test_draw_and_discard.ROWS,
    test_heroes_and_substitution.ROWS,
    test_hot_dogs.ROWS,
    test_judge.ROWS,
    test_power.ROWS,
    test_protection_and_control.ROWS,
    test_weapons.ROWS,
]


def in_range(name: str) -> bool:
    """A-L, ignoring leading punctuation and digits; a name starting with one is ours too."""
    if not name[:1].isalpha():
        return True
    return "a" <= name[:1].lower() <= "l"


def library_cards() -> set[str]:
    plays = json.loads(LIBRARY_PATH.read_text(encoding="utf-8"))["plays"]
    return {normalise_name(n) for n in plays if in_range(n)}


def covered() -> set[str]:
    return {normalise_name(card_of(p.id)) for t in TABLES for p in t}


def test_every_a_to_l_card_has_a_row() -> None:
    cards = library_cards()
    assert len(cards) > 200
    assert sorted(cards - covered()) == []


def test_rows_name_only_library_cards_in_range() -> None:
    assert sorted(covered() - library_cards()) == []


def _steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for step in steps:
        out.append(step)
        for key in ("then", "else", "do"):
            out += _steps(step.get(key, []))
        for option in step.get("choose", {}).values():
            out += _steps(option)
    return out


def test_no_card_in_range_is_left_to_a_judge() -> None:
    """A judge step cannot be executed: a row would then have to test choices.judge."""
    plays = json.loads(LIBRARY_PATH.read_text(encoding="utf-8"))["plays"]
    judged = [
        n
        for n, entry in plays.items()
        if in_range(n) and any("judge" in s for s in _steps(entry.get("effect", [])))
    ]
    assert judged == []


def test_range_rule() -> None:
    assert in_range("1/6 For 15") and in_range("Late Hit") and in_range("4 New Plays Baby!")
    assert not in_range("Mystery Box") and not in_range("Zero Hour")
    assert re.match(r"^[a-l]", "late hit")
