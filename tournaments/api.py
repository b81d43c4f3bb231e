"""REST API for events and registrations: thin views that validate input and call services."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action, api_view
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.player_ids import normalise_player_id
from config.api import validated
from config.errors import Forbidden, ServiceError
from tournaments import permissions as perms
from tournaments import roster_import, selectors, services
from tournaments import serializers as s
from tournaments.models import Registration, Tournament


def _event_queryset(user) -> object:  # type: ignore[no-untyped-def]
    return (
        Tournament.objects.visible_to(user)
        .annotate(
            registered_count=Count("registrations", filter=Q(registrations__status="registered"))
        )
        .select_related("organisation")
        .prefetch_related("organisers")
        .order_by("starts_at", "id")
    )


class EventViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Events: anyone may read published events; organisers create and manage their own."""

    serializer_class = s.EventOutput
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"  # Django's slug converter, as every other event path
    filterset_fields = ("game", "status", "mode", "format_key")

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return _event_queryset(self.request.user)

    @extend_schema(request=s.EventInput, responses={201: s.EventOutput})
    def create(self, request: Request) -> Response:
        data = validated(s.EventInput, request.data)
        event = services.event_create(actor=request.user, **data)
        return Response(s.EventOutput(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.EventInput, responses=s.EventOutput)
    def partial_update(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        data = validated(s.EventInput, request.data, partial=True)
        event = services.event_update(actor=request.user, tournament=event, **data)
        return Response(s.EventOutput(event).data)

    @extend_schema(request=s.TransitionInput, responses=s.EventOutput)
    @action(detail=True, methods=["post"])
    def transition(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        data = validated(s.TransitionInput, request.data)
        event = services.event_transition(actor=request.user, tournament=event, **data)
        return Response(s.EventOutput(event).data)

    @extend_schema(
        request=s.CheckInDeskInput,
        responses=OpenApiTypes.OBJECT,
        description="The check-in desk: several registrations at once (`registrations`), or "
        "the one a scanned player id, QR text or claim code names (`code`). Organisers, and "
        "judges when the event lets them.",
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in_desk(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        data = validated(s.CheckInDeskInput, request.data)
        if data.get("code"):
            one = services.registration_check_in_by_code(
                actor=request.user, tournament=event, code=data["code"]
            )
            return Response({"checked_in": [s.RegistrationOutput(one).data], "skipped": []})
        bulk = services.registrations_check_in(
            actor=request.user, tournament=event, registration_ids=data["registrations"]
        )
        return Response(
            {
                "checked_in": [s.RegistrationOutput(r).data for r in bulk.checked_in],
                "skipped": [{"id": r.pk, "reason": why} for r, why in bulk.skipped],
            }
        )

    @extend_schema(request=s.PlayerCheckInInput, responses=s.EventOutput)
    @action(detail=True, methods=["post"], url_path="player-check-in")
    def player_check_in(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        data = validated(s.PlayerCheckInInput, request.data)
        event = services.event_set_player_check_in(
            actor=request.user, tournament=event, open=data["open"]
        )
        return Response(s.EventOutput(event).data)

    @extend_schema(request=s.JudgeInput, responses={204: None})
    @action(detail=True, methods=["post"])
    def judges(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        data = validated(s.JudgeInput, request.data)

        user = (
            get_user_model()
            .objects.filter(player_id=normalise_player_id(data["player_id"]))
            .first()
        )
        if user is None:
            raise ServiceError("player_id: no account has this player id.", field="player_id")
        services.event_set_judge(
            actor=request.user,
            tournament=event,
            user=user,
            assigned=data["assigned"],
            head=data["head"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=s.RegistrationOutput(many=True))
    @action(detail=True, methods=["get"])
    def registrations(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        qs = selectors.registration_list(actor=request.user, tournament=event)
        page = self.paginate_queryset(qs)
        if perms.is_staff_of(request.user, event):
            organiser = perms.is_organiser_of(request.user, event)
            data = s.RegistrationStaffOutput(page, many=True, context={"organiser": organiser}).data
        else:
            data = s.RegistrationOutput(page, many=True).data
        return self.get_paginated_response(data)

    @extend_schema(request=None, responses={201: s.RegistrationOutput})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def register(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        registration = services.registration_register(actor=request.user, tournament=event)
        return Response(s.RegistrationOutput(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.WalkInInput, responses={201: s.RegistrationStaffOutput})
    @action(detail=True, methods=["post"], url_path="walk-ins")
    def walk_ins(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        data = validated(s.WalkInInput, request.data)
        registration = services.registration_add_walk_in(
            actor=request.user, tournament=event, **data
        )
        # Only organisers add walk-ins: they hand the claim code to the person.
        return Response(
            s.RegistrationStaffOutput(registration, context={"organiser": True}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        request={
            "application/json": s.RosterImportInput,
            "multipart/form-data": s.RosterImportInput,
        },
        responses={200: dict, 201: dict},
    )
    @action(detail=True, methods=["post"], url_path="registrations/import")
    def registrations_import(self, request: Request, slug: str) -> Response:
        """Bulk player import (organisers): a roster CSV of name, email, player_id and an
        optional decklist. `dry_run` previews every row (200, nothing saved); otherwise all
        rows are imported (201) or, with any problem, none (400 with the preview)."""
        event = self.get_object()
        data = validated(s.RosterImportInput, request.data)
        source = data["file"].read() if data.get("file") else data["csv"]
        preview = roster_import.registrations_import(
            actor=request.user,
            tournament=event,
            data=source,
            dry_run=data["dry_run"],
            over_capacity=data["over_capacity"],
        )
        return Response(
            preview.to_dict(),
            status=status.HTTP_201_CREATED if preview.saved else status.HTTP_200_OK,
        )

    @extend_schema(
        methods=["GET"],
        responses=s.TeamOutput(many=True),
        description="The event's teams (a team event, event-structures: Teams).",
    )
    @extend_schema(
        methods=["POST"],
        request=s.TeamInput,
        responses={201: s.TeamOutput},
        description="Form a team: organisers, or a registered player naming themselves among "
        "the members (the captain). 400 naming `members` for a player already in a team, a "
        "roster above roster_max or below players, or a registration of another event.",
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def teams(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        if request.method == "POST":
            data = validated(s.TeamInput, request.data)
            team = services.team_create(actor=request.user, tournament=event, **data)
            return Response(
                s.TeamOutput(selectors.team_with_members(team.pk)).data,
                status=status.HTTP_201_CREATED,
            )
        return Response(s.TeamOutput(selectors.event_teams(event), many=True).data)

    @extend_schema(
        responses=s.StageOutput(many=True),
        description="The event's stages in order (event-structures: Stages), each with its "
        "number, status and, once started, its players in seed order.",
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def stages(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        return Response(selectors.event_stages(event))

    @extend_schema(responses=s.AuditOutput(many=True))
    @action(detail=True, methods=["get"])
    def audit(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        perms.require_staff(request.user, event)
        page = self.paginate_queryset(event.audit_entries.select_related("actor"))
        return self.get_paginated_response(s.AuditOutput(page, many=True).data)


class RegistrationViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """One registration: its player, and the event's organisers and judges, may see it."""

    lookup_value_regex = r"\d+"  # anything else is a 404, not a crash

    serializer_class = s.RegistrationOutput
    permission_classes = [permissions.IsAuthenticated]
    queryset = Registration.objects.select_related("tournament", "player")

    def get_object(self) -> Registration:
        registration = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])
        if not perms.can_view_registration(self.request.user, registration):
            raise Forbidden("You may not see this registration.")
        return registration

    def retrieve(self, request: Request, pk: str) -> Response:
        registration = self.get_object()
        return Response(self._out(registration))

    def _out(self, registration: Registration) -> dict:  # type: ignore[type-arg]
        if perms.is_staff_of(self.request.user, registration.tournament):
            organiser = perms.is_organiser_of(self.request.user, registration.tournament)
            return s.RegistrationStaffOutput(registration, context={"organiser": organiser}).data
        return s.RegistrationOutput(registration).data

    @extend_schema(request=None, responses=s.RegistrationOutput)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        registration = services.registration_withdraw(
            actor=request.user, registration=self.get_object()
        )
        return Response(self._out(registration))

    @extend_schema(request=s.RemoveInput, responses=s.RegistrationStaffOutput)
    @action(detail=True, methods=["post"])
    def remove(self, request: Request, pk: str) -> Response:
        data = validated(s.RemoveInput, request.data)
        registration = services.registration_remove(
            actor=request.user, registration=self.get_object(), **data
        )
        return Response(self._out(registration))

    @extend_schema(request=None, responses=s.RegistrationStaffOutput)
    @action(detail=True, methods=["post"])
    def reactivate(self, request: Request, pk: str) -> Response:
        registration = services.registration_reactivate(
            actor=request.user, registration=self.get_object()
        )
        return Response(self._out(registration))

    @extend_schema(request=s.CheckInInput, responses=s.RegistrationOutput)
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str) -> Response:
        data = validated(s.CheckInInput, request.data)
        registration = services.registration_check_in(
            actor=request.user, registration=self.get_object(), **data
        )
        return Response(self._out(registration))

    @extend_schema(request=s.DropInput, responses=s.RegistrationOutput)
    @action(detail=True, methods=["post"])
    def drop(self, request: Request, pk: str) -> Response:
        data = validated(s.DropInput, request.data)
        registration = services.registration_drop(
            actor=request.user, registration=self.get_object(), **data
        )
        return Response(self._out(registration))

    @extend_schema(request=None, responses=s.RegistrationStaffOutput)
    @action(detail=True, methods=["post"])
    def reinstate(self, request: Request, pk: str) -> Response:
        registration = services.registration_reinstate(
            actor=request.user, registration=self.get_object()
        )
        return Response(self._out(registration))

    @extend_schema(request=s.ClaimInput, responses=s.RegistrationOutput)
    @action(detail=False, methods=["post"])
    def claim(self, request: Request) -> Response:
        data = validated(s.ClaimInput, request.data)
        registration = services.registration_claim(
            actor=request.user, claim_code=data["claim_code"]
        )
        return Response(s.RegistrationOutput(registration).data)

    @extend_schema(responses=s.RegistrationOutput(many=True))
    @action(detail=False, methods=["get"])
    def mine(self, request: Request) -> Response:
        qs = self.get_queryset().filter(player=request.user).order_by("-tournament__starts_at")
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(s.RegistrationOutput(page, many=True).data)


@extend_schema(methods=["GET"], responses=s.TeamOutput)
@extend_schema(
    methods=["PATCH"],
    request=s.TeamInput(partial=True),
    responses=s.TeamOutput,
    description="Edit a team before the event runs (its members or organisers).",
)
@extend_schema(methods=["DELETE"], responses={204: None}, description="Organisers dissolve a team.")
@api_view(["GET", "PATCH", "DELETE"])
def team_detail(request: Request, pk: int) -> Response:
    team = selectors.team_visible(request.user, pk)
    if request.method == "PATCH":
        data = validated(s.TeamInput, request.data, partial=True)
        services.team_update(actor=request.user, team=team, **data)
    elif request.method == "DELETE":
        services.team_delete(actor=request.user, team=team)
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(s.TeamOutput(selectors.team_with_members(team.pk)).data)
