"""REST API for registration at capacity: the lottery and entry-fee statuses (thin views
over tournaments.capacity)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from config import fields as input_fields
from config.api import validated
from config.pagination import Pagination
from config.schema import paginated
from tournaments import capacity
from tournaments import permissions as perms
from tournaments.models import FeeChange, FeeStatus, Registration
from tournaments.selectors import visible_event


class LotteryOutput(serializers.Serializer):
    registration_mode = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    commitment = serializers.CharField(
        allow_null=True, help_text="SHA-256 of the seed (hexadecimal), public before the draw."
    )
    seed = serializers.CharField(allow_null=True, help_text="Published once drawn; else null.")
    drawn_at = serializers.DateTimeField(allow_null=True)
    entries = serializers.IntegerField(help_text="Entries in the draw (registration ids).")
    places = serializers.IntegerField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    waitlist = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="In draw order."
    )
    entry_ids = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Once drawn: the registration ids drawn, ascending (the draw's input).",
    )


class DrawInput(serializers.Serializer):
    confirm = input_fields.BooleanField(
        default=False, help_text="The draw is final: send true to go on."
    )


class FeeInput(serializers.Serializer):
    status = serializers.ChoiceField(choices=FeeStatus.choices)
    note = serializers.CharField(required=False, allow_blank=True, max_length=200)


class FeeChangeOutput(serializers.ModelSerializer):
    by = serializers.SerializerMethodField()

    class Meta:
        model = FeeChange
        fields = ("id", "was", "status", "note", "by", "created_at")

    def get_by(self, obj: FeeChange) -> str | None:
        return obj.actor.public_name if obj.actor_id else None


def _lottery_json(event: Any) -> dict[str, Any]:
    out = capacity.lottery_state(event).to_json()
    out["entry_ids"] = capacity.lottery_entries(event) if event.lottery_drawn_at else None
    return out


@extend_schema(
    responses=LotteryOutput,
    description="The event's lottery: its mode, deadline, the seed's SHA-256 commitment "
    "(public from the start), and once drawn the seed, the entries (`entry_ids`, sorted), "
    "the winners and the waitlist in draw order: everything `python -m tournaments.lottery` "
    "needs to re-run the draw.",
)
@api_view(["GET"])
def lottery(request: Request, slug: str) -> Response:
    return Response(_lottery_json(visible_event(request, slug)))


@extend_schema(
    request=DrawInput,
    responses=LotteryOutput,
    description="Draw the lottery (organisers, after the deadline, once: 409 after): "
    "winners registered up to capacity, the others waitlisted in draw order. Needs "
    '{"confirm": true}.',
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def lottery_draw(request: Request, slug: str) -> Response:
    event = visible_event(request, slug)
    data = validated(DrawInput, request.data)
    capacity.lottery_draw(actor=request.user, tournament=event, confirm=data["confirm"])
    event.refresh_from_db()
    return Response(_lottery_json(event))


def _registration_for_organiser(request: Request, pk: int) -> Registration:
    registration = get_object_or_404(
        Registration.objects.select_related("tournament", "player"), pk=pk
    )
    if not perms.is_staff_of(request.user, registration.tournament):
        raise Http404("No such registration.")
    return registration


@extend_schema(
    methods=["GET"],
    responses=paginated(FeeChangeOutput),
    description="The registration's entry-fee history, newest first (the event's staff).",
)
@extend_schema(
    methods=["POST"],
    request=FeeInput,
    responses={201: FeeChangeOutput},
    description="Set the entry-fee status: unpaid, paid, refunded or comped (organisers); "
    "kept in the history with who and when, and audited.",
)
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticated])
def registration_fee(request: Request, pk: int) -> Response:
    registration = _registration_for_organiser(request, pk)
    if request.method == "POST":
        data = validated(FeeInput, request.data)
        change = capacity.fee_set(actor=request.user, registration=registration, **data)
        return Response(FeeChangeOutput(change).data, status=201)
    paginator = Pagination()
    page = paginator.paginate_queryset(capacity.fee_history(registration), request)
    return paginator.get_paginated_response(FeeChangeOutput(page or [], many=True).data)
