"""REST API for an event's notifications: its settings and its delivery log (organisers only).

Thin views over notifications.services and notifications.selectors; the page
(notifications/views.py) calls the same ones.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.decorators import api_view, permission_classes
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import validated
from config.errors import ServiceError
from config.schema import error_responses, paginated
from notifications import push, selectors, services
from notifications import serializers as s
from notifications.models import Channel, DeliveryStatus, Kind
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event


class DeliveryPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200
    max_offset = 10**9

    def get_offset(self, request: Request) -> int:
        # Never past what the database's integers hold (a huge ?offset= is a 200, not a 500).
        return min(super().get_offset(request), self.max_offset)


def _organiser_event(request: Request, slug: str) -> Tournament:
    event = visible_event(request, slug)
    perms.require_organiser(request.user, event)
    return event


@extend_schema(methods=["GET"], responses=s.SettingsOutput)
@extend_schema(
    methods=["PUT", "PATCH"],
    request=s.SettingsInput,
    responses=s.SettingsOutput,
    description="Set the event's webhook (an https URL; a Discord channel's webhook URL "
    "works; empty for none) and which kinds go out by e-mail, to the webhook and by push to "
    "the phones of players who asked for it. PUT needs every field but push_kinds, PATCH any "
    "of them. Organisers only.",
)
@api_view(["GET", "PUT", "PATCH"])
@permission_classes([permissions.IsAuthenticated])
def event_notifications(request: Request, slug: str) -> Response:
    """The event's notification settings (organisers only)."""
    event = _organiser_event(request, slug)
    if request.method in ("PUT", "PATCH"):
        data = validated(s.SettingsInput, request.data, partial=request.method == "PATCH")
        prefs = services.settings_update(actor=request.user, tournament=event, **data)
    else:
        prefs = selectors.settings_for(event)
    return Response(s.SettingsOutput(prefs).data)


def _choice(request: Request, name: str, allowed: list[str]) -> str | None:
    value = request.query_params.get(name) or None
    if value is not None and value not in allowed:
        raise ServiceError(
            f"{name}: one of {', '.join(allowed)}.", field=name, code="invalid_choice"
        )
    return value


@extend_schema(
    parameters=[
        OpenApiParameter("status", str, enum=DeliveryStatus.values),
        OpenApiParameter("kind", str, enum=Kind.values),
        OpenApiParameter("channel", str, enum=Channel.values),
        OpenApiParameter("limit", int),
        OpenApiParameter("offset", int),
    ],
    responses=paginated(s.DeliveryOutput),
    description="The event's delivery log, newest first, paginated (at most 200 a page): "
    "each e-mail, webhook post and push with its status (pending, sending, sent, failed), attempts, "
    "last error and times. Organisers only.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def event_deliveries(request: Request, slug: str) -> Response:
    event = _organiser_event(request, slug)
    qs = selectors.deliveries_of_event(
        event,
        status=_choice(request, "status", DeliveryStatus.values),
        kind=_choice(request, "kind", Kind.values),
        channel=_choice(request, "channel", Channel.values),
    )
    paginator = DeliveryPagination()
    page = paginator.paginate_queryset(qs, request)
    return paginator.get_paginated_response(s.DeliveryOutput(page or [], many=True).data)


@extend_schema(
    request=s.SecretRotationInput,
    responses=s.SettingsOutput,
    description="A new signing secret for the event's webhook (Standard Webhooks); the current "
    "one keeps signing beside it for overlap_hours (0 to 168, default 24). Organisers only.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def webhook_secret_rotate(request: Request, slug: str) -> Response:
    event = _organiser_event(request, slug)
    data = validated(s.SecretRotationInput, request.data)
    prefs = services.webhook_secret_rotate(actor=request.user, tournament=event, **data)
    return Response(s.SettingsOutput(prefs).data)


# --- push: a signed-in player's own phones and browsers --------------------------------------


@extend_schema(
    responses=s.PushConfigOutput,
    description="Whether the site pushes notifications to phones, the VAPID public key a "
    "browser subscribes with (pushManager.subscribe's applicationServerKey), and how many of "
    "your phones or browsers are subscribed. Signed-in players.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def push_config(request: Request) -> Response:
    return Response(
        {
            "enabled": push.enabled(),
            "public_key": push.vapid().public_key if push.enabled() else None,
            "subscriptions": selectors.push_subscription_count(request.user),
        }
    )


@extend_schema(
    request=s.PushSubscriptionInput,
    responses={201: s.PushSubscriptionOutput, **error_responses(503)},
    description="Notify me on this phone: the browser's PushSubscription.toJSON() (an https "
    "endpoint of its push service and its p256dh and auth keys). The player is then told by "
    "push about the kinds each event's organisers chose (pairings, a result to confirm, a "
    "ruling, 5 minutes left...). 503 (code push_off, field push) when the site has no VAPID "
    "keys. Signed-in players.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def push_subscribe(request: Request) -> Response:
    data = validated(s.PushSubscriptionInput, request.data)
    subscription = services.push_subscribe(
        actor=request.user,
        endpoint=data["endpoint"],
        p256dh=data["keys"]["p256dh"],
        auth=data["keys"]["auth"],
        user_agent=request.headers.get("User-Agent", ""),
    )
    return Response(s.PushSubscriptionOutput(subscription).data, status=201)


@extend_schema(
    request=s.PushUnsubscribeInput,
    responses=s.PushUnsubscribeOutput,
    description="Stop notifying this phone: removes your subscription with this endpoint "
    "(removed is 0 when there was none). Works while push is off too. Signed-in players.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def push_unsubscribe(request: Request) -> Response:
    data = validated(s.PushUnsubscribeInput, request.data)
    removed = services.push_unsubscribe(actor=request.user, endpoint=data["endpoint"])
    return Response({"removed": removed})
