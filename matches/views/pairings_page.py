"""The round's pairings page (`/events/{slug}/rounds/{n}/pairings/`) as stored parts, the
reader's own values put in: what every player loads when a round is published.

At 2,048 players the page is about 620 KB of HTML, nearly all of it the two lists of
pairings, which are the same for every reader. Before, each request fetched the lists'
rendered fragment (matches.views.pairings.pairings_fragment), rendered the page around it
and sent the whole, uncompressed. Now a request is put together from:

- **the frame**: the page without the lists (the site's header, the "your table" banner, the
  timer, the footer), a stored copy (config.published) per state and kind of reader,
  rendered with a stand-in for each of the reader's own values (their id, name and player id,
  their table, the timer's "now" and time left, the CSRF token: config.stand_ins) as the
  event page is (tournaments.event_page); the stand-ins are replaced per request;
- **the lists**: the fragment rendered once per round version, language and whether records
  show (as before), kept by each process as a DEFLATE segment (config.gzip_parts; the last
  16 rounds, about 0.7 MB each at 2,048 players), compressed once per version: a reader who
  accepts gzip gets the frame's few kilobytes compressed for them and the lists' stored
  bytes in one gzip member, 620 KB of HTML as about 35 KB.

The kind of reader is every yes/no the templates branch on (signed in, organiser,
superuser, the judge desk flag, and whether they play the round: a table or a bye); the
state is the event's and the round's rows, the timer but its clock, the language, whether
Redis is down and the path. `fresh_page` renders the page whole, as it always was:
tests/matches/test_pairings_page.py compares it byte for byte with the parts put together,
and a request with messages waiting, or a team event's round (its team matches are read
per request), gets it.

No ETag: while the round is played the page carries the server's "now" for the timer
(static/js/round-timer.js counts from it), which a `304` would leave stale.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from config import gzip_parts, published, stand_ins
from config.cache import redis_is_down
from config.fast_path import Encoded
from config.stand_ins import CSRF, has_messages, number_stand_in, stand_in, written
from matches import selectors
from matches.models import Round
from matches.serializers import team_matches_data
from matches.views.common import timer_context
from matches.views.pairings import my_seat, pairings_fragment
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event_with_roles

TEMPLATE = "matches/pairings.html"
FRAGMENT = "matches/_pairings_body.html"
# The lists' gzip segments each process keeps: a few rounds of the largest events.
SEGMENTS_KEPT = 16


def fresh_page(request: HttpRequest, event: Tournament, round_: Round) -> HttpResponse:
    """The page rendered whole for this request (what the parts put together must equal)."""
    body = pairings_fragment(round_, FRAGMENT, "board")
    context = {
        "event": event,
        "round": round_,
        "pairings_body": body,
        "mine": my_seat(request, event, round_),
        "timer": timer_context(event, round_),
        # A team round: its team matches, each with its boards (docs/teams.md).
        "team_matches": team_matches_data(round_) if event.team is not None else None,
    }
    return render(request, TEMPLATE, context)


# --- the lists: one gzip segment per version, per process ----------------------------------------


class _Segments:
    """The lists' segments this process made, by round, each for the version it was made of
    (the round's version, the language, whether records show: what the fragment's cache key
    says), least recently used dropped first. Looked up by the version read for the request,
    so a segment answers only when the fragment it was made of would."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._segments: OrderedDict[int, tuple[str, gzip_parts.Segment]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, round_: Round, version: str) -> gzip_parts.Segment | None:
        with self._lock:
            found = self._segments.get(round_.pk)
            if found is None or found[0] != version:
                return None
            self._segments.move_to_end(round_.pk)
            return found[1]

    def put(self, round_: Round, version: str, made: gzip_parts.Segment) -> None:
        with self._lock:
            self._segments[round_.pk] = (version, made)
            self._segments.move_to_end(round_.pk)
            while len(self._segments) > self.kept:
                self._segments.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._segments.clear()


SEGMENTS = _Segments(SEGMENTS_KEPT)


def _lists(round_: Round) -> gzip_parts.Segment:
    """The lists as a gzip segment: this process's, else made from the rendered fragment
    (matches.views.pairings.pairings_fragment: from the cache, else rendered) once."""
    version = ":".join(
        str(p) for p in (round_.version, get_language(), selectors.records_hidden(round_))
    )
    made = SEGMENTS.get(round_, version)
    if made is None:
        made = gzip_parts.segment(str(pairings_fragment(round_, FRAGMENT, "board")).encode())
        SEGMENTS.put(round_, version, made)
    return made


# --- the frame: a stored copy per state and kind of reader ------------------------------------


def _seat(mine: Any) -> tuple[str, Any]:
    """("", None) for a reader not playing, ("bye", None), or ("table", their table)."""
    if not mine:
        return "", None
    if isinstance(mine, dict):
        return ("bye", None) if mine.get("is_bye") else ("table", mine.get("table"))
    return ("bye", None) if mine.is_bye else ("table", mine.table)


