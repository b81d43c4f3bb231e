"""Back-office views of rounds and results. Read-only: results change only through the
services, so every change keeps its version and audit entry."""

from django.contrib import admin

from config.admin_views import ReadOnlyAdmin
from matches.models import (
    ClockEvent,
    JudgeCall,
    Lineup,
    Match,
    Penalty,
    Report,
    ResultVersion,
    Round,
    Ruling,
    StandingsSnapshot,
    TeamMatch,
)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "stage", "status", "published_at", "finished_at")
    list_filter = ("stage", "status")
    search_fields = ("tournament__name", "tournament__slug")


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("round", "table", "a", "b", "status", "games_a", "games_b", "games_drawn")
    list_filter = ("status",)
    raw_id_fields = ("round", "a", "b")


@admin.register(ClockEvent)
class ClockEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "game", "kind", "side", "at", "actor")
    list_filter = ("kind",)
    raw_id_fields = ("match", "actor")


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("match", "registration", "games_a", "games_b", "games_drawn", "updated_at")
    raw_id_fields = ("match", "registration")


@admin.register(ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    list_display = ("match", "number", "change", "actor", "created_at")
    list_filter = ("change",)
    raw_id_fields = ("match",)


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ReadOnlyAdmin):
    list_display = ("round", "computed_at")
    exclude = ("rows",)


@admin.register(JudgeCall)
class JudgeCallAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "match", "kind", "status", "holder", "escalated", "opened_at")
    list_filter = ("kind", "status", "escalated")
    raw_id_fields = ("match", "tournament")


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    list_display = ("call", "judge", "decision", "created_at")
    list_filter = ("decision",)
    raw_id_fields = ("call",)
    exclude = ("replay",)


@admin.register(Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    list_display = (
        "tournament",
        "registration",
        "infraction",
        "penalty",
        "suggested",
        "applied_to_result",
        "judge",
        "created_at",
    )
    list_filter = ("penalty", "category")
    raw_id_fields = ("tournament", "match", "registration")


@admin.register(TeamMatch)
class TeamMatchAdmin(ReadOnlyAdmin):
    list_display = ("round", "table", "team_a", "team_b", "status")


@admin.register(Lineup)
class LineupAdmin(ReadOnlyAdmin):
    list_display = ("team_match", "team", "players")
