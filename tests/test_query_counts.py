"""Pages and endpoints an organiser uses with a full room run a fixed number of queries.

Each is measured with a small field and a field ten times larger: the counts must be equal.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import RegistrationFactory, TournamentFactory, organiser_of

pytestmark = pytest.mark.django_db


def queries(call: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as ctx:
        call()
    return len(ctx.captured_queries)


def grow(event, n: int) -> None:  # type: ignore[no-untyped-def]
    RegistrationFactory.create_batch(n, tournament=event)


@pytest.mark.parametrize(
    "path",
    [
        "/events/{slug}/manage/",
        "/events/{slug}/decklists/",
        "/events/{slug}/",
        "/",
    ],
)
def test_pages_do_not_grow_with_the_field(path: str) -> None:
    event = TournamentFactory()
    client = Client()
    client.force_login(organiser_of(event))
    url = path.format(slug=event.slug)
    grow(event, 3)
    client.get(url)  # warm caches (session, content types)
    small = queries(lambda: client.get(url))
    grow(event, 30)
    large = queries(lambda: client.get(url))
    assert large == small, f"{url}: {small} queries with 3 players, {large} with 33"


@pytest.mark.parametrize(
    "path",
    ["/api/events/", "/api/events/{slug}/registrations/", "/api/events/{slug}/decklists/"],
)
def test_api_lists_do_not_grow_with_the_field(path: str) -> None:
    event = TournamentFactory()
    client = APIClient()
    client.force_authenticate(organiser_of(event))
    url = path.format(slug=event.slug)
    grow(event, 3)
    client.get(url)
    small = queries(lambda: client.get(url))
    grow(event, 30)
    for _ in range(5):
        TournamentFactory()
    large = queries(lambda: client.get(url))
    assert large == small, f"{url}: {small} queries, then {large}"
