"""GET /api/players/{player_id}/ (an opt-in public profile; hidden or unknown: 404) and
GET /api/me/history/ (the person's own history): thin views over matches/players.py."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from config.pagination import Pagination
from matches import players


def _profile(request: Request, person: Any) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(players.played_registrations(person), request) or []
    events = [event.to_json() for event in players.history(list(page))]
    body = paginator.get_paginated_response(events).data
    return Response(
        {
            "player_id": person.player_id,
            "name": person.public_name,
            **players.profile_summary(person),
            "series": players.series_points(person),
            **body,
        }
    )


PROFILE_DESCRIPTION = (
    "`player_id`, `name`, totals over every event played (`events_played`, `wins`, `losses`, "
    "`draws`, `record`), `series` (each series the player scored in: `series` (slug), "
    "`name`, `rank`, `players` (ranked in it), `points`, `events` (counted), `url`), and the "
    "events, newest first, paginated (`count`, `next`, `previous`, `results`: each with "
    "`event` (slug), `name`, `game`, `starts_at`, `status`, `place` and `players` (from the "
    "event's placings, top cut included; a team event's place is the team's), `place_final` "
    "(the placings are final), `record`, `wins`, `losses`, `draws`, `dropped` and `decklist` "
    "(the published list's version id, else null))."
)


@extend_schema(
    responses=OpenApiTypes.OBJECT,
    description="A player's public profile, when they made it public: "
    + PROFILE_DESCRIPTION
    + " A hidden profile or an unknown player id is a 404.",
)
@api_view(["GET"])
def player_profile(request: Request, player_id: str) -> Response:
    return _profile(request, players.public_profile_owner(player_id))


@extend_schema(
    responses=OpenApiTypes.OBJECT,
    description="The signed-in person's own history, public profile or not: " + PROFILE_DESCRIPTION,
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def my_history(request: Request) -> Response:
    return _profile(request, request.user)
