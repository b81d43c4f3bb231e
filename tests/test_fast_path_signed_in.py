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

import dataclasses
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib import messages
from django.contrib.messages import constants
from django.contrib.messages.storage import default_storage
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.middleware.csrf import CSRF_TOKEN_LENGTH, _get_new_csrf_string, _unmask_cipher_token
from django.test import Client, RequestFactory, override_settings
from django.utils import timezone

from accounts.cached_auth import signed_in, user_key
from config import published
from config.fast_path import FastPath
from matches import services as match_services
from matches.fast_routes import ROUTES
from tests import scenarios
from tests.factories import TournamentFactory, UserFactory
from tests.scenarios import PublishedRound
from tests.support import (
    CSRF_FIELD,
    Answer,
    without_csrf_value,
    wsgi_calls_in_the_tests_transaction,
)
from tests.support import call_wsgi as call
from tournaments import event_page
from tournaments.fast_routes import ROUTES as PAGE_ROUTES
from tournaments.status import EventStatus
from tournaments.timer import RoundTimer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_transaction_for_signed_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
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
    """One full-stack answer: its headers are kept (the account is cached by then)."""
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
    # the second and third, and the other account's first (its row read and cached here)
    assert fast.answered == 3
    assert other.status == 200  # another account, its own count


def test_an_account_not_cached_yet_is_read_from_its_row_and_cached_by_the_fast_path(
    published_round: PublishedRound, apps: tuple[FastPath, WSGIHandler]
) -> None:
    fast, full = apps
    url = _url(published_round)
    first, second = (r.player for r in published_round.registrations[:2])
    _warm(fast, url, **cookie(session_of(first)))
    key = session_of(second)
    cache.delete(user_key(second.pk))
    answered = call(fast, url, **cookie(key))
    assert fast.answered == 1  # its first request, answered here
    assert cache.get(user_key(second.pk)) is not None
    assert_same(answered, call(full, url, **cookie(key)))
    # an account that may no longer sign in is the full stack's (which reads it as anonymous)
    second.is_active = False
    second.save()
    assert signed_in(key) is None
    assert call(fast, url, **cookie(key)).header("Cache-Control") == "public, no-cache"
    assert fast.answered == 1


def test_a_session_cookie_on_a_route_for_anonymous_readers_only_is_the_full_stacks(
    published_round: PublishedRound,
) -> None:
    url = _url(published_round)
    headers = cookie(session_of(published_round.registrations[0].player))
    anonymous_only = tuple(dataclasses.replace(r, signed_in=False) for r in ROUTES)
    fast = FastPath(WSGIHandler(), routes=anonymous_only, sign_in=signed_in)
    for _ in range(3):
        assert call(fast, url, **headers).status == 200
    assert fast.answered == 0
    # and without sign_in, a session cookie is always the full stack's
    bare = FastPath(WSGIHandler(), routes=ROUTES)
    for _ in range(3):
        assert call(bare, url, **headers).status == 200
    assert bare.answered == 0


# --- the standings and the top cut ----------------------------------------------------------------


def _readers_of(event: Any, organiser: Any, player: Any) -> dict[str, Any]:
    judge = UserFactory()
    event.judges.add(judge)
    return {
        "player": player,
        "organiser": organiser,
        "judge": judge,
        "other event's organiser": published_round_elsewhere().organiser,
        "not registered": UserFactory(),
    }


@pytest.mark.parametrize(
    "who", ["player", "organiser", "judge", "other event's organiser", "not registered"]
)
def test_a_signed_in_readers_standings_are_answered_fast_as_the_full_stack_answers_them(
    finished_swiss: scenarios.FinishedSwiss, apps: tuple[FastPath, WSGIHandler], who: str
) -> None:
    fast, full = apps
    scene = finished_swiss
    reader = _readers_of(scene.event, scene.organiser, scene.registrations[0].player)[who]
    url = f"/api/events/{scene.event.slug}/standings/"
    headers = {**cookie(session_of(reader)), "HTTP_ACCEPT_ENCODING": "gzip"}
    _warm(fast, url, **headers)
    answered, reference = call(fast, url, **headers), call(full, url, **headers)
    assert fast.answered == 1
    assert_same(answered, reference)
    assert answered.header("Cache-Control") == published.CACHE_CONTROL_PRIVATE
    assert answered.json()["count"] == 8
    # the same body as the public's
    assert answered.body == call(full, url, HTTP_ACCEPT_ENCODING="gzip").body


