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
   (docker-compose.yml: ``--workers 3 --timeout 60``, DEBUG off, Redis cache), on loopback.
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
import logging
import os
import queue
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_rounds"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
# Shared by this process (which signs the sessions) and gunicorn (which reads them).
SECRET_KEY = "bench-rounds-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz"
USER_PREFIX = "bench-rounds-"
PAIR_GOAL_S = 3.0
SPIKE_P95_GOAL_MS = 200.0
STANDINGS_GOAL_S = 1.0
REQUEST_TIMEOUT_S = 30.0


# --- the database ---------------------------------------------------------------------------


def database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL") or DEFAULT_DATABASE_URL


def prepare_database(url: str) -> str | None:
    """Create the bench database when missing; None when ready, else why it cannot be used."""
    try:
        import psycopg
        from psycopg import sql
    except ImportError:
        return "psycopg is not installed"
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        return f"{url} is not a PostgreSQL URL"
    if "bench" not in name:
        return f"refusing database {name!r}: this script deletes data, use one named *bench*"
    admin = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
            ).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
                print(f"created database {name}")
    except psycopg.Error as exc:
        return f"PostgreSQL at {parts.hostname}:{parts.port or 5432} is not reachable ({str(exc).strip().splitlines()[0]})"
    return None


def redis_url() -> str | None:
    url = os.environ.get("BENCH_REDIS_URL") or DEFAULT_REDIS_URL
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception:
        return None
    return url


def app_env(db_url: str, redis: str | None, **extra: str) -> dict[str, str]:
    """The production settings on loopback, for this process, manage.py and gunicorn."""
    env = dict(os.environ)
    for key in ("REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        env.pop(key, None)  # Redis, when given, is broker and cache as in production
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DATABASE_URL=db_url,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SESSION_COOKIE_SECURE="0",
        DJANGO_CSRF_COOKIE_SECURE="0",
        DJANGO_LOG_LEVEL="WARNING",
        **extra,
    )
    if redis:
        env["REDIS_URL"] = redis
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 600) -> None:
    proc = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")


# --- timing helpers ---------------------------------------------------------------------------


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


