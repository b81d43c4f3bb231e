"""REST API: /api/organisations/ (organisations, members and roles, suspensions, events) and
/api/calendar/ (the public calendar, the private feed's address). Thin: services write,
selectors read."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import validated
from config.errors import Forbidden
from config.pagination import Pagination
from config.schema import error_responses, paginated
from engine.games import GAMES
from organisations import selectors, services
from organisations import serializers as s
from organisations.models import Organisation, Suspension
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import event_visible


def _page(request: Request, view: Any, rows: Any, serializer: Any) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(serializer(page, many=True).data)


class OrganisationViewSet(viewsets.GenericViewSet):
    """Organisations: anyone reads them; organisers create one (becoming its owner); owners
    edit and delete it and manage its members; owners and organisers its suspensions."""

    serializer_class = s.OrganisationOutput
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    queryset = Organisation.objects.all()

    def get_object(self) -> Organisation:
        return selectors.organisation_or_404(self.kwargs["slug"])

    def list(self, request: Request) -> Response:
        return _page(
            request, self, Organisation.objects.order_by("name", "id"), s.OrganisationOutput
        )

    @extend_schema(
        request=s.OrganisationInput,
        responses={201: s.OrganisationOutput, **error_responses(409)},
    )
    def create(self, request: Request) -> Response:
        data = validated(s.OrganisationInput, request.data)
        organisation = services.organisation_create(actor=request.user, **data)
        return Response(s.OrganisationOutput(organisation).data, status=status.HTTP_201_CREATED)

    def retrieve(self, request: Request, slug: str) -> Response:
        return Response(s.OrganisationOutput(self.get_object()).data)

    @extend_schema(request=s.OrganisationInput, responses=s.OrganisationOutput)
    def partial_update(self, request: Request, slug: str) -> Response:
        data = validated(s.OrganisationInput, request.data, partial=True)
        data.pop("slug", None)  # the slug names the organisation in every address: it stays
        organisation = services.organisation_update(
            actor=request.user, organisation=self.get_object(), **data
        )
        return Response(s.OrganisationOutput(organisation).data)

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, slug: str) -> Response:
        services.organisation_delete(actor=request.user, organisation=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        methods=["GET"], responses=paginated(s.MemberOutput), description="Members only."
    )
    @extend_schema(methods=["POST"], request=s.MemberInput, responses={201: s.MemberOutput})
    @action(detail=True, methods=["get", "post"])
    def members(self, request: Request, slug: str) -> Response:
        """The members and their roles (members read them); owners add a person or change
        their role."""
        organisation = self.get_object()
        if request.method == "POST":
            data = validated(s.MemberInput, request.data)
            user = services.user_by_id(data["user"], "user")
            membership = services.member_set(
                actor=request.user, organisation=organisation, user=user, role=data["role"]
            )
            return Response(s.MemberOutput(membership).data, status=status.HTTP_201_CREATED)
        if services.role_of(request.user, organisation) is None and not getattr(
            request.user, "is_superuser", False
        ):
            raise Forbidden("Only this organisation's members may see its members.")
        return _page(request, self, selectors.members(organisation), s.MemberOutput)

    @extend_schema(methods=["PATCH"], request=s.MemberRoleInput, responses=s.MemberOutput)
    @extend_schema(methods=["DELETE"], responses={204: None})
    @action(detail=True, methods=["patch", "delete"], url_path=r"members/(?P<user_id>[0-9]+)")
    def member(self, request: Request, slug: str, user_id: str) -> Response:
        """Owners change a member's role or remove them; anyone may leave."""
        organisation = self.get_object()
        user = services.user_by_id(user_id, "user")
        if request.method == "DELETE":
            services.member_remove(actor=request.user, organisation=organisation, user=user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = validated(s.MemberRoleInput, request.data)
        membership = services.member_set(
            actor=request.user, organisation=organisation, user=user, role=data["role"]
        )
        return Response(s.MemberOutput(membership).data)

    @extend_schema(methods=["GET"], responses=paginated(s.SuspensionOutput))
    @extend_schema(
        methods=["POST"],
        request=s.SuspensionInput,
        responses={201: s.SuspendedOutput},
        description="Suspend a player. Their registrations for the organisation's events that "
        "have not started and fall in the suspension are cancelled (each audited in its event, "
        "the player told): that needs `confirm` (without it, a 400 naming `confirm` lists "
        "them); `cancelled` names those events.",
    )
    @action(detail=True, methods=["get", "post"])
    def suspensions(self, request: Request, slug: str) -> Response:
        """The organisation's suspensions (owners and organisers); suspend a player."""
        organisation = self.get_object()
        if request.method == "POST":
            data = validated(s.SuspensionInput, request.data)
            player = services.user_by_id(data.pop("player"), "player")
            done = services.suspend(
                actor=request.user, organisation=organisation, player=player, **data
            )
            cancelled = [r.tournament.slug for r in done.removed]
            body = s.SuspendedOutput(done.suspension, context={"cancelled": cancelled}).data
            return Response(body, status=status.HTTP_201_CREATED)
        services.require_organiser(request.user, organisation)
        return _page(request, self, selectors.suspensions(organisation), s.SuspensionOutput)

    @extend_schema(request=None, responses=s.SuspensionOutput)
    @action(detail=True, methods=["delete"], url_path=r"suspensions/(?P<pk>[0-9]+)")
    def suspension(self, request: Request, slug: str, pk: str) -> Response:
        """Lifts the suspension early (the row stays, with ``lifted_at``)."""
        organisation = self.get_object()
        row = get_object_or_404(Suspension, pk=int(pk), organisation=organisation)
        return Response(
            s.SuspensionOutput(services.suspension_lift(actor=request.user, suspension=row)).data
        )

    @extend_schema(methods=["GET"], responses=paginated(s.CalendarEventOutput))
    @extend_schema(methods=["POST"], request=s.EventLinkInput, responses=s.CalendarEventOutput)
    @action(detail=True, methods=["get", "post"])
    def events(self, request: Request, slug: str) -> Response:
        """The organisation's public events, soonest first; POST adds one of yours to it
        (you organise both the event and the organisation)."""
        organisation = self.get_object()
        if request.method == "POST":
            data = validated(s.EventLinkInput, request.data)
            event = event_visible(user=request.user, slug=data["event"])
            if event is None:
                from config.errors import ServiceError

                raise ServiceError("No such event.", field="event")
            event = services.event_set_organisation(
                actor=request.user, tournament=event, organisation=organisation
            )
            return Response(s.CalendarEventOutput(event).data)
        events = (
            selectors.public_events().filter(organisation=organisation).order_by("starts_at", "id")
        )
        return _page(request, self, events, s.CalendarEventOutput)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"events/(?P<event_slug>[-a-zA-Z0-9_]+)")
    def event(self, request: Request, slug: str, event_slug: str) -> Response:
        """Takes the event out of the organisation (its organisers or the event's)."""
        organisation = self.get_object()
        event = get_object_or_404(Tournament, slug=event_slug, organisation=organisation)
        if not perms.is_organiser_of(request.user, event):
            raise Forbidden("Only this event's organisers may do this.")
        services.event_set_organisation(actor=request.user, tournament=event, organisation=None)
        return Response(status=status.HTTP_204_NO_CONTENT)


