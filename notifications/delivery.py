"""Sending notifications: the half of the app the Celery tasks run (notifications/tasks.py).

``deliver`` claims a delivery with one conditional UPDATE (pending or failed -> sending), so of
two copies of the task only one sends; sends; and marks it sent, or failed with the error and
the time of the next attempt (exponential backoff, at most ``MAX_ATTEMPTS``). A delivery left
"sending" by a worker that died is never sent again (``sweep`` marks it failed): at most once,
never twice.

Push (notifications/push.py): one delivery per player, sent to each phone or browser the
player subscribed; a subscription the push service no longer knows (404, 410) is removed.

Webhooks: https only, the host must resolve to public addresses (``check_webhook_url`` when an
organiser sets one, again before each post), a short timeout, redirects are never followed. A
Discord webhook URL gets Discord's JSON (``content``, mentions off); any other URL gets the
same ``content`` with structured fields beside it.
"""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import URLValidator
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.names import unsafe_characters
from config.errors import ServiceError
from notifications import push, signing
from notifications.models import (
    MAX_WEBHOOK_URL,
    Channel,
    Delivery,
    DeliveryStatus,
    NotificationSettings,
    SentVia,
    email_sent_via,
)
from notifications.transport import DeliveryError, is_private_ip, plain_host

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5

BACKOFF_SECONDS = 30  # then 60, 120, 240
MAX_BACKOFF_SECONDS = 30 * 60
WEBHOOK_TIMEOUT_SECONDS = 5.0
# A delivery still "sending" after this long was cut off (the worker died mid-send).
STALE_SENDING = timedelta(minutes=15)
# A pending delivery older than this lost its task (the broker was down at commit).
LOST_PENDING = timedelta(minutes=2)
DISCORD_HOSTS = frozenset(
    {"discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com"}
)
DISCORD_MAX_CONTENT = 2000
USER_AGENT = "Battledesk-notifications/1 (+https://github.com/battledesk)"
# HTTP answers that will not change by trying again.
PERMANENT_HTTP = frozenset({400, 401, 403, 404, 405, 410, 413, 422})


