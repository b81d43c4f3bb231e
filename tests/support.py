"""Helpers for tests that need something outside the project: services, shared data, a browser.

Locally a missing service or ../shared skips such a test with the reason; in CI
(REQUIRE_SERVICES=1, where everything is present) it fails, so nothing can pass by skipping.
"""

from __future__ import annotations

import ast
import contextlib
import gzip
import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.db import connection
from django.test import Client, RequestFactory

from notifications import delivery as sending

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"
# Debian's chromium as the browser tests launch it (headless, nothing phoning home).
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
# A phone-sized browser context (Playwright's new_context arguments) for the browser tests.
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 3,
}


def missing_service(reason: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"{reason} (REQUIRE_SERVICES=1, so this fails instead of skipping)")
    pytest.skip(reason)  # only without REQUIRE_SERVICES: see the module docstring


def missing_shared_data(path: Path) -> None:
    missing_service(f"real card data not found at {path} (../shared is absent)")


def fresh_manage(database: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """`manage.py` as an organiser runs it: a fresh process on its own SQLite database (empty
    until the test runs `migrate`), so commands are tested as shipped, not in-process."""
    env = {"DATABASE_URL": f"sqlite:///{database}", "PATH": "/usr/bin:/bin"}

    def manage(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    return manage


def migrated_database(directory: Path) -> Path:
    """A SQLite database as `manage.py migrate` leaves it in a fresh process (fresh_manage),
    made once per test run in ``directory``, which the pytest-xdist workers share: the first
    to ask migrates under a lock, the others wait for it and use its file. Migrating costs
    about 10 CPU seconds; the tests of the commands copy this file where they would migrate."""
    import fcntl

    template = directory / "migrated.sqlite3"
    with open(directory / "migrated.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            scratch = directory / "migrating.sqlite3"
            scratch.unlink(missing_ok=True)
            done = fresh_manage(scratch)("migrate", "-v0")
            assert done.returncode == 0, done.stderr
            scratch.rename(template)
    return template


def in_memory_sqlite(conn: Any) -> bool:
    """Whether ``conn``'s test database is SQLite's in-memory one (no TEST NAME given)."""
    return bool(
        conn.vendor == "sqlite" and conn.creation.is_in_memory_db(conn.creation._get_test_db_name())
    )


def restore_sqlite(conn: Any, template: Path) -> None:
    """Point ``conn`` at its in-memory test database, as Django's create_test_db does, and
    fill it with a copy of the SQLite file ``template`` (SQLite's backup: page by page)."""
    import sqlite3

    from django.conf import settings

    name = conn.creation._get_test_db_name()
    conn.close()  # a no-op on an in-memory database; the name changes below
    settings.DATABASES[conn.alias]["NAME"] = name
    conn.settings_dict["NAME"] = name
    conn.ensure_connection()
    source = sqlite3.connect(template)
    try:
        source.backup(conn.connection)
    finally:
        source.close()


class SqliteCopies:
    """Named copies of ``conn``'s SQLite database, each held by an in-memory database of its
    own (SQLite's backup, page by page: milliseconds for the test database), to put back in
    place of ``conn``'s. Only between transactions: the copy is whatever is committed."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.copies: dict[str, Any] = {}

    def take(self, name: str) -> None:
        import sqlite3

        assert not self.conn.in_atomic_block, "a copy is taken between transactions"
        self.conn.ensure_connection()
        copy = sqlite3.connect(":memory:", check_same_thread=False)
        self.conn.connection.backup(copy)
        self.copies[name] = copy

    def put_back(self, name: str) -> None:
        assert not self.conn.in_atomic_block, "a copy is put back between transactions"
        self.conn.ensure_connection()
        self.copies[name].backup(self.conn.connection)

    def close(self) -> None:
        for copy in self.copies.values():
            copy.close()
        self.copies.clear()


# --- threads started together (the race tests) -----------------------------------------------


def run_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Start every call together (a barrier) and collect each result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def worker(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:  # collected and asserted on by the test
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


# --- a fake clock for the match clock service ------------------------------------------------

T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


class FakeClock:
    """The server's time as the clock service (or, through the `frozen_now` fixture, every
    `django.utils.timezone.now`) sees it: still until the test moves it."""

    def __init__(self, start: datetime = T0) -> None:
        self.current = start

    def now(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += timedelta(seconds=seconds)


# --- the accessibility basics of a page (tests/test_accessibility.py) ------------------------

LABELLABLE = {"input", "select", "textarea"}
UNLABELLED_INPUT_TYPES = {"hidden", "submit", "button", "reset", "image"}


class PageAudit(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.label_for: set[str] = set()
        self.controls: list[dict[str, str | None]] = []
        self.label_depth = 0
        self.problems: list[str] = []
        self.h1 = 0
        self.html_lang = False
        self.viewport = False
        self.button_text: list[str] | None = None
        self.button_attrs: dict[str, str | None] = {}
        self.svg_ok_stack: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.html_lang = bool(a.get("lang"))
        if tag == "meta" and a.get("name") == "viewport":
            self.viewport = True
        if tag == "h1":
            self.h1 += 1
        if tag == "label":
            self.label_depth += 1
            if a.get("for"):
                self.label_for.add(a["for"] or "")
        if tag in LABELLABLE and not (tag == "input" and a.get("type") in UNLABELLED_INPUT_TYPES):
            self.controls.append({**a, "_tag": tag, "_wrapped": "1" if self.label_depth else None})
        if (
            tag == "input"
            and a.get("type") in {"submit", "button", "image"}
            and not (a.get("value") or a.get("aria-label") or a.get("alt"))
        ):
            self.problems.append(f"input button without a name: {a}")
        if tag == "img" and a.get("alt") is None:
            self.problems.append(f"img without alt: {a.get('src')}")
        if tag == "svg":
            named = bool(
                a.get("aria-label") or a.get("aria-labelledby") or a.get("aria-hidden") == "true"
            )
            self.svg_ok_stack.append(named)
        if tag == "title" and self.svg_ok_stack:
            self.svg_ok_stack[-1] = True
        if tag == "button":
            self.button_text = []
            self.button_attrs = a

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.label_depth = max(0, self.label_depth - 1)
        if tag == "svg" and self.svg_ok_stack and not self.svg_ok_stack.pop():
            self.problems.append("svg without a title or aria label")
        if tag == "button" and self.button_text is not None:
            text = "".join(self.button_text).strip()
            if not (text or self.button_attrs.get("aria-label")):
                self.problems.append(f"button without a name: {self.button_attrs}")
            self.button_text = None

    def handle_data(self, data: str) -> None:
        if self.button_text is not None:
            self.button_text.append(data)

    def report(self) -> list[str]:
        problems = list(self.problems)
        for c in self.controls:
            if c["_wrapped"] or c.get("aria-label") or c.get("aria-labelledby"):
                continue
            if c.get("id") and c["id"] in self.label_for:
                continue
            problems.append(f"{c['_tag']} without a label: name={c.get('name')} id={c.get('id')}")
        if self.h1 != 1:
            problems.append(f"{self.h1} <h1> elements")
        if not self.html_lang:
            problems.append("<html> without lang")
        if not self.viewport:
            problems.append("no viewport meta")
        return problems


def audit(client: Client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    parser = PageAudit()
    parser.feed(response.content.decode())
    return [f"{url}: {p}" for p in parser.report()]


# --- a Redis of the test's own (the outage tests stop and restart it) ------------------------


class OwnRedis:
    """A redis-server on a free local port, started and stopped by the test (never the
    shared server: stopping that would stop everyone's)."""

    def __init__(self, binary: str, directory: Path) -> None:
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.binary = binary
        self.directory = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: Any = None

    def start(self) -> None:
        import subprocess
        import time

        import redis

        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=0.2).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        """Kill it, as a crash would (no shutdown, nothing saved)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def client(self) -> Any:
        import redis

        return redis.Redis.from_url(self.url)


# --- colour contrast of the stylesheet (WCAG) -------------------------------------------------

CSS = (Path(__file__).resolve().parent.parent / "static" / "css" / "battledesk.css").read_text()


VARIABLES = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", CSS))


def colour(name_or_hex: str) -> str:
    return name_or_hex if name_or_hex.startswith("#") else VARIABLES[name_or_hex]


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(fg: str, bg: str) -> float:
    a, b = sorted((luminance(colour(fg)), luminance(colour(bg))), reverse=True)
    return (a + 0.05) / (b + 0.05)


# --- the imports of a module, read from its syntax (the purity tests) --------------------------

NOT_IN_PURE_CODE = ("django", "rest_framework")


def imported_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.append(str(node.args[0].value))
    return names


def one_hero_short(decklist_text: str) -> str:
    """The list without its first card line (its first Hero): readable, one Hero short of 60."""
    lines = decklist_text.splitlines()
    first_card = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    return "\n".join(lines[:first_card] + lines[first_card + 1 :])


class FakeHttp:
    """Stands in for the network: records each request; answers from a script of outcomes
    (an int status or an exception), the last one repeating."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *outcomes: Any) -> None:
        self.requests: list[urllib.request.Request] = []
        self.outcomes = list(outcomes) or [204]
        monkeypatch.setattr(sending, "_open", self._open)
        monkeypatch.setattr(sending, "_resolve", lambda host: ["162.159.128.233"])

    def _open(self, request: urllib.request.Request, timeout: float) -> int:
        assert timeout <= 10
        self.requests.append(request)
        outcome = self.outcomes.pop(0) if len(self.outcomes) > 1 else self.outcomes[0]
        if isinstance(outcome, Exception):
            raise outcome
        return int(outcome)

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.data) for r in self.requests]  # type: ignore[arg-type]


