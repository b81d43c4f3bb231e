"""Answers for too many attempts: the page (status 429, saying when to try again) and the
time left on a django-axes lockout, shared by the login page and the token endpoint."""

from __future__ import annotations

import math
from datetime import UTC, timedelta
from typing import Any

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _


def too_many_requests(
    request: HttpRequest, seconds: float, reason: str, *, reset_link: bool = False
) -> HttpResponse:
    """A readable 429 page with a Retry-After header (and a link to reset the password)."""
    seconds = max(1, math.ceil(seconds))
    retry = timezone.now() + timedelta(seconds=seconds)
    context = {
        "reason": reason,
        "minutes": math.ceil(seconds / 60),
        "retry_at": retry.astimezone(UTC).strftime("%H:%M"),
        "retry_iso": retry.isoformat(timespec="seconds"),
        "reset_link": reset_link,
    }
    response = render(request, "accounts/too_many_requests.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def lockout_seconds_left(request: Any, credentials: dict[str, Any] | None) -> float:
    """Seconds until a locked-out username may try again from this address: the window runs
    from the failure that locked it (attempts during the lock do not extend it)."""
    cool_off = get_cool_off(request) or timedelta(0)
    username = get_client_username(request, credentials)
    last = AccessAttempt.objects.filter(
        username=username, ip_address=getattr(request, "axes_ip_address", None)
    ).aggregate(last=Max("attempt_time"))["last"]
    if last is None:
        return cool_off.total_seconds()
    return max((last + cool_off - timezone.now()).total_seconds(), 1.0)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict[str, Any]
) -> HttpResponse:
    """django-axes' AXES_LOCKOUT_CALLABLE for the login page."""
    reason = _(
        "Too many failed logins for this account from your connection: logins are paused, "
        "even with the right password."
    )
    seconds = lockout_seconds_left(request, credentials)
    return too_many_requests(request, seconds, reason, reset_link=True)
