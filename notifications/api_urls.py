"""The notifications API under /api/ (notifications/api.py): an event's settings and log,
and a player's push subscriptions."""

from django.urls import path

from notifications import api

urlpatterns = [
    path(
        "events/<slug:slug>/notifications/",
        api.event_notifications,
        name="api-event-notifications",
    ),
    path(
        "events/<slug:slug>/notifications/deliveries/",
        api.event_deliveries,
        name="api-event-notification-deliveries",
    ),
    path(
        "events/<slug:slug>/notifications/webhook-secret/",
        api.webhook_secret_rotate,
        name="api-event-notification-webhook-secret",
    ),
    path("push/", api.push_config, name="api-push"),
    path("push/subscriptions/", api.push_subscribe, name="api-push-subscribe"),
    path(
        "push/subscriptions/unsubscribe/",
        api.push_unsubscribe,
        name="api-push-unsubscribe",
    ),
]
