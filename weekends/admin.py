from django.contrib import admin

from weekends.models import Weekend, WeekendEvent


class WeekendEventInline(admin.TabularInline):
    model = WeekendEvent
    fk_name = "weekend"
    raw_id_fields = ("tournament", "template")
    extra = 0


@admin.register(Weekend)
class WeekendAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "venue", "starts_on", "ends_on")
    search_fields = ("name", "slug", "venue")
    raw_id_fields = ("organisers", "created_by")
    inlines = [WeekendEventInline]


@admin.register(WeekendEvent)
class WeekendEventAdmin(admin.ModelAdmin):
    list_display = ("weekend", "tournament", "kind", "template", "added_at")
    list_filter = ("kind",)
    raw_id_fields = ("weekend", "tournament", "template")
