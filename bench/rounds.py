"""Benchmark: running the rounds of a 2,048-player event on PostgreSQL, services and server.

    .venv/bin/python bench/rounds.py [--players 2048] [--seed 2026] [--no-spike]
                                     [--spike spread|burst|both] [--window 60] [--clients 256]
                                     [--burst-clients 64] [--workers 3] [--threads 1]

Three figures, each against its goal:

1. pairing and writing round 6 through ``matches.services.round_pair`` (the Celery task forced
   eager, so it runs in this process and the time covers the whole call: locks, the round row,
   loading the history, the Swiss core, writing the matches); goal < 3 s;
2. the publish spike: round 6 published through ``services.round_publish``, then every player
   loads the pairings page and their match page from gunicorn started as in production
   (docker-compose.yml: ``--workers 3 --timeout 60``, DEBUG off, Redis cache), on loopback,
   each request with ``Accept-Encoding: gzip`` as a phone's browser sends it.
   ``spread`` (the default): each player arrives at a seeded random moment of the window and
   loads both pages one after the other, on a pool of ``--clients`` threads (an open
   schedule: nobody waits for anybody else; the output says how far behind it fell);
   ``burst``: the same 4,096 requests as fast as ``--burst-clients`` threads can send them (a
   compressed schedule). Goal: everyone served within 60 s, p95 < 200 ms, no error. While the
   pages are not built (404), the API endpoints they show are loaded instead, and the output
   says so. Also printed: one player at a time, and the CPU the server and this load
   generator used (they share the machine's cores);
3. the standings of 2,048 players after 8 rounds through ``services.standings_snapshot``
   (stored snapshot deleted first, best of 3), and a read of the stored snapshot; goal < 1 s.

The event lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_rounds,
or BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench").
Every run deletes the previous run's event, players and sessions and builds them again: users,
registrations and sessions in bulk, rounds paired and published through the services, results
written in bulk except each round's last match, entered through ``services.match_report`` so
the round finishes exactly as the services finish it. Seeded: the same seed gives the same
event. Without a reachable PostgreSQL it prints why and exits 0. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import http.client
import os
import queue
import random
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import HTML, JSON, REQUEST_TIMEOUT_S, enter_results, fmt, percentile, phases, yes

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_rounds"
# Shared by this process (which signs the sessions) and gunicorn (which reads them).
SECRET_KEY = "bench-rounds-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz"
USER_PREFIX = "bench-rounds-"
PAIR_GOAL_S = 3.0
SPIKE_P95_GOAL_MS = 200.0
STANDINGS_GOAL_S = 1.0


# --- building the event -------------------------------------------------------------------------


@dataclass
class Bench(harness.BaseBench):
    registrations: list[Any] = field(default_factory=list)
    sessions: dict[int, str] = field(default_factory=dict)  # user id -> session key


def build_event(b: Bench) -> None:
    n = b.args.players
    slug = f"bench-rounds-{n}"
    deleted = harness.delete_previous(USER_PREFIX)
    started = time.perf_counter()
    b.organiser, users, _ = harness.new_people(USER_PREFIX, n, organiser_number=n)
    harness.new_event(b, f"Bench Open {n}", slug, b.args.rounds)
    b.registrations = harness.register(b.event, users)
    b.sessions = harness.new_sessions(users)
    harness.print_built(slug, f"{n:,} users", started, deleted)


def pair_round(b: Bench) -> tuple[Any, float, float]:
    """services.round_pair; (the round, wall seconds, CPU seconds of this process)."""
    from matches import services
    from matches.models import RoundStatus

    started, cpu = time.perf_counter(), time.process_time()
    round_ = services.round_pair(actor=b.organiser, tournament=b.event)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    if round_.status != RoundStatus.PAIRED:
        raise RuntimeError(f"round {round_.number} not paired: {round_.pairing_error}")
    return round_, elapsed, cpu


def play_round(b: Bench, round_: Any) -> tuple[float, float]:
    """Publish and play a paired round; (publish seconds, results seconds)."""
    from matches import services

    started = time.perf_counter()
    services.round_publish(actor=b.organiser, round_=round_)
    published = time.perf_counter() - started
    started = time.perf_counter()
    enter_results(b, round_)
    return published, time.perf_counter() - started


def play_rounds(b: Bench, numbers: range) -> None:
    for number in numbers:
        round_, paired, _cpu = pair_round(b)
        assert round_.number == number
        published, played = play_round(b, round_)
        stats = round_.pairing_stats
        print(
            f"  round {number}: paired in {fmt(paired)} ({stats.get('graph')} graph, "
            f"{stats.get('pair_downs')} pair-downs, {stats.get('rematches')} rematches), "
            f"published in {fmt(published)}, {round_.matches.count():,} results in {fmt(played)}",
            flush=True,
        )


# --- 1: pairing round 6 -----------------------------------------------------------------------


def measure_pairing(b: Bench) -> Any:
    from matches import services
    from tournaments import swiss

    targets = [
        (services, "pairing_candidates", "load the players"),
        (services, "swiss_history", "load the history"),
        (swiss, "pair_round", "Swiss core (tournaments.swiss.pair_round)"),
    ]
    with phases(targets) as spent:
        round_, elapsed, cpu = pair_round(b)
    n = b.args.players
    number = round_.number
    met = elapsed < PAIR_GOAL_S
    print(
        f"\n1. pair + write round {number}, {n:,} players (services.round_pair, task eager): "
        f"{fmt(elapsed)} (goal < {PAIR_GOAL_S:g} s: {'ok' if met else 'MISSED'}); "
        f"CPU of this process {fmt(cpu)}; load average {os.getloadavg()[0]:.1f}"
    )
    rest = elapsed - sum(spent.values())
    for label, seconds in [*spent.items(), ("the rest: locks, round row, matches written", rest)]:
        print(f"     {label:<48} {fmt(seconds):>9}")
    stats = round_.pairing_stats
    print(
        f"     {round_.matches.count():,} matches; {stats.get('graph')} graph, "
        f"{stats.get('edges'):,} edges, {stats.get('pair_downs')} pair-downs, "
        f"{stats.get('rematches')} rematches, proven optimal: {stats.get('proven_optimal')}",
        flush=True,
    )
    b.summary.append(
        (f"pair + write round {number}, {n:,} players", fmt(elapsed), "< 3 s", yes(met))
    )
    return round_


# --- 2: the publish spike -------------------------------------------------------------------------


@dataclass
class Hit:
    kind: str
    status: int | str
    seconds: float
    size: int
    done_at: float


def headers_of(session: str, accept: str) -> dict[str, str]:
    """A signed-in phone's request: its session, what it accepts, gzip (as browsers send it;
    the sizes printed are the bytes sent)."""
    return {"Cookie": f"sessionid={session}", "Accept": accept, "Accept-Encoding": "gzip"}


def get(port: int, path: str, session: str, accept: str) -> tuple[int, bytes]:
    return harness.request(port, "GET", path, headers_of(session, accept))


def visit(port: int, pages: list[tuple[str, str, str]], session: str, t0: float) -> list[Hit]:
    """One player: each page in turn on one connection (reopened when the server closes it)."""
    hits = []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    try:
        for kind, path, accept in pages:
            started = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers_of(session, accept))
                response = conn.getresponse()
                body = response.read()
                status: int | str = response.status
                if response.will_close:
                    conn.close()
            except (OSError, http.client.HTTPException) as exc:
                status, body = type(exc).__name__, b""
                conn.close()
            now = time.perf_counter()
            hits.append(Hit(kind, status, now - started, len(body), now - t0))
    finally:
        conn.close()
    return hits


def choose_pages(port: int, slug: str, number: int, session: str) -> list[tuple[str, str, str]]:
    """The pages when built; while one answers 404, the API endpoint behind it."""
    wanted = [
        (
            "pairings",
            f"/events/{slug}/rounds/{number}/pairings/",
            f"/api/events/{slug}/rounds/{number}/",
        ),
        ("my match", f"/events/{slug}/my-match/", f"/api/events/{slug}/my-match/"),
    ]
    pages = []
    for kind, page, api in wanted:
        status, _ = get(port, page, session, HTML)
        if status == 404:
            api_status, _ = get(port, api, session, JSON)
            print(f"   {kind}: page GET {page} is 404 (not built yet): loading the API, GET {api}")
            if api_status != 200:
                print(f"     (the API answers {api_status})")
            pages.append((f"{kind} (API)", api, JSON))
        else:
            print(f"   {kind}: page GET {page} answers {status}")
            pages.append((kind, page, HTML))
    return pages


@dataclass
class SpikeRun:
    mode: str
    hits: list[Hit]
    duration: float
    window: float
    lag_max: float = 0.0
    server_cpu: float | None = None
    client_cpu: float = 0.0


def run_spread(
    port: int,
    pages: list[Any],
    sessions: list[str],
    window: float,
    clients: int,
    rng: random.Random,
) -> SpikeRun:
    """Each player arrives at a random moment of the window (the last second left for the
    requests) and loads the pages in turn; a pool of threads keeps the schedule."""
    arrivals = sorted((rng.uniform(0, max(window - 1, 0.1)), s) for s in sessions)
    hits: list[Hit] = []
    lags: list[float] = []
    lock = threading.Lock()

    def one(at: float, session: str, t0: float) -> None:
        lag = time.perf_counter() - t0 - at
        if lag > window + 120:  # bounded even when the server stalls: counted as missing
            return
        out = visit(port, pages, session, t0)
        with lock:
            hits.extend(out)
            lags.append(lag)

    with ThreadPoolExecutor(max_workers=clients) as pool:
        t0 = time.perf_counter()
        for at, session in arrivals:
            wait = t0 + at - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            pool.submit(one, at, session, t0)
    duration = max((h.done_at for h in hits), default=0.0)
    return SpikeRun("spread", hits, duration, window, max(lags, default=0.0))


def run_burst(
    port: int, pages: list[Any], sessions: list[str], window: float, clients: int
) -> SpikeRun:
    """The same requests as fast as `clients` threads can send them (each: one player)."""
    todo: queue.SimpleQueue[str] = queue.SimpleQueue()
    for s in sessions:
        todo.put(s)
    hits: list[Hit] = []
    lock = threading.Lock()
    deadline = time.perf_counter() + window + 120  # bounded even when the server stalls

    def worker(t0: float) -> None:
        while time.perf_counter() < deadline:
            try:
                session = todo.get_nowait()
            except queue.Empty:
                return
            out = visit(port, pages, session, t0)
            with lock:
                hits.extend(out)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(t0,)) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return SpikeRun(f"burst, {clients} client threads", hits, time.perf_counter() - t0, window)


def report_spike(b: Bench, run: SpikeRun, expected: int) -> None:
    hits = run.hits
    print(
        f"\n   {run.mode}: {len(hits):,} of {expected:,} requests in {run.duration:.1f} s "
        f"({len(hits) / run.duration if run.duration else 0:,.0f} requests/s)"
        + (f"; latest start behind schedule {fmt(run.lag_max)}" if run.mode == "spread" else "")
    )
    if run.duration:
        load_after = f"{os.getloadavg()[0]:.2f}"
        harness.print_cpu(run.server_cpu, run.client_cpu, run.duration, len(hits), load_after)
    print(
        f"   {'page':<18} | {'requests':>8} | {'errors':>6} | {'p50':>7} | {'p95':>7} | "
        f"{'p99':>7} | {'max':>7} | {'size':>9}"
    )
    for kind in [*harness.in_order([h.kind for h in hits]), "all"]:
        rows = hits if kind == "all" else [h for h in hits if h.kind == kind]
        ms = [h.seconds * 1000 for h in rows]
        errors = [h for h in rows if h.status != 200]
        size = sum(h.size for h in rows) / len(rows) if rows else 0
        print(
            f"   {kind:<18} | {len(rows):>8,} | {len(errors):>6} | {percentile(ms, 50):>4.0f} ms | "
            f"{percentile(ms, 95):>4.0f} ms | {percentile(ms, 99):>4.0f} ms | "
            f"{max(ms, default=0):>4.0f} ms | {size / 1024:>6.0f} KB"
        )
    errors = [h for h in hits if h.status != 200]
    if errors:
        print(
            "   errors: "
            + ", ".join(
                f"{k}: {v}"
                for k, v in Counter(f"{h.kind} {h.status}" for h in errors).most_common(6)
            )
        )
    p95 = percentile([h.seconds * 1000 for h in hits], 95)
    missing = expected - len(hits)
    n_errors = len(errors) + missing
    in_time = run.duration <= run.window
    met = in_time and p95 < SPIKE_P95_GOAL_MS and n_errors == 0
    print(
        f"   goal: every player served within {run.window:g} s, p95 < "
        f"{SPIKE_P95_GOAL_MS:g} ms, no error: {'ok' if met else 'MISSED'}",
        flush=True,
    )
    label = f"publish spike ({run.mode})"
    b.summary.append((f"{label}: p95", f"{p95:.0f} ms", "< 200 ms", yes(p95 < SPIKE_P95_GOAL_MS)))
    b.summary.append((f"{label}: errors", f"{n_errors}", "0", yes(n_errors == 0)))
    b.summary.append(
        (f"{label}: all served", f"{run.duration:.1f} s", f"<= {run.window:g} s", yes(in_time))
    )


def measure_spike(b: Bench, round_: Any, db_url: str, redis: str | None) -> None:
    from matches import services

    started = time.perf_counter()
    round_ = services.round_publish(actor=b.organiser, round_=round_)
    print(
        f"\n2. publish spike: round {round_.number} published (services.round_publish) in "
        f"{fmt(time.perf_counter() - started)}",
        flush=True,
    )
    serve = harness.serving(
        "bench-rounds-", db_url, redis, SECRET_KEY, b.args.workers, b.args.threads
    )
    with serve as (server, env, collected):
        print(
            f"   server: {' '.join(server.command[2:])} (DEBUG off, cache {harness.cache_text(redis)}, "
            f"{harness.connections_text()}); "
            f"collectstatic {fmt(collected)}"
        )
        sessions = [b.sessions[r.player_id] for r in b.registrations]
        slug = b.event.slug
        status, body = get(server.port, "/api/me/", sessions[0], JSON)
        print(f"   a player's session: GET /api/me/ answers {status}")
        pages = choose_pages(server.port, slug, round_.number, sessions[0])
        # Warm every worker up (imports, URLconf) as a server already serving would be.
        for s in sessions[-4 * b.args.workers :]:
            visit(server.port, pages, s, time.perf_counter())
        alone = [h for s in sessions[:20] for h in visit(server.port, pages, s, 0.0)]
        print(
            "   one player at a time (20 players, median): "
            + ", ".join(
                f"{kind} {percentile([h.seconds for h in alone if h.kind == kind], 50) * 1000:.0f} ms"
                for kind, _path, _accept in pages
            )
        )
        modes = ["spread", "burst"] if b.args.spike == "both" else [b.args.spike]
        for mode in modes:
            cpu_server, cpu_client = server.cpu_seconds(), time.process_time()
            if mode == "spread":
                print(
                    f"   {len(sessions):,} players arriving at seeded random moments of "
                    f"{b.args.window:g} s, each loading {len(pages)} pages in turn"
                )
                run = run_spread(
                    server.port,
                    pages,
                    sessions,
                    b.args.window,
                    b.args.clients,
                    random.Random(b.args.seed),
                )
            else:
                print(
                    f"   {len(sessions):,} players, {len(sessions) * len(pages):,} requests as "
                    f"fast as {b.args.burst_clients} client threads send them (compressed)"
                )
                run = run_burst(server.port, pages, sessions, b.args.window, b.args.burst_clients)
            cpu_after = server.cpu_seconds()
            if cpu_server is not None and cpu_after is not None:
                run.server_cpu = cpu_after - cpu_server
            run.client_cpu = time.process_time() - cpu_client
            report_spike(b, run, len(sessions) * len(pages))


# --- 3: standings -------------------------------------------------------------------------------


def measure_standings(b: Bench) -> None:
    from matches import services
    from matches.models import StandingsSnapshot
    from matches.services import standings as standings_service

    last = services.last_finished_swiss_round(b.event)
    assert last is not None
    times, cpus = [], []
    spent: dict[str, float] = {}
    for _ in range(3):
        StandingsSnapshot.objects.filter(round=last).delete()
        # Timed where the standings service looks them up (matches/services/standings.py).
        targets = [
            (standings_service, "swiss_history", "load the history (swiss_history)"),
            (standings_service, "compute_standings", "compute (tournaments.standings)"),
        ]
        with phases(targets) as run_spent:
            started, cpu = time.perf_counter(), time.process_time()
            snapshot = services.standings_snapshot(b.event)
            elapsed = time.perf_counter() - started
            cpus.append(time.process_time() - cpu)
        if not times or elapsed < min(times):
            spent = {**run_spent, "rows and the stored snapshot": elapsed - sum(run_spent.values())}
        times.append(elapsed)
    started = time.perf_counter()
    again = services.standings_snapshot(b.event)
    cached = time.perf_counter() - started
    best = min(times)
    n = len(snapshot.rows)
    met = best < STANDINGS_GOAL_S
    print(
        f"\n3. standings of {n:,} players after round {last.number} "
        f"(services.standings_snapshot, none stored): {fmt(best)} best of 3 "
        f"({', '.join(fmt(t) for t in times)}) (goal < {STANDINGS_GOAL_S:g} s: "
        f"{'ok' if met else 'MISSED'}); CPU of this process {fmt(min(cpus))} best of 3; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for label, seconds in spent.items():
        print(f"     {label:<48} {fmt(seconds):>9}")
    leader = again.rows[0]
    print(
        f"   stored snapshot read: {fmt(cached)}; leader {leader['name']} on "
        f"{leader['points']} pts ({leader['record']})",
        flush=True,
    )
    b.summary.append(
        (f"standings, {n:,} players after {last.number} rounds", fmt(best), "< 1 s", yes(met))
    )
    b.summary.append(("standings, stored snapshot read", fmt(cached), "-", "-"))


# --- main -----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=8, help="Swiss rounds played in all")
    parser.add_argument("--measure-round", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--spike", choices=("spread", "burst", "both"), default="spread")
    parser.add_argument("--no-spike", action="store_true")
    parser.add_argument("--window", type=float, default=60.0, help="seconds")
    parser.add_argument("--clients", type=int, default=256, help="thread pool, spread mode")
    parser.add_argument("--burst-clients", type=int, default=64, help="threads, burst mode")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
    args = parser.parse_args()
    if not 1 < args.measure_round <= args.rounds:
        parser.error("--measure-round must be after round 1 and at most --rounds")

    setup = harness.start("bench/rounds.py", DEFAULT_DATABASE_URL, SECRET_KEY)
    if setup is None:
        return 0
    from matches import services

    b = Bench(args, random.Random(args.seed))
    build_event(b)
    print(
        f"rounds 1-{args.measure_round - 1} through the services (pairing in the Celery task "
        f"above {services.PAIR_IN_TASK_ABOVE} players, run eagerly), random results, seed "
        f"{args.seed}:",
        flush=True,
    )
    play_rounds(b, range(1, args.measure_round))
    harness.analyze()

    round_ = measure_pairing(b)
    if args.no_spike:
        services.round_publish(actor=b.organiser, round_=round_)
        print("\n2. publish spike: skipped (--no-spike)")
    else:
        measure_spike(b, round_, setup.db_url, setup.redis)
    enter_results(b, round_)

    print(f"\nrounds {args.measure_round + 1}-{args.rounds}:", flush=True)
    play_rounds(b, range(args.measure_round + 1, args.rounds + 1))
    harness.analyze()
    measure_standings(b)

    harness.print_summary(f"{args.players:,} players", setup.at, b.summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
