"""A player's "my match" page (`/events/{slug}/my-match/`) from a stored copy, the reader's
own values put in: what every player loads after the pairings when a round is published.

At that moment nearly every match is *untouched*: published, no report sent, no judge
called, no match clock pressed. Such a match's page differs from another's only by the
reader's own values (their id, name and player id in the header, the match's id in the
forms' URLs, the table, the opponent's name, the timer's "now" and time left, the CSRF
token). It is rendered once per state and kind of reader with a stand-in for each
(config.stand_ins, as the event page and the pairings page are), and each request puts its
reader's values in.

The state is everything else the page shows, all of it read for the request: the event's and
the round's rows, the match's row but its id, table and players, the round's games to win,
the timer but its clock, the language, the push keys, whether Redis is down and the path.
The kind of reader is the header's yes/no, the reader's side, whether they have a bye and
whether the match has a table. Whether the match is untouched is read for the request too
(one prepared query), so a report, a confirmation, a correction, a judge call or a press of
the clock shows at once: the page is then rendered whole, as it always was (`fresh_page`),
and so it is for a team event's match, a request with messages waiting, or a reader with no
match. tests/matches/test_my_match_page.py compares the two byte for byte.
"""

from __future__ import annotations

import copy
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language

from config import prepared, stand_ins
from config.cache import redis_is_down
from config.stand_ins import CSRF, has_messages, number_stand_in, stand_in, written
from matches import selectors
from matches.models import ClockEvent, JudgeCall, Match, MatchStatus, Report, RoundStatus
from matches.views.common import games_to_win_of, registration_of, timer_context
from matches.views.report import match_context
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event_with_roles

TEMPLATE = "matches/my_match.html"
# What the state leaves out of the match's row: the reader's own values (spliced in), what
# the page does not show, and what differs between matches without showing.
_NOT_STATE = frozenset({"id", "table", "a_id", "b_id", "seed_a", "seed_b", "updated_at"})


def fresh_page(request: HttpRequest, event: Tournament, match: Match | None) -> HttpResponse:
    """The page rendered whole for this request (what the stored copy must equal)."""
    context: dict[str, Any] = {"event": event, "here": request.path}
    if match is None:
        context["registration"] = registration_of(request.user, event)
        context["latest_round"] = selectors.latest_visible_round(request.user, event)
        return render(request, TEMPLATE, context)
    context.update(match_context(request, event, match))
    return render(request, TEMPLATE, context)


def _touched_query(match_id: int) -> QuerySet[Match]:
    return (
        Match.objects.filter(pk=match_id)
        .annotate(
            has_reports=Exists(Report.objects.filter(match_id=OuterRef("pk"))),
            has_calls=Exists(JudgeCall.objects.filter(match_id=OuterRef("pk"))),
            has_clock=Exists(ClockEvent.objects.filter(match_id=OuterRef("pk"))),
        )
        .only("pk")
    )


def untouched(match: Match) -> bool:
    """The match is published and nothing has happened to it yet: no report, no judge call,
    no press of its clock (one query, compiled once per process)."""
    if match.status != MatchStatus.PENDING or match.round.status != RoundStatus.PUBLISHED:
        return False
    if match.team_match_id is not None or type(match.pk) is not int:
        return False
    found = prepared.fetch("match-touched", _touched_query, match.pk)
    if not found:
        return False
    row: Any = found[0]
    return not (row.has_reports or row.has_calls or row.has_clock)


def _side(request: HttpRequest, match: Match) -> str:
    return "a" if match.a.player_id == request.user.pk else "b"


def _opponent_name(match: Match, side: str) -> str:
    if match.b is None:
        return ""
    return str((match.b if side == "a" else match.a).name)


def reader_kind(request: HttpRequest, match: Match, side: str) -> list[Any]:
    return [*stand_ins.user_kind(request), side, match.b_id is None, match.table is None]


