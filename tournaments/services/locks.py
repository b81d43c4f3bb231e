"""The row locks every event and registration write takes, in the site's order: the event
first, then its registration (docs/architecture.md, "Lock order")."""

from __future__ import annotations

from config.locks import for_update
from tournaments.models import Registration, Tournament


def event_locked(tournament: Tournament) -> Tournament:
    """Re-read the event under a row lock; every registration write goes through this."""
    return for_update(Tournament.objects).get(pk=tournament.pk)


def locked_registration(registration: Registration) -> tuple[Tournament, Registration]:
    """The registration's event, then the registration, each re-read under its row lock (the
    site's order); the registration's ``tournament`` is the locked event."""
    tournament = event_locked(registration.tournament)
    registration = for_update(Registration.objects).get(pk=registration.pk)
    registration.tournament = tournament
    return tournament, registration
