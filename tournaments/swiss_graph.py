"""The Swiss pairing as a graph (pure: no Django): :class:`PairingProblem` holds everything the
edge weights need, indexed by rank position, builds the candidate graphs (complete, sparse,
score group by score group) and finds a maximum-weight matching with rustworkx.
:func:`tournaments.swiss.pair_round` decides which graph to use and reads the result; the
weights and their priorities are described in :mod:`tournaments.swiss`'s docstring.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import rustworkx as rx

from tournaments.standings import MatchRecord, Player

DENSE_BLOCK = 1024  # |group g| x |group h| at most this: all pairs between g and h
# Lowest-priority random weight per edge: 0 .. RANDOM_SPAN - 1. Wide, because the matching
# library (rustworkx) may return either of two pairings whose total weights are exactly equal,
# and not always the same one: with 64 values such exact ties made about one round in 3,000
# differ between two runs of the same input; with 2**16 they are about a thousand times rarer.
# Every weight level (PairingProblem._setup) is scaled by it and stays inside rustworkx's 128-bit weights up to
# 10,000 players (tests/tournaments/test_swiss_pairing.py checks the bound).
RANDOM_SPAN = 1 << 16
_MIX = 0x9E3779B97F4A7C15  # 2**64 / golden ratio: spreads the XOR of two draws over 64 bits
_MASK64 = (1 << 64) - 1


class PairingProblem:
    """Everything the weight function needs, indexed by rank position (0 = top)."""

    def __init__(
        self,
        active: Sequence[Player],
        rounds: Sequence[Sequence[MatchRecord]],
        standings: Sequence[tuple[int, str, int, int]],
        rng: random.Random,
    ) -> None:
        row_of = {pid: (rank, points, byes) for rank, pid, points, byes in standings}
        draw = {p.id: rng.random() for p in active}
        self.players = sorted(active, key=lambda p: (row_of[p.id][0], draw[p.id], p.id))
        self.rank = [row_of[p.id][0] for p in self.players]
        self.points = [row_of[p.id][1] for p in self.players]
        self.had_bye = [row_of[p.id][2] > 0 for p in self.players]
        self.random = [rng.getrandbits(62) for _ in self.players]
        index = {p.id: i for i, p in enumerate(self.players)}
        self.played: list[set[int]] = [set() for _ in self.players]
        for matches in rounds:
            for match in matches:
                if match.b is not None and match.a in index and match.b in index:
                    i, j = index[match.a], index[match.b]
                    self.played[i].add(j)
                    self.played[j].add(i)
        self._setup()

    def without(self, k: int) -> tuple[PairingProblem, list[int]]:
        """The same problem with position k left out (he has the bye), and the old positions."""
        keep = [i for i in range(self.n) if i != k]
        new_of = {old: new for new, old in enumerate(keep)}
        sub = object.__new__(PairingProblem)
        sub.players = [self.players[i] for i in keep]
        sub.rank = [self.rank[i] for i in keep]
        sub.points = [self.points[i] for i in keep]
        sub.had_bye = [self.had_bye[i] for i in keep]
        sub.random = [self.random[i] for i in keep]
        sub.played = [{new_of[j] for j in self.played[i] if j != k} for i in keep]
        sub._setup()
        return sub, keep

    def _setup(self) -> None:
        self.n = len(self.players)
        # score groups, top down, as lists of positions
        self.groups: list[list[int]] = []
        self.group_of: list[int] = []
        for i, pts in enumerate(self.points):
            if not self.groups or self.points[self.groups[-1][0]] != pts:
                self.groups.append([])
            self.groups[-1].append(i)
            self.group_of.append(len(self.groups) - 1)
        self.needs_bye = self.n % 2 == 1
        self.block_edges = 0
        self.bye_vertex = self.n  # the phantom
        self.bottom = self.points[-1] if self.points else 0
        self.pos_in_group = [0] * self.n
        self.below_in_group = [0] * self.n
        for members in self.groups:
            for k, i in enumerate(members):
                self.pos_in_group[i] = k
                self.below_in_group[i] = len(members) - 1 - k
        # bye position: how many players rank strictly below (full ties count as one place, so
        # the pair-downs decide between tied players)
        self.rank_below = [0] * self.n
        below = 0
        for i in range(self.n - 1, -1, -1):
            if i < self.n - 1 and self.rank[i] != self.rank[i + 1]:
                below = self.n - 1 - i
            self.rank_below[i] = below
        # weight levels: each unit exceeds the largest possible total of all levels below
        m = self.n // 2 + 1
        spread = (self.points[0] - self.bottom) if self.points else 0
        self.u_pos = m * RANDOM_SPAN
        self.u_count = self.u_pos * (2 * self.n * m + 1)
        self.u_square = self.u_count * (m + 1)
        self.u_place = self.u_square * (m * spread * spread + 1)
        self.u_rebye = self.u_place * (self.n + 1)
        self.u_rematch = self.u_rebye * 2
        self.base = self.u_rematch * (m + 1)

    def noise(self, i: int, j: int) -> int:
        """The seeded random part of an edge weight, symmetric in i and j."""
        mixed = ((self.random[i] ^ self.random[j]) * _MIX) & _MASK64
        return (mixed ^ (mixed >> 29)) % RANDOM_SPAN

    def weight(self, i: int, j: int) -> int:
        """Weight of the edge i-j, i above j (j may be the phantom bye); higher is better."""
        if j == self.bye_vertex:
            cost = self.rank_below[i] * self.u_place
            if self.had_bye[i]:
                cost += self.u_rebye
            d = self.points[i] - self.bottom
            if d:
                cost += self.u_count + d * d * self.u_square
            return self.base - cost
        cost = self.noise(i, j)
        if j in self.played[i]:
            cost += self.u_rematch
        d = self.points[i] - self.points[j]
        if d:
            # the lowest ranked of the upper group meets the highest ranked of the lower one
            cost += self.u_count + d * d * self.u_square
            cost += (self.below_in_group[i] + self.pos_in_group[j]) * self.u_pos
        return self.base - cost

    def bye_by_rule(self) -> int | None:
        """Who gets the bye when rematches allow: the lowest-ranked player without a bye (the
        lowest ranked of all when everyone had one); among full ties, the lowest in the draw."""
        if not self.needs_bye:
            return None
        fresh = [i for i in range(self.n) if not self.had_bye[i]]
        return fresh[-1] if fresh else self.n - 1

    def bye_is_by_rule(self, i: int) -> bool:
        """Is a bye for position i as low as the rule allows (full ties are equal)?"""
        rule = self.bye_by_rule()
        return rule is not None and (
            self.had_bye[i] == self.had_bye[rule] and self.rank_below[i] == self.rank_below[rule]
        )

    def lower_bound(self) -> tuple[int, int]:
        """(second byes, sum of squared pair-downs) that no pairing can beat, rematches ignored.

        Rematches ignored, the bye goes by rule (:meth:`bye_by_rule`), which costs its own
        pair-down to the bottom score. Of the others, every boundary between score groups with
        an odd number of players above it must be crossed by a pairing, and a pairing across
        boundaries costs at least the sum of their squared gaps; the chain of one-step
        pair-downs reaches the bound when rematches allow.
        """
        rule = self.bye_by_rule()
        rebye = 1 if rule is not None and self.had_bye[rule] else 0
        squares = 0
        if rule is not None:
            d = self.points[rule] - self.bottom
            squares += d * d
        above = 0
        for g in range(len(self.groups) - 1):
            above += sum(1 for i in self.groups[g] if i != rule)
            if above % 2:
                gap = self.points[self.groups[g][0]] - self.points[self.groups[g + 1][0]]
                squares += gap * gap
        return rebye, squares

    def complete_edges(self) -> list[tuple[int, int]]:
        edges = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        if self.needs_bye:
            edges.extend((i, self.bye_vertex) for i in range(self.n))
        return edges

    def sparse_edges(
        self, rng: random.Random, degree: int, window: int, rematches: bool
    ) -> list[tuple[int, int]]:
        """Candidate edges: near-score groups only, random samples inside big blocks."""
        seen: dict[tuple[int, int], None] = {}
        groups = self.groups
        for g, members in enumerate(groups):
            for h in range(g, min(len(groups), g + window + 1)):
                other = groups[h]
                if len(members) * len(other) <= DENSE_BLOCK:
                    for i in members:
                        for j in other:
                            if i < j:
                                seen[(i, j)] = None
                    continue
                pick, size = rng.random, len(other)
                for i in members:
                    for j in (other[int(pick() * size)] for _ in range(degree)):
                        if i != j:
                            seen[(i, j) if i < j else (j, i)] = None
        edges = [e for e in seen if rematches or e[1] not in self.played[e[0]]]
        if self.needs_bye:
            edges.extend((i, self.bye_vertex) for i in range(self.n))
        return edges

    def blockwise(self, rng: random.Random, degree: int) -> list[tuple[int, int]] | None:
        """Pair score group by score group, top down, each block as its own small matching.

        A block is a score group plus the player paired down into it. If it has an odd number
        of players, one of its players who can still meet someone below is paired down into
        the next block (the lowest ranked, other things equal); the bottom block takes the
        bye. A block that cannot be paired without rematches is merged with the next score
        group, and so on. Only rematch-free edges are used; None when even the merged blocks
        cannot be paired that way. When the result meets the lower bound it is optimal.
        """
        out: list[tuple[int, int]] = []
        incoming: int | None = None
        last = len(self.groups) - 1
        self.block_edges = 0
        g = 0
        while g <= last:
            h = g
            solved = self._solve_block(rng, degree, g, h, incoming)
            while solved is None:
                if h == last:
                    return None
                h += 1
                solved = self._solve_block(rng, degree, g, h, incoming)
            pairs, incoming = solved
            out.extend(pairs)
            g = h + 1
        return sorted(out)

    def blockwise_with_bye(self, rng: random.Random, degree: int) -> list[tuple[int, int]] | None:
        """:meth:`blockwise` with the bye given by rule first, the others paired without him."""
        k = self.bye_by_rule()
        if k is None:
            return self.blockwise(rng, degree)
        sub, keep = self.without(k)
        pairs = sub.blockwise(rng, degree)
        self.block_edges = sub.block_edges
        if pairs is None:
            return None
        return sorted([(keep[i], keep[j]) for i, j in pairs] + [(k, self.bye_vertex)])

    def _solve_block(
        self, rng: random.Random, degree: int, g: int, h: int, incoming: int | None
    ) -> tuple[list[tuple[int, int]], int | None] | None:
        """Match score groups g..h plus ``incoming``; (pairs, player paired down) or None."""
        groups = self.groups
        members = [i for k in range(g, h + 1) for i in groups[k]]
        verts = ([incoming] if incoming is not None else []) + members
        is_last = h == len(groups) - 1
        special_needed = len(verts) % 2 == 1
        if is_last and special_needed != self.needs_bye:
            return None
        local = {v: k for k, v in enumerate(verts)}
        special = len(verts)
        played = self.played
        seen: dict[tuple[int, int], None] = {}

        def add(i: int, j: int) -> None:
            if i != j and j not in played[i]:
                seen[(i, j) if i < j else (j, i)] = None

        pick = rng.random
        for a in range(g, h + 1):
            for b in range(a, h + 1):
                top, bottom = groups[a], groups[b]
                if len(top) * len(bottom) <= DENSE_BLOCK:
                    for i in top:
                        for j in bottom:
                            add(i, j)
                    continue
                directions = [(top, bottom), (bottom, top)] if a != b else [(top, top)]
                for x, y in directions:
                    size = len(y)
                    for i in x:
                        for _ in range(degree):
                            add(i, y[int(pick() * size)])
        if incoming is not None:
            for j in members:
                add(incoming, j)
        edges = [(local[i], local[j], self.weight(i, j)) for i, j in seen]
        if special_needed:
            if is_last:  # the phantom bye, for those who have not had one
                for j in members:
                    if not self.had_bye[j]:
                        edges.append((local[j], special, self.weight(j, self.bye_vertex)))
            else:  # the pair-down: someone with an unmet player in the next group
                below = groups[h + 1]
                room, nxt, points = len(below), h + 1, self.points[below[0]]
                for j in members:
                    if sum(self.group_of[x] == nxt for x in played[j]) < room:
                        d = self.points[j] - points
                        cost = self.u_count + d * d * self.u_square
                        cost += self.below_in_group[j] * self.u_pos
                        edges.append((local[j], special, self.base - cost))
        graph: rx.PyGraph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(special + (1 if special_needed else 0)))
        graph.add_edges_from(edges)
        self.block_edges += len(edges)
        mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
        if 2 * len(mate) != len(graph):
            return None
        pairs: list[tuple[int, int]] = []
        floater: int | None = None
        for u, v in mate:
            if special in (u, v):
                player = verts[u if v == special else v]
                if is_last:
                    pairs.append((player, self.bye_vertex))
                else:
                    floater = player
            else:
                i, j = verts[u], verts[v]
                pairs.append((i, j) if i < j else (j, i))
        return pairs, floater

    def match(self, edges: Sequence[tuple[int, int]]) -> list[tuple[int, int]] | None:
        """Max-weight perfect matching on ``edges``, or None if the graph has none."""
        graph: rx.PyGraph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(self.n + (1 if self.needs_bye else 0)))
        graph.add_edges_from([(i, j, self.weight(i, j)) for i, j in edges])
        mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
        pairs = sorted((min(i, j), max(i, j)) for i, j in mate)
        if 2 * len(pairs) != self.n + (1 if self.needs_bye else 0):
            return None
        return pairs


def _identity(weight: int) -> int:
    return weight
