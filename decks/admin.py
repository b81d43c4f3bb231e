from django.contrib import admin

from decks.models import Card, CardImport, DeckCheck, DeckCheckResult, Decklist, DecklistVersion


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "kind",
        "set_name",
        "card_number",
        "parallel",
        "weapon",
        "power",
        "cost",
        "dbs",
    )
    list_filter = ("game", "kind", "weapon", "set_name")
    search_fields = ("name", "card_number", "external_id")


@admin.register(CardImport)
class CardImportAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "status",
        "created_count",
        "updated_count",
        "unchanged_count",
        "created_at",
    )
    list_filter = ("status", "game")
    exclude = ("payload",)
    readonly_fields = ("rejections",)


class DecklistVersionInline(admin.TabularInline):
    model = DecklistVersion
    extra = 0
    fields = ("number", "legal", "format_key", "submitted_by", "entered_by_staff", "submitted_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Decklist)
class DecklistAdmin(admin.ModelAdmin):
    list_display = ("registration", "unlocked", "created_at")
    raw_id_fields = ("registration",)
    inlines = [DecklistVersionInline]


@admin.register(DecklistVersion)
class DecklistVersionAdmin(admin.ModelAdmin):
    """Versions are immutable: the admin shows them and never edits them."""

    list_display = ("decklist", "number", "legal", "format_key", "submitted_at")
    list_filter = ("legal", "format_key")

    def has_change_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


class DeckCheckResultInline(admin.TabularInline):
    model = DeckCheckResult
    extra = 0
    raw_id_fields = ("registration", "version")


@admin.register(DeckCheck)
class DeckCheckAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round_number", "requested", "seed", "created_at")
    inlines = [DeckCheckResultInline]


@admin.register(DeckCheckResult)
class DeckCheckResultAdmin(admin.ModelAdmin):
    list_display = ("deck_check", "registration", "outcome", "checked_by", "checked_at")
    list_filter = ("outcome",)
    raw_id_fields = ("registration", "version")