def test_hidden_standings_stay_hidden_from_a_signed_in_player_and_shown_to_staff(
    apps: tuple[FastPath, WSGIHandler],
) -> None:
    fast, full = apps
    event, organiser, regs = scenarios.running_event(
        8, planned_rounds=3, hide_standings_before_final=True
    )
    for _ in range(2):
        scenarios.finish_round(scenarios.pair_and_publish(event, organiser), organiser)
    url = f"/api/events/{event.slug}/standings/"
    player = cookie(session_of(regs[0].player))
    assert [call(fast, url, **player).status for _ in range(3)] == [404, 404, 404]
    assert fast.answered == 0
    staff = cookie(session_of(organiser))
    _warm(fast, url, **staff)
    answered = call(fast, url, **staff)
    assert fast.answered == 1
    assert answered.status == 200
    assert_same(answered, call(full, url, **staff))
    assert call(fast, url, **player).status == 404  # still hidden, after the staff's answers


@pytest.mark.parametrize("who", ["player", "other event's organiser", "not registered"])
def test_a_signed_in_readers_top_cut_is_the_public_copy_answered_fast(
    running_top_cut: scenarios.RunningTopCut, apps: tuple[FastPath, WSGIHandler], who: str
) -> None:
    fast, full = apps
    scene = running_top_cut
    reader = _readers_of(scene.event, scene.organiser, scene.registrations[0].player)[who]
    url = f"/api/events/{scene.event.slug}/top-cut/"
    headers = cookie(session_of(reader))
    _warm(fast, url, **headers)
    answered, reference = call(fast, url, **headers), call(full, url, **headers)
    assert fast.answered == 1
    assert_same(answered, reference)
    assert answered.body == call(full, url).body  # the public's copy
    assert answered.header("Cache-Control") == published.CACHE_CONTROL_PRIVATE


@pytest.mark.parametrize("who", ["organiser", "judge"])
def test_the_events_staff_get_their_own_top_cut_from_the_full_stack(
    running_top_cut: scenarios.RunningTopCut, apps: tuple[FastPath, WSGIHandler], who: str
) -> None:
    fast, full = apps
    scene = running_top_cut
    reader = _readers_of(scene.event, scene.organiser, scene.registrations[0].player)[who]
    url = f"/api/events/{scene.event.slug}/top-cut/"
    headers = cookie(session_of(reader))
    for _ in range(2):  # the public copy stored, and the public's headers kept
        assert call(fast, url).status == 200
    answered = fast.answered
    answers = [call(fast, url, **headers) for _ in range(3)]
    assert fast.answered == answered
    assert [a.status for a in answers] == [200, 200, 200]
    assert_same(answers[-1], call(full, url, **headers))


# --- the event page (tournaments.fast_routes) ----------------------------------------------------
#
# A signed-in reader's `/events/{slug}/` is answered by config.fast_path from the page's stored
# copy with their own values put in (tournaments.event_page.fast_event_page). The CSRF token
# in the page's forms is masked afresh for every answer (Django's get_token: the same secret,
# a new mask), and a reader without a CSRF cookie is given a new secret in a new cookie: the
# comparisons below unmask every token of a page, check it is the secret of the reader's
# cookie (the one they sent, else the one the answer sets), then compare the rest byte for byte.

_EXPIRES = re.compile(r"expires=[^;]+;")


def _page_apps() -> tuple[FastPath, WSGIHandler]:
    full = WSGIHandler()
    return FastPath(full, routes=(*ROUTES, *PAGE_ROUTES), sign_in=signed_in), full


