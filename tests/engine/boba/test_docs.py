"""docs/game-record.md documents the whole effect vocabulary, each step kind with an example."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.boba.effects import COND_KINDS, COUNTS, EVENTS, STEP_KINDS, EffectError, check_step

DOC = (Path(__file__).resolve().parents[3] / "docs" / "game-record.md").read_text(encoding="utf-8")


def _examples() -> list[dict[str, object]]:
    """Every inline `{...}` in the doc that parses as JSON and is a step."""
    found = []
    for text in re.findall(r"`(\{[^`]*\})`", DOC.replace("\n  ", " ")):
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if isinstance(data, dict) and any(k in STEP_KINDS for k in data):
            found.append(data)
    return found


def test_every_step_kind_has_a_valid_example() -> None:
    examples = _examples()
    kinds_with_example = set()
    for example in examples:
        try:
            check_step(example, "example")
        except EffectError as exc:
            raise AssertionError(f"{example}: {exc}") from None
        kinds_with_example.update(k for k in example if k in STEP_KINDS)
    assert sorted(set(STEP_KINDS) - kinds_with_example) == []


def test_every_condition_count_and_event_is_documented() -> None:
    for name in [*COND_KINDS, *COUNTS, *EVENTS]:
        assert f"`{name}`" in DOC or f'"{name}"' in DOC, name
