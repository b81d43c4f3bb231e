"""Game constants and the product decisions of ../shared/rules/README.md, in one place.

Decisions (README numbering): 3 play phase order, 4 super tie breaker only in Playmaker
battles and sudden death, 5 ``stop_at_four`` (option, default on), 6 ``tiebreakers`` (option,
default off: a tie after seven battles is a drawn game), 7 honors pass to the winner of the
most recent decided battle, 8 substitution costs 2 hot dogs once per player per battle and the
replaced hero goes face-down to the discard, 9 hot dogs are always available or discarded
(10 in all), 10 randomness is recorded, never re-rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PLAYERS: tuple[str, str] = ("A", "B")
OTHER: tuple[int, int] = (1, 0)  # the other player's index
MODES: tuple[str, ...] = ("rookie", "substitution", "playmaker")
BATTLES = 7
TROPHIES_TO_WIN = 4  # majority of seven (CR 4.4.1; Summary)
HOT_DOGS = 10  # CR 2.1.4
SUBSTITUTION_COST = 2  # CR 4.2.2
BENCH_SIZE = 4  # CR 4.2.1
OPENING_PLAYS = 4  # CR 4.3.1


@dataclass(frozen=True, slots=True)
class Options:
    """Per-game options a record may set (decisions 5 and 6)."""

    stop_at_four: bool = True
    tiebreakers: bool = False


def super_tie_breaker_applies(mode: str, sudden_death: bool) -> bool:
    """CR 4.3.2 (Playmaker battles) and CR 4.4.3 (sudden death in every mode)."""
    return sudden_death or mode == "playmaker"


def weapon_in(weapon: str, wanted: Any) -> bool:
    """Does ``weapon`` match a step's weapon filter (one weapon type or a list of them)?"""
    if isinstance(wanted, list):
        return weapon in wanted
    return bool(weapon == wanted)
