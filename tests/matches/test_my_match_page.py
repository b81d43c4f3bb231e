"""Issue 19: a player's "my match" page (matches/views/my_match_page.py) from a stored copy
per state and kind of reader, the reader's own values put in, while nothing has happened to
the match. Byte for byte it is the page rendered whole; a report, a confirmation, a
correction, a judge call, the timer and a new table show at once; config.fast_path answers a
signed-in player as the full stack does (status, body, headers)."""

from __future__ import annotations

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
from matches.models import Match
from matches.views import my_match_page
from tests import scenarios
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
    return f"/events/{scene.event.slug}/my-match/"


def _tokens_out(body: bytes) -> bytes:
    return without_csrf_value(body)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _stored_and_whole(
    monkeypatch: pytest.MonkeyPatch, client: Client, url: str
) -> tuple[bytes, bytes]:
    """The page twice (stored, then from the copy), checked alike, and the page rendered whole."""
    first, second = client.get(url), client.get(url)
    with monkeypatch.context() as patched:
        patched.setattr(my_match_page, "has_messages", lambda request: True)
        whole = client.get(url)
    assert first.status_code == second.status_code == whole.status_code == 200
    assert _tokens_out(first.content) == _tokens_out(second.content)
    return _tokens_out(second.content), _tokens_out(whole.content)


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("timer", ["running", "paused", "not started"])
def test_the_stored_page_is_the_page_rendered_whole(
    monkeypatch: pytest.MonkeyPatch, side: str, timer: str
) -> None:
    scene = scenarios.published_round(4)
    state = RoundTimer.from_json(scene.round.timer).state
    if timer != "not started" and state != "running":
        match_services.round_timer(actor=scene.organiser, round_=scene.round, action="start")
    if timer == "paused":
        match_services.round_timer(actor=scene.organiser, round_=scene.round, action="pause")
    match = scene.matches[0]
    me, them = (match.a, match.b) if side == "a" else (match.b, match.a)
    assert my_match_page.untouched(Match.objects.select_related("round").get(pk=match.pk))
    stored, whole = _stored_and_whole(monkeypatch, _client(me.player), _url(scene))
    assert stored == whole
    assert _STAND_IN.search(stored) is None
    text = stored.decode()
    assert me.player.public_name in text and them.name in text
    assert f"<strong>{match.table}</strong>" in text
    assert f"/matches/{match.pk}/" in text


def test_each_player_gets_their_own_table_opponent_and_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = scenarios.published_round(8)
    first, second = scene.matches[:2]
    pages = {}
    for match in (first, second):
        stored, whole = _stored_and_whole(monkeypatch, _client(match.a.player), _url(scene))
        assert stored == whole
        pages[match.pk] = stored.decode()
    assert first.b.name in pages[first.pk] and first.b.name not in pages[second.pk]
    assert f"/matches/{first.pk}/" in pages[first.pk]
    assert f"/matches/{first.pk}/" not in pages[second.pk]
    assert f"<strong>{second.table}</strong>" in pages[second.pk]


def test_an_opponents_name_is_written_as_the_template_writes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = scenarios.published_round(4)
    match = scene.matches[0]
    player = match.b.player
    player.display_name = "O'Neil <b>&\""
    player.save(update_fields=["display_name"])
    stored, whole = _stored_and_whole(monkeypatch, _client(match.a.player), _url(scene))
    assert stored == whole
    assert b"O&#x27;Neil &lt;b&gt;&amp;&quot;" in stored


def _page(client: Client, scene: PublishedRound) -> str:
    return client.get(_url(scene)).content.decode()


def test_a_report_a_confirmation_and_a_correction_show_at_once() -> None:
    scene = scenarios.published_round(4)
    match = scene.matches[0]
    a, b = _client(match.a.player), _client(match.b.player)
    assert "Report the result" in _page(a, scene)
    assert "Report the result" in _page(b, scene)
    match_services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    assert "Waiting for your opponent" in _page(a, scene)
    assert "Your opponent reported" in _page(b, scene)
    match.refresh_from_db()
    match_services.match_confirm(actor=match.b.player, match=match)
    assert "You won" in _page(a, scene)
    assert "You lost" in _page(b, scene)
    match.refresh_from_db()
    match_services.match_report(
        actor=scene.organiser, match=match, games=[0, 1, 0], reason="Slip misread"
    )
    assert "You lost" in _page(a, scene)
    assert "You won" in _page(b, scene)


