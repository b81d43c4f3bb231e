"""Celery tasks for the rounds: each takes ids and calls a service; each is idempotent."""

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
