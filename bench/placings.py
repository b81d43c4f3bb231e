"""Benchmark: final placings of an 8,192-player championship (issue 21: < 1 s).

    .venv/bin/python bench/placings.py [--flights 4] [--flight-size 2048] [--runs 20]
                                       [--seed 2026]

The event (not timed): day 1 in ``--flights`` flights of ``--flight-size`` players with random
standings (points over 9 rounds, two tiebreakers), a carried day 2 for everyone on 18 points or
more, then a top 8. Each stage's outcome is the plain values the site would pass; then
``tournaments.placings.compute_placings`` runs ``--runs`` times and the median and the worst
are printed. The figure is printed, not asserted. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.placings import Elimination, StageOutcome, compute_placings
from tournaments.stages import FinalRow

GOAL_S = 1.0
DAY_TWO_POINTS = 18


def standings(ids: list[int], rng: random.Random, rounds: int) -> tuple[FinalRow, ...]:
    """Random standings rows, ranked as the standings core ranks them."""
    raw = [
        (
            3 * rng.randint(0, rounds),
            round(rng.uniform(0.33, 1), 4),
            round(rng.uniform(0.33, 1), 4),
            i,
        )
        for i in ids
    ]
    raw.sort(key=lambda r: (-r[0], -r[1], -r[2], r[3]))
    rows: list[FinalRow] = []
    for k, (points, omw, gw, pid) in enumerate(raw):
        same = rows and (rows[-1].points, rows[-1].tiebreakers) == (
            points,
            (("omw", omw), ("gw", gw)),
        )
        rank = rows[-1].rank if same else k + 1
        rows.append(FinalRow(pid, rank, points, (("omw", omw), ("gw", gw)), rng.random() < 0.02))
    return tuple(rows)


def build(flights: int, size: int, seed: int) -> list[StageOutcome]:
    rng = random.Random(seed)
    stages: list[StageOutcome] = []
    for f in range(flights):
        ids = list(range(f * size + 1, (f + 1) * size + 1))
        stages.append(StageOutcome(f + 1, "swiss", "finished", standing=standings(ids, rng, 9)))
    qualified = [
        r.registration
        for s in stages
        for r in s.standing
        if r.points >= DAY_TWO_POINTS and not r.dropped
    ]
    day_two = flights + 1
    day_two_rows = standings(qualified, rng, 14)
    stages.append(
        StageOutcome(
            day_two,
            "swiss",
            "finished",
            sources=tuple(range(1, flights + 1)),
            standing=day_two_rows,
        )
    )
    seeds = tuple(r.registration for r in day_two_rows if not r.dropped)[:8]
    gone = [Elimination(seeds[k], 1, "Quarterfinals") for k in (4, 5, 6, 7)]
    gone += [Elimination(seeds[k], 2, "Semifinals") for k in (2, 3)]
    gone.append(Elimination(seeds[1], 3, "Final"))
    stages.append(
        StageOutcome(
            day_two + 1,
            "single_elimination",
            "finished",
            sources=(day_two,),
            seeds=seeds,
            eliminated=tuple(gone),
            champion=seeds[0],
        )
    )
    return stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flights", type=int, default=4)
    parser.add_argument("--flight-size", type=int, default=2048)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    stages = build(args.flights, args.flight_size, args.seed)
    times: list[float] = []
    for _ in range(args.runs):
        start = time.perf_counter()
        placings = compute_placings(stages)
        times.append(time.perf_counter() - start)
    players = len(placings.rows)
    day_two = len(stages[-2].standing)
    print(
        f"placings of {players} players ({args.flights} flights, {day_two} in day 2, top 8): "
        f"median {statistics.median(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms "
        f"(goal < {GOAL_S * 1000:.0f} ms)"
    )


if __name__ == "__main__":
    main()