def _page_url(scene: PublishedRound) -> str:
    return f"/events/{scene.event.slug}/"


def _csrf_secret(answer: Answer, sent: str = "") -> str:
    """The CSRF secret the reader holds after `answer`: the one its cookie sets, else the
    one they sent (unmasked as Django unmasks a masked cookie)."""
    for name, value in answer.headers:
        cookie = value.strip()
        if name.lower() == "set-cookie" and cookie.startswith(f"{settings.CSRF_COOKIE_NAME}="):
            sent = cookie.split(";", 1)[0].split("=", 1)[1]
    return _unmask_cipher_token(sent) if len(sent) == CSRF_TOKEN_LENGTH else sent


def _normal_page(answer: Answer, sent_csrf: str = "") -> tuple[int, bytes, dict[str, str]]:
    """(status, body, headers) with every CSRF token checked against the reader's secret and
    replaced by TOKEN, and the new CSRF cookie's value (if any) replaced by SECRET."""
    secret = _csrf_secret(answer, sent_csrf)
    tokens = CSRF_FIELD.findall(answer.body)
    for token in tokens:
        assert _unmask_cipher_token(token.decode()) == secret
    body = without_csrf_value(answer.body)
    headers = answer.header_set()
    if "set-cookie" in headers:  # its expiry is the clock's second: the two calls may straddle one
        cookie = headers["set-cookie"].replace(secret, "SECRET", 1)
        headers["set-cookie"] = _EXPIRES.sub("expires=WHEN;", cookie)
    return answer.status, body, headers


def _page_headers(key: str, csrf: str = "", language: str = "") -> dict[str, str]:
    cookies = f"{settings.SESSION_COOKIE_NAME}={key}"
    if csrf:
        cookies += f"; {settings.CSRF_COOKIE_NAME}={csrf}"
    headers = {"HTTP_COOKIE": cookies, "HTTP_ACCEPT": "text/html"}
    if language:
        headers["HTTP_ACCEPT_LANGUAGE"] = language
    return headers


def _assert_page_fast_and_same(
    fast: FastPath, full: WSGIHandler, url: str, headers: dict[str, str], csrf: str = ""
) -> Answer:
    """The page answered by the fast path is the full stack's: status, body, headers."""
    before = fast.answered
    answered = call(fast, url, **headers)
    assert fast.answered == before + 1
    reference = call(full, url, **headers)
    status, body, header_set = _normal_page(answered, csrf)
    expected = _normal_page(reference, csrf)[2]
    assert status == reference.status
    for name in set(header_set) | set(expected):
        assert (name, header_set.get(name)) == (name, expected.get(name))
    assert body == _normal_page(reference, csrf)[1]
    return answered


def _warm_page(fast: FastPath, url: str, headers: dict[str, str]) -> None:
    """One full-stack answer: the account cached, the page's copy stored, its headers kept."""
    assert call(fast, url, **headers).status == 200


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """One moment for the test: a running timer's `data-now` is the same in both answers."""
    moment = timezone.now().replace(microsecond=0)
    monkeypatch.setattr(timezone, "now", lambda: moment)


