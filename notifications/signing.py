"""Webhook signatures by the Standard Webhooks specification (https://www.standardwebhooks.com).

Pure: no Django. Each post carries three headers:

- ``webhook-id``: the message's id, the same on every retry (receivers drop duplicates by it);
- ``webhook-timestamp``: seconds since the epoch when this attempt was signed (receivers refuse
  old ones: replays);
- ``webhook-signature``: ``v1,<base64 HMAC-SHA256>`` of ``"{id}.{timestamp}.{body}"`` under the
  secret, one per secret still valid, space-separated: while a rotated-out secret overlaps the
  new one, both sign, so receivers switch secrets without missing a message.

A secret is ``whsec_`` followed by the base64 of its key bytes (24 random bytes here), as the
specification's libraries expect it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Final

SECRET_PREFIX: Final = "whsec_"
KEY_BYTES: Final = 24


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode()


def key_of(secret: str) -> bytes:
    if not secret.startswith(SECRET_PREFIX):
        raise ValueError("a webhook secret starts with whsec_")
    return base64.b64decode(secret[len(SECRET_PREFIX) :])


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(key_of(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signed_headers(
    secrets_in_use: Sequence[str], message_id: str, timestamp: int, body: bytes
) -> dict[str, str]:
    """The three headers for ``body``, signed with every secret in use (newest first)."""
    if not secrets_in_use:
        return {}
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(
            signature(secret, message_id, timestamp, body) for secret in secrets_in_use
        ),
    }
