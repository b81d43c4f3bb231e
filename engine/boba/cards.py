"""Card value objects: Hero, Play, HotDog.

A record names every card it mentions by its own id (``"h1"``); these objects carry that id.
Power is the printed power; a Hero's power in a battle is computed by the state from it and
the modifiers on it (CR 2.1.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .checks import WEAPONS


@dataclass(frozen=True, slots=True)
class Hero:
    """A Hero card (CR 2.1.1): name, variant, printed power, weapon type."""

    id: str
    name: str
    variant: str
    power: int
    weapon: str

    kind = "hero"


@dataclass(frozen=True, slots=True)
class Play:
    """A Play card (CR 2.1.2-2.1.3). ``base`` is the base play for variants; ``cost`` None
    means the play copies its cost (Copycat)."""

    id: str
    name: str
    base: str
    cost: int | None
    effect: tuple[dict[str, Any], ...]
    bonus: bool = False
    requires: dict[str, Any] | None = None
    cost_if: tuple[dict[str, Any], ...] = field(default=())

    kind = "play"


@dataclass(frozen=True, slots=True)
class HotDog:
    """A Hot Dog card (CR 2.1.4); names don't matter to the rules."""

    id: str
    name: str

    kind = "hot_dog"


Card = Hero | Play | HotDog

__all__ = ["WEAPONS", "Card", "Hero", "HotDog", "Play"]
