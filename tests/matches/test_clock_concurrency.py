"""Races on the match clock (PostgreSQL): two phones at one table tapping at the same moment
with the same expected_seq press the clock once; the other gets the current state (409)."""

from __future__ import annotations

from typing import Any

import pytest

from matches import clock_services
from matches.clock_services import StaleClock
from matches.models import ClockEvent, Match
from tests.scenarios import bos_table
from tests.support import run_at_once

pytestmark = pytest.mark.services


def _table() -> Match:
    return bos_table()[2]


def _fresh(match: Match) -> Match:
    return Match.objects.select_related("round__tournament", "a__player", "b__player").get(
        pk=match.pk
    )


def _press(actor: Any, match: Match, kind: str, seq: int, **kwargs: Any) -> Any:
    return clock_services.press(
        actor=actor, match=_fresh(match), kind=kind, expected_seq=seq, **kwargs
    )


def test_two_phones_pressing_with_the_same_seq_press_once(require_postgres: None) -> None:
    match = _table()
    assert match.b is not None
    a, b = match.a.player, match.b.player
    _press(a, match, "start", 0, payload={"first": "a"})

    results = run_at_once(
        [lambda: _press(a, match, "turn", 1), lambda: _press(b, match, "turn", 1)]
    )

    won = [r for r in results if isinstance(r, clock_services.ClockView)]
    stale = [r for r in results if isinstance(r, StaleClock)]
    assert len(won) == 1 and len(stale) == 1, results
    assert stale[0].view.seq == 2 and stale[0].view.state is not None
    assert stale[0].view.state.active == "b"
    assert list(ClockEvent.objects.filter(match=match).values_list("seq", "kind")) == [
        (1, "start"),
        (2, "turn"),
    ]


def test_a_flag_and_a_turn_at_once_do_not_deadlock(require_postgres: None) -> None:
    match = _table()
    assert match.b is not None
    a, b = match.a.player, match.b.player
    _press(a, match, "start", 0, payload={"first": "a"})

    results = run_at_once(
        [
            lambda: _press(a, match, "turn", 1),
            lambda: _press(b, match, "flag", 1, side="a"),  # refused: a has time left
        ]
    )

    kinds = sorted(type(r).__name__ for r in results)
    assert "ClockView" in kinds, results
    assert ClockEvent.objects.filter(match=match).count() == 2
