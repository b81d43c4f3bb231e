"""Send Celery tasks through a transactional outbox, so a broker outage delays them, never
loses them and never fails the change that asked for them.

``send_after_commit(task, *args)`` writes an ``OutboxTask`` row in the caller's transaction
(rolled back with it) and relays it once the transaction commits. ``relay()`` sends every
waiting row, oldest first: each row is leased with one conditional UPDATE (two relays never
send the same row), published with the row's own Celery task id, then marked sent. When the
broker is unreachable the row stays waiting, the broker's circuit breaker opens
(config/cache.py) and the next relay tries again: on a later commit, on the next request in
this process once the breaker lets it try (``OutboxRelayMiddleware``), every
``RELAY_EVERY_SECONDS`` from celery beat (``config.relay_outbox``), or by hand
(``manage.py relay_outbox``).

A relay that dies between publishing and marking leaves the row to be sent again after its
lease: at least once. The tasks themselves make that harmless: each claims its work with a
conditional update (notifications.delivery.claim, archive written once, ...), so nothing is
done twice.
"""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import timedelta
from typing import Any

import kombu.exceptions
import redis
from celery import current_app
from django.db import transaction
from django.db.models import F, Q
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from config.cache import BROKER_BREAKER
from config.models import OutboxTask

logger = logging.getLogger(__name__)

LEASE = timedelta(minutes=5)
BATCH = 200
# A request relays at most this many after its response: the rest on the following requests.
REQUEST_BATCH = 50
KEEP_SENT = timedelta(days=7)
RELAY_EVERY_SECONDS = 30.0
BROKER_DOWN_ERRORS: tuple[type[BaseException], ...] = (
    kombu.exceptions.OperationalError,
    redis.ConnectionError,
    redis.TimeoutError,
    OSError,
)


class _Backlog:
    """Whether this process left rows waiting (the broker was down): the next request relays."""

    def __init__(self) -> None:
        self.waiting = False
        self.lock = threading.Lock()


BACKLOG = _Backlog()


def send_after_commit(task: Any, *args: Any, **kwargs: Any) -> OutboxTask:
    """Queue ``task(*args, **kwargs)`` in the caller's transaction; send it after commit.

    ``task`` is a Celery task or its registered name (an app that must not import the task's
    own app sends it by name)."""
    task_name = task if isinstance(task, str) else task.name
    row: OutboxTask = OutboxTask.objects.create(
        task_name=task_name, args=list(args), kwargs=kwargs, task_id=uuid.uuid4().hex
    )
    transaction.on_commit(relay, robust=True)
    return row


def _available(now: Any) -> Q:
    return Q(sent_at__isnull=True) & (Q(leased_until__isnull=True) | Q(leased_until__lt=now))


def _in_process() -> bool:
    """No broker: Celery runs tasks in this process (development, tests)."""
    return bool(current_app.conf.task_always_eager)


def _publish(row: OutboxTask) -> None:
    task = current_app.tasks[row.task_name]
    task.apply_async(args=row.args, kwargs=row.kwargs, task_id=row.task_id)


def relay(limit: int = BATCH) -> int:
    """Send waiting tasks (at most ``limit``); the number sent. Never raises."""
    if not BROKER_BREAKER.allows():
        BACKLOG.waiting = True
        return 0
    eager = _in_process()
    sent = 0
    try:
        now = timezone.now()
        waiting = list(
            OutboxTask.objects.filter(_available(now)).values_list("id", flat=True)[:limit]
        )
        for pk in waiting:
            now = timezone.now()
            leased = OutboxTask.objects.filter(_available(now), pk=pk).update(
                leased_until=now + LEASE, attempts=F("attempts") + 1
            )
            if not leased:
                continue  # another relay has it
            row = OutboxTask.objects.get(pk=pk)
            try:
                _publish(row)
            except Exception as exc:
                error = f"{type(exc).__name__}: {exc}"[:2000]
                if eager:
                    # Run in-process (no broker): the task itself failed, as on a worker.
                    logger.exception("outbox: task %s failed in-process", row.task_name)
                    OutboxTask.objects.filter(pk=pk).update(last_error=error)
                elif isinstance(exc, BROKER_DOWN_ERRORS):
                    BROKER_BREAKER.failed(exc)
                    OutboxTask.objects.filter(pk=pk).update(leased_until=None, last_error=error)
                    BACKLOG.waiting = True
                    return sent
                else:  # e.g. a task this code no longer has: kept, tried again after the lease
                    logger.exception("outbox: could not send %s", row.task_name)
                    OutboxTask.objects.filter(pk=pk).update(last_error=error)
                    continue
            OutboxTask.objects.filter(pk=pk).update(sent_at=timezone.now(), leased_until=None)
            sent += 1
        BROKER_BREAKER.succeeded()
        BACKLOG.waiting = len(waiting) >= limit
    except Exception:
        logger.exception("outbox: relay failed; the rows wait for the next relay")
        BACKLOG.waiting = True
    return sent


def relay_all() -> int:
    """Relay until nothing is waiting or the broker fails (beat's task, the command)."""
    total = 0
    while True:
        sent = relay()
        total += sent
        if sent < BATCH:
            return total


def forget_sent(now: Any = None) -> int:
    """Delete rows sent more than KEEP_SENT ago."""
    now = now or timezone.now()
    deleted, _ = OutboxTask.objects.filter(sent_at__lt=now - KEEP_SENT).delete()
    return int(deleted)


def waiting_count() -> int:
    return int(OutboxTask.objects.filter(sent_at__isnull=True).count())


class OutboxRelayMiddleware:
    """After a response, relay what this process left waiting when the broker was down, as
    soon as the broker's circuit breaker lets it try again."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        if BACKLOG.waiting and BACKLOG.lock.acquire(blocking=False):
            try:
                relay(limit=REQUEST_BATCH)
            finally:
                BACKLOG.lock.release()
        return response
