"""Celery tasks for notifications: each takes ids and calls a service; each is idempotent.

``dispatch`` runs after the commit that queued an occurrence and fans out one ``deliver`` per
message; ``deliver`` sends one (a second copy finds it claimed and does nothing) and, after a
failure, schedules its own retry with backoff; ``sweep`` (celery beat) re-sends what a lost
task or a due retry left behind.
"""

from celery import shared_task

from notifications import delivery


@shared_task(name="notifications.dispatch", acks_late=True)
def dispatch_task(tournament_id: int, source: str) -> int:
    ids = delivery.pending_of(tournament_id, source)
    for delivery_id in ids:
        deliver_task.delay(delivery_id)
    return len(ids)


@shared_task(name="notifications.deliver", acks_late=True)
def deliver_task(delivery_id: int) -> str:
    status, retry_in = delivery.deliver(delivery_id)
    if retry_in is not None:
        deliver_task.apply_async((delivery_id,), countdown=retry_in)
    return status


@shared_task(name="notifications.sweep")
def sweep_task() -> int:
    ids = delivery.sweep()
    for delivery_id in ids:
        deliver_task.delay(delivery_id)
    return len(ids)
