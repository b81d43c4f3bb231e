"""The stack's wiring: settings from the environment, deploy checks, compose file, Celery."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent


def run_fresh(args: list[str], *, timeout: float = 120, **env: str) -> str:
    """Python in a fresh process in the project folder, its settings only ``env``'s (none of
    this process's DJANGO_*, DATABASE_URL or REDIS_URL); its output."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }
    clean.update(env)
    result = subprocess.run(
        [sys.executable, *args],
        cwd=REPO,
        env=clean,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def run_python(code: str, **env: str) -> str:
    return run_fresh(["-c", code], **env)


SETTINGS_PROBE = (
    "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings.base');"
    "django.setup(); from django.conf import settings as s;"
    "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'], s.DEBUG)"
)


def test_with_no_settings_it_runs_on_sqlite_with_eager_tasks_and_local_cache() -> None:
    engine, eager, cache, debug = run_python(SETTINGS_PROBE).split()
    assert (
        engine.endswith("sqlite3")
        and eager == "True"
        and cache.endswith("LocMemCache")
        and debug == "True"
    )


def test_with_database_and_redis_urls_it_runs_on_postgres_with_workers() -> None:
    out = run_python(
        SETTINGS_PROBE,
        DATABASE_URL="postgres://u:p@db.example:5432/bd",
        REDIS_URL="redis://cache.example:6379/0",
    ).split()
    assert out[0].endswith("postgresql") and out[1] == "False" and out[2].endswith("RedisCache")


def test_secret_key_is_required_when_debug_is_off() -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean["DJANGO_DEBUG"] = "0"
    result = subprocess.run(
        [sys.executable, "-c", SETTINGS_PROBE],
        cwd=REPO,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0 and "DJANGO_SECRET_KEY is required" in result.stderr


def test_check_deploy_is_clean_with_production_settings() -> None:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }
    clean.update(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=secrets.token_urlsafe(64))
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_docker_compose_names_the_services_with_health_checks() -> None:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "web", "worker", "beat"} <= services.keys()
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert "healthcheck" in services[name], name
    assert "migrate" in services["web"]["command"] and "gunicorn" in services["web"]["command"]
    assert "--appendonly yes" in services["redis"]["command"]  # queued tasks survive a restart
    assert (REPO / ".env.example").is_file()


def test_no_secret_is_committed_in_the_example_environment() -> None:
    text = (REPO / ".env.example").read_text()
    assert "CHANGE" in text


def test_celery_ping_task_runs_eagerly_without_a_broker() -> None:
    from config.celery import ping

    assert ping.delay("hello").get(timeout=5) == "hello"


@pytest.mark.services
def test_redis_cache_round_trip(require_redis: str) -> None:
    import redis

    client = redis.Redis.from_url(require_redis)
    key = f"battledesk-test-{secrets.token_hex(4)}"
    client.set(key, "ok", ex=10)
    assert client.get(key) == b"ok"


@pytest.mark.django_db
def test_healthz_reports_the_database_reachable(client) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings

    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "ok",
        "database": "ok",
        "redis": "ok" if settings.REDIS_URL else "not configured",
        "broker": "in-process",  # the tests run tasks in-process
        "outbox_waiting": 0,
    }


@pytest.mark.django_db
def test_healthz_is_503_naming_the_database_only_when_the_database_is_down(
    client, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from django.db import OperationalError

    from config import views

    def refused() -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(views.connection, "cursor", refused)
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["database"] == "down" and answer.json()["status"] == "down"


def test_static_files_ship_with_the_project_no_cdn() -> None:
    css = REPO / "static" / "css" / "battledesk.css"
    assert css.is_file()
    templates = "".join(p.read_text() for p in (REPO / "templates").rglob("*.html"))
    assert "cdn." not in templates and "googleapis" not in templates and "unpkg" not in templates


def test_production_static_files_build_and_pages_render(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    """collectstatic with the production storage, then a page served with DEBUG off (on a copy
    of the database `manage.py migrate` leaves: migrating again here costs 8 CPU seconds)."""
    env = {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_STATIC_ROOT": str(tmp_path / "static"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
    }
    run_fresh(["manage.py", "collectstatic", "--noinput", "-v0"], timeout=300, **env)
    shutil.copyfile(migrated_sqlite, tmp_path / "db.sqlite3")
    assert (tmp_path / "static" / "staticfiles.json").is_file()
    page = run_python(
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings.base');"
        "django.setup(); from django.test import Client;"
        "r = Client(HTTP_HOST='localhost').get('/'); print(r.status_code, b'battledesk.' in r.content)",
        **env,
    )
    assert page == "200 True"
