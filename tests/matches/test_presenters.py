"""matches.presenters: the one clock text, the one score text, the one round-timer context."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from matches.presenters import EN_DASH, clock_ms_text, mmss, score_text, timer_context


@pytest.mark.parametrize(
    ("seconds", "kwargs", "text"),
    [
        (0, {}, "00:00"),
        (425, {}, "07:05"),
        (3723, {}, "1:02:03"),
        (-120, {}, "02:00"),  # the players' timer: time over without a sign
        (-120, {"signed": True}, "-02:00"),  # staff: the sign says overtime
        (-3723, {"signed": True}, "-1:02:03"),
        (120, {"signed": True}, "02:00"),
        (425, {"pad_minutes": False}, "7:05"),
        (3723, {"pad_minutes": False}, "1:02:03"),
    ],
)
def test_mmss(seconds: int, kwargs: dict[str, bool], text: str) -> None:
    assert mmss(seconds, **kwargs) == text


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (None, "—"),
        (0, "0:00"),
        (1, "0:01"),
        (59_001, "1:00"),
        (-5_000, "0:00"),
        (3_600_000, "1:00:00"),
    ],
)
def test_clock_ms_text_rounds_up_and_never_goes_below_zero(ms: int | None, text: str) -> None:
    assert clock_ms_text(ms) == text


@pytest.mark.parametrize(
    ("games", "kwargs", "text"),
    [
        ([2, 1, 0], {}, "2-1"),
        ([1, 1, 1], {}, "1-1-1"),
        ((2, 0), {}, "2-0"),
        (None, {}, "—"),
        ([], {}, "—"),
        (None, {"empty": "none"}, "none"),
        ([2, 1, 0], {"dash": EN_DASH}, "2\u20131"),
        ([1, 1, 1], {"dash": EN_DASH}, "1\u20131\u20131"),
        ([2, 1, 0], {"dash": EN_DASH, "always_drawn": True}, "2\u20131\u20130"),
    ],
)
def test_score_text(games: list[int] | None, kwargs: dict[str, object], text: str) -> None:
    assert score_text(games, **kwargs) == text  # type: ignore[arg-type]


def _timer(**changes: object) -> dict[str, object]:
    now = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
    values: dict[str, object] = {
        "state": "running",
        "ends_at": now + timedelta(seconds=90),
        "remaining_seconds": 90,
        "now": now,
        "extension_minutes": 0,
        "url": "/api/timer/",
        "time_zone": "Europe/Berlin",
        "round_number": 3,
    }
    values.update(changes)
    return timer_context(**values)  # type: ignore[arg-type]


def test_timer_context_adds_a_tables_extension_to_its_own_times_only() -> None:
    timer = _timer(extension_minutes=2)
    assert timer["remaining"] == timer["remaining_seconds"] == 90
    assert timer["table_remaining"] == 210
    assert timer["extension_seconds"] == 120
    assert timer["table_ends_at"] == timer["ends_at"] + timedelta(minutes=2)  # type: ignore[operator]
    assert timer["remaining_text"] == timer["signed_text"] == "03:30"
    assert timer["ends_at_iso"] == "2026-05-01T10:01:30.000+00:00"


def test_timer_context_overtime_is_unsigned_for_players_and_signed_for_staff() -> None:
    timer = _timer(remaining_seconds=-30)
    assert timer["overtime"] is True
    assert (timer["remaining_text"], timer["signed_text"]) == ("00:30", "-00:30")
    assert _timer(state="paused", remaining_seconds=-30)["overtime"] is False


def test_timer_context_without_an_end() -> None:
    timer = _timer(state="not_started", ends_at=None)
    assert timer["table_ends_at"] is None and timer["ends_at_iso"] == ""
