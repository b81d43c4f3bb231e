"""REST API for series (event-structures: Series): thin views over series.services and
series.selectors."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponseBase
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from config import published
from config.api import validated
from config.errors import ServiceError
from config.pagination import int_param
from organisations.models import Organisation
from series import selectors, services
from series import serializers as s
from series.models import Series
from tournaments.selectors import event_visible

MAX_LEADERBOARD_PAGE = 5000


class SeriesViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Series: anyone reads them and their leaderboards; organisers create them and add their
    events."""

    serializer_class = s.SeriesOutput
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    queryset = Series.objects.prefetch_related("entries__event", "qualifications__event").order_by(
        "-created_at", "id"
    )

    @extend_schema(request=s.SeriesInput, responses={201: s.SeriesOutput})
    def create(self, request: Request) -> Response:
        data = validated(s.SeriesInput, request.data)
        if "organisation" in data:
            data["organisation"] = Organisation.objects.filter(slug=data["organisation"]).first()
            if data["organisation"] is None:
                raise ServiceError("organisation: no such organisation.", field="organisation")
        series = services.series_create(actor=request.user, **data)
        return Response(s.series_json(series), status=status.HTTP_201_CREATED)

    @extend_schema(request=s.SeriesEventInput, responses=s.SeriesOutput)
    @action(detail=True, methods=["post"])
    def events(self, request: Request, slug: str) -> Response:
        series = self.get_object()
        data = validated(s.SeriesEventInput, request.data)
        event = event_visible(user=request.user, slug=data["event"])
        if event is None:
            raise ServiceError("event: no such event.", field="event")
        services.series_add_event(actor=request.user, series=series, event=event)
        return Response(s.series_json(get_object_or_404(self.get_queryset(), pk=series.pk)))

    @extend_schema(
        request=s.QualificationInput,
        responses={200: s.QualificationOutput(many=True), 201: s.QualificationOutput},
        description="The series' qualification rules (GET, anyone); POST adds one: the top "
        "invite_top are invited to the event when the series closes, the top bye_top with byes "
        "in bye_rounds (an organiser of both; the event must not have started).",
    )
    @action(detail=True, methods=["get", "post"])
    def qualifications(self, request: Request, slug: str) -> Response:
        series = self.get_object()
        if request.method == "GET":
            rules = series.qualifications.select_related("event")
            return Response(s.QualificationOutput(rules, many=True).data)
        data = validated(s.QualificationInput, request.data)
        event = event_visible(user=request.user, slug=data.pop("event"))
        if event is None:
            raise ServiceError("event: no such event.", field="event")
        rule = services.qualification_add(actor=request.user, series=series, event=event, **data)
        return Response(s.QualificationOutput(rule).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.CloseInput,
        responses=s.CloseOutput,
        description="Close the series (cannot be undone: `confirm` true is required): the "
        "leaderboard as it stands decides each qualification; qualified players are registered "
        "in the rule's event with their invitation and byes.",
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, slug: str) -> Response:
        series = self.get_object()
        data = validated(s.CloseInput, request.data)
        invitations = services.series_close(
            actor=request.user, series=series, confirm=data["confirm"]
        )
        series = get_object_or_404(self.get_queryset(), pk=series.pk)
        return Response(
            {
                "series": s.series_json(series),
                "invitations": [
                    {
                        "event": i.event,
                        "player_id": i.player_id,
                        "rank": i.rank,
                        "registration": i.registration,
                        "bye_rounds": list(i.bye_rounds),
                    }
                    for i in invitations
                ],
            }
        )

    @extend_schema(
        parameters=[
            OpenApiParameter("limit", OpenApiTypes.INT, description="Rows (at most 5000)."),
            OpenApiParameter("offset", OpenApiTypes.INT),
        ],
        responses=s.LeaderboardOutput,
        description="Players by points from the final placings of the series' events, ties "
        "sharing a rank; a copy per change of any event's results (ETag, 304).",
    )
    @action(detail=True, methods=["get"])
    def leaderboard(self, request: Request, slug: str) -> HttpResponseBase:
        series = self.get_object()
        limit = int_param(
            request, "limit", MAX_LEADERBOARD_PAGE, minimum=1, maximum=MAX_LEADERBOARD_PAGE
        )
        offset = int_param(request, "offset", 0)
        version = selectors.leaderboard_version(series)

        def render() -> bytes:
            rows = selectors.current_leaderboard(series, version)
            body: dict[str, Any] = {
                "count": len(rows),
                "limit": limit,
                "offset": offset,
                "rows": rows[offset : offset + (limit or 0)],
            }
            return bytes(JSONRenderer().render(body))

        return published.serve(
            request,
            name=f"series:{series.pk}:leaderboard:{limit}:{offset}",
            version=f"{version}:{limit}:{offset}",
            render=render,
        )
