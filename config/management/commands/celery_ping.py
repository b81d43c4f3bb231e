"""Send a task through the configured broker and wait for a worker's answer (a health check)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.celery import ping


class Command(BaseCommand):
    help = "Round-trip a ping task through Celery; fails if no worker answers in time."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--timeout", type=float, default=30.0)

    def handle(self, *args: Any, timeout: float, **options: Any) -> None:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            raise CommandError("No broker configured (set REDIS_URL): tasks run eagerly.")
        try:
            answer = ping.delay("pong").get(timeout=timeout)
        except Exception as exc:  # the broker or worker failing is exactly what this reports
            raise CommandError(f"No answer from a Celery worker: {exc!r}") from exc
        if answer != "pong":
            raise CommandError(f"Unexpected answer {answer!r}")
        self.stdout.write(
            self.style.SUCCESS(f"Celery round trip OK via {settings.CELERY_BROKER_URL}")
        )
