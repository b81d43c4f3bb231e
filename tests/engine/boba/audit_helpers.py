"""Helpers the rules-audit test modules share (test_audit_rules, test_audit_plays)."""

from __future__ import annotations

from typing import Any

from engine.boba.replay import replay
from tests.engine.boba.helpers import act, passes


def final_state(record: dict[str, Any]) -> dict[str, Any]:
    """The position after the last action (judge's view)."""
    r = replay(record)
    assert r.state is not None
    return r.state.snapshot()


def playmaker_battle(first: str) -> list[dict[str, Any]]:
    """A Playmaker battle in which both players pass on substituting and on plays."""
    return passes(first) + passes(first)


def draw_actions(*cards: tuple[str, str]) -> list[dict[str, Any]]:
    return [act(p, "draw", c) for p, c in cards]


def spare_plays(n: int = 9) -> dict[str, dict[str, Any]]:
    """Plays to draw at the end of battles: pa1..pan (A's), pb1..pbn (B's)."""
    out: dict[str, dict[str, Any]] = {}
    for i in range(1, n + 1):
        out[f"pa{i}"] = {"name": f"Spare A {i}", "cost": 9, "effect": [{"power": 1}]}
        out[f"pb{i}"] = {"name": f"Spare B {i}", "cost": 9, "effect": [{"power": 1}]}
    return out
