"""The transactional outbox: Celery tasks to send, kept in the database (config/outbox.py)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class OutboxTask(models.Model):
    """One Celery task, written in the same transaction as the change that needs it and sent
    to the broker after the commit (or later, when the broker was down)."""

    task_name = models.CharField(max_length=200)
    args = models.JSONField(default=list, blank=True)
    kwargs = models.JSONField(default=dict, blank=True)
    # The Celery task id the message is sent with: one outbox row is one message.
    task_id = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # A relay is sending it until then (a relay that died leaves it to the next after this).
    leased_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["id"], condition=Q(sent_at__isnull=True), name="outbox_unsent"),
            models.Index(fields=["sent_at"], name="outbox_sent_at"),
        ]

    def __str__(self) -> str:
        state = "sent" if self.sent_at else "waiting"
        return f"{self.task_name} {self.task_id} ({state})"
