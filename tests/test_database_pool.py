"""The database connection settings (config/database.py) and, on PostgreSQL, the pool itself:
a process never holds more connections than the pool's size, every pooled connection has the
statement timeout, and a forked Celery child opens its own connections instead of using its
parent's."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import environ
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError, connection

from config.database import database_from_environment
from config.middleware import is_statement_timeout

POSTGRES_URL = "postgres://battledesk:secret@db.example.org:5432/battledesk"
SQLITE_URL = "sqlite:////tmp/battledesk-settings-test.sqlite3"
DATABASE_VARIABLES = (
    "DATABASE_URL",
    "DATABASE_POOL",
    "DATABASE_POOL_MIN_SIZE",
    "DATABASE_POOL_MAX_SIZE",
    "DATABASE_POOL_TIMEOUT",
    "DATABASE_CONN_MAX_AGE",
    "DATABASE_STATEMENT_TIMEOUT_MS",
    "DATABASE_DISABLE_SERVER_SIDE_CURSORS",
)


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``environment(**variables)``: the DATABASES entry read from exactly these variables."""
    for name in DATABASE_VARIABLES:
        monkeypatch.delenv(name, raising=False)

    def read(url: str = POSTGRES_URL, **variables: str) -> dict[str, Any]:
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        return database_from_environment(environ.Env(), default_url=url)

    return read


# --- reading the settings -------------------------------------------------------------------


def test_postgresql_pools_connections_by_default(environment: Any) -> None:
    database = environment()
    assert database["OPTIONS"]["pool"] == {
        "min_size": 1,
        "max_size": 4,
        "timeout": 10.0,
        "name": "battledesk",
    }
    # Django refuses a pool with persistent connections: each request gives its connection back.
    assert database["CONN_MAX_AGE"] == 0
    assert database["CONN_HEALTH_CHECKS"] is True
    assert database["OPTIONS"]["options"] == "-c statement_timeout=30000"
    assert database["DISABLE_SERVER_SIDE_CURSORS"] is False
    assert database["NAME"] == "battledesk"


def test_the_pool_sizes_and_wait_come_from_the_environment(environment: Any) -> None:
    database = environment(
        DATABASE_POOL_MIN_SIZE="0",
        DATABASE_POOL_MAX_SIZE="8",
        DATABASE_POOL_TIMEOUT="2.5",
        DATABASE_STATEMENT_TIMEOUT_MS="5000",
    )
    pool = database["OPTIONS"]["pool"]
    assert (pool["min_size"], pool["max_size"], pool["timeout"]) == (0, 8, 2.5)
    assert database["OPTIONS"]["options"] == "-c statement_timeout=5000"


def test_without_the_pool_connections_persist_for_a_minute(environment: Any) -> None:
    database = environment(DATABASE_POOL="0")
    assert "pool" not in database["OPTIONS"]
    assert database["CONN_MAX_AGE"] == 60
    assert database["OPTIONS"]["options"] == "-c statement_timeout=30000"


def test_behind_a_transaction_pooling_pgbouncer(environment: Any) -> None:
    """The three variables docs/operations.md gives for PgBouncer in transaction mode."""
    database = environment(
        DATABASE_POOL="0", DATABASE_CONN_MAX_AGE="0", DATABASE_DISABLE_SERVER_SIDE_CURSORS="1"
    )
    assert "pool" not in database["OPTIONS"]
    assert database["CONN_MAX_AGE"] == 0
    assert database["DISABLE_SERVER_SIDE_CURSORS"] is True


def test_persistent_connections_and_the_pool_exclude_each_other(environment: Any) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_CONN_MAX_AGE"):
        environment(DATABASE_CONN_MAX_AGE="60")
    # 0 says the same as the pool does: accepted.
    assert environment(DATABASE_CONN_MAX_AGE="0")["CONN_MAX_AGE"] == 0


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"DATABASE_POOL_MAX_SIZE": "0"}, "DATABASE_POOL_MAX_SIZE"),
        ({"DATABASE_POOL_MIN_SIZE": "5"}, "DATABASE_POOL_MIN_SIZE"),
        ({"DATABASE_POOL_MIN_SIZE": "-1"}, "DATABASE_POOL_MIN_SIZE"),
        ({"DATABASE_POOL_TIMEOUT": "0"}, "DATABASE_POOL_TIMEOUT"),
        ({"DATABASE_STATEMENT_TIMEOUT_MS": "-5"}, "DATABASE_STATEMENT_TIMEOUT_MS"),
        ({"DATABASE_POOL": "0", "DATABASE_CONN_MAX_AGE": "-1"}, "DATABASE_CONN_MAX_AGE"),
    ],
)
def test_impossible_values_are_refused_naming_the_variable(
    environment: Any, variables: dict[str, str], named: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match=named):
        environment(**variables)


def test_sqlite_has_no_pool(environment: Any) -> None:
    database = environment(url=SQLITE_URL)
    assert "pool" not in database["OPTIONS"]
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database["CONN_MAX_AGE"] == 60
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL needs PostgreSQL"):
        environment(url=SQLITE_URL, DATABASE_POOL="1")
    assert "pool" not in environment(url=SQLITE_URL, DATABASE_POOL="0")["OPTIONS"]


# --- the pool on PostgreSQL -----------------------------------------------------------------

POOL_MAX = 3
STATEMENT_TIMEOUT_MS = 300


