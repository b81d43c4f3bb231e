"""Back-office views of notifications. Read-only: settings change through the organiser's page
or the API (services, audited) and deliveries only through the sending task."""

from typing import Any

from django.contrib import admin

from notifications.models import Delivery, NotificationSettings


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


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
