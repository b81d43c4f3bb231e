"""Benchmark: stream overlays live while a round is reported (docs/overlays.md).

    .venv/bin/python bench/live.py [--players 128] [--viewers 2000] [--pollers 500]
                                   [--poll-seconds 1.5] [--window 60] [--uvicorn-workers 2]
                                   [--gunicorn-workers 3] [--seed 2026]

Round 1 of an event is paired and published through the services (``--players`` / 2 tables;
the pairings ticker shows up to 64, so keep ``--players`` at 128 or below for every report to
change it). Then, on loopback:

* ``--viewers`` server-sent-event viewers (an OBS browser source each) hold
  ``GET /api/events/{slug}/overlays/pairings/stream/`` open against uvicorn serving
  ``config.asgi`` (as docs/overlays.md runs it); they connect over the first seconds and
  reconnect when the server ends a stream (its maximum life);
* ``--pollers`` polling clients (each from an address of its own, as gunicorn behind one
  proxy reads it from X-Forwarded-For: the feeds' rate is per address) fetch the JSON feed ``GET /api/events/{slug}/overlays/pairings/``
  every ``--poll-seconds`` (each on its own phase, with ``If-None-Match``) from gunicorn
  (WSGI, as in production), as static/js/overlay.js does when the stream is refused;
* open loop: every table's result is entered by the organiser through the services at a
  seeded random moment of ``--window`` seconds, whatever the clients are doing.

For each report and each client, the time from the report's commit to the first copy of the
overlay that shows its result. Figures: p50/p95/max for the stream and for polling (goal:
p95 < 2 s at 2,000 viewers and 500 pollers on the 2-core machine), results never seen,
connection errors, the CPU each server and this load generator used (they share the cores).

The event lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_live,
or BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench").
Without a reachable PostgreSQL it prints why and exits 0. Loopback only; bounded in time;
both servers are always stopped. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import fmt, percentile, yes

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_live"
SECRET_KEY = "bench-live-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz0123456789abc"
USER_PREFIX = "bench-live-"
P95_GOAL_S = 2.0
READ_LIMIT = 4 * 1024 * 1024  # one event's line (a 64-row ticker is a few KiB)


@dataclass
class Seen:
    """When each client first saw each table's result (time.monotonic())."""

    by_client: list[dict[int, float]] = field(default_factory=list)
    errors: int = 0
    connections: int = 0

    def new_client(self) -> dict[int, float]:
        seen: dict[int, float] = {}
        self.by_client.append(seen)
        return seen


def record(seen: dict[int, float], body: str) -> None:
    now = time.monotonic()
    try:
        rows = json.loads(body).get("rows", [])
    except ValueError:
        return
    for row in rows:
        if row.get("games") and row.get("table") is not None and row["table"] not in seen:
            seen[row["table"]] = now


async def sse_viewer(port: int, path: str, seen_all: Seen, stop: float, delay: float) -> None:
    await asyncio.sleep(delay)
    seen = seen_all.new_client()
    last_id = ""
    while time.monotonic() < stop:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=READ_LIMIT)
        except OSError:
            seen_all.errors += 1
            await asyncio.sleep(1)
            continue
        seen_all.connections += 1
        head = f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if last_id:
            head += f"Last-Event-ID: {last_id}\r\n"
        writer.write((head + "\r\n").encode())
        try:
            status = await reader.readline()
            if b" 200 " not in status:
                seen_all.errors += 1
                await asyncio.sleep(1)
                continue
            while time.monotonic() < stop:
                line = await asyncio.wait_for(
                    reader.readline(), timeout=max(0.1, stop - time.monotonic())
                )
                if not line:
                    break  # the server ended the stream (its maximum life): reconnect
                if line.startswith(b"id: "):
                    last_id = line[4:].strip().decode()
                elif line.startswith(b"data: "):
                    record(seen, line[6:].decode())
        except (TimeoutError, OSError, ValueError):
            pass
        finally:
            writer.close()


async def poller(
    port: int,
    path: str,
    seen_all: Seen,
    stop: float,
    every: float,
    phase: float,
    address: str,
) -> None:
    await asyncio.sleep(phase)
    seen = seen_all.new_client()
    etag = ""
    while time.monotonic() < stop:
        due = time.monotonic() + every
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=READ_LIMIT)
            head = (
                f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
                f"X-Forwarded-For: {address}\r\n"
            )
            if etag:
                head += f"If-None-Match: {etag}\r\n"
            writer.write((head + "\r\n").encode())
            raw = await asyncio.wait_for(reader.read(), timeout=harness.REQUEST_TIMEOUT_S)
            writer.close()
            header, _, body = raw.partition(b"\r\n\r\n")
            lines = header.decode(errors="replace").split("\r\n")
            if " 200 " in lines[0]:
                for h in lines[1:]:
                    if h.lower().startswith("etag:"):
                        etag = h.split(":", 1)[1].strip()
                record(seen, body.decode())
            elif " 304 " not in lines[0]:
                seen_all.errors += 1
        except (TimeoutError, OSError):
            seen_all.errors += 1
        await asyncio.sleep(max(0.0, due - time.monotonic()))


def clients(
    args: argparse.Namespace,
    slug: str,
    sse_port: int,
    poll_port: int,
    stop: float,
    sse: Seen,
    polled: Seen,
) -> None:
    """Every client in one event loop of this thread, until ``stop``."""

    async def main() -> None:
        rng = random.Random(args.seed + 1)
        base = f"/api/events/{slug}/overlays/pairings/"
        tasks = [
            sse_viewer(sse_port, base + "stream/", sse, stop, rng.uniform(0, args.ramp))
            for _ in range(args.viewers)
        ]
        tasks += [
            poller(
                poll_port,
                base,
                polled,
                stop,
                args.poll_seconds,
                rng.uniform(0, args.poll_seconds),
                # each poller a streaming PC of its own (the feeds' rate is per address)
                f"198.18.{i // 250}.{i % 250 + 1}",
            )
            for i in range(args.pollers)
        ]
        await asyncio.gather(*tasks)

    asyncio.run(main())


