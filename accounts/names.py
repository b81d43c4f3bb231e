"""What a name may contain, for every name a person types (display names, walk-ins, events).

Pure Python (no Django): the services, forms and serializers turn a finding into their own
error naming the field. A name is one line of visible text: control characters (Unicode
category Cc: tabs, newlines, escapes), format characters (Cf: the right-to-left override
U+202E and the other bidirectional overrides and isolates, zero-width spaces and joiners, the
byte-order mark), line and paragraph separators and lone surrogates are refused, because they
reorder or hide what staff read on pairings, standings and slips (a name with U+202E shows its
neighbours backwards).
"""

from __future__ import annotations

import unicodedata

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
REPLACEMENT = "\ufffd"
MAX_LISTED = 3


def is_unsafe(char: str) -> bool:
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def unsafe_characters(text: str) -> list[str]:
    """The distinct unsafe characters in ``text``, as ``U+202E`` codes, in order of appearance."""
    found: list[str] = []
    for char in text:
        if is_unsafe(char):
            code = f"U+{ord(char):04X}"
            if code not in found:
                found.append(code)
    return found


def describe(codes: list[str]) -> str:
    """A short list of the codes for an error message (``U+202E, U+200B``)."""
    shown = ", ".join(codes[:MAX_LISTED])
    return shown + (", ..." if len(codes) > MAX_LISTED else "")


def display_safe(text: str) -> str:
    """``text`` with every unsafe character shown as U+FFFD (for names stored before they
    were checked): it can no longer reorder or hide what is around it."""
    if not any(is_unsafe(c) for c in text):
        return text
    return "".join(REPLACEMENT if is_unsafe(c) else c for c in text)
