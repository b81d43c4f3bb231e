"""A Play's name as the library and the records match it: normalised (case, surrounding
spaces, curly quotes) and a variant's base name (CR 2.1.2: ``"Loan Sharked - htd"`` is a
variant of ``"Loan Sharked"``). :mod:`engine.boba.play_library` re-exports both; the step
kinds that name a play use them without loading the library.
"""

from __future__ import annotations

import re

_VARIANT_SUFFIX = re.compile(r"\s*-?\s*htd\s*$", re.IGNORECASE)


def normalise_name(name: str) -> str:
    """Case- and punctuation-insensitive key for a play name."""
    name = name.replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(name.lower().split())


def base_name(name: str) -> str:
    """The base Play's name for a variant name ("Loan Sharked - htd" -> "Loan Sharked")."""
    return _VARIANT_SUFFIX.sub("", name).strip()
