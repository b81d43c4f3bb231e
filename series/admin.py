"""Back-office views of series. Read-only: series change through their services (audited in
their events' trails)."""

from django.contrib import admin

from config.admin_views import ReadOnlyAdmin
from series.models import Series, SeriesEvent, SeriesQualification


@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "counting", "created_at", "closed_at")
    search_fields = ("name", "slug")


@admin.register(SeriesEvent)
class SeriesEventAdmin(ReadOnlyAdmin):
    list_display = ("series", "event", "added_at")


@admin.register(SeriesQualification)
class SeriesQualificationAdmin(ReadOnlyAdmin):
    list_display = ("series", "event", "invite_top", "bye_top", "applied_at")
