"""Issue 18, finding 1: a Redis outage is not a site outage.

The site runs on a Redis of the test's own (cache, sessions' cache, rate counters and the
Celery broker, with real task sends); the test kills it mid-event and checks that players still
sign in, report and confirm, staff still publish, pages say notifications are delayed and
/healthz names the dependency that is down; then restarts it and checks that the outbox sends
what waited, and that every notification goes out exactly once.
"""

from __future__ import annotations

import base64
import json
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis.connection
import redis.exceptions
from django.conf import settings
from django.core import mail
from rest_framework.test import APIClient

from config.cache import BROKER_BREAKER, CACHE_BREAKER
from config.celery import app
from config.models import OutboxTask
from matches.models import Match, MatchStatus
from notifications.models import Delivery, DeliveryStatus
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.support import OwnRedis
from tournaments.status import EventStatus

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"
BANNER = "Notifications are delayed"


@contextmanager
def connection_attempts(*, hold_breakers_open: bool) -> Iterator[list[str]]:
    """Every Redis connection attempt in the block, as "refused", "timeout" or "connected".
    With ``hold_breakers_open`` a breaker that is down stays down for the whole block (its
    cooldown is an hour), then lets the next caller try at once, as after its usual cooldown."""
    attempts: list[str] = []
    connect = redis.connection.AbstractConnection.connect

    def counted_connect(self: redis.connection.AbstractConnection) -> None:
        try:
            connect(self)
        except redis.exceptions.TimeoutError:
            attempts.append("timeout")
            raise
        except redis.exceptions.ConnectionError:
            attempts.append("refused")
            raise
        attempts.append("connected")

    breakers = (CACHE_BREAKER, BROKER_BREAKER)
    cooldowns = [breaker.cooldown for breaker in breakers]
    if hold_breakers_open:
        for breaker in breakers:
            breaker.cooldown = 3600.0
    redis.connection.AbstractConnection.connect = counted_connect  # type: ignore[method-assign]
    try:
        yield attempts
    finally:
        redis.connection.AbstractConnection.connect = connect  # type: ignore[method-assign]
        for breaker, cooldown in zip(breakers, cooldowns, strict=True):
            breaker.cooldown = cooldown
            if hold_breakers_open and breaker.is_down:
                breaker.failed(now=time.monotonic() - cooldown)  # its cooldown is over


def work_off(server: OwnRedis) -> list[str]:
    """Do what a Celery worker would: run every message on the broker's queue (and the ones
    those tasks send) until it is empty. Returns the task ids run."""
    redis = server.client()
    ran: list[str] = []
    while (raw := redis.rpop("celery")) is not None:
        message = json.loads(raw)
        args, kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        task_id = message["headers"]["id"]
        app.tasks[message["headers"]["task"]].apply(args=args, kwargs=kwargs, task_id=task_id)
        ran.append(task_id)
    return ran


def signed_in(username: str) -> APIClient:
    """A client that signs in through the login page, as a player does."""
    client = APIClient()
    answer = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert answer.status_code == 302, answer.content[:500]
    assert client.get("/api/me/").json()["username"] == username
    return client


def report_and_confirm(players: dict[int, APIClient], match: Match) -> None:
    reported = players[match.a_id].post(
        f"/api/matches/{match.pk}/report/", {"games": [1, 0, 0]}, format="json"
    )
    assert reported.status_code == 200, reported.content
    confirmed = players[match.b_id].post(f"/api/matches/{match.pk}/confirm/", {})
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["status"] == "final"


