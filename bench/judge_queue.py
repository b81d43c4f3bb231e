"""Benchmark: the judges' queue of a 2,048-player event under load, against gunicorn on loopback.

    .venv/bin/python bench/judge_queue.py [--players 2048] [--judges 20] [--calls 500]
                                          [--disputes 200] [--window 60] [--bound 180]
                                          [--player-clients 32] [--workers 3] [--seed 2026]
                                          [--table-seconds 2] [--idle-seconds S]

Round 1 of the event is paired and published through the services (1,024 matches). Then,
against gunicorn started as in production (docker-compose.yml: ``--workers 3 --timeout 60``,
DEBUG off, Redis cache when reachable) on loopback, at once:

* players open ``--calls`` judge calls (``POST /api/matches/{id}/calls/`` with a question,
  each by a player of that match) and make ``--disputes`` disputes (both players of other
  matches ``POST /api/matches/{id}/report/`` with different results, which opens a dispute in
  the same queue), each at a seeded random moment of ``--window`` seconds, on a pool of
  ``--player-clients`` threads (an open schedule);
* ``--judges`` judges (one thread each) loop: read the queue (the judges' page ``/judge/``
  when it answers 200, its claim buttons giving the ids; else
  ``GET /api/calls/?status=open&sort=waiting``), take the next call
  (``POST /api/calls/claim-next/``, the queue page's "Take the next call": the
  longest-waiting call nobody holds, so judges never race each other for one), and rule on it
  (``POST /api/calls/{id}/ruling/`` with a citation, and for a dispute a result) after
  ``--table-seconds`` at the table (2 s: a real ruling takes minutes, compressed so that 20
  judges keep up with 700 items in a minute; 0 runs the judges flat out, a stress test), then
  back to the page, with no pause while there is something to take; with nothing to take a judge
  watches the open page, which looks again on its own as often as it polls
  (``data-poll-seconds``, 10 s; ``--idle-seconds`` to change), fetching the list alone
  (``data-poll-url``); until every call and dispute is resolved or ``--bound`` seconds have
  passed since the start.

Figures: errors (any 5xx, any unexpected 4xx or connection error, any call or dispute missing
or left unresolved; goal 0); the queue read's p50/p95/p99 over the page's loads and its polls
(goal p95 < 300 ms); every other
request's latency; total time, rulings per second, the CPU the server and this load generator
used (they share the machine's cores), and how many database sessions were waiting on a lock
(sampled from pg_stat_activity).

The event lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_judge,
or BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench").
Every run deletes the previous run's event, users and sessions and builds them again (users,
registrations and sessions in bulk). Seeded. Without a reachable PostgreSQL it prints why and
exits 0. Loopback only; bounded in requests and time; gunicorn is always stopped. Not part of
the test suite.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import random
import re
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import HTML, JSON, REQUEST_TIMEOUT_S, Client, fmt, percentile, yes

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_judge"
# Shared by this process (which signs the sessions) and gunicorn (which reads them).
SECRET_KEY = "bench-judge-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz0123"
USER_PREFIX = "bench-judge-"
QUEUE_P95_GOAL_MS = 300.0
CLAIM_TRIES = 5  # unclaimed items a judge tries from one read of the queue before reading again
# A ruling takes minutes on a real floor; compressed to this, 20 judges still keep up with
# 700 items in a minute (the run is time-compressed, not the judges instant). 0: flat out.
TABLE_SECONDS = 2.0
IDLE_S = 0.5  # while the page does not say how often it polls, or the API is read
QUEUE_API = "/api/calls/?status=open&sort=waiting"
QUEUE_PAGE = "/judge/"
# The judges' page (templates/matches/judge/_queue_list.html): its open count and the claim
# buttons, oldest first.
PAGE_OPEN_COUNT = re.compile(r'data-open-count="(\d+)"')
PAGE_CLAIM = re.compile(r'action="/judge/calls/(\d+)/claim/"')
# How the open page keeps itself current (templates/matches/judge/queue.html): the list alone,
# fetched every data-poll-seconds by static/js/judge-queue.js.
PAGE_POLL_URL = re.compile(r'data-poll-url="([^"]+)"')
PAGE_POLL_SECONDS = re.compile(r'data-poll-seconds="(\d+)"')


# --- building the event ---------------------------------------------------------------------------


@dataclass
class Bench(harness.BaseBench):
    round_: Any = None
    judges: list[Client] = field(default_factory=list)
    players: dict[int, Client] = field(default_factory=dict)  # user id -> client


def build_event(b: Bench) -> None:
    """Players, judges, the organiser, the event, registrations and sessions, in bulk."""

    n, j = b.args.players, b.args.judges
    slug = f"{USER_PREFIX}{n}"
    deleted = harness.delete_previous(USER_PREFIX)
    started = time.perf_counter()
    b.organiser, players, unusable = harness.new_people(USER_PREFIX, n, organiser_number=n + j)
    judges = harness.new_judges(USER_PREFIX, j, n, unusable)
    harness.new_event(b, f"Bench Judging Open {n}", slug, 8)
    b.event.judges.add(*judges)
    harness.register(b.event, players)
    sessions = harness.new_sessions([*players, *judges])
    b.players = {pk: Client(pk, key) for pk, key in sessions.items()}
    b.judges = [b.players.pop(u.pk) for u in judges]
    harness.print_built(slug, f"{n:,} players, {j} judges", started, deleted)


# --- HTTP -----------------------------------------------------------------------------------------


@dataclass
class Hit:
    kind: str
    status: int | str
    seconds: float
    expected: bool


def send(
    port: int,
    method: str,
    path: str,
    client: Client | None,
    body: Any = None,
    accept: str = JSON,
) -> tuple[int | str, bytes, float]:
    """One request on its own connection (gunicorn's sync workers close it anyway);
    (status or the exception's name, body, seconds)."""
    headers = client.headers(accept) if client is not None else {"Accept": accept}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    started = time.perf_counter()
    status: int | str
    try:
        status, data = harness.request(port, method, path, headers, payload)
    except (OSError, http.client.HTTPException) as exc:
        status, data = type(exc).__name__, b""
    return status, data, time.perf_counter() - started


class LockSampler(threading.Thread):
    """Every quarter second: how many of the bench database's sessions are active, and how
    many of them wait on a lock (pg_stat_activity). Bounded by stop()."""

    def __init__(self, db_url: str) -> None:
        super().__init__(daemon=True)
        self.db_url = db_url
        self.samples: list[tuple[int, int]] = []
        self.stopping = threading.Event()
        self.error = ""

    def run(self) -> None:
        import psycopg

        try:
            with psycopg.connect(self.db_url, autocommit=True, connect_timeout=3) as conn:
                while not self.stopping.wait(0.25):
                    row = conn.execute(
                        "SELECT count(*) FILTER (WHERE state = 'active'), "
                        "count(*) FILTER (WHERE wait_event_type = 'Lock') "
                        "FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    ).fetchone()
                    if row is not None:
                        self.samples.append((int(row[0]), int(row[1])))
        except psycopg.Error as exc:
            self.error = str(exc).strip().splitlines()[0]

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=5)


# --- the load ---------------------------------------------------------------------------------


@dataclass
class Load:
    port: int
    deadline: float
    page: bool  # the judges' page answers: it is what judges read
    poll_url: str = ""  # what the open page fetches to stay current ("": read the page)
    idle_seconds: float = IDLE_S  # how long a judge with nothing to take waits to look again
    table_seconds: float = 0.0  # how long a judge is at the table between taking and ruling
    hits: list[Hit] = field(default_factory=list)
    conflicts: Counter[str] = field(default_factory=Counter)
    rulings: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    players_done: threading.Event = field(default_factory=threading.Event)
    players_took: float = 0.0  # seconds from the start until the last player's request ended
    unexpected: Counter[str] = field(default_factory=Counter)  # "kind status: body" -> count
    page_unreadable: int = 0  # page reads whose markup had no open count: the API read too

    def record(self, kind: str, status: int | str, seconds: float, ok: bool, body: bytes) -> None:
        with self.lock:
            self.hits.append(Hit(kind, status, seconds, ok))
            if not ok:
                text = " ".join(body[:2000].decode(errors="replace").split())
                if "<title>" in text:  # Django's error page: its title says enough
                    text = text[text.index("<title>") + 7 :].split("<", 1)[0]
                self.unexpected[f"{kind} {status}: {text[:160]}"] += 1


def open_call(load: Load, match_id: int, player: Client, question: str) -> None:
    status, body, seconds = send(
        load.port, "POST", f"/api/matches/{match_id}/calls/", player, {"question": question}
    )
    load.record("open a call", status, seconds, status == 201, body)


def dispute(load: Load, match_id: int, a: Client, b: Client) -> None:
    """Each player reports that they won: the second report opens a dispute."""
    for player, games in ((a, [1, 0, 0]), (b, [0, 1, 0])):
        status, body, seconds = send(
            load.port, "POST", f"/api/matches/{match_id}/report/", player, {"games": games}
        )
        load.record("report (dispute)", status, seconds, status == 200, body)
        if status != 200:
            return


def run_players(load: Load, tasks: list[tuple[float, Any, tuple[Any, ...]]], clients: int) -> None:
    """Each task at its moment (seconds after the start) on a bounded pool of threads."""

    def one(fn: Any, args: tuple[Any, ...]) -> None:
        if time.perf_counter() < load.deadline:  # bounded even when the server stalls
            fn(load, *args)

    t0 = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=clients) as pool:
            for at, fn, args in sorted(tasks, key=lambda t: t[0]):
                wait = t0 + at - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                pool.submit(one, fn, args)
    finally:
        load.players_took = time.perf_counter() - t0
        load.players_done.set()


def read_queue(load: Load, judge: Client, poll: bool = False) -> tuple[list[int], int] | None:
    """The queue as a judge sees it: (the ids a judge can claim, oldest first; how many items
    are open or claimed), or None when it did not answer. From the judges' page when it is
    served (its claim buttons and its open count; ``poll``: the list alone, as the open page
    fetches it to stay current); from the API while it is not, or when the page's markup no
    longer says (then from both, and the output says so)."""
    if load.page:
        path, kind = (load.poll_url, "queue page (poll)") if poll else (QUEUE_PAGE, "queue page")
        status, body, seconds = send(load.port, "GET", path or QUEUE_PAGE, judge, accept=HTML)
        load.record(kind, status, seconds, status == 200, body)
        if status != 200:
            return None
        html = body.decode(errors="replace")
        count = PAGE_OPEN_COUNT.search(html)
        if count is not None:
            return [int(i) for i in PAGE_CLAIM.findall(html)], int(count.group(1))
        with load.lock:
            load.page_unreadable += 1
    status, body, seconds = send(load.port, "GET", QUEUE_API, judge)
    kind = "queue (API, page unread)" if load.page else "queue (API)"
    load.record(kind, status, seconds, status == 200, body)
    if status != 200:
        return None
    listing = json.loads(body)
    unclaimed = [
        int(c["id"])
        for c in listing.get("results") or []
        if c["status"] == "open" and c.get("holder_id") is None
    ]
    return unclaimed, int(listing["count"])


def rule(load: Load, judge: Client, item: dict[str, Any]) -> bool:
    """The holder's ruling: a citation, and for a dispute the result (a wins)."""
    text = "Ruled at the table after hearing both players."
    ruling: dict[str, Any] = {"text": text, "citations": ["CR 4.2.2"]}
    if item["kind"] == "dispute":
        ruling["result"] = {"games": [1, 0, 0]}
    status, body, seconds = send(
        load.port, "POST", f"/api/calls/{item['id']}/ruling/", judge, ruling
    )
    load.record(f"ruling ({item['kind']})", status, seconds, status == 201, body)
    if status == 201:
        with load.lock:
            load.rulings += 1
    return status == 201


def judge_loop(load: Load, judge: Client) -> None:
    """Read the queue (as a judge looks at the page), take the next call ("Take the next
    call": the longest-waiting one nobody holds, no race with the other judges), rule on it,
    and go back to the page; flat out while there is something to take. With nothing to
    take, the judge watches the open page, which looks again on its own every
    ``idle_seconds`` (its poll). Until the players are done and nothing is open, or the
    deadline."""
    held: dict[str, Any] | None = None  # claimed, but the ruling failed: tried twice more
    tries = 0
    idle = False  # nothing to take at the last look
    while time.perf_counter() < load.deadline:
        if held is not None and tries < 2:
            tries += 1
            if rule(load, judge, held):
                held = None
            continue
        held = None
        if idle:
            time.sleep(load.idle_seconds)
        queue = read_queue(load, judge, poll=idle)
        if queue is None:
            idle = True
            continue
        unclaimed, open_count = queue
        if idle and not unclaimed:  # the page still shows nothing to take: no click
            if open_count == 0 and load.players_done.is_set():
                return
            continue
        status, body, seconds = send(load.port, "POST", "/api/calls/claim-next/", judge)
        if status == 204:  # nothing waiting that nobody holds
            load.record("claim next (none waiting)", status, seconds, True, body)
            if open_count == 0 and load.players_done.is_set():
                return
            idle = True
            continue
        idle = False
        load.record("claim next", status, seconds, status == 200, body)
        if status == 200:
            item = json.loads(body)
            if load.table_seconds > 0:
                time.sleep(load.table_seconds)
            if not rule(load, judge, item):
                held, tries = item, 0


def choose_queue(port: int, judge: Client, idle_seconds: float | None) -> tuple[bool, str, float]:
    """(whether the judges' page answers: then it is the figure, else the API behind it is;
    what the open page polls; how long an idle judge waits to look again: ``idle_seconds``,
    else the page's own poll)."""
    status, page, _ = send(port, "GET", QUEUE_PAGE, judge, accept=HTML)
    api_status, body, _ = send(port, "GET", QUEUE_API, judge)
    if api_status != 200:
        raise RuntimeError(f"GET {QUEUE_API} as a judge answers {api_status}: {body[:200]!r}")
    if status != 200:
        why = "not built yet" if status == 404 else "not serving yet"
        print(
            f"   the judges' page GET {QUEUE_PAGE} answers {status} ({why}): the figure is "
            f"GET {QUEUE_API}"
        )
        return False, "", IDLE_S if idle_seconds is None else idle_seconds
    text = page.decode(errors="replace")
    readable = PAGE_OPEN_COUNT.search(text) is not None
    poll_url = PAGE_POLL_URL.search(text)
    poll_seconds = PAGE_POLL_SECONDS.search(text)
    url = html.unescape(poll_url.group(1)) if poll_url else ""
    idle = idle_seconds
    if idle is None:
        idle = float(poll_seconds.group(1)) if poll_seconds else IDLE_S
    print(
        f"   the judges' page GET {QUEUE_PAGE} answers 200: it is what judges read (its "
        "claim buttons say what to claim), its p95 the figure"
        + ("" if readable else "; its markup has no open count: the API is read too")
    )
    print(
        f"   a judge with nothing to take watches the open page: it looks again every "
        f"{idle:g} s ({'--idle-seconds' if idle_seconds is not None else 'the page polls'} "
        f"GET {url or QUEUE_PAGE})"
    )
    return True, url, idle


def plan_players(b: Bench) -> tuple[list[tuple[float, Any, tuple[Any, ...]]], int, int]:
    """(the tasks at seeded moments, calls, disputes) on distinct matches of the round."""
    matches = list(
        b.round_.matches.filter(b__isnull=False)
        .values_list("pk", "a__player_id", "b__player_id")
        .order_by("table")
    )
    b.rng.shuffle(matches)
    n_calls = min(b.args.calls, len(matches))
    n_disputes = min(b.args.disputes, len(matches) - n_calls)
    spread = max(b.args.window - 1, 0.1)
    questions = [
        "Can my opponent substitute twice in one battle?",
        "We disagree on the trophy count of battle 3.",
        "Is this play legal under the format's rules?",
        "My opponent's deck box has a card not on the list.",
    ]
    tasks: list[tuple[float, Any, tuple[Any, ...]]] = []
    for k, (pk, a, bb) in enumerate(matches[:n_calls]):
        caller = b.players[a if b.rng.random() < 0.5 else bb]
        tasks.append(
            (b.rng.uniform(0, spread), open_call, (pk, caller, questions[k % len(questions)]))
        )
    for pk, a, bb in matches[n_calls : n_calls + n_disputes]:
        tasks.append((b.rng.uniform(0, spread), dispute, (pk, b.players[a], b.players[bb])))
    return tasks, n_calls, n_disputes


def outcome(b: Bench) -> tuple[Counter[tuple[str, str]], int]:
    """(calls by (kind, status), disputed matches without an open call: a dispute nobody
    will rule on; those still in the queue are counted as unresolved calls)."""
    from matches.models import OPEN_CALL_STATUSES, JudgeCall, MatchStatus

    calls = Counter(
        (kind, status)
        for kind, status in JudgeCall.objects.filter(tournament=b.event).values_list(
            "kind", "status"
        )
    )
    disputed = (
        b.round_.matches.filter(status=MatchStatus.DISPUTED)
        .exclude(calls__status__in=OPEN_CALL_STATUSES)
        .count()
    )
    return calls, disputed


def measure(b: Bench, db_url: str, redis: str | None) -> None:
    args = b.args
    serve = harness.serving(
        "bench-judge-",
        db_url,
        redis,
        SECRET_KEY,
        args.workers,
        args.threads,
        log_lines=8,
        show_500s=True,
    )
    with serve as (server, _env, collected):
        print(
            f"\nserver: {' '.join(server.command[2:])} (DEBUG off, cache {harness.cache_text(redis)}); "
            f"collectstatic {fmt(collected)}"
        )
        status, _, _ = send(server.port, "GET", "/api/me/", b.judges[0])
        print(f"   a judge's session: GET /api/me/ answers {status}")
        page, poll_url, idle_seconds = choose_queue(server.port, b.judges[0], args.idle_seconds)
        # Warm every worker up (imports, URLconf) as a server already serving would be.
        warm = Load(server.port, time.perf_counter() + 60, page)
        for judge in b.judges:
            read_queue(warm, judge)
        alone = [h.seconds for h in warm.hits if h.kind.startswith("queue")]
        print(f"   the empty queue, one judge at a time: median {fmt(percentile(alone, 50))}")

        tasks, n_calls, n_disputes = plan_players(b)
        print(f"   {harness.settle()}")
        print(
            f"   {n_calls} calls and {n_disputes} disputes at seeded random moments of "
            f"{args.window:g} s ({args.player_clients} player threads), {len(b.judges)} judges "
            f"claiming and ruling ({args.table_seconds:g} s at the table each"
            f"{'' if args.table_seconds else ': flat out'}); bounded at {args.bound:g} s; load average "
            f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}",
            flush=True,
        )
        sampler = LockSampler(db_url)
        cpu_server, cpu_client = server.cpu_seconds(), time.process_time()
        t0 = time.perf_counter()
        load = Load(server.port, t0 + args.bound, page, poll_url, idle_seconds, args.table_seconds)
        sampler.start()
        players = threading.Thread(
            target=run_players, args=(load, tasks, args.player_clients), daemon=True
        )
        players.start()
        judges = [
            threading.Thread(target=judge_loop, args=(load, j), daemon=True) for j in b.judges
        ]
        for t in judges:
            t.start()
        players.join(timeout=args.bound + 2 * REQUEST_TIMEOUT_S)
        for t in judges:
            t.join(timeout=max(load.deadline - time.perf_counter(), 0) + 2 * REQUEST_TIMEOUT_S)
        duration = time.perf_counter() - t0
        sampler.stop()
        cpu_after = server.cpu_seconds()
        server_cpu = None
        if cpu_server is not None and cpu_after is not None:
            server_cpu = cpu_after - cpu_server
        client_cpu = time.process_time() - cpu_client
        load_after = os.getloadavg()
        report(b, load, duration, server_cpu, client_cpu, load_after, sampler, n_calls, n_disputes)


