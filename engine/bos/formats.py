"""BOS formats: `competitive` (BOS: Starting Info plus BOS: Reserves) is the only one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from engine.errors import FormatError as FormatError  # the family's, shared by every game


@dataclass(frozen=True, slots=True)
class Format:
    """A deck's shape. Defaults are the published rules (BOS: Starting Info, BOS: Reserves)."""

    key: str
    name: str
    deck_size: int = 24
    wizards: int = 3
    summons: int = 10
    spells: int = 10
    bosses: int = 1
    max_copies: int = 3
    reserves_max: int = 10

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Format:
        """`base` (a preset key) plus overrides of its numbers; unknown keys are errors."""
        base_key = str(data.get("base") or "competitive")
        if base_key not in FORMAT_PRESETS:
            raise FormatError("base", f"unknown format {base_key!r}")
        known = {f.name for f in fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key == "base":
                continue
            if key not in known:
                raise FormatError(key, "not a format parameter")
            if key in ("key", "name"):
                changes[key] = str(value)
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 999:
                raise FormatError(key, "must be a whole number from 0 to 999")
            changes[key] = value
        return replace(FORMAT_PRESETS[base_key], **changes)


COMPETITIVE = Format(key="competitive", name="Competitive")
FORMAT_PRESETS: dict[str, Format] = {COMPETITIVE.key: COMPETITIVE}
