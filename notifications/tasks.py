"""Celery tasks for notifications: each takes ids and calls a service; each is idempotent.

``dispatch`` runs after the commit that queued an occurrence and fans out one ``deliver`` per
e-mail or webhook post, and one ``deliver_batch`` per ``PUSH_BATCH`` pushes (a round's
pairings are a push to every player: a task each would be thousands); ``deliver`` sends one
(a second copy finds it claimed and does nothing) and, after a failure, schedules its own
retry with backoff; ``sweep`` (celery beat) re-sends what a lost task or a due retry left
behind.
"""

from celery import shared_task

from notifications import delivery

PUSH_BATCH = 50


@shared_task(name="notifications.dispatch", acks_late=True)
def dispatch_task(tournament_id: int, source: str) -> int:
    pushes, others = delivery.pending_split(tournament_id, source)
    for delivery_id in others:
        deliver_task.delay(delivery_id)
    for start in range(0, len(pushes), PUSH_BATCH):
        deliver_batch_task.delay(pushes[start : start + PUSH_BATCH])
    return len(pushes) + len(others)


@shared_task(name="notifications.deliver", acks_late=True)
def deliver_task(delivery_id: int) -> str:
    status, retry_in = delivery.deliver(delivery_id)
    if retry_in is not None:
        deliver_task.apply_async((delivery_id,), countdown=retry_in)
    return status


@shared_task(name="notifications.deliver_batch", acks_late=True)
def deliver_batch_task(delivery_ids: list[int]) -> int:
    """Send several deliveries in one task (pushes); each failure retries on its own. How
    many were sent."""
    sent = 0
    for delivery_id in delivery_ids:
        status, retry_in = delivery.deliver(int(delivery_id))
        if retry_in is not None:
            deliver_task.apply_async((delivery_id,), countdown=retry_in)
        sent += status == "sent"
    return sent


@shared_task(name="notifications.sweep")
def sweep_task() -> int:
    ids = delivery.sweep()
    for delivery_id in ids:
        deliver_task.delay(delivery_id)
    return len(ids)