CALENDAR_PARAMETERS = [
    OpenApiParameter("game", OpenApiTypes.STR, enum=list(GAMES), description="A game's key."),
    OpenApiParameter(
        "format_key",
        OpenApiTypes.STR,
        description="A format's key (`format` is the API's response format).",
    ),
    OpenApiParameter("organisation", OpenApiTypes.STR, description="An organisation's slug."),
    OpenApiParameter("city", OpenApiTypes.STR, description="A city (any case)."),
]


@extend_schema(parameters=CALENDAR_PARAMETERS, responses=paginated(s.CalendarEventOutput))
@api_view(["GET"])
def calendar(request: Request) -> Response:
    """The public calendar: upcoming events, soonest first, filtered; an unknown game or
    organisation is a 400 naming the parameter."""
    filters = selectors.calendar_filters(request.query_params)
    paginator = Pagination()
    page = paginator.paginate_queryset(selectors.calendar_events(filters), request)
    return paginator.get_paginated_response(s.CalendarEventOutput(page, many=True).data)


@extend_schema(methods=["GET"], request=None, responses=s.CalendarTokenOutput)
@extend_schema(
    methods=["POST"],
    request=None,
    responses=s.CalendarTokenOutput,
    description="A new address: the old one stops working.",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def calendar_token(request: Request) -> Response:
    """The address of your private "my events" iCalendar feed."""
    token = services.calendar_token(user=request.user, rotate=request.method == "POST")
    url = request.build_absolute_uri(reverse("organisations:my_events_ics", args=[token]))
    return Response({"url": url})
