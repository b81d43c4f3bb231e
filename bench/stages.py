"""Benchmark: an 8,192-player championship in 4 flights of 2,048 on PostgreSQL (issue 21).

    .venv/bin/python bench/stages.py [--flights 4] [--flight-size 2048] [--rounds 3]
                                     [--points 6] [--seed 2026]

Two figures, each against its goal (printed, not asserted):

1. each flight's round paired and written through ``matches.services.round_pair`` (``stage``
   naming the flight; the Celery task forced eager, so the time covers the whole call: locks,
   the round row, the flight's history, the Swiss core, writing the matches); goal < 3 s. The
   last day-1 round (with the most history) of every flight is the figure;
2. day 2: ``services.stage_start_service`` merging the flights' frozen final standings (every
   player on ``--points`` or more), then its round 1 paired with the carried records of every
   flight (no rematch of day 1) through ``round_pair``; goal < 3 s for the pairing, the start
   printed beside it.

The event lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_stages,
or BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench").
Every run deletes the previous run's event and players and builds them again: users and
registrations in bulk, the stages written from ``tournaments.stages.preset_flights``, every
round paired and published through the services, results written in bulk but each round's
last, entered through ``services.match_report`` so the round (and the flight) finishes as the
services finish it. The machine may be shared: the load average is printed before and after.
Without a reachable PostgreSQL it prints why and exits 0. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import enter_results, fmt, yes

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_stages"
SECRET_KEY = "bench-stages-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz"
USER_PREFIX = "bench-stages-"
PAIR_GOAL_S = 3.0


@dataclass
class Bench(harness.BaseBench):
    pass


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def build_event(b: Bench) -> list[list[int]]:
    """The running event with its stages (flights, a carried day 2, a top 8) and the first
    stages started; the flights' registration ids."""
    from tournaments import stages as stage_rules
    from tournaments.models import Stage
    from tournaments.services import start_first_stages

    flights, size = b.args.flights, b.args.flight_size
    n = flights * size
    slug = f"bench-stages-{n}"
    deleted = harness.delete_previous(USER_PREFIX)
    started = time.perf_counter()
    b.organiser, users, _ = harness.new_people(USER_PREFIX, n, organiser_number=n)
    harness.new_event(b, f"Bench Championship {n}", slug, b.args.rounds)
    registrations = harness.register(b.event, users)
    ids = [r.pk for r in registrations]
    groups = [ids[k * size : (k + 1) * size] for k in range(flights)]
    rules = stage_rules.preset_flights(
        groups[1:],
        points=b.args.points,
        top=8,
        day_one_rounds=b.args.rounds,
        day_two_rounds=b.args.day_two_rounds,
    )
    Stage.objects.bulk_create([Stage.from_rule(b.event, rule) for rule in rules])
    start_first_stages(actor=b.organiser, tournament=b.event)
    harness.print_built(slug, f"{n:,} users in {flights} flights", started, deleted)
    return groups


def pair(b: Bench, stage: int) -> tuple[Any, float]:
    from matches import services
    from matches.models import RoundStatus

    started = time.perf_counter()
    round_ = services.round_pair(actor=b.organiser, tournament=b.event, stage=stage)
    elapsed = time.perf_counter() - started
    if round_.status != RoundStatus.PAIRED:
        raise RuntimeError(f"round {round_.number} not paired: {round_.pairing_error}")
    return round_, elapsed


def play(b: Bench, round_: Any) -> None:
    from matches import services

    services.round_publish(actor=b.organiser, round_=round_)
    enter_results(b, round_)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flights", type=int, default=4)
    parser.add_argument("--flight-size", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=3, help="day-1 rounds of each flight")
    parser.add_argument("--day-two-rounds", type=int, default=2)
    parser.add_argument("--points", type=int, default=6, help="day 2: at least these points")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"load average before: {load()} (the machine may be shared: figures are noisy)")
    setup = harness.start("bench/stages.py", DEFAULT_DATABASE_URL, SECRET_KEY)
    if setup is None:
        return 0
    from matches import services
    from matches.models import Match

    b = Bench(args, random.Random(args.seed))
    build_event(b)
    flights = args.flights
    last: list[float] = []
    for number in range(1, args.rounds + 1):
        for stage in range(1, flights + 1):
            round_, elapsed = pair(b, stage)
            print(
                f"  flight {stage} round {number} (event round {round_.number}): paired and "
                f"written in {fmt(elapsed)}, {round_.matches.count():,} matches",
                flush=True,
            )
            if number == args.rounds:
                last.append(elapsed)
            play(b, round_)
    worst = max(last)
    print(
        f"\n1. a flight's round {args.rounds} of {args.flight_size:,} players paired and written "
        f"(services.round_pair, task eager): worst of {flights} {fmt(worst)}, goal < "
        f"{PAIR_GOAL_S:.0f} s: {yes(worst < PAIR_GOAL_S)}"
    )
    day_two = flights + 1
    started = time.perf_counter()
    row = services.stage_start_service(actor=b.organiser, tournament=b.event, number=day_two)
    start_s = time.perf_counter() - started
    round_, elapsed = pair(b, day_two)
    met = {
        frozenset((a, c))
        for a, c in Match.objects.filter(
            round__tournament=b.event, round__stage_number__lt=day_two, b__isnull=False
        ).values_list("a_id", "b_id")
    }
    rematches = sum(
        frozenset((a, c)) in met
        for a, c in round_.matches.filter(b__isnull=False).values_list("a_id", "b_id")
    )
    print(
        f"2. day 2: {len(row.players or ()):,} players on {args.points}+ points merged from "
        f"{flights} flights (services.stage_start_service) in {fmt(start_s)}; its round 1 "
        f"paired with carried records in {fmt(elapsed)} ({rematches} rematches of day 1), goal "
        f"< {PAIR_GOAL_S:.0f} s: {yes(elapsed < PAIR_GOAL_S)}"
    )
    print(f"load average after: {load()} (2 shared cores: other work ran beside this)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
