"""Penalties: giving one, the event's log (JSON or CSV), a player's history, the catalogue."""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import validated
from config.pagination import MAX_OFFSET, MAX_PAGE_SIZE, Pagination
from config.schema import paginated
from engine import penalties as catalogue
from matches import serializers as s
from matches import services
from matches.api.common import event_of, match_of
from tournaments import permissions as perms
from tournaments.models import Registration, Tournament


class PenaltyCSVRenderer(BaseRenderer):
    """`?format=csv` on the event's penalty log (and its `.csv` path)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        if isinstance(data, str):
            return data.encode("utf-8")
        return json.dumps(data).encode("utf-8")  # an error body


def _penalty_out(penalty: Any) -> dict[str, Any]:
    return dict(s.PenaltyOutput(penalty).data)


@extend_schema(
    request=s.PenaltyInput,
    responses={201: s.PenaltyOutput},
    description="The event's judges and organisers penalise a player of the match. The "
    "penalty defaults to the catalogue's (upgraded when the same infraction repeats in the "
    "event); a game or match loss changes the result, a disqualification (organisers only) "
    "also drops the player. Audited as `penalty.given`.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_penalties(request: Request, pk: int) -> Response:
    match = match_of(request, pk)
    data = validated(s.PenaltyInput, request.data)
    penalty = services.penalty_give(actor=request.user, match=match, **data)
    penalty = services.penalties_of_event(match.round.tournament).get(pk=penalty.pk)
    return Response(_penalty_out(penalty), status=status.HTTP_201_CREATED)


@extend_schema(
    parameters=[
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1},
            description=f"at most {MAX_PAGE_SIZE} rows per page (a larger limit is clamped)",
        ),
        OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}),
    ],
    responses={200: paginated(s.PenaltyOutput), (200, "text/csv"): OpenApiTypes.STR},
    description="The event's penalty log, oldest first, paginated; `?format=csv` (or "
    "`penalties.csv`) gives all of it as CSV. Staff only.",
)
@api_view(["GET"])
@renderer_classes([JSONRenderer, BrowsableAPIRenderer, PenaltyCSVRenderer])
@permission_classes([permissions.IsAuthenticated])
def event_penalties(request: Request, slug: str) -> Response:
    event = event_of(request, slug)
    perms.require_staff(request.user, event)
    if getattr(request.accepted_renderer, "format", "") == "csv":
        return _penalty_csv_response(event)
    paginator = Pagination()
    page = paginator.paginate_queryset(services.penalties_of_event(event), request)
    return paginator.get_paginated_response([_penalty_out(p) for p in page or []])


def _penalty_csv_response(event: Tournament) -> Response:
    return Response(
        services.penalty_log_csv(event),
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{event.slug}-penalties.csv"'},
    )


@extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
@api_view(["GET"])
@renderer_classes([PenaltyCSVRenderer, JSONRenderer])
@permission_classes([permissions.IsAuthenticated])
def event_penalties_csv(request: Request, slug: str) -> Response:
    event = event_of(request, slug)
    perms.require_staff(request.user, event)
    return _penalty_csv_response(event)


@extend_schema(
    responses=paginated(s.PenaltyOutput),
    description="Staff of the registration's event: this player's penalties across every "
    "event (by account; a walk-in's own), newest first, each with `upgrade_suggested` when "
    "the infraction had repeated in its event.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def registration_penalties(request: Request, pk: int) -> Response:
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    if not perms.is_staff_of(request.user, registration.tournament):
        raise Http404("No such registration.")
    history = services.penalty_history(registration, viewer=request.user)
    paginator = Pagination()
    page = paginator.paginate_queryset(history, request)
    return paginator.get_paginated_response([_penalty_out(p) for p in page or []])


@extend_schema(
    responses=OpenApiTypes.OBJECT,
    description="The infraction catalogue (engine/penalties.py, the same for every game): "
    "categories, each "
    "infraction's key, label and default penalty, and the penalties lightest first.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def penalty_catalogue(request: Request) -> Response:
    return Response(
        {
            "penalties": [
                {"key": k, "label": catalogue.PENALTY_LABELS[k]} for k in catalogue.PENALTIES
            ],
            "categories": [
                {"key": key, "label": label, "infractions": [i.to_json() for i in items]}
                for key, label, items in catalogue.by_category()
            ],
            "upgrade_cap": catalogue.UPGRADE_CAP,
        }
    )
