"""The API's request limits (config/throttling.py): anonymous requests per address, signed-in
requests per account; a 429 in the API's error format. The test settings switch the rates
off; these tests switch them on."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from config.settings import base
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def rates(**changes: str | None) -> Any:
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], **changes}
    return override_settings(REST_FRAMEWORK=rest)


def test_anonymous_api_requests_beyond_the_rate_are_429_with_the_wait() -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.7")
    with rates(anon="5/min"):
        served = [client.get("/api/formats/").status_code for _ in range(5)]
        refused = client.get("/api/formats/")
        other_address = APIClient(REMOTE_ADDR="203.0.113.8").get("/api/formats/")
    assert served == [200] * 5
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled"
    assert "throttled" in body["detail"]
    assert 0 < body["retry_after"] <= 60
    assert refused["Retry-After"] == str(body["retry_after"])
    assert other_address.status_code == 200


def test_a_forged_forwarded_for_header_does_not_reset_the_anonymous_count() -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    with rates(anon="2/min"):
        answers = [
            client.get("/api/formats/", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}").status_code
            for i in range(3)
        ]
    assert answers == [200, 200, 429]


def test_signed_in_requests_count_per_account_not_against_the_anonymous_rate() -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.10")
    client.force_authenticate(UserFactory())
    with rates(anon="1/min", user="3/min"):
        answers = [client.get("/api/me/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]


def test_the_signed_in_rate_leaves_room_for_the_benchmarks_judges() -> None:
    """bench/judge_queue.py's judges make up to 10 API requests a second each."""
    throttle = SimpleRateThrottle.__new__(SimpleRateThrottle)
    rate = base.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["user"]
    requests, seconds = throttle.parse_rate(rate)
    assert requests / seconds >= 2 * 10
    anon_requests, anon_seconds = throttle.parse_rate(
        base.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["anon"]
    )
    assert anon_requests / anon_seconds <= 5  # 300 anonymous requests in 7 s are refused
