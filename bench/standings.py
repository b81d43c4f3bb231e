"""Benchmark: the pure core's Swiss standings of 4,096 and 8,192 players after 12 rounds.

    .venv/bin/python bench/standings.py [--sizes 4096,8192] [--rounds 12] [--runs 30]
                                        [--seed 2026] [--no-settle]

For each size a seeded Swiss history is built first (not timed): every round paired by the
project's own core (``tournaments.swiss.pair_round``), random results (5% draws, best of three
with some three-game matches and the odd drawn game), about 2% of the field dropping after each
round (so odd fields give byes), a few players with byes granted at registration and a few late
entries, one of them entering with losses. Then ``tournaments.standings.compute_standings``
(validation included, as ``matches.services`` calls it) runs ``--runs`` times on that history
and the median and p95 are printed against the goal of issue 19 (< 50 ms at 4,096 players),
with the load average. The same call followed by reading every row's opponent lines and
tiebreaker values (built when first read), as the service does when it stores the standings,
``rank_summary`` (the ranking the pairing asks for before every round) and
``validate_history`` are timed the same way. ``--compare`` also times the core as it was
before issue 19 (kept as the reference of the property tests, in
tests/tournaments/standings_reference.py) on the same history, interleaved run by run with the
fast one, so both see the same load, and checks that both give the same rows. Not part of the
test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness

from tournaments.standings import (
    MatchRecord,
    Player,
    compute_standings,
    rank_summary,
    validate_history,
)
from tournaments.swiss import pair_round

GOAL_S = 0.050  # issue 19: 4,096 players after 12 rounds
GOAL_PLAYERS = 4096


def random_match(a: str, b: str, rng: random.Random) -> MatchRecord:
    x = rng.random()
    if x < 0.05:
        drawn = rng.random() < 0.3
        return MatchRecord(a, b, "draw", (1, 1, 1) if drawn else (1, 1, 0))
    lost = 1 if rng.random() < 0.4 else 0
    drawn_game = 1 if rng.random() < 0.03 else 0
    if x < 0.525:
        return MatchRecord(a, b, "a", (2, lost, drawn_game))
    return MatchRecord(a, b, "b", (lost, 2, drawn_game))


def history(n: int, n_rounds: int, seed: int) -> tuple[list[Player], list[list[MatchRecord]]]:
    """A Swiss event of ``n`` players paired by the project's core, with seeded results."""
    rng = random.Random(seed)
    players = []
    for i in range(n):
        pid = f"p{i + 1}"
        if i % 512 == 7:
            players.append(Player(pid, bye_rounds=(1, 2)))  # granted at registration
        elif i % 1024 == 9:
            players.append(Player(pid, late_entry_round=3, late_entry_losses=True))
        elif i % 1024 == 11:
            players.append(Player(pid, late_entry_round=2))
        else:
            players.append(Player(pid))
    rounds: list[list[MatchRecord]] = []
    for number in range(1, n_rounds + 1):
        result = pair_round(players, rounds, seed=seed)
        matches = [random_match(p.a, p.b, rng) for p in result.pairings]
        matches += [MatchRecord(pid) for pid in result.assigned_byes]
        if result.bye is not None:
            matches.append(MatchRecord(result.bye))
        rounds.append(matches)
        players = [
            Player(
                p.id,
                dropped=True,
                late_entry_round=p.late_entry_round,
                bye_rounds=p.bye_rounds,
                late_entry_losses=p.late_entry_losses,
            )
            if not p.dropped and p.late_entry_round <= number and rng.random() < 0.02
            else p
            for p in players
        ]
    return players, rounds


def read_everything(players: list[Player], rounds: list[list[MatchRecord]]) -> object:
    """compute_standings, then every row's opponent lines and tiebreaker values read, as the
    stored snapshot reads them (the rows build them when first read)."""
    rows = compute_standings(players, rounds)
    for row in rows:
        tuple(row.opponents)
        tuple(row.tiebreakers)
    return rows


def timed(call: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each run (the CPU time shows what other load cost)."""
    times, cpus = [], []
    for _ in range(runs):
        started, cpu = time.perf_counter(), time.process_time()
        result = call()
        times.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
        del result  # freeing the rows is the caller's time, after it used them
    return times, cpus


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def compare(players: list[Player], rounds: list[list[MatchRecord]], runs: int) -> None:
    """The old core against the fast one, run for run, on the same history."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "tournaments"))
    import standings_reference as reference

    old_rows = reference.compute_standings(players, rounds)
    same = repr(old_rows) == repr(compute_standings(players, rounds))
    fast, old, fast_cpu, old_cpu = [], [], [], []
    for _ in range(runs):
        for call, times, cpus in (
            (partial(compute_standings, players, rounds), fast, fast_cpu),
            (partial(reference.compute_standings, players, rounds), old, old_cpu),
        ):
            wall, cpu = timed(call, 1)
            times += wall
            cpus += cpu
    median = statistics.median
    print(
        f"   before issue 19 (reference core)  median {ms(median(old)):>9}, CPU median "
        f"{ms(median(old_cpu))}; now median {ms(median(fast))}, CPU median "
        f"{ms(median(fast_cpu))}: {median(old_cpu) / median(fast_cpu):.1f}x less CPU; "
        f"same rows: {'yes' if same else 'NO'}; load average {os.getloadavg()[0]:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="4096,8192")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-settle", action="store_true")
    parser.add_argument("--compare", action="store_true", help="also time the old core")
    args = parser.parse_args()

    for n in (int(s) for s in args.sizes.split(",")):
        started = time.perf_counter()
        players, rounds = history(n, args.rounds, args.seed + n)
        built = time.perf_counter() - started
        matches = sum(len(r) for r in rounds)
        byes = sum(m.b is None for r in rounds for m in r)
        dropped = sum(p.dropped for p in players)
        print(
            f"\n{n:,} players after {args.rounds} rounds: {matches:,} matches ({byes} byes), "
            f"{dropped} dropped; history paired by tournaments.swiss in {built:.1f} s"
        )
        if not args.no_settle:
            print(f"   {harness.settle()}")
        rows = compute_standings(players, rounds)
        goal = f"goal < {GOAL_S * 1000:.0f} ms at {GOAL_PLAYERS:,} players"
        for label, call in (
            ("compute_standings", partial(compute_standings, players, rounds)),
            ("  and every line read", partial(read_everything, players, rounds)),
            ("rank_summary (for the pairing)", partial(rank_summary, players, rounds)),
            ("validate_history", partial(validate_history, players, rounds)),
        ):
            times, cpus = timed(call, args.runs)
            median, p95 = statistics.median(times), harness.percentile(times, 95)
            verdict = ""
            if label == "compute_standings":
                verdict = f" ({goal}: {'ok' if median < GOAL_S else 'MISSED'})"
                if n != GOAL_PLAYERS:
                    verdict = f" ({goal})"
            print(
                f"   {label:<32} median {ms(median):>9}, p95 {ms(p95):>9} over {args.runs} runs"
                f"{verdict}; CPU median {ms(statistics.median(cpus))}; "
                f"load average {os.getloadavg()[0]:.2f}"
            )
        print(f"   leader {rows[0].player_id} on {rows[0].points} pts ({rows[0].record})")
        if args.compare:
            compare(players, rounds, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
