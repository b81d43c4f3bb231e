"""What the PostgreSQL benchmarks that drive gunicorn share (bench/rounds.py, bench/judge_queue.py).

Each of them keeps its own database (its name must contain "bench"), secret key and user prefix
and passes them in; this module holds the rest: making and migrating the database, the
production settings on loopback, the users, event and sessions built in bulk, gunicorn started
as in production, plain HTTP on loopback, timing and the summary table. Imported as
``harness``: the scripts run as ``.venv/bin/python bench/<script>.py``, so bench/ is on
sys.path; importing it puts the repository before it. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import logging
import os
import random
import re
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

# The repository, first on sys.path: before bench/ (the running script's folder), whose
# decks.py and engine.py would otherwise hide the apps of the same names.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
REQUEST_TIMEOUT_S = 30.0
HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
JSON = "application/json"
# The last line of a traceback: the exception and its message.
EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Warning|DoesNotExist|Deadlock\w*)\b")


# --- the database and the server's settings -------------------------------------------------


def database_url(default: str) -> str:
    return os.environ.get("BENCH_DATABASE_URL") or default


def prepare_database(url: str, loopback_only: bool = False) -> str | None:
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
    if loopback_only and parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        return f"refusing host {parts.hostname!r}: this benchmark runs on loopback only"
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


def app_env(db_url: str, redis: str | None, secret_key: str, **extra: str) -> dict[str, str]:
    """The production settings on loopback, for this process, manage.py and gunicorn; the
    secret key is shared by this process (which signs the sessions) and gunicorn (which reads
    them)."""
    env = dict(os.environ)
    for key in ("REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        env.pop(key, None)  # Redis, when given, is broker and cache as in production
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DATABASE_URL=db_url,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secret_key,
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


@dataclass
class Started:
    db_url: str
    redis: str | None
    at: float  # time.perf_counter() when the run started, for the summary's total


def start(
    script: str, default_database: str, secret_key: str, loopback_only: bool = False
) -> Started | None:
    """The database made and migrated, Django set up in this process with the production
    settings, an in-memory broker and Celery tasks run eagerly; None (after saying why) when
    PostgreSQL cannot be used."""
    db_url = database_url(default_database)
    problem = prepare_database(db_url, loopback_only)
    if problem:
        print(f"{script} skipped: {problem}")
        return None
    redis = redis_url()
    env = app_env(db_url, redis, secret_key)
    # This process gets an in-memory broker (and a local-memory cache): whatever happens, no
    # task leaves it.
    for key in ("REDIS_URL", "CELERY_RESULT_BACKEND"):
        os.environ.pop(key, None)
    os.environ["CELERY_BROKER_URL"] = "memory://"
    # The e-mails this process's services send (pairings published to 2,048 players) would
    # fill the output: they go nowhere here. The server keeps its own backend.
    os.environ["DJANGO_EMAIL_BACKEND"] = "django.core.mail.backends.dummy.EmailBackend"
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

    # The tasks (pairing, above a size) run in this process, so their time is part of the
    # call. The settings are namespaced (CELERY_...): that is the key to set.
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=True, CELERY_TASK_EAGER_PROPAGATES=True)
    if not celery_app.conf.task_always_eager:
        raise RuntimeError("could not make the Celery tasks run eagerly")
    # kombu names the (unused, in-memory) broker's missing host on every eager call.
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)
    return Started(db_url, redis, total)


def analyze() -> None:
    """Fresh planner statistics and no dead rows after the bulk writes and the previous run's
    deletes, as autovacuum keeps them in service (so autovacuum does not start mid-load)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def _busy_jiffies() -> tuple[int, int]:
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def settle(quiet: float = 0.2, bound_s: float = 30.0) -> str:
    """Wait (at most bound_s) until the machine's cores are busy less than `quiet` of a
    second: what the build left running (database writes, autovacuum) would otherwise be
    measured as the load's. Says how long it waited and how busy the machine was."""
    if not os.path.exists("/proc/stat"):
        return "no /proc/stat: did not wait for a quiet machine"
    started = time.perf_counter()
    busy = 1.0
    while time.perf_counter() - started < bound_s:
        busy0, total0 = _busy_jiffies()
        time.sleep(1.0)
        busy1, total1 = _busy_jiffies()
        busy = (busy1 - busy0) / max(total1 - total0, 1)
        if busy < quiet:
            break
    waited = time.perf_counter() - started
    return f"waited {waited:.0f} s for a quiet machine: cores {busy:.0%} busy"


