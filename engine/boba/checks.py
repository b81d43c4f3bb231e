"""The checkers the Play effect vocabulary is built from (see :mod:`engine.boba.vocabulary`).

A checker takes a JSON value and the path it sits at, and raises :class:`EffectError` naming
that path when the value breaks the vocabulary. These are the primitives (integers, weapons,
battles, amounts); the words themselves (steps, conditions, counts) are registry entries.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, NoReturn

from ..errors import BattledeskError

WEAPONS: tuple[str, ...] = (
    "Alt",
    "Brawl",
    "Cyber",
    "Fire",
    "Glow",
    "Gum",
    "Hex",
    "Ice",
    "Steel",
    "Super",
)

# Weapon references resolved when the step resolves (and frozen into ongoing effects):
# chosen = choices.weapon, active = the runner's active hero's, same = the other active hero's
# (seen from the player the condition or count is about), discarded = the last hero this Play
# discarded, drawn = the last hero this Play drew or revealed.
WEAPON_REFS = ("chosen", "active", "same", "discarded", "drawn")

WHO = ("own", "opp", "both", "actor")
WHOSE = ("own", "opp", "target", "actor")

Checker = Callable[[Any, str], None]


class EffectError(BattledeskError, ValueError):
    """An effect that breaks the vocabulary; `field` is the path of the offending part."""

    code = "invalid_effect"

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


def fail(path: str, message: str) -> NoReturn:
    raise EffectError(path, message)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_int(v: Any, path: str) -> None:
    if not is_int(v):
        fail(path, "must be an integer")


def check_bool(v: Any, path: str) -> None:
    if not isinstance(v, bool):
        fail(path, "must be true or false")


def check_true(v: Any, path: str) -> None:
    if v is not True:
        fail(path, "must be true")


def check_text(v: Any, path: str) -> None:
    if not isinstance(v, str) or not v:
        fail(path, "must be a non-empty string")


def one_of(options: Sequence[str]) -> Checker:
    def check(v: Any, path: str) -> None:
        if v not in options:
            fail(path, f"must be one of {', '.join(options)}")

    return check


def check_weapon(v: Any, path: str) -> None:
    if isinstance(v, list):
        if not v:
            fail(path, "must name at least one weapon")
        for i, w in enumerate(v):
            check_weapon(w, f"{path}[{i}]")
        return
    if v not in WEAPONS and v not in WEAPON_REFS:
        fail(
            path, f"must be a weapon type ({', '.join(WEAPONS)}) or one of {', '.join(WEAPON_REFS)}"
        )


def check_int_list(v: Any, path: str) -> None:
    if not isinstance(v, list) or not v or not all(is_int(x) for x in v):
        fail(path, "must be a non-empty list of integers")


def check_battles(v: Any, path: str) -> None:
    if v in ("this", "rest", "later", "chosen"):
        return
    if isinstance(v, list) and v and all(is_int(x) and 0 <= x <= 6 for x in v):
        return
    if isinstance(v, dict) and set(v) <= {"from", "to"} and v:
        for key, val in v.items():
            if not is_int(val) or not 1 <= val <= 7:
                fail(f"{path}.{key}", "must be a battle number 1-7")
        return
    fail(
        path,
        "must be 'this', 'rest', 'later', 'chosen', a list of offsets 0-6 or "
        "{from, to} battle numbers",
    )


COUNT_PARAMS = {"whose", "weapon", "values", "min_cost"}


def check_amount_with(counts: Collection[str]) -> Checker:
    """The amount checker over these count names: an integer, ``{"count": NAME, ...}`` or
    ``{"choice": KEY, ...}``."""

    def check_amount(v: Any, path: str) -> None:
        if is_int(v):
            return
        if not isinstance(v, dict):
            fail(path, "must be an integer, a {'count': ...} or a {'choice': key} object")
        if "choice" in v:
            check_text(v["choice"], f"{path}.choice")
            for key, val in v.items():
                if key in ("times", "plus", "min", "max"):
                    check_int(val, f"{path}.{key}")
                elif key != "choice":
                    fail(f"{path}.{key}", "unknown field of an amount")
            return
        if v.get("count") not in counts:
            fail(f"{path}.count", f"must be one of {', '.join(counts)}")
        for key, val in v.items():
            sub = f"{path}.{key}"
            if key == "count":
                continue
            if key in ("times", "plus", "min", "max", "min_cost"):
                check_int(val, sub)
            elif key == "whose":
                one_of(WHOSE)(val, sub)
            elif key == "weapon":
                check_weapon(val, sub)
            elif key == "values":
                check_int_list(val, sub)
            else:
                fail(sub, "unknown field of an amount")

    return check_amount


def only(v: Mapping[str, Any], path: str, allowed: Collection[str]) -> None:
    """Every key of ``v`` is one of ``allowed``."""
    for key in v:
        if key not in allowed:
            fail(f"{path}.{key}", "unknown field here")
