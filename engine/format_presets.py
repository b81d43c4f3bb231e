"""A game's formats as named presets an organiser may adjust: shared by every game's plugin.

An event names a preset (`playmaker`, `competitive`) and optionally overrides some of its
numbers; the result is a custom format named after its preset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from engine.errors import FormatError


class PresetFormat(Protocol):
    @property
    def name(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


F = TypeVar("F", bound=PresetFormat)


def resolve_preset(
    presets: Mapping[str, F],
    from_dict: Callable[[Mapping[str, Any]], F],
    key: str,
    params: Mapping[str, Any] | None = None,
) -> F:
    """A preset, or a custom format built on a preset from the organiser's parameters."""
    if key not in presets:
        raise FormatError("format_key", f"unknown format {key!r}")
    if not params:
        return presets[key]
    base = presets[key]
    return from_dict(
        {"base": key, "key": f"{key}+custom", "name": f"{base.name} (custom)", **params}
    )


def preset_parameters(presets: Mapping[str, PresetFormat]) -> dict[str, dict[str, Any]]:
    """Every preset's parameters, as the formats API lists them."""
    return {key: fmt.to_dict() for key, fmt in presets.items()}
