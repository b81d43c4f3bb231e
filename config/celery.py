"""The Celery app. Tasks are another interface to services: they take ids and call a service."""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("battledesk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def own_database_connections(**_: Any) -> None:
    """A prefork child starts with copies of whatever connections and connection pool the
    worker's main process had opened: it sets them aside and opens its own
    (config.database.forget_inherited_connections)."""
    from config.database import forget_inherited_connections

    forget_inherited_connections()


@app.task(name="battledesk.ping")
def ping(value: str = "pong") -> str:
    """A round trip used by the CI smoke test and health checks."""
    return value
