"""Shared fixtures. With REQUIRE_SERVICES=1 (CI) a test that needs PostgreSQL or Redis fails
instead of skipping, so a misconfigured CI can never pass by skipping the concurrency tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import SHARED, missing_service, missing_shared_data


@pytest.fixture
def require_postgres(transactional_db) -> None:  # type: ignore[no-untyped-def]
    from django.db import connection

    if connection.vendor != "postgresql":
        missing_service("needs PostgreSQL: set DATABASE_URL")


@pytest.fixture
def require_redis() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        missing_service("needs Redis: set REDIS_URL")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        missing_service(f"Redis at {url} is not reachable: {exc}")
    return url


@pytest.fixture
def shared_data() -> Path:
    path = SHARED / "data"
    if not path.is_dir():
        missing_shared_data(path)
    return path


@pytest.fixture
def api_client():  # type: ignore[no-untyped-def]
    from rest_framework.test import APIClient

    return APIClient()
