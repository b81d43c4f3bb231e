"""Issue 19: anonymous GETs of a published copy answered before the middleware (config/fast_path.py).

Each test calls the WSGI application as a server does: `FastPath` in front of Django's own
handler, and Django's handler alone for the full stack's answer to the same request. The
fast path answers only once it holds the full stack's headers for that kind of answer, then
with the same status, body and headers (Date is the server's, not Django's); everything it
must not answer goes to the full stack.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.test import override_settings

from config.fast_path import FastPath
from matches import services
from matches.fast_routes import ROUTES
from matches.models import RoundStatus
from tests.scenarios import (
    FinishedSwiss,
    PublishedRound,
    RunningTopCut,
    finish_round,
    pair_and_publish,
    running_event,
)
from tests.support import call_wsgi as call
from tests.support import wsgi_calls_in_the_tests_transaction

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_transaction(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with wsgi_calls_in_the_tests_transaction(monkeypatch):
        yield


@pytest.fixture
def published_round(shared_published_round: PublishedRound) -> PublishedRound:
    """The published round of tests/conftest.py, built once for the module: each test gets
    its own copy of the instances and its changes are rolled back (tests/scenarios.py)."""
    return shared_published_round


@pytest.fixture
def apps() -> tuple[FastPath, WSGIHandler]:
    full = WSGIHandler()
    return FastPath(full, routes=ROUTES), full


def _url(scene: PublishedRound) -> str:
    return f"/api/events/{scene.event.slug}/rounds/{scene.round.number}/"


def test_an_anonymous_get_of_the_round_is_answered_from_the_copy_with_the_full_stacks_headers(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = _url(published_round)
    first = call(fast, url, HTTP_ACCEPT="application/json")
    assert first.status == 200 and fast.answered == 0  # the full stack made and stored it
    second = call(fast, url, HTTP_ACCEPT="application/json")
    assert fast.answered == 1
    reference = call(full, url, HTTP_ACCEPT="application/json")
    assert second.status == reference.status == 200
    assert second.body == reference.body == first.body
    assert second.header_set() == reference.header_set()
    # the security headers are among them, as the middleware sets them
    for name in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options"):
        assert second.header(name) == reference.header(name) is not None
    assert second.json()["number"] == published_round.round.number
    assert len(second.json()["matches"]) == 2


def test_gzip_and_304_answers_match_the_full_stack(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = _url(published_round)
    zipped = {"HTTP_ACCEPT_ENCODING": "gzip"}
    call(fast, url, **zipped)
    fast_gzip, full_gzip = call(fast, url, **zipped), call(full, url, **zipped)
    assert fast.answered == 1
    assert fast_gzip.header_set() == full_gzip.header_set()
    assert fast_gzip.body == full_gzip.body
    etag = fast_gzip.header("ETag")
    assert etag is not None and etag.startswith('W/"')

    call(fast, url, HTTP_IF_NONE_MATCH=etag)  # the full stack's 304, kept
    fast_304 = call(fast, url, HTTP_IF_NONE_MATCH=etag)
    full_304 = call(full, url, HTTP_IF_NONE_MATCH=etag)
    assert fast.answered == 2
    assert fast_304.status == full_304.status == 304
    assert fast_304.body == full_304.body == b""
    assert fast_304.header_set() == full_304.header_set()


def test_https_answers_carry_the_full_stacks_hsts_header(published_round: PublishedRound) -> None:
    url = _url(published_round)
    with override_settings(SECURE_HSTS_SECONDS=3600):
        full = WSGIHandler()  # the middleware reads its settings when it is loaded
        fast = FastPath(full, routes=ROUTES)
        call(fast, url, secure=True)
        answered = call(fast, url, secure=True)
        reference = call(full, url, secure=True)
        plain = call(fast, url)  # another kind: its own first answer is the full stack's
    assert fast.answered == 1
    assert answered.header_set() == reference.header_set()
    assert "max-age=3600" in (answered.header("Strict-Transport-Security") or "")
    assert plain.header("Strict-Transport-Security") is None


def test_a_change_to_the_round_is_never_answered_with_the_older_copy(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    call(fast, url)
    before = call(fast, url)
    assert fast.answered == 1
    match = published_round.matches[0]
    services.match_report(actor=published_round.organiser, match=match, games=[1, 0, 0])
    after = call(fast, url)
    assert fast.answered == 1  # the stored copy is of the older version: the full stack's
    assert after.header("ETag") != before.header("ETag")
    reported = next(m for m in after.json()["matches"] if m["id"] == match.pk)
    assert reported["result"] == {"games": [1, 0, 0]}
    again = call(fast, url, HTTP_IF_NONE_MATCH=before.header("ETag") or "")
    assert again.status == 200  # an old ETag is no 304


@pytest.mark.parametrize(
    "headers",
    [
        {"HTTP_COOKIE": "sessionid=abc"},
        {"HTTP_COOKIE": "django_language=en"},
        {"HTTP_AUTHORIZATION": "Token abc"},
        {"HTTP_ACCEPT": "text/html"},
    ],
    ids=["session", "language cookie", "token", "html"],
)
def test_requests_that_may_differ_go_to_the_full_stack(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler], headers: dict[str, str]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    call(fast, url)  # the copy and the headers are there
    assert call(fast, url).status == 200 and fast.answered == 1
    answer = call(fast, url, **headers)
    assert answer.status in (200, 401, 403)
    assert fast.answered == 1


def test_a_csrf_cookie_alone_is_still_anonymous(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    call(fast, url)
    answer = call(fast, url, HTTP_COOKIE="csrftoken=" + "x" * 32)
    assert answer.status == 200 and fast.answered == 1


def test_a_query_string_or_another_method_goes_to_the_full_stack(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    call(fast, url)
    registration = published_round.registrations[0].pk
    one = call(fast, f"{url}?registration={registration}")
    assert one.status == 200 and fast.answered == 0
    assert all(registration in (m["a"], m["b"]) for m in one.json()["matches"])


def test_an_unpublished_round_stays_a_404_and_a_bad_host_a_400(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    scene = published_round
    services.match_report(actor=scene.organiser, match=scene.matches[0], games=[1, 0, 0])
    services.match_report(actor=scene.organiser, match=scene.matches[1], games=[1, 0, 0])
    second = services.round_pair(actor=scene.organiser, tournament=scene.event)
    assert second.status != RoundStatus.PUBLISHED
    url = f"/api/events/{scene.event.slug}/rounds/{second.number}/"
    assert call(fast, url).status == 404
    assert call(fast, url).status == 404
    assert call(fast, "/api/events/no-such-event/rounds/1/").status == 404
    call(fast, _url(scene))
    assert call(fast, _url(scene), HTTP_HOST="evil.example").status == 400
    assert fast.answered == 0


def test_the_fast_path_counts_the_same_limits(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], "anon": "3/min"}
    with override_settings(REST_FRAMEWORK=rest):
        statuses = [call(fast, url).status for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert fast.answered == 2


def test_the_latest_standings_are_answered_from_their_copy_with_the_full_stacks_headers(
    finished_swiss: FinishedSwiss, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = f"/api/events/{finished_swiss.event.slug}/standings/"
    first = call(fast, url, HTTP_ACCEPT_ENCODING="gzip")
    assert first.status == 200 and fast.answered == 0
    answered = call(fast, url, HTTP_ACCEPT_ENCODING="gzip")
    reference = call(full, url, HTTP_ACCEPT_ENCODING="gzip")
    assert fast.answered == 1
    assert answered.header_set() == reference.header_set()
    assert answered.body == reference.body
    standings = answered.json()
    assert standings["round"] == 3 and standings["count"] == 8
    # a query string (another page) is the view's
    assert call(fast, f"{url}?limit=2").json()["rows"] == standings["rows"][:2]
    assert fast.answered == 1


def test_standings_hidden_before_the_final_round_stay_hidden(
    apps: tuple[FastPath, WSGIHandler],
) -> None:
    fast, _full = apps
    event, organiser, _regs = running_event(8, planned_rounds=3, hide_standings_before_final=True)
    for _ in range(2):
        finish_round(pair_and_publish(event, organiser), organiser)
    url = f"/api/events/{event.slug}/standings/"
    assert [call(fast, url).status for _ in range(2)] == [404, 404]
    assert fast.answered == 0


def test_the_served_application_is_the_fast_path_in_front_of_djangos_handler() -> None:
    from config import wsgi

    assert isinstance(wsgi.application, FastPath)
    assert wsgi.application.application is wsgi.django_application
    assert isinstance(wsgi.django_application, WSGIHandler)
    from matches.fast_routes import PAGE_ROUTES as MATCH_PAGES
    from tournaments.fast_routes import ROUTES as PAGE_ROUTES

    # the round's etc., the pairings page, the event page
    assert wsgi.application.routes == (*ROUTES, *MATCH_PAGES, *PAGE_ROUTES)


def test_the_top_cut_is_answered_from_its_copy_and_a_result_makes_a_new_one(
    running_top_cut: RunningTopCut, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    scene = running_top_cut
    url = f"/api/events/{scene.event.slug}/top-cut/"
    call(fast, url)
    answered, reference = call(fast, url), call(full, url)
    assert fast.answered == 1
    assert answered.status == 200
    assert answered.header_set() == reference.header_set()
    assert answered.body == reference.body
    assert answered.json()["size"] == 4 and len(answered.json()["rounds"]) == 1
    services.match_report(actor=scene.organiser, match=scene.matches[0], games=[1, 0, 0])
    after = call(fast, url)
    assert fast.answered == 1  # a new version: the full stack makes its copy
    assert after.header("ETag") != answered.header("ETag")
