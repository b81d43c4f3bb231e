"""Password guessing and password-reset flooding are limited (issue 10, hardening).

The test settings switch every rate off; these tests switch on the ones they check. Each test
comes from its own address, so a throttle's count never leaks into another test (Redis keeps
them across tests; the local-memory cache is cleared by tests/conftest.py).
"""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RIGHT = "correct-horse-battery"
_addresses = itertools.count(1)


def rates(**changes: str | None) -> Any:
    """override_settings with some throttle rates switched on."""
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], **changes}
    return override_settings(REST_FRAMEWORK=rest)


def address() -> str:
    return f"198.51.100.{next(_addresses)}"


def test_the_tenth_wrong_password_on_the_login_page_locks_the_account_even_for_the_right_one() -> (
    None
):
    UserFactory(username="pat")
    client = Client(REMOTE_ADDR=address())

    def log_in(password: str) -> Any:
        return client.post("/accounts/login/", {"username": "pat", "password": password})

    for _ in range(9):
        wrong = log_in("guess")
        assert wrong.status_code == 200  # the form again, with its error
        assert wrong.context["form"].errors
    tenth, eleventh = log_in("guess"), log_in("guess")
    for refused in (tenth, eleventh):
        assert refused.status_code == 429
        assert int(refused["Retry-After"]) > 14 * 60
        page = refused.content.decode()
        assert "Too many attempts" in page
        assert "try again in 15 minutes" in page
        assert "/accounts/password/reset/" in page
    right = log_in(RIGHT)
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session

    # When the window has passed, the right password works again.
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )
    assert log_in(RIGHT).status_code == 302
    assert "_auth_user_id" in client.session


def test_a_lockout_is_for_one_username_at_one_address() -> None:
    UserFactory(username="pat")
    UserFactory(username="sam")
    attacker = Client(REMOTE_ADDR=address())
    for _ in range(10):
        attacker.post("/accounts/login/", {"username": "pat", "password": "guess"})
    assert (
        attacker.post("/accounts/login/", {"username": "pat", "password": RIGHT}).status_code == 429
    )
    # Another player at the same venue address, and pat from another address, still log in.
    assert (
        attacker.post("/accounts/login/", {"username": "sam", "password": RIGHT}).status_code == 302
    )
    elsewhere = Client(REMOTE_ADDR=address())
    assert (
        elsewhere.post("/accounts/login/", {"username": "pat", "password": RIGHT}).status_code
        == 302
    )


def test_the_token_endpoint_locks_after_ten_failures_and_refuses_the_right_password() -> None:
    UserFactory(username="pat")
    client = APIClient(REMOTE_ADDR=address())

    def token(password: str) -> Any:
        return client.post(
            "/api/auth/token/", {"username": "pat", "password": password}, format="json"
        )

    for _ in range(9):
        assert token("guess").status_code == 400
    for refused in (token("guess"), token("guess"), token(RIGHT)):
        assert refused.status_code == 429
        body = refused.json()
        assert body["code"] == "throttled"
        assert "even with the right password" in body["detail"]
        assert body["retry_after"] > 14 * 60
        assert int(refused["Retry-After"]) == body["retry_after"]
        assert "token" not in body

    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )
    assert "token" in token(RIGHT).json()


def test_token_requests_beyond_the_rate_are_429_in_the_api_error_format() -> None:
    UserFactory(username="pat")
    client = APIClient(REMOTE_ADDR=address())
    with rates(token="3/min"):
        for _ in range(3):
            response = client.post(
                "/api/auth/token/", {"username": "pat", "password": RIGHT}, format="json"
            )
            assert response.status_code == 200
        response = client.post(
            "/api/auth/token/", {"username": "pat", "password": RIGHT}, format="json"
        )
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    assert 0 < response.json()["retry_after"] <= 60


def reset(client: Client, email: str) -> Any:
    return client.post("/accounts/password/reset/", {"email": email})


def test_password_resets_beyond_the_limit_per_inbox_are_429_and_send_no_mail() -> None:
    UserFactory(username="pat", email="pat@example.com")
    with rates(password_reset_email="2/hour"):
        # From two addresses: the inbox is what is limited.
        assert reset(Client(REMOTE_ADDR=address()), "pat@example.com").status_code == 302
        assert reset(Client(REMOTE_ADDR=address()), "PAT@example.com").status_code == 302
        refused = reset(Client(REMOTE_ADDR=address()), "pat@example.com")
    assert refused.status_code == 429
    assert "no e-mail was sent" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert len(mail.outbox) == 2


def test_password_resets_beyond_the_limit_per_address_are_429_and_send_no_mail() -> None:
    users = [UserFactory() for _ in range(3)]
    client = Client(REMOTE_ADDR=address())
    with rates(password_reset="2/hour"):
        answers = [reset(client, u.email).status_code for u in users]
    assert answers == [302, 302, 429]
    assert [m.to for m in mail.outbox] == [[users[0].email], [users[1].email]]
