"""Two submissions of the same player's list at once get distinct version numbers (PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from decks import services
from decks.models import Decklist, DecklistVersion
from tests.factories import RegistrationFactory, TournamentFactory, organiser_of
from tests.support import run_at_once
from tournaments import services as tournament_services
from tournaments.models import Registration
from tournaments.status import EventStatus

pytestmark = pytest.mark.services

# The site's lock order (docs/architecture.md): forty requests at once, three times over.
PAIRS = 20
RUNS = 3


def test_simultaneous_submissions_become_consecutive_versions(
    require_postgres: None, legal_list: str
) -> None:
    reg = RegistrationFactory()
    organiser = organiser_of(reg.tournament)
    calls = [
        lambda: services.decklist_submit(actor=reg.player, registration=reg, source=legal_list),
        lambda: services.decklist_submit(actor=reg.player, registration=reg, source=legal_list),
        lambda: services.decklist_submit(actor=organiser, registration=reg, source=legal_list),
    ]
    results = run_at_once(calls)
    assert not [r for r in results if isinstance(r, Exception)], results
    numbers = sorted(
        DecklistVersion.objects.filter(decklist__registration=reg).values_list("number", flat=True)
    )
    assert numbers == [1, 2, 3]


def test_submitting_decklists_while_staff_unlock_them_never_deadlocks(
    require_postgres: None, legal_list: str
) -> None:
    for _ in range(RUNS):
        event = TournamentFactory()
        organiser = organiser_of(event)
        regs = [RegistrationFactory(tournament=event) for _ in range(PAIRS)]
        calls: list[Callable[[], Any]] = []
        for reg in regs:
            calls.append(
                lambda r=reg: services.decklist_submit(
                    actor=r.player, registration=r, source=legal_list
                )
            )
            calls.append(
                lambda r=reg, o=organiser: services.decklist_unlock(
                    actor=o, registration=r, unlocked=True
                )
            )

        results = run_at_once(calls)

        assert not [r for r in results if isinstance(r, Exception)], results
        for reg in regs:
            assert Decklist.objects.get(registration=reg).unlocked
            assert DecklistVersion.objects.filter(decklist__registration=reg).count() == 1


def test_check_in_and_decklist_submission_of_the_same_player_never_deadlock(
    require_postgres: None, legal_list: str
) -> None:
    for _ in range(RUNS):
        event = TournamentFactory(status=EventStatus.REGISTRATION_CLOSED.value)
        organiser = organiser_of(event)
        regs = [RegistrationFactory(tournament=event) for _ in range(PAIRS)]
        calls: list[Callable[[], Any]] = []
        for reg in regs:
            calls.append(
                lambda r=reg, o=organiser: services.decklist_submit(
                    actor=o, registration=r, source=legal_list
                )
            )
            calls.append(
                lambda r=reg, o=organiser: tournament_services.registration_check_in(
                    actor=o, registration=r
                )
            )

        results = run_at_once(calls)

        assert not [r for r in results if isinstance(r, Exception)], results
        checked_in = Registration.objects.filter(tournament=event, checked_in_at__isnull=False)
        assert checked_in.count() == PAIRS
        assert DecklistVersion.objects.filter(decklist__registration__tournament=event).count() == (
            PAIRS
        )
