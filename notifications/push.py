"""Web Push: the site's VAPID keys, a browser's subscription checked, one message sent.

RFC 8030 (the push service), RFC 8291 (the message encrypted for the browser, aes128gcm) and
RFC 8292 (VAPID: the site signs each request with its key pair) are pywebpush's work; nothing
here is hand-written crypto. The keys come from the environment (settings.VAPID_PUBLIC_KEY,
VAPID_PRIVATE_KEY, VAPID_SUBJECT): without both keys push is off, ``vapid()`` raises
``PushOff`` (a 503 naming push on the API, a sentence on the page) and nothing is queued.

A subscription's endpoint is an address the server will POST to, given by a browser: it must
be https on the standard port, on a public host, as a webhook's (checked when the player
subscribes and again before each send, after DNS).
"""

from __future__ import annotations

import base64
import binascii
import json
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ServiceError
from notifications.models import MAX_PUSH_ENDPOINT, MAX_PUSH_KEY, Delivery, PushSubscription
from notifications.transport import DeliveryError, is_private_ip, plain_host

PUSH_TIMEOUT_SECONDS = 5.0
# How long a push service keeps a message for a phone that is off: a pairing is stale after
# a round, so an hour at most.
PUSH_TTL_SECONDS = 60 * 60
# RFC 8291's key sizes: an uncompressed P-256 point and a 16-byte authentication secret.
P256DH_BYTES = 65
AUTH_BYTES = 16
# What the push services accept as a message (4 KiB after encryption): kept well below.
MAX_PAYLOAD_BYTES = 3000
# Answers meaning the subscription is gone for good (RFC 8030 section 7.3): it is removed.
GONE = frozenset({404, 410})


class PushOff(ServiceError):
    """Push is switched off on this site (no VAPID key pair configured)."""

    status_code = 503

    def __init__(self) -> None:
        super().__init__(
            _(
                "push: notifications to phones are switched off on this site (the server has "
                "no VAPID key pair; the site's administrator sets VAPID_PUBLIC_KEY and "
                "VAPID_PRIVATE_KEY)."
            ),
            field="push",
            code="push_off",
        )


@dataclass(frozen=True)
class Vapid:
    public_key: str
    private_key: str
    subject: str


def vapid() -> Vapid:
    """The site's VAPID keys, or PushOff when either is missing."""
    public = str(getattr(settings, "VAPID_PUBLIC_KEY", "") or "").strip()
    private = str(getattr(settings, "VAPID_PRIVATE_KEY", "") or "").strip()
    subject = str(getattr(settings, "VAPID_SUBJECT", "") or "").strip()
    if not public or not private:
        raise PushOff()
    return Vapid(public, private, subject or "mailto:battledesk@localhost")


def enabled() -> bool:
    try:
        vapid()
    except PushOff:
        return False
    return True


