"""Issue 19: a signed-in reader's GET of the published round answered before the middleware.

At the publish spike every player is signed in. config.fast_path answers their
`GET /api/events/{slug}/rounds/{n}/` from the same copy as an anonymous reader's, once the
session cookie's session and account verify from the cache (accounts.cached_auth.signed_in),
with the headers the full stack sends a signed-in reader (``private``). Each test compares the
fast answer with Django's handler alone answering the same request: status, body, headers.
Staff of the event, staff of another event, an expired or flushed session, a changed
password and anonymous readers keep their own answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.test import Client, override_settings
from django.utils import timezone

from accounts.cached_auth import signed_in
from config import published
from config.fast_path import FastPath
from matches.fast_routes import ROUTES
from tests import scenarios
from tests.scenarios import PublishedRound
from tests.support import Answer, wsgi_calls_in_the_tests_transaction
from tests.support import call_wsgi as call

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_transaction_for_signed_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with wsgi_calls_in_the_tests_transaction(monkeypatch):
        yield


@pytest.fixture
def apps() -> tuple[FastPath, WSGIHandler]:
    full = WSGIHandler()
    return FastPath(full, routes=ROUTES, sign_in=signed_in), full


def session_of(user: Any) -> str:
    """A session cookie's value for `user`, signed in as the login page signs in."""
    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def cookie(session_key: str) -> dict[str, str]:
    return {"HTTP_COOKIE": f"{settings.SESSION_COOKIE_NAME}={session_key}"}


def _url(scene: PublishedRound) -> str:
    return f"/api/events/{scene.event.slug}/rounds/{scene.round.number}/"


def _warm(fast: FastPath, url: str, **headers: str) -> None:
    """Two full-stack answers: the first caches the account, the second's headers are kept."""
    for _ in range(2):
        assert call(fast, url, **headers).status in (200, 304)


def assert_same(fast_answer: Answer, full_answer: Answer) -> None:
    assert fast_answer.status == full_answer.status
    assert fast_answer.body == full_answer.body
    assert fast_answer.header_set() == full_answer.header_set()


