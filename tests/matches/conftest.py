"""Fixtures for running rounds (the scenarios themselves: tests/scenarios.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from matches import clock_services
from tests.scenarios import running_event
from tests.support import FakeClock
from tournaments.models import Registration, Tournament


@pytest.fixture
def make_event() -> Callable[..., tuple[Tournament, Any, list[Registration]]]:
    return running_event


@pytest.fixture
def server_time(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The match clock service's "now", moved by the test (FakeClock.advance)."""
    fake = FakeClock()
    monkeypatch.setattr(clock_services, "timezone", fake)
    return fake
