"""What the staff pages share: who may see them, their addresses, the slip result's reading,
the round's timer, and the reads the selectors do not offer (a round's matches by table,
filtered; one person's recent entries; the seats of a round for the swap form).

Who may do what is decided by the services and tournaments.permissions: organisers pair,
review and publish; organisers and judges enter results, run the timer and give extensions.
Everyone else gets a 403 (or a 404 for an event or round they cannot see).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.db.models import F, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.player_ids import normalise_player_id
from config.pages import int_or_none
from matches import selectors
from matches.models import Match, MatchStatus, ResultChange, ResultVersion, Round
from matches.views.common import round_timer_context
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event

RECENT_ENTRIES = 15
# "2-0", "2-1", "1-1-1", "0-2", "1-0"; dashes, slashes, dots or spaces between the numbers.
RESULT_RE = re.compile(
    r"^\s*(\d{1,2})\s*[-\u2013/. ]\s*(\d{1,2})(?:\s*[-\u2013/. ]\s*(\d{1,2}))?\s*$"
)
SEAT_RE = re.compile(r"^t?(\d{1,6})\s*([ab])$", re.IGNORECASE)

# --- small helpers ---------------------------------------------------------------------------


def staff_event(request: HttpRequest, slug: str) -> Tournament:
    """The event if this person may see it (else 404) and is its staff (else 403)."""
    event = visible_event(request, slug)
    if not perms.is_staff_of(request.user, event):
        raise PermissionDenied(_("Only this event's organisers and judges may see this page."))
    return event


def staff_round(request: HttpRequest, slug: str, number: int) -> Round:
    event = staff_event(request, slug)
    return selectors.round_visible(request.user, event, number)


def staff_match(request: HttpRequest, pk: int) -> Match:
    match = selectors.match_visible(request.user, pk)
    if not perms.is_staff_of(request.user, match.round.tournament):
        raise PermissionDenied(_("Only this event's organisers and judges may see this page."))
    return match


def round_url(round_: Round, anchor: str = "") -> str:
    url = reverse("round_control", args=[round_.tournament.slug, round_.number])
    return f"{url}#{anchor}" if anchor else url


def match_url(match: Match, anchor: str = "") -> str:
    url = reverse("match_staff", args=[match.pk])
    return f"{url}#{anchor}" if anchor else url


def parse_result(text: str) -> tuple[int, int, int] | None:
    """A result as written on a slip: "2-0", "2-1", "1-1-1" (won by a, won by b, drawn)."""
    found = RESULT_RE.match(text or "")
    if found is None:
        return None
    won_a, won_b, drawn = found.groups()
    return (int(won_a), int(won_b), int(drawn or 0))


def staff_timer_context(round_: Round, extension_minutes: int = 0) -> dict[str, Any]:
    """The round's timer for templates/matches/staff/_timer.html and static/js/round-timer.js
    (matches.presenters.timer_context: the round's own end time, as the timer API returns it,
    and a table's extension in seconds, which the script adds)."""
    return {
        "timer": round_timer_context(
            round_.tournament, round_, extension_minutes=extension_minutes
        ),
        "timer_js": finders.find("js/round-timer.js") is not None,
    }


# --- reads the selectors do not offer ----------------------------------------------------------


def matches_by_table(round_: Round) -> QuerySet[Match]:
    """A round's matches with both players, by table, byes last (one query)."""
    return round_.matches.select_related("a__player", "b__player").order_by(
        F("table").asc(nulls_last=True), "id"
    )


def filtered_matches(round_: Round, state: str, query: str) -> QuerySet[Match]:
    """The round control list: by state (``unfinished`` by default) and table or name."""
    qs = matches_by_table(round_)
    if state == "unfinished":
        qs = qs.exclude(status=MatchStatus.FINAL)
    elif state in MatchStatus.values:
        qs = qs.filter(status=state)
    query = query.strip()
    if query:
        table = int_or_none(query.lstrip("#tT"))
        if table is not None:
            qs = qs.filter(table=table)
        else:
            words = Q()
            for side in ("a", "b"):
                words |= (
                    Q(**{f"{side}__player__display_name__icontains": query})
                    | Q(**{f"{side}__player__username__icontains": query})
                    | Q(**{f"{side}__player__player_id__iexact": normalise_player_id(query)})
                    | Q(**{f"{side}__walk_in_name__icontains": query})
                )
            qs = qs.filter(words)
    return qs


def recent_entries(round_: Round, user: Any) -> list[ResultVersion]:
    """The results this person entered in this round, newest first (the scorekeeper's list)."""
    return list(
        ResultVersion.objects.filter(
            match__round=round_,
            actor=user,
            change__in=(ResultChange.ENTERED, ResultChange.CORRECTED),
        )
        .select_related("match__a__player", "match__b__player")
        .order_by("-created_at", "-id")[:RECENT_ENTRIES]
    )


@dataclass(frozen=True)
class Seat:
    registration_id: int
    label: str
    table: int | None
    side: str
    name: str
    player_id: str


def round_seats(matches: list[Match]) -> list[Seat]:
    """Every seat of a round, for the swap form: "12a · Name · ABC-DEF"."""
    seats = []
    for m in matches:
        for side in ("a", "b"):
            reg = getattr(m, side)
            if reg is None:
                continue
            where = f"{m.table}{side}" if m.table is not None else _("bye")
            pid = reg.player.player_id if reg.player_id else ""
            label = " · ".join(x for x in (where, reg.name, pid) if x)
            seats.append(Seat(reg.pk, label, m.table, side, reg.name, pid))
    return seats


def find_seat(seats: list[Seat], text: str) -> Seat | None:
    """What the organiser typed or picked: "12a", a player id, a name, or a seat label."""
    text = (text or "").strip()
    if not text:
        return None
    for seat in seats:
        if seat.label == text:
            return seat
    candidates: list[Seat] = []
    for token in [text, *(t.strip() for t in text.split("·"))]:
        found = SEAT_RE.match(token.replace(" ", ""))
        if found:
            table, side = int(found.group(1)), found.group(2).lower()
            candidates = [s for s in seats if s.table == table and s.side == side]
        if not candidates:
            pid = normalise_player_id(token)
            candidates = [s for s in seats if s.player_id and s.player_id == pid]
        if not candidates:
            candidates = [s for s in seats if s.name.casefold() == token.casefold()]
        if len(candidates) == 1:
            return candidates[0]
    return None