@contextmanager
def phases(targets: list[tuple[Any, str, str]]) -> Iterator[dict[str, float]]:
    """Wrap module attributes with wall-clock timers: {label: seconds} of everything they ran."""
    spent: dict[str, float] = defaultdict(float)
    saved = []
    for owner, attr, label in targets:
        original = getattr(owner, attr)
        saved.append((owner, attr, original))

        def timed(*a: Any, _f: Callable[..., Any] = original, _l: str = label, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return _f(*a, **k)
            finally:
                spent[_l] += time.perf_counter() - start

        setattr(owner, attr, timed)
    try:
        yield spent
    finally:
        for owner, attr, original in saved:
            setattr(owner, attr, original)


def percentile(values: list[float], p: float) -> float:
    """Nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


# --- building the event -------------------------------------------------------------------------


@dataclass
class Bench:
    args: argparse.Namespace
    rng: random.Random
    event: Any = None
    organiser: Any = None
    registrations: list[Any] = field(default_factory=list)
    sessions: dict[int, str] = field(default_factory=dict)  # user id -> session key
    summary: list[tuple[str, str, str, str]] = field(default_factory=list)


def player_id(i: int) -> str:
    from accounts.player_ids import ALPHABET

    digits = []
    for _ in range(6):
        i, d = divmod(i, len(ALPHABET))
        digits.append(ALPHABET[d])
    raw = "".join(reversed(digits))
    return f"{raw[:3]}-{raw[3:]}"


def delete_previous() -> None:
    """Every event, player and session an earlier run made (any --players)."""
    from django.contrib.sessions.models import Session

    from accounts.models import User
    from matches.models import Match, Report, ResultVersion, Round, StandingsSnapshot
    from tournaments.models import AuditEntry, Registration, Tournament

    events = Tournament.objects.filter(slug__startswith=USER_PREFIX)
    StandingsSnapshot.objects.filter(round__tournament__in=events).delete()
    ResultVersion.objects.filter(match__round__tournament__in=events).delete()
    Report.objects.filter(match__round__tournament__in=events).delete()
    Match.objects.filter(round__tournament__in=events).delete()
    Round.objects.filter(tournament__in=events).delete()
    AuditEntry.objects.filter(tournament__in=events).delete()
    Registration.objects.filter(tournament__in=events).delete()
    events.delete()
    # The bench database holds nothing else: every session is one of ours.
    Session.objects.all().delete()
    User.objects.filter(username__startswith=USER_PREFIX).delete()


def build_event(b: Bench) -> None:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from accounts.models import User
    from tournaments.models import Registration, RegistrationStatus, Tournament
    from tournaments.status import EventStatus

    n = b.args.players
    slug = f"bench-rounds-{n}"
    started = time.perf_counter()
    delete_previous()
    deleted = time.perf_counter() - started
    started = time.perf_counter()
    unusable = make_password(None)  # nobody logs in with a password: sessions are made below
    b.organiser = User(
        username=f"{USER_PREFIX}organiser",
        display_name="Bench Organiser",
        is_organiser=True,
        password=unusable,
        player_id=player_id(n),
    )
    b.organiser.save()
    users = User.objects.bulk_create(
        [
            User(
                username=f"{USER_PREFIX}{i:05d}",
                display_name=f"Player {i + 1:04d}",
                email=f"{USER_PREFIX}{i:05d}@example.com",
                password=unusable,
                player_id=player_id(i),
            )
            for i in range(n)
        ],
        batch_size=1000,
    )
    b.event = Tournament.objects.create(
        name=f"Bench Open {n}",
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
        planned_rounds=b.args.rounds,
        top_cut_size=8,
        pairing_seed=f"bench{b.args.seed}",
        created_by=b.organiser,
    )
    b.event.organisers.add(b.organiser)
    b.registrations = Registration.objects.bulk_create(
        [
            Registration(tournament=b.event, player=u, status=RegistrationStatus.REGISTERED)
            for u in users
        ],
        batch_size=1000,
    )
    store = SessionStore()
    expires = timezone.now() + timedelta(days=1)
    rows = []
    for u in users:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(u.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: u.get_session_auth_hash(),
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        b.sessions[u.pk] = key
    Session.objects.bulk_create(rows, batch_size=1000)
    print(
        f"event {slug}: {n:,} users, registrations and sessions in "
        f"{fmt(time.perf_counter() - started)} (previous run's data deleted in {fmt(deleted)})",
        flush=True,
    )


def random_result(rng: random.Random) -> tuple[tuple[int, int, int], list[list[int]]]:
    """A best-of-1 BoBA result: 5% draws, otherwise either side wins 4 battles to 0-3."""
    x = rng.random()
    if x < 0.05:
        return (0, 0, 1), [[3, 3]]
    lost = rng.randint(0, 3)
    if x < 0.525:
        return (1, 0, 0), [[4, lost]]
    return (0, 1, 0), [[lost, 4]]


def enter_results(b: Bench, round_: Any) -> None:
    """Every result of a published round: all but the last written in bulk as the service
    writes a staff entry (match, result version, audit entry); the last through
    services.match_report, which finishes the round (and warms its standings) itself."""
    from django.db import transaction
    from django.utils import timezone

    from matches import services
    from matches.models import Match, MatchStatus, ResultChange, ResultVersion, RoundStatus
    from tournaments.models import AuditEntry

    pending = list(round_.matches.filter(status=MatchStatus.PENDING).order_by("table", "id"))
    *bulk, last = pending
    now = timezone.now()
    versions, audits = [], []
    for m in bulk:
        games, battles = random_result(b.rng)
        before = {"status": m.status}
        m.status = MatchStatus.FINAL
        m.games_a, m.games_b, m.games_drawn = games
        m.battles = battles
        m.result_version = 1
        m.updated_at = now
        after = {"games": list(games), "battles": battles, "status": m.status}
        versions.append(
            ResultVersion(
                match=m,
                number=1,
                change=ResultChange.ENTERED,
                actor=b.organiser,
                before=before,
                after=after,
            )
        )
        audits.append(
            AuditEntry(
                tournament=b.event,
                actor=b.organiser,
                action=f"match.{ResultChange.ENTERED}",
                target=f"match:{m.pk}",
                data={
                    "round": round_.number,
                    "table": m.table,
                    "before": before,
                    "after": after,
                    "reason": "",
                },
            )
        )
    fields = ["status", "games_a", "games_b", "games_drawn", "battles", "result_version"]
    with transaction.atomic():
        Match.objects.bulk_update(bulk, [*fields, "updated_at"], batch_size=500)
        ResultVersion.objects.bulk_create(versions, batch_size=1000)
        AuditEntry.objects.bulk_create(audits, batch_size=1000)
    games, battles = random_result(b.rng)
    services.match_report(actor=b.organiser, match=last, games=list(games), battles=battles)
    round_.refresh_from_db()
    if round_.status != RoundStatus.FINISHED:
        raise RuntimeError(f"round {round_.number} did not finish: {round_.status}")


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


def analyze() -> None:
    """Fresh planner statistics after the bulk writes, as autovacuum keeps them in service."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


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
        (services, "pairable_registrations", "load the players"),
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


def yes(met: bool) -> str:
    return "yes" if met else "NO"


# --- 2: the publish spike -------------------------------------------------------------------------


@dataclass
class Hit:
    kind: str
    status: int | str
    seconds: float
    size: int
    done_at: float


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(port: int, path: str, session: str, accept: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    try:
        conn.request("GET", path, headers={"Cookie": f"sessionid={session}", "Accept": accept})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def visit(port: int, pages: list[tuple[str, str, str]], session: str, t0: float) -> list[Hit]:
    """One player: each page in turn on one connection (reopened when the server closes it)."""
    hits = []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    try:
        for kind, path, accept in pages:
            started = time.perf_counter()
            try:
                conn.request(
                    "GET", path, headers={"Cookie": f"sessionid={session}", "Accept": accept}
                )
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


class Server:
    """gunicorn as production runs it, on a free loopback port; stopped in stop()."""

    def __init__(self, env: dict[str, str], workers: int, threads: int, log: Path) -> None:
        self.port = free_port()
        self.command = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--timeout",
            "60",
        ]
        if threads > 1:
            self.command += ["--threads", str(threads)]
        self.log = log
        self._log_file = log.open("w")
        self.proc = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=env,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.proc.returncode}):\n{self.tail()}")
            try:
                status, _ = get(self.port, "/healthz", "", "application/json")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer /healthz within {timeout:.0f} s")

    def cpu_seconds(self) -> float | None:
        """CPU time of the master and its workers so far (Linux /proc), or None."""
        try:
            pids = [self.proc.pid]
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
            pids += [int(p) for p in children.read_text().split()]
            ticks = 0
            for pid in pids:
                stat = Path(f"/proc/{pid}/stat").read_text()
                fields = stat[stat.rindex(")") + 2 :].split()
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, ValueError):
            return None
        return ticks / os.sysconf("SC_CLK_TCK")

    def tail(self, lines: int = 15) -> str:
        self._log_file.flush()
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # the master stops its workers
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this script started
                self.proc.wait(timeout=10)
        self._log_file.close()


