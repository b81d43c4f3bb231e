"""The per-event live version in the cache: moved after every commit that changes what an
overlay shows, so a stream in any process sees the change within one tick.

The cache is a shortcut, never the only signal: with the local-memory cache (no Redis) each
process has its own copy, and a lost Redis answers nothing (config/cache.py). The stream
therefore also reads the event's live stamp from the database (``selectors.live_stamp``)
every ``settings.OVERLAY_DB_CHECK_SECONDS``.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db import transaction

DAY = 24 * 3600


def key(tournament_id: int) -> str:
    return f"overlays:live:{tournament_id}"


def bump(tournament_id: int) -> None:
    """A new value (the time in nanoseconds: any change will do, no read-modify-write)."""
    cache.set(key(tournament_id), str(time.time_ns()), timeout=DAY)


def bump_after_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: bump(tournament_id))


def current(tournament_id: int) -> str:
    value = cache.get(key(tournament_id))
    return value if isinstance(value, str) else ""
