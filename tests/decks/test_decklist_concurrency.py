"""Two submissions of the same player's list at once get distinct version numbers (PostgreSQL)."""

from __future__ import annotations

import pytest

from decks import services
from decks.models import DecklistVersion
from tests.factories import RegistrationFactory, organiser_of
from tests.tournaments.test_registration_concurrency import run_at_once

pytestmark = pytest.mark.services


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