def check_webhook_url(value: Any) -> str:
    """An https URL of at most MAX_WEBHOOK_URL characters on a public host, or ""."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ServiceError(_("webhook_url: a URL or empty."), field="webhook_url")
    url = value.strip()
    if not url:
        return ""
    if len(url) > MAX_WEBHOOK_URL:
        raise ServiceError(
            _("webhook_url: at most %(n)d characters.") % {"n": MAX_WEBHOOK_URL},
            field="webhook_url",
        )
    if unsafe_characters(url) or any(c.isspace() for c in url):
        raise ServiceError(
            _("webhook_url: remove the spaces, control or invisible characters."),
            field="webhook_url",
        )
    try:
        URLValidator(schemes=["https"])(url)
    except ValidationError:
        raise ServiceError(
            _("webhook_url: an https:// address, such as a Discord channel's webhook URL."),
            field="webhook_url",
        ) from None
    parts = urlsplit(url)
    if "@" in parts.netloc:
        raise ServiceError(
            _("webhook_url: no user name or password in the address (nothing before an @)."),
            field="webhook_url",
        )
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port not in (None, 443):
        raise ServiceError(
            _("webhook_url: https on its standard port (443) only."), field="webhook_url"
        )
    host = (parts.hostname or "").lower()
    if not plain_host(host):
        raise ServiceError(
            _("webhook_url: the host name may hold only letters, digits, dots and hyphens."),
            field="webhook_url",
        )
    if host == "localhost" or host.endswith(".localhost") or is_private_ip(host):
        raise ServiceError(
            _("webhook_url: the address must be on the public internet."), field="webhook_url"
        )
    return url


def backoff(attempt: int) -> int:
    """Seconds before attempt ``attempt + 1``: 30, 60, 120, 240 ... at most 30 minutes."""
    return int(min(BACKOFF_SECONDS * 2 ** max(attempt - 1, 0), MAX_BACKOFF_SECONDS))


def pending_split(tournament_id: int, source: str) -> tuple[list[int], list[int]]:
    """The deliveries of one occurrence still to send: push ones (sent in batches) and the
    others (one task each)."""
    pushes: list[int] = []
    others: list[int] = []
    rows = (
        Delivery.objects.filter(
            tournament_id=tournament_id, source=source, status=DeliveryStatus.PENDING
        )
        .order_by("id")
        .values_list("id", "channel")
    )
    for delivery_id, channel in rows:
        (pushes if channel == Channel.PUSH else others).append(delivery_id)
    return pushes, others


def claim(delivery_id: int, now: datetime | None = None) -> bool:
    """Take the delivery for sending: one conditional UPDATE, so of two tasks (a retry and a
    duplicate, or two workers) exactly one gets it."""
    now = now or timezone.now()
    claimed = Delivery.objects.filter(
        pk=delivery_id,
        status__in=[DeliveryStatus.PENDING, DeliveryStatus.FAILED],
        attempts__lt=MAX_ATTEMPTS,
    ).update(
        status=DeliveryStatus.SENDING,
        attempts=F("attempts") + 1,
        last_attempt_at=now,
        next_attempt_at=None,
    )
    return claimed == 1


def deliver(delivery_id: int) -> tuple[str, int | None]:
    """Send one delivery if it is still to be sent. Returns its status and, after a failure
    that will be tried again, the seconds to wait."""
    if not claim(delivery_id):
        status = Delivery.objects.filter(pk=delivery_id).values_list("status", flat=True).first()
        return (status or "missing"), None
    delivery = Delivery.objects.select_related("tournament", "recipient").get(pk=delivery_id)
    mine = Delivery.objects.filter(pk=delivery_id, status=DeliveryStatus.SENDING)
    try:
        _send(delivery)
    except Exception as exc:
        failure = (
            exc if isinstance(exc, DeliveryError) else DeliveryError(f"{type(exc).__name__}: {exc}")
        )
        again = not failure.permanent and delivery.attempts < MAX_ATTEMPTS
        wait = max(backoff(delivery.attempts), int(failure.retry_after or 0)) if again else None
        now = timezone.now()
        mine.update(
            status=DeliveryStatus.FAILED,
            error=failure.message[:2000],
            next_attempt_at=now + timedelta(seconds=wait) if wait is not None else None,
        )
        logger.warning(
            "notifications: delivery %s failed (attempt %s): %s",
            delivery_id,
            delivery.attempts,
            failure.message,
        )
        return DeliveryStatus.FAILED, wait
    mine.update(
        status=DeliveryStatus.SENT, sent_at=timezone.now(), error="", sent_via=_sent_via(delivery)
    )
    return DeliveryStatus.SENT, None


def _sent_via(delivery: Delivery) -> str:
    if delivery.channel == Channel.WEBHOOK:
        return SentVia.WEBHOOK
    if delivery.channel == Channel.PUSH:
        return SentVia.PUSH
    return email_sent_via(settings.EMAIL_BACKEND)


def sweep(now: datetime | None = None, limit: int = 1000) -> list[int]:
    """Celery beat: deliveries whose task was lost or whose retry is due (to send again), after
    marking those cut off mid-send as failed (not sent again: they may have gone out)."""
    now = now or timezone.now()
    Delivery.objects.filter(
        status=DeliveryStatus.SENDING, last_attempt_at__lt=now - STALE_SENDING
    ).update(
        status=DeliveryStatus.FAILED,
        error=_("Cut off while sending; not sent again in case it went out."),
        next_attempt_at=None,
    )
    lost = Delivery.objects.filter(status=DeliveryStatus.PENDING, created_at__lt=now - LOST_PENDING)
    due = Delivery.objects.filter(
        status=DeliveryStatus.FAILED, next_attempt_at__lte=now, attempts__lt=MAX_ATTEMPTS
    )
    ids = list(lost.values_list("id", flat=True)[:limit])
    ids += list(due.values_list("id", flat=True)[: max(limit - len(ids), 0)])
    return ids


def _send(delivery: Delivery) -> None:
    if delivery.channel == Channel.PUSH:
        push.send_to_player(delivery)
        return
    if delivery.channel == Channel.EMAIL:
        user = delivery.recipient
        if user is None or not user.email:
            raise DeliveryError(_("The player has no e-mail address."), permanent=True)
        EmailMessage(
            subject=delivery.subject,
            body=delivery.body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[user.email],
        ).send()
        return
    prefs = NotificationSettings.objects.filter(tournament_id=delivery.tournament_id).first()
    if prefs is None or not prefs.webhook_url:
        raise DeliveryError(_("The event has no webhook any more."), permanent=True)
    post_webhook(
        prefs.webhook_url,
        webhook_payload(delivery, prefs.webhook_url),
        message_id=f"msg_{delivery.pk}",
        secrets_in_use=prefs.secrets_in_use(timezone.now()),
    )


def is_discord(url: str) -> bool:
    parts = urlsplit(url)
    return (parts.hostname or "").lower() in DISCORD_HOSTS and parts.path.startswith(
        "/api/webhooks/"
    )


def webhook_payload(delivery: Delivery, url: str) -> dict[str, Any]:
    """Discord's JSON for a Discord webhook (mentions off: a player's name is never a ping);
    for any other webhook the same ``content`` with the structured fields beside it."""
    if is_discord(url):
        content = delivery.body
        if len(content) > DISCORD_MAX_CONTENT:
            content = content[: DISCORD_MAX_CONTENT - 1] + "…"
        return {"content": content, "allowed_mentions": {"parse": []}}
    tournament = delivery.tournament
    return {
        "content": delivery.body,
        "kind": delivery.kind,
        "event": {"slug": tournament.slug, "name": tournament.name},
        "idempotency_key": delivery.key,
        "created_at": delivery.created_at.isoformat(),
        "data": delivery.payload,
    }


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook that answers with a redirect is refused, never followed elsewhere."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _resolve(host: str) -> list[str]:
    return [str(info[4][0]) for info in socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)]


def _open(request: urllib.request.Request, timeout: float) -> int:
    opener = urllib.request.build_opener(_NoRedirects)
    with opener.open(request, timeout=timeout) as response:
        return int(response.status)


def post_webhook(
    url: str,
    data: dict[str, Any],
    *,
    timeout: float | None = None,
    message_id: str = "",
    secrets_in_use: Sequence[str] = (),
) -> int:
    """POST ``data`` as JSON, signed by the Standard Webhooks specification with each secret
    in use (notifications.signing; unsigned without one); the HTTP status on success, else a
    DeliveryError."""
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        raise DeliveryError(_("The webhook must be an https address."), permanent=True)
    if not getattr(settings, "NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS", False):
        try:
            addresses = _resolve(parts.hostname)
        except OSError as exc:
            raise DeliveryError(f"DNS: {exc}") from None
        if not addresses or any(is_private_ip(a) for a in addresses):
            raise DeliveryError(
                _("The webhook's host is not on the public internet."), permanent=True
            )
    body = json.dumps(data).encode()
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    if secrets_in_use:
        headers.update(
            signing.signed_headers(
                secrets_in_use, message_id or f"msg_{uuid.uuid4().hex}", int(time.time()), body
            )
        )
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        return _open(request, timeout or WEBHOOK_TIMEOUT_SECONDS)
    except urllib.error.HTTPError as exc:
        if 300 <= exc.code < 400:
            raise DeliveryError(
                _("The webhook answered with a redirect (HTTP %(code)d); not followed.")
                % {"code": exc.code},
                permanent=True,
            ) from None
        try:
            detail = exc.read(300).decode("utf-8", "replace")
        except Exception:
            detail = ""
        retry_after: float | None = None
        try:
            retry_after = float(exc.headers.get("Retry-After", "")) if exc.headers else None
        except ValueError:
            retry_after = None
        raise DeliveryError(
            f"HTTP {exc.code}: {detail}".strip(),
            permanent=exc.code in PERMANENT_HTTP,
            retry_after=retry_after,
        ) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DeliveryError(f"{type(exc).__name__}: {reason}") from None