def page_state(
    request: HttpRequest, event: Tournament, match: Match, timer: dict[str, Any] | None
) -> list[Any]:
    columns = [
        (f.attname, getattr(match, f.attname))
        for f in Match._meta.concrete_fields
        if f.attname not in _NOT_STATE
    ]
    return [
        get_language(),
        redis_is_down(),
        stand_ins.push_keys(),
        request.path,
        stand_ins.plain_rows(event),
        stand_ins.plain_rows(match.round),
        stand_ins.plain_rows(columns),
        games_to_win_of(match.round),
        stand_ins.plain_rows(stand_ins.timer_state(timer)),
    ]


def _stand_in_match(match: Match, side: str) -> Match:
    """A copy of the match with stand-ins for its id, its table and the opponent's name."""
    shown = copy.copy(match)
    shown.pk = number_stand_in("match")
    if match.table is not None:
        shown.table = number_stand_in("table")
    if match.b is not None:
        opponent = copy.copy(match.b if side == "a" else match.a)
        opponent.player_id = None  # named by its walk-in name: the stand-in
        opponent.walk_in_name = stand_in("opponent")
        if side == "a":
            shown.b = opponent
        else:
            shown.a = opponent
    return shown


def _spliced(request: HttpRequest, event: Tournament, match: Match, *, render: bool) -> str | None:
    """The reader's page: the stored copy of this state and kind of reader (rendered and
    stored when missing, with `render`; else None) with the reader's own values put in."""
    side = _side(request, match)
    timer = timer_context(event, match.round, extension_minutes=match.extension_minutes)
    kind = stand_ins.digest(reader_kind(request, match, side))
    version = stand_ins.digest([kind, page_state(request, event, match, timer)])
    name = f"my-match-page:{match.round_id}:{kind}"

    def render_copy() -> bytes:
        user = stand_ins.stand_in_user(request)
        context: dict[str, Any] = {"event": event, "here": request.path}
        context.update(match_context(request, event, _stand_in_match(match, side)))
        if timer is not None:
            context["timer"] = {
                **timer,
                "now_iso": stand_in("now"),
                "remaining": stand_in("remaining"),
            }
        context.update(stand_ins.reader_context(request, user))
        html: str = render_to_string(TEMPLATE, context, request=request)
        return html.encode()

    html = stand_ins.stored_page(name, version, render_copy if render else None)
    if html is None:
        return None
    values = stand_ins.user_values(request)
    values[str(number_stand_in("match"))] = str(match.pk)
    if match.table is not None:
        values[str(number_stand_in("table"))] = written(match.table)
    if match.b is not None:
        values[stand_in("opponent")] = written(_opponent_name(match, side))
    if timer is not None:
        values[stand_in("now")] = written(timer["now_iso"])
        values[stand_in("remaining")] = written(timer["remaining"])
    for placeholder, value in values.items():
        html = html.replace(placeholder, value)
    if CSRF in html:  # only a page with a form asks for the token (and sets its cookie)
        html = html.replace(CSRF, stand_ins.csrf_token(request))
    return html


def _match_of(request: HttpRequest, event: Tournament) -> Match | None:
    match = selectors.my_match(request.user, event)
    if match is not None:
        match.round.tournament = event
    return match


@login_required
def my_match(request: HttpRequest, slug: str) -> HttpResponse:
    """The page's view."""
    event = visible_event_with_roles(request, slug)
    match = _match_of(request, event)
    if match is None or event.team is not None or has_messages(request) or not untouched(match):
        return fresh_page(request, event, match)
    html = _spliced(request, event, match, render=True)
    assert html is not None  # rendered when not stored
    return HttpResponse(html)


def fast_my_match_page(request: HttpRequest, slug: str) -> bytes | None:
    """A signed-in player's page for config.fast_path (matches.fast_routes): what `my_match`
    answers them, from the same reads, when the copy is stored; None (the full stack
    answers) otherwise: an event they may not see, no match, a match not untouched, a team
    event, messages waiting, or a copy not stored yet (the full stack renders it once)."""
    with perms.roles_remembered():
        try:
            event = visible_event_with_roles(request, slug)
        except Http404:
            return None
        if event.team is not None or has_messages(request):
            return None
        match = _match_of(request, event)
        if match is None or not untouched(match):
            return None
        html = _spliced(request, event, match, render=False)
    return None if html is None else html.encode()
