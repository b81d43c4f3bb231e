"""``GET /api/events/{slug}/open-data/``: the event's results as open data (eventdata.open_data),
for anyone who may see the event once it is finished; a published copy per change."""

from __future__ import annotations

import json

from django.http import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request

from config import published
from config.errors import Conflict
from config.schema import error_responses
from eventdata.open_data import is_open, open_data, open_data_version
from tournaments.selectors import visible_event


@extend_schema(
    responses={200: OpenApiTypes.OBJECT, **error_responses(409)},
    description="The event's results as open data (docs/open-data.md; its JSON Schema is "
    "docs/open-data.schema.json): stages, rounds and results, final placings and the published "
    "decklists. Anyone who may see the event, once it is finished (a 409 naming status "
    "before); ETag, 304 and gzip like every published copy.",
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def event_open_data(request: Request, slug: str) -> HttpResponseBase:
    event = visible_event(request, slug)
    if not is_open(event):
        raise Conflict(
            "status: the results become open data when the event has finished.",
            field="status",
            code="not_finished",
        )
    version = open_data_version(event)
    response = published.serve(
        request,
        name=f"open-data:{event.pk}",
        version=version,
        render=lambda: json.dumps(open_data(event), separators=(",", ":")).encode(),
    )
    if response.status_code == 200:
        response["Content-Disposition"] = f'inline; filename="{event.slug}-results.json"'
    return response
