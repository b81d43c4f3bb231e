"""Frozen JSON: the values the engine hands the site hold no list, dict or set (pure: no
Django).

`freeze` turns JSON (and tuples, mappings, sets) into tuples and read-only mappings
(`types.MappingProxyType`); `thaw` turns them back into plain JSON (lists and dicts), for a
caller that stores or sends JSON. `thaw(freeze(x)) == x` for any JSON value `x`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypeAlias, overload

# A frozen JSON value: scalars, tuples of frozen values, read-only mappings of them.
Frozen: TypeAlias = "None | bool | int | float | str | tuple[Frozen, ...] | Mapping[str, Frozen]"
# A frozen JSON object (what a plain JSON object freezes to).
FrozenMap: TypeAlias = Mapping[str, Frozen]
# Frozen JSON objects in order (per-game details, form values).
FrozenRows: TypeAlias = tuple[FrozenMap, ...]

EMPTY: FrozenMap = MappingProxyType({})


def freeze(value: object) -> Frozen:
    """`value` with every list, tuple and set as a tuple (a set's items sorted) and every
    mapping as a read-only mapping, recursively; TypeError on anything but JSON-like values."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Mapping):
        return freeze_map(value)
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(freeze(v) for v in sorted(value, key=repr))
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def _key(key: object) -> str:
    if not isinstance(key, str):
        raise TypeError(f"not a JSON object key: {key!r}")
    return key


def freeze_map(value: Mapping[str, object]) -> FrozenMap:
    """A JSON object as a frozen one."""
    return MappingProxyType({_key(k): freeze(v) for k, v in value.items()})


def freeze_rows(rows: Sequence[Mapping[str, object]]) -> FrozenRows:
    """JSON objects in order as frozen ones."""
    return tuple(freeze_map(row) for row in rows)


@overload
def thaw(value: Mapping[str, object]) -> dict[str, Any]: ...


@overload
def thaw(value: tuple[Any, ...] | list[Any]) -> list[Any]: ...


@overload
def thaw(value: object) -> Any: ...


def thaw(value: object) -> Any:
    """A frozen value as plain JSON: every mapping a dict, every tuple or list a list."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


def freeze_shown(value: object) -> Any:
    """What a page shows, read-only: every list, tuple and set a tuple and every mapping a
    read-only mapping, recursively, as `freeze` does; any other value (a replay's error, a
    card: frozen dataclasses of their own) is kept as it is, where `freeze` refuses it."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze_shown(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze_shown(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(freeze_shown(v) for v in sorted(value, key=repr))
    return value
