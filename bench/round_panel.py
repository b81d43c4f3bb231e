"""Benchmark: the organiser's live round panel at 1,024 tables, against gunicorn on loopback.

    .venv/bin/python bench/round_panel.py [--players 2048] [--staff 20] [--reports 900]
                                          [--window 120] [--poll-seconds 10] [--workers 3]
                                          [--player-clients 24] [--seed 2026]

Round 1 of the event is paired and published through the services (1,024 tables). Then,
against gunicorn started as in production (docker-compose.yml: ``--workers 3 --timeout 60``,
DEBUG off, Redis cache when reachable) on loopback, for ``--window`` seconds:

* players report as they would at the end of a round: ``--reports`` matches get a report from
  one player (``POST /api/matches/{id}/report/``) at a seeded random moment; in most of them
  the opponent confirms a little later (``POST /api/matches/{id}/confirm/``), some are
  disputed (the opponent reports the other result), the rest stay one-sided;
* ``--staff`` organisers and judges keep the dashboard open: each one's panel polls
  ``GET /api/events/{slug}/rounds/current/panel/`` every ``--poll-seconds`` (as
  static/js/round-panel.js does, sending the last ``ETag`` back as ``If-None-Match``), each on
  its own phase;
* the organiser accepts a one-sided report with one tap after each of their polls that shows one
  (``POST /api/matches/{id}/confirm/`` with the ``result_version`` the panel gave).

Every request is sent when its person would send it (an open schedule on a pool of threads),
and timed from that moment, so a slow server shows as waiting, not as fewer requests.

Figures: errors (any 5xx, unexpected 4xx or connection error; goal 0); the panel poll's
p50/p95/p99 over every poll (goal p95 < 300 ms, the judges' queue's goal), and apart the polls
answered in full (200) and unchanged (304); every other request's latency; the CPU the server
and this load generator used (they share the machine's cores).

The event lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_panel,
or BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench"). Every
run deletes the previous run's event, users and sessions and builds them again. Seeded. Without
a reachable PostgreSQL it prints why and exits 0. Loopback only; bounded in requests and time;
gunicorn is always stopped. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import JSON, REQUEST_TIMEOUT_S, Client, fmt, percentile, yes

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_panel"
# Shared by this process (which signs the sessions) and gunicorn (which reads them).
SECRET_KEY = "bench-panel-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz01234567"
USER_PREFIX = "bench-panel-"
PANEL_P95_GOAL_MS = 300.0
CONFIRM_SHARE = 0.75  # of the reported matches, the opponent confirms
DISPUTE_SHARE = 0.05  # of the reported matches, the opponent reports the other result
CONFIRM_AFTER_S = (5.0, 40.0)  # how long after the report the opponent answers


@dataclass
class Bench(harness.BaseBench):
    round_: Any = None
    staff: list[Client] = field(default_factory=list)  # the organiser first
    players: dict[int, Client] = field(default_factory=dict)  # user id -> client


@dataclass
class Hit:
    kind: str
    status: int | str
    seconds: float  # from when it was due
    expected: bool


@dataclass
class Load:
    port: int
    slug: str
    deadline: float
    hits: list[Hit] = field(default_factory=list)
    unexpected: Counter[str] = field(default_factory=Counter)
    accepted: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, status: int | str, seconds: float, ok: bool, body: bytes) -> None:
        with self.lock:
            self.hits.append(Hit(kind, status, seconds, ok))
            if not ok:
                text = " ".join(body[:400].decode(errors="replace").split())
                self.unexpected[f"{kind} {status}: {text[:160]}"] += 1


def send(
    port: int,
    method: str,
    path: str,
    client: Client,
    body: Any = None,
    extra: dict[str, str] | None = None,
) -> tuple[int | str, bytes, dict[str, str]]:
    """One request on its own loopback connection: (status or the exception's name, body,
    headers)."""
    headers = {**client.headers(JSON), **(extra or {})}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    try:
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    except (OSError, http.client.HTTPException) as exc:
        return type(exc).__name__, b"", {}
    finally:
        conn.close()


# --- building the event ---------------------------------------------------------------------


def build_event(b: Bench) -> None:
    n, s = b.args.players, b.args.staff
    slug = f"{USER_PREFIX}{n}"
    deleted = harness.delete_previous(USER_PREFIX)
    started = time.perf_counter()
    b.organiser, players, unusable = harness.new_people(USER_PREFIX, n, organiser_number=n + s)
    judges = harness.new_judges(USER_PREFIX, s - 1, n, unusable)
    harness.new_event(b, f"Bench Panel Open {n}", slug, 8)
    b.event.judges.add(*judges)
    harness.register(b.event, players)
    sessions = harness.new_sessions([b.organiser, *players, *judges])
    clients = {pk: Client(pk, key) for pk, key in sessions.items()}
    b.staff = [clients.pop(b.organiser.pk), *(clients.pop(u.pk) for u in judges)]
    b.players = clients
    harness.print_built(slug, f"{n:,} players, {s} staff", started, deleted)


# --- the load ---------------------------------------------------------------------------------


def report(load: Load, due: float, match_id: int, player: Client, games: list[int]) -> None:
    status, body, _ = send(
        load.port, "POST", f"/api/matches/{match_id}/report/", player, {"games": games}
    )
    load.record("report", status, time.perf_counter() - due, status == 200, body)


def report_otherwise(load: Load, due: float, match_id: int, player: Client) -> None:
    """The opponent reports the other result (a dispute), unless the organiser accepted the
    first report from the panel before (then the result is final: 409 result_final)."""
    status, body, _ = send(
        load.port, "POST", f"/api/matches/{match_id}/report/", player, {"games": [0, 1, 0]}
    )
    ok = status == 200 or (status == 409 and b"result_final" in body)
    load.record("report (dispute)", status, time.perf_counter() - due, ok, body)


def confirm(load: Load, due: float, match_id: int, player: Client) -> None:
    status, body, _ = send(load.port, "POST", f"/api/matches/{match_id}/confirm/", player, {})
    load.record("confirm", status, time.perf_counter() - due, status == 200, body)


class Watcher:
    """One staff member's open dashboard: the panel's ETag between polls."""

    def __init__(self, client: Client, accepts: bool) -> None:
        self.client = client
        self.accepts = accepts
        self.etag = ""
        self.lock = threading.Lock()

    def poll(self, load: Load, due: float) -> None:
        with self.lock:  # one poll of a page at a time, as the script waits for its answer
            extra = {"If-None-Match": self.etag} if self.etag else {}
            path = f"/api/events/{load.slug}/rounds/current/panel/"
            status, body, headers = send(load.port, "GET", path, self.client, extra=extra)
            seconds = time.perf_counter() - due
            kind = "panel poll (304)" if status == 304 else "panel poll (200)"
            load.record(kind, status, seconds, status in (200, 304), body)
            if status == 200:
                self.etag = headers.get("ETag", "")
                if self.accepts:
                    self.accept_one(load, json.loads(body))

    def accept_one(self, load: Load, panel: dict[str, Any]) -> None:
        """One tap: the oldest one-sided report the panel shows, at the version it showed."""
        rows = panel.get("one_sided") or []
        if not rows:
            return
        row = rows[0]
        due = time.perf_counter()
        status, body, _ = send(
            load.port,
            "POST",
            f"/api/matches/{row['match']}/confirm/",
            self.client,
            {"result_version": row["result_version"]},
        )
        # 409: the player confirmed (or changed the report) since the panel showed it; the
        # panel's accept refuses it rather than confirming another result.
        ok = status == 200 or status == 409
        load.record("accept one-sided", status, time.perf_counter() - due, ok, body)
        if status == 200:
            with load.lock:
                load.accepted += 1


def plan(b: Bench, watchers: list[Watcher]) -> list[tuple[float, Any, tuple[Any, ...]]]:
    """Every request at its moment (seconds after the start): the players' reports and
    answers, and each watcher's polls on its own phase."""
    args, rng = b.args, b.rng
    matches = list(
        b.round_.matches.filter(b__isnull=False)
        .values_list("pk", "a__player_id", "b__player_id")
        .order_by("table")
    )
    rng.shuffle(matches)
    spread = max(args.window - CONFIRM_AFTER_S[1] - 1, 1.0)
    tasks: list[tuple[float, Any, tuple[Any, ...]]] = []
    for pk, a, bb in matches[: min(args.reports, len(matches))]:
        at = rng.uniform(0, spread)
        tasks.append((at, report, (pk, b.players[a], [1, 0, 0])))
        roll = rng.random()
        later = at + rng.uniform(*CONFIRM_AFTER_S)
        if roll < CONFIRM_SHARE:
            tasks.append((later, confirm, (pk, b.players[bb])))
        elif roll < CONFIRM_SHARE + DISPUTE_SHARE:
            tasks.append((later, report_otherwise, (pk, b.players[bb])))
    for watcher in watchers:
        phase = rng.uniform(0, args.poll_seconds)
        at = phase
        while at < args.window:
            tasks.append((at, Watcher.poll, (watcher,)))
            at += args.poll_seconds
    return sorted(tasks, key=lambda t: t[0])


