"""Many people registering at once, on PostgreSQL: the row lock and the unique constraint hold."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from config.errors import ServiceError
from tests.factories import TournamentFactory, UserFactory, organiser_of
from tests.support import run_at_once
from tournaments import services
from tournaments.models import Registration, RegistrationStatus

pytestmark = pytest.mark.services


def test_last_places_never_exceed_capacity(require_postgres: None) -> None:
    event = TournamentFactory(capacity=5)
    for _ in range(2):
        services.registration_register(actor=UserFactory(), tournament=event)
    players = [UserFactory() for _ in range(12)]

    results = run_at_once(
        [lambda p=p: services.registration_register(actor=p, tournament=event) for p in players]
    )

    assert not [r for r in results if isinstance(r, Exception)]
    statuses = list(Registration.objects.filter(tournament=event).values_list("status", flat=True))
    assert statuses.count(RegistrationStatus.REGISTERED) == 5
    assert statuses.count(RegistrationStatus.WAITLISTED) == 9


def test_the_same_player_registering_many_times_at_once_registers_once(
    require_postgres: None,
) -> None:
    event = TournamentFactory(capacity=50)
    player = UserFactory()

    results = run_at_once(
        [lambda: services.registration_register(actor=player, tournament=event) for _ in range(8)]
    )

    assert Registration.objects.filter(tournament=event, player=player).count() == 1
    successes = [r for r in results if isinstance(r, Registration)]
    refusals = [r for r in results if isinstance(r, ServiceError)]
    assert len(successes) == 1 and len(refusals) == 7


def test_withdrawals_and_registrations_racing_keep_the_count_right(require_postgres: None) -> None:
    event = TournamentFactory(capacity=4)
    existing = [
        services.registration_register(actor=UserFactory(), tournament=event) for _ in range(4)
    ]
    newcomers = [UserFactory() for _ in range(6)]
    calls: list[Callable[[], Any]] = [
        lambda r=r: services.registration_withdraw(actor=r.player, registration=r)
        for r in existing[:2]
    ]
    calls += [
        lambda p=p: services.registration_register(actor=p, tournament=event) for p in newcomers
    ]

    results = run_at_once(calls)

    assert not [r for r in results if isinstance(r, Exception)]
    registered = Registration.objects.filter(tournament=event, status=RegistrationStatus.REGISTERED)
    assert registered.count() == 4
    assert (
        Registration.objects.filter(tournament=event, status=RegistrationStatus.WAITLISTED).count()
        == 4
    )


def test_walk_ins_and_self_registrations_together_respect_capacity(require_postgres: None) -> None:
    event = TournamentFactory(capacity=3)
    organiser = organiser_of(event)
    calls: list[Callable[[], Any]] = [
        lambda i=i: services.registration_add_walk_in(
            actor=organiser, tournament=event, name=f"W{i}"
        )
        for i in range(3)
    ]
    calls += [
        lambda p=p: services.registration_register(actor=p, tournament=event)
        for p in [UserFactory() for _ in range(3)]
    ]

    run_at_once(calls)

    assert Registration.objects.filter(tournament=event, status="registered").count() == 3