def reader_kind(request: HttpRequest, seat: str) -> list[Any]:
    return [*stand_ins.user_kind(request), seat]


def page_state(
    request: HttpRequest, event: Tournament, round_: Round, timer: dict[str, Any] | None
) -> list[Any]:
    return [
        get_language(),
        redis_is_down(),
        request.path,
        stand_ins.plain_rows(event),
        stand_ins.plain_rows(round_),
        # not the fields that move with the clock (the timer's text says when it ends)
        stand_ins.plain_rows(stand_ins.timer_state(timer)),
    ]


@dataclass(frozen=True)
class Parts:
    """The reader's page: `before` the lists, the lists, and `after` them."""

    before: bytes
    lists: gzip_parts.Segment
    after: bytes

    def body(self) -> bytes:
        return gzip_parts.joined([self.before, self.lists, self.after])

    def gzipped(self) -> bytes:
        return gzip_parts.gzip_of([self.before, self.lists, self.after])


def page_parts(
    request: HttpRequest, event: Tournament, round_: Round, *, render: bool
) -> Parts | None:
    """The reader's page from the stored frame of this state and kind of reader (rendered
    and stored when missing, with `render`; else None) and the lists' segment."""
    mine = my_seat(request, event, round_)
    seat, table = _seat(mine)
    timer = timer_context(event, round_)
    kind = stand_ins.digest(reader_kind(request, seat))
    version = stand_ins.digest([kind, page_state(request, event, round_, timer)])
    name = f"pairings-page:{round_.pk}:{kind}"
    lists_stand_in = stand_in("lists")

    def render_frame() -> bytes:
        stand_in_user = stand_ins.stand_in_user(request)
        shown_timer = timer
        if timer is not None:
            shown_timer = {
                **timer,
                "now_iso": stand_in("now"),
                "remaining": stand_in("remaining"),
            }
        shown_mine: dict[str, Any] | None = None
        if seat == "bye":
            shown_mine = {"is_bye": True, "table": None}
        elif seat == "table":
            shown_mine = {"is_bye": False, "table": number_stand_in("table")}
        context = {
            "event": event,
            "round": round_,
            "pairings_body": mark_safe(lists_stand_in),
            "mine": shown_mine,
            "timer": shown_timer,
            "team_matches": None,
            **stand_ins.reader_context(request, stand_in_user),
        }
        html: str = render_to_string(TEMPLATE, context, request=request)
        return html.encode()

    frame = stand_ins.stored_page(name, version, render_frame if render else None)
    if frame is None:
        return None
    values = stand_ins.user_values(request)
    if seat == "table":
        values[str(number_stand_in("table"))] = written(table)
    if timer is not None:
        values[stand_in("now")] = written(timer["now_iso"])
        values[stand_in("remaining")] = written(timer["remaining"])
    for placeholder, value in values.items():
        frame = frame.replace(placeholder, value)
    if CSRF in frame:  # only a page with a form asks for the token (and sets its cookie)
        frame = frame.replace(CSRF, stand_ins.csrf_token(request))
    before, _lists_here, after = frame.partition(lists_stand_in)
    return Parts(before.encode(), _lists(round_), after.encode())


def answer(request: HttpRequest, parts: Parts) -> HttpResponse:
    """The page's response: gzip when the request accepts it (Vary says so either way)."""
    if published.accepts_gzip(request):
        response = HttpResponse(parts.gzipped())
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(parts.body())
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def round_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The page's view."""
    event = visible_event_with_roles(request, slug)
    round_ = selectors.round_visible(request.user, event, number)
    if event.team is not None or has_messages(request):
        response = fresh_page(request, event, round_)
        patch_vary_headers(response, ["Accept-Encoding"])
        return response
    parts = page_parts(request, event, round_, render=True)
    assert parts is not None  # rendered when not stored
    return answer(request, parts)


def fast_pairings_page(request: HttpRequest, slug: str, number: str) -> bytes | Encoded | None:
    """A signed-in reader's pairings page for config.fast_path (matches.fast_routes): what
    `round_pairings` answers them, from the same reads, when the frame is stored; None (the
    full stack answers) for an event or round they may not see, messages waiting, a team
    event, or a frame not stored yet (the full stack renders it once)."""
    with perms.roles_remembered():
        try:
            event = visible_event_with_roles(request, slug)
            round_ = selectors.round_visible(request.user, event, int(number))
        except Http404:
            return None
        if event.team is not None or has_messages(request):
            return None
        parts = page_parts(request, event, round_, render=False)
    if parts is None:
        return None
    if published.accepts_gzip(request):
        return Encoded(parts.gzipped(), "gzip")
    return parts.body()
