"""Send the Celery tasks still waiting in the outbox (config/outbox.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from config import outbox
from config.cache import BROKER_BREAKER


class Command(BaseCommand):
    help = "Send the tasks waiting in the outbox now (after a broker outage)."

    def handle(self, *args: Any, **options: Any) -> None:
        BROKER_BREAKER.reset()  # asked by hand: try now, whatever this process saw before
        sent = outbox.relay_all()
        waiting = outbox.waiting_count()
        self.stdout.write(f"Sent {sent}; {waiting} waiting.")
        if waiting and BROKER_BREAKER.is_down:
            raise CommandError("The broker is unreachable: the tasks wait for the next relay.")
