"""Fixtures for running rounds (the scenarios themselves: tests/scenarios.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from matches import clock_services
from tests.matches.bos_scenes import BosMatch, bos_match
from tests.scenarios import BosTable, bos_table, own_copy, running_event
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


# A BOS event's published match (tests/matches/bos_scenes.py), built once for the module
# (tests/scenarios.py: sharing a world); each test gets its own copy, its changes rolled back.


@pytest.fixture(scope="module")
def bos_published_once(module_db: None) -> BosMatch:
    return bos_match()


@pytest.fixture
def bos_published(bos_published_once: BosMatch, db: None) -> BosMatch:
    """`bos_match()`, built once for the module: (event, organiser, the match's JSON)."""
    return own_copy(bos_published_once)


@pytest.fixture(scope="module")
def bos_published_with_lists_once(module_db: None) -> BosMatch:
    return bos_match(decklists=True)


@pytest.fixture
def bos_published_with_lists(bos_published_with_lists_once: BosMatch, db: None) -> BosMatch:
    """`bos_match(decklists=True)`, built once for the module."""
    return own_copy(bos_published_with_lists_once)


@pytest.fixture(scope="module")
def bos_clock_table_once(module_db: None) -> BosTable:
    return bos_table()


@pytest.fixture
def bos_clock_table(bos_clock_table_once: BosTable, db: None) -> BosTable:
    """`tests.scenarios.bos_table()` (a BOS match published, its clock per game), built once
    for the module: each test presses its own clock, rolled back after it."""
    return own_copy(bos_clock_table_once)
