"""A signed-in request reads its account from the cache (accounts/cached_auth.py) and costs
no query for it, yet every change to the account applies on the next request exactly as if
the row were read afresh: a password change signs the other sessions out, a deactivated or
deleted account is signed out, a new name shows at once."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.cached_auth import user_key
from accounts.models import User
from tests.factories import UserFactory, logged_in

pytestmark = pytest.mark.django_db

PAGE = "/me/events/"  # a page for signed-in people only


def _account_queries(client: Client) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(PAGE)
    reads = sum(
        1
        for q in captured.captured_queries
        if 'FROM "accounts_user"' in q["sql"] and 'WHERE "accounts_user"."id" =' in q["sql"]
    )
    return response.status_code, reads


def test_a_signed_in_request_reads_the_account_from_the_cache_after_the_first() -> None:
    cache.clear()
    client = logged_in(UserFactory())
    assert _account_queries(client) == (200, 1)
    assert _account_queries(client) == (200, 0)


def test_a_password_change_signs_the_other_sessions_out() -> None:
    cache.clear()
    user = UserFactory()
    client = logged_in(user)
    assert _account_queries(client)[0] == 200
    user.set_password("another-horse-battery")
    user.save()
    status, _ = _account_queries(client)
    assert status == 302  # to the log-in page


def test_a_cached_copy_with_an_old_password_hash_never_signs_anyone_in() -> None:
    cache.clear()
    user = UserFactory()
    client = logged_in(user)
    assert _account_queries(client)[0] == 200
    # The row changed behind the cache's back: the copy's hash no longer matches the session.
    stale = cache.get(user_key(user.pk))
    User.objects.filter(pk=user.pk).update(password="")
    stale.password = "pbkdf2_sha256$1$salt$other"
    cache.set(user_key(user.pk), stale, 300)
    assert _account_queries(client)[0] == 302


@pytest.mark.parametrize("change", ["deactivated", "deleted"])
def test_a_deactivated_or_deleted_account_is_signed_out(change: str) -> None:
    cache.clear()
    user = UserFactory()
    client = logged_in(user)
    assert _account_queries(client)[0] == 200
    if change == "deactivated":
        user.is_active = False
        user.save()
    else:
        user.delete()
    assert cache.get(user_key(user.pk)) is None
    assert client.get(PAGE).status_code == 302


def test_a_new_name_shows_on_the_next_page() -> None:
    cache.clear()
    user = UserFactory(display_name="Old Name")
    client = logged_in(user)
    assert b"Old Name" in client.get(PAGE).content
    user.display_name = "New Name"
    user.save()
    page = client.get(PAGE).content
    assert b"New Name" in page and b"Old Name" not in page
