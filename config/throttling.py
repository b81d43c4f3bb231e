"""Request limits: DRF's throttles for the API, the same throttles for a few pages.

Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (config/settings/base.py) and are
read on every check, so ``override_settings`` changes them in a test (DRF's own classes read
them once, at import). A rate of ``None`` switches a scope off (the test settings do that for
every scope). Failed logins are counted by django-axes instead (accounts/lockout.py): it locks a
username at one address, so the right password is refused too until the window passes.

The client's address is the connecting address, or with ``NUM_PROXIES`` = N the N-th address
from the right of ``X-Forwarded-For`` (set by our own proxies): a client cannot pick its own.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from rest_framework.settings import api_settings
from rest_framework.throttling import (
    AnonRateThrottle,
    BaseThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)


def client_ip(request: Any) -> str | None:
    """The client's address, as every limit sees it (DRF's throttles and django-axes)."""
    return _IDENT.get_ident(request)


class _SettingsRates:
    """Read the rate from the current settings on every check (not once at import)."""

    scope: str | None

    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No throttle rate set for the {self.scope!r} scope.")
        rate: str | None = rates[self.scope]
        return rate


class AnonThrottle(_SettingsRates, AnonRateThrottle):
    """Anonymous API requests per address (the ``anon`` rate)."""


class UserThrottle(_SettingsRates, UserRateThrottle):
    """Authenticated API requests per account (the ``user`` rate)."""


class AddressThrottle(_SettingsRates, SimpleRateThrottle):
    """Requests per client address for one ``scope``, signed in or not."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(AddressThrottle):
    """``POST /api/auth/token/`` per address (the ``token`` rate)."""

    scope = "token"


class PasswordResetAddressThrottle(AddressThrottle):
    """Password-reset requests per address (the ``password_reset`` rate)."""

    scope = "password_reset"


class PasswordResetEmailThrottle(_SettingsRates, SimpleRateThrottle):
    """Password-reset requests per e-mail address asked for (the ``password_reset_email``
    rate): one inbox is never flooded, whoever asks."""

    scope = "password_reset_email"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        email = str(request.POST.get("email", "")).strip().lower()
        if not email:
            return None
        digest = hashlib.sha256(email.encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": digest}


def page_wait(request: HttpRequest, *throttles: SimpleRateThrottle) -> float | None:
    """For a page: None when every throttle allows the request (each counts it), else the
    longest wait in seconds."""
    waits = [t.wait() or 0.0 for t in throttles if not t.allow_request(request, None)]
    return max(waits) if waits else None


_IDENT = BaseThrottle()
