"""The event page's player counts are counted once per change of the event and shared by
everyone who loads the page at once (issue 19's publish spike), yet a player who registers
sees their own registration counted at once."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, logged_in

pytestmark = pytest.mark.django_db


def _count_queries(client: Client, path: str) -> tuple[int, bytes]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    counted = sum(
        1
        for q in queries.captured_queries
        if "COUNT(" in q["sql"].upper() and "registration" in q["sql"]
    )
    return counted, response.content


def test_event_page_counts_are_shared_between_readers() -> None:
    cache.clear()
    event = TournamentFactory()
    RegistrationFactory.create_batch(3, tournament=event)
    path = f"/events/{event.slug}/"
    first, _ = _count_queries(Client(), path)
    second, _ = _count_queries(Client(), path)
    assert first >= 1
    assert second == 0


def test_a_player_who_registers_sees_themselves_counted_at_once() -> None:
    cache.clear()
    event = TournamentFactory()
    RegistrationFactory.create_batch(2, tournament=event)
    path = f"/events/{event.slug}/"
    assert b"<dd>2" in Client().get(path).content
    player = logged_in(UserFactory())
    response = player.post(f"/events/{event.slug}/register/")
    assert response.status_code == 302
    assert b"<dd>3" in player.get(path).content
