"""The live round panel on the organiser dashboard: its polled fragment, its API, and the one
tap that accepts a table's one-sided report. Thin: the reads are matches.panel, the write is
matches.services.match_confirm (a staff confirmation of that report, audited as every result).

Organisers and the event's judges only: anyone else signed in gets a 403, an event they may
not see is a 404, and the API answers a request without a login with a 403.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from config import shared_copies
from config.errors import Forbidden, ServiceError
from config.pages import int_or_none
from matches import panel, services
from matches.models import Match
from matches.presenters import EN_DASH, mmss, score_text
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event

NO_CACHE = "private, no-cache"


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


# The page shows fewer rows than the API gives: a phone on venue wifi downloads the panel
# again after every change; the rest is one link away (round control, the judge queue).
PAGE_ROWS = 40


def panel_html(event: Tournament, data: dict[str, Any]) -> str:
    """The panel as the dashboard shows it (with the CSRF placeholder of shared copies)."""
    timer = data["timer"] or {}
    rows = PAGE_ROWS
    return render_to_string(
        "matches/staff/_round_panel.html",
        {
            "event": event,
            "panel": data,
            "timer_text": mmss(int(timer.get("remaining_seconds", 0))),
            "ends_at": _when(timer.get("ends_at")),
            "one_sided": [
                {**row, "result_text": score_text(row["games"], dash=EN_DASH)}
                for row in data["one_sided"][:rows]
            ],
            "late": [
                {**row, "over_minutes": max(1, row["over_seconds"] // 60)}
                for row in data["late"][:rows]
            ],
            "extensions": data["extensions"][:rows],
            "calls": [
                {**call, "opened": _when(call["opened_at"])} for call in data["calls"][:rows]
            ],
            "csrf_token": shared_copies.CSRF_PLACEHOLDER,
        },
    )


def panel_for(event: Tournament, user_id: int | None) -> dict[str, Any]:
    return panel.panel_copy(event, user_id=user_id, render_html=lambda d: panel_html(event, d))


def _staff_event(request: HttpRequest, slug: str) -> Tournament:
    event = visible_event(request, slug)
    if not perms.is_staff_of(request.user, event):
        raise PermissionDenied(_("Only this event's organisers and judges may see this page."))
    return event


def _not_modified(tag: str) -> HttpResponse:
    response = HttpResponse(status=304)
    response["ETag"] = tag
    response["Cache-Control"] = NO_CACHE
    return response


@require_GET
@login_required
def round_panel_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The panel alone, for static/js/round-panel.js: a 304 when it has not changed."""
    event = _staff_event(request, slug)
    copy = panel_for(event, request.user.pk)
    tag = panel.etag(copy, "html")
    if panel.not_modified(request.headers.get("If-None-Match", ""), tag):
        return _not_modified(tag)
    response = HttpResponse(shared_copies.personal(request, copy["html"]))
    response["ETag"] = tag
    response["Cache-Control"] = NO_CACHE
    response["X-Round-Panel"] = "1"
    return response


@require_POST
@login_required
def round_panel_accept(request: HttpRequest, slug: str) -> HttpResponse:
    """Accept a table's one-sided report (staff), then back to the panel. From the panel's
    script (X-Requested-With: fetch) the answer is JSON: {"ok", "message"}."""
    event = _staff_event(request, slug)
    wants_json = request.headers.get("X-Requested-With") == "fetch"
    match_id = int_or_none(request.POST.get("match"))
    version = int_or_none(request.POST.get("version"))
    match = (
        Match.objects.select_related("round__tournament", "a__player", "b__player")
        .filter(pk=match_id, round__tournament=event)
        .first()
        if match_id is not None
        else None
    )
    try:
        if match is None:
            raise ServiceError(_("match: no such match in this event."), field="match")
        if version is None:
            raise ServiceError(
                _("version: the result version you saw is missing; reload the panel."),
                field="version",
            )
        services.match_confirm(actor=request.user, match=match, expected_version=version)
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        if wants_json:
            return JsonResponse(
                {"ok": False, "message": exc.message, "field": exc.field, "code": exc.code},
                status=exc.status_code,
            )
        messages.error(request, exc.message)
    else:
        done = _("Table %(table)s: result accepted.") % {"table": match.table}
        if wants_json:
            return JsonResponse({"ok": True, "message": done})
        messages.success(request, done)
    return redirect(reverse("event_dashboard", args=[event.slug]) + "#round-panel")


@extend_schema(
    responses={200: OpenApiTypes.OBJECT, 304: None},
    description="The live round panel of the event's latest round (organisers and judges): "
    "timer, tables still playing, one-sided reports, open calls and disputes, late tables "
    "with their extensions. Send the `ETag` back as `If-None-Match`: an unchanged panel is a "
    "304 with no body.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def round_panel_api(request: Request, slug: str) -> Response:
    event = visible_event(request, slug)
    perms.require_staff(request.user, event)
    copy = panel_for(event, request.user.pk)
    tag = panel.etag(copy, "json")
    headers = {"ETag": tag, "Cache-Control": NO_CACHE}
    if panel.not_modified(request.headers.get("If-None-Match", ""), tag):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(copy["data"], headers=headers)