@pytest.fixture
def small_pool(require_postgres: None) -> Iterator[str]:
    """The default database through a pool of at most POOL_MAX connections, each named by a
    fresh application_name (returned) and with a short statement timeout, whatever the
    environment configured; the configured connection is back afterwards."""
    settings_dict = connection.settings_dict
    saved_options, saved_age = dict(settings_dict["OPTIONS"]), settings_dict["CONN_MAX_AGE"]
    name = f"pool-test-{uuid.uuid4().hex[:12]}"
    connection.close()
    connection.close_pool()
    settings_dict["OPTIONS"] = {
        **saved_options,
        "pool": {"min_size": 1, "max_size": POOL_MAX, "timeout": 20.0},
        "application_name": name,
        "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
    }
    settings_dict["CONN_MAX_AGE"] = 0
    try:
        yield name
    finally:
        connection.close()
        connection.close_pool()
        settings_dict["OPTIONS"], settings_dict["CONN_MAX_AGE"] = saved_options, saved_age


def backends_named(application_name: str) -> int:
    """Server processes serving connections of that name, counted from a connection of its own
    (outside the pool)."""
    import psycopg

    s = connection.settings_dict
    with psycopg.connect(
        dbname=s["NAME"],
        user=s["USER"] or None,
        password=s["PASSWORD"] or None,
        host=s["HOST"] or None,
        port=s["PORT"] or None,
        autocommit=True,
    ) as probe:
        row = probe.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            (application_name,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_many_threads_at_once_never_open_more_connections_than_the_pool_holds(
    small_pool: str,
) -> None:
    threads = 4 * POOL_MAX
    start = threading.Barrier(threads)
    backend_pids: list[int] = []
    failures: list[BaseException] = []
    done = threading.Event()

    def query() -> None:
        try:
            start.wait()
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid(), pg_sleep(0.15)")
                backend_pids.append(cursor.fetchone()[0])
        except BaseException as exc:  # collected and asserted on below
            failures.append(exc)
        finally:
            connection.close()  # as a request's end does: the connection goes back to the pool

    workers = [threading.Thread(target=query) for _ in range(threads)]
    for worker in workers:
        worker.start()
    most_seen = 0

    def watch() -> None:
        nonlocal most_seen
        while not done.is_set():
            most_seen = max(most_seen, backends_named(small_pool))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    for worker in workers:
        worker.join(timeout=60)
    done.set()
    watcher.join(timeout=10)

    assert failures == []
    assert len(backend_pids) == threads
    assert len(set(backend_pids)) <= POOL_MAX
    assert 1 <= most_seen <= POOL_MAX
    stats = connection.pool.get_stats()
    assert stats["pool_max"] == POOL_MAX
    # Some threads had to wait for a connection another gave back.
    assert stats.get("requests_queued", 0) >= 1


def test_a_pooled_connection_has_the_statement_timeout_every_time_it_is_lent(
    small_pool: str,
) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid(), current_setting('statement_timeout')")
        first_pid, timeout = cursor.fetchone()
    assert timeout == f"{STATEMENT_TIMEOUT_MS}ms"
    with pytest.raises(OperationalError) as cancelled, connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(5)")
    assert is_statement_timeout(cancelled.value)
    # Lent again and again: POOL_MAX connections at most, so some are lent twice or more.
    lent: list[tuple[int, str]] = [(first_pid, timeout)]
    for _ in range(2 * POOL_MAX):
        connection.close()  # back to the pool
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid(), current_setting('statement_timeout')")
            lent.append(cursor.fetchone())
    assert {timeout for _, timeout in lent} == {f"{STATEMENT_TIMEOUT_MS}ms"}
    assert len({pid for pid, _ in lent}) < len(lent)
    assert connection.pool is not None


def test_a_request_that_finds_the_pool_full_answers_503_try_again(small_pool: str) -> None:
    from django.test import Client

    connection.settings_dict["OPTIONS"]["pool"] = {"min_size": 0, "max_size": 1, "timeout": 0.3}
    with connection.cursor() as cursor:  # this thread holds the pool's only connection
        cursor.execute("SELECT 1")
    answers: list[Any] = []

    def ask() -> None:
        try:
            answers.append(Client().get("/api/catalogs/"))
        finally:
            connection.close()

    asker = threading.Thread(target=ask)
    asker.start()
    asker.join(timeout=30)
    assert len(answers) == 1
    assert answers[0].status_code == 503
    assert answers[0].json()["code"] == "timeout"
    assert answers[0]["Retry-After"]
    assert connection.pool.get_stats().get("requests_errors", 0) >= 1


def test_a_forked_worker_opens_its_own_connections(small_pool: str) -> None:
    """A prefork Celery child, on worker_process_init (config/celery.py)."""
    from celery.signals import worker_process_init

    import config.celery  # noqa: F401  (connects the receiver)

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        parent_pid = cursor.fetchone()[0]
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # the child: never returns into pytest
        status = 1
        try:
            os.close(read_end)
            worker_process_init.send(sender=None)
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                os.write(write_end, str(cursor.fetchone()[0]).encode())
            connection.close()
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        answer = pipe.read()
    _, status = os.waitpid(child, 0)
    assert os.WEXITSTATUS(status) == 0
    assert answer and int(answer) != parent_pid
    # The parent's connection was neither used nor closed by the child.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] == parent_pid
