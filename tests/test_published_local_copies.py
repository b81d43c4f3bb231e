"""Issue 19: each process keeps the copies it served last in memory (config.published.LOCAL).

A copy in memory answers only for the version the caller read from the database (and while
it is young enough for `max_age`), exactly when the shared cache's copy would; a new version
is rendered and replaces it; memory is bounded.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache

from config import published


def test_the_copy_in_memory_answers_its_own_version_without_the_shared_cache() -> None:
    renders: list[str] = []

    def render(text: str) -> bytes:
        renders.append(text)
        return text.encode() * 100

    first = published.stored("local:1", version="v1", render=lambda: render("one"))
    cache.delete(published.copy_key("local:1"))  # evicted from the shared cache
    again = published.stored("local:1", version="v1", render=lambda: render("again"))
    assert again is first and renders == ["one"]
    assert published.existing("local:1", version="v1") is first
    # another version is never answered with the one in memory
    assert published.existing("local:1", version="v2") is None
    newer = published.stored("local:1", version="v2", render=lambda: render("two"))
    assert newer.body == b"two" * 100 and renders == ["one", "two"]
    assert published.LOCAL.get("local:1", published.etag_for("v1"), None) is None


def test_a_copy_in_memory_older_than_max_age_is_remade(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_000_000.0]
    monkeypatch.setattr(published.time, "time", lambda: now[0])
    made = published.stored("local:timer", version="v", render=lambda: b"a", max_age=1.0)
    now[0] += 0.5
    assert published.stored("local:timer", version="v", render=lambda: b"b", max_age=1.0) is made
    now[0] += 1.0
    assert published.existing("local:timer", version="v", max_age=1.0) is None
    remade = published.stored("local:timer", version="v", render=lambda: b"c", max_age=1.0)
    assert remade.body == b"c"


def test_memory_is_bounded_and_the_least_recently_used_copy_goes_first() -> None:
    local = published.LocalCopies(max_bytes=2500)
    copies = {
        name: published.make_copy(b"x" * 1000, version=name, compress=False)
        for name in ("a", "b", "c")
    }
    local.put("a", copies["a"])
    local.put("b", copies["b"])
    assert local.get("a", copies["a"].etag, None) is copies["a"]  # a is now the most recent
    local.put("c", copies["c"])
    assert local.get("b", copies["b"].etag, None) is None
    assert local.get("a", copies["a"].etag, None) is copies["a"]
    assert local.get("c", copies["c"].etag, None) is copies["c"]
    too_big = published.make_copy(b"y" * 3000, version="d", compress=False)
    local.put("d", too_big)
    assert local.get("d", too_big.etag, None) is None
