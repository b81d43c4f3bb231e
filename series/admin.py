"""Back-office views of series. Read-only: series change through their services (audited in
their events' trails)."""

from django.contrib import admin

from series.models import Series, SeriesEvent, SeriesQualification


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


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