def test_a_judge_call_the_timer_and_a_new_table_show_at_once() -> None:
    scene = scenarios.published_round(4)
    match = scene.matches[0]
    a = _client(match.a.player)
    first = _page(a, scene)
    assert "A judge has been called" not in first
    # No service moves a published round's match (round_set_table refuses): the table is
    # the row's, read for each request, whoever writes it.
    Match.objects.filter(pk=match.pk).update(table=42)
    assert "<strong>42</strong>" in _page(a, scene)
    if RoundTimer.from_json(scene.round.timer).state != "running":
        match_services.round_timer(actor=scene.organiser, round_=scene.round, action="start")
    assert 'data-state="running"' in _page(a, scene)
    scene.round.refresh_from_db()
    match_services.round_timer(actor=scene.organiser, round_=scene.round, action="pause")
    assert 'data-state="paused"' in _page(a, scene)
    match.refresh_from_db()
    match_services.call_open(actor=match.b.player, match=match, question="Rules?")
    assert "A judge has been called" in _page(a, scene)


def test_a_bye_and_no_match_are_rendered_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    scene = scenarios.published_round(5)  # five players: one has a bye
    paired = {r.pk for m in scene.matches for r in (m.a, m.b)}
    bye = next(r for r in scene.registrations if r.pk not in paired)

    def not_stored(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("rendered whole, not from a stored copy")

    monkeypatch.setattr(my_match_page, "_spliced", not_stored)
    assert "You have a bye this round." in _page(_client(bye.player), scene)
    assert "You are not registered" in _page(_client(scene.judge), scene)


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
    replaced, the new CSRF cookie's value and expiry replaced."""
    secret = sent_csrf
    for name, value in answer.headers:
        if name.lower() == "set-cookie" and value.strip().startswith(settings.CSRF_COOKIE_NAME):
            secret = value.strip().split(";", 1)[0].split("=", 1)[1]
    if len(secret) == CSRF_TOKEN_LENGTH:
        secret = _unmask_cipher_token(secret)
    for token in CSRF_FIELD.findall(answer.body):
        assert _unmask_cipher_token(token.decode()) == secret
    headers = answer.header_set()
    if "set-cookie" in headers:
        cookie = headers["set-cookie"].replace(secret, "SECRET", 1)
        headers["set-cookie"] = _EXPIRES.sub("expires=WHEN;", cookie)
    return answer.status, _tokens_out(answer.body), headers


@pytest.mark.parametrize("with_csrf_cookie", [False, True])
def test_a_players_page_is_answered_fast_as_the_full_stack_answers_it(
    with_csrf_cookie: bool,
) -> None:
    scene = scenarios.published_round(4)
    fast, full = _apps()
    match = scene.matches[0]
    csrf = _get_new_csrf_string() if with_csrf_cookie else ""
    cookies = f"{settings.SESSION_COOKIE_NAME}={_session(match.b.player)}"
    if csrf:
        cookies += f"; {settings.CSRF_COOKIE_NAME}={csrf}"
    headers = {"HTTP_COOKIE": cookies, "HTTP_ACCEPT": "text/html"}
    url = _url(scene)
    assert call(fast, url, **headers).status == 200  # the full stack's: headers kept, stored
    assert fast.answered == 0
    with CaptureQueriesContext(connection) as queries:
        answered = call(fast, url, **headers)
    assert fast.answered == 1
    # the event, the registration, the round, the match, its players, whether it is
    # untouched, and the round's stage (its games to win)
    assert len(queries.captured_queries) == 7
    reference = call(full, url, **headers)
    assert _normal(answered, csrf) == _normal(reference, csrf)
    assert match.a.name.encode() in answered.body


def test_a_touched_match_is_left_to_the_full_stack() -> None:
    scene = scenarios.published_round(4)
    fast, _full = _apps()
    match = scene.matches[0]
    headers = {"HTTP_COOKIE": f"{settings.SESSION_COOKIE_NAME}={_session(match.a.player)}"}
    url = _url(scene)
    assert call(fast, url, **headers).status == 200
    assert call(fast, url, **headers).status == 200
    assert fast.answered == 1
    match_services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    answered = call(fast, url, **headers)
    assert fast.answered == 1
    assert b"Waiting for your opponent" in answered.body
