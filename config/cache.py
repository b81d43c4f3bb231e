"""A Redis cache that an outage cannot take the site down with.

Redis is a cache and a broker here, never the only copy of anything: sessions are written to
the database too (``cached_db``), page copies can be rendered again, and rate counters fall
back to a local count (config/throttling.py). So ``ResilientRedisCache`` treats a Redis error
as a miss (reads answer the default, writes do nothing) and opens a circuit breaker: for the
next ``BREAKER_SECONDS`` nothing is sent to Redis at all, so a dead Redis costs one fast
failure per process and period, not a socket timeout per call. The first call after the
period tries again; when it works the breaker closes.

A write that failed may leave an older value in Redis (a session logged out during the
outage, a page copy's version that could not move). The keys of failed writes are kept
(at most ``MAX_DIRTY_KEYS``) and deleted first thing when Redis answers again, so nothing
stale outlives the outage in this process's view.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)

BREAKER_SECONDS = 5.0
MAX_DIRTY_KEYS = 10_000
# Errors that mean "Redis is not there" (a refused or lost connection, a timeout), as opposed
# to an error in the command itself, which stays an error.
REDIS_DOWN_ERRORS: tuple[type[BaseException], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    OSError,
)

_T = TypeVar("_T")


class CircuitBreaker:
    """Remembers that a dependency failed, so that callers skip it for a while.

    Closed: calls go through. After a failure it is open for ``cooldown`` seconds: ``allows()``
    is False. Then one caller at a time is allowed to try again (every ``cooldown`` seconds)
    until a success closes it."""

    def __init__(self, name: str, cooldown: float = BREAKER_SECONDS) -> None:
        self.name = name
        self.cooldown = cooldown
        self._lock = threading.Lock()
        self._down = False
        self._next_try = 0.0

    @property
    def is_down(self) -> bool:
        """The last call failed (and none has succeeded since)."""
        return self._down

    def allows(self, now: float | None = None) -> bool:
        if not self._down:
            return True
        now = time.monotonic() if now is None else now
        with self._lock:
            if now < self._next_try:
                return False
            self._next_try = now + self.cooldown  # this caller tries; the others wait
            return True

    def failed(self, error: BaseException | None = None, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            if not self._down:
                logger.warning(
                    "%s is unreachable, skipped for %ss: %s", self.name, self.cooldown, error
                )
            self._down = True
            self._next_try = now + self.cooldown

    def succeeded(self) -> bool:
        """Close the breaker; True when it was open (the dependency just came back)."""
        if not self._down:
            return False
        with self._lock:
            was_down, self._down, self._next_try = self._down, False, 0.0
        if was_down:
            logger.warning("%s is reachable again", self.name)
        return was_down

    def reset(self) -> None:
        with self._lock:
            self._down, self._next_try = False, 0.0


class _FailedWrites:
    """Keys whose writes failed, for the whole process (Django makes a cache object per
    thread; a logout in one thread must not be revived in another)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: set[str] = set()

    def add(self, raw_keys: list[str]) -> None:
        with self._lock:
            room = MAX_DIRTY_KEYS - len(self._keys)
            if room < len(raw_keys):
                logger.warning("cache: too many writes failed during the outage to replay all")
            self._keys.update(raw_keys[: max(room, 0)])

    def take(self) -> list[str]:
        with self._lock:
            keys, self._keys = list(self._keys), set()
        return keys


_FAILED_WRITES = _FailedWrites()
CACHE_BREAKER = CircuitBreaker("Redis (cache)")
BROKER_BREAKER = CircuitBreaker("The Celery broker")


