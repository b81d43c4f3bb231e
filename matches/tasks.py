"""Celery tasks for the rounds: each takes ids and calls a service; each is idempotent."""

from typing import Any

from celery import shared_task

from matches import services


@shared_task(name="matches.pair_round", acks_late=True)
def pair_round_task(round_id: int) -> str | None:
    """Pair a round created by services.round_pair; a retry of a paired round does nothing."""
    round_ = services.round_pairing_run(round_id=round_id)
    return round_.status if round_ is not None else None


@shared_task(name="matches.auto_confirm")
def auto_confirm_task() -> int:
    """Confirm lone reports the event's N minutes after its round ended (celery beat)."""
    return services.auto_confirm_due()


@shared_task(name="matches.round_ending", bind=True, acks_late=True)
def round_ending_task(self: Any, round_id: int, ends_at: str) -> str:
    """Warn a round's players when 5 minutes are left (services.round_ending_due): sent after
    each change of the round's timer, it waits for its moment by scheduling itself again
    (countdown), so no beat is needed. Run eagerly (no worker: CELERY_TASK_ALWAYS_EAGER) it
    cannot wait, and warns only if the moment has come; the beat task below is the net."""
    status, wait = services.round_ending_due(round_id=round_id, ends_at=ends_at)
    if status == "wait" and not self.request.is_eager:
        self.apply_async((round_id, ends_at), countdown=wait)
    return status


@shared_task(name="matches.round_endings")
def round_endings_task() -> int:
    """Celery beat, every minute: rounds within 5 minutes of their end not warned yet."""
    return services.round_endings_due()
