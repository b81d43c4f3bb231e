from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "player_id", "email", "is_organiser", "is_staff")
    list_filter = ("is_organiser", "is_staff", "is_active")
    search_fields = ("username", "display_name", "player_id", "email")
    readonly_fields = ("player_id",)
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Battledesk", {"fields": ("display_name", "player_id", "is_organiser")}),
    )
