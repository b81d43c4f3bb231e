"""The health check and the error answers Django gives before any view runs."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

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


# Every answer under /api/ is JSON, the refusals Django makes before any API view runs too (an
# unknown path, a rejected Host or CSRF token, a crash): the error body of docs/api.md. Pages
# keep Django's own pages. (With DEBUG on, Django shows its technical 404 and 500 pages.)
def _api_error(request: HttpRequest, status: int, detail: str, code: str) -> JsonResponse | None:
    if not request.path.startswith("/api/"):
        return None
    return JsonResponse({"detail": detail, "code": code}, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    answer = _api_error(request, 400, _("Bad request."), "bad_request")
    return answer or defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    answer = _api_error(request, 403, _("You do not have permission to do this."), "forbidden")
    return answer or defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    answer = _api_error(request, 404, _("Not found."), "not_found")
    return answer or defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    answer = _api_error(request, 500, _("Something went wrong on our side."), "server_error")
    return answer or defaults.server_error(request)
