"""Celery tasks for events: each takes ids and calls a service; each is idempotent."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tournaments.archive_round", acks_late=True)
def archive_round_task(round_id: int) -> str | None:
    """Keep the event's archive as it was when this round finished (written once, kept)."""
    from tournaments.archive_services import archive_store_round

    return archive_store_round(round_id=round_id)


def schedule_round_archive(round_id: int) -> None:
    """After the transaction that finished a round commits, archive the event in a task.

    Through the outbox (config/outbox.py): a broker that is down delays the archive and
    never turns the result that finished the round into an error."""
    from config.outbox import send_after_commit

    send_after_commit(archive_round_task, round_id)
