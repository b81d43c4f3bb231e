"""The round's pairings: by table and by name, rendered once per round version; the
reader's own seat from a small cache entry (the page: matches/views/pairings_page.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from matches import selectors, services
from matches.models import Match, Round
from matches.views.common import PAIRINGS_CACHE_SECONDS, cache_key
from tournaments.models import Tournament


@dataclass(frozen=True)
class Seat:
    """One line of the alphabetical list: a player, his table, seat and opponent."""

    name: str
    table: int | None
    seat: str
    opponent: str | None
    bye: bool
    record: str | None = None


NO_RECORD = "0-0-0"


def pairing_lists(
    matches: list[Match], records: Mapping[int, str] | None = None
) -> tuple[list[Match], list[Seat]]:
    """By table (byes last) and alphabetically by name (each player once). With `records`
    (registration id -> record going into the round), each match carries `a_record` and
    `b_record` and each seat its player's record; without, none is shown."""
    by_table = sorted(matches, key=lambda m: (m.b_id is None, m.table or 0, m.pk))

    def record_of(registration_id: int | None) -> str | None:
        if records is None or registration_id is None:
            return None
        return records.get(registration_id, NO_RECORD)

    seats: list[Seat] = []
    for m in matches:
        m.a_record, m.b_record = record_of(m.a_id), record_of(m.b_id)  # type: ignore[attr-defined]
        if m.b is None:
            seats.append(Seat(m.a.name, m.table, "", None, True, record_of(m.a_id)))
            continue
        seats.append(Seat(m.a.name, m.table, "A", m.b.name, False, record_of(m.a_id)))
        seats.append(Seat(m.b.name, m.table, "B", m.a.name, False, record_of(m.b_id)))
    seats.sort(key=lambda s: (s.name.casefold(), s.table or 0))
    return by_table, seats


def pairings_fragment(round_: Round, template: str, kind: str) -> str:
    """A round's rendered pairings, once per round version and language (and whether the
    records are shown: they appear once the standings they come from may be seen)."""
    hidden = selectors.records_hidden(round_)
    key = cache_key("pairings", kind, round_.pk, round_.version, get_language(), hidden)
    html = cache.get(key)
    if html is None:
        matches = list(selectors.round_matches(round_))
        records = None if hidden else services.records_before_round(round_)
        by_table, by_name = pairing_lists(matches, records)
        html = render_to_string(
            template,
            {
                "round": round_,
                "by_table": by_table,
                "by_name": by_name,
                "show_records": records is not None,
            },
        )
        cache.set(key, html, PAIRINGS_CACHE_SECONDS)
        # Each player's seat too, so the "your table" banner costs a small cache read.
        seats = {}
        for m in matches:
            for reg in (m.a, m.b):
                if reg is not None and reg.player_id is not None:
                    seats[_seat_key(round_, reg.player_id)] = {
                        "table": m.table,
                        "is_bye": m.b_id is None,
                    }
        cache.set_many(seats, PAIRINGS_CACHE_SECONDS)
    return mark_safe(html)  # rendered by our own autoescaping template


def _seat_key(round_: Round, user_id: int) -> str:
    return cache_key("seat", round_.pk, round_.version, user_id)


def my_seat(request: HttpRequest, event: Tournament, round_: Round) -> Any:
    """The logged-in player's table in this round: from the cache the pairings filled, or
    looked up when it has been evicted (``None`` for someone not playing)."""
    if not request.user.is_authenticated:
        return None
    seat = cache.get(_seat_key(round_, request.user.pk))
    if seat is not None:
        return seat
    return selectors.my_match(request.user, event, round_)
