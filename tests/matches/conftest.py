"""Fixtures for running rounds: a running event with players, and API clients per person."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournaments.models import Registration, Tournament
from tournaments.status import EventStatus


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def running_event(players: int, **fields: Any) -> tuple[Tournament, Any, list[Registration]]:
    """A running BoBA event with ``players`` registered players; (event, organiser, regs)."""
    organiser = OrganiserFactory()
    fields.setdefault("status", EventStatus.RUNNING.value)
    event = TournamentFactory(organisers=[organiser], **fields)
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(players)]
    return event, organiser, regs


@pytest.fixture
def make_event() -> Callable[..., tuple[Tournament, Any, list[Registration]]]:
    return running_event