class OneClientPerPool(RedisCacheClient):  # type: ignore[misc]  # Django is untyped here
    """Django's client of the cache, keeping one ``redis.Redis`` per connection pool.

    Django makes a new ``redis.Redis`` for every command, and each builds its table of ~80
    response callbacks: at a publish spike, a measurable part of a request that makes four
    cache calls. A ``redis.Redis`` may be shared by threads (its pool lends each command a
    connection), so one per pool is enough."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ResilientRedisCache(RedisCache):  # type: ignore[misc]  # Django is untyped here
    """Django's Redis cache where Redis being down is a miss, never an error (module doc)."""

    breaker = CACHE_BREAKER

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        # A Redis that does not answer fails in a second, not at the OS's TCP timeout.
        options.setdefault("socket_connect_timeout", 1.0)
        options.setdefault("socket_timeout", 1.0)
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = OneClientPerPool

    # --- the guard -----------------------------------------------------------------------

    def _guarded(
        self, call: Callable[[], _T], default: _T, *, dirty: Callable[[], list[str]] | None = None
    ) -> _T:
        if not self.breaker.allows():
            if dirty is not None:
                self._remember(dirty())
            return default
        try:
            if self.breaker.is_down:
                self._forget_stale()  # before anything is read: no stale value is served
            result = call()
        except REDIS_DOWN_ERRORS as exc:
            self.breaker.failed(exc)
            if dirty is not None:
                self._remember(dirty())
            return default
        self.breaker.succeeded()
        return result

    def _remember(self, raw_keys: list[str]) -> None:
        _FAILED_WRITES.add(raw_keys)

    def _forget_stale(self) -> None:
        """Delete the keys whose writes failed (raises, keeping them, if Redis is still down)."""
        keys = _FAILED_WRITES.take()
        if not keys:
            return
        try:
            self._cache.get_client(write=True).delete(*keys)
        except REDIS_DOWN_ERRORS:
            self._remember(keys)
            raise

    def _raw(self, key: Any, version: int | None) -> list[str]:
        return [self.make_and_validate_key(key, version=version)]

    def ping(self) -> bool:
        """Ask Redis directly (health checks): True when it answers; moves the breaker."""
        try:
            if self.breaker.is_down:
                self._forget_stale()
            self._cache.get_client(write=True).ping()
        except REDIS_DOWN_ERRORS as exc:
            self.breaker.failed(exc)
            return False
        self.breaker.succeeded()
        return True

    def count(self, key: str, window_seconds: int) -> tuple[int, float] | None:
        """Add one to the counter ``key`` (which lives ``window_seconds`` from its first count)
        and return the new count and the seconds the window has left, atomically (SET NX,
        INCR in one transaction); None when Redis is down."""
        raw = self.make_and_validate_key(key)

        def incr() -> tuple[int, float]:
            pipe = self._cache.get_client(write=True).pipeline(transaction=True)
            pipe.set(raw, 0, ex=window_seconds, nx=True)
            pipe.incr(raw)
            pipe.pttl(raw)
            _, counted, left_ms = pipe.execute()
            return int(counted), max(int(left_ms), 0) / 1000

        return self._guarded(incr, None)

    def peek(self, key: str) -> tuple[int, float] | None:
        """The counter ``key`` and its window's seconds left, without counting; None when
        Redis is down."""
        raw = self.make_and_validate_key(key)

        def read() -> tuple[int, float]:
            pipe = self._cache.get_client().pipeline(transaction=False)
            pipe.get(raw)
            pipe.pttl(raw)
            value, left_ms = pipe.execute()
            return int(value or 0), max(int(left_ms), 0) / 1000

        return self._guarded(read, None)

    # --- Django's cache API ------------------------------------------------------------

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._guarded(
            lambda: super(ResilientRedisCache, self).get(key, default, version), default
        )

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        return self._guarded(lambda: super(ResilientRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(lambda: super(ResilientRedisCache, self).has_key(key, version), False)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._guarded(
            lambda: super(ResilientRedisCache, self).add(key, value, timeout, version),
            False,
            dirty=lambda: self._raw(key, version),
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._guarded(
            lambda: super(ResilientRedisCache, self).set(key, value, timeout, version),
            None,
            dirty=lambda: self._raw(key, version),
        )

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return self._guarded(
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
            [],
            dirty=lambda: [self.make_and_validate_key(k, version=version) for k in data],
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._guarded(
            lambda: super(ResilientRedisCache, self).touch(key, timeout, version),
            False,
            dirty=lambda: self._raw(key, version),
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(
            lambda: super(ResilientRedisCache, self).delete(key, version),
            False,
            dirty=lambda: self._raw(key, version),
        )

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        keys = list(keys)
        self._guarded(
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            None,
            dirty=lambda: [self.make_and_validate_key(k, version=version) for k in keys],
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # A counter that cannot be read is a missing one (Django raises ValueError for those).
        result = self._guarded(
            lambda: super(ResilientRedisCache, self).incr(key, delta, version),
            None,
            dirty=lambda: self._raw(key, version),
        )
        if result is None:
            raise ValueError(f"Key {key!r} not found (the cache is unreachable).")
        return int(result)

    def clear(self) -> bool:
        return self._guarded(self._clear_own_keys, False)

    def _clear_own_keys(self) -> bool:
        """Delete this cache's keys only: Django's clear() empties the whole Redis database,
        which may hold another site's keys (a shared managed Redis), or another test
        worker's throttle counts (each worker has its own KEY_PREFIX)."""
        if not self.key_prefix:
            return bool(super().clear())
        client = self._cache.get_client(write=True)
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.key_prefix) + ":*"
        batch: list[Any] = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                client.delete(*batch)
                batch = []
        if batch:
            client.delete(*batch)
        return True


def redis_is_down() -> bool:
    """Whether this process last found Redis (the cache or the broker) unreachable: cheap,
    no round trip (the pages' "notifications are delayed" banner)."""
    return CACHE_BREAKER.is_down or BROKER_BREAKER.is_down
