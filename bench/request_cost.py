"""What one request of the publish spike costs the server: CPU per request, in this process.

    .venv/bin/python bench/request_cost.py [--players 2048] [--requests 200] [--profile 25]
                                           [--reuse]

The event is built as bench/publish_spike.py builds it (its builders: users, registrations,
sessions, round 1 paired and published through the services), then the two requests of the
spike (`GET /api/events/{slug}/rounds/{n}/` and the event page `/events/{slug}/`), and "my
match", are called through the WSGI application (every middleware, as gunicorn calls it) with
a player's real session cookie (and the CSRF cookie a real sign-in leaves beside it:
harness.signed_in_cookies), DEBUG off, PostgreSQL, the Redis cache (BENCH_REDIS_URL, else
redis://127.0.0.1:6379/15). The round is also read anonymously, each reader from its own
address: `--only anonymous-round` goes through config.fast_path (answered before the
middleware), `anonymous-round-full` the same requests through Django's handler alone (the A/B).
`--only round` (a signed-in player's round: config.fast_path answers it once the session and
the account verify from the cache) has its A/B too, `round-full`; `page` is a signed-in
player's event page (config.fast_path answers it once its copy is stored), `page-full` the
same through Django's handler alone, `page-no-csrf` the same pages from phones without a
CSRF cookie (each given a new secret); `pairings` and `my-match-page` are bench/rounds.py's
spike, a signed-in player's pairings page (config.fast_path answers it once its frame is
stored; `pairings-full` through Django's handler alone) and "my match" page (the fast path
answers it once its copy is stored; `my-match-page-full` through Django's handler alone).
Printed per kind: CPU of this process per request
(`time.process_time()` over `--requests` calls, after warming every cache), wall time, and
the database queries of one warm request; with `--profile N`, the N costliest functions of
each kind (cProfile, cumulative). Timing is CPU, not wall clock: the figures hold on a busy
machine. `--reuse` measures the event left by an earlier run (no rebuild).

Database: BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/bench_request_cost (its
name must contain "bench"). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import atexit
import cProfile
import io
import os
import pstats
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import HTML, JSON

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_request_cost"
SECRET_KEY = "bench-request-cost-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz0123"
USER_PREFIX = "bench-cost-"


def setup() -> bool:
    """Django set up with the production settings and the Redis cache (the broker in memory,
    tasks eager, as bench/harness.start); False when PostgreSQL cannot be used."""
    db_url = harness.database_url(DEFAULT_DATABASE_URL)
    problem = harness.prepare_database(db_url, loopback_only=True)
    if problem:
        print(f"bench/request_cost.py skipped: {problem}")
        return False
    redis = harness.redis_url()
    static = tempfile.mkdtemp(prefix=USER_PREFIX)  # pages name the collected static files
    atexit.register(shutil.rmtree, static, ignore_errors=True)
    env = harness.app_env(db_url, redis, SECRET_KEY, DJANGO_STATIC_ROOT=static)
    harness.manage(env, "migrate", "--noinput")
    harness.manage(env, "collectstatic", "--noinput", timeout=300)
    os.environ.update(env)
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ["CELERY_RESULT_BACKEND"] = "cache+memory://"
    os.environ["DJANGO_EMAIL_BACKEND"] = "django.core.mail.backends.dummy.EmailBackend"
    import django

    django.setup()
    from config.celery import app as celery_app

    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=True, CELERY_TASK_EAGER_PROPAGATES=True)
    print(f"database {db_url.rsplit('/', 1)[-1]}; cache {harness.cache_text(redis)}")
    return True


def build(players: int, seed: int) -> tuple[Any, Any, dict[int, str], list[Any]]:
    """(event, round, user id -> session key, players) as bench/publish_spike.py builds them."""
    b = harness.BaseBench(argparse.Namespace(seed=seed), random.Random(seed))
    slug = f"{USER_PREFIX}{players}"
    harness.delete_previous(USER_PREFIX)
    b.organiser, people, _ = harness.new_people(USER_PREFIX, players, organiser_number=players)
    harness.new_event(b, f"Bench Cost Open {players}", slug, 8)
    harness.register(b.event, people)
    sessions = harness.new_sessions([*people, b.organiser])
    round_ = harness.pair_and_publish(b)
    return b.event, round_, sessions, [*people, b.organiser]


def existing(players: int) -> tuple[Any, Any, dict[int, str], list[Any]]:
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.models import Session

    from accounts.models import User
    from tournaments.models import Tournament

    event = Tournament.objects.get(slug=f"{USER_PREFIX}{players}")
    round_ = event.rounds.order_by("-number").first()
    sessions = {}
    for s in Session.objects.all():
        user_id = s.get_decoded().get(SESSION_KEY)
        if user_id:
            sessions[int(user_id)] = s.session_key
    people = list(User.objects.filter(username__startswith=USER_PREFIX).order_by("pk"))
    return event, round_, sessions, people


def wsgi_get(
    path: str,
    session: str | None,
    accept: str,
    *,
    full_stack: bool = False,
    remote: str = "127.0.0.1",
    csrf: bool = True,
) -> Callable[[], tuple[str, bytes]]:
    """A call of the WSGI application as gunicorn makes it: (status line, body). With
    `full_stack`, Django's handler without config.fast_path in front (the A/B of the
    anonymous round)."""
    from config import wsgi

    application = wsgi.django_application if full_stack else wsgi.application

    headers = {
        "HTTP_ACCEPT": accept,
        "HTTP_ACCEPT_ENCODING": "gzip",
        "HTTP_HOST": "127.0.0.1",
    }
    if session:
        # The CSRF cookie a real sign-in leaves beside the session's, unless `csrf` is off
        # (harness.signed_in_cookies): without it, every page using a token makes a secret.
        headers["HTTP_COOKIE"] = harness.signed_in_cookies(session, csrf=csrf)

    def call() -> tuple[str, bytes]:
        environ = {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": remote,
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(b""),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "wsgi.version": (1, 0),
            **headers,
        }
        status: list[str] = []
        result = application(environ, lambda s, h, exc_info=None: status.append(s))
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close:
                close()
        return status[0], body

    return call


def queries_of(call: Callable[[], tuple[str, bytes]]) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured.captured_queries]


def measure(label: str, calls: list[Callable[[], tuple[str, bytes]]], n: int, profile: int) -> None:
    for call in calls:  # warm: sessions, users and copies cached
        status, body = call()
        if not status.startswith(("200", "304")):
            raise RuntimeError(f"{label}: {status} {body[:300]!r}")
    queries = queries_of(calls[0])
    wall, cpu = time.perf_counter(), time.process_time()
    for k in range(n):
        calls[k % len(calls)]()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"{label:<34} CPU {cpu / n * 1000:6.2f} ms a request, wall {wall / n * 1000:6.2f} ms; "
        f"{len(queries)} queries, {len(body):,} bytes as sent"
    )
    for sql in queries:
        print(f"     {sql[:150]}")
    if profile:
        prof = cProfile.Profile(time.process_time)  # CPU, not the wall clock of a busy machine
        prof.enable()
        for k in range(n):
            calls[k % len(calls)]()
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats(
            os.environ.get("BENCH_SORT", "cumulative")
        ).print_stats(profile)
        print(out.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    parser.add_argument("--reuse", action="store_true", help="the event of an earlier run")
    parser.add_argument(
        "--only",
        default="",
        help="round, round-full, page, page-no-csrf, page-full, organiser, anonymous, my-match, "
        "my-match-page, my-match-page-full, pairings, pairings-full, anonymous-round, "
        "anonymous-round-full (comma-separated; round and page are signed-in players)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not setup():
        return 0
    event, round_, sessions, people = (
        existing(args.players) if args.reuse else build(args.players, args.seed)
    )
    slug, number = event.slug, round_.number
    players = people[:-1]
    organiser = people[-1]
    sample = random.Random(args.seed).sample(players, min(50, len(players)))
    kinds = {
        "round": (
            "round API, 50 players",
            [
                wsgi_get(f"/api/events/{slug}/rounds/{number}/", sessions[u.pk], JSON)
                for u in sample
            ],
        ),
        # The same signed-in requests through Django's handler alone (the A/B of "round":
        # config.fast_path answers a signed-in player's round from the session cache).
        "round-full": (
            "round API, 50 players (full stack)",
            [
                wsgi_get(
                    f"/api/events/{slug}/rounds/{number}/", sessions[u.pk], JSON, full_stack=True
                )
                for u in sample
            ],
        ),
        "page": (
            "event page, 50 players",
            [wsgi_get(f"/events/{slug}/", sessions[u.pk], HTML) for u in sample],
        ),
        # The same pages from phones without a CSRF cookie (each is given a new secret).
        "page-no-csrf": (
            "event page, 50 players, no CSRF cookie",
            [wsgi_get(f"/events/{slug}/", sessions[u.pk], HTML, csrf=False) for u in sample],
        ),
        # The same signed-in pages through Django's handler alone (the A/B of "page":
        # config.fast_path answers a signed-in reader's event page once its copy is stored).
        "page-full": (
            "event page, 50 players (full stack)",
            [wsgi_get(f"/events/{slug}/", sessions[u.pk], HTML, full_stack=True) for u in sample],
        ),
        "organiser": (
            "event page, the organiser",
            [wsgi_get(f"/events/{slug}/", sessions[organiser.pk], HTML)],
        ),
        "anonymous": ("event page, anonymous", [wsgi_get(f"/events/{slug}/", None, HTML)]),
        # Anonymous readers (bots, overlays, venue screens), each from its own address so the
        # limit of anonymous requests per address never refuses one: config.fast_path answers
        # them before the middleware; "-full" is the same requests through Django's handler.
        "anonymous-round": (
            "round API, anonymous (fast path)",
            [
                wsgi_get(f"/api/events/{slug}/rounds/{number}/", None, JSON, remote=f"10.9.0.{k}")
                for k in range(1, 51)
            ],
        ),
        "anonymous-round-full": (
            "round API, anonymous (full stack)",
            [
                wsgi_get(
                    f"/api/events/{slug}/rounds/{number}/",
                    None,
                    JSON,
                    full_stack=True,
                    remote=f"10.9.1.{k}",
                )
                for k in range(1, 51)
            ],
        ),
        # The rounds.py spike's two pages: the round's pairings and the player's match.
        "pairings": (
            "pairings page, 50 players",
            [
                wsgi_get(f"/events/{slug}/rounds/{number}/pairings/", sessions[u.pk], HTML)
                for u in sample
            ],
        ),
        "pairings-full": (
            "pairings page, 50 players (full stack)",
            [
                wsgi_get(
                    f"/events/{slug}/rounds/{number}/pairings/",
                    sessions[u.pk],
                    HTML,
                    full_stack=True,
                )
                for u in sample
            ],
        ),
        "my-match-page": (
            "my match page, 50 players",
            [wsgi_get(f"/events/{slug}/my-match/", sessions[u.pk], HTML) for u in sample],
        ),
        "my-match-page-full": (
            "my match page, 50 players (full stack)",
            [
                wsgi_get(f"/events/{slug}/my-match/", sessions[u.pk], HTML, full_stack=True)
                for u in sample
            ],
        ),
        "my-match": (
            "my match, 50 players",
            [wsgi_get(f"/api/events/{slug}/my-match/", sessions[u.pk], JSON) for u in sample],
        ),
    }
    for key, (label, calls) in kinds.items():
        if not args.only or key in args.only.split(","):
            measure(label, calls, args.requests, args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
