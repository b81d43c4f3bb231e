"""A small BOS record for the engine tests (invented cards, not real card texts)."""

from __future__ import annotations

import copy
from typing import Any

CARDS: dict[str, dict[str, Any]] = {
    "sage": {"type": "wizard", "colour": "yellow"},
    "druid": {"type": "wizard", "colour": "yellow"},
    "monk": {"type": "wizard", "colour": "yellow"},
    "pyro1": {"type": "wizard", "colour": "red"},
    "pyro2": {"type": "wizard", "colour": "red"},
    "pyro3": {"type": "wizard", "colour": "red"},
    "essence": {
        "type": "summon",
        "colour": "yellow",
        "strength": 3,
        "summoning_condition": {"wizard": "sage"},
    },
    "sprite": {
        "type": "summon",
        "colour": "yellow",
        "strength": 5,
        "summoning_condition": {"colour": "yellow"},
    },
    "imp": {
        "type": "summon",
        "colour": "red",
        "strength": 2,
        "summoning_condition": {"colour": "red"},
    },
    "golem": {
        "type": "summon",
        "colour": "red",
        "strength": 6,
        "summoning_condition": {"colour": "red"},
    },
    "titan": {"type": "boss", "colour": "yellow", "strength": 10},
    "maniac": {"type": "boss", "colour": "red", "strength": 8},
    "bloom": {"type": "spell", "colour": "yellow", "vim_cost": 2},
    "bolt": {"type": "spell", "colour": "red", "vim_cost": 3},
}


def record(actions: list[dict[str, Any]], **initial: Any) -> dict[str, Any]:
    return {
        "format": "bos-game-record/1",
        "players": {"A": "Ann", "B": "Bob"},
        "first": "A",
        "cards": copy.deepcopy(CARDS),
        "decks": {
            "A": {
                "wizards": ["sage", "druid", "monk"],
                "boss": "titan",
                "castle": ["essence", "sprite", "sprite"],
                "spellbook": ["bloom"],
            },
            "B": {
                "wizards": ["pyro1", "pyro2", "pyro3"],
                "boss": "maniac",
                "castle": ["imp", "golem", "imp"],
                "spellbook": ["bolt"],
            },
        },
        "initial": {"life": 30, "vim": 1, **initial},
        "actions": actions,
    }


def start(p: str) -> dict[str, Any]:
    return {"type": "start_turn", "player": p}


def end(p: str) -> dict[str, Any]:
    return {"type": "end_turn", "player": p}


def summon(p: str, col: int, card: str) -> dict[str, Any]:
    return {"type": "summon", "player": p, "wizard": col, "card": card}


def attack(
    p: str, attacker: int | str, target: dict[str, Any], blocker: int | str | None = None
) -> dict[str, Any]:
    return {
        "type": "attack",
        "player": p,
        "attacker": attacker,
        "target": target,
        "blocker": blocker,
    }


# A turn 1: sprite in column 1; B turn 1: imp in column 0; A turn 2 begins.
OPENING: list[dict[str, Any]] = [
    start("A"),
    summon("A", 1, "sprite"),
    end("A"),
    start("B"),
    summon("B", 0, "imp"),
    end("B"),
    start("A"),
]
