"""Security finding 6: throttling gaps.

Password spraying (one password against many usernames from one address) is refused on the
login page and the token API alike; sign-ups are limited per address; and counting is atomic:
requests from 16 threads at once are admitted exactly up to the limit, against Redis, against
the local-memory cache and against the in-process fallback used while Redis is down.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, RequestFactory, override_settings
from rest_framework.test import APIClient

from accounts.models import User
from config.cache import CACHE_BREAKER, CircuitBreaker
from config.throttling import LOCAL_COUNTERS, AnonThrottle, UserThrottle
from tests.factories import UserFactory
from tests.support import OwnRedis

RIGHT = "correct-horse-battery"
_addresses = itertools.count(1)


def rates(**changes: str | None) -> Any:
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], **changes}
    return override_settings(REST_FRAMEWORK=rest)


def address() -> str:
    return f"192.0.2.{next(_addresses)}"


# --- password spraying and sign-ups ----------------------------------------------------------


@pytest.mark.django_db
def test_login_page_refuses_an_address_spraying_one_password_over_many_usernames() -> None:
    real = UserFactory()
    here = address()
    client = Client(REMOTE_ADDR=here)
    with rates(login_failures="5/hour"):
        tried = [
            client.post(
                "/accounts/login/", {"username": f"someone{i}", "password": "Summer2026!"}
            ).status_code
            for i in range(5)
        ]
        refused = client.post("/accounts/login/", {"username": real.username, "password": RIGHT})
        elsewhere = Client(REMOTE_ADDR=address()).post(
            "/accounts/login/", {"username": real.username, "password": RIGHT}
        )
    assert tried == [200] * 5  # the form again, each time a different username
    assert refused.status_code == 429  # the right password too, from this address
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert "Too many failed logins from your connection" in refused.content.decode()
    assert elsewhere.status_code == 302


@pytest.mark.django_db
def test_token_api_refuses_an_address_spraying_and_shares_the_count_with_the_login_page() -> None:
    real = UserFactory()
    here = address()
    with rates(login_failures="4/hour"):
        page = Client(REMOTE_ADDR=here)
        api = APIClient(REMOTE_ADDR=here)
        for i in range(2):
            page.post("/accounts/login/", {"username": f"nobody{i}", "password": "x"})
        answers = [
            api.post("/api/auth/token/", {"username": f"other{i}", "password": "x"}).status_code
            for i in range(2)
        ]
        refused = api.post("/api/auth/token/", {"username": real.username, "password": RIGHT})
    assert answers == [400, 400]
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0


@pytest.mark.django_db
def test_a_successful_login_is_not_counted_so_a_venue_behind_one_address_signs_in() -> None:
    here = address()
    players = [UserFactory() for _ in range(4)]
    with rates(login_failures="2/hour"):
        answers = [
            Client(REMOTE_ADDR=here)
            .post("/accounts/login/", {"username": p.username, "password": RIGHT})
            .status_code
            for p in players
        ]
    assert answers == [302] * 4


@pytest.mark.django_db
def test_sign_up_is_limited_per_address_and_a_refused_one_creates_nobody() -> None:
    here = address()
    before = User.objects.count()

    def sign_up(n: int) -> Any:
        return Client(REMOTE_ADDR=here).post(
            "/accounts/signup/",
            {
                "username": f"newbie{n}",
                "display_name": f"Newbie {n}",
                "email": f"newbie{n}@example.com",
                "password1": "a-long-pass-phrase-42",
                "password2": "a-long-pass-phrase-42",
            },
        )

    with rates(signup="2/hour"):
        answers = [sign_up(n) for n in range(3)]
    assert [a.status_code for a in answers[:2]] == [302, 302], answers[0].content[:2000]
    assert answers[2].status_code == 429
    assert "no account was created" in answers[2].content.decode()
    assert User.objects.count() == before + 2


# --- atomic counting -------------------------------------------------------------------------


def hammer(make_throttle: Callable[[], Any], request: Any, threads: int, each: int) -> int:
    """How many of threads x each checks, made at once, the throttle admits."""
    admitted = 0
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def run() -> None:
        nonlocal admitted
        start.wait()
        mine = sum(1 for _ in range(each) if make_throttle().allow_request(request, None))
        with lock:
            admitted += mine

    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return admitted


def anonymous_request() -> Any:
    from django.contrib.auth.models import AnonymousUser

    request = RequestFactory().get("/api/formats/", REMOTE_ADDR=address())
    request.user = AnonymousUser()
    return request


def signed_in_request() -> Any:
    request = RequestFactory().get("/api/me/", REMOTE_ADDR=address())
    request.user = type("Someone", (), {"is_authenticated": True, "pk": next(_addresses)})()
    return request


def check_exact_limits() -> None:
    with rates(anon="120/min", user="1800/min"):
        assert hammer(AnonThrottle, anonymous_request(), threads=16, each=25) == 120
        assert hammer(UserThrottle, signed_in_request(), threads=16, each=119) == 1800


def test_concurrent_requests_are_admitted_exactly_up_to_the_limit_in_local_memory() -> None:
    check_exact_limits()


@pytest.mark.services
def test_concurrent_requests_are_admitted_exactly_up_to_the_limit_against_redis(
    site_on_own_redis: OwnRedis,
) -> None:
    check_exact_limits()
    assert not CACHE_BREAKER.is_down  # counted in Redis, not by the fallback
    assert LOCAL_COUNTERS.peek("limit:anon:x") == (0, 0.0)


@pytest.mark.services
def test_with_redis_down_the_limit_is_kept_in_the_process_exactly(
    site_on_own_redis: OwnRedis,
) -> None:
    site_on_own_redis.stop()
    check_exact_limits()
    assert CACHE_BREAKER.is_down


@pytest.mark.services
@pytest.mark.django_db
def test_with_redis_down_the_api_still_answers_429_beyond_the_rate(
    site_on_own_redis: OwnRedis,
) -> None:
    site_on_own_redis.stop()
    client = APIClient(REMOTE_ADDR=address())
    with rates(anon="3/min"):
        answers = [client.get("/api/formats/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]


def test_the_in_process_counters_start_a_new_window_when_the_old_one_ends() -> None:
    LOCAL_COUNTERS.clear()
    assert LOCAL_COUNTERS.count("k", 60, now=100.0) == (1, 60.0)
    assert LOCAL_COUNTERS.count("k", 60, now=130.0) == (2, 30.0)
    assert LOCAL_COUNTERS.peek("k", now=159.0) == (2, 1.0)
    assert LOCAL_COUNTERS.count("k", 60, now=160.0) == (1, 60.0)


def test_the_circuit_breaker_lets_one_caller_retry_per_cooldown() -> None:
    breaker = CircuitBreaker("test", cooldown=5.0)
    assert breaker.allows(now=0.0) and not breaker.is_down
    breaker.failed(now=10.0)
    assert breaker.is_down
    assert not breaker.allows(now=14.9)
    assert breaker.allows(now=15.0)  # one caller tries ...
    assert not breaker.allows(now=15.1)  # ... the others wait for its answer
    assert breaker.succeeded() is True
    assert breaker.allows(now=15.2) and breaker.succeeded() is False
