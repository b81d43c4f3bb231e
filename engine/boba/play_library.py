"""The play library: the engine's encoding of the real Play cards.

``play_library.json`` maps a Play's name to its definition in the effect vocabulary of
:mod:`engine.boba.effects` (``cost``, ``effect`` and the optional ``requires``, ``cost_if``,
``bonus`` fields). Variants (CR 2.1.2) share their base Play's effect: a name ending in
``htd`` (``"Loan Sharked - htd"``) looks up its base play, keeping the variant's own cost when
the library lists one under the variant's full name.

Names are normalised (case, surrounding spaces, curly quotes) so a record may say
``"front run"`` for ``"Front Run"``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from .effects import EffectError, check_play_extras, validate_effect
from .play_names import base_name as base_name
from .play_names import normalise_name as normalise_name

LIBRARY_PATH = Path(__file__).with_name("play_library.json")


@dataclass(frozen=True, slots=True)
class PlayDefinition:
    """A Play as the library knows it."""

    name: str
    base: str
    cost: int | None
    effect: tuple[dict[str, Any], ...]
    requires: dict[str, Any] | None = None
    cost_if: tuple[dict[str, Any], ...] = ()
    bonus: bool = False


def _definition(name: str, data: dict[str, Any], base: str) -> PlayDefinition:
    path = f"play_library[{name!r}]"
    effect = validate_effect(data.get("effect", []), f"{path}.effect")
    check_play_extras(data, path)
    cost = data.get("cost")
    if cost is not None and (not isinstance(cost, int) or cost < 0):
        raise EffectError(f"{path}.cost", "must be a non-negative integer or null")
    return PlayDefinition(
        name=name,
        base=base,
        cost=cost,
        effect=effect,
        requires=data.get("requires"),
        cost_if=tuple(data.get("cost_if", ())),
        bonus=bool(data.get("bonus", False)),
    )


@cache
def _library() -> dict[str, tuple[str, dict[str, Any]]]:
    if not LIBRARY_PATH.exists():
        return {}
    raw = json.loads(LIBRARY_PATH.read_text(encoding="utf-8"))
    plays = raw.get("plays", raw) if isinstance(raw, dict) else {}
    return {normalise_name(k): (k, v) for k, v in plays.items() if isinstance(v, dict)}


@lru_cache(maxsize=4096)
def lookup_play(name: str) -> PlayDefinition | None:
    """The library's definition of a play by name (variants resolve to their base play).
    Validated once per name and shared (frozen): every record running a play reads the same
    effect, so its steps are parsed once (engine.boba.vocabulary.parsed_steps)."""
    lib = _library()
    key = normalise_name(name)
    base = base_name(name)
    own = lib.get(key)
    base_entry = lib.get(normalise_name(base))
    if own is None and base_entry is None:
        return None
    if own is not None and "effect" in own[1]:
        return _definition(own[0], own[1], base_entry[0] if base_entry else own[0])
    assert base_entry is not None
    data = dict(base_entry[1])
    if own is not None and "cost" in own[1]:
        data["cost"] = own[1]["cost"]
    return _definition(own[0] if own else name, data, base_entry[0])


def library_names() -> list[str]:
    """Every play name the library lists."""
    return sorted(name for name, _ in _library().values())
