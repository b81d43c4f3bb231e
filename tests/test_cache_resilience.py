"""Finding 1: every cache use survives Redis being unreachable (config/cache.py), without a
Redis at all: the cache points at a port where nothing listens."""

from __future__ import annotations

import pytest
import redis.connection
from django.core.cache import cache

from config import shared_copies
from config.cache import CACHE_BREAKER


def test_every_cache_call_is_a_miss_and_a_dead_redis_costs_one_fast_failure(
    dead_redis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # However slow the machine, the breaker stays open for the whole loop: one try, not 2,200.
    monkeypatch.setattr(CACHE_BREAKER, "cooldown", 3600.0)
    attempts = []
    connect = redis.connection.AbstractConnection.connect

    def counted_connect(self: redis.connection.AbstractConnection) -> None:
        attempts.append(self.port)
        connect(self)

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", counted_connect)
    for _ in range(200):
        assert cache.get("k", "default") == "default"
        assert cache.get_many(["a", "b"]) == {}
        assert cache.has_key("k") is False
        assert cache.add("k", 1) is False
        cache.set("k", 1, 30)
        cache.set_many({"a": 1}, 30)
        assert cache.touch("k") is False
        cache.delete("k")
        cache.delete_many(["a", "b"])
        assert cache.get_or_set("k", 5) == 5
        with pytest.raises(ValueError):
            cache.incr("k")
    assert len(attempts) == 1  # 2,200 calls: the breaker skips Redis after the first failure
    assert CACHE_BREAKER.is_down


@pytest.mark.django_db
def test_shared_page_copies_render_fresh_while_redis_is_down(dead_redis: None) -> None:
    renders = []

    def render() -> dict[str, str]:
        renders.append(1)
        return {"html": f"copy {len(renders)}"}

    shared_copies.changed("queue", 1, actor_id=7)
    arguments = {"key": "q", "kind": "queue", "object_ids": [1], "user_id": 7}
    first = shared_copies.shared_copy(**arguments, render=render, grace=0, ttl=10)
    second = shared_copies.shared_copy(**arguments, render=render, grace=0, ttl=10)
    assert (first["html"], second["html"]) == ("copy 1", "copy 2")


@pytest.mark.django_db
def test_the_banner_says_notifications_are_delayed_only_while_redis_is_down(
    client, dead_redis: None
) -> None:  # type: ignore[no-untyped-def]
    assert "Notifications are delayed" not in client.get("/").content.decode()
    cache.get("anything")  # this process finds Redis down
    assert "Notifications are delayed" in client.get("/").content.decode()


def test_clearing_the_cache_leaves_other_prefixes_keys_in_redis(require_redis: str) -> None:
    """Django's clear() empties the whole Redis database: another site's keys on a shared
    Redis, or another test worker's throttle counts, went with it."""
    from config.cache import ResilientRedisCache

    ours = ResilientRedisCache(require_redis, {"KEY_PREFIX": "clear-ours"})
    theirs = ResilientRedisCache(require_redis, {"KEY_PREFIX": "clear-theirs"})
    for n in range(3):
        ours.set(f"k{n}", n)
    theirs.set("kept", "yes")
    try:
        assert ours.clear() is True
        assert [ours.get(f"k{n}") for n in range(3)] == [None, None, None]
        assert theirs.get("kept") == "yes"
    finally:
        theirs.delete("kept")
