"""The published copies config.fast_path may answer before Django's middleware (config/wsgi.py).

Each route asks the same questions of the database as its API view and names the same copy,
so a GET gets the answer the full stack would give: the published round
(matches.published_round), the latest standings (`GET /api/events/{slug}/standings/`,
without a query string: the first page of the latest stage's standings) and the top cut
(`GET /api/events/{slug}/top-cut/`, the bracket rounds the public sees). Anything the view
would answer otherwise (hidden standings, a team event, no finished round yet, an event that
is not public) is left to the view.

All three take signed-in readers too (`Route.signed_in`): the round's and the standings'
copies are the same for everyone who may read them (the view's checks, asked here with the
reader: an event's staff see its hidden standings and its draft event, from the same copy);
the top cut's staff copy holds the bracket rounds not published yet, so the event's staff
are left to the view and every other reader gets the public copy, as the view gives it.
"""

from __future__ import annotations

import re

from django.http import Http404, HttpRequest

from config.errors import NotFound
from config.fast_path import Found, PageRoute, Route
from matches import api, selectors, services
from matches.models import RoundStatus
from matches.published_round import FAST_ROUTE as ROUND_ROUTE
from matches.published_round import answered_here, throttles_allow
from matches.views.my_match_page import fast_my_match_page
from matches.views.pairings_page import fast_pairings_page
from tournaments import permissions as perms
from tournaments.selectors import visible_event


def _standings(request: HttpRequest, slug: str) -> Found | None:
    if not answered_here(request):
        return None
    try:
        event = visible_event(request, slug)
        if event.team is not None:
            return None  # rendered per request (matches.api._team_standings)
        snapshot = services.standings_snapshot(event, None, None)
    except (Http404, NotFound):
        return None
    if selectors.standings_hidden_for(request.user, event, snapshot.round.number):
        return None
    return api.standings_copy(snapshot, api.MAX_STANDINGS_PAGE, 0)


STANDINGS_ROUTE = Route(
    name="api-standings",
    pattern=re.compile(r"/api/events/(?P<slug>[-a-zA-Z0-9_]+)/standings/"),
    find=_standings,
    admit=throttles_allow,
    signed_in=True,
)


def _top_cut(request: HttpRequest, slug: str) -> Found | None:
    if not answered_here(request):
        return None
    try:
        event = visible_event(request, slug)
    except Http404:
        return None
    if perms.is_staff_of(request.user, event):
        return None  # their own copy, with the unpublished rounds: the view's
    cut_rounds = list(selectors.rounds_visible(request.user, event).filter(stage="top_cut"))
    if any(r.status == RoundStatus.PAIRING for r in cut_rounds):
        return None  # rendered per request while a round is being paired
    for r in cut_rounds:
        r.tournament = event
    return api.top_cut_copy(event, cut_rounds, staff=False)


TOP_CUT_ROUTE = Route(
    name="api-top-cut",
    pattern=re.compile(r"/api/events/(?P<slug>[-a-zA-Z0-9_]+)/top-cut/"),
    find=_top_cut,
    admit=throttles_allow,
    signed_in=True,
)

# A signed-in reader's pairings page (matches/views/pairings_page.py): every player loads it
# when a round is published.
PAIRINGS_PAGE_ROUTE = PageRoute(
    name="pairings-page",
    pattern=re.compile(r"/events/(?P<slug>[-a-zA-Z0-9_]+)/rounds/(?P<number>[0-9]+)/pairings/"),
    page=fast_pairings_page,
)

ROUTES: tuple[Route, ...] = (ROUND_ROUTE, STANDINGS_ROUTE, TOP_CUT_ROUTE)
# A signed-in player's "my match" page (matches/views/my_match_page.py): every player loads
# it after the pairings.
MY_MATCH_PAGE_ROUTE = PageRoute(
    name="my-match-page",
    pattern=re.compile(r"/events/(?P<slug>[-a-zA-Z0-9_]+)/my-match/"),
    page=fast_my_match_page,
)

PAGE_ROUTES: tuple[PageRoute, ...] = (PAIRINGS_PAGE_ROUTE, MY_MATCH_PAGE_ROUTE)
