"""docs/game-record.md documents the whole effect vocabulary, each step kind with an example.

The vocabulary is the registry (engine/boba/vocabulary.py): the doc's count table, condition
table and step-kind list name exactly the registry's words, no more and no fewer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.boba.effects import COND_KINDS, COUNTS, EVENTS, STEP_KINDS, EffectError, check_step
from engine.boba.vocabulary import (
    CONDITION_WORDS,
    COUNT_WORDS,
    STEP_WORDS,
    check_condition,
    condition_kind,
)

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


def _section(title: str) -> str:
    """The text of the doc section headed ``title`` (up to the next heading)."""
    start = DOC.index(title)
    rest = DOC[start + len(title) :]
    end = re.search(r"^#", rest, re.MULTILINE)
    return rest[: end.start()] if end else rest


def _table_first_cells(section: str, header: str) -> list[str]:
    lines = section[section.index(header) :].splitlines()[2:]
    cells = []
    for line in lines:
        if not line.startswith("|"):
            break
        cells.append(line.split(" | ")[0].lstrip("| "))
    return cells


def test_the_count_table_names_exactly_the_registered_counts() -> None:
    cells = _table_first_cells(_section("### Amounts"), "| count | meaning |")
    named = set()
    for cell in cells:
        # parameters are in parentheses: `heroes_in_discard` (`weapon`)
        named.update(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", cell)))
    assert named == set(COUNT_WORDS)
    assert set(COUNTS) == set(COUNT_WORDS)


def test_the_condition_table_names_exactly_the_registered_conditions() -> None:
    cells = _table_first_cells(_section("### Conditions (COND)"), "| key | holds when |")
    named = set()
    for cell in cells:
        for example in re.findall(r"`(\{.*?\})`(?:,|$)", cell):
            try:
                cond = json.loads(example)
            except ValueError:  # {"not": COND}, {"all": [...]}: the kind is the first key
                named.add(re.findall(r'\{"(\w+)"', example)[0])
                continue
            check_condition(cond, "example")
            kind = condition_kind(cond)
            assert kind is not None, example
            named.add(kind)
    assert named == set(CONDITION_WORDS)
    assert set(COND_KINDS) == set(CONDITION_WORDS)


def test_the_step_kind_list_names_exactly_the_registered_steps() -> None:
    listed = re.findall(r"^- \*\*(\w+)\*\*", _section("### Step kinds"), re.MULTILINE)
    assert len(listed) == len(set(listed)), "a step kind listed twice"
    assert set(listed) == set(STEP_WORDS)
    assert STEP_KINDS is STEP_WORDS  # effects' view is the registry itself


def test_every_registered_word_has_its_documentation() -> None:
    for word in [*COUNT_WORDS.values(), *CONDITION_WORDS.values(), *STEP_WORDS.values()]:
        assert word.doc.strip(), word.name
    for step in STEP_WORDS.values():
        assert callable(step.handler) and callable(step.check), step.name
