"""Matches and their results: a player's match, reports, confirmations, correction previews,
extensions, tables, result versions, and a registration's pairing options."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from config import published
from config.api import validated
from matches import selectors, services
from matches import serializers as s
from matches.api.common import (
    RUNNING_TIMER_COPY_SECONDS,
    check_api_details,
    event_of,
    json_bytes,
    match_of,
    wants_json,
)
from matches.models import Match
from tournaments import permissions as perms
from tournaments.models import Registration


@extend_schema(responses=s.MatchOutput)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def my_match(request: Request, slug: str) -> HttpResponseBase:
    # What 2,000 phones poll every 30 seconds: one indexed statement decides the version, a
    # polling phone that has it gets a 304, and the body is one stored copy per match and
    # viewer (config.published), re-made each second while the round's timer runs.
    seat = selectors.my_seat(request.user, slug) if wants_json(request) else None
    if seat is None:
        event = event_of(request, slug)
        match = selectors.my_match(request.user, event)
        if match is None:
            raise Http404("You have no match in a published round.")
        return Response(_match_out(match, request))
    match_id = seat.match_id

    def render() -> bytes:
        return json_bytes(_match_out(selectors.match_visible(request.user, match_id), request))

    return published.serve(
        request,
        name=f"my-match:{match_id}:{seat.viewer}",
        version=seat.version,
        render=render,
        changed_at=seat.changed_at,
        max_age=RUNNING_TIMER_COPY_SECONDS if seat.timer_running else None,
        private=True,
    )


def _viewer(request: Request, match: Match) -> str | None:
    """Who looks at a match's result: "staff", the player's side, or None."""
    if perms.is_staff_of(request.user, match.round.tournament):
        return "staff"
    return services.acting_side(request.user, match)


def _match_out(match: Match, request: Request | None = None) -> dict[str, Any]:
    viewer = _viewer(request, match) if request is not None else None
    data = dict(s.MatchOutput(match, context={"viewer": viewer}).data)
    timer = selectors.timer_view(match.round, timezone.now(), match.extension_minutes)
    data["timer"] = dict(s.TimerOutput(timer).data)
    data["ends_at"] = data["timer"]["ends_at"]
    return data


def _answer_to_player(request: Request, match: Match) -> dict[str, Any]:
    """The match after a report or confirmation; a player's answer also says in words what
    happened (`message`: final, waiting for the opponent, or disputed)."""
    match = selectors.match_visible(request.user, match.pk)
    data = _match_out(match, request)
    if services.acting_side(request.user, match) is not None:
        data["message"] = selectors.report_outcome(match)
    return data


@extend_schema(responses=s.MatchOutput)
@api_view(["GET"])
def match_detail(request: Request, pk: int) -> Response:
    return Response(_match_out(match_of(request, pk), request))


@extend_schema(request=s.ReportInput, responses=s.PlayerReportOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_report(request: Request, pk: int) -> Response:
    match = match_of(request, pk)
    data = validated(s.ReportInput, request.data)
    check_api_details(match.round.tournament, data.get("game_details"))
    match = services.match_report(actor=request.user, match=match, **data)
    return Response(_answer_to_player(request, match))


@extend_schema(request=s.MatchConfirmInput, responses=s.PlayerReportOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_confirm(request: Request, pk: int) -> Response:
    data = validated(s.MatchConfirmInput, request.data or {})
    match = services.match_confirm(
        actor=request.user,
        match=match_of(request, pk),
        expected_version=data.get("result_version"),
    )
    return Response(_answer_to_player(request, match))


@extend_schema(request=s.ReportInput, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_correction_preview(request: Request, pk: int) -> Response:
    match = match_of(request, pk)
    data = validated(s.ReportInput, request.data)
    check_api_details(match.round.tournament, data.get("game_details"))
    data.pop("reason", None)
    data.pop("confirm_override", None)
    return Response(services.correction_preview(actor=request.user, match=match, **data))


@extend_schema(request=s.ExtensionInput, responses=s.MatchOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_extension(request: Request, pk: int) -> Response:
    match = match_of(request, pk)
    data = validated(s.ExtensionInput, request.data)
    match = services.match_extend(actor=request.user, match=match, **data)
    return Response(_match_out(selectors.match_visible(request.user, match.pk), request))


@extend_schema(request=s.TableInput, responses=s.MatchOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_table(request: Request, pk: int) -> Response:
    match = match_of(request, pk)
    data = validated(s.TableInput, request.data)
    match = services.round_set_table(actor=request.user, match=match, **data)
    return Response(_match_out(selectors.match_visible(request.user, match.pk), request))


@extend_schema(responses=s.ResultVersionOutput(many=True))
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def match_versions(request: Request, pk: int) -> Response:
    match = match_of(request, pk)
    if not (
        perms.is_staff_of(request.user, match.round.tournament)
        or services.acting_side(request.user, match) is not None
    ):
        raise Http404("No such match.")
    versions = match.versions.select_related("actor")
    data = s.ResultVersionOutput(versions, many=True).data
    viewer = _viewer(request, match)
    for row in data:
        for key in ("before", "after"):
            if isinstance(row[key], dict) and "game_details" in row[key]:
                row[key]["game_details"] = match.visible_details(row[key]["game_details"], viewer)
    return Response(data)


@extend_schema(
    request=s.PairingOptionsInput,
    responses=OpenApiTypes.OBJECT,
    description="Organisers: byes granted for rounds, a round-1 seed, a fixed table.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def registration_pairing_options(request: Request, pk: int) -> Response:
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    if not perms.is_staff_of(request.user, registration.tournament):
        raise Http404("No such registration.")
    data = validated(s.PairingOptionsInput, request.data)
    registration = services.registration_pairing_options(
        actor=request.user, registration=registration, **data
    )
    return Response(
        {
            "id": registration.pk,
            "bye_rounds": registration.bye_rounds,
            "seed": registration.seed,
            "fixed_table": registration.fixed_table,
        }
    )