# --- WSGI calls (the fast path's tests) ------------------------------------------------


class Answer:
    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status = int(status.split(" ", 1)[0])
        self.headers = headers
        self.body = body

    def header(self, name: str) -> str | None:
        return {k.lower(): v for k, v in self.headers}.get(name.lower())

    def header_set(self) -> dict[str, str]:
        return {k.lower(): v for k, v in self.headers}

    def json(self) -> Any:
        body = self.body
        if self.header("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return json.loads(body)


def call_wsgi(app: Any, path: str, secure: bool = False, **headers: str) -> Answer:
    """One request through a WSGI application, as gunicorn makes it."""
    request = RequestFactory().get(path, secure=secure, **headers)
    environ = dict(request.environ)
    if "?" in path:
        environ["QUERY_STRING"] = path.split("?", 1)[1]
        environ["PATH_INFO"] = path.split("?", 1)[0]
    got: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], *_: Any) -> None:
        got["status"], got["headers"] = status, response_headers

    result = app(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return Answer(got["status"], got["headers"], body)


@contextlib.contextmanager
def wsgi_calls_in_the_tests_transaction(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """For tests that call a WSGI app directly (the fast path's): as Django's test client
    does, the request signals must not close the test's connection (its transaction holds the
    test's rows); Last-Modified is given from the first request on, so two answers compared a
    moment apart never straddle its margin; and the cache starts and ends empty."""
    from django.core import signals
    from django.core.cache import cache
    from django.db import close_old_connections

    from config import published

    monkeypatch.setattr(published, "LAST_MODIFIED_MARGIN", 0.0)
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    cache.clear()
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
        cache.clear()


def end_other_sessions(connection: Any) -> None:
    """On PostgreSQL, close this process's connections to ``connection``'s test database (its
    own and its pool's) and end any other session still on it (a thread's, a subprocess's), so
    that the run's end can drop the database: PostgreSQL refuses to drop a database in use."""
    if connection.vendor != "postgresql":
        return
    name = connection.settings_dict["NAME"]
    connection.close()
    close_pool = getattr(connection, "close_pool", None)
    if close_pool is not None:
        close_pool()
    with connection._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


def bench_module(name: str) -> ModuleType:
    """bench/<name>.py as a module, loaded by its file rather than by putting bench/ on
    sys.path: bench/decks.py and bench/engine.py would hide the apps of the same names."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        f"bench_{name}", REPO_ROOT / "bench" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while decorating
    spec.loader.exec_module(module)
    return module


# A form's CSRF field as pages render it: its masked token differs on every call of get_token
# (the same secret, another mask), so two renders of one page differ there alone.
CSRF_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')


def without_csrf_value(body: bytes) -> bytes:
    """``body`` with every form's CSRF token written as TOKEN: two renders compare byte for byte."""
    return CSRF_FIELD.sub(b'name="csrfmiddlewaretoken" value="TOKEN"', body)