class Uvicorn:
    def __init__(self, env: dict[str, str], workers: int) -> None:
        self.port = harness.free_port()
        self.command = [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            "--no-access-log",
            "--timeout-graceful-shutdown",
            "2",
        ]
        self.proc = subprocess.Popen(
            self.command, cwd=harness.ROOT, env=env, start_new_session=True
        )

    # The CPU of uvicorn and its workers, read as harness.Server reads gunicorn's.
    cpu_seconds = harness.Server.cpu_seconds

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                status, _ = harness.request(
                    self.port, "GET", "/healthz", {"Accept": "application/json"}
                )
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("uvicorn did not answer /healthz")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def latencies(reported: dict[int, float], seen: Seen) -> tuple[list[float], int]:
    values: list[float] = []
    missed = 0
    for client in seen.by_client:
        for table, at in reported.items():
            if table in client:
                values.append(max(0.0, client[table] - at))
            else:
                missed += 1
    return values, missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--viewers", type=int, default=2000, help="server-sent-event viewers")
    parser.add_argument("--pollers", type=int, default=500, help="clients polling the feed")
    parser.add_argument("--poll-seconds", type=float, default=1.5)
    parser.add_argument("--window", type=float, default=60.0, help="seconds the reports span")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds the viewers connect over")
    parser.add_argument("--uvicorn-workers", type=int, default=2)
    parser.add_argument("--gunicorn-workers", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not 4 <= args.players <= 128 or args.viewers < 0 or args.pollers < 0:
        parser.error("4 to 128 players (the ticker shows 64 tables); viewers, pollers >= 0")
    if not 5 <= args.window <= 600:
        parser.error("5 <= --window <= 600")

    setup = harness.start("bench/live.py", DEFAULT_DATABASE_URL, SECRET_KEY, loopback_only=True)
    if setup is None:
        return 0
    b = harness.BaseBench(args, random.Random(args.seed))
    harness.delete_previous(USER_PREFIX)
    b.organiser, players, _unusable = harness.new_people(USER_PREFIX, args.players, args.players)
    slug = f"{USER_PREFIX}{args.players}"
    harness.new_event(b, f"Bench Live Open {args.players}", slug, 4)
    harness.register(b.event, players)
    round_ = harness.pair_and_publish(b)

    from matches import services
    from matches.models import Match

    matches = list(
        Match.objects.filter(round=round_, b__isnull=False).select_related("round__tournament")
    )
    schedule = sorted((b.rng.uniform(2, args.window), m) for m in matches)
    # gunicorn reads each poller's address from X-Forwarded-For, as behind one proxy.
    os.environ["DJANGO_NUM_PROXIES"] = "1"
    serve = harness.serving(
        USER_PREFIX, setup.db_url, setup.redis, SECRET_KEY, args.gunicorn_workers
    )
    with serve as (gunicorn, env, _collected):
        uvicorn = Uvicorn(env, args.uvicorn_workers)
        try:
            uvicorn.wait_ready()
            print(
                f"servers: uvicorn {args.uvicorn_workers} workers (streams), gunicorn "
                f"{args.gunicorn_workers} workers (polls); cache {harness.cache_text(setup.redis)}",
                flush=True,
            )
            sse, polled = Seen(), Seen()
            begin = time.monotonic() + args.ramp
            stop = begin + args.window + 5
            thread = threading.Thread(
                target=clients, args=(args, slug, uvicorn.port, gunicorn.port, stop, sse, polled)
            )
            cpu = (gunicorn.cpu_seconds(), uvicorn.cpu_seconds(), time.process_time())
            thread.start()
            reported: dict[int, float] = {}
            for at, match in schedule:
                wait = begin + at - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                services.match_report(actor=b.organiser, match=match, games=[1, 0, 0])
                reported[match.table] = time.monotonic()
            thread.join()
            print(f"{len(reported)} results reported over {args.window:g} s")
            used = (gunicorn.cpu_seconds(), uvicorn.cpu_seconds(), time.process_time())
            names = ("gunicorn", "uvicorn", "this load generator (and the reports)")
            print(
                "CPU: "
                + "; ".join(
                    f"{name} {after - before:.1f} s"
                    for name, before, after in zip(names, cpu, used, strict=True)
                    if before is not None and after is not None
                )
            )
        finally:
            uvicorn.stop()
    rows = []
    for name, seen in (("server-sent events", sse), ("polling", polled)):
        values, missed = latencies(reported, seen)
        if not values:
            continue
        p95 = percentile(values, 95)
        print(
            f"{name}: {len(seen.by_client)} clients, "
            + (f"{seen.connections} connections, " if seen is sse else "")
            + f"{seen.errors} errors; report -> overlay p50 {fmt(percentile(values, 50))}, "
            f"p95 {fmt(p95)}, max {fmt(max(values))}; never seen {missed}"
        )
        rows.append(
            (
                f"{name}: p95 report -> overlay",
                fmt(p95),
                f"< {P95_GOAL_S:g} s",
                yes(p95 < P95_GOAL_S and missed == 0),
            )
        )
    harness.print_summary(f"{args.viewers} viewers, {args.pollers} polling", setup.at, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
