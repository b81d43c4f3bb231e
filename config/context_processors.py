"""Template context every page gets."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from config.cache import redis_is_down


def service_status(request: HttpRequest) -> dict[str, Any]:
    """``services_degraded``: this process last found Redis down (no round trip: the circuit
    breaker's state), so pages say notifications are delayed."""
    return {"services_degraded": redis_is_down()}