def report(
    b: Bench,
    load: Load,
    duration: float,
    server_cpu: float | None,
    client_cpu: float,
    load_after: tuple[float, float, float],
    sampler: LockSampler,
    n_calls: int,
    n_disputes: int,
) -> None:
    hits = load.hits
    calls, disputed = outcome(b)
    resolved = {
        k: sum(v for (kind, st), v in calls.items() if kind == k and st == "resolved")
        for k in ("call", "dispute")
    }
    made = {k: sum(v for (kind, _), v in calls.items() if kind == k) for k in ("call", "dispute")}
    unresolved = sum(v for (_, st), v in calls.items() if st != "resolved")
    missing = max(n_calls - made["call"], 0) + max(n_disputes - made["dispute"], 0)
    bad = [h for h in hits if not h.expected]
    n_errors = len(bad) + unresolved + missing + disputed
    print(
        f"\n   {len(hits):,} requests in {duration:.1f} s ({len(hits) / duration:,.0f} requests/s); "
        f"{load.rulings} rulings ({load.rulings / duration:.1f}/s); claims lost to another "
        f"judge (409): {sum(load.conflicts.values())}"
        + (
            f" ({', '.join(f'{k} {v}' for k, v in load.conflicts.items())})"
            if load.conflicts
            else ""
        )
    )
    print(
        f"   the players' {n_calls} calls and {n_disputes} disputes were all sent "
        f"{load.players_took:.1f} s after the start"
    )
    print(
        f"   calls: {made['call']} opened, {resolved['call']} resolved; disputes: "
        f"{made['dispute']} opened, {resolved['dispute']} resolved; unresolved {unresolved}, "
        f"missing {missing}, disputed matches out of the queue {disputed}"
    )
    harness.print_cpu(
        server_cpu, client_cpu, duration, len(hits), ", ".join(f"{x:.2f}" for x in load_after)
    )
    if sampler.samples:
        active = [a for a, _ in sampler.samples]
        waiting = [w for _, w in sampler.samples]
        print(
            f"   database sessions (pg_stat_activity, {len(sampler.samples)} samples): active "
            f"mean {sum(active) / len(active):.1f}, max {max(active)}; waiting on a lock mean "
            f"{sum(waiting) / len(waiting):.2f}, max {max(waiting)}, in "
            f"{sum(1 for w in waiting if w) / len(waiting):.0%} of samples"
        )
    elif sampler.error:
        print(f"   database sessions: not sampled ({sampler.error})")
    print(
        f"   {'request':<26} | {'count':>6} | {'errors':>6} | {'p50':>7} | {'p95':>7} | "
        f"{'p99':>7} | {'max':>7}"
    )
    for kind in harness.in_order([h.kind for h in hits]):
        ms = [h.seconds * 1000 for h in hits if h.kind == kind]
        errors = sum(1 for h in hits if h.kind == kind and not h.expected)
        print(
            f"   {kind:<26} | {len(ms):>6,} | {errors:>6} | {percentile(ms, 50):>4.0f} ms | "
            f"{percentile(ms, 95):>4.0f} ms | {percentile(ms, 99):>4.0f} ms | "
            f"{max(ms, default=0):>4.0f} ms"
        )
    if load.page_unreadable:
        print(
            f"   the page's markup had no open count {load.page_unreadable} times: "
            "the API was read for the ids then"
        )
    for text, count in load.unexpected.most_common(6):
        print(f"   error x{count}: {text}")
    # Every read of the page counts: a judge's loads and the open page's own polls.
    figure = ("queue page", "queue page (poll)") if load.page else ("queue (API)",)
    queue_ms = [h.seconds * 1000 for h in hits if h.kind in figure]
    p95 = percentile(queue_ms, 95)
    label = f"GET {QUEUE_PAGE} (loads, polls)" if load.page else "GET /api/calls/ (page not built)"
    b.summary += [
        ("errors (5xx, unexpected 4xx, unresolved)", f"{n_errors}", "0", yes(n_errors == 0)),
        (f"queue read {label}: p95", f"{p95:.0f} ms", "< 300 ms", yes(p95 < QUEUE_P95_GOAL_MS)),
        (
            "queue read: p50 / p99",
            f"{percentile(queue_ms, 50):.0f} / {percentile(queue_ms, 99):.0f} ms",
            "-",
            "-",
        ),
        (
            f"{n_calls} calls + {n_disputes} disputes resolved",
            f"{resolved['call'] + resolved['dispute']} in {duration:.1f} s",
            f"<= {b.args.bound:g} s",
            yes(unresolved + missing == 0 and duration <= b.args.bound + 1),
        ),
        (
            "throughput: rulings / requests",
            f"{load.rulings / duration:.1f} / {len(hits) / duration:.0f} /s",
            "-",
            "-",
        ),
        ("claims lost to another judge (409)", f"{sum(load.conflicts.values())}", "-", "-"),
    ]


