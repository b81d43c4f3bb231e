"""Issue 19: `GET /api/events/{slug}/rounds/{n}/` is answered before DRF's machinery when the
round is everybody's (matches/published_round.py): the same answer as DRF's (status, body,
every header, 304s), one query, the same throttles; everything else still goes through DRF
(an unpublished round stays a 404 to players, a draft event's rounds to the public)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from config import published
from matches import published_round
from matches import services as match_services
from tests.factories import logged_in
from tests.scenarios import running_event
from tournaments.models import Tournament
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db

JSON = "application/json"


def _published(players: int = 6) -> tuple[Tournament, Any, str]:
    event, organiser, _ = running_event(players)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    match_services.round_publish(actor=organiser, round_=round_)
    return event, organiser, f"/api/events/{event.slug}/rounds/1/"


def _through_drf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(published_round, "answered_here", lambda request: False)


def _whole(response: Any) -> tuple[int, bytes, dict[str, str]]:
    return response.status_code, response.content, dict(response.items())


@pytest.mark.parametrize("reader", ["anonymous", "signed in"])
@pytest.mark.parametrize("encoding", ["", "gzip"])
def test_the_answer_before_drf_is_drfs_answer_byte_for_byte(
    reader: str, encoding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Last-Modified from the first request on: the two answers compared must not straddle
    # its margin (a loaded machine can take two seconds between them).
    monkeypatch.setattr(published, "LAST_MODIFIED_MARGIN", 0.0)
    event, _organiser, url = _published()
    client = Client() if reader == "anonymous" else logged_in(event.registrations.first().player)
    headers = {"accept": JSON, "accept-encoding": encoding}
    here = client.get(url, headers=headers)
    etag = here["ETag"]
    here_304 = client.get(url, headers={**headers, "if-none-match": etag})
    with monkeypatch.context() as patched:
        _through_drf(patched)
        drf = client.get(url, headers=headers)
        drf_304 = client.get(url, headers={**headers, "if-none-match": etag})
    assert here.status_code == 200 and here_304.status_code == 304
    assert _whole(here) == _whole(drf)
    assert _whole(here_304) == _whole(drf_304)
    assert "Content-Security-Policy" in here and "GET" in here["Allow"]
    assert "Accept" in here["Vary"]


def test_an_anonymous_read_of_a_published_round_costs_one_query() -> None:
    _event, _organiser, url = _published()
    client = Client()
    assert client.get(url, headers={"accept": JSON}).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, headers={"accept": JSON}).status_code == 200
    assert len(queries.captured_queries) == 1


def test_an_unpublished_round_stays_a_404_to_players_and_the_public() -> None:
    event, organiser, _ = running_event(6)
    match_services.round_pair(actor=organiser, tournament=event)
    url = f"/api/events/{event.slug}/rounds/1/"
    player = logged_in(event.registrations.first().player)
    assert Client().get(url, headers={"accept": JSON}).status_code == 404
    assert player.get(url, headers={"accept": JSON}).status_code == 404
    staff = logged_in(organiser).get(url, headers={"accept": JSON})
    assert staff.status_code == 200 and staff.json()["status"] == "paired"


def test_a_draft_events_rounds_are_not_the_publics() -> None:
    event, _organiser, url = _published()
    Tournament.objects.filter(pk=event.pk).update(status=EventStatus.DRAFT.value)
    assert Client().get(url, headers={"accept": JSON}).status_code == 404


def test_no_such_round_is_drfs_404() -> None:
    event, _organiser, _url = _published()
    missing = Client().get(f"/api/events/{event.slug}/rounds/9/", headers={"accept": JSON})
    assert missing.status_code == 404 and missing.json()["detail"]


def test_the_apis_throttles_still_count_and_refuse() -> None:
    _event, _organiser, url = _published()
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], "anon": "3/min"}
    client = Client(REMOTE_ADDR="192.0.2.77")
    with override_settings(REST_FRAMEWORK=rest):
        statuses = [client.get(url, headers={"accept": JSON}).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_other_requests_go_through_drf(monkeypatch: pytest.MonkeyPatch) -> None:
    event, _organiser, url = _published()
    registration = event.registrations.first()
    one = Client().get(f"{url}?registration={registration.pk}", headers={"accept": JSON})
    assert one.status_code == 200
    assert all(registration.pk in (m["a"], m["b"]) for m in one.json()["matches"])
    page = Client().get(url, headers={"accept": "text/html"})
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
