"""The round timer as start/stop activations: pause and resume never lose or gain time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.timer import RoundTimer, TimerError, table_ends_at

T0 = datetime(2026, 11, 22, 15, 0, tzinfo=UTC)
FIFTY = timedelta(minutes=50)


def test_a_started_timer_ends_at_start_plus_length() -> None:
    timer = RoundTimer(FIFTY).start(T0)
    assert timer.state == "running"
    assert timer.ends_at == T0 + FIFTY
    assert timer.remaining(T0 + timedelta(minutes=10)) == timedelta(minutes=40)


def test_resuming_after_a_long_pause_continues_where_it_stood() -> None:
    # The bug seen elsewhere: resuming after a long pause ended the round at once.
    timer = RoundTimer(FIFTY).start(T0).pause(T0 + timedelta(minutes=20))
    assert timer.paused_remaining() == timedelta(minutes=30)
    resumed = timer.start(T0 + timedelta(hours=3))
    assert resumed.ends_at == T0 + timedelta(hours=3, minutes=30)
    assert resumed.remaining(T0 + timedelta(hours=3)) == timedelta(minutes=30)


def test_overtime_is_negative_remaining_time() -> None:
    timer = RoundTimer(FIFTY).start(T0)
    assert timer.remaining(T0 + timedelta(minutes=53)) == -timedelta(minutes=3)


def test_added_time_moves_the_end() -> None:
    timer = RoundTimer(FIFTY).start(T0).add(timedelta(minutes=5))
    assert timer.ends_at == T0 + timedelta(minutes=55)


def test_a_table_extension_adds_to_the_round_end() -> None:
    assert table_ends_at(T0, 7) == T0 + timedelta(minutes=7)
    assert table_ends_at(None, 7) is None


@pytest.mark.parametrize("operation", ["pause_idle", "start_twice", "negative"])
def test_impossible_timer_operations_say_what_is_wrong(operation: str) -> None:
    with pytest.raises(TimerError):
        if operation == "pause_idle":
            RoundTimer(FIFTY).pause(T0)
        elif operation == "start_twice":
            RoundTimer(FIFTY).start(T0).start(T0)
        else:
            RoundTimer(FIFTY).add(-timedelta(minutes=51))


@given(st.lists(st.integers(min_value=0, max_value=3600), min_size=1, max_size=12))
def test_pauses_never_change_the_time_the_clock_ran(gaps: list[int]) -> None:
    """Alternate run/pause periods: the time left is the length minus the running periods."""
    timer = RoundTimer(FIFTY)
    now = T0
    ran = timedelta()
    for k, gap in enumerate(gaps):
        timer = timer.start(now) if k % 2 == 0 else timer.pause(now)
        now += timedelta(seconds=gap)
        if k % 2 == 0:
            ran += timedelta(seconds=gap)
    assert timer.remaining(now) == FIFTY - ran
    round_tripped = RoundTimer.from_json(timer.to_json())
    assert round_tripped == timer
    if timer.state == "running":
        assert timer.ends_at == now + timer.remaining(now)
