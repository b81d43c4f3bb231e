"""API for the event archive and the CSV exports: organisers only (same reads as the pages)."""

from __future__ import annotations

import json
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import permissions as perms
from tournaments.archive_selectors import event_archive
from tournaments.archive_views import CSV_EXPORTS, round_param
from tournaments.models import Tournament


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        if isinstance(data, str):
            return data.encode("utf-8")
        return json.dumps(data).encode("utf-8")  # an error body


def _organiser_event(request: Request, slug: str) -> Tournament:
    event = get_object_or_404(Tournament.objects.visible_to(request.user), slug=slug)
    perms.require_organiser(request.user, event)
    return event


@extend_schema(
    responses=OpenApiTypes.OBJECT,
    description="The whole event as one versioned archive (docs/archive.md): settings, staff, "
    "registrations, decklists, rounds, matches, every result version, reports, judge calls, "
    "rulings, penalties, standings snapshots and the audit trail. Organisers only; "
    "`manage.py import_event` restores it.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def event_archive_api(request: Request, slug: str) -> Response:
    event = _organiser_event(request, slug)
    return Response(
        event_archive(event),
        headers={"Content-Disposition": f'attachment; filename="{event.slug}-archive.json"'},
    )


def _csv(request: Request, slug: str, kind: str) -> Response:
    event = _organiser_event(request, slug)
    text = CSV_EXPORTS[kind](event, round_param(request.query_params.get("round")))
    return Response(
        text,
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{event.slug}-{kind}.csv"'},
    )


_ROUND = OpenApiParameter(
    "round",
    {"type": "integer", "minimum": 1, "maximum": 32767},
    description="a round number (default: the latest)",
)


@extend_schema(
    parameters=[_ROUND],
    responses={(200, "text/csv"): OpenApiTypes.STR},
    description="Standings after a finished Swiss round as CSV, one line per player (organisers).",
)
@api_view(["GET"])
@renderer_classes([CSVRenderer, JSONRenderer])
@permission_classes([permissions.IsAuthenticated])
def standings_csv(request: Request, slug: str) -> Response:
    return _csv(request, slug, "standings")


@extend_schema(
    parameters=[_ROUND],
    responses={(200, "text/csv"): OpenApiTypes.STR},
    description="One round's pairings as CSV, one line per match (organisers).",
)
@api_view(["GET"])
@renderer_classes([CSVRenderer, JSONRenderer])
@permission_classes([permissions.IsAuthenticated])
def pairings_csv(request: Request, slug: str) -> Response:
    return _csv(request, slug, "pairings")


@extend_schema(
    responses={(200, "text/csv"): OpenApiTypes.STR},
    description="Every match of every round with its result as CSV (organisers).",
)
@api_view(["GET"])
@renderer_classes([CSVRenderer, JSONRenderer])
@permission_classes([permissions.IsAuthenticated])
def results_csv(request: Request, slug: str) -> Response:
    return _csv(request, slug, "results")
