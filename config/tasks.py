"""Celery tasks of the site as a whole."""

from __future__ import annotations

from celery import shared_task

from config import outbox


@shared_task(name="config.relay_outbox")
def relay_outbox_task() -> int:
    """Celery beat: send what the outbox still holds (the broker was down at commit, or the
    process that wrote it died), and forget rows sent long ago."""
    outbox.forget_sent()
    return outbox.relay_all()
