from django.contrib import admin

from config.admin_views import ReadOnlyAdmin
from tournaments.admin_audit import AuditedAdmin
from tournaments.models import (
    AuditEntry,
    FeeChange,
    Registration,
    Stage,
    Team,
    TeamMember,
    Tournament,
)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ("player", "walk_in_name", "status", "checked_in_at", "dropped_at")
    raw_id_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(AuditedAdmin):
    list_display = ("name", "game", "format_key", "status", "starts_at", "capacity")
    list_filter = ("game", "status", "mode")
    search_fields = ("name", "slug", "venue")
    filter_horizontal = ("organisers", "judges")
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(AuditedAdmin):
    list_display = ("__str__", "status", "checked_in_at", "dropped_at", "created_at")
    list_filter = ("status",)
    search_fields = ("player__display_name", "player__player_id", "walk_in_name")
    raw_id_fields = ("player", "tournament")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "actor", "action", "target")
    list_filter = ("action",)
    readonly_fields = [f.name for f in AuditEntry._meta.fields]

    def has_change_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(Stage)
class StageAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "name", "kind", "started_at", "finished_at")
    list_filter = ("kind",)


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "name", "head_coach")
    search_fields = ("name",)


@admin.register(TeamMember)
class TeamMemberAdmin(ReadOnlyAdmin):
    list_display = ("team", "registration")


@admin.register(FeeChange)
class FeeChangeAdmin(ReadOnlyAdmin):
    list_display = ("registration", "was", "status", "actor", "created_at")
    list_filter = ("status",)
