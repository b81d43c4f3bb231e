"""How the site connects to its database: read from the environment by config/settings/base.py.

On PostgreSQL each process keeps a pool of connections (psycopg 3's pool, through Django's
``"pool"`` option): a request borrows a connection that is already open and gives it back when it
ends, and a process never holds more than ``DATABASE_POOL_MAX_SIZE`` connections, so the number
of connections the whole site can open is known in advance (docs/operations.md: "Database
connections"). Behind a PgBouncer in transaction mode the pool is switched off
(``DATABASE_POOL=0``) and so are server-side cursors.

No Django import at module level: the settings module imports this before Django is set up.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured

DEFAULT_STATEMENT_TIMEOUT_MS = 30_000
# Without a pool, a process keeps its connection this long between requests.
DEFAULT_CONN_MAX_AGE_S = 60
# A sync gunicorn worker or a prefork Celery child runs one request or task at a time and so
# uses one connection; the rest of the pool's room is for threaded workers (gunicorn --threads,
# celery --pool threads), whose threads each borrow their own.
DEFAULT_POOL_MIN_SIZE = 1
DEFAULT_POOL_MAX_SIZE = 4
# How long a request waits for a free connection before it fails (the pool is full).
DEFAULT_POOL_TIMEOUT_S = 10.0
POOL_NAME = "battledesk"


def database_from_environment(env: Any, default_url: str) -> dict[str, Any]:
    """The ``DATABASES["default"]`` entry from ``DATABASE_URL`` and the ``DATABASE_*`` variables
    (``env``: a django-environ ``Env``). Raises ImproperlyConfigured naming the variable when
    the values contradict each other."""
    database: dict[str, Any] = env.db_url("DATABASE_URL", default=default_url)
    options: dict[str, Any] = database.setdefault("OPTIONS", {})
    engine: str = database["ENGINE"]
    conn_max_age: int | None = env.int("DATABASE_CONN_MAX_AGE", default=None)
    pool_wanted: bool | None = env.bool("DATABASE_POOL", default=None)
    if conn_max_age is not None and conn_max_age < 0:
        raise ImproperlyConfigured(
            f"DATABASE_CONN_MAX_AGE must be 0 or more seconds, not {conn_max_age}."
        )

    pool = False
    if engine.endswith("sqlite3"):
        # The zero-setup database: writers take the lock up front and wait for each other
        # instead of failing with "database is locked" when two requests write at once.
        options.update({"transaction_mode": "IMMEDIATE", "timeout": 20})
    elif "postgresql" in engine:
        # No statement runs longer than this (0: no limit): a runaway query is cancelled and
        # the request answers 503 "try again" (config.middleware.StatementTimeoutMiddleware)
        # instead of holding a connection and its locks for everyone else. Migrations and
        # management commands run with the same limit. It is a startup parameter of every
        # connection, so the pool's connections have it from the moment they open.
        timeout_ms = env.int("DATABASE_STATEMENT_TIMEOUT_MS", default=DEFAULT_STATEMENT_TIMEOUT_MS)
        if timeout_ms < 0:
            raise ImproperlyConfigured(
                f"DATABASE_STATEMENT_TIMEOUT_MS must be 0 (no limit) or more, not {timeout_ms}."
            )
        options["options"] = f"-c statement_timeout={timeout_ms}"
        pool = pool_wanted is not False
        if pool:
            options["pool"] = pool_options(env)
    if pool_wanted and not pool:
        raise ImproperlyConfigured(
            f"DATABASE_POOL needs PostgreSQL; DATABASE_URL names {engine}. Unset DATABASE_POOL."
        )

    if pool:
        # The pool keeps the connections: Django must give each one back when a request ends.
        if conn_max_age:
            raise ImproperlyConfigured(
                "DATABASE_CONN_MAX_AGE keeps a connection per process and DATABASE_POOL shares "
                "a pool of them: set DATABASE_POOL=0 to keep persistent connections instead, "
                "or unset DATABASE_CONN_MAX_AGE."
            )
        database["CONN_MAX_AGE"] = 0
    else:
        # Persistent connections: a page does not pay for a new connection each time. 0 turns
        # them off, e.g. behind a transaction-pooling PgBouncer.
        database["CONN_MAX_AGE"] = DEFAULT_CONN_MAX_AGE_S if conn_max_age is None else conn_max_age
    # A broken connection is found and replaced before a request uses it (with the pool: as
    # the pool lends it).
    database["CONN_HEALTH_CHECKS"] = True
    database["ATOMIC_REQUESTS"] = False
    # A transaction-pooling PgBouncer may run each transaction on a different server
    # connection: a cursor that outlives a transaction (QuerySet.iterator() outside one) would
    # be lost there, so it reads the rows in chunks from an ordinary cursor instead.
    database["DISABLE_SERVER_SIDE_CURSORS"] = env.bool(
        "DATABASE_DISABLE_SERVER_SIDE_CURSORS", default=False
    )
    return database


def pool_options(env: Any) -> dict[str, Any]:
    """psycopg_pool.ConnectionPool's arguments from DATABASE_POOL_MIN_SIZE, _MAX_SIZE and
    _TIMEOUT."""
    min_size: int = env.int("DATABASE_POOL_MIN_SIZE", default=DEFAULT_POOL_MIN_SIZE)
    max_size: int = env.int("DATABASE_POOL_MAX_SIZE", default=DEFAULT_POOL_MAX_SIZE)
    timeout: float = env.float("DATABASE_POOL_TIMEOUT", default=DEFAULT_POOL_TIMEOUT_S)
    if max_size < 1:
        raise ImproperlyConfigured(f"DATABASE_POOL_MAX_SIZE must be at least 1, not {max_size}.")
    if not 0 <= min_size <= max_size:
        raise ImproperlyConfigured(
            f"DATABASE_POOL_MIN_SIZE must be between 0 and DATABASE_POOL_MAX_SIZE ({max_size}), "
            f"not {min_size}."
        )
    if timeout <= 0:
        raise ImproperlyConfigured(
            f"DATABASE_POOL_TIMEOUT must be more than 0 seconds, not {timeout}."
        )
    return {"min_size": min_size, "max_size": max_size, "timeout": timeout, "name": POOL_NAME}


# What forget_inherited_connections() took away, kept referenced for the life of the process:
# freeing a connection object closes it, which would end the parent's session on the server.
_INHERITED: list[object] = []


def forget_inherited_connections() -> None:
    """In a process just forked from one that had used the database (a prefork Celery child):
    set aside the connections and pools it inherited, untouched, so that it opens its own.

    A forked child shares its parent's sockets: a query from both on one connection mixes their
    messages, and closing it in the child ends the parent's session. An inherited pool is
    useless anyway: the threads that open its connections did not survive the fork. Nothing is
    sent on the inherited sockets; the objects are kept so that no finalizer ever closes them.
    """
    from django.db import connections

    for wrapper in connections.all(initialized_only=True):
        if wrapper.connection is not None:
            _INHERITED.append(wrapper.connection)
            wrapper.connection = None
    try:
        from django.db.backends.postgresql.base import DatabaseWrapper
    except ImportError:  # psycopg is not installed: no pools
        return
    pools: dict[str, object] = DatabaseWrapper._connection_pools
    _INHERITED.extend(pools.values())
    pools.clear()
