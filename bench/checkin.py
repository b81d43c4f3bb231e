"""Benchmark: check-in of a 2,000-player event by 4 staff at once, against gunicorn on loopback.

    .venv/bin/python bench/checkin.py [--players 2000] [--staff 4] [--viewers 20]
                                      [--bound 300] [--workers 3] [--threads 1] [--seed 2026]

The event (registration closed, nobody checked in) has an organiser and judges allowed to check
players in. Against gunicorn started as in production (docker-compose.yml: ``--workers 3
--timeout 60``, DEBUG off, Redis cache when reachable) on loopback, at once:

* ``--staff`` people (the organiser and judges) work the check-in desk as a scanner does: each
  takes their share of the players in a seeded order and, for each, posts the player's id to
  the desk (``POST /events/{slug}/manage/check-in/do/`` with ``code``) and loads the desk again
  (``GET /events/{slug}/manage/check-in/``: the page the redirect goes to), as fast as the
  server answers;
* ``--viewers`` clients load the organiser dashboard (``/events/{slug}/manage/``; half of
  them, as judges) or the event page (``/events/{slug}/``; the other half, as players) again
  and again, ``--viewer-pause`` seconds after each answer (default 1 s: someone refreshing
  as fast as they can read; 0 hammers the server without pause), until the staff are done.

Figures: errors (any 5xx, unexpected status or connection error; goal 0); check-ins lost (players
whose check-in was answered but is not in the database; goal 0) and players left unchecked at the
end (goal 0); the p95 of the
dashboard and of the event page (goal < 300 ms each), the desk's own latencies; total time and
check-ins per second; the CPU the server and this load generator used.

The event lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_checkin,
or BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench"). Every
run deletes the previous run's event, users and sessions and builds them again, in bulk.
Seeded. Without a reachable PostgreSQL it prints why and exits 0. Loopback only; bounded in
requests and time (``--bound`` seconds); gunicorn is always stopped. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlencode

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import HTML, Client, fmt, percentile, yes

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_checkin"
SECRET_KEY = "bench-checkin-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz01234"
USER_PREFIX = "bench-checkin-"
P95_GOAL_MS = 300.0


@dataclass
class Bench(harness.BaseBench):
    staff: list[Client] = field(default_factory=list)
    judges_viewing: list[Client] = field(default_factory=list)
    players_viewing: list[Client] = field(default_factory=list)
    player_ids: dict[int, str] = field(default_factory=dict)  # registration id -> player id


def build_event(b: Bench) -> None:
    """Players, the organiser, judges, the event, registrations and sessions, in bulk."""
    from tournaments.models import Tournament
    from tournaments.status import EventStatus

    n, staff, viewers = b.args.players, b.args.staff, b.args.viewers
    slug = f"{USER_PREFIX}{n}"
    deleted = harness.delete_previous(USER_PREFIX)
    started = time.perf_counter()
    judges_needed = max(staff - 1, 0) + viewers // 2
    b.organiser, players, unusable = harness.new_people(
        USER_PREFIX, n, organiser_number=n + judges_needed
    )
    judges = harness.new_judges(USER_PREFIX, judges_needed, n, unusable)
    harness.new_event(b, f"Bench Check-in Open {n}", slug, 8)
    Tournament.objects.filter(pk=b.event.pk).update(
        status=EventStatus.REGISTRATION_CLOSED.value, judges_may_check_in=True
    )
    b.event.refresh_from_db()
    b.event.judges.add(*judges)
    registrations = harness.register(b.event, players)
    by_user = {u.pk: u.player_id for u in players}
    b.player_ids = {r.pk: by_user[r.player_id] for r in registrations}
    sessions = harness.new_sessions([b.organiser, *judges, *players[: viewers // 2 + 1]])
    clients = {pk: Client(pk, key) for pk, key in sessions.items()}
    desk_judges = judges[: max(staff - 1, 0)]
    b.staff = [clients[b.organiser.pk], *(clients[j.pk] for j in desk_judges)][:staff]
    b.judges_viewing = [clients[j.pk] for j in judges[len(desk_judges) :]]
    b.players_viewing = [clients[p.pk] for p in players[: viewers - len(b.judges_viewing)]]
    harness.analyze()
    harness.print_built(slug, f"{n:,} players, {staff} at the desk", started, deleted)


# --- HTTP -----------------------------------------------------------------------------------------


@dataclass
class Hit:
    kind: str
    status: int | str
    seconds: float
    ok: bool


@dataclass
class Load:
    port: int
    deadline: float
    hits: list[Hit] = field(default_factory=list)
    unexpected: Counter[str] = field(default_factory=Counter)
    answered: set[int] = field(default_factory=set)  # registrations whose check-in got a 302
    lock: threading.Lock = field(default_factory=threading.Lock)
    staff_done: threading.Event = field(default_factory=threading.Event)

    def send(
        self, kind: str, method: str, path: str, client: Client, form: dict[str, str] | None = None
    ) -> int | str:
        headers = client.headers(HTML)
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        status: int | str
        try:
            status, data = harness.request(self.port, method, path, headers, body)
        except (OSError, http.client.HTTPException) as exc:
            status, data = type(exc).__name__, b""
        seconds = time.perf_counter() - started
        expected = 302 if method == "POST" else 200
        ok = status == expected
        with self.lock:
            self.hits.append(Hit(kind, status, seconds, ok))
            if not ok:
                text = " ".join(data[:2000].decode(errors="replace").split())
                if "<title>" in text:
                    text = text[text.index("<title>") + 7 :].split("<", 1)[0]
                self.unexpected[f"{kind} {status}: {text[:160]}"] += 1
        return status


def desk_worker(load: Load, b: Bench, client: Client, share: list[int]) -> None:
    slug = b.event.slug
    desk = f"/events/{slug}/manage/check-in/"
    for registration_id in share:
        if time.perf_counter() > load.deadline:
            return
        status = load.send(
            "check in (scan)",
            "POST",
            f"{desk}do/",
            client,
            {"code": b.player_ids[registration_id], "next": desk},
        )
        if status == 302:
            with load.lock:
                load.answered.add(registration_id)
        load.send("desk page", "GET", desk, client)


def viewer(load: Load, client: Client, kind: str, path: str, pause: float) -> None:
    while not load.staff_done.is_set() and time.perf_counter() < load.deadline:
        load.send(kind, "GET", path, client)
        load.staff_done.wait(pause)


def measure(b: Bench, db_url: str, redis: str | None) -> None:
    from tournaments.models import Registration

    args = b.args
    serve = harness.serving(
        "bench-checkin-", db_url, redis, SECRET_KEY, args.workers, args.threads, show_500s=True
    )
    with serve as (server, _env, collected):
        print(
            f"\nserver: {' '.join(server.command[2:])} (DEBUG off, cache "
            f"{harness.cache_text(redis)}); collectstatic {fmt(collected)}"
        )
        slug = b.event.slug
        warm = Load(server.port, time.perf_counter() + 60)
        for client in [*b.staff, *b.judges_viewing]:
            warm.send("warm", "GET", f"/events/{slug}/manage/", client)
        for client in b.players_viewing:
            warm.send("warm", "GET", f"/events/{slug}/", client)
        if warm.unexpected:
            raise RuntimeError(f"the pages do not answer as expected: {dict(warm.unexpected)}")
        alone = percentile([h.seconds for h in warm.hits], 50)
        print(f"   the dashboard and event page, one client at a time: median {fmt(alone)}")

        order = list(b.player_ids)
        b.rng.shuffle(order)
        shares = [order[k :: len(b.staff)] for k in range(len(b.staff))]
        print(f"   {harness.settle()}")
        print(
            f"   {len(order):,} players checked in by {len(b.staff)} staff at the desk while "
            f"{len(b.judges_viewing)} judges load the dashboard and {len(b.players_viewing)} "
            f"players the event page, {args.viewer_pause:g} s after each answer; bounded at {args.bound:g} s; load average "
            f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}",
            flush=True,
        )
        cpu_server, cpu_client = server.cpu_seconds(), time.process_time()
        t0 = time.perf_counter()
        load = Load(server.port, t0 + args.bound)
        desk = [
            threading.Thread(target=desk_worker, args=(load, b, c, s), daemon=True)
            for c, s in zip(b.staff, shares, strict=True)
        ]
        viewers = [
            threading.Thread(
                target=viewer,
                args=(load, c, "dashboard", f"/events/{slug}/manage/", args.viewer_pause),
                daemon=True,
            )
            for c in b.judges_viewing
        ] + [
            threading.Thread(
                target=viewer,
                args=(load, c, "event page", f"/events/{slug}/", args.viewer_pause),
                daemon=True,
            )
            for c in b.players_viewing
        ]
        for t in [*desk, *viewers]:
            t.start()
        for t in desk:
            t.join(timeout=args.bound + 2 * harness.REQUEST_TIMEOUT_S)
        staff_took = time.perf_counter() - t0
        load.staff_done.set()
        for t in viewers:
            t.join(timeout=2 * harness.REQUEST_TIMEOUT_S)
        duration = time.perf_counter() - t0
        cpu_after = server.cpu_seconds()
        server_cpu = (
            cpu_after - cpu_server if cpu_server is not None and cpu_after is not None else None
        )
        client_cpu = time.process_time() - cpu_client

    checked = set(
        Registration.objects.filter(tournament=b.event, checked_in_at__isnull=False).values_list(
            "pk", flat=True
        )
    )
    lost = len(load.answered - checked)  # answered as done, yet not in the database
    unfinished = len(set(order) - load.answered)  # not reached within the bound, or refused
    report(b, load, duration, staff_took, server_cpu, client_cpu, lost, unfinished, len(checked))


def report(
    b: Bench,
    load: Load,
    duration: float,
    staff_took: float,
    server_cpu: float | None,
    client_cpu: float,
    lost: int,
    unfinished: int,
    checked: int,
) -> None:
    hits = load.hits
    errors = sum(1 for h in hits if not h.ok)
    print(
        f"\n   {len(hits):,} requests in {duration:.1f} s ({len(hits) / duration:.0f} requests/s); "
        f"{checked:,} of {len(b.player_ids):,} players checked in, in {staff_took:.1f} s "
        f"({checked / staff_took:.0f} a second)"
    )
    harness.print_cpu(
        server_cpu, client_cpu, duration, len(hits), ", ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    print(
        f"   {'request':<18} | {'count':>6} | {'errors':>6} | {'p50':>7} | {'p95':>7} | "
        f"{'p99':>7} | {'max':>7}"
    )
    for kind in harness.in_order([h.kind for h in hits]):
        ms = [h.seconds * 1000 for h in hits if h.kind == kind]
        bad = sum(1 for h in hits if h.kind == kind and not h.ok)
        print(
            f"   {kind:<18} | {len(ms):>6} | {bad:>6} | {percentile(ms, 50):>4.0f} ms | "
            f"{percentile(ms, 95):>4.0f} ms | {percentile(ms, 99):>4.0f} ms | {max(ms):>4.0f} ms"
        )
    for text, count in load.unexpected.most_common(5):
        print(f"   unexpected x{count}: {text}")
    dashboard = percentile([h.seconds * 1000 for h in hits if h.kind == "dashboard"], 95)
    event_page = percentile([h.seconds * 1000 for h in hits if h.kind == "event page"], 95)
    b.summary = [
        ("errors (5xx, unexpected status)", f"{errors}", "0", yes(errors == 0)),
        ("check-ins lost (answered, not saved)", f"{lost}", "0", yes(lost == 0)),
        ("players not checked in at the end", f"{unfinished}", "0", yes(unfinished == 0)),
        ("dashboard: p95", f"{dashboard:.0f} ms", "< 300 ms", yes(dashboard < P95_GOAL_MS)),
        ("event page: p95", f"{event_page:.0f} ms", "< 300 ms", yes(event_page < P95_GOAL_MS)),
        (
            f"{len(b.player_ids):,} check-ins by {len(b.staff)} staff",
            f"{staff_took:.1f} s",
            "-",
            "-",
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--staff", type=int, default=4)
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument(
        "--viewer-pause",
        type=float,
        default=1.0,
        help="seconds a viewer waits between loads (0: without pause)",
    )
    parser.add_argument("--bound", type=float, default=300.0, help="seconds, the whole load")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.players < 1 or args.staff < 1 or args.viewers < 2:
        parser.error("at least 1 player, 1 staff and 2 viewers")
    if not 0 < args.bound <= 900:
        parser.error("0 < --bound <= 900")

    setup = harness.start("bench/checkin.py", DEFAULT_DATABASE_URL, SECRET_KEY, loopback_only=True)
    if setup is None:
        return 0
    b = Bench(args, random.Random(args.seed))
    build_event(b)
    measure(b, setup.db_url, setup.redis)
    harness.print_summary(f"{args.players:,} players, {args.staff} staff", setup.at, b.summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
