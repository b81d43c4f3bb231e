"""Celery tasks for the event as data: each takes ids and calls a service; each is idempotent."""

from __future__ import annotations

from celery import shared_task

from eventdata.archive_store import archive_store_round
from tournaments.tasks import ARCHIVE_ROUND_TASK


@shared_task(name=ARCHIVE_ROUND_TASK, acks_late=True)
def archive_round_task(round_id: int) -> str | None:
    """Keep the event's archive as it was when this round finished (written once, kept)."""
    return archive_store_round(round_id=round_id)
