"""Back-office views of notifications. Read-only: settings change through the organiser's page
or the API (services, audited) and deliveries only through the sending task."""

from django.contrib import admin

from config.admin_views import ReadOnlyAdmin
from notifications.models import Delivery, NotificationSettings, PushSubscription


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "email_kinds", "webhook_kinds", "updated_at")
    search_fields = ("tournament__name", "tournament__slug")
    exclude = ("webhook_url",)  # its path is a secret token


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "tournament",
        "kind",
        "channel",
        "recipient",
        "status",
        "attempts",
    )
    list_filter = ("status", "kind", "channel")
    search_fields = ("tournament__slug", "key")
    raw_id_fields = ("tournament", "recipient")
    date_hierarchy = "created_at"


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyAdmin):
    list_display = ("user", "created_at", "last_success_at", "user_agent")
    search_fields = ("user__username", "user__player_id")
    raw_id_fields = ("user",)
    # The browser's keys and its push address are the player's, not the back office's.
    exclude = ("endpoint", "p256dh", "auth")
