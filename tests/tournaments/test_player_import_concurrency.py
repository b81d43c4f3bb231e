"""Bulk player import raced on PostgreSQL: a roster imported twice at once, or beside players
registering for the last places, never duplicates a player or overfills the event."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory, UserFactory, organiser_of
from tests.support import run_at_once
from tournaments import roster_import, services
from tournaments.models import Registration, RegistrationStatus

pytestmark = pytest.mark.services


def test_the_same_roster_imported_at_once_adds_each_player_once(require_postgres: None) -> None:
    event = TournamentFactory()
    organiser = organiser_of(event)
    players = [UserFactory() for _ in range(6)]
    roster = "name,email\n" + "".join(f"P,{p.email}\n" for p in players) + "Walk In,\n"

    results = run_at_once(
        [
            lambda: roster_import.registrations_import(
                actor=organiser, tournament=event, data=roster, dry_run=False
            )
            for _ in range(8)
        ]
    )
    assert [r for r in results if isinstance(r, Exception)] == []
    assert Registration.objects.filter(tournament=event).count() == 7
    assert sum(1 for r in results if r.counts()["skipped"] == 0) == 1  # one import did it


def test_an_import_and_registrations_never_overfill_the_event(require_postgres: None) -> None:
    event = TournamentFactory(capacity=6)
    organiser = organiser_of(event)
    roster = "name\n" + "".join(f"Walk In {i}\n" for i in range(3))
    players = [UserFactory() for _ in range(6)]
    calls = [
        lambda: roster_import.registrations_import(
            actor=organiser, tournament=event, data=roster, dry_run=False
        ),
        *[lambda p=p: services.registration_register(actor=p, tournament=event) for p in players],
    ]
    results = run_at_once(calls)
    refused = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(r, roster_import.RosterImportRefused) for r in refused)
    registered = Registration.objects.filter(
        tournament=event, status=RegistrationStatus.REGISTERED
    ).count()
    assert registered <= 6
