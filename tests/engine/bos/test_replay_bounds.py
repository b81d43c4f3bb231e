"""What one BOS record can make the engine do is bounded: the card list has a cap, and a
replay for the site (no per-action states) never copies the game state per action."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bos.record import MAX_CARDS
from engine.bos.replay import replay
from engine.bos.state import GameState

from .factory import attack, end, record, start, summon


def test_a_record_with_more_cards_than_the_cap_is_malformed_naming_cards() -> None:
    rec = record([start("A")])
    for n in range(MAX_CARDS):
        rec["cards"][f"filler{n}"] = {"type": "spell", "colour": "red", "vim_cost": 1}
    result = replay(rec, keep_states=False)
    assert result.exit_status == 2
    assert result.error is not None and result.error.field == "cards"


def test_a_replay_without_states_copies_nothing_per_action(monkeypatch: pytest.MonkeyPatch) -> None:
    copies: list[int] = []
    original = GameState.clone

    def counting_clone(self: GameState) -> GameState:
        copies.append(1)
        return original(self)

    monkeypatch.setattr(GameState, "clone", counting_clone)
    actions: list[dict[str, Any]] = []
    for _ in range(5):
        actions += [start("A"), end("A"), start("B"), end("B")]
    assert replay(record(actions), keep_states=False).exit_status == 0
    assert copies == []


def test_an_illegal_action_still_reports_the_position_before_it() -> None:
    """Rebuilt on the rare path: the same position a per-action copy would have kept."""
    bad = [start("A"), summon("A", 1, "sprite"), attack("A", 1, {"player": "B"})]
    fast = replay(record(bad), keep_states=False)
    slow = replay(record(bad), keep_states=True)
    assert fast.exit_status == slow.exit_status == 1
    assert fast.to_json() == slow.to_json()
    assert fast.state is not None and fast.state.sides["A"].summons[1] is not None
