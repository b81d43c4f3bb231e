"""Request limits: DRF's throttles for the API, the same throttles for a few pages.

Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (config/settings/base.py) and are
read on every check, so ``override_settings`` changes them in a test (DRF's own classes read
them once, at import). A rate of ``None`` switches a scope off (the test settings do that for
every scope). Failed logins for one username at one address are counted by django-axes
(accounts/lockout.py); failed logins per address, whatever the username (password spraying),
by ``LoginFailureThrottle`` here.

Counting is atomic: each limit is one counter per client that lives one period from its first
request (Redis SET NX + INCR in one transaction; ``cache.add`` + ``cache.incr`` on another
cache backend), so concurrent requests can never all read the same count and all pass (DRF's
own throttles read a list, append and write it back, and lose updates). With Redis down the
counters are kept in the process (``LOCAL_COUNTERS``): the same limit, counted per process.

The client's address is the connecting address, or with ``NUM_PROXIES`` = N the N-th address
from the right of ``X-Forwarded-For`` (set by our own proxies): a client cannot pick its own.
"""

from __future__ import annotations

import hashlib
import threading
import time
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

from config.cache import ResilientRedisCache


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


class LocalCounters:
    """Counters in this process's memory, for when the shared cache is unreachable."""

    MAX_COUNTERS = 100_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counters: dict[str, tuple[int, float]] = {}  # key -> (count, window end)

    def count(self, key: str, window_seconds: int, now: float | None = None) -> tuple[int, float]:
        now = time.monotonic() if now is None else now
        with self._lock:
            if len(self._counters) >= self.MAX_COUNTERS:
                self._counters = {k: v for k, v in self._counters.items() if v[1] > now}
            counted, ends = self._counters.get(key, (0, 0.0))
            if ends <= now:
                counted, ends = 0, now + window_seconds
            counted += 1
            self._counters[key] = (counted, ends)
            return counted, ends - now

    def peek(self, key: str, now: float | None = None) -> tuple[int, float]:
        now = time.monotonic() if now is None else now
        with self._lock:
            counted, ends = self._counters.get(key, (0, 0.0))
        return (counted, ends - now) if ends > now else (0, 0.0)

    def clear(self) -> None:
        with self._lock:
            self._counters.clear()


LOCAL_COUNTERS = LocalCounters()


def count(key: str, window_seconds: int) -> tuple[int, float]:
    """Count one request against ``key``: the count in the current window (this one
    included) and the seconds the window has left."""
    shared = _shared_cache()
    if isinstance(shared, ResilientRedisCache):
        in_redis = shared.count(key, window_seconds)
        return in_redis if in_redis is not None else LOCAL_COUNTERS.count(key, window_seconds)
    # Another Django cache (local memory in development): add and incr are atomic there.
    ends_key = f"{key}:ends"
    if shared.add(key, 0, window_seconds):
        shared.set(ends_key, time.time() + window_seconds, window_seconds)
    try:
        counted = int(shared.incr(key))
    except ValueError:  # the window ended between the two calls: this is a new one
        shared.set(key, 1, window_seconds)
        shared.set(ends_key, time.time() + window_seconds, window_seconds)
        counted = 1
    ends = shared.get(ends_key) or time.time() + window_seconds
    return counted, max(ends - time.time(), 0.0)


def peek(key: str) -> tuple[int, float]:
    """The count against ``key`` and its window's seconds left, without counting."""
    shared = _shared_cache()
    if isinstance(shared, ResilientRedisCache):
        seen = shared.peek(key)
        return seen if seen is not None else LOCAL_COUNTERS.peek(key)
    got = shared.get_many([key, f"{key}:ends"])
    ends = got.get(f"{key}:ends") or time.time()
    return int(got.get(key) or 0), max(ends - time.time(), 0.0)


class CountingThrottle(_SettingsRates, SimpleRateThrottle):
    """DRF's throttle interface over an atomic counter (module doc)."""

    # Not DRF's key: its keys hold a list of times, ours a number.
    cache_format = "limit:%(scope)s:%(ident)s"

    _wait: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        counted, left = count(key, self.duration)
        if counted <= self.num_requests:
            return True
        self._wait = max(left, 1.0)
        return False

    def wait(self) -> float | None:
        return self._wait


class AnonThrottle(CountingThrottle, AnonRateThrottle):
    """Anonymous API requests per address (the ``anon`` rate)."""


class UserThrottle(CountingThrottle, UserRateThrottle):
    """Authenticated API requests per account (the ``user`` rate)."""


class AddressThrottle(CountingThrottle):
    """Requests per client address for one ``scope``, signed in or not."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenThrottle(AddressThrottle):
    """``POST /api/auth/token/`` per address (the ``token`` rate)."""

    scope = "token"


class PasswordResetAddressThrottle(AddressThrottle):
    """Password-reset requests per address (the ``password_reset`` rate)."""

    scope = "password_reset"


class SignupThrottle(AddressThrottle):
    """Accounts created per address (the ``signup`` rate)."""

    scope = "signup"


class LoginFailureThrottle(AddressThrottle):
    """Failed logins per address, whatever the usernames (the ``login_failures`` rate): one
    password tried against many accounts (spraying) is refused after the limit, on the login
    page and the token API alike. Only failures count, so a venue behind one address signs
    everyone in; while an address is over the limit, its logins are refused (429), the right
    password included."""

    scope = "login_failures"

    def refused_for(self, request: Any) -> float | None:
        """Seconds to wait when this address is over the limit, else None (counts nothing)."""
        if self.rate is None:
            return None
        counted, left = peek(self.get_cache_key(request, None))
        return max(left, 1.0) if counted >= self.num_requests else None

    def failed(self, request: Any) -> None:
        """Count one failed login from this address."""
        if self.rate is not None:
            count(self.get_cache_key(request, None), self.duration)


class PasswordResetEmailThrottle(CountingThrottle):
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


def _shared_cache() -> Any:
    from django.core.cache import caches

    return caches["default"]


_IDENT = BaseThrottle()