def run(load: Load, tasks: list[tuple[float, Any, tuple[Any, ...]]], threads: int) -> float:
    t0 = time.perf_counter()

    def one(fn: Any, due: float, args: tuple[Any, ...]) -> None:
        if time.perf_counter() >= load.deadline:  # bounded even when the server stalls
            return
        if fn is Watcher.poll:
            args[0].poll(load, due)
        else:
            fn(load, due, *args)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for at, fn, args in tasks:
            due = t0 + at
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            pool.submit(one, fn, due, args)
    return time.perf_counter() - t0


def measure(b: Bench, db_url: str, redis: str | None) -> None:
    args = b.args
    serve = harness.serving(
        USER_PREFIX, db_url, redis, SECRET_KEY, args.workers, log_lines=8, show_500s=True
    )
    with serve as (server, _env, collected):
        print(
            f"\nserver: {' '.join(server.command[2:])} (DEBUG off, cache "
            f"{harness.cache_text(redis)}); collectstatic {fmt(collected)}"
        )
        slug = b.event.slug
        watchers = [Watcher(c, accepts=i == 0) for i, c in enumerate(b.staff)]
        warm = Load(server.port, slug, time.perf_counter() + 60)
        for watcher in watchers:  # every worker imports and reads once, as a live server has
            watcher.poll(warm, time.perf_counter())
            watcher.etag = ""
        alone = [h.seconds for h in warm.hits]
        bad_warm = [h for h in warm.hits if not h.expected]
        print(
            f"   the panel read alone, one at a time: median {fmt(percentile(alone, 50))}"
            + (f"; {len(bad_warm)} answered {bad_warm[0].status}" if bad_warm else "")
        )
        tasks = plan(b, watchers)
        print(f"   {harness.settle()}")
        print(
            f"   {len(tasks):,} requests over {args.window:g} s: {args.reports} matches "
            f"reported ({CONFIRM_SHARE:.0%} then confirmed, {DISPUTE_SHARE:.0%} disputed), "
            f"{len(watchers)} staff polling the panel every {args.poll_seconds:g} s, the "
            f"organiser accepting one-sided reports; {args.player_clients} threads",
            flush=True,
        )
        load = Load(server.port, slug, time.perf_counter() + args.window + 2 * REQUEST_TIMEOUT_S)
        cpu_server, cpu_client = server.cpu_seconds(), time.process_time()
        duration = run(load, tasks, args.player_clients)
        cpu_after = server.cpu_seconds()
        server_cpu = (
            cpu_after - cpu_server if cpu_server is not None and cpu_after is not None else None
        )
        summarise(b, load, duration, server_cpu, time.process_time() - cpu_client)


