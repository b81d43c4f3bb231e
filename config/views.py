"""The health check."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse

from config.cache import BROKER_BREAKER, ResilientRedisCache


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return "down"
    return "ok"


def _redis() -> str:
    backend: Any = caches["default"]
    if not isinstance(backend, ResilientRedisCache):
        return "not configured"
    return "ok" if backend.ping() else "down"


def _broker(redis_state: str) -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "in-process"
    if getattr(settings, "REDIS_URL", None) == settings.CELERY_BROKER_URL:
        return redis_state  # the same Redis, just asked
    return "down" if BROKER_BREAKER.is_down else "ok"


def healthz(request: HttpRequest) -> JsonResponse:
    """What the load balancer and the operators need: 503 only when the database is down (the
    site cannot work); Redis down is 200 with ``"status": "degraded"`` (the site works,
    slower, notifications wait in the outbox). See docs/operations.md."""
    from config.outbox import waiting_count

    database = _database()
    redis_state = _redis()
    body: dict[str, Any] = {
        "status": "ok",
        "database": database,
        "redis": redis_state,
        "broker": _broker(redis_state),
    }
    if database == "down":
        body["status"] = "down"
        return JsonResponse(body, status=503)
    body["outbox_waiting"] = waiting_count()
    if "down" in (body["redis"], body["broker"]):
        body["status"] = "degraded"
    return JsonResponse(body)
