from django.contrib import admin

from organisations.models import CalendarToken, Membership, Organisation, Suspension


class MembershipInline(admin.TabularInline):
    model = Membership
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "city")
    search_fields = ("name", "slug", "city")
    inlines = [MembershipInline]


@admin.register(Suspension)
class SuspensionAdmin(admin.ModelAdmin):
    list_display = ("organisation", "player", "starts_at", "until", "lifted_at")
    raw_id_fields = ("player", "created_by")
    list_filter = ("organisation",)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("organisation", "user", "role")
    raw_id_fields = ("user",)


@admin.register(CalendarToken)
class CalendarTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at")
    raw_id_fields = ("user",)
    exclude = ("token",)  # the secret is not shown
