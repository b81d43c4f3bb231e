"""CSV downloads (penalty log, standings, pairings, results): one helper for all of them.

Pure: no Django. A spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (or a tab or
carriage return before one) as a formula, so such a cell is neutralised with a leading single
quote (OWASP's advice for CSV injection). Every such cell, numbers too: a negative number
reads `'-3` (a spreadsheet shows it as text), which is the price of never running a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> str:
    """A cell's text, with a leading quote when a spreadsheet would run it as a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A header line, then one line per row, every cell through safe_cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
    return buffer.getvalue()
