"""The benches' signed-in players (bench/harness.py, `new_sessions`): their sessions are where
a real sign-in leaves them, the row and the copy that the cached_db session engine keeps in the
cache, so a phone's first request reads its session from the cache; `cached=False` leaves the
rows alone (as after Redis lost its data), and then the first read is the row's."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore
from pytest_django import DjangoAssertNumQueries

from tests.factories import UserFactory
from tests.support import bench_module

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


harness = bench_module("harness")


def test_the_site_keeps_sessions_in_the_cache_beside_their_rows() -> None:
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"


def test_a_benchs_session_is_read_from_the_cache_as_after_a_sign_in(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    users = [UserFactory(), UserFactory()]
    keys = harness.new_sessions(users)
    for user in users:
        with django_assert_num_queries(0):
            assert SessionStore(keys[user.pk]).load()[SESSION_KEY] == str(user.pk)


def test_cold_sessions_are_only_rows_and_their_first_read_is_the_rows(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    user = UserFactory()
    key = harness.new_sessions([user], cached=False)[user.pk]
    with django_assert_num_queries(1):
        assert SessionStore(key).load()[SESSION_KEY] == str(user.pk)
    with django_assert_num_queries(0):
        assert SessionStore(key).load()[SESSION_KEY] == str(user.pk)
