"""A signed-in request reads its account from the cache (accounts/cached_auth.py) and costs
no query for it, yet every change to the account applies on the next request exactly as if
the row were read afresh: a password change signs the other sessions out, a deactivated or
deleted account is signed out, a new name shows at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.cached_auth import signed_in, user_key
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


# --- the fast path's sign-in (config.fast_path): the session and the account in one round trip


def _session_key(user: User) -> str:
    client = logged_in(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


class _CacheReads:
    """Each read of the cache asked by the code, by method: ("get", key) or ("get_many",
    keys) (a backend's get_many made of its own gets, as the in-memory one's, counts once)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads: list[tuple[str, Any]] = []
        self._depth = 0
        for method in ("get", "get_many"):
            original = getattr(cache, method)
            monkeypatch.setattr(cache, method, self._counting(method, original))

    def _counting(self, method: str, original: Any) -> Any:
        def read(key: Any, *args: Any, **kwargs: Any) -> Any:
            if self._depth == 0:
                self.reads.append((method, key))
            self._depth += 1
            try:
                return original(key, *args, **kwargs)
            finally:
                self._depth -= 1

        return read


def test_a_known_sessions_account_is_read_with_the_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache.clear()
    user = UserFactory()
    key = _session_key(user)
    first = signed_in(key)  # the session, then the account (its row, then cached)
    assert first is not None and first[1].pk == user.pk
    reads = _CacheReads(monkeypatch)
    again = signed_in(key)
    assert again is not None and again[1].pk == user.pk
    assert dict(again[0].items()) == dict(first[0].items())
    assert [method for method, _ in reads.reads] == ["get_many"]
    assert user_key(user.pk) in reads.reads[0][1]


def test_a_known_session_is_still_checked_against_its_account() -> None:
    """The account read with the session is only a guess from the last request: a password
    changed since, or a session that now names another account, is verified as before."""
    cache.clear()
    user, other = UserFactory(), UserFactory()
    key, others = _session_key(user), _session_key(other)
    assert signed_in(key) is not None and signed_in(others) is not None
    # the session's cached data replaced by the other account's session (a new sign-in)
    store = SessionStore(key)
    cache.set(store.cache_key, SessionStore(others).load(), 300)
    found = signed_in(key)
    assert found is not None and found[1].pk == other.pk
    user.set_password("another-horse-battery")
    user.save()
    assert signed_in(_session_key(user)) is not None  # a session signed in after the change
    other.set_password("yet-another-horse-battery")
    other.save()
    assert signed_in(others) is None
    assert signed_in(key) is None


def test_a_known_session_gone_from_the_cache_is_read_from_its_row() -> None:
    cache.clear()
    user = UserFactory()
    key = _session_key(user)
    assert signed_in(key) is not None
    cache.delete(SessionStore(key).cache_key)
    found = signed_in(key)
    assert found is not None and found[1].pk == user.pk
    Session.objects.filter(session_key=key).delete()
    cache.delete(SessionStore(key).cache_key)
    assert signed_in(key) is None
