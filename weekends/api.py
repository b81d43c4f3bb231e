"""REST API for weekends: thin views that validate input and call services or selectors."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import validated
from config.errors import Forbidden, ServiceError
from config.schema import error_responses, paginated
from organisations.services import user_by_id
from tournaments.models import Tournament
from tournaments.selectors import event_visible
from weekends import selectors, services
from weekends import serializers as s
from weekends.models import Weekend


def _event(user: Any, slug: str, field: str) -> Tournament:
    """The event a request names by slug, as this person may see it; a 400 naming the field."""
    event = event_visible(user=user, slug=slug)
    if event is None:
        raise ServiceError(
            _("%(field)s: no event %(slug)s.") % {"field": field, "slug": slug[:140]}, field=field
        )
    return event


def detail_body(request: Request, weekend: Weekend) -> dict[str, Any]:
    conflicts = (
        selectors.deck_conflicts(weekend)
        if selectors.may_see_deck_conflicts(request.user, weekend)
        else None
    )
    context = {
        "entries": selectors.weekend_entries(request.user, weekend),
        "deck_conflicts": conflicts,
    }
    return dict(s.WeekendDetailOutput(weekend, context=context).data)


def _badge_body(result: services.BadgeCheckIn) -> dict[str, Any]:
    player = result.player
    return {
        "player": player.public_name if player is not None else "",
        "player_id": player.player_id if player is not None else "",
        "events": [
            {
                "event": item.event.slug,
                "registration": item.registration.pk,
                "outcome": item.outcome,
                "reason": item.reason,
                "code": item.code,
            }
            for item in result.events
        ],
        "checked_in": sum(1 for item in result.events if item.outcome == "checked_in"),
    }


class WeekendViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Weekends: a main event and side events at one venue. Anyone reads; organisers create
    them and add their own events."""

    serializer_class = s.WeekendOutput
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.weekend_list().prefetch_related("organisers")

    @extend_schema(request=s.WeekendInput, responses={201: s.WeekendDetailOutput})
    def create(self, request: Request) -> Response:
        data = validated(s.WeekendInput, request.data)
        weekend = services.weekend_create(actor=request.user, **data)
        return Response(detail_body(request, weekend), status=status.HTTP_201_CREATED)

    @extend_schema(responses=s.WeekendDetailOutput)
    def retrieve(self, request: Request, slug: str) -> Response:
        return Response(detail_body(request, self.get_object()))

    @extend_schema(
        methods=["get"], responses=s.WeekendEventOutput(many=True), description="The events."
    )
    @extend_schema(
        methods=["post"],
        request=s.WeekendEventInput,
        responses={201: s.WeekendDetailOutput},
        description="Add an event (organisers of the weekend and of the event). An event is "
        "in one weekend at most (409); a weekend has one main event at most (409).",
    )
    @action(detail=True, methods=["get", "post"])
    def events(self, request: Request, slug: str) -> Response:
        weekend = self.get_object()
        if request.method == "GET":
            entries = selectors.weekend_entries(request.user, weekend)
            page = self.paginate_queryset(entries)  # type: ignore[arg-type]
            return self.get_paginated_response(s.WeekendEventOutput(page, many=True).data)
        data = validated(s.WeekendEventInput, request.data)
        event = _event(request.user, data["event"], "event")
        services.weekend_add_event(
            actor=request.user, weekend=weekend, tournament=event, kind=data["kind"]
        )
        return Response(detail_body(request, weekend), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None}, description="Remove an event.")
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"events/(?P<event_slug>[-a-zA-Z0-9_]+)",
    )
    def remove_event(self, request: Request, slug: str, event_slug: str) -> Response:
        weekend = self.get_object()
        event = get_object_or_404(Tournament.objects.visible_to(request.user), slug=event_slug)
        services.weekend_remove_event(actor=request.user, weekend=weekend, tournament=event)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=s.BadgeInput,
        responses=OpenApiTypes.OBJECT,
        description="The weekend's check-in desk: the badge (player id or its QR text) checks "
        "the player into each of their weekend events whose check-in is open, in one "
        "transaction; the answer says, per event, checked_in, already or skipped (why).",
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, slug: str) -> Response:
        weekend = self.get_object()
        data = validated(s.BadgeInput, request.data)
        result = services.weekend_check_in(actor=request.user, weekend=weekend, code=data["code"])
        return Response(_badge_body(result))

    @extend_schema(
        request=s.SideEventInput,
        responses={201: s.WeekendEventOutput},
        description="New side event like this one: a new event of the weekend copied from "
        "`template` (settings, format, stages, venue, capacity, card catalog, organisers and "
        "judges; never players or rounds), named and timed by the request, in draft.",
    )
    @action(detail=True, methods=["post"], url_path="side-events")
    def side_events(self, request: Request, slug: str) -> Response:
        weekend = self.get_object()
        data = validated(s.SideEventInput, request.data)
        template = _event(request.user, data.pop("template"), "template")
        if not weekend.entries.filter(tournament=template).exists():
            raise ServiceError(
                _("template: %(slug)s is not an event of this weekend.") % {"slug": template.slug},
                field="template",
            )
        entry = services.side_event_from_template(actor=request.user, template=template, **data)
        return Response(s.WeekendEventOutput(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["get"],
        responses=paginated(s.OrganiserOutput),
        description="The weekend's organisers (anyone reads them).",
    )
    @extend_schema(
        methods=["post"],
        request=s.OrganiserInput,
        responses={201: s.OrganiserOutput, **error_responses(409)},
        description="A weekend organiser adds another (audited); already one: 409.",
    )
    @action(detail=True, methods=["get", "post"])
    def organisers(self, request: Request, slug: str) -> Response:
        weekend = self.get_object()
        if request.method == "POST":
            data = validated(s.OrganiserInput, request.data)
            user = user_by_id(data["user"], "user")
            services.weekend_add_organiser(actor=request.user, weekend=weekend, user=user)
            return Response(s.OrganiserOutput(user).data, status=status.HTTP_201_CREATED)
        people = weekend.organisers.order_by("pk")
        page = self.paginate_queryset(people)  # type: ignore[arg-type]
        return self.get_paginated_response(s.OrganiserOutput(page, many=True).data)

    @extend_schema(
        request=None,
        responses={204: None, **error_responses(409)},
        description="A weekend organiser removes another, or themselves (audited); the last "
        "one stays (409).",
    )
    @action(detail=True, methods=["delete"], url_path=r"organisers/(?P<user_id>[0-9]+)")
    def organiser(self, request: Request, slug: str, user_id: str) -> Response:
        weekend = self.get_object()
        user = user_by_id(user_id, "user")
        services.weekend_remove_organiser(actor=request.user, weekend=weekend, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        responses=s.DeskEventOutput(many=True),
        description="The scorekeeper and judge desk across the weekend (the desk page's data): "
        "for each of its events the person staffs (organiser or judge), the current round, "
        "its matches by status, the matches not final yet and the open judge calls (each "
        "list at most 50). The badge check-in is POST check-in/. Staff only (403).",
    )
    @action(detail=True, methods=["get"])
    def desk(self, request: Request, slug: str) -> Response:
        weekend = self.get_object()
        rows = selectors.desk(request.user, weekend)
        if not rows and not services.is_organiser_of_weekend(request.user, weekend):
            raise Forbidden(_("Only the weekend's staff see its desk."))
        return Response(s.DeskEventOutput(rows, many=True).data)