# --- main -----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--judges", type=int, default=20)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--disputes", type=int, default=200)
    parser.add_argument("--window", type=float, default=60.0, help="seconds the players arrive in")
    parser.add_argument("--bound", type=float, default=180.0, help="seconds, the whole load")
    parser.add_argument("--player-clients", type=int, default=32, help="player threads")
    parser.add_argument(
        "--threads", type=int, default=1, help="gunicorn threads per worker (production: 1)"
    )
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument(
        "--table-seconds",
        type=float,
        default=TABLE_SECONDS,
        help="how long a judge is at the table between taking a call and ruling (0: flat out)",
    )
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=None,
        help="how long a judge with nothing to take waits to look again (default: as often "
        "as the open page polls, its data-poll-seconds)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.players < 4 or args.judges < 1 or args.calls < 0 or args.disputes < 0:
        parser.error("at least 4 players and 1 judge; calls and disputes 0 or more")
    if not 0 < args.bound <= 600 or not 0 < args.window <= args.bound:
        parser.error("0 < --window <= --bound <= 600")
    if args.calls + args.disputes > args.players // 2:
        parser.error("each call and dispute needs its own match: at most --players / 2")

    setup = harness.start(
        "bench/judge_queue.py", DEFAULT_DATABASE_URL, SECRET_KEY, loopback_only=True
    )
    if setup is None:
        return 0

    b = Bench(args, random.Random(args.seed))
    build_event(b)
    b.round_ = harness.pair_and_publish(b)
    measure(b, setup.db_url, setup.redis)

    harness.print_summary(f"{args.players:,} players, {args.judges} judges", setup.at, b.summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
