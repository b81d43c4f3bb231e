"""Celery tasks for events: each takes ids and calls a service; each is idempotent."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction


@shared_task(name="tournaments.archive_round", acks_late=True)
def archive_round_task(round_id: int) -> str | None:
    """Keep the event's archive as it was when this round finished (written once, kept)."""
    from tournaments.archive_services import archive_store_round

    return archive_store_round(round_id=round_id)


def schedule_round_archive(round_id: int) -> None:
    """After the transaction that finished a round commits, archive the event in a task.

    `robust`: a broker or storage failure is logged and never turns the result that finished
    the round into an error."""
    transaction.on_commit(lambda: archive_round_task.delay(round_id), robust=True)
