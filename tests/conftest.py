"""Shared fixtures. With REQUIRE_SERVICES=1 (CI) a test that needs PostgreSQL or Redis fails
instead of skipping, so a misconfigured CI can never pass by skipping the concurrency tests."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from decks.catalog import catalog_for
from decks.services import demo_catalog_load
from engine.games import get_game
from tests import scenarios
from tests.support import (
    CHROMIUM_FLAGS,
    PHONE,
    SHARED,
    FakeClock,
    OwnRedis,
    SqliteCopies,
    end_other_sessions,
    in_memory_sqlite,
    migrated_database,
    missing_service,
    missing_shared_data,
    one_hero_short,
    restore_sqlite,
)

# Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (.ci/run: "ci"; otherwise "dev"). Neither
# has a deadline nor the too-slow health check: on a loaded machine (two cores shared by the
# test workers and everything else) an example's time says nothing about the code, so timing
# never fails a property test. A test's own max_examples still wins over the profile's.
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "dev", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_sessionstart(session: pytest.Session) -> None:
    """`make test`'s SQLite run with pytest-xdist workers: the run's migrated database
    (`migrated_sqlite_file`, tests/support.py: migrated_database) is made here, by the
    controller, while the workers start and collect, instead of by the first worker to need it
    while the other waits for it (about 6 s of one core idle at every run's start)."""
    config = session.config
    if os.environ.get("PYTEST_XDIST_WORKER") or os.environ.get("DATABASE_URL"):
        return
    workers = getattr(config.option, "numprocesses", None)
    if not isinstance(workers, int) or workers < 2 or config.getoption("nomigrations", False):
        return
    root = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    migrating = threading.Thread(target=migrated_database, args=(root,), daemon=True)
    migrating.start()
    config.stash[_MIGRATING] = migrating


def pytest_sessionfinish(session: pytest.Session) -> None:
    migrating = session.config.stash.get(_MIGRATING, None)
    if migrating is not None:
        migrating.join()


_MIGRATING = pytest.StashKey[threading.Thread]()


@pytest.fixture
def require_postgres(transactional_db) -> None:  # type: ignore[no-untyped-def]
    from django.db import connection

    if connection.vendor != "postgresql":
        missing_service("needs PostgreSQL: set DATABASE_URL")


@pytest.fixture
def require_redis() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        missing_service("needs Redis: set REDIS_URL")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        missing_service(f"Redis at {url} is not reachable: {exc}")
    return url


@pytest.fixture(autouse=True)
def _celery_joins_allowed():  # type: ignore[no-untyped-def]
    """Celery runs tasks eagerly in tests, and while one runs it sets a process-wide "joining
    would block" flag that it restores afterwards; two threads running tasks at once (the race
    tests, the live server) can restore it in the wrong order and leave it set, failing a later
    test's result.get(). Every test starts with it clear, as a fresh process does."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)
    yield


@pytest.fixture(autouse=True)
def _no_outbox_backlog_from_another_test():  # type: ignore[no-untyped-def]
    """A test whose broker failed leaves this process's "rows are waiting" flag set, and its
    rows are rolled back: the next test's first request would look for them (one query more
    than a fresh process makes). Every test starts as a fresh process does."""
    from config.outbox import BACKLOG

    BACKLOG.waiting = False


@pytest.fixture(autouse=True)
def _no_cache_from_another_test():  # type: ignore[no-untyped-def]
    """SQLite gives a rolled-back test's ids to the next test, so a page copy in the
    in-memory cache could answer for another test's event; PostgreSQL never reuses an id
    in a run (and the run's cache keys are its own: config/settings/test.py). The copies each
    process keeps in memory (config.published.LOCAL, the pairings page's lists) are named by
    those ids too."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    from config import prepared, published
    from matches.views import pairings_page

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()
    published.LOCAL.clear()
    pairings_page.SEGMENTS.clear()
    prepared.forget_remembered()
    yield


@pytest.fixture(scope="module")
def module_db(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """A transaction around a whole test module, rolled back at its end, for module-scoped
    fixtures that build a world once (the demo, an exported archive, the named scenarios
    below): each test runs in a savepoint inside it (pytest-django's `db`), starts from that
    world and leaves nothing behind, as Django's TestCase.setUpTestData. Only for tests that
    use `db`, never `transactional_db` (pytest-django runs those after every `db` test, once
    this transaction is gone). tests/scenarios.py's docstring says how to share a world."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _load_demo() -> str:
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


@pytest.fixture(scope="session")
def _demo_database(django_db_blocker: Any) -> Iterator[tuple[SqliteCopies, str]]:
    """This process's in-memory SQLite test database copied twice (SQLite's backup): as it
    is between tests ("clean") and with `load_demo` run in it ("demo", with the command's
    output), so that each module reading the demo puts the copy in place (milliseconds)
    instead of loading it again (2 to 3 CPU seconds). The demo is loaded in a transaction
    whose on-commit work is dropped, as in a module's transaction (module_db)."""
    from django.db import connection, transaction

    copies = SqliteCopies(connection)
    with django_db_blocker.unblock():
        copies.take("clean")
        with transaction.atomic():
            output = _load_demo()
            connection.run_on_commit = []  # never run, as in module_db's rolled-back one
        copies.take("demo")
        copies.put_back("clean")
    try:
        yield copies, output
    finally:
        copies.close()


@pytest.fixture(scope="module")
def _demo_in_database(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[str | None]:
    """On SQLite's in-memory test database, the demo's copy (_demo_database) put in place for
    the module and the clean one put back after it: the demo's output. None on PostgreSQL (a
    database of its own per worker, not copied page by page), and when another world of the
    module already opened its transaction (a copy cannot be put back under it): then
    demo_loaded_once loads the demo in the module's transaction."""
    from django.db import connection

    if not in_memory_sqlite(connection) or connection.in_atomic_block:
        yield None
        return
    copies, output = request.getfixturevalue("_demo_database")
    with django_db_blocker.unblock():
        copies.put_back("demo")
    try:
        yield output
    finally:
        with django_db_blocker.unblock():
            copies.put_back("clean")


@pytest.fixture(scope="module")
def demo_loaded_once(_demo_in_database: str | None, module_db: None) -> str:
    """`manage.py load_demo` run once for the module (its output): a copy of this process's
    demo database on in-memory SQLite, loaded in the module's transaction elsewhere."""
    if _demo_in_database is not None:
        return _demo_in_database
    return _load_demo()


@pytest.fixture
def demo_loaded(demo_loaded_once: str, db: None) -> str:
    """The demo as `load_demo` leaves it (loaded once for the module; each test's changes are
    rolled back): the command's output."""
    return demo_loaded_once


# --- named scenarios (tests/scenarios.py; call its functions for other sizes) -----------------


@pytest.fixture
def published_round(db: None) -> scenarios.PublishedRound:
    """A running 4-player event with a judge and its round 1 published."""
    return scenarios.published_round()


@pytest.fixture
def finished_swiss(db: None) -> scenarios.FinishedSwiss:
    """An 8-player event whose 3 Swiss rounds are played and finished."""
    return scenarios.finished_swiss()


@pytest.fixture
def running_top_cut(db: None) -> scenarios.RunningTopCut:
    """An 8-player event after 1 Swiss round, its top 4's semi-finals published."""
    return scenarios.running_top_cut()


# The same scenarios built once for the module (module_db; tests/scenarios.py's docstring):
# each test gets its own copy of the instances, and its changes are rolled back after it.


@pytest.fixture(scope="module")
def published_round_once(module_db: None) -> scenarios.PublishedRound:
    return scenarios.published_round()


@pytest.fixture
def shared_published_round(
    published_round_once: scenarios.PublishedRound, db: None
) -> scenarios.PublishedRound:
    """`published_round`, built once for the module."""
    return scenarios.own_copy(published_round_once)


@pytest.fixture(scope="module")
def finished_swiss_once(module_db: None) -> scenarios.FinishedSwiss:
    return scenarios.finished_swiss()


@pytest.fixture
def shared_finished_swiss(
    finished_swiss_once: scenarios.FinishedSwiss, db: None
) -> scenarios.FinishedSwiss:
    """`finished_swiss`, built once for the module."""
    return scenarios.own_copy(finished_swiss_once)


@pytest.fixture(scope="module")
def running_top_cut_once(module_db: None) -> scenarios.RunningTopCut:
    return scenarios.running_top_cut()


@pytest.fixture
def shared_running_top_cut(
    running_top_cut_once: scenarios.RunningTopCut, db: None
) -> scenarios.RunningTopCut:
    """`running_top_cut`, built once for the module."""
    return scenarios.own_copy(running_top_cut_once)


# --- the demo catalog and lists of the BoBA demo (decks and the player import) ----------------


@pytest.fixture
def demo_catalog(db):  # type: ignore[no-untyped-def]
    demo_catalog_load(game="boba")
    return catalog_for("boba")


@pytest.fixture(scope="module")
def demo_catalog_once(module_db: None) -> None:
    demo_catalog_load(game="boba")


@pytest.fixture
def shared_demo_catalog(demo_catalog_once: None, db: None):  # type: ignore[no-untyped-def]
    """`demo_catalog`, loaded once for the module (module_db; tests/scenarios.py)."""
    return catalog_for("boba")


@pytest.fixture
def deck_rules():  # type: ignore[no-untyped-def]
    return get_game("boba").deck_rules()


@pytest.fixture
def legal_list(demo_catalog, deck_rules) -> str:  # type: ignore[no-untyped-def]
    fmt = deck_rules.resolve_format("playmaker")
    return deck_rules.export(deck_rules.sample(demo_catalog, fmt, 7), demo_catalog)


@pytest.fixture
def illegal_list(legal_list: str) -> str:
    """A readable list one Hero short of 60 (CR 4.1.1 / Formats: hero deck size)."""
    return one_hero_short(legal_list)


@pytest.fixture(scope="session")
def django_db_setup(  # type: ignore[no-untyped-def]
    request: pytest.FixtureRequest,
    django_test_environment: None,
    django_db_blocker: Any,
    django_db_use_migrations: bool,
    django_db_keepdb: bool,
    django_db_createdb: bool,
    django_db_modify_db_settings: None,
    tmp_path_factory: pytest.TempPathFactory,
):
    """pytest-django's, except on SQLite's in-memory test database with two workers or more
    (`make test`): there each worker's database is a copy of the file `manage.py migrate` made
    once for the whole run (`migrated_sqlite`), instead of each worker running every migration
    again (6 to 9 CPU seconds a worker). The copy is what the migrations left, data migrations
    included. One process (a file, a test) migrates in-process as before: the fresh process
    costs it more than it saves. So do PostgreSQL, a named SQLite test file and
    --nomigrations."""
    from django.db import connections
    from pytest_django.fixtures import _disable_migrations, _get_databases_for_setup

    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    if (
        django_db_use_migrations
        and int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1
        and not serialized_aliases
        and set(aliases) <= {"default"}
        and in_memory_sqlite(connections["default"])
    ):
        with django_db_blocker.unblock():
            restore_sqlite(connections["default"], migrated_sqlite_file(tmp_path_factory))
        yield
        return

    from django.test.utils import setup_databases, teardown_databases

    if not django_db_use_migrations:
        _disable_migrations()
    keepdb = {"keepdb": True} if django_db_keepdb and not django_db_createdb else {}
    with django_db_blocker.unblock():
        db_cfg = setup_databases(
            verbosity=request.config.option.verbose,
            interactive=False,
            aliases=aliases,
            serialized_aliases=serialized_aliases,
            **keepdb,
        )
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            for connection, _old_name, destroy in db_cfg:
                if destroy:
                    end_other_sessions(connection)
            # As pytest-django's own: a connection still open elsewhere (a pooled one, another
            # thread's) must not turn the run's end into an error.
            try:
                teardown_databases(db_cfg, verbosity=request.config.option.verbose)
            except Exception as exc:
                request.node.warn(
                    pytest.PytestWarning(f"Error when trying to teardown test databases: {exc!r}")
                )


def migrated_sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's directory, shared by its workers
    return migrated_database(root)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file as a fresh `manage.py migrate` leaves it (tests/support.py:
    migrated_database), made once for the whole run; copy it, never write to it."""
    return migrated_sqlite_file(tmp_path_factory)


@pytest.fixture
def shared_data() -> Path:
    path = SHARED / "data"
    if not path.is_dir():
        missing_shared_data(path)
    return path


@pytest.fixture
def api_client():  # type: ignore[no-untyped-def]
    from rest_framework.test import APIClient

    return APIClient()


# --- browser tests (Debian's chromium through Playwright; see tests/test_browser.py) ---------


@pytest.fixture
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """`django.utils.timezone.now` stopped at a whole second of the real time (moved only by
    the test: FakeClock.advance), so a test asserts exact times and durations, never a range
    that a slow machine may leave. Columns filled by the database keep the real time."""
    from django.utils import timezone

    clock = FakeClock(timezone.now().replace(microsecond=0))
    monkeypatch.setattr(timezone, "now", clock.now)
    return clock


@pytest.fixture
def fresh_cache():  # type: ignore[no-untyped-def]
    """Pages cache their bodies (locmem, shared with the live server's thread): never let
    another test's copy answer."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


class _WorkerChromium:
    """One headless chromium per test process (pytest-xdist worker), shared by its browser
    tests: launching Playwright's driver and a browser costs about a CPU second each time,
    which 35 browser tests paid once each. Every test gets fresh browser contexts (cookies,
    storage and service workers are per context) and its contexts are closed after it.

    Playwright's sync API marks its event loop as this thread's running loop while it is
    alive (and again after each call); Django refuses ORM calls under a running loop
    (SynchronousOnlyOperation) and asyncio.run() refuses to start. So the loop is marked
    running only while a browser test runs (`chromium` below) and cleared between them, when
    nothing is waiting on it: Playwright's calls only resume the loop from inside a call."""

    def __init__(self, executable: str) -> None:
        self.executable = executable
        self.manager: Any = None
        self.playwright: Any = None
        self.browser: Any = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def launch(self) -> None:
        from playwright.sync_api import sync_playwright

        self.manager = sync_playwright()
        self.playwright = self.manager.start()
        self.loop = asyncio.get_running_loop()  # Playwright's, marked running by its calls
        try:
            self.browser = self.playwright.chromium.launch(
                executable_path=self.executable, args=CHROMIUM_FLAGS
            )
        except BaseException:
            self.stop()
            raise

    def enter(self) -> Any:
        """The browser, with Playwright's loop marked running for the test's calls."""
        if self.browser is None:
            self.launch()
        else:
            asyncio._set_running_loop(self.loop)
            if not self.browser.is_connected():  # a test crashed it: a new one for the next
                self.stop()
                self.launch()
        return self.browser

    def leave(self) -> None:
        if self.browser is not None and self.browser.is_connected():
            for context in list(self.browser.contexts):
                context.close()
        asyncio._set_running_loop(None)

    def stop(self) -> None:
        if self.manager is None:
            return
        asyncio._set_running_loop(self.loop)
        try:
            if self.browser is not None and self.browser.is_connected():
                self.browser.close()
            self.playwright.stop()
        finally:
            asyncio._set_running_loop(None)
            self.manager = self.playwright = self.browser = self.loop = None


@pytest.fixture(scope="session")
def _worker_chromium() -> Iterator[_WorkerChromium]:
    import shutil

    executable = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(executable):
        missing_service(f"needs Debian's chromium at {executable} (apt-get install chromium)")
    shared = _WorkerChromium(executable)
    try:
        yield shared
    finally:
        shared.stop()


@pytest.fixture
def chromium(_worker_chromium: _WorkerChromium):  # type: ignore[no-untyped-def]
    """A headless Debian chromium (this worker's: _WorkerChromium); skips (locally) or fails
    (CI) exactly as test_browser.py. The contexts the test opens are closed after it."""
    from django.db import connections
    from playwright.sync_api import expect

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # ORM calls between page actions
    expect.set_options(timeout=15_000)  # as the pages' default timeout (a loaded CI machine)
    try:
        yield _worker_chromium.enter()
    finally:
        try:
            _worker_chromium.leave()
        finally:
            # Playwright runs callbacks in greenlets with contexts of their own, so ORM calls
            # made there hold connections of their own; close them before the test DB goes.
            connections.close_all()
            expect.set_options(timeout=5_000)  # Playwright's default
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def browser_page(chromium):  # type: ignore[no-untyped-def]
    """A phone-sized page of a headless Debian chromium (tests/test_browser.py)."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.fixture
def open_page(chromium, live_server):  # type: ignore[no-untyped-def]
    """``open_page(user=None, device=PHONE)``: a new browser context of that size, logged in as
    ``user`` (a session cookie, as Client.force_login makes it) when given; its first page."""
    from django.conf import settings
    from django.test import Client

    def opener(user=None, device=PHONE):  # type: ignore[no-untyped-def]
        context = chromium.new_context(**device)
        context.set_default_timeout(15_000)
        if user is not None:
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
            )
        return context.new_page()

    return opener


@pytest.fixture
def own_redis(tmp_path: Path):  # type: ignore[no-untyped-def]
    import shutil

    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(binary):
        missing_service("needs the redis-server binary (apt-get install redis-server)")
    server = OwnRedis(binary, tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def site_on_own_redis(own_redis: OwnRedis):  # type: ignore[no-untyped-def]
    """The site's cache and Celery broker on ``own_redis``, with real (not eager) task sends,
    as in production; the circuit breakers fresh and quick to retry."""
    from django.test import override_settings

    from config import outbox
    from config.cache import _FAILED_WRITES, BROKER_BREAKER, CACHE_BREAKER
    from config.celery import app
    from config.throttling import LOCAL_COUNTERS

    caches = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": own_redis.url,
            "KEY_PREFIX": f"outage-{os.getpid()}",
        }
    }
    before = {
        "CELERY_BROKER_URL": app.conf.broker_url,
        "CELERY_TASK_ALWAYS_EAGER": app.conf.task_always_eager,
    }

    def fresh() -> None:
        app._pool = None
        app.amqp._producer_pool = None
        for breaker in (CACHE_BREAKER, BROKER_BREAKER):
            breaker.reset()
        LOCAL_COUNTERS.clear()
        _FAILED_WRITES.take()
        outbox.BACKLOG.waiting = False

    cooldowns = (CACHE_BREAKER.cooldown, BROKER_BREAKER.cooldown)
    CACHE_BREAKER.cooldown = BROKER_BREAKER.cooldown = 0.2
    app.conf.update(CELERY_BROKER_URL=own_redis.url, CELERY_TASK_ALWAYS_EAGER=False)
    fresh()
    try:
        with override_settings(
            CACHES=caches,
            REDIS_URL=own_redis.url,
            CELERY_BROKER_URL=own_redis.url,
            CELERY_TASK_ALWAYS_EAGER=False,
        ):
            yield own_redis
    finally:
        app.conf.update(before)
        CACHE_BREAKER.cooldown, BROKER_BREAKER.cooldown = cooldowns
        fresh()


# A cache at a port nothing listens on: what the site does while Redis is down.
def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the block ends


@pytest.fixture
def dead_redis() -> Iterator[None]:
    from django.test import override_settings

    from config.cache import CACHE_BREAKER

    CACHE_BREAKER.reset()
    caches = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
        }
    }
    with override_settings(CACHES=caches):
        yield
    CACHE_BREAKER.reset()
