"""`GET /api/events/{slug}/rounds/{n}/` answered before DRF's machinery when it can be.

At a publish spike every player, bot and venue screen fetches the round at once. Its body is
a stored copy (config.published), so what a request costs is the machinery around it: DRF's
request wrapping, authentication, content negotiation and permission classes, and two
queries (the event through `visible_to`, then the round). For the common request (a GET of
JSON, with no query string and no `Authorization` header, of a round published or finished
in a public event) all of that decides nothing: the round is everybody's. `round_detail`
answers such a request itself, with one query (the round and its event, its SQL compiled
once per process: config.prepared), after the same throttles as DRF's (the API's default
classes, every one counted as DRF counts them), with the same headers DRF adds (`Allow`,
`Vary: Accept`), the same copy and the same 304s.

Everything else goes to the DRF view as before: another method, a query string
(`?registration=`, `?format=`), a token, a browser asking for HTML (the browsable API), a
round that is not published (staff see it, players get DRF's 404), an event that is not
public, no such round, a refused throttle (DRF then refuses it with its own answer; a request
over the limit is counted twice, which changes nothing: the window's end is fixed at its first
request).
"""

from __future__ import annotations

import re
from functools import cache, wraps
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_vary_headers
from rest_framework.settings import api_settings

from config import prepared
from config.fast_path import Found, Route
from matches import api
from matches.models import Round, RoundStatus
from tournaments.status import PUBLIC

# What a client that wants JSON sends (DRF answers JSON to each); anything else is DRF's to
# negotiate.
_JSON_ACCEPTS = frozenset({"", "*/*", "application/json"})


def answered_here(request: HttpRequest) -> bool:
    """The request is one this module may answer (a plain GET of JSON, no token)."""
    meta = request.META
    return (
        request.method == "GET"
        and not meta.get("QUERY_STRING")
        and "HTTP_AUTHORIZATION" not in meta
        and meta.get("HTTP_ACCEPT", "").strip() in _JSON_ACCEPTS
        # DRF's test client signs a request in on DRF's request only: DRF's to apply.
        and getattr(request, "_force_auth_user", None) is None
    )


def throttles_allow(request: HttpRequest) -> bool:
    """Every default throttle counts the request, as DRF's check_throttles does."""
    allowed = [
        throttle().allow_request(request, None)
        for throttle in api_settings.DEFAULT_THROTTLE_CLASSES
    ]
    return all(allowed)


def _round_and_event(slug: str, number: int) -> QuerySet[Round]:
    # At most one row (slugs are unique, and numbers within an event): no ORDER BY to build.
    return (
        Round.objects.select_related("tournament")
        .filter(tournament__slug=slug, number=number)
        .order_by()
    )


def _public_round(slug: str, number: int) -> Round | None:
    """The round if it is everybody's to read (published or finished, in a public event)."""
    # Compiled once per process (config.prepared): the query's SQL, not its answer.
    found = prepared.fetch("published-round", _round_and_event, slug, number)
    if not found:
        return None
    round_ = found[0]
    public = round_.tournament.status in PUBLIC and round_.is_visible_to_players
    return round_ if public and round_.status != RoundStatus.PAIRING else None


@cache
def _drf_headers() -> tuple[tuple[str, str], ...]:
    """The headers DRF's view adds to every answer (finalize_response)."""
    view = api.round_detail.cls(**api.round_detail.initkwargs)
    return tuple(view.default_response_headers.items())


def _as_drf_finalizes(response: HttpResponseBase) -> HttpResponseBase:
    for name, value in _drf_headers():
        if name == "Vary":
            patch_vary_headers(response, [v.strip() for v in value.split(",")])
        else:
            response[name] = value
    return response


@wraps(api.round_detail)  # the schema, CSRF exemption and view class stay DRF's
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    if answered_here(request):
        round_ = _public_round(slug, number)
        if round_ is not None and throttles_allow(request):
            user: Any = request.user
            answer = api.round_copy_answer(
                request, round_, registration=None, private=bool(user.is_authenticated)
            )
            return _as_drf_finalizes(answer)
    response: HttpResponseBase = api.round_detail(request, slug=slug, number=number)
    return response


def _fast_find(request: HttpRequest, slug: str, number: str) -> Found | None:
    """The round's copy for config.fast_path (a GET, anonymous or signed in, before Django's
    middleware): the same checks and the same copy as `round_detail` above."""
    if not answered_here(request):
        return None
    round_ = _public_round(slug, int(number))
    if round_ is None:
        return None
    return api.round_copy(round_)


# `GET /api/events/{slug}/rounds/{n}/` (config/urls.py's pattern: a slug, then a number).
FAST_ROUTE = Route(
    name="api-round-detail",
    pattern=re.compile(r"/api/events/(?P<slug>[-a-zA-Z0-9_]+)/rounds/(?P<number>[0-9]{1,9})/"),
    find=_fast_find,
    admit=throttles_allow,
    # The public copy is every reader's (round_detail above serves it to a signed-in
    # reader, staff included, with `private`): a session cookie changes only the headers.
    signed_in=True,
)
