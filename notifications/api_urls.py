"""The notifications API under /api/ (notifications/api.py)."""

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
]
