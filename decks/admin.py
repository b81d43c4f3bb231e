from django.contrib import admin

from decks import services
from decks.models import (
    Card,
    CardImport,
    CardVersion,
    Catalog,
    DeckCheck,
    DeckCheckResult,
    Decklist,
    DecklistVersion,
    EventCatalog,
)
from tournaments.admin_audit import AuditedAdmin


@admin.register(Catalog)
class CatalogAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "game", "kind", "owner", "created_at")
    list_filter = ("game", "kind")
    search_fields = ("name", "slug")
    raw_id_fields = ("owner",)


@admin.register(EventCatalog)
class EventCatalogAdmin(admin.ModelAdmin):
    list_display = ("tournament", "catalog", "chosen_by", "chosen_at")
    raw_id_fields = ("tournament", "chosen_by")


class CardVersionInline(admin.TabularInline):
    model = CardVersion
    fk_name = "card"
    extra = 0
    fields = ("changed_at", "changed_by", "source", "card_import", "before", "after")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(CardVersion)
class CardVersionAdmin(admin.ModelAdmin):
    """A card's history: kept, never edited."""

    list_display = ("external_id", "catalog", "source", "changed_by", "changed_at")
    list_filter = ("source", "catalog")
    search_fields = ("external_id",)

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    """Cards changed here keep their history like imported ones (a CardVersion per save)."""

    inlines = [CardVersionInline]
    list_display = (
        "catalog",
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
    list_filter = ("catalog", "game", "kind", "weapon", "set_name")
    search_fields = ("name", "card_number", "external_id")

    def save_model(self, request, obj, form, change) -> None:  # type: ignore[no-untyped-def]
        before = services.card_fields(Card.objects.get(pk=obj.pk)) if change and obj.pk else None
        super().save_model(request, obj, form, change)
        if before is not None:
            services.card_change_record(actor=request.user, card=obj, before=before, source="admin")


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
class DecklistAdmin(AuditedAdmin):
    list_display = ("registration", "unlocked", "created_at")
    raw_id_fields = ("registration",)
    inlines = [DecklistVersionInline]


@admin.register(DecklistVersion)
class DecklistVersionAdmin(AuditedAdmin):
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
class DeckCheckAdmin(AuditedAdmin):
    list_display = ("tournament", "round_number", "requested", "seed", "created_at")
    inlines = [DeckCheckResultInline]


@admin.register(DeckCheckResult)
class DeckCheckResultAdmin(AuditedAdmin):
    list_display = ("deck_check", "registration", "outcome", "checked_by", "checked_at")
    list_filter = ("outcome",)
    raw_id_fields = ("registration", "version")
