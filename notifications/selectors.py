"""Reads shared by the notification page, its API and the services."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet

from notifications.models import Delivery, DeliveryStatus, NotificationSettings, PushSubscription
from tournaments.models import Tournament


def settings_for(tournament: Tournament) -> NotificationSettings:
    """The event's settings; an unsaved row with the defaults when it has none yet."""
    found = NotificationSettings.objects.filter(tournament=tournament).first()
    return found if found is not None else NotificationSettings(tournament=tournament)


def deliveries_of_event(
    tournament: Tournament,
    *,
    status: str | None = None,
    kind: str | None = None,
    channel: str | None = None,
) -> QuerySet[Delivery]:
    """The event's delivery log, newest first."""
    qs = Delivery.objects.filter(tournament=tournament).select_related("recipient")
    if status:
        qs = qs.filter(status=status)
    if kind:
        qs = qs.filter(kind=kind)
    if channel:
        qs = qs.filter(channel=channel)
    return qs.order_by("-created_at", "-id")


def delivery_counts(tournament: Tournament) -> dict[str, Any]:
    """How many deliveries of the event are in each status."""
    counts = {status: 0 for status in DeliveryStatus.values}
    rows = (
        Delivery.objects.filter(tournament=tournament)
        .values("status")
        .order_by()
        .annotate(n=Count("id"))
    )
    for row in rows:
        counts[row["status"]] = row["n"]
    return counts


def push_subscription_count(user: Any) -> int:
    """How many of the player's phones and browsers are subscribed to push."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return PushSubscription.objects.filter(user=user).count()