def test_issue_18_a_redis_outage_mid_event_loses_nothing_and_sends_nothing_twice(
    site_on_own_redis: OwnRedis,
) -> None:
    server = site_on_own_redis
    organiser = OrganiserFactory()
    event = TournamentFactory(organisers=[organiser], status=EventStatus.RUNNING.value)
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(4)]
    slug = event.slug

    # Before the outage: sign in, pair and publish round 1, report and confirm one match.
    staff = signed_in(organiser.username)
    players = {reg.pk: signed_in(reg.player.username) for reg in regs[:3]}
    assert staff.post(f"/api/events/{slug}/rounds/", {}, format="json").status_code == 201
    assert staff.post(f"/api/events/{slug}/rounds/1/publish/", {}).status_code == 200
    assert BANNER not in staff.get("/").content.decode()
    work_off(server)
    # The fourth player signs in only during the outage: their match is reported then.
    late = regs[3].pk
    second, first = sorted(
        Match.objects.filter(round__number=1), key=lambda m: late not in (m.a_id, m.b_id)
    )
    report_and_confirm(players, first)
    work_off(server)
    assert not OutboxTask.objects.filter(sent_at__isnull=True).exists()
    health = staff.get("/healthz").json()
    assert health["redis"] == "ok" and health["broker"] == "ok"

    server.stop()

    # Signed-in players stay signed in; a new one signs in; results are reported, confirmed.
    players[regs[3].pk] = signed_in(regs[3].player.username)
    report_and_confirm(players, second)
    # The health check says what is down and that the site still serves.
    health = staff.get("/healthz")
    assert health.status_code == 200
    assert health.json()["database"] == "ok"
    assert health.json()["redis"] == "down" and health.json()["status"] == "degraded"
    # Staff still pair and publish; the tasks wait in the outbox. A dead Redis costs refused
    # connections while a breaker lets one try, never a timeout or a retry loop: here, however
    # slow the machine (the breakers stay open for the whole block), at most one cache read
    # and one task publish with its one retry (CELERY_TASK_PUBLISH_RETRY_POLICY).
    with connection_attempts(hold_breakers_open=True) as attempts:
        assert staff.post(f"/api/events/{slug}/rounds/", {}, format="json").status_code == 201
        published = staff.post(f"/api/events/{slug}/rounds/2/publish/", {})
        assert published.status_code == 200, published.content
    publish_tries = 1 + settings.CELERY_TASK_PUBLISH_RETRY_POLICY["max_retries"]
    assert len(attempts) <= 1 + publish_tries, attempts
    assert all(failure == "refused" for failure in attempts), attempts
    waiting = OutboxTask.objects.filter(sent_at__isnull=True)
    assert waiting.filter(task_name="notifications.dispatch").exists()
    assert staff.get("/healthz").json()["outbox_waiting"] == waiting.count()
    page = players[regs[0].pk].get(f"/events/{slug}/").content.decode()
    assert BANNER in page
    round_two_mails = [m for m in mail.outbox if " round 2: " in m.subject]
    assert round_two_mails == []

    server.start()
    time.sleep(CACHE_BREAKER.cooldown + 0.1)

    # The next request relays what waited (its breaker lets it try again) ...
    assert staff.get("/healthz").json()["redis"] == "ok"
    assert players[regs[0].pk].get("/api/me/").status_code == 200
    assert not OutboxTask.objects.filter(sent_at__isnull=True).exists()
    assert not BROKER_BREAKER.is_down and not CACHE_BREAKER.is_down
    assert BANNER not in players[regs[0].pk].get(f"/events/{slug}/").content.decode()
    ran = work_off(server)
    assert ran and len(ran) == len(set(ran))
    # ... and relaying again (beat, the command, another request) sends nothing twice.
    from django.core.management import call_command

    call_command("relay_outbox")
    assert work_off(server) == []

    emails = Delivery.objects.filter(channel="email")
    assert emails.filter(kind="pairings_published").count() == 8  # 4 players, 2 rounds
    assert set(emails.values_list("status", flat=True)) == {DeliveryStatus.SENT}
    assert set(emails.values_list("attempts", flat=True)) == {1}
    sent = Counter((tuple(m.to), m.subject) for m in mail.outbox)
    assert len(mail.outbox) == emails.count()
    assert max(sent.values()) == 1
    assert Match.objects.filter(round__number=1, status=MatchStatus.FINAL).count() == 2


def test_pages_and_sessions_need_no_redis_from_the_start(site_on_own_redis: OwnRedis) -> None:
    """Redis down before anyone signs in: the login page signs in (the session lives in the
    database), the API answers, and a signed-in page shows the banner."""
    site_on_own_redis.stop()
    user = UserFactory()
    client = signed_in(user.username)
    assert client.get("/api/formats/").status_code == 200
    assert BANNER in client.get("/").content.decode()
    out = APIClient()
    answer = out.post("/accounts/login/", {"username": user.username, "password": "wrong"})
    assert answer.status_code == 200 and "_auth_user_id" not in out.session


def test_a_session_logged_out_while_redis_hangs_is_not_revived_when_it_answers_again(
    site_on_own_redis: OwnRedis,
) -> None:
    """Redis frozen (not refusing: every call times out), not restarted: it still holds the
    session copy the logout could not delete. The first call once it answers deletes every key
    whose write failed, before reading anything, so the old cookie stays logged out."""
    import signal

    server = site_on_own_redis
    user = UserFactory()
    client = signed_in(user.username)
    cookie = client.cookies["sessionid"].value
    server.process.send_signal(signal.SIGSTOP)
    try:
        assert client.post("/accounts/logout/").status_code == 302
        assert CACHE_BREAKER.is_down
    finally:
        server.process.send_signal(signal.SIGCONT)
    assert server.client().keys("*session*")  # the stale copy is still in Redis
    time.sleep(CACHE_BREAKER.cooldown + 0.1)
    replay = APIClient()
    replay.cookies["sessionid"] = cookie
    assert replay.get("/api/me/").status_code in (401, 403)
    assert not server.client().keys("*session*")
    assert not CACHE_BREAKER.is_down
