"""What a name may contain, for every name a person types (display names, walk-ins, events).

Pure Python (no Django): the services, forms and serializers turn a finding into their own
error naming the field. A name is one line of visible text: control characters (Unicode
category Cc: tabs, newlines, escapes), format characters (Cf: the right-to-left override
U+202E and the other bidirectional overrides and isolates, zero-width spaces and joiners, the
byte-order mark), line and paragraph separators and lone surrogates are refused, because they
reorder or hide what staff read on pairings, standings and slips (a name with U+202E shows its
neighbours backwards).

Refused too: private-use (Co) and unassigned (Cn) code points, which show as nothing or a box
on another device, and the fillers that draw nothing (the Hangul fillers U+3164, U+115F,
U+1160, U+FFA0, the blank Braille pattern U+2800), so no name looks blank. A name needs at
least one visible character. The joiners U+200D and U+200C are kept where they join two
emoji or two letters of a script that uses them (a family emoji, Persian, the Indic scripts), and tag
characters where they spell a flag after U+1F3F4; anywhere else they hide text and are refused.
"""

from __future__ import annotations

import functools
import unicodedata

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn"})
# Letters and symbols by category that draw nothing: a name of them looks blank.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
JOINERS = frozenset("\u200c\u200d")
BLACK_FLAG = "\U0001f3f4"
TAGS = range(0xE0020, 0xE0080)
# Marks (Mn, Mc, Me) draw on the character before them; separators (Zs) draw nothing.
INVISIBLE_CATEGORIES = frozenset({"Zs", "Mn", "Mc", "Me"})
REPLACEMENT = "\ufffd"
MAX_LISTED = 3


def is_unsafe(char: str) -> bool:
    return char in BLANK_LOOKING or unicodedata.category(char) in UNSAFE_CATEGORIES


MARKS = frozenset({"Mn", "Mc", "Me"})


def _joins_two_visible(text: str, i: int) -> bool:
    """The joiner at ``i`` sits between two visible characters (an emoji ZWJ sequence); marks
    such as the emoji variation selector U+FE0F belong to the character before them."""
    before = i - 1
    while before >= 0 and unicodedata.category(text[before]) in MARKS:
        before -= 1
    return before >= 0 and i + 1 < len(text) and _joinable(text[before]) and _joinable(text[i + 1])


# Scripts that never need a joiner: one between their letters only makes two names look alike.
UNJOINED_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC", "FULLWIDTH", "DIGIT"})


def _joinable(char: str) -> bool:
    """A visible character a joiner may stand beside: an emoji or a letter of a script that
    uses joiners (Arabic, Persian, the Indic scripts), never ASCII, Latin, Greek or Cyrillic."""
    if char.isascii() or not _visible(char):
        return False
    return unicodedata.name(char, "").split(" ")[0] not in UNJOINED_SCRIPTS


def _in_flag(text: str, i: int) -> bool:
    """The tag character at ``i`` is part of a tag sequence that follows U+1F3F4."""
    j = i
    while j > 0 and ord(text[j - 1]) in TAGS:
        j -= 1
    return j > 0 and text[j - 1] == BLACK_FLAG


def _visible(char: str) -> bool:
    return not is_unsafe(char) and unicodedata.category(char) not in INVISIBLE_CATEGORIES


def _allowed_in_context(text: str, i: int) -> bool:
    char = text[i]
    if char in JOINERS:
        return _joins_two_visible(text, i)
    return ord(char) in TAGS and _in_flag(text, i)


def unsafe_characters(text: str) -> list[str]:
    """The distinct unsafe characters in ``text``, as ``U+202E`` codes, in order of appearance."""
    found: list[str] = []
    for i, char in enumerate(text):
        if is_unsafe(char) and not _allowed_in_context(text, i):
            code = f"U+{ord(char):04X}"
            if code not in found:
                found.append(code)
    return found


def looks_blank(text: str) -> bool:
    """No character of ``text`` draws anything a reader can see (spaces, marks, fillers)."""
    return bool(text) and not any(_visible(char) for char in text)


def describe(codes: list[str]) -> str:
    """A short list of the codes for an error message (``U+202E, U+200B``)."""
    shown = ", ".join(codes[:MAX_LISTED])
    return shown + (", ..." if len(codes) > MAX_LISTED else "")


def display_safe(text: str) -> str:
    """``text`` with every unsafe character shown as U+FFFD (for names stored before they
    were checked): it can no longer reorder or hide what is around it."""
    if not any(is_unsafe(c) for c in text):
        return text
    return "".join(
        REPLACEMENT if is_unsafe(c) and not _allowed_in_context(text, i) else c
        for i, c in enumerate(text)
    )


def _pattern_classes() -> tuple[str, str]:
    """The code points the schema's pattern refuses anywhere (unsafe) and those that cannot be
    a name's one visible character (unsafe or invisible), each as the body of a
    regular-expression character class: the basic plane as ``\\uXXXX`` escapes, the planes
    above it as the characters themselves (an escape for them reads differently in Python's
    and in JSON Schema's regular expressions; the character reads the same). Surrogates are
    left out: no UTF-8 text holds one. One pass over the code points for both classes."""
    unsafe_categories = UNSAFE_CATEGORIES - {"Cs"}
    unsafe: list[list[int]] = []
    invisible: list[list[int]] = []

    def add(ranges: list[list[int]], code: int) -> None:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])

    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        category = unicodedata.category(char)
        if char in BLANK_LOOKING or category in unsafe_categories:
            add(unsafe, code)
            add(invisible, code)
        elif category in INVISIBLE_CATEGORIES:
            add(invisible, code)

    def spell(code: int) -> str:
        return f"\\u{code:04x}" if code < 0x10000 else chr(code)

    def body(ranges: list[list[int]]) -> str:
        return "".join(spell(a) if a == b else f"{spell(a)}-{spell(b)}" for a, b in ranges)

    return body(unsafe), body(invisible)


@functools.cache
def safe_text_pattern() -> str:
    """A regular expression (Python's and JSON Schema's) that matches text with no unsafe
    character and, unless empty, at least one visible character: for the API schema. It is
    stricter than the validators where no such pattern can follow them: joiners and tag
    characters are refused everywhere (the validators keep them between emoji, in scripts that
    need them and in flags). Lone surrogates (Cs) are left out (no UTF-8 text holds one); the
    validators refuse them all the same."""
    unsafe, invisible = _pattern_classes()
    return f"^(?:[^{unsafe}]*[^{invisible}][^{unsafe}]*)?$"


def public_name_of(display_name: str, first_name: str, last_name: str, username: str) -> str:
    """The name a person is shown by (User.public_name) from their columns: the display name,
    else the full name (as AbstractUser.get_full_name writes it), else the username."""
    full_name = f"{first_name} {last_name}".strip()
    return display_safe(display_name or full_name or username)