def choose_pages(port: int, slug: str, number: int, session: str) -> list[tuple[str, str, str]]:
    """The pages when built; while one answers 404, the API endpoint behind it."""
    html = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
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
        status, _ = get(port, page, session, html)
        if status == 404:
            api_status, _ = get(port, api, session, "application/json")
            print(f"   {kind}: page GET {page} is 404 (not built yet): loading the API, GET {api}")
            if api_status != 200:
                print(f"     (the API answers {api_status})")
            pages.append((f"{kind} (API)", api, "application/json"))
        else:
            print(f"   {kind}: page GET {page} answers {status}")
            pages.append((kind, page, html))
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
        server = (
            f"server {run.server_cpu:.0f} s ({run.server_cpu / run.duration:.2f} cores, "
            f"{run.server_cpu / max(len(hits), 1) * 1000:.0f} ms a request)"
            if run.server_cpu is not None
            else "server: unknown"
        )
        print(
            f"   CPU used: {server}, this load generator {run.client_cpu:.0f} s "
            f"({run.client_cpu / run.duration:.2f} cores), of {os.cpu_count()} CPUs; "
            f"load average after: {os.getloadavg()[0]:.2f}"
        )
    print(
        f"   {'page':<18} | {'requests':>8} | {'errors':>6} | {'p50':>7} | {'p95':>7} | "
        f"{'p99':>7} | {'max':>7} | {'size':>9}"
    )
    groups = sorted({h.kind for h in hits}, key=lambda k: [h.kind for h in hits].index(k))
    for kind in [*groups, "all"]:
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
    tmp = Path(tempfile.mkdtemp(prefix="bench-rounds-"))
    server = None
    try:
        env = app_env(db_url, redis, DJANGO_STATIC_ROOT=str(tmp / "static"))
        started = time.perf_counter()
        manage(env, "collectstatic", "--noinput", timeout=300)
        collected = time.perf_counter() - started
        server = Server(env, b.args.workers, b.args.threads, tmp / "gunicorn.log")
        server.wait_ready()
        print(
            f"   server: {' '.join(server.command[2:])} (DEBUG off, cache "
            f"{'Redis ' + redis if redis else 'local memory: Redis not reachable'}, "
            f"DATABASE_CONN_MAX_AGE={env.get('DATABASE_CONN_MAX_AGE', '60 (default)')}); "
            f"collectstatic {fmt(collected)}"
        )
        sessions = [b.sessions[r.player_id] for r in b.registrations]
        slug = b.event.slug
        status, body = get(server.port, "/api/me/", sessions[0], "application/json")
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
    finally:
        if server is not None:
            log = server.tail(5)
            server.stop()
            if any(w in log for w in ("Error", "Traceback", "CRITICAL")):
                print("   gunicorn log (last lines):\n" + log)
        shutil.rmtree(tmp, ignore_errors=True)


