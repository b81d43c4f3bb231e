"""Issue 19: the round's pairings page is put together from stored parts
(matches/views/pairings_page.py): a frame per state and kind of reader with the reader's own
values put in, and the lists compressed once per version. Byte for byte it is the page
rendered whole for that reader, plain or gzip; config.fast_path answers a signed-in reader
with the full stack's answer (status, body, headers), in two queries for a player."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.middleware.csrf import CSRF_TOKEN_LENGTH, _get_new_csrf_string, _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.cached_auth import signed_in
from config.fast_path import FastPath
from matches import services as match_services
from matches.fast_routes import PAGE_ROUTES
from matches.views import pairings_page
from tests import scenarios
from tests.factories import UserFactory
from tests.scenarios import PublishedRound
from tests.support import (
    CSRF_FIELD,
    Answer,
    without_csrf_value,
    wsgi_calls_in_the_tests_transaction,
)
from tests.support import call_wsgi as call
from tournaments.timer import RoundTimer

pytestmark = pytest.mark.django_db

_STAND_IN = re.compile(rb"bd[a-z]+x[0-9a-f]{40}|7\d{18}")
_EXPIRES = re.compile(r"expires=[^;]+;")


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch) -> Any:
    cache.clear()
    moment = timezone.now().replace(microsecond=0)  # a running timer's data-now, in both
    monkeypatch.setattr(timezone, "now", lambda: moment)
    with wsgi_calls_in_the_tests_transaction(monkeypatch):
        yield


def _url(scene: PublishedRound) -> str:
    return f"/events/{scene.event.slug}/rounds/{scene.round.number}/pairings/"


def _reader(scene: PublishedRound, who: str) -> Any:
    if who == "player":
        return scene.matches[0].b.player
    if who == "player with a bye":
        paired = {r.pk for m in scene.matches for r in (m.a, m.b)}
        return next(r.player for r in scene.registrations if r.pk not in paired)
    if who == "not registered":
        return UserFactory()
    if who == "anonymous":
        return None
    return getattr(scene, who)


def _tokens_out(body: bytes) -> bytes:
    return without_csrf_value(body)


def _start_timer(scene: PublishedRound) -> None:
    if RoundTimer.from_json(scene.round.timer).state != "running":  # publishing may start it
        match_services.round_timer(actor=scene.organiser, round_=scene.round, action="start")
        scene.round.refresh_from_db()


@pytest.mark.parametrize(
    "who", ["player", "player with a bye", "organiser", "judge", "not registered", "anonymous"]
)
@pytest.mark.parametrize("gzipped", [False, True])
def test_the_page_from_its_parts_is_the_page_rendered_whole(
    monkeypatch: pytest.MonkeyPatch, who: str, gzipped: bool
) -> None:
    scene = scenarios.published_round(5)  # five players: one has a bye
    _start_timer(scene)
    reader = _reader(scene, who)
    client = Client()
    if reader is not None:
        client.force_login(reader)
    headers = {"HTTP_ACCEPT_ENCODING": "gzip"} if gzipped else {}
    parts = [client.get(_url(scene), **headers) for _ in range(2)]  # stored, then from the copy
    monkeypatch.setattr(pairings_page, "has_messages", lambda request: True)
    whole = client.get(_url(scene), **headers)
    assert whole.get("Content-Encoding") is None
    for answer in parts:
        assert answer.status_code == 200
        assert "Accept-Encoding" in answer["Vary"]
        body = answer.content
        if gzipped:
            assert answer["Content-Encoding"] == "gzip"
            body = gzip.decompress(body)
        else:
            assert answer.get("Content-Encoding") is None
        assert _tokens_out(body) == _tokens_out(whole.content)
        assert _STAND_IN.search(body) is None
    text = whole.content.decode()
    if reader is not None:
        assert reader.public_name in text
    if who == "player":
        assert f'your-table-number">{scene.matches[0].table}<' in text
    elif who == "player with a bye":
        assert "You have a bye this round." in text
    else:
        assert "your-table" not in text


def test_each_player_gets_their_own_table_and_name() -> None:
    scene = scenarios.published_round(8)
    pages = {}
    for match in scene.matches[:2]:
        client = Client()
        client.force_login(match.a.player)
        pages[match.pk] = client.get(_url(scene)).content.decode()
    first, second = scene.matches[:2]
    assert f'your-table-number">{first.table}<' in pages[first.pk]
    assert first.a.player.public_name in pages[first.pk]
    assert f'your-table-number">{second.table}<' in pages[second.pk]
    assert first.a.player.public_name not in pages[second.pk].split("<main", 1)[0]


def test_a_change_of_the_event_shows_at_once() -> None:
    scene = scenarios.published_round(4)
    client = Client()
    client.force_login(scene.matches[0].a.player)
    assert client.get(_url(scene)).status_code == 200
    scene.event.name = "Renamed Open"
    scene.event.save(update_fields=["name"])
    assert "Renamed Open" in client.get(_url(scene)).content.decode()


# --- the fast path ------------------------------------------------------------------------------


def _apps() -> tuple[FastPath, WSGIHandler]:
    full = WSGIHandler()
    return FastPath(full, routes=PAGE_ROUTES, sign_in=signed_in), full


def _session(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def _normal(answer: Answer, sent_csrf: str) -> tuple[int, bytes, dict[str, str]]:
    """(status, body, headers), every CSRF token checked against the reader's secret and
    replaced, the body decompressed, the new CSRF cookie's value and expiry replaced."""
    secret = sent_csrf
    for name, value in answer.headers:
        if name.lower() == "set-cookie" and value.strip().startswith(settings.CSRF_COOKIE_NAME):
            secret = value.strip().split(";", 1)[0].split("=", 1)[1]
    if len(secret) == CSRF_TOKEN_LENGTH:
        secret = _unmask_cipher_token(secret)
    body = answer.body
    if answer.header("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    for token in CSRF_FIELD.findall(body):
        assert _unmask_cipher_token(token.decode()) == secret
    headers = answer.header_set()
    headers.pop("content-length", None)  # the compressed lengths may differ: the bodies do not
    if "set-cookie" in headers:
        cookie = headers["set-cookie"].replace(secret, "SECRET", 1)
        headers["set-cookie"] = _EXPIRES.sub("expires=WHEN;", cookie)
    return answer.status, _tokens_out(body), headers


@pytest.mark.parametrize("who", ["player", "player with a bye", "organiser", "not registered"])
@pytest.mark.parametrize("gzipped", [False, True])
@pytest.mark.parametrize("with_csrf_cookie", [False, True])
def test_a_signed_in_readers_pairings_page_is_answered_fast_as_the_full_stack_answers_it(
    who: str, gzipped: bool, with_csrf_cookie: bool
) -> None:
    scene = scenarios.published_round(5)
    _start_timer(scene)
    fast, full = _apps()
    reader = _reader(scene, who)
    csrf = _get_new_csrf_string() if with_csrf_cookie else ""
    cookies = f"{settings.SESSION_COOKIE_NAME}={_session(reader)}"
    if csrf:
        cookies += f"; {settings.CSRF_COOKIE_NAME}={csrf}"
    headers = {"HTTP_COOKIE": cookies, "HTTP_ACCEPT": "text/html"}
    if gzipped:
        headers["HTTP_ACCEPT_ENCODING"] = "gzip"
    url = _url(scene)
    assert call(fast, url, **headers).status == 200  # the full stack's: headers kept, stored
    assert fast.answered == 0
    with CaptureQueriesContext(connection) as queries:
        answered = call(fast, url, **headers)
    assert fast.answered == 1
    # The event and the round; a player's seat comes from the cache the lists filled, anyone
    # else's registration is looked up (none in this round).
    playing = who in ("player", "player with a bye")
    assert len(queries.captured_queries) == (2 if playing else 3)
    reference = call(full, url, **headers)
    assert (answered.header("Content-Encoding") == "gzip") == gzipped
    assert _normal(answered, csrf) == _normal(reference, csrf)
    assert reader.public_name.encode() in _normal(answered, csrf)[1]


def test_messages_waiting_or_another_cookie_leave_the_page_to_the_full_stack() -> None:
    scene = scenarios.published_round(4)
    fast, _full = _apps()
    key = _session(scene.matches[0].a.player)
    url = _url(scene)
    assert call(fast, url, HTTP_COOKIE=f"sessionid={key}").status == 200
    assert call(fast, url, HTTP_COOKIE=f"sessionid={key}; django_language=fr").status == 200
    assert fast.answered == 0
    assert call(fast, url, HTTP_COOKIE=f"sessionid={key}").status == 200
    assert fast.answered == 1
