"""Benchmark: a series leaderboard recomputed after a correction, on PostgreSQL (issue 22).

    .venv/bin/python bench/series.py [--weeks 52] [--weekly 64] [--big 2048] [--pool 5000]
                                     [--weekly-rounds 6] [--big-rounds 8] [--seed 2026]

A series of ``--weeks`` weekly events of ``--weekly`` players plus one of ``--big`` players,
drawn from a pool of about ``--pool`` distinct players (the issue's "about 5,000"). Every round
is paired and published through the services, results written as bench/rounds.py writes them
(bench/harness.py: all but the last of a round in bulk, the last through the service, which
finishes the round); the events are then marked finished and gathered in one series.

Figures, each with the load average:

1. the leaderboard from cold (every event's placings computed, nothing cached);
2. **after a correction** in the big event (a final result of its last round flipped through
   ``matches.services.match_report`` with a reason): ``series.services.refresh``, which
   recomputes the leaderboard (the corrected event's placings again, the other events' from
   their cache) and writes the audit entries of what moved; goal < 1 s;
3. the leaderboard served from cache: ``GET /api/series/{slug}/leaderboard/`` in process
   (Django's test client), the first request after the correction and the median of 20 more.

The data lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_series,
or BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench"). Every
run deletes the previous run's events, series and players first. Seeded. Without a reachable
PostgreSQL it prints why and exits 0. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import enter_results, fmt, yes

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_series"
SECRET_KEY = "bench-series-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz"
USER_PREFIX = "bench-series-"
REFRESH_GOAL_S = 1.0
POINTS = {"1": 10, "2": 8, "3-4": 6, "5-8": 4, "9-16": 2, "played": 1}


class Bench(harness.BaseBench):
    pass


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f}"


def new_event(b: Bench, name: str, slug: str, rounds: int, users: list[Any]) -> Any:
    from django.utils import timezone

    from tournaments.models import Tournament
    from tournaments.status import EventStatus

    event = Tournament.objects.create(
        name=name,
        slug=slug,
        game="boba",
        mode="playmaker",
        format_key="playmaker",
        match_structure="bo1",
        starts_at=timezone.now(),
        time_zone="UTC",
        venue="Loopback Hall",
        status=EventStatus.RUNNING.value,
        require_legal_decklist=False,
        planned_rounds=rounds,
        pairing_seed=f"bench{b.args.seed}-{slug}",
        created_by=b.organiser,
    )
    event.organisers.add(b.organiser)
    harness.register(event, users)
    return event


def play(b: Bench, event: Any, rounds: int) -> None:
    from matches import services
    from matches.models import RoundStatus

    b.event = event
    for _ in range(rounds):
        round_ = services.round_pair(actor=b.organiser, tournament=event)
        if round_.status != RoundStatus.PAIRED:
            raise RuntimeError(f"{event.slug}: round not paired: {round_.pairing_error}")
        services.round_publish(actor=b.organiser, round_=round_)
        enter_results(b, round_)


def delete_previous() -> float:
    from series.models import Series

    started = time.perf_counter()
    Series.objects.filter(slug__startswith=USER_PREFIX).delete()
    return harness.delete_previous(USER_PREFIX) + time.perf_counter() - started


def build(b: Bench) -> Any:
    from series.models import Series, SeriesEvent
    from tournaments.models import Tournament
    from tournaments.status import EventStatus

    deleted = delete_previous()
    started = time.perf_counter()
    a = b.args
    b.organiser, pool, _ = harness.new_people(USER_PREFIX, a.pool, organiser_number=a.pool)
    regulars = pool[: max(a.weekly * 4, a.pool - a.big)]
    events = []
    for week in range(a.weeks):
        event = new_event(
            b,
            f"Bench weekly {week + 1}",
            f"{USER_PREFIX}week-{week + 1:02d}",
            a.weekly_rounds,
            b.rng.sample(regulars, a.weekly),
        )
        play(b, event, a.weekly_rounds)
        events.append(event)
        if (week + 1) % 13 == 0:
            print(f"  {week + 1} weekly events played ({fmt(time.perf_counter() - started)})")
    big = new_event(
        b, f"Bench regional {a.big}", f"{USER_PREFIX}regional", a.big_rounds, pool[-a.big :]
    )
    play(b, big, a.big_rounds)
    events.append(big)
    Tournament.objects.filter(pk__in=[e.pk for e in events]).update(
        status=EventStatus.FINISHED.value
    )
    series = Series.objects.create(
        name="Bench season", slug=f"{USER_PREFIX}season", points=POINTS, created_by=b.organiser
    )
    series.organisers.add(b.organiser)
    SeriesEvent.objects.bulk_create([SeriesEvent(series=series, event=e) for e in events])
    distinct = len({r for e in events for r in e.registrations.values_list("player_id", flat=True)})
    harness.print_built(
        series.slug, f"{len(events)} events, {distinct:,} distinct players", started, deleted
    )
    b.event = big
    return series


def measure(b: Bench, series: Any) -> None:
    from django.core.cache import cache
    from django.test import Client

    from matches import services
    from matches.models import Match
    from series import selectors
    from series.services import refresh

    cache.clear()
    started = time.perf_counter()
    rows = selectors.compute_leaderboard(series)
    cold = time.perf_counter() - started
    print(f"\n1. leaderboard from cold: {len(rows):,} players in {fmt(cold)} ({load()})")
    refresh(series_id=series.pk)

    match = (
        Match.objects.filter(round__tournament=b.event, b__isnull=False)
        .order_by("-round__number", "table")
        .select_related("round__tournament")
        .first()
    )
    assert match is not None and match.games is not None
    flipped = [match.games[1], match.games[0], match.games[2]]
    started = time.perf_counter()
    services.match_report(
        actor=b.organiser, match=match, games=flipped, reason="Bench: slip read backwards"
    )
    corrected = time.perf_counter() - started
    started = time.perf_counter()
    changed = refresh(series_id=series.pk)
    refreshed = time.perf_counter() - started
    print(
        f"2. after a correction in the {b.args.big:,}-player event (the correction itself "
        f"{fmt(corrected)}): refresh {fmt(refreshed)}, leaderboard changed: {changed}; goal < "
        f"{fmt(REFRESH_GOAL_S)}: {yes(refreshed < REFRESH_GOAL_S)} ({load()})"
    )
    b.summary.append(
        (
            "series refresh after a correction",
            fmt(refreshed),
            f"< {fmt(REFRESH_GOAL_S)}",
            yes(refreshed < REFRESH_GOAL_S),
        )
    )

    client = Client(HTTP_HOST="127.0.0.1")
    url = f"/api/series/{series.slug}/leaderboard/"
    started = time.perf_counter()
    first = client.get(url)
    first_s = time.perf_counter() - started
    times = []
    for _ in range(20):
        started = time.perf_counter()
        answer = client.get(url)
        times.append(time.perf_counter() - started)
        assert answer.status_code == 200
    print(
        f"3. GET {url}: first after the correction {fmt(first_s)} ({first.status_code}, "
        f"{len(first.content):,} bytes), then median {fmt(statistics.median(times))} over 20 "
        f"({load()})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weeks", type=int, default=52)
    parser.add_argument("--weekly", type=int, default=64)
    parser.add_argument("--big", type=int, default=2048)
    parser.add_argument("--pool", type=int, default=5000)
    parser.add_argument("--weekly-rounds", type=int, default=6)
    parser.add_argument("--big-rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    setup = harness.start("bench/series.py", DEFAULT_DATABASE_URL, SECRET_KEY)
    if setup is None:
        return 0
    b = Bench(args, random.Random(args.seed))
    series = build(b)
    measure(b, series)
    harness.print_summary("series", setup.at, b.summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