@pytest.mark.parametrize(
    "who",
    [
        "player",
        "player with a bye",
        "dropped player",
        "organiser",
        "judge",
        "other event's organiser",
        "not registered",
    ],
)
@pytest.mark.parametrize("with_csrf_cookie", [False, True])
def test_a_signed_in_readers_event_page_is_answered_fast_as_the_full_stack_answers_it(
    frozen_clock: None, who: str, with_csrf_cookie: bool
) -> None:
    scene = scenarios.published_round(5)  # five players: one has a bye in round 1
    fast, full = _page_apps()
    if who == "player":
        reader = next(m.a.player for m in scene.matches)
    elif who == "player with a bye":
        paired = {r.pk for m in scene.matches for r in (m.a, m.b)}
        reader = next(r.player for r in scene.registrations if r.pk not in paired)
    elif who == "dropped player":
        dropped = scene.registrations[0]
        dropped.dropped_at = timezone.now()
        dropped.save(update_fields=["dropped_at"])
        reader = dropped.player
    elif who == "other event's organiser":
        reader = published_round_elsewhere().organiser
    elif who == "not registered":
        reader = UserFactory()
    else:
        reader = getattr(scene, who)
    csrf = _get_new_csrf_string() if with_csrf_cookie else ""
    url, headers = _page_url(scene), _page_headers(session_of(reader), csrf)
    _warm_page(fast, url, headers)
    assert fast.answered == 0
    answered = _assert_page_fast_and_same(fast, full, url, headers, csrf)
    assert answered.status == 200
    assert reader.public_name.encode() in answered.body
    # The cookie is set as the full stack sets it whenever a page uses the token (Django
    # renews its expiry): the reader's own secret when they sent one, else a new one; the
    # page's tokens are of that secret (checked by _normal_page).
    new_cookie = (answered.header("Set-Cookie") or "").strip()
    assert new_cookie.startswith(f"{settings.CSRF_COOKIE_NAME}=")
    if with_csrf_cookie:
        assert _csrf_secret(answered) == csrf


def test_each_reader_gets_their_own_values_from_the_fast_path(frozen_clock: None) -> None:
    scene = scenarios.published_round(4)
    fast, full = _page_apps()
    url = _page_url(scene)
    first, second = scene.registrations[0], scene.registrations[1]
    headers = {
        reg.pk: _page_headers(session_of(reg.player), _get_new_csrf_string())
        for reg in (first, second)
    }
    for reg in (first, second):
        _warm_page(fast, url, headers[reg.pk])
    answered = fast.answered
    pages = {reg.pk: call(fast, url, **headers[reg.pk]).body for reg in (first, second)}
    assert fast.answered == answered + 2
    for own, other in ((first, second), (second, first)):
        assert own.player.player_id.encode() in pages[own.pk]
        assert other.player.player_id.encode() not in pages[own.pk]


def test_the_event_page_after_a_change_is_the_full_stacks_and_then_fast_again(
    frozen_clock: None,
) -> None:
    scene = scenarios.published_round(4)
    fast, full = _page_apps()
    url = _page_url(scene)
    csrf = _get_new_csrf_string()
    headers = _page_headers(session_of(scene.registrations[0].player), csrf)
    _warm_page(fast, url, headers)
    _assert_page_fast_and_same(fast, full, url, headers, csrf)
    scene.event.name = "Renamed <Open>"
    scene.event.save(update_fields=["name"])
    answered = fast.answered
    renamed = call(fast, url, **headers)  # a new state: not stored yet, the full stack's
    assert fast.answered == answered
    assert b"Renamed &lt;Open&gt;" in renamed.body
    fast_again = _assert_page_fast_and_same(fast, full, url, headers, csrf)
    assert b"Renamed &lt;Open&gt;" in fast_again.body


def test_a_changed_vapid_key_shows_on_the_event_page_at_once(frozen_clock: None) -> None:
    scene = scenarios.published_round(4)
    fast, full = _page_apps()
    url = _page_url(scene)
    headers = _page_headers(session_of(scene.registrations[0].player), _get_new_csrf_string())
    keys = {"VAPID_PUBLIC_KEY": "BOld-public-key", "VAPID_PRIVATE_KEY": "old-private"}
    with override_settings(**keys):
        _warm_page(fast, url, headers)
        assert b"BOld-public-key" in call(fast, url, **headers).body
    new = {"VAPID_PUBLIC_KEY": "BNew-public-key", "VAPID_PRIVATE_KEY": "new-private"}
    with override_settings(**new):
        for app in (fast, full):
            body = call(app, url, **headers).body
            assert b"BNew-public-key" in body
            assert b"BOld-public-key" not in body
    with override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY=""):
        assert b"BNew-public-key" not in call(fast, url, **headers).body


