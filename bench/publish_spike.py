"""Benchmark: the publish spike through the event API at 2,048 or 8,192 players, on PostgreSQL.

    .venv/bin/python bench/publish_spike.py [--players 2048] [--rounds-before 0]
                                            [--spread 60] [--poll-minutes 5]
                                            [--poll-players 2048] [--poll-seconds 30]
                                            [--workers 5] [--clients 128] [--check-every 10]
                                            [--profile] [--no-spike] [--seed 2026]

1. Pairing and writing a round through ``matches.services.round_pair`` (the Celery task that
   pairs large events forced eager, so the time covers the whole call: locks, the round row,
   loading the players and the history, the Swiss core, writing the matches); the round is
   round 1, or the round after ``--rounds-before`` rounds paired, published and played (random
   results written in bulk). Goal < 5 s at 8,192 players (4,096 matches). ``--profile`` prints
   the call's cProfile (the 25 costliest functions, cumulative).
2. The publish spike: the round published through ``services.round_publish``, then against
   gunicorn started as in production (docker-compose.yml: ``--workers 5 --timeout 60``, DEBUG
   off, Redis cache when reachable; started afresh for each phase, so an overloaded phase's
   queue is not measured as the next one's) on loopback, every player fetches the published round
   through the contract's endpoint ``GET /api/events/{slug}/rounds/{n}/`` and the event page
   ``/events/{slug}/`` once each, every request at its own seeded random moment of
   ``--spread`` seconds. Goal: p95 < 200 ms at 2,048 players, < 300 ms at 8,192; no error.
3. Polling: ``--poll-players`` players (2,048) poll their own match,
   ``GET /api/events/{slug}/my-match/``, every ``--poll-seconds`` (30) for ``--poll-minutes``
   (5), each on its own phase, sending the last ``ETag`` back as ``If-None-Match`` when the
   server gave one (as a polling client does). Goal: p95 < 50 ms.

Every request is signed in with its player's own session (as the phone is), asks for
``Accept-Encoding: gzip`` like a real client, is encoded before the phase and sent when it is
due by bench/loadgen.py (one thread driving non-blocking connections, at most ``--clients``
requests in flight, a connection kept when the server keeps it alive: the generator shares the
cores with the server, so it spends as little CPU as it can), and is timed
from the moment it was due: a request that could not even be sent on time counts its wait, and
the output says how late requests were *sent*, so a load generator that fell behind shows. An
answer is decoded when it is checked (a phone decodes on its own CPU; the others' decoded size
is read from the gzip trailer): every ``--check-every``-th round answer is parsed and must hold
every match of the round (parsed after the phase, on CPU the server is no longer measured on;
the output says how much), every page must be whole, every my-match answer must be the
player's match. Printed per phase: requests, errors, p50/p95/p99/max from the due time, the
goal and whether it was met, the throughput the server sustained (completed requests / elapsed
seconds), the bytes of a response (median as received, and decoded), the CPU the server and
this load generator used, the load average (1 and 5 min) before and after.

The event lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_spike,
or BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench").
Every run deletes the previous run's event, users and sessions and builds them again. Seeded.
Without a reachable PostgreSQL it prints why and exits 0. Loopback only; bounded in requests
and time; gunicorn is always stopped. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import HTML, JSON, REQUEST_TIMEOUT_S, fmt, percentile, yes
from loadgen import Answer, OpenLoop, Request, Run, Verdict, encode_get, fetch_one

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_spike"
# Shared by this process (which signs the sessions) and gunicorn (which reads them).
SECRET_KEY = "bench-spike-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz0123456789"
USER_PREFIX = "bench-spike-"
PAIR_GOAL_S = 5.0
SPIKE_GOALS_MS = ((2048, 200.0), (8192, 300.0))  # players up to -> p95 goal
POLL_P95_GOAL_MS = 50.0


def spike_goal_ms(players: int) -> float:
    """The issue's goal for the event's size: 200 ms up to 2,048 players, 300 ms above."""
    for up_to, goal in SPIKE_GOALS_MS:
        if players <= up_to:
            return goal
    return SPIKE_GOALS_MS[-1][1]


def load_text() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} / {five:.2f}"


@dataclass
class Bench(harness.BaseBench):
    sessions: dict[int, str] = field(default_factory=dict)  # user id -> session key
    players: list[Any] = field(default_factory=list)
    registration_of: dict[int, int] = field(default_factory=dict)  # user id -> registration id
    round_: Any = None
    matches: int = 0  # rows of the round, byes included


def build_event(b: Bench) -> None:
    n = b.args.players
    slug = f"{USER_PREFIX}{n}"
    deleted = harness.delete_previous(USER_PREFIX)
    started = time.perf_counter()
    b.organiser, b.players, _ = harness.new_people(USER_PREFIX, n, organiser_number=n)
    harness.new_event(b, f"Bench Spike Open {n}", slug, max(b.args.rounds_before + 1, 8))
    b.registration_of = {r.player_id: r.pk for r in harness.register(b.event, b.players)}
    b.sessions = harness.new_sessions(b.players, cached=not b.args.cold_sessions)
    harness.print_built(slug, f"{n:,} users", started, deleted)


# --- 1: pairing -------------------------------------------------------------------------------


def play_rounds_before(b: Bench) -> None:
    from matches import services
    from matches.models import RoundStatus

    for number in range(1, b.args.rounds_before + 1):
        started = time.perf_counter()
        round_ = services.round_pair(actor=b.organiser, tournament=b.event)
        if round_.status != RoundStatus.PAIRED:
            raise RuntimeError(f"round {number} not paired: {round_.pairing_error}")
        paired = time.perf_counter() - started
        services.round_publish(actor=b.organiser, round_=round_)
        harness.enter_results(b, round_)
        print(f"  round {number}: paired in {fmt(paired)}, published and played", flush=True)
    if b.args.rounds_before:
        harness.analyze()


def measure_pairing(b: Bench) -> None:
    from matches import services
    from matches.models import RoundStatus
    from tournaments import swiss

    targets = [
        (services, "pairing_candidates", "load the players"),
        (services, "swiss_history", "load the history"),
        (swiss, "pair_round", "Swiss core (tournaments.swiss.pair_round)"),
    ]
    profile = cProfile.Profile() if b.args.profile else None
    load_before = load_text()
    with harness.phases(targets) as spent:
        started, cpu = time.perf_counter(), time.process_time()
        if profile is not None:
            profile.enable()
        round_ = services.round_pair(actor=b.organiser, tournament=b.event)
        if profile is not None:
            profile.disable()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    if round_.status != RoundStatus.PAIRED:
        raise RuntimeError(f"round {round_.number} not paired: {round_.pairing_error}")
    n = b.args.players
    b.matches = round_.matches.count()
    met = elapsed < PAIR_GOAL_S
    print(
        f"\n1. pair + write round {round_.number}, {n:,} players (services.round_pair, task "
        f"eager): {fmt(elapsed)} (goal < {PAIR_GOAL_S:g} s at 8,192 players: "
        f"{'ok' if met else 'MISSED'}); CPU of this process {fmt(cpu)}; load average "
        f"{load_before} before, {load_text()} after"
    )
    rest = elapsed - sum(spent.values())
    for label, seconds in [*spent.items(), ("the rest: locks, round row, matches written", rest)]:
        print(f"     {label:<48} {fmt(seconds):>9}")
    stats = round_.pairing_stats
    print(
        f"     {b.matches:,} matches; {stats.get('graph')} graph, {stats.get('edges', 0):,} "
        f"edges, {stats.get('pair_downs')} pair-downs, {stats.get('rematches')} rematches",
        flush=True,
    )
    if profile is not None:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(25)
        print(out.getvalue())
    b.summary.append(
        (
            f"pair + write round {round_.number}, {n:,} players",
            fmt(elapsed),
            f"< {PAIR_GOAL_S:g} s",
            yes(met),
        )
    )
    from config.celery import app as celery_app

    # Publishing as the organiser's request does it: the players' messages are written and
    # their sending is handed to the worker (here: an unread in-memory queue), not sent here.
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=False)
    try:
        started = time.perf_counter()
        b.round_ = services.round_publish(actor=b.organiser, round_=round_)
        published_in = time.perf_counter() - started
    finally:
        celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=True)
    harness.analyze()
    print(
        f"   round {round_.number} published (services.round_publish, the messages' sending "
        f"queued for a worker) in {fmt(published_in)}",
        flush=True,
    )


# --- the load generator (bench/loadgen.py) ------------------------------------------------------


def headers_for(session: str, accept: str, etag: str = "") -> dict[str, str]:
    headers = {
        # With the CSRF cookie a real sign-in leaves (harness.signed_in_cookies).
        "Cookie": harness.signed_in_cookies(session),
        "Accept": accept,
        "Accept-Encoding": "gzip",
    }
    if etag:
        headers["If-None-Match"] = etag
    return headers


def body_text(answer: Answer) -> str:
    return " ".join(answer.body[:300].decode(errors="replace").split())


# --- 2: the publish spike ----------------------------------------------------------------------


def round_check(b: Bench, every: int) -> Callable[[Answer], Verdict]:
    """The round's answer: 200, and every `every`-th one parsed, holding every match (after
    the run: parsing 1 MB is the phone's work, not the server's)."""
    counter = iter(range(10**9))

    def parse(answer: Answer) -> str | None:
        try:
            data = json.loads(answer.body)
        except ValueError:
            return "not JSON"
        got = len(data.get("matches") or [])
        if data.get("number") != b.round_.number or got != b.matches:
            return f"round {data.get('number')} with {got} of {b.matches} matches"
        return None

    def check(answer: Answer) -> Verdict:
        if answer.status != 200:
            return body_text(answer)
        if next(counter) % every:
            return None
        kept = answer.kept()
        return lambda: parse(kept)

    return check


def page_check(answer: Answer) -> str | None:
    if answer.status != 200:
        return body_text(answer)
    return None if b"</html>" in answer.body[-200:] else "not a whole page"


def spike_requests(b: Bench, port: int) -> list[Request]:
    """Every player's round (API) and event page, each at its own seeded moment; encoded
    before the run."""
    slug, number = b.event.slug, b.round_.number
    api = f"/api/events/{slug}/rounds/{number}/"
    page = f"/events/{slug}/"
    check = round_check(b, b.args.check_every)
    rng = random.Random(b.args.seed)
    spread = b.args.spread
    requests: list[Request] = []
    for user in b.players:
        session = b.sessions[user.pk]
        round_api = encode_get(port, api, headers_for(session, JSON))
        event_page = encode_get(port, page, headers_for(session, HTML))
        requests.append(Request(rng.uniform(0, spread), "round (API)", round_api, check))
        requests.append(Request(rng.uniform(0, spread), "event page", event_page, page_check))
    return requests


# --- 3: polling my match -----------------------------------------------------------------------


class Poller:
    """One player's phone polling their match: the last ETag between polls, one poll at a time
    (a client waits for its answer: the requests share a one_at_a_time key)."""

    def __init__(self, port: int, session: str, path: str, registration_id: int) -> None:
        self.port = port
        self.session = session
        self.path = path
        self.registration_id = registration_id
        self.etag = ""
        self.encoded = self.encode()

    def encode(self) -> bytes:
        return encode_get(self.port, self.path, headers_for(self.session, JSON, self.etag))

    def request(self) -> bytes:
        return self.encoded

    def check(self, answer: Answer) -> str | None:
        if answer.status == 304:
            return None
        if answer.status != 200:
            return body_text(answer)
        if answer.etag and answer.etag != self.etag:
            self.etag = answer.etag
            self.encoded = self.encode()  # the next poll sends it back
        try:
            data = json.loads(answer.body)
        except ValueError:
            return "not JSON"
        if self.registration_id not in (data.get("a"), data.get("b")):
            return "another player's match"
        return None


def poll_requests(b: Bench, port: int) -> list[Request]:
    path = f"/api/events/{b.event.slug}/my-match/"
    rng = random.Random(b.args.seed + 1)
    every, length = b.args.poll_seconds, b.args.poll_minutes * 60
    requests: list[Request] = []
    for user in b.players[: b.args.poll_players]:
        poller = Poller(port, b.sessions[user.pk], path, b.registration_of[user.pk])
        at = rng.uniform(0, every)
        while at < length:
            requests.append(Request(at, "my match", poller.request, poller.check, poller))
            at += every
    return requests


# --- measuring and the report ------------------------------------------------------------------


def alone(b: Bench, port: int) -> None:
    """Each request alone, one at a time (10 of each, median), after every worker has served
    some: what a request costs the server without a queue."""
    session = b.sessions[b.players[0].pk]
    slug, number = b.event.slug, b.round_.number
    wanted = [
        ("round (API)", f"/api/events/{slug}/rounds/{number}/", JSON, round_check(b, 1)),
        ("event page", f"/events/{slug}/", HTML, page_check),
        ("my match", f"/api/events/{slug}/my-match/", JSON, lambda a: None),
    ]
    encoded = [
        (kind, encode_get(port, path, headers_for(session, accept)), check)
        for kind, path, accept, check in wanted
    ]
    for _ in range(2 * b.args.workers):  # warm every worker: imports, URLconf, first queries
        for kind, data, check in encoded:
            fetch_one(port, kind, data, check)
    run = Run(0.0)
    for _ in range(10):
        for kind, data, check in encoded:
            fetch_one(port, kind, data, check, run)
    hits = run.hits
    parts = []
    for kind, *_rest in wanted:
        mine = [h for h in hits if h.kind == kind]
        parts.append(
            f"{kind} {fmt(percentile([h.seconds for h in mine], 50))} "
            f"({percentile([h.wire for h in mine], 50) / 1024:,.1f} KiB as received, "
            f"{percentile([h.size for h in mine], 50) / 1024:,.1f} KiB decoded)"
        )
    print("   one request at a time (median of 10): " + "; ".join(parts))
    for text, count in run.unexpected.most_common(3):
        print(f"   error x{count}: {text}")


def measure_phase(
    b: Bench,
    server: harness.Server,
    label: str,
    make_requests: Callable[[Bench, int], list[Request]],
    window: float,
    goal_ms: float,
) -> None:
    print(f"\n{label}\n   {server.wait_idle()}; {harness.settle()}", flush=True)
    requests = make_requests(b, server.port)
    load_before = load_text()
    print(
        f"   {len(requests):,} requests due over {window:g} s, at most {b.args.clients} in "
        f"flight (one thread, bench/loadgen.py); load average (1 / 5 min) before "
        f"{load_before}; sessions "
        + (
            "in PostgreSQL only (--cold-sessions: as after Redis lost its data)"
            if b.args.cold_sessions
            else "in the cache as a sign-in leaves them (and their rows)"
        ),
        flush=True,
    )
    run = Run(deadline=time.perf_counter() + window + 2 * REQUEST_TIMEOUT_S)
    cpu_server, cpu_client = server.cpu_seconds(), time.process_time()
    duration = OpenLoop(server.port, b.args.clients).run(requests, run)
    cpu_after = server.cpu_seconds()
    server_cpu = (
        cpu_after - cpu_server if cpu_server is not None and cpu_after is not None else None
    )
    client_cpu = time.process_time() - cpu_client
    checked_from, checked = time.process_time(), run.check_later()
    checking_cpu = time.process_time() - checked_from
    report(b, run, len(requests), duration, server_cpu, client_cpu)
    if checked:
        print(
            f"   {checked:,} answers parsed and checked after the phase (not in the load "
            f"generator's CPU above): {fmt(checking_cpu)} of CPU"
        )
    hits = run.hits
    # A request never sent took longer than any answered one: it counts in the percentile.
    ms = [h.seconds * 1000 for h in hits] + [float("inf")] * run.not_sent
    p95 = percentile(ms, 95)
    errors = sum(1 for h in hits if not h.ok) + len(requests) - len(hits)
    met = p95 < goal_ms and errors == 0
    print(
        f"   goal: p95 < {goal_ms:g} ms from the due time, no error: {'ok' if met else 'MISSED'}",
        flush=True,
    )
    short = label.split(":")[0]
    b.summary += [
        (
            f"{short}: p95 from due",
            f"{p95:.0f} ms" if p95 < float("inf") else "never sent",
            f"< {goal_ms:g} ms",
            yes(p95 < goal_ms),
        ),
        (f"{short}: errors", f"{errors}", "0", yes(errors == 0)),
        (
            f"{short}: throughput",
            f"{len(hits) / duration if duration else 0:,.0f} req/s",
            "-",
            "-",
        ),
        (f"{short}: load average 1 / 5 min", f"{load_before} -> {load_text()}", "-", "-"),
    ]


def report(
    b: Bench,
    run: Run,
    expected: int,
    duration: float,
    server_cpu: float | None,
    client_cpu: float,
) -> None:
    hits = run.hits
    late = [h.late * 1000 for h in hits]
    print(
        f"\n   {len(hits):,} of {expected:,} requests answered in {duration:.1f} s: "
        f"{len(hits) / duration if duration else 0:,.0f} requests/s sustained"
    )
    picked = [x * 1000 for x in run.picked_late]
    print(
        f"   the load generator: requests taken up by its loop after they were due p95 "
        f"{percentile(picked, 95):.1f} ms, max {max(picked, default=0):.0f} ms; sent after "
        f"they were due p50 {percentile(late, 50):.1f} ms, p95 {percentile(late, 95):.1f} ms, "
        f"max {max(late, default=0):.0f} ms; at most {run.most_in_flight} of "
        f"{b.args.clients} requests in flight"
        + (
            " (all of them: requests waited for the server, not for this process)"
            if run.most_in_flight >= b.args.clients
            else ""
        )
    )
    if run.not_sent:
        print(
            f"   {run.not_sent:,} requests never sent: still waiting for a slot when the "
            "run's bound (the window + 60 s) passed; counted as errors"
        )
    harness.print_cpu(server_cpu, client_cpu, duration, len(hits), load_text())
    print(
        f"   {'request':<14} | {'count':>6} | {'errors':>6} | {'p50':>7} | {'p95':>7} | "
        f"{'p99':>7} | {'max':>8} | {'received':>9} | {'decoded':>9} | statuses"
    )
    for kind in [*harness.in_order([h.kind for h in hits]), "all"]:
        rows = hits if kind == "all" else [h for h in hits if h.kind == kind]
        ms = [h.seconds * 1000 for h in rows]
        errors = sum(1 for h in rows if not h.ok)
        answered = [h for h in rows if h.status in (200, 304)] or rows  # sizes: of answers
        statuses = ", ".join(f"{s} x{c}" for s, c in Counter(h.status for h in rows).most_common(3))
        print(
            f"   {kind:<14} | {len(rows):>6,} | {errors:>6} | {percentile(ms, 50):>4.0f} ms | "
            f"{percentile(ms, 95):>4.0f} ms | {percentile(ms, 99):>4.0f} ms | "
            f"{max(ms, default=0):>5.0f} ms | "
            f"{percentile([h.wire for h in answered], 50) / 1024:>5.1f} KiB | "
            f"{percentile([h.size for h in answered], 50) / 1024:>5.1f} KiB | {statuses}"
        )
    for text, count in run.unexpected.most_common(6):
        print(f"   error x{count}: {text}")


@contextmanager
def fresh_server(b: Bench, db_url: str, redis: str | None) -> Iterator[harness.Server]:
    """gunicorn started for one phase: an overloaded phase leaves requests queued in the
    listen backlog (their clients gave up; the workers still answer them), which would
    otherwise be measured as the next phase's."""
    serve = harness.serving(
        USER_PREFIX,
        db_url,
        redis,
        SECRET_KEY,
        b.args.workers,
        log_lines=8,
        show_500s=True,
        threads=b.args.threads,
    )
    with serve as (server, env, collected):
        print(
            f"\nserver: {' '.join(server.command[2:])} (DEBUG off, cache "
            f"{harness.cache_text(redis)}, {harness.connections_text()}); "
            f"collectstatic {fmt(collected)}"
        )
        alone(b, server.port)
        yield server


