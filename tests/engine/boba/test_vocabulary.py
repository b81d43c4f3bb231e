"""The vocabulary registry: one entry per word, steps parsed once per play definition."""

from __future__ import annotations

from typing import Any

import pytest

from engine.boba import resolve
from engine.boba.effects import EffectError, check_step
from engine.boba.play_library import library_names, lookup_play
from engine.boba.replay import replay
from engine.boba.vocabulary import (
    CONDITION_WORDS,
    COUNT_WORDS,
    STEP_WORDS,
    parse_step,
    parsed_steps,
)
from tests.engine.boba.helpers import act, make_record, passes


def test_a_play_definition_is_shared_and_its_steps_parsed_once() -> None:
    play = lookup_play("Loan Sharked")
    assert play is not None and play is lookup_play("Loan Sharked")
    first = parsed_steps(play.effect)
    assert parsed_steps(play.effect) is first
    assert [p.kind for p in first] == [parse_step(st).kind for st in play.effect]


def test_nested_step_lists_of_a_kept_effect_are_parsed_with_it() -> None:
    nested = 0
    for name in library_names():
        play = lookup_play(name)
        assert play is not None
        for p in parsed_steps(play.effect):
            for key in ("then", "else", "do"):
                inner = p.step.get(key)
                if isinstance(inner, list):
                    assert resolve._PARSED[id(inner)][0] is inner, (name, key)
                    nested += 1
    assert nested > 10


def test_a_parsed_step_carries_its_word_condition_and_requirement() -> None:
    st: dict[str, Any] = {"discard": 1, "required": True, "if": {"battle": 3}}
    p = parse_step(st)
    assert p.kind == "discard" and p.word is STEP_WORDS["discard"]
    assert p.required is True and p.cond == {"battle": 3} and p.step is st


def test_running_a_play_parses_its_effect_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = resolve.parse_step

    def counting(st: Any) -> Any:
        calls.append(next(iter(st)))
        return real(st)

    monkeypatch.setattr(resolve, "parse_step", counting)
    monkeypatch.setattr(resolve, "_PARSED", {})
    plays = {"p1": {"kind": "play", "name": "Test Boost", "cost": 0, "effect": [{"power": 10}]}}
    for _ in range(2):
        rec = make_record(
            plays=plays,
            hands={"A": ["p1"]},
            actions=[*passes(), act("A", "run", "p1"), act("A", "pass"), act("B", "pass")],
        )
        assert replay(rec).legal
    # each record's card has its own effect: one parse per record, none per step resolved
    assert calls.count("power") == 2


def test_every_word_is_one_entry_with_its_parts() -> None:
    assert set(COUNT_WORDS) and set(CONDITION_WORDS) and set(STEP_WORDS)
    for name, word in STEP_WORDS.items():
        assert word.name == name
        assert word.fields == tuple(word.field_checks)
    for name, cword in CONDITION_WORDS.items():
        assert cword.name == name
    for name, count in COUNT_WORDS.items():
        assert count.name == name


def test_validation_reads_the_registry() -> None:
    with pytest.raises(EffectError) as bad:
        check_step({"power": 10, "speed": 2}, "effect[0]")
    assert bad.value.field == "effect[0].speed"
    with pytest.raises(EffectError) as no_if:
        check_step({"then": []}, "effect[1]")
    assert no_if.value.field == "effect[1]"
    with pytest.raises(EffectError) as hero:
        check_step({"on": "win", "do": [], "hero": "chosen"}, "effect[2]")
    assert hero.value.field == "effect[2].hero"
