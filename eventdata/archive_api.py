"""API for the event archive and the CSV exports: organisers only (same reads as the pages)."""

from __future__ import annotations

import json
from typing import Any

from django.http import FileResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from config.pagination import MAX_OFFSET, MAX_PAGE_SIZE, Pagination
from config.schema import paginated
from eventdata.archive_selectors import event_archive
from eventdata.archive_store import stored_archives
from eventdata.archive_views import CSV_EXPORTS, round_param, stored_archive_response
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event


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
    event = visible_event(request, slug)
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


class StoredArchiveOutput(serializers.Serializer):
    name = serializers.CharField(help_text="e.g. `round-swiss-3.json`")
    size = serializers.IntegerField(help_text="bytes")
    download = serializers.CharField(help_text="the API path that downloads it")


@extend_schema(
    operation_id="events_archives_list",
    parameters=[
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1},
            description=f"at most {MAX_PAGE_SIZE} a page (a larger limit is clamped)",
        ),
        OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}),
    ],
    responses=paginated(StoredArchiveOutput),
    description="The archives kept after each finished round (docs/archive.md), Swiss rounds "
    "then the top cut, oldest first, paginated. Organisers only.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def event_stored_archives(request: Request, slug: str) -> Response:
    event = _organiser_event(request, slug)
    paginator = Pagination()
    page = paginator.paginate_queryset(stored_archives(event), request) or []
    return paginator.get_paginated_response(
        [
            {
                "name": kept.name,
                "size": kept.size,
                "download": reverse("api-event-stored-archive", args=[event.slug, kept.name]),
            }
            for kept in page
        ]
    )


@extend_schema(
    operation_id="events_archives_retrieve",
    responses={(200, "application/json"): OpenApiTypes.OBJECT},
    description="One archive kept after a round, as it was stored, as an attachment (the "
    "bytes come through the site, which checks who asks; the store is never public). "
    "Organisers only; `404` for a name that is not one of the event's kept archives.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def event_stored_archive(request: Request, slug: str, name: str) -> FileResponse:
    return stored_archive_response(_organiser_event(request, slug), name)
