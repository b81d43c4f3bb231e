"""An event's notification settings and the delivery log.

``NotificationSettings`` is one row per event (absent: the defaults, e-mail on for every kind,
no webhook). ``Delivery`` is one message on one channel to one recipient; its ``key`` (event,
kind, object, version, recipient) is unique, so the same thing is never queued twice, and the
sending task claims the row with a conditional update, so it is never sent twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament

MAX_WEBHOOK_URL = 500


class Kind(models.TextChoices):
    """What happened, one per message an event can turn on or off, in the order the settings
    page and the API list them. The apps that tell them build the messages (matches.notices;
    the drop's in notifications.services). A new kind is one line here: the settings (on by
    e-mail and push by default; add it to DEFAULT_WEBHOOK_KINDS to post it too), the page, the API and
    the log read this list, and the delivery log's choices are read when used, so it needs no
    migration."""

    PAIRINGS_PUBLISHED = "pairings_published", _("Pairings published")
    RESULT_TO_CONFIRM = "result_to_confirm", _("A result to confirm")
    DISPUTE_RULED = "dispute_ruled", _("A dispute ruled")
    PLAYER_DROPPED = "player_dropped", _("A player dropped or disqualified")
    ROUND_ENDING = "round_ending", _("5 minutes left in the round")
    PLAYER_SUSPENDED = "player_suspended", _("A registration cancelled by a suspension")


class Channel(models.TextChoices):
    EMAIL = "email", _("E-mail")
    WEBHOOK = "webhook", _("Webhook")
    PUSH = "push", _("Push to a phone")


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class SentVia(models.TextChoices):
    """Where a sent message went: only ``smtp``, ``webhook`` and ``push`` reached anybody."""

    SMTP = "smtp", _("E-mailed through the mail server")
    CONSOLE = "console", _("Printed to the server console (no mail server configured)")
    FILE = "file", _("Written to a file on the server (no mail server configured)")
    MEMORY = "memory", _("Kept in the server's memory (no mail server configured)")
    DISCARDED = "discarded", _("Discarded (no mail server configured)")
    OTHER_EMAIL = "email", _("Handed to the site's e-mail backend")
    WEBHOOK = "webhook", _("Posted to the webhook")
    PUSH = "push", _("Handed to the player's push service")


# Django's e-mail backends that send nothing to anybody, by module.
_EMAIL_BACKENDS = {
    "django.core.mail.backends.smtp": SentVia.SMTP,
    "django.core.mail.backends.console": SentVia.CONSOLE,
    "django.core.mail.backends.filebased": SentVia.FILE,
    "django.core.mail.backends.locmem": SentVia.MEMORY,
    "django.core.mail.backends.dummy": SentVia.DISCARDED,
}


def email_sent_via(backend_path: str) -> SentVia:
    """Where the e-mail backend ``backend_path`` (EMAIL_BACKEND) puts a message."""
    module = backend_path.rsplit(".", 1)[0]
    return _EMAIL_BACKENDS.get(module, SentVia.OTHER_EMAIL)


def kind_choices() -> list[tuple[str, str]]:
    """Delivery.kind's choices: a callable, so that the migrations name it rather than copy the
    list, and a new kind needs no migration."""
    return list(Kind.choices)


# "5 minutes left" is news for a phone's lock screen, not for an inbox.
DEFAULT_EMAIL_KINDS = [k.value for k in Kind if k != Kind.ROUND_ENDING]
DEFAULT_WEBHOOK_KINDS = [Kind.PAIRINGS_PUBLISHED.value]
DEFAULT_PUSH_KINDS = [k.value for k in Kind]


def default_email_kinds() -> list[str]:
    return list(DEFAULT_EMAIL_KINDS)


def default_webhook_kinds() -> list[str]:
    return list(DEFAULT_WEBHOOK_KINDS)


def default_push_kinds() -> list[str]:
    return list(DEFAULT_PUSH_KINDS)


class NotificationSettings(models.Model):
    """Which kinds go out by e-mail, to the webhook and by push, for one event."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="notification_settings"
    )
    webhook_url = models.URLField(
        _("webhook URL"),
        max_length=MAX_WEBHOOK_URL,
        blank=True,
        help_text=_("An https address, such as a Discord channel's webhook URL. Empty: none."),
    )
    email_kinds = models.JSONField(_("e-mail players about"), default=default_email_kinds)
    webhook_kinds = models.JSONField(_("post to the webhook about"), default=default_webhook_kinds)
    # Web Push to the phones of the players concerned who asked for it (PushSubscription).
    push_kinds = models.JSONField(_("push to players' phones about"), default=default_push_kinds)
    # Standard Webhooks signing secrets, oldest first: [{"secret": "whsec_...", "created_at":
    # iso, "retires_at": iso or null}]. The last is the current one; a rotated-out one keeps
    # signing beside it until it retires (notifications.services.webhook_secret_rotate).
    webhook_secrets = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name_plural = "notification settings"

    def __str__(self) -> str:
        return f"notifications of {self.tournament}"

    def secrets_in_use(self, now: datetime) -> list[str]:
        """The secrets that sign a post made at ``now``, newest first."""
        return [
            entry["secret"]
            for entry in reversed(self.webhook_secrets or [])
            if entry.get("retires_at") is None or datetime.fromisoformat(entry["retires_at"]) > now
        ]

    def sends(self, channel: str, kind: str) -> bool:
        if channel == Channel.WEBHOOK:
            return bool(self.webhook_url) and kind in (self.webhook_kinds or [])
        if channel == Channel.PUSH:
            return kind in (self.push_kinds or [])
        return kind in (self.email_kinds or [])


