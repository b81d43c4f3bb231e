"""The Celery app. Tasks are another interface to services: they take ids and call a service."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("battledesk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="battledesk.ping")
def ping(value: str = "pong") -> str:
    """A round trip used by the CI smoke test and health checks."""
    return value
