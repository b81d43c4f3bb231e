"""config.kept.Kept: a process's bounded map, the least recently used entry dropped first."""

from __future__ import annotations

from config.kept import Kept


def test_the_least_recently_used_entry_goes_first_and_a_lookup_counts_as_a_use() -> None:
    kept: Kept[str, int] = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "b" is now the least recently used
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)
    assert len(kept) == 2


def test_putting_a_key_again_replaces_its_value_and_makes_it_the_most_recent() -> None:
    kept: Kept[str, int] = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("a", 10)
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b")) == (10, None)
    kept.clear()
    assert len(kept) == 0 and kept.get("a") is None
