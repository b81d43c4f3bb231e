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

import functools
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


@functools.cache
def safe_text_pattern() -> str:
    """A regular expression (Python's and JSON Schema's) that matches text with no unsafe
    character of the basic plane: a negated class of every unsafe code point's range, for the
    API schema. Lone surrogates (Cs) are left out (no UTF-8 text holds one, only a JSON escape
    can, and validators refuse a surrogate range in a pattern), and so are the few unsafe
    characters above the basic plane (format controls such as the tag characters): no escape
    for them reads the same in Python and in JSON Schema's regular expressions. The
    validators refuse both all the same."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x10000):
        if unicodedata.category(chr(code)) in UNSAFE_CATEGORIES - {"Cs"}:
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    parts = [f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges]
    return f"^[^{''.join(parts)}]*$"
