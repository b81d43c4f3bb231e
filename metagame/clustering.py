"""Suggested archetypes: published lists grouped by the cards they share (pure: no Django).

Two lists' *similarity* is the Jaccard index of their card names (shared names over all names;
copies do not matter: an archetype is which cards, not how many). Lists are grouped by
average-linkage agglomerative clustering: start with one group per list and join the two most
similar groups (the mean similarity of their lists' pairs) while that is at least
``threshold``. The joins are found with the nearest-neighbour chain, so n lists cost n² pair
similarities, not n³. Ties are broken by the lists' keys, so the same lists give the same groups
whatever order they come in.

A suggested group (two lists or more) carries its *core cards*: the names in at least
``core_share`` of its lists; naming the group makes the archetype "contains at least
``core_share`` of these core cards" (`core_rule`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import BattledeskError

DEFAULT_THRESHOLD = 0.5
DEFAULT_CORE_SHARE = 0.8
MAX_CORE_CARDS = 40


class ClusteringError(BattledeskError, ValueError):
    code = "invalid_clustering"


@dataclass(frozen=True, slots=True)
class SuggestedGroup:
    members: tuple[str, ...]
    core_cards: tuple[str, ...]
    cohesion: float  # the mean similarity of the group's pairs of lists

    def to_json(self) -> dict[str, Any]:
        return {
            "members": list(self.members),
            "size": len(self.members),
            "core_cards": list(self.core_cards),
            "cohesion": round(self.cohesion, 4),
        }


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Shared names over all names; two empty lists are alike (1.0)."""
    union = len(a | b)
    return len(a & b) / union if union else 1.0


def _merges(keys: list[str], sets: list[frozenset[str]]) -> list[tuple[float, int, int, int]]:
    """Average-linkage joins as (similarity, a, b, new cluster id), by the nearest-neighbour
    chain. Clusters 0..n-1 are the lists; each join makes the next id."""
    n = len(keys)
    sim: dict[int, dict[int, float]] = {i: {} for i in range(n)}
    for i in range(n):
        for j in range(i + 1, n):
            s = jaccard(sets[i], sets[j])
            sim[i][j] = s
            sim[j][i] = s
    size = {i: 1 for i in range(n)}
    # The smallest key of a cluster's lists: the tie-breaker, stable under reordering input.
    label = {i: keys[i] for i in range(n)}
    active = set(range(n))
    merges: list[tuple[float, int, int, int]] = []
    chain: list[int] = []
    next_id = n
    while len(active) > 1:
        if not chain:
            chain.append(min(active, key=lambda c: label[c]))
        top = chain[-1]
        previous = chain[-2] if len(chain) > 1 else None

        def rank(c: int, top: int = top, previous: int | None = previous) -> tuple[float, int, str]:
            # Most similar first; the chain's previous cluster wins a tie (so the chain ends).
            return (-sim[top][c], 0 if c == previous else 1, label[c])

        nearest = min((c for c in active if c != top), key=rank)
        if nearest == previous:
            chain.pop()
            chain.pop()
            a, b = sorted((top, nearest), key=lambda c: label[c])
            s = sim[a][b]
            new = next_id
            next_id += 1
            sim[new] = {}
            for c in active:
                if c in (a, b):
                    continue
                joined = (size[a] * sim[a][c] + size[b] * sim[b][c]) / (size[a] + size[b])
                sim[new][c] = joined
                sim[c][new] = joined
                del sim[c][a], sim[c][b]
            del sim[a], sim[b]
            active -= {a, b}
            active.add(new)
            size[new] = size.pop(a) + size.pop(b)
            label[new] = min(label[a], label[b])
            merges.append((s, a, b, new))
        else:
            chain.append(nearest)
    return merges


def suggest_groups(
    lists: Mapping[str, frozenset[str]],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    core_share: float = DEFAULT_CORE_SHARE,
    min_size: int = 2,
) -> tuple[SuggestedGroup, ...]:
    """The groups of at least `min_size` lists whose average-linkage similarity is at least
    `threshold`, largest first (then by their first key). `lists`: key -> card names."""
    if not (0.0 < threshold <= 1.0) or math.isnan(threshold):
        raise ClusteringError("threshold", "expected a number above 0 and at most 1")
    if not (0.0 < core_share <= 1.0) or math.isnan(core_share):
        raise ClusteringError("core_share", "expected a number above 0 and at most 1")
    if min_size < 1:
        raise ClusteringError("min_size", "expected 1 or more")
    keys = sorted(lists)
    sets = [lists[k] for k in keys]
    members: dict[int, list[int]] = {i: [i] for i in range(len(keys))}
    # Average linkage is monotone: taking the joins at or above the threshold in order of
    # similarity cuts the tree at that height.
    for s, a, b, new in sorted(_merges(keys, sets), key=lambda m: (-m[0], m[3])):
        if s < threshold or a not in members or b not in members:
            continue
        members[new] = members.pop(a) + members.pop(b)
    groups = []
    for indexes in members.values():
        if len(indexes) < min_size:
            continue
        names = tuple(sorted(keys[i] for i in indexes))
        group_sets = [sets[i] for i in indexes]
        groups.append(
            SuggestedGroup(names, core_cards(group_sets, core_share), _cohesion(group_sets))
        )
    return tuple(sorted(groups, key=lambda g: (-len(g.members), g.members[0])))


def _cohesion(sets: list[frozenset[str]]) -> float:
    if len(sets) < 2:
        return 1.0
    pairs = [(i, j) for i in range(len(sets)) for j in range(i + 1, len(sets))]
    return sum(jaccard(sets[i], sets[j]) for i, j in pairs) / len(pairs)


def core_cards(sets: list[frozenset[str]], share: float = DEFAULT_CORE_SHARE) -> tuple[str, ...]:
    """The names in at least `share` of the lists (at most `MAX_CORE_CARDS`, the most common
    first, then by name)."""
    if not sets:
        return ()
    counts: dict[str, int] = {}
    for s in sets:
        for name in s:
            counts[name] = counts.get(name, 0) + 1
    needed = math.ceil(share * len(sets) - 1e-9)
    common = [name for name, n in counts.items() if n >= needed]
    common.sort(key=lambda name: (-counts[name], name))
    return tuple(sorted(common[:MAX_CORE_CARDS]))


def core_rule(cards: tuple[str, ...], share: float = DEFAULT_CORE_SHARE) -> dict[str, Any]:
    """The archetype rule a named group becomes: at least `share` of its core cards."""
    if not cards:
        raise ClusteringError("core_cards", "a group without core cards makes no rule")
    return {"cards": list(cards), "at_least": max(1, math.ceil(share * len(cards) - 1e-9))}
