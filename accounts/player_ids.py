"""Player ids: short codes a person can read out at a venue ("K7M-2QX").

No 0/O, 1/I/L or 5/S, so a judge hearing or reading one across a noisy hall gets it right.
"""

from __future__ import annotations

import secrets

ALPHABET = "ABCDEFGHJKMNPQRTUVWXYZ2346789"
LENGTH = 6


def new_player_id() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return f"{raw[:3]}-{raw[3:]}"


def normalise_player_id(text: str) -> str:
    """Accept what people type: lower case, spaces, no dash, and the confusable letters."""
    cleaned = "".join(ch for ch in text.upper() if ch.isalnum())
    cleaned = cleaned.translate(str.maketrans({"0": "Q", "O": "Q", "1": "I", "L": "I", "5": "S"}))
    return f"{cleaned[:3]}-{cleaned[3:]}" if len(cleaned) == LENGTH else cleaned
