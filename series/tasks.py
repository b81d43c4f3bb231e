"""Celery tasks of series: each takes ids and calls a service; each is idempotent."""

from __future__ import annotations

from celery import shared_task

from series.services import REFRESH_TASK, refresh


@shared_task(name=REFRESH_TASK, acks_late=True)
def refresh_task(series_id: int) -> bool:
    """Store the series' leaderboard and audit what a change moved (nothing twice)."""
    return refresh(series_id=series_id)