def test_a_signed_in_players_round_is_answered_fast_with_the_full_stacks_private_answer(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = _url(published_round)
    player = published_round.registrations[0].player
    headers = {**cookie(session_of(player)), "HTTP_ACCEPT": "application/json"}
    _warm(fast, url, **headers)
    assert fast.answered == 0
    answered = call(fast, url, **headers)
    assert fast.answered == 1
    reference = call(full, url, **headers)
    assert_same(answered, reference)
    assert answered.header("Cache-Control") == published.CACHE_CONTROL_PRIVATE
    assert answered.header("Set-Cookie") is None
    assert len(answered.json()["matches"]) == 2
    # the anonymous copy is the same body, with the public headers
    anonymous = call(full, url, HTTP_ACCEPT="application/json")
    assert anonymous.body == answered.body
    assert anonymous.header("Cache-Control") == published.CACHE_CONTROL_PUBLIC


def test_a_signed_in_players_gzip_and_304_answers_match_the_full_stack(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = _url(published_round)
    headers = {
        **cookie(session_of(published_round.registrations[1].player)),
        "HTTP_ACCEPT_ENCODING": "gzip",
    }
    _warm(fast, url, **headers)
    zipped, reference = call(fast, url, **headers), call(full, url, **headers)
    assert fast.answered == 1
    assert zipped.header("Content-Encoding") == "gzip"
    assert_same(zipped, reference)
    etag = zipped.header("ETag") or ""
    call(fast, url, HTTP_IF_NONE_MATCH=etag, **headers)  # the full stack's 304, kept
    not_modified = call(fast, url, HTTP_IF_NONE_MATCH=etag, **headers)
    assert fast.answered == 2
    assert not_modified.status == 304
    assert_same(not_modified, call(full, url, HTTP_IF_NONE_MATCH=etag, **headers))


@pytest.mark.parametrize("who", ["organiser", "judge", "other event's organiser"])
def test_staff_get_what_the_full_stack_gives_them(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler], who: str
) -> None:
    fast, full = apps
    scene = published_round
    if who == "other event's organiser":
        reader = published_round_elsewhere().organiser
    else:
        reader = getattr(scene, who)
    url = _url(scene)
    headers = cookie(session_of(reader))
    _warm(fast, url, **headers)
    answered, reference = call(fast, url, **headers), call(full, url, **headers)
    assert_same(answered, reference)
    assert answered.status == 200
    assert answered.header("Cache-Control") == published.CACHE_CONTROL_PRIVATE


def published_round_elsewhere() -> PublishedRound:
    return scenarios.published_round()


def test_an_unpublished_round_stays_hidden_from_a_signed_in_player(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = f"/api/events/{published_round.event.slug}/rounds/2/"
    headers = cookie(session_of(published_round.registrations[0].player))
    answers = [call(fast, url, **headers) for _ in range(3)]
    assert [a.status for a in answers] == [404, 404, 404]
    assert fast.answered == 0
    assert_same(answers[-1], call(full, url, **headers))


def test_an_expired_session_is_the_full_stacks_and_reads_as_anonymous(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = _url(published_round)
    key = session_of(published_round.registrations[0].player)
    _warm(fast, url, **cookie(key))
    assert call(fast, url, **cookie(key)).header("Cache-Control") == "private, no-cache"
    answered_before = fast.answered
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(1))
    cache.delete(f"django.contrib.sessions.cached_db{key}")  # the cache expires with it
    assert signed_in(key) is None
    expired = call(fast, url, **cookie(key))
    assert fast.answered == answered_before
    assert expired.status == 200
    assert expired.header("Cache-Control") == published.CACHE_CONTROL_PUBLIC
    assert_same(expired, call(full, url, **cookie(key)))


def test_a_signed_out_session_or_a_changed_password_is_the_full_stacks(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    player = published_round.registrations[0].player
    key, other = session_of(player), session_of(player)
    _warm(fast, url, **cookie(key))
    assert signed_in(key) is not None
    Client(HTTP_COOKIE=f"{settings.SESSION_COOKIE_NAME}={key}").logout()
    Session.objects.filter(session_key=key).delete()
    cache.delete(f"django.contrib.sessions.cached_db{key}")
    assert signed_in(key) is None
    answered = fast.answered
    assert call(fast, url, **cookie(key)).header("Cache-Control") == "public, no-cache"
    player.set_password("a new password for this test")
    player.save()
    assert signed_in(other) is None  # another hash: get_user signs the session out
    assert call(fast, url, **cookie(other)).header("Cache-Control") == "public, no-cache"
    assert fast.answered == answered


def test_anonymous_readers_keep_their_public_headers_beside_signed_in_ones(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = _url(published_round)
    headers = cookie(session_of(published_round.registrations[0].player))
    _warm(fast, url, **headers)
    call(fast, url, **headers)
    assert fast.answered == 1
    call(fast, url)  # the anonymous kind's own first answer is the full stack's
    anonymous = call(fast, url)
    assert fast.answered == 2
    assert_same(anonymous, call(full, url))
    assert anonymous.header("Cache-Control") == published.CACHE_CONTROL_PUBLIC
    signed = call(fast, url, **headers)
    assert signed.header("Cache-Control") == published.CACHE_CONTROL_PRIVATE


def test_a_session_is_never_saved_nor_its_cookie_set_by_the_fast_path(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    key = session_of(published_round.registrations[0].player)
    before = Session.objects.get(session_key=key)
    _warm(fast, url, **cookie(key))
    answers = [call(fast, url, **cookie(key)) for _ in range(3)]
    assert fast.answered == 3
    assert all(a.header("Set-Cookie") is None for a in answers)
    after = Session.objects.get(session_key=key)
    assert (after.expire_date, after.session_data) == (before.expire_date, before.session_data)


def test_with_every_request_saving_the_session_signed_in_readers_are_the_full_stacks(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    key = session_of(published_round.registrations[0].player)
    with override_settings(SESSION_SAVE_EVERY_REQUEST=True):
        assert signed_in(key) is None
        for _ in range(3):
            call(fast, url, **cookie(key))
    assert fast.answered == 0


def test_a_signed_in_reader_counts_against_their_accounts_limit(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = _url(published_round)
    headers = cookie(session_of(published_round.registrations[0].player))
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], "user": "3/min"}
    with override_settings(REST_FRAMEWORK=rest):
        statuses = [call(fast, url, **headers).status for _ in range(4)]
        other = call(fast, url, **cookie(session_of(published_round.organiser)))
    assert statuses == [200, 200, 200, 429]
    assert fast.answered == 1
    assert other.status == 200  # another account, its own count


def test_a_session_cookie_on_a_route_for_anonymous_readers_only_is_the_full_stacks(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, _full = apps
    url = f"/api/events/{published_round.event.slug}/top-cut/"
    headers = cookie(session_of(published_round.registrations[0].player))
    for _ in range(3):
        call(fast, url, **headers)
    assert fast.answered == 0
    # and without sign_in, a session cookie is always the full stack's
    bare = FastPath(WSGIHandler(), routes=ROUTES)
    round_url = _url(published_round)
    for _ in range(3):
        assert call(bare, round_url, **headers).status == 200
    assert bare.answered == 0
