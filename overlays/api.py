"""The overlays' public JSON feeds and the organiser's feature-match marks (docs/overlays.md).

Each feed is what its overlay page draws; its stream (``.../stream/``, overlays.live) sends the
same JSON as server-sent events. A feed is served as a published copy per live version
(config.published: ETag, 304 for a poll that already has it), so 500 clients polling every
second or two cost a query and a 304 each, not a render.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from config import published
from config.api import validated
from config.pagination import int_param
from config.schema import error_responses
from config.throttling import AddressThrottle
from matches import selectors as match_selectors
from overlays import feeds, live_version, services
from overlays.models import MAX_SLOT, FeatureMatch
from overlays.selectors import live_stamp
from tournaments.models import Tournament
from tournaments.selectors import event_visible

ROWS = OpenApiParameter(
    "rows",
    {"type": "integer", "minimum": 1, "maximum": feeds.MAX_TICKER_ROWS},
    description=f"How many rows the ticker shows (1 to {feeds.MAX_TICKER_ROWS}; standings "
    f"{feeds.DEFAULT_TICKER_ROWS}, pairings {feeds.MAX_TICKER_ROWS} by default).",
)


class OverlayThrottle(AddressThrottle):
    """The feeds per client address (the ``overlay`` rate), in place of the API's anonymous
    rate: one streaming PC polls several overlays when their stream is not served."""

    scope = "overlay"


def public_event(slug: str) -> Tournament:
    """Overlays show what the public sees: an event the public cannot see has none."""
    event = event_visible(user=AnonymousUser(), slug=slug)
    if event is None:
        raise Http404("No such event.")
    return event


def _rows(request: Request, default: int) -> int:
    """The ticker's ``rows``: 1 to 64, else a 400 naming it (the pages clamp instead)."""
    rows = int_param(request, "rows", default, minimum=1, maximum=feeds.MAX_TICKER_ROWS)
    return rows if rows is not None else default


def feed_answer(request: Any, event: Tournament, kind: str, arg: int) -> HttpResponseBase:
    version = f"overlay:{kind}:{arg}:{live_stamp(event.pk)}:{live_version.current(event.pk)}"

    def render() -> bytes:
        return json.dumps(feeds.build(event, kind, arg), separators=(",", ":")).encode()

    # No stored copy for the feature overlay: its clock's server time is per answer.
    name = None if kind == "feature" else f"overlay:{event.pk}:{kind}:{arg}"
    return published.serve(request, name=name, version=version, render=render)


@extend_schema(
    operation_id="events_overlays_feature_retrieve",
    responses={200: OpenApiTypes.OBJECT, 304: None},
    description="The feature match in slot `slot` (1 to 8) of the newest published round "
    "that has one: players, table, status, the final games, the game's per-game details "
    "and score, the newest judge's replay score (BoBA: trophies; BOS: life) and the match "
    "clock as of its last press (docs/overlays.md). `match` is null when the slot is empty.",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes([OverlayThrottle])
def feature(request: Request, slug: str, slot: int) -> HttpResponseBase:
    event = public_event(slug)
    if not 1 <= slot <= MAX_SLOT:
        raise Http404("No such feature slot.")
    return feed_answer(request, event, "feature", slot)


@extend_schema(
    operation_id="events_overlays_standings_retrieve",
    parameters=[ROWS],
    responses={200: OpenApiTypes.OBJECT, 304: None},
    description="The standings ticker: the top rows of the newest standings (rank, name, "
    "points, record), empty while there are none or the event hides them.",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes([OverlayThrottle])
def standings(request: Request, slug: str) -> HttpResponseBase:
    event = public_event(slug)
    return feed_answer(request, event, "standings", _rows(request, feeds.DEFAULT_TICKER_ROWS))


@extend_schema(
    operation_id="events_overlays_pairings_retrieve",
    parameters=[ROWS],
    responses={200: OpenApiTypes.OBJECT, 304: None},
    description="The pairings ticker: the newest published round's tables (players, "
    "status, final games).",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes([OverlayThrottle])
def pairings(request: Request, slug: str) -> HttpResponseBase:
    event = public_event(slug)
    return feed_answer(request, event, "pairings", _rows(request, feeds.MAX_TICKER_ROWS))


@extend_schema(
    operation_id="events_overlays_bracket_retrieve",
    responses={200: OpenApiTypes.OBJECT, 304: None},
    description="The bracket: every published top-cut round with its matches, seeds and "
    "final games, and the champion once there is one.",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes([OverlayThrottle])
def bracket(request: Request, slug: str) -> HttpResponseBase:
    event = public_event(slug)
    return feed_answer(request, event, "bracket", 0)


class FeatureInput(serializers.Serializer):
    slot = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_SLOT,
        help_text="The feature overlay to show it on (default: the round's first free slot).",
    )


class FeatureOutput(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    table = serializers.IntegerField(source="match.table", read_only=True, allow_null=True)

    class Meta:
        model = FeatureMatch
        fields = ("match", "round", "table", "slot", "marked_at")


@extend_schema(
    methods=["POST"],
    request=FeatureInput,
    responses={200: FeatureOutput, **error_responses(409)},
    description="Mark the match as a feature match (the event's organisers). 409 naming `a` "
    "or `b` when that player chose not to be streamed, naming `slot` when the slot shows "
    "another match, naming `match` when its round is finished; 400 for a bye.",
)
@extend_schema(
    methods=["DELETE"],
    request=None,
    responses={204: None},
    description="Take the match off the feature overlays (the event's organisers).",
)
@api_view(["POST", "DELETE"])
def match_feature(request: Request, pk: int) -> Response:
    match = match_selectors.match_visible(request.user, pk)
    if request.method == "DELETE":
        services.feature_unmark(actor=request.user, match=match)
        return Response(status=status.HTTP_204_NO_CONTENT)
    data = validated(FeatureInput, request.data)
    feature = services.feature_mark(actor=request.user, match=match, slot=data.get("slot"))
    return Response(FeatureOutput(feature).data)