def test_an_unseen_event_expired_session_or_waiting_messages_are_the_full_stacks(
    frozen_clock: None,
) -> None:
    scene = scenarios.published_round(4)
    fast, full = _page_apps()
    url = _page_url(scene)
    player = scene.registrations[0].player
    key = session_of(player)
    headers = _page_headers(key, _get_new_csrf_string())
    _warm_page(fast, url, headers)
    call(fast, url, **headers)
    answered = fast.answered
    assert answered == 1
    # a message waiting (its cookie): shown once by the full stack, which then forgets it
    waiting = CookieStorage(RequestFactory().get("/"))
    value = waiting._encode([Message(constants.INFO, "Welcome back")])
    with_cookie = {**headers, "HTTP_COOKIE": f"{headers['HTTP_COOKIE']}; messages={value}"}
    with_message = call(fast, url, **with_cookie)
    assert fast.answered == answered
    assert b"Welcome back" in with_message.body
    # a message added for this request some other way: the page says None (the full stack's)
    for added in (False, True):
        request = RequestFactory().get(url)
        request.session, request.user = SessionStore(key), player
        request._messages = default_storage(request)  # type: ignore[attr-defined]
        if added:
            messages.info(request, "Hello again")
        page = event_page.fast_event_page(request, scene.event.slug)
        assert (page is None) == added
    # a draft event nobody but its staff may see
    hidden = TournamentFactory(status=EventStatus.DRAFT.value)
    assert call(fast, f"/events/{hidden.slug}/", **headers).status == 404
    assert call(fast, f"/events/{hidden.slug}/", **headers).status == 404
    # an expired session
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(1))
    cache.delete(f"django.contrib.sessions.cached_db{key}")
    expired = call(fast, url, **headers)
    assert expired.status == 200
    assert player.public_name.encode() not in expired.body
    assert fast.answered == answered
    # an anonymous reader's page is always the full stack's
    for _ in range(3):
        assert call(fast, url).status == 200
    assert fast.answered == answered


def test_a_running_timer_keeps_the_event_pages_copy_as_the_clock_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the round's timer runs, what moves with the clock (the seconds left, as a number
    and as text) is not shown by the player's timer but for the stand-ins (`data-now`,
    `data-remaining`): the page's state stays the same, so the stored copy keeps answering
    (before, every second was a new state and a new copy rendered by the full stack)."""
    moment = [timezone.now().replace(microsecond=0)]
    monkeypatch.setattr(timezone, "now", lambda: moment[0])
    scene = scenarios.published_round(4)
    if RoundTimer.from_json(scene.round.timer).state != "running":  # publishing may start it
        match_services.round_timer(actor=scene.organiser, round_=scene.round, action="start")
    fast, full = _page_apps()
    url = _page_url(scene)
    csrf = _get_new_csrf_string()
    headers = _page_headers(session_of(scene.registrations[0].player), csrf)
    _warm_page(fast, url, headers)
    first = _assert_page_fast_and_same(fast, full, url, headers, csrf)
    for seconds in (1, 61, 3600):  # the last one is past the round's end: overtime
        moment[0] += timedelta(seconds=seconds)
        later = call(fast, url, **headers)
        reference = call(full, url, **headers)
        assert _normal_page(later, csrf) == _normal_page(reference, csrf)
        assert later.body != first.body  # data-now and data-remaining moved
    assert fast.answered == 3  # the first answer and the two before overtime: one copy


def test_with_the_csrf_secret_in_the_session_the_event_page_is_the_full_stacks(
    frozen_clock: None,
) -> None:
    scene = scenarios.published_round(4)
    fast, _full = _page_apps()
    url = _page_url(scene)
    headers = _page_headers(session_of(scene.registrations[0].player))
    with override_settings(CSRF_USE_SESSIONS=True):
        for _ in range(3):
            assert call(fast, url, **headers).status == 200
    assert fast.answered == 0