class Delivery(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="notification_deliveries"
    )
    kind = models.CharField(max_length=30, choices=kind_choices)
    channel = models.CharField(max_length=10, choices=Channel.choices)
    # The idempotency key: event, kind, object and its version, recipient.
    key = models.CharField(max_length=200, unique=True)
    # What happened (kind, object, version): every delivery of one occurrence shares it, and
    # the task that fans them out finds them by it.
    source = models.CharField(max_length=120)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="notification_deliveries",
    )
    subject = models.CharField(max_length=200)
    body = models.TextField(validators=[MaxLengthValidator(10_000)])
    # Structured fields a generic webhook receives beside the text.
    payload = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    # When a failed delivery is tried again; null when it will not be.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Where it went when sent: a message "sent" to the console reached nobody.
    sent_via = models.CharField(max_length=10, choices=SentVia.choices, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "deliveries"
        indexes = [
            models.Index(fields=["tournament", "source"]),
            models.Index(fields=["tournament", "-created_at"]),
            models.Index(
                fields=["status", "next_attempt_at"],
                condition=Q(status__in=["pending", "failed", "sending"]),
                name="delivery_unfinished",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=DeliveryStatus.values), name="delivery_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.channel} {self.key}"


# Bounds of what a browser's PushSubscription.toJSON() gives (RFC 8291: p256dh is a 65-byte
# uncompressed P-256 point, 87 characters of unpadded base64url; auth is 16 bytes, 22).
MAX_PUSH_ENDPOINT = 1000
MAX_PUSH_KEY = 200
MAX_USER_AGENT = 300


class PushSubscription(models.Model):
    """One browser (a phone, a desktop) that asked to be told by Web Push (RFC 8030): where
    its push service takes messages (``endpoint``) and the keys that encrypt them for it
    (RFC 8291). Removed when the player unsubscribes or the push service answers 404 or 410."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=MAX_PUSH_ENDPOINT, unique=True)
    p256dh = models.CharField(max_length=MAX_PUSH_KEY)
    auth = models.CharField(max_length=MAX_PUSH_KEY)
    user_agent = models.CharField(max_length=MAX_USER_AGENT, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"push to {self.user_id} via {self.endpoint[:40]}"

    def info(self) -> dict[str, Any]:
        """The subscription as pywebpush takes it (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