def measure_http(b: Bench, db_url: str, redis: str | None) -> None:
    args = b.args
    n = args.players
    with fresh_server(b, db_url, redis) as server:
        measure_phase(
            b,
            server,
            f"2. publish spike: {n:,} players each fetch round {b.round_.number} "
            f"({b.matches:,} matches) through the API and the event page, at random moments "
            f"of {args.spread:g} s",
            spike_requests,
            args.spread,
            spike_goal_ms(n),
        )
    if args.poll_minutes > 0:
        with fresh_server(b, db_url, redis) as server:
            measure_phase(
                b,
                server,
                f"3. polling: {min(args.poll_players, n):,} players poll their match every "
                f"{args.poll_seconds:g} s for {args.poll_minutes:g} min (If-None-Match once "
                "they have an ETag)",
                poll_requests,
                args.poll_minutes * 60,
                POLL_P95_GOAL_MS,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument(
        "--rounds-before", type=int, default=0, help="rounds played before the measured one"
    )
    parser.add_argument("--spread", type=float, default=60.0, help="seconds of the spike")
    parser.add_argument("--poll-minutes", type=float, default=5.0, help="0: no polling phase")
    parser.add_argument("--poll-players", type=int, default=2048)
    parser.add_argument("--poll-seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=5, help="gunicorn workers")
    parser.add_argument(
        "--clients", type=int, default=128, help="requests in flight at most (the load generator)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="gunicorn threads a worker (more than 1: the gthread worker, which keeps "
        "connections alive)",
    )
    parser.add_argument("--check-every", type=int, default=10, help="parse every k-th round answer")
    parser.add_argument(
        "--cold-sessions",
        action="store_true",
        help="the sessions' rows only, none in the cache (as after Redis lost its data): each "
        "player's first request reads its session from PostgreSQL",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the pairing")
    parser.add_argument("--no-spike", action="store_true", help="pairing only: no server")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.players < 4 or args.rounds_before < 0 or args.check_every < 1:
        parser.error("at least 4 players; --rounds-before 0 or more; --check-every 1 or more")
    if not 1 <= args.spread <= 600 or not 0 <= args.poll_minutes <= 30:
        parser.error("1 <= --spread <= 600 and 0 <= --poll-minutes <= 30")
    if (
        not 1 <= args.poll_seconds <= 300
        or args.clients < 1
        or args.workers < 1
        or args.threads < 1
    ):
        parser.error("1 <= --poll-seconds <= 300; at least 1 client and 1 worker")

    setup = harness.start(
        "bench/publish_spike.py", DEFAULT_DATABASE_URL, SECRET_KEY, loopback_only=True
    )
    if setup is None:
        return 0
    b = Bench(args, random.Random(args.seed))
    build_event(b)
    play_rounds_before(b)
    measure_pairing(b)
    if args.no_spike:
        print("\n2. publish spike and 3. polling: skipped (--no-spike)")
    else:
        measure_http(b, setup.db_url, setup.redis)
    harness.print_summary(f"{args.players:,} players", setup.at, b.summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