# --- 3: standings -------------------------------------------------------------------------------


def measure_standings(b: Bench) -> None:
    from matches import services
    from matches.models import StandingsSnapshot

    last = services.last_finished_swiss_round(b.event)
    assert last is not None
    times, cpus = [], []
    spent: dict[str, float] = {}
    for _ in range(3):
        StandingsSnapshot.objects.filter(round=last).delete()
        targets = [
            (services, "swiss_history", "load the history (swiss_history)"),
            (services, "compute_standings", "compute (tournaments.standings)"),
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

    db_url = database_url()
    problem = prepare_database(db_url)
    if problem:
        print(f"bench/rounds.py skipped: {problem}")
        return 0
    redis = redis_url()
    env = app_env(db_url, redis)
    # This process gets an in-memory broker (and a local-memory cache): whatever happens, no
    # task leaves it.
    for key in ("REDIS_URL", "CELERY_RESULT_BACKEND"):
        os.environ.pop(key, None)
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE"))})
    total = time.perf_counter()
    started = time.perf_counter()
    manage(env, "migrate", "--noinput")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"database {urlsplit(db_url).path.lstrip('/')} on {urlsplit(db_url).hostname} migrated "
        f"in {fmt(time.perf_counter() - started)}; {os.cpu_count()} CPUs, load average {load}"
    )

    import django

    django.setup()
    from config.celery import app as celery_app
    from matches import services

    # The pairing task runs in this process, so its time is part of the call. The settings
    # are namespaced (CELERY_...): that is the key to set.
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=True, CELERY_TASK_EAGER_PROPAGATES=True)
    if not celery_app.conf.task_always_eager:
        raise RuntimeError("could not make the Celery tasks run eagerly")
    # kombu names the (unused, in-memory) broker's missing host on every eager call.
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)

    b = Bench(args, random.Random(args.seed))
    build_event(b)
    print(
        f"rounds 1-{args.measure_round - 1} through the services (pairing in the Celery task "
        f"above {services.PAIR_IN_TASK_ABOVE} players, run eagerly), random results, seed "
        f"{args.seed}:",
        flush=True,
    )
    play_rounds(b, range(1, args.measure_round))
    analyze()

    round_ = measure_pairing(b)
    if args.no_spike:
        services.round_publish(actor=b.organiser, round_=round_)
        print("\n2. publish spike: skipped (--no-spike)")
    else:
        measure_spike(b, round_, db_url, redis)
    enter_results(b, round_)

    print(f"\nrounds {args.measure_round + 1}-{args.rounds}:", flush=True)
    play_rounds(b, range(args.measure_round + 1, args.rounds + 1))
    analyze()
    measure_standings(b)

    print(
        f"\nSummary ({args.players:,} players, PostgreSQL; total run {fmt(time.perf_counter() - total)}):"
    )
    width = max(len(row[0]) for row in b.summary)
    print(f"  {'figure':<{width}} | {'value':>9} | {'goal':<9} | met")
    print("  " + "-" * (width + 30))
    for figure, value, goal, met in b.summary:
        print(f"  {figure:<{width}} | {value:>9} | {goal:<9} | {met}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
