"""Back-office view of archetypes. Read-only: they change through metagame.services (the
event's and series' pages and the API), which check the rule and the permission."""

from django.contrib import admin

from config.admin_views import ReadOnlyAdmin
from metagame.models import Archetype


@admin.register(Archetype)
class ArchetypeAdmin(ReadOnlyAdmin):
    list_display = ("name", "game", "priority", "tournament", "series", "organisation")
    list_filter = ("game",)
    search_fields = ("name",)
