"""A stand-in for a browser's push subscription (tests/notifications/test_push.py and
tests/test_browser_push.py): the keys pushManager.subscribe() makes, and the decryption a
browser does when a push arrives."""

from __future__ import annotations

import base64
import json
import os
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Browser:
    """What a browser's pushManager.subscribe() makes: a P-256 key pair and an auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh = b64url(public)

    def subscription_json(self) -> dict[str, Any]:
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth_secret)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth_secret, version="aes128gcm"
        )
        return dict(json.loads(plain))