# --- timing and the summary -----------------------------------------------------------------


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def percentile(values: list[float], p: float) -> float:
    """Nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def yes(met: bool) -> str:
    return "yes" if met else "NO"


def in_order(kinds: list[str]) -> list[str]:
    """Each kind once, in the order it first came."""
    return list(dict.fromkeys(kinds))


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


def print_cpu(
    server_cpu: float | None, client_cpu: float, duration: float, requests: int, load_after: str
) -> None:
    server = (
        f"server {server_cpu:.0f} s ({server_cpu / duration:.2f} cores, "
        f"{server_cpu / max(requests, 1) * 1000:.0f} ms a request)"
        if server_cpu is not None
        else "server: unknown"
    )
    print(
        f"   CPU used: {server}, this load generator {client_cpu:.0f} s "
        f"({client_cpu / duration:.2f} cores, {client_cpu / max(requests, 1) * 1000:.2f} ms a "
        f"request), of {os.cpu_count()} CPUs; load average after: "
        f"{load_after}"
    )


def print_summary(what: str, total: float, rows: list[tuple[str, str, str, str]]) -> None:
    """The figures against their goals; `total`: when the run started (perf_counter)."""
    print(f"\nSummary ({what}, PostgreSQL; total run {fmt(time.perf_counter() - total)}):")
    width = max(len(row[0]) for row in rows)
    vwidth = max(9, *(len(row[1]) for row in rows))
    print(f"  {'figure':<{width}} | {'value':>{vwidth}} | {'goal':<9} | met")
    print("  " + "-" * (width + vwidth + 21))
    for figure, value, goal, met in rows:
        print(f"  {figure:<{width}} | {value:>{vwidth}} | {goal:<9} | {met}")


# --- building the event ---------------------------------------------------------------------


@dataclass
class BaseBench:
    """A run: its options, seeded randomness, the event and its organiser, the summary rows."""

    args: argparse.Namespace
    rng: random.Random
    event: Any = None
    organiser: Any = None
    summary: list[tuple[str, str, str, str]] = field(default_factory=list)


def player_id(i: int) -> str:
    from accounts.player_ids import ALPHABET

    digits = []
    for _ in range(6):
        i, d = divmod(i, len(ALPHABET))
        digits.append(ALPHABET[d])
    raw = "".join(reversed(digits))
    return f"{raw[:3]}-{raw[3:]}"


def delete_previous(prefix: str) -> float:
    """Every event, user and session an earlier run made (any --players); the seconds it took."""
    from django.contrib.sessions.models import Session

    from accounts.models import User
    from matches.models import (
        JudgeCall,
        Match,
        Report,
        ResultVersion,
        Round,
        Ruling,
        StandingsSnapshot,
    )
    from tournaments.models import AuditEntry, Registration, Tournament

    started = time.perf_counter()
    events = Tournament.objects.filter(slug__startswith=prefix)
    Ruling.objects.filter(call__tournament__in=events).delete()
    JudgeCall.objects.filter(tournament__in=events).delete()
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
    User.objects.filter(username__startswith=prefix).delete()
    return time.perf_counter() - started


def new_people(prefix: str, n: int, organiser_number: int) -> tuple[Any, list[Any], str]:
    """The organiser (its player id numbered `organiser_number`, after everyone else's), then
    `n` players in bulk: (organiser, players, the unusable password they all have: nobody
    logs in with a password, sessions are made by new_sessions)."""
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    unusable = make_password(None)
    organiser = User(
        username=f"{prefix}organiser",
        display_name="Bench Organiser",
        is_organiser=True,
        password=unusable,
        player_id=player_id(organiser_number),
    )
    organiser.save()
    players = User.objects.bulk_create(
        [
            User(
                username=f"{prefix}{i:05d}",
                display_name=f"Player {i + 1:04d}",
                email=f"{prefix}{i:05d}@example.com",
                password=unusable,
                player_id=player_id(i),
            )
            for i in range(n)
        ],
        batch_size=1000,
    )
    return organiser, players, unusable


def new_judges(prefix: str, count: int, first_number: int, unusable: str) -> list[Any]:
    """`count` judges in bulk (player ids numbered from `first_number`, after the players')."""
    from accounts.models import User

    return User.objects.bulk_create(
        [
            User(
                username=f"{prefix}judge-{k:02d}",
                display_name=f"Judge {k + 1:02d}",
                password=unusable,
                player_id=player_id(first_number + k),
            )
            for k in range(count)
        ]
    )


@dataclass
class Client:
    """One person's browser: a session, and a CSRF cookie with the same token in the header."""

    user_id: int
    session: str
    csrf: str = field(
        default_factory=lambda: "".join(random.choices(string.ascii_letters + string.digits, k=32))
    )

    def headers(self, accept: str) -> dict[str, str]:
        return {
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Accept": accept,
        }


def new_event(b: BaseBench, name: str, slug: str, planned_rounds: int) -> None:
    """The running event (BoBA, Playmaker, best of 1) organised by b.organiser, as b.event."""
    from django.utils import timezone

    from tournaments.models import Tournament
    from tournaments.status import EventStatus

    b.event = Tournament.objects.create(
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
        planned_rounds=planned_rounds,
        top_cut_size=8,
        pairing_seed=f"bench{b.args.seed}",
        created_by=b.organiser,
    )
    b.event.organisers.add(b.organiser)


def register(event: Any, users: list[Any]) -> list[Any]:
    from tournaments.models import Registration, RegistrationStatus

    return Registration.objects.bulk_create(
        [
            Registration(tournament=event, player=u, status=RegistrationStatus.REGISTERED)
            for u in users
        ],
        batch_size=1000,
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


def enter_results(b: BaseBench, round_: Any) -> None:
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
        m.game_details = [{"trophies": pair} for pair in battles]  # engine.boba.trophies
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
    fields = ["status", "games_a", "games_b", "games_drawn", "game_details", "result_version"]
    with transaction.atomic():
        Match.objects.bulk_update(bulk, [*fields, "updated_at"], batch_size=500)
        ResultVersion.objects.bulk_create(versions, batch_size=1000)
        AuditEntry.objects.bulk_create(audits, batch_size=1000)
    games, battles = random_result(b.rng)
    services.match_report(actor=b.organiser, match=last, games=list(games), battles=battles)
    round_.refresh_from_db()
    if round_.status != RoundStatus.FINISHED:
        raise RuntimeError(f"round {round_.number} did not finish: {round_.status}")


def pair_and_publish(b: BaseBench) -> Any:
    """Round 1 of b.event paired and published through the services (the pairing task runs
    eagerly in this process), the tables analysed; the round."""
    from matches import services
    from matches.models import RoundStatus

    started = time.perf_counter()
    round_ = services.round_pair(actor=b.organiser, tournament=b.event)
    if round_.status != RoundStatus.PAIRED:
        raise RuntimeError(f"round {round_.number} not paired: {round_.pairing_error}")
    paired = time.perf_counter() - started
    started = time.perf_counter()
    round_ = services.round_publish(actor=b.organiser, round_=round_)
    published = time.perf_counter() - started
    analyze()
    print(
        f"round {round_.number}: paired (services.round_pair, task eager) in {fmt(paired)}, "
        f"published in {fmt(published)}; {round_.matches.count():,} matches",
        flush=True,
    )
    return round_


def signed_in_cookies(session: str, *, csrf: bool = True) -> str:
    """The Cookie header of a phone signed in with `session`. A real sign-in leaves a CSRF
    cookie next to the session's: Django sets it when the log-in form is shown and rotates it
    at log-in (django.contrib.auth.login). The sessions here are made in bulk, without that
    form, so each gets the secret of a CSRF cookie of its own (32 letters and digits, as
    Django's, derived from the session key: the same phone sends the same cookie in every
    run). `csrf=False`: the session cookie alone (a phone whose CSRF cookie was cleared,
    which the server then gives a new secret)."""
    if not csrf:
        return f"sessionid={session}"
    secret = hashlib.sha256(f"bench-csrf:{session}".encode()).hexdigest()[:32]
    return f"sessionid={session}; csrftoken={secret}"


SESSION_SECONDS = 24 * 60 * 60


def new_sessions(users: list[Any], *, cached: bool = True) -> dict[int, str]:
    """A logged-in session for each user, in bulk: user id -> session key. As a real sign-in
    leaves it: the row, and (`cached`, with the site's cached_db session engine) the copy in
    the cache that the engine writes beside the row when it saves a session, so a phone's
    first request reads its session from the cache as it would after signing in. Without
    `cached`, the cache holds no session (as after Redis lost its data): each session's
    first request reads its row."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.cached_db import SessionStore as CachedSessionStore
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.core.cache import caches
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    store = SessionStore()
    expires = timezone.now() + timedelta(seconds=SESSION_SECONDS)
    rows = []
    keys = {}
    copies: dict[str, dict[str, str]] = {}
    for u in users:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(u.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: u.get_session_auth_hash(),
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        keys[u.pk] = key
        copies[CachedSessionStore.cache_key_prefix + key] = data
    Session.objects.bulk_create(rows, batch_size=1000)
    if cached and settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db":
        session_cache = caches[settings.SESSION_CACHE_ALIAS]
        items = list(copies.items())
        for start in range(0, len(items), 1000):
            session_cache.set_many(dict(items[start : start + 1000]), SESSION_SECONDS)
    return keys


def print_built(slug: str, who: str, started: float, deleted: float) -> None:
    """`who`: what was made ("2,048 users"); `started`: when (perf_counter); `deleted`: the
    seconds delete_previous took."""
    print(
        f"event {slug}: {who}, registrations and sessions in "
        f"{fmt(time.perf_counter() - started)} (previous run's data deleted in {fmt(deleted)})",
        flush=True,
    )


# --- HTTP and gunicorn ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes | None = None
) -> tuple[int, bytes]:
    """One request on its own loopback connection: (status, body); raises what http.client
    raises."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class Server:
    """gunicorn as production runs it, on a free loopback port; stopped in stop()."""

    def __init__(self, env: dict[str, str], workers: int, log: Path, threads: int = 1) -> None:
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
                status, _ = request(self.port, "GET", "/healthz", {"Accept": JSON})
                if status == 200:
                    return
            except (OSError, http.client.HTTPException):
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

    def wait_idle(self, busy: float = 0.05, bound_s: float = 120.0) -> str:
        """Wait (at most bound_s) until the server uses less than `busy` of a core: requests
        an earlier load left queued (their clients gave up, the workers still answer them)
        would otherwise be measured as the next load's. Says how long it waited."""
        started = time.perf_counter()
        used = self.cpu_seconds()
        while used is not None and time.perf_counter() - started < bound_s:
            time.sleep(1.0)
            now = self.cpu_seconds()
            if now is None or now - used < busy:
                break
            used = now
        return f"waited {time.perf_counter() - started:.0f} s for the server to be idle"

    def tail(self, lines: int = 15) -> str:
        self._log_file.flush()
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def exceptions(self) -> Counter[str]:
        """The server's 500s from its log: "path: exception" -> count."""
        self._log_file.flush()
        found: Counter[str] = Counter()
        path = ""
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("Internal Server Error: "):
                path = re.sub(r"/\d+/", "/{id}/", line.removeprefix("Internal Server Error: "))
            elif path and EXCEPTION_LINE.match(line):
                found[f"{path}: {line[:300]}"] += 1
                path = ""
        return found

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # the master stops its workers
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this script started
                self.proc.wait(timeout=10)
        self._log_file.close()


@contextmanager
def serving(
    prefix: str,
    db_url: str,
    redis: str | None,
    secret_key: str,
    workers: int,
    threads: int = 1,
    log_lines: int = 5,
    show_500s: bool = False,
) -> Iterator[tuple[Server, dict[str, str], float]]:
    """gunicorn started on the static files collected into a temporary folder, ready:
    (the server, its environment, the seconds collectstatic took). Afterwards it is stopped, the folder removed, and, where its log says
    something went wrong, its last `log_lines` lines printed (or with `show_500s` its 500s,
    when there were any)."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    server = None
    try:
        env = app_env(db_url, redis, secret_key, DJANGO_STATIC_ROOT=str(tmp / "static"))
        started = time.perf_counter()
        manage(env, "collectstatic", "--noinput", timeout=300)
        collected = time.perf_counter() - started
        server = Server(env, workers, tmp / "gunicorn.log", threads)
        server.wait_ready()
        yield server, env, collected
    finally:
        if server is not None:
            failures = server.exceptions() if show_500s else Counter()
            log = server.tail(log_lines)
            server.stop()
            for text, count in failures.most_common(8):
                print(f"   server 500 x{count}: {text}")
            if not failures and any(w in log for w in ("Error", "Traceback", "CRITICAL")):
                print("   gunicorn log (last lines):\n" + log)
        shutil.rmtree(tmp, ignore_errors=True)


def connections_text() -> str:
    """How each server process holds its database connections (the server reads the same
    DATABASE_* variables as this process)."""
    from django.db import connection

    pool = connection.settings_dict["OPTIONS"].get("pool")
    if pool:
        return f"a pool of {pool['min_size']} to {pool['max_size']} connections a process"
    return f"DATABASE_CONN_MAX_AGE={connection.settings_dict['CONN_MAX_AGE']}, no pool"


def cache_text(redis: str | None) -> str:
    return "Redis " + redis if redis else "local memory: Redis not reachable"
