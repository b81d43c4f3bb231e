"""Swiss pairing: who plays whom next round, at which table, and why.

Pure code: no Django, no I/O outside :func:`main`, randomness only from the explicit seed.
The Django services build :class:`Player` and :class:`MatchRecord` values, call :func:`pair_round`
and store the :class:`PairingResult`. ``python -m tournaments.swiss`` is the same code behind
a JSON command line (see docs/swiss.md).

Notes on terminology
--------------------
score group
    The active players on the same number of match points.
pair-down
    A pairing of two players from different score groups; its *size* is the difference in
    match points ("paired down from 9 to 6 pts" has size 3). The higher player is "paired
    down", the lower one "paired up".
rematch
    Two players who already met in an earlier round (a bye is nobody's opponent).
bye
    With an odd number of active players one of them sits out and scores a match win. It goes
    to the lowest-ranked player who has not had one, before any pair-down is considered (Magic
    Tournament Rules, Pokemon TOM; rules README decision 11). For pairing, the bye is a phantom
    player at the bottom of the standings: giving it to someone above the lowest score group
    costs a pair-down from his score to the lowest.
pre-assigned bye
    A player whose ``Player.bye_rounds`` holds the round is not paired in it: he is listed in
    ``PairingResult.assigned_byes`` and the odd-field bye is decided among the others.
rank
    The order of the current standings (points, then the tiebreakers); full ties are ordered
    by a draw from the seed.

The pairing of a round after the first is a maximum-weight perfect matching on a graph whose
vertices are the active players (plus the phantom bye) and whose edge weights encode, in
strict priority (each level outweighs everything below it put together):

1. no rematch (allowed only when no rematch-free pairing exists, then as few as possible);
2. no second bye while a player without a bye can take it;
3. the bye with the lowest-ranked player who has not had one (a hard rule, before any
   pair-down: it goes higher only when every lower choice would force a rematch);
4. the smallest pair-downs: the sum over pair-downs of size squared, so one 9-v-3 pair-down
   (36) is worse than 9-v-6 plus 6-v-3 (9 + 9): X-0 players do not meet 0-X players while a
   chain of one-group pair-downs exists;
5. the fewest pair-downs;
6. who is paired down: the lowest ranked of the upper group, against the highest ranked of
   the lower one;
7. a seeded random draw among the pairings equal on all of the above.

Small fields use the complete graph. Larger ones first give the bye by rule 3 (the lowest-
ranked player without a bye), then pair the others score group by score group, each block a
small matching, and check the result against a lower bound that no pairing with that bye can
beat; when rematches put the bound out of reach, the complete graph (up to 400 players) or a
denser global matching takes over, with every bye choice open (docs/swiss.md). The graph,
its weights and the matching are :class:`tournaments.swiss_graph.PairingProblem`'s; this
module chooses the graph and reads the pairing from it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tournaments.standings import (
    DEFAULT_TIEBREAKERS,
    MatchRecord,
    Player,
    Scoring,
    StandingRow,
    StateError,
    _check_tiebreakers,
    compute_standings,
    rank_summary,
    validate_history,
)
from tournaments.swiss_graph import DENSE_BLOCK as DENSE_BLOCK
from tournaments.swiss_graph import PairingProblem

__all__ = [
    "MatchRecord",
    "Pairing",
    "PairingResult",
    "PairingStats",
    "Player",
    "Scoring",
    "StateError",
    "main",
    "pair_round",
    "parse_state",
    "recommended_structure",
]

# Up to this many active players the complete graph is used directly (it is fast enough and
# exact); above it, a sparse candidate graph checked against the lower bound.
FULL_GRAPH_LIMIT = 64
# Dense fallback graph: each player gets 2 x this many random candidates in his own score group
# and in each of the next two; pairs of groups small enough are complete.
SPARSE_DEGREE = 8
BLOCK_DEGREE = 4  # per player inside a big score group; the matching there is the hot spot
# When the lower bound is out of reach, the complete graph proves the optimum up to this many
# active players (a few seconds at most); above it the score-group result is kept, flagged.
COMPLETE_FALLBACK_LIMIT = 400
# The bye reason when each lower-ranked player without a bye would have forced a rematch.
BYE_MOVED_UP = "bye: lowest ranked without a bye whose bye forces no rematch"


@dataclass(frozen=True)
class Pairing:
    """One match of the new round. ``a`` is the higher-ranked player."""

    table: int
    a: str
    b: str
    reason: str
    rematch: bool = False
    pair_down: int = 0  # size in match points, 0 within a score group


@dataclass(frozen=True)
class PairingStats:
    """How the pairing was found and what it costs."""

    rematches: int = 0
    second_byes: int = 0
    pair_downs: int = 0
    pair_down_total: int = 0  # sum of sizes, in match points
    pair_down_squares: int = 0
    # nobody can do better than this, rematches ignored (so with the bye by rule: the
    # lowest-ranked player without a bye, or the lowest ranked when all had one)
    lower_bound_squares: int = 0
    proven_optimal: bool = True  # rematches, second byes and pair-downs are the optimum
    graph: str = "none"  # "round 1", "complete", "sparse", "dense"
    edges: int = 0


@dataclass(frozen=True)
class PairingResult:
    round_number: int
    pairings: tuple[Pairing, ...]
    bye: str | None
    bye_reason: str | None
    stats: PairingStats = field(default_factory=PairingStats)
    # players given a pre-assigned bye this round (``Player.bye_rounds``), in id order; not
    # counted in ``bye``, which is the odd-field bye among the others
    assigned_byes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "pairings": [
                {"table": p.table, "a": p.a, "b": p.b, "reason": p.reason} for p in self.pairings
            ],
            "bye": self.bye,
            "bye_reason": self.bye_reason,
            "assigned_byes": list(self.assigned_byes),
            "stats": {
                "rematches": self.stats.rematches,
                "second_byes": self.stats.second_byes,
                "pair_downs": self.stats.pair_downs,
                "pair_down_total": self.stats.pair_down_total,
                "proven_optimal": self.stats.proven_optimal,
                "graph": self.stats.graph,
                "edges": self.stats.edges,
            },
        }


def recommended_structure(n_players: int) -> tuple[int, int]:
    """(Swiss rounds, top cut) for an attendance, after Magic Tournament Rules Appendix E.

    8 or fewer: 3 rounds, no cut (2 players: 1 round); 9-16: 5 rounds, top 4; 17-32: 5, top 8;
    33-64: 6; 65-128: 7; 129-226: 8; 227-409: 9; 410 or more: 10, all top 8.
    """
    if n_players < 2:
        return (0, 0)
    if n_players == 2:
        return (1, 0)
    if n_players <= 8:
        return (3, 0)
    if n_players <= 16:
        return (5, 4)
    for limit, rounds in ((32, 5), (64, 6), (128, 7), (226, 8), (409, 9)):
        if n_players <= limit:
            return (rounds, 8)
    return (10, 8)


# --------------------------------------------------------------------------------------------
# Pairing


def pair_round(
    players: Sequence[Player],
    rounds: Sequence[Sequence[MatchRecord]],
    scoring: Scoring | None = None,
    seed: int | str = 0,
    round_number: int | None = None,
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
    *,
    full_graph_limit: int = FULL_GRAPH_LIMIT,
    complete_fallback_limit: int = COMPLETE_FALLBACK_LIMIT,
) -> PairingResult:
    """Pair the next round.

    ``rounds`` are the finished rounds, in order; ``round_number`` (default: the next one)
    must be ``len(rounds) + 1``. Dropped players and late entries whose round has not come are
    left out; players with a pre-assigned bye for the round (``Player.bye_rounds``) are left
    out of the pairing and returned in ``assigned_byes``. Round 1 is random from ``seed`` (or top half v bottom half when players carry
    ``seeding`` values); later rounds are a maximum-weight matching (module docstring).
    Raises :class:`StateError` on inconsistent input. The same input and seed give the same
    result (but for exact ties of the whole weight, next to tournaments.swiss_graph.RANDOM_SPAN).
    """
    scoring = scoring or Scoring()
    scoring.validate()
    validate_history(players, rounds)
    _check_tiebreakers(tiebreakers)
    if round_number is None:
        round_number = len(rounds) + 1
    if round_number != len(rounds) + 1:
        raise StateError("round", f"must be {len(rounds) + 1}, the round after those given")
    rng = random.Random(f"battledesk-swiss:{seed}:{round_number}")
    entered = [p for p in players if not p.dropped and p.late_entry_round <= round_number]
    assigned = tuple(sorted(p.id for p in entered if round_number in p.bye_rounds))
    active = [p for p in entered if round_number not in p.bye_rounds]
    if round_number == 1 or not any(rounds):
        result = _pair_first_round(active, rng, round_number, seed)
    else:
        standings = rank_summary(players, rounds, scoring, tiebreakers)
        result = _pair_by_matching(
            active, rounds, standings, rng, round_number, full_graph_limit, complete_fallback_limit
        )
    if assigned:
        result = replace(result, assigned_byes=assigned)
    return result


def _pair_first_round(
    active: Sequence[Player], rng: random.Random, round_number: int, seed: int | str
) -> PairingResult:
    seeded = any(p.seeding is not None for p in active)
    if seeded:
        order = sorted(active, key=lambda p: (-(p.seeding or 0.0), p.id))
    else:
        order = list(active)
        rng.shuffle(order)
    bye_id: str | None = None
    bye_reason: str | None = None
    if len(order) % 2:
        bye_id = order.pop().id
        bye_reason = "bye: lowest seed" if seeded else "bye: odd field, drawn at random"
    pairs: list[tuple[Player, Player, str]] = []
    if seeded:
        half = len(order) // 2
        for i in range(half):
            reason = f"round 1 by seeding: seed {i + 1} v seed {i + 1 + half}"
            pairs.append((order[i], order[i + half], reason))
    else:
        for i in range(0, len(order), 2):
            pairs.append((order[i], order[i + 1], f"round 1: random from seed {seed}"))
    pairings = _number_tables([(a, b, reason, False, 0) for a, b, reason in pairs])
    return PairingResult(round_number, pairings, bye_id, bye_reason, PairingStats(graph="round 1"))


def _number_tables(
    pairs: Sequence[tuple[Player, Player, str, bool, int]],
) -> tuple[Pairing, ...]:
    """Honour fixed tables; number the others 1, 2, ... in the given (standings) order."""
    taken: set[int] = set()
    table_of: list[int | None] = []
    for a, b, *_ in pairs:
        table = None
        for p in (a, b):
            if p.fixed_table is not None and p.fixed_table not in taken:
                table = p.fixed_table
                break
        if table is not None:
            taken.add(table)
        table_of.append(table)
    next_table = 1
    out: list[Pairing] = []
    for (a, b, reason, rematch, size), table in zip(pairs, table_of, strict=True):
        if table is None:
            while next_table in taken:
                next_table += 1
            table = next_table
            next_table += 1
        out.append(Pairing(table, a.id, b.id, reason, rematch, size))
    return tuple(sorted(out, key=lambda p: p.table))


def _pair_by_matching(
    active: Sequence[Player],
    rounds: Sequence[Sequence[MatchRecord]],
    standings: Sequence[tuple[int, str, int, int]],
    rng: random.Random,
    round_number: int,
    full_graph_limit: int,
    complete_fallback_limit: int,
) -> PairingResult:
    prob = PairingProblem(active, rounds, standings, rng)
    if prob.n == 0:
        return PairingResult(round_number, (), None, None, PairingStats(graph="empty"))
    bound = prob.lower_bound()
    pairs: list[tuple[int, int]] | None = None
    graph = "complete"
    edges: Sequence[tuple[int, int]] = ()
    if prob.n > full_graph_limit:
        # The bye by rule first, then score group by score group: small matchings over
        # rematch-free edges. Proven optimal when it meets the lower bound, which no pairing
        # on any graph can beat; otherwise rematches may force the bye higher, and the global
        # matchings below weigh every bye choice.
        pairs = prob.blockwise_with_bye(rng, BLOCK_DEGREE)
        if pairs is not None and _certified(prob, pairs, bound):
            return _result(
                prob, pairs, bound, round_number, "by score group", prob.block_edges, True
            )
        if prob.n > complete_fallback_limit:
            # Rematches push the pairing above the bound, and the complete graph, the only
            # proof, is too slow at this size. One global matching on a denser graph near each
            # player's score (rematch edges allowed, at their price) that also holds the
            # score-group pairing, so it can only improve on it; the result is flagged.
            edges = prob.sparse_edges(rng, 2 * SPARSE_DEGREE, 2, rematches=True)
            if pairs is not None:
                known = set(edges)
                edges.extend(p for p in pairs if p not in known)
            dense = prob.match(edges)
            assert dense is not None or pairs is None
            if dense is not None:
                pairs = dense
            if pairs is not None:
                proven = _certified(prob, pairs, bound)
                return _result(prob, pairs, bound, round_number, "dense", len(edges), proven)
        # Up to complete_fallback_limit players the complete graph proves the optimum.
        pairs = None
    if pairs is None:
        graph = "complete"
        edges = prob.complete_edges()
        pairs = prob.match(edges)
        assert pairs is not None  # a complete graph with an even vertex count has one
    return _result(prob, pairs, bound, round_number, graph, len(edges), True)


def _certified(
    prob: PairingProblem, pairs: Iterable[tuple[int, int]], bound: tuple[int, int]
) -> bool:
    """No rematch, the bye by rule and (second byes, squared pair-downs) at the lower bound:
    optimal."""
    pairs = list(pairs)
    rematches, rebyes, squares, _ = _costs(prob, pairs)
    bye_pos = next((i for i, j in pairs if j == prob.bye_vertex), None)
    if bye_pos is not None and not prob.bye_is_by_rule(bye_pos):
        return False
    return rematches == 0 and (rebyes, squares) == bound


def _costs(prob: PairingProblem, pairs: Iterable[tuple[int, int]]) -> tuple[int, int, int, int]:
    """(rematches, second byes, sum of squared pair-downs, pair-downs)."""
    rematches = rebyes = squares = count = 0
    for i, j in pairs:
        if j == prob.bye_vertex:
            rebyes += prob.had_bye[i]
            d = prob.points[i] - prob.bottom
        else:
            rematches += j in prob.played[i]
            d = prob.points[i] - prob.points[j]
        squares += d * d
        count += d != 0
    return rematches, rebyes, squares, count


def _result(
    prob: PairingProblem,
    pairs: Sequence[tuple[int, int]],
    bound: tuple[int, int],
    round_number: int,
    graph: str,
    n_edges: int,
    proven: bool,
) -> PairingResult:
    rematches, rebyes, squares, _ = _costs(prob, pairs)
    # Boundaries crossed by more pairings than parity requires were crossed to avoid a rematch.
    odd_boundary: list[bool] = []
    above = 0
    for g in range(len(prob.groups) - 1):
        above += len(prob.groups[g])
        odd_boundary.append(above % 2 == 1)
    crossings = [0] * len(odd_boundary)
    real = [(i, j) for i, j in pairs if j != prob.bye_vertex]
    bye_pos = next((i for i, j in pairs if j == prob.bye_vertex), None)
    for i, j in real:
        for boundary in range(prob.group_of[i], prob.group_of[j]):
            crossings[boundary] += 1
    if bye_pos is not None:
        for boundary in range(prob.group_of[bye_pos], len(odd_boundary)):
            crossings[boundary] += 1

    items: list[tuple[Player, Player, str, bool, int]] = []
    pair_downs = total = 0
    for i, j in real:
        a, b = prob.players[i], prob.players[j]
        pa, pb = prob.points[i], prob.points[j]
        rematch = j in prob.played[i]
        if pa == pb:
            reason = f"same score group ({pa} pts)"
        else:
            pair_downs += 1
            total += pa - pb
            reason = f"paired down from {pa} to {pb} pts"
            spans = range(prob.group_of[i], prob.group_of[j])
            if len(spans) > 1 or any(crossings[s] > int(odd_boundary[s]) for s in spans):
                reason += "; rematch avoided"
        if rematch:
            reason += "; rematch: no rematch-free pairing exists"
        items.append((a, b, reason, rematch, pa - pb))

    bye_id = bye_reason = None
    if bye_pos is not None:
        bye_id = prob.players[bye_pos].id
        if prob.had_bye[bye_pos]:
            bye_reason = "second bye: no player without a bye could take it"
        elif prob.bye_is_by_rule(bye_pos):
            bye_reason = "bye: lowest ranked without a bye"
        else:
            bye_reason = BYE_MOVED_UP
    stats = PairingStats(
        rematches=rematches,
        second_byes=rebyes,
        pair_downs=pair_downs,
        pair_down_total=total,
        pair_down_squares=squares,
        lower_bound_squares=bound[1],
        proven_optimal=proven,
        graph=graph,
        edges=n_edges,
    )
    return PairingResult(round_number, _number_tables(items), bye_id, bye_reason, stats)


# --------------------------------------------------------------------------------------------
# JSON state and command line


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    rounds: tuple[tuple[MatchRecord, ...], ...]
    scoring: Scoring
    seed: int | str
    tiebreakers: tuple[str, ...]


def _req(obj: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in obj:
        raise StateError(key if path == "$" else f"{path}.{key}", "is required")
    return obj[key]


def _int_list(value: Any, size: int, path: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != size:
        raise StateError(path, f"must be a list of {size} non-negative integers")
    for k, v in enumerate(value):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise StateError(f"{path}[{k}]", "must be a non-negative integer")
    return tuple(value)


def parse_state(data: Any) -> State:
    """Build a :class:`State` from decoded STATE.json, raising :class:`StateError`."""
    if not isinstance(data, dict):
        raise StateError("$", "must be a JSON object")
    raw_players = _req(data, "players", "$")
    if not isinstance(raw_players, list):
        raise StateError("players", "must be a list")
    players: list[Player] = []
    for i, rp in enumerate(raw_players):
        path = f"players[{i}]"
        if not isinstance(rp, dict):
            raise StateError(path, "must be an object")
        pid = _req(rp, "id", path)
        if not isinstance(pid, str) or not pid:
            raise StateError(f"{path}.id", "must be a non-empty string")
        dropped = rp.get("dropped", False)
        if not isinstance(dropped, bool):
            raise StateError(f"{path}.dropped", "must be true or false")
        table = rp.get("fixed_table")
        if table is not None and (not isinstance(table, int) or isinstance(table, bool)):
            raise StateError(f"{path}.fixed_table", "must be a positive integer or null")
        late = rp.get("late_entry_round", 1)
        if not isinstance(late, int) or isinstance(late, bool):
            raise StateError(f"{path}.late_entry_round", "must be an integer >= 1")
        seeding = rp.get("seeding")
        if seeding is not None and (
            not isinstance(seeding, int | float) or isinstance(seeding, bool)
        ):
            raise StateError(f"{path}.seeding", "must be a number or null")
        bye_rounds = rp.get("bye_rounds", [])
        if not isinstance(bye_rounds, list):
            raise StateError(f"{path}.bye_rounds", "must be a list of round numbers")
        for k, r in enumerate(bye_rounds):
            if not isinstance(r, int) or isinstance(r, bool) or r < 1:
                raise StateError(f"{path}.bye_rounds[{k}]", "must be a round number >= 1")
        late_losses = rp.get("late_entry_losses", False)
        if not isinstance(late_losses, bool):
            raise StateError(f"{path}.late_entry_losses", "must be true or false")
        players.append(Player(pid, dropped, late, table, seeding, tuple(bye_rounds), late_losses))

    raw_rounds = data.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise StateError("rounds", "must be a list")
    rounds: list[tuple[MatchRecord, ...]] = []
    for r, raw_round in enumerate(raw_rounds):
        if not isinstance(raw_round, list):
            raise StateError(f"rounds[{r}]", "must be a list of matches")
        matches: list[MatchRecord] = []
        for m, rm in enumerate(raw_round):
            path = f"rounds[{r}][{m}]"
            if not isinstance(rm, dict):
                raise StateError(path, "must be an object")
            a = _req(rm, "a", path)
            if not isinstance(a, str):
                raise StateError(f"{path}.a", "must be a player id")
            is_bye = rm.get("bye", False)
            if not isinstance(is_bye, bool):
                raise StateError(f"{path}.bye", "must be true or false")
            if is_bye:
                if rm.get("b") is not None:
                    raise StateError(f"{path}.b", "a bye has no opponent")
                matches.append(MatchRecord(a=a))
                continue
            b = _req(rm, "b", path)
            if not isinstance(b, str):
                raise StateError(f"{path}.b", "must be a player id")
            if a == b:
                raise StateError(f"{path}.b", "a player cannot play himself")
            result = _req(rm, "result", path)
            if result not in ("a", "b", "draw"):
                raise StateError(f"{path}.result", 'must be "a", "b" or "draw"')
            games = _int_list(rm.get("games", [0, 0, 0]), 3, f"{path}.games")
            penalties = _int_list(rm.get("penalties", [0, 0]), 2, f"{path}.penalties")
            battles = rm.get("battles")
            if battles is not None:
                battles = _int_list(battles, 2, f"{path}.battles")
            matches.append(MatchRecord(a, b, result, games, penalties, battles))  # type: ignore[arg-type]
        rounds.append(tuple(matches))

    raw_scoring = data.get("scoring")
    if raw_scoring is None:
        raw_scoring = {}
    if not isinstance(raw_scoring, dict):
        raise StateError("scoring", "must be an object")
    known = {"win", "draw", "loss", "bye_games", "game_win", "game_draw", "floor"}
    for key in raw_scoring:
        if key not in known:
            raise StateError(f"scoring.{key}", "unknown scoring field")
    kwargs = dict(raw_scoring)
    if "bye_games" in kwargs:
        kwargs["bye_games"] = _int_list(kwargs["bye_games"], 2, "scoring.bye_games")
    if "floor" in kwargs and (
        not isinstance(kwargs["floor"], int | float) or isinstance(kwargs["floor"], bool)
    ):
        raise StateError("scoring.floor", "must be a number")
    scoring = Scoring(**kwargs)
    scoring.validate()

    seed = data.get("seed", 0)
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise StateError("seed", "must be an integer or a string")
    tiebreakers = data.get("tiebreakers", list(DEFAULT_TIEBREAKERS))
    if not isinstance(tiebreakers, list):
        raise StateError("tiebreakers", "must be a list")
    _check_tiebreakers(tiebreakers)
    validate_history(players, rounds)
    return State(tuple(players), tuple(rounds), scoring, seed, tuple(tiebreakers))


def standings_to_json(rows: Sequence[StandingRow]) -> dict[str, Any]:
    def pct(x: float) -> float:
        return round(x, 6)

    return {
        "standings": [
            {
                "rank": row.rank,
                "id": row.player_id,
                "points": row.points,
                "record": row.record,
                "byes": row.byes,
                "dropped": row.dropped,
                "match_win_pct": pct(row.match_win_pct),
                "game_win_pct": pct(row.game_win_pct),
                "tiebreakers": {
                    name: (pct(value) if isinstance(value, float) else value)
                    for name, value in row.tiebreakers
                },
                "games": list(row.games),
                "battle_differential": row.battle_differential,
                "opponents": [
                    {
                        "round": o.round,
                        "opponent": o.opponent,
                        "result": o.result,
                        "games": list(o.games),
                        "opponent_match_win_pct": pct(o.opponent_match_win_pct),
                        "opponent_game_win_pct": pct(o.opponent_game_win_pct),
                    }
                    for o in row.opponents
                ],
                "bye_rounds": list(row.bye_rounds),
                "late_entry_loss_rounds": list(row.late_entry_loss_rounds),
            }
            for row in rows
        ]
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tournaments.swiss {pair,standings} STATE.json``; exit 2 on bad input."""
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.swiss",
        description="Battledesk Swiss pairing and standings on a JSON state (docs/swiss.md).",
    )
    parser.add_argument("command", choices=("pair", "standings"))
    parser.add_argument("state", help="path to STATE.json, or - for standard input")
    parser.add_argument("--timing", action="store_true", help="print the time taken on stderr")
    args = parser.parse_args(argv)
    try:
        if args.state == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.state, encoding="utf-8") as fh:
                data = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        print(json.dumps({"error": str(exc), "field": "$"}), file=sys.stderr)
        return 2
    try:
        state = parse_state(data)
        started = time.perf_counter()
        if args.command == "pair":
            out = pair_round(
                state.players, state.rounds, state.scoring, state.seed, None, state.tiebreakers
            ).to_json()
        else:
            out = standings_to_json(
                compute_standings(state.players, state.rounds, state.scoring, state.tiebreakers)
            )
        elapsed = time.perf_counter() - started
    except StateError as exc:
        print(json.dumps({"error": exc.message, "field": exc.field}), file=sys.stderr)
        return 2
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    if args.timing:
        print(f"{args.command}: {elapsed * 1000:.1f} ms", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # The reader closed the pipe early (`| head`): not a failure of the command.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