def _b64url(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def _check_key(value: Any, name: str, size: int) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_PUSH_KEY:
        raise ServiceError(
            _("%(f)s: the browser's key, base64url.") % {"f": name}, field=name, code="invalid"
        )
    try:
        raw = _b64url(value.strip())
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size or (size == P256DH_BYTES and raw[0] != 4):
        raise ServiceError(
            _("%(f)s: not a key of %(n)d bytes in base64url.") % {"f": name, "n": size},
            field=name,
            code="invalid",
        )
    return value.strip()


def _local_allowed(host: str, scheme: str) -> bool:
    return bool(getattr(settings, "PUSH_ALLOW_LOCAL_ENDPOINTS", False)) and (
        host in ("127.0.0.1", "localhost", "::1") and scheme in ("http", "https")
    )


def check_endpoint(value: Any) -> str:
    """A browser's push endpoint: https on port 443, on a public host, bounded."""
    if not isinstance(value, str) or not value.strip():
        raise ServiceError(_("endpoint: the push service's address."), field="endpoint")
    url = value.strip()
    if len(url) > MAX_PUSH_ENDPOINT or any(c.isspace() or ord(c) < 32 for c in url):
        raise ServiceError(
            _("endpoint: at most %(n)d characters, no spaces.") % {"n": MAX_PUSH_ENDPOINT},
            field="endpoint",
        )
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if _local_allowed(host, parts.scheme):
        return url
    try:
        port = parts.port
    except ValueError:
        port = -1
    if (
        parts.scheme != "https"
        or not host
        or "@" in parts.netloc
        or port not in (None, 443)
        or not plain_host(host)
        or host == "localhost"
        or host.endswith(".localhost")
        or is_private_ip(host)
    ):
        raise ServiceError(
            _("endpoint: an https address of a push service on the public internet."),
            field="endpoint",
        )
    return url


def check_keys(p256dh: Any, auth: Any) -> tuple[str, str]:
    return _check_key(p256dh, "p256dh", P256DH_BYTES), _check_key(auth, "auth", AUTH_BYTES)


def _check_public_host(url: str) -> None:
    """Before each send: the endpoint's host still resolves to public addresses only."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if _local_allowed(host.lower(), parts.scheme):
        return
    try:
        addresses = [str(i[4][0]) for i in socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)]
    except OSError as exc:
        raise DeliveryError(f"DNS: {exc}") from None
    if not addresses or any(is_private_ip(a) for a in addresses):
        raise DeliveryError(_("The push service is not on the public internet."), permanent=True)


class Gone(DeliveryError):
    """The push service no longer knows the subscription (404 or 410): remove it."""


def payload(*, title: str, body: str, url: str, tag: str) -> str:
    """The JSON the service worker shows (static/js/sw.js, its push event), bounded."""
    data = {"title": title[:120], "body": body[:400], "url": url[:500], "tag": tag[:64]}
    text = json.dumps(data, ensure_ascii=False)
    if len(text.encode()) > MAX_PAYLOAD_BYTES:
        data["body"] = data["body"][:100]
        text = json.dumps(data, ensure_ascii=False)
    return text


def send(
    subscription: dict[str, Any],
    data: str,
    *,
    keys: Vapid,
    session: requests.Session | None = None,
    timeout: float = PUSH_TIMEOUT_SECONDS,
) -> int:
    """Encrypt ``data`` for the subscription and hand it to its push service, signed with the
    site's VAPID key; the HTTP status on success, else a DeliveryError (``Gone`` for 404/410)."""
    # Imported here, not at the top: pywebpush brings aiohttp (0.1 s), which every process
    # would otherwise load at start (each web and Celery worker, each manage.py command).
    from py_vapid import VapidException
    from pywebpush import WebPushException, webpush

    _check_public_host(str(subscription["endpoint"]))
    try:
        response = webpush(
            subscription_info=subscription,
            data=data,
            vapid_private_key=keys.private_key,
            # A fresh dict each time: pywebpush writes aud and exp into it.
            vapid_claims={"sub": keys.subject},
            content_encoding="aes128gcm",
            timeout=timeout,
            ttl=PUSH_TTL_SECONDS,
            headers={"Urgency": "high"},
            requests_session=session,
        )
    except WebPushException as exc:
        code = getattr(exc.response, "status_code", None)
        detail = f"HTTP {code}" if code is not None else str(exc.message)[:300]
        if code in GONE:
            raise Gone(detail, permanent=True) from None
        retry_after: float | None = None
        headers = getattr(exc.response, "headers", None)
        try:
            retry_after = float(headers.get("Retry-After", "")) if headers else None
        except ValueError:
            retry_after = None
        permanent = code is not None and (300 <= code < 400 or code in (400, 401, 403, 413))
        raise DeliveryError(detail, permanent=permanent, retry_after=retry_after) from None
    except VapidException as exc:
        raise DeliveryError(
            _("The site's VAPID settings are refused (VAPID_PRIVATE_KEY, VAPID_SUBJECT): %(e)s")
            % {"e": str(exc)[:200]},
            permanent=True,
        ) from None
    except (requests.RequestException, OSError, ValueError) as exc:
        raise DeliveryError(f"{type(exc).__name__}: {exc}"[:300]) from None
    return int(getattr(response, "status_code", 201))


class _NoRedirects(requests.Session):
    """A push service that answers with a redirect is refused, never followed: the endpoint
    came from a browser, and a redirect could point anywhere (a private address)."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


_session: requests.Session | None = None


def _http() -> requests.Session:
    """One connection pool per worker process: a round's pushes mostly go to a few push
    services (Google's, Mozilla's, Apple's), so their connections are reused."""
    global _session
    if _session is None:
        _session = _NoRedirects()
    return _session


def send_to_player(delivery: Delivery) -> None:
    """One push delivery: to each browser its player subscribed. Sent when one took it;
    subscriptions their push service has forgotten are removed; with none left the delivery
    fails for good."""
    try:
        keys = vapid()
    except PushOff as exc:
        raise DeliveryError(exc.message, permanent=True) from None
    subscriptions = list(PushSubscription.objects.filter(user_id=delivery.recipient_id))
    if not subscriptions:
        raise DeliveryError(_("The player has no phone subscribed any more."), permanent=True)
    extra = delivery.payload or {}
    data = payload(
        title=delivery.subject,
        body=delivery.body,
        url=str(extra.get("url") or ""),
        tag=str(extra.get("tag") or delivery.source),
    )
    sent = gone = 0
    failure: DeliveryError | None = None
    for subscription in subscriptions:
        try:
            send(subscription.info(), data, keys=keys, session=_http())
        except Gone:
            subscription.delete()
            gone += 1
        except DeliveryError as exc:
            failure = failure or exc
        else:
            sent += 1
            PushSubscription.objects.filter(pk=subscription.pk).update(
                last_success_at=timezone.now()
            )
    if sent:
        return
    if failure is not None:
        raise failure
    raise DeliveryError(
        _("The push service no longer knows this player's phone (%(n)d removed).") % {"n": gone},
        permanent=True,
    )
