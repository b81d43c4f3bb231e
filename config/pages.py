"""What every app's pages share: running a service call and reporting it, reading numbers and
the page to go back to. The event a page names is tournaments.selectors.visible_event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

from config.errors import Forbidden, ServiceError

# A whole number typed into a page's form or address: beyond this the database's bigint could
# not hold it (a 500), so it reads as no number at all.
MAX_PAGE_INT = 2**63 - 1


def int_or_none(value: Any, default: int | None = None) -> int | None:
    """A whole number from a form field or query parameter ("12", " 3 "), else `default`
    (blank, junk, or out of the database's range)."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return default
    return number if -MAX_PAGE_INT <= number <= MAX_PAGE_INT else default


def attempt(
    request: HttpRequest, action: Callable[[], Any], success: str, *, name_field: bool = False
) -> bool:
    """Run a service call; report its outcome to the person as a message. With
    ``name_field``, a refusal's message starts with the field it names ("priority: ...")."""
    try:
        action()
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        named = name_field and exc.field and not exc.message.startswith(f"{exc.field}:")
        messages.error(request, f"{exc.field}: {exc.message}" if named else exc.message)
        return False
    messages.success(request, success)
    return True


def next_or(request: HttpRequest, fallback: str) -> str:
    """Where to go after a form: the `next` parameter when it stays on this site, else fallback."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback
