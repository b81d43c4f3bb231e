from django.contrib import admin

from config.admin_views import ReadOnlyAdmin
from overlays.models import FeatureMatch


@admin.register(FeatureMatch)
class FeatureMatchAdmin(ReadOnlyAdmin):
    """Read-only: feature matches are marked by the organisers' service (audited)."""

    list_display = ("tournament", "round", "slot", "match", "marked_by", "marked_at")
    list_filter = ("slot",)
    search_fields = ("tournament__slug",)
