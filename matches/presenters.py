"""How the round pages say times and results: the one clock formatter, the one score formatter
and the one round-timer context (templates/matches/_timer.html, templates/matches/staff/
_timer.html, static/js/round-timer.js). Pure: values in, text and dicts out, no Django.

Vocabulary: a *score* is a match's games as the services store them, a's games won, b's games
won, games drawn; a *clock text* is a count of seconds as a clock shows it ("07:05").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

HYPHEN = "-"
EN_DASH = "\u2013"
NO_SCORE = "—"


def mmss(seconds: int, *, signed: bool = False, pad_minutes: bool = True) -> str:
    """Seconds as a clock shows them: "07:05", "1:02:03". Time past the end shows without a
    sign ("02:00" over) unless `signed` ("-02:00"); `pad_minutes=False` gives "7:05"."""
    seconds = int(seconds)
    sign = "-" if signed and seconds < 0 else ""
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    return f"{sign}{minutes:02d}:{secs:02d}" if pad_minutes else f"{sign}{minutes}:{secs:02d}"


def clock_ms_text(ms: Any) -> str:
    """The match clock's milliseconds as m:ss, rounded up (0:00 only when the time is really
    out); "—" when the clock has no time for that player."""
    if ms is None:
        return NO_SCORE
    return mmss(max(0, -(-int(ms) // 1000)), pad_minutes=False)


def score_text(
    games: Sequence[int] | None,
    *,
    dash: str = HYPHEN,
    always_drawn: bool = False,
    empty: str = NO_SCORE,
) -> str:
    """A result as on a slip, a's games first: "2-1", "1-1-1" (the drawn games only when there
    are some, unless `always_drawn`: "2-1-0"); `empty` when there is no result yet. Pages set
    in running text use `dash=EN_DASH` (an en dash)."""
    if not games:
        return empty
    won_a, won_b, drawn = [*(int(g) for g in games), 0, 0, 0][:3]
    if drawn or always_drawn:
        return dash.join((str(won_a), str(won_b), str(drawn)))
    return f"{won_a}{dash}{won_b}"


def timer_context(
    *,
    state: str,
    ends_at: datetime | None,
    remaining_seconds: int,
    now: datetime,
    extension_minutes: int,
    url: str,
    time_zone: str,
    round_number: int,
) -> dict[str, Any]:
    """What a round timer shows, the round's own times and one table's (its extension added):
    read by templates/matches/_timer.html (players), templates/matches/staff/_timer.html
    (staff: `signed_text`) and static/js/round-timer.js (the ISO times and the API `url`)."""
    extension = extension_minutes * 60
    table_remaining = remaining_seconds + extension
    return {
        "state": state,
        "ends_at": ends_at,
        "table_ends_at": ends_at + timedelta(minutes=extension_minutes) if ends_at else None,
        "remaining": remaining_seconds,
        "remaining_seconds": remaining_seconds,
        "table_remaining": table_remaining,
        "remaining_text": mmss(table_remaining),
        "signed_text": mmss(table_remaining, signed=True),
        "overtime": state == "running" and table_remaining < 0,
        "extension_seconds": extension,
        "extension_minutes": extension_minutes,
        "now": now,
        "ends_at_iso": ends_at.isoformat(timespec="milliseconds") if ends_at else "",
        "now_iso": now.isoformat(timespec="milliseconds"),
        "url": url,
        "time_zone": time_zone,
        "round_number": round_number,
    }