def summarise(
    b: Bench, load: Load, duration: float, server_cpu: float | None, client_cpu: float
) -> None:
    hits = load.hits
    bad = [h for h in hits if not h.expected]
    print(
        f"\n   {len(hits):,} requests in {duration:.1f} s; {load.accepted} one-sided reports "
        "accepted from the panel"
    )
    harness.print_cpu(
        server_cpu, client_cpu, duration, len(hits), ", ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    print(
        f"   {'request':<20} | {'count':>6} | {'errors':>6} | {'p50':>7} | {'p95':>7} | "
        f"{'p99':>7} | {'max':>7}"
    )
    for kind in harness.in_order([h.kind for h in hits]):
        ms = [h.seconds * 1000 for h in hits if h.kind == kind]
        errors = sum(1 for h in hits if h.kind == kind and not h.expected)
        print(
            f"   {kind:<20} | {len(ms):>6,} | {errors:>6} | {percentile(ms, 50):>4.0f} ms | "
            f"{percentile(ms, 95):>4.0f} ms | {percentile(ms, 99):>4.0f} ms | "
            f"{max(ms, default=0):>4.0f} ms"
        )
    for text, count in load.unexpected.most_common(6):
        print(f"   error x{count}: {text}")
    polls = [h.seconds * 1000 for h in hits if h.kind.startswith("panel poll")]
    full = [h.seconds * 1000 for h in hits if h.kind == "panel poll (200)"]
    p95 = percentile(polls, 95)
    tables = b.round_.matches.filter(b__isnull=False).count()
    b.summary += [
        ("errors (5xx, unexpected 4xx)", f"{len(bad)}", "0", yes(not bad)),
        (
            f"panel poll at {tables:,} tables: p95",
            f"{p95:.0f} ms",
            "< 300 ms",
            yes(p95 < PANEL_P95_GOAL_MS),
        ),
        (
            "panel poll: p50 / p99",
            f"{percentile(polls, 50):.0f} / {percentile(polls, 99):.0f} ms",
            "-",
            "-",
        ),
        (
            "panel answered in full (200): p95",
            f"{percentile(full, 95):.0f} ms ({len(full)} of {len(polls)})",
            "-",
            "-",
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--staff", type=int, default=20, help="organiser and judges polling")
    parser.add_argument("--reports", type=int, default=900, help="matches reported")
    parser.add_argument("--window", type=float, default=120.0, help="seconds the load lasts")
    parser.add_argument("--poll-seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--player-clients", type=int, default=24, help="load threads")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.players < 4 or args.staff < 1 or args.reports < 0:
        parser.error("at least 4 players and 1 staff member; reports 0 or more")
    if not CONFIRM_AFTER_S[1] + 1 < args.window <= 600:
        parser.error(f"{CONFIRM_AFTER_S[1] + 1:g} < --window <= 600")
    if not 1 <= args.poll_seconds <= args.window:
        parser.error("1 <= --poll-seconds <= --window")

    setup = harness.start(
        "bench/round_panel.py", DEFAULT_DATABASE_URL, SECRET_KEY, loopback_only=True
    )
    if setup is None:
        return 0
    b = Bench(args, random.Random(args.seed))
    build_event(b)
    b.round_ = harness.pair_and_publish(b)
    measure(b, setup.db_url, setup.redis)
    harness.print_summary(
        f"{args.players:,} players, {args.staff} staff polling", setup.at, b.summary
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
