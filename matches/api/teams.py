"""Team matches (event-structures: Teams): a team match with its boards, and setting a team's line-
up."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import validated
from config.schema import error_responses
from matches import selectors, services
from matches import serializers as s
from matches.models import Match


def _team_match_out(request: Request, pk: int) -> dict[str, Any]:
    tm = services.team_match_visible(request.user, pk)
    boards = list(
        Match.objects.filter(team_match=tm).select_related(
            "round__tournament", "a__player", "b__player"
        )
    )
    out = s.team_match_json(tm, boards)
    out["round"] = tm.round.number
    out["lineups"] = selectors.lineups_for(request.user, tm)
    return out


@extend_schema(
    responses={200: s.TeamMatchOutput, **error_responses(404)},
    description="A team match (event-structures: Teams) with its boards and decider; "
    "`lineups` as the reader may see them (staff: both; a team's members: their own until the "
    "round is published; everyone once it is).",
)
@api_view(["GET"])
def team_match_detail(request: Request, pk: int) -> Response:
    return Response(_team_match_out(request, pk))


@extend_schema(
    request=s.LineupInput,
    responses={200: s.TeamMatchOutput, **error_responses(400, 403, 404, 409)},
    description="Set a team's line-up (players in board order, `players` of them from its "
    "roster): a member of that team, or organisers; after pairing, before publishing (409 "
    "once published).",
)
@api_view(["POST"])
def team_match_lineup(request: Request, pk: int) -> Response:
    tm = services.team_match_visible(request.user, pk)
    data = validated(s.LineupInput, request.data)
    services.lineup_set(
        actor=request.user, team_match=tm, team=data["team"], players=data["players"]
    )
    return Response(_team_match_out(request, pk))
