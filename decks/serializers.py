from __future__ import annotations

from rest_framework import serializers

from config import fields as input_fields
from decks.models import Card, CardImport, Catalog, DeckCheck, DeckCheckResult, DecklistVersion
from decks.services import UPDATE_FIELDS as CARD_MODEL_FIELDS
from engine.games import default_game, game_choices, get_game


class CardOutput(serializers.ModelSerializer):
    catalog = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Card
        fields = ("id", "game", "external_id", *CARD_MODEL_FIELDS, "catalog")


class CatalogOutput(serializers.ModelSerializer):
    owner = serializers.SerializerMethodField()
    cards = serializers.IntegerField(source="card_count", read_only=True, default=None)
    # Plain text, not an enum: "kind" names other choice sets in the schema already.
    kind = serializers.CharField(read_only=True, help_text="demo, official or custom")
    organisation = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="The slug of the organisation the catalog belongs to, if any.",
    )

    class Meta:
        model = Catalog
        fields = ("slug", "name", "game", "kind", "owner", "organisation", "cards")

    def get_owner(self, obj: Catalog) -> str | None:
        return obj.owner.public_name if obj.owner_id else None


class CatalogListOutput(serializers.Serializer):
    catalogs = CatalogOutput(many=True)
    default = serializers.DictField(
        child=serializers.CharField(), help_text="Each game's default catalog's slug, by game."
    )


class CatalogChoiceInput(serializers.Serializer):
    catalog = serializers.SlugField(max_length=80)


class CardImportOutput(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)
    rejected_count = serializers.IntegerField(read_only=True)
    catalog = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = CardImport
        fields = (
            "id",
            "game",
            "catalog",
            "status",
            "file_names",
            "total",
            "processed",
            "percent",
            "created_count",
            "updated_count",
            "unchanged_count",
            "rejected_count",
            "rejections",
            "error",
            "created_at",
            "finished_at",
        )


class CardImportInput(serializers.Serializer):
    game = serializers.ChoiceField(choices=game_choices(), default=default_game)
    catalog = serializers.SlugField(
        max_length=80,
        required=False,
        help_text="The catalog to import into (default: the official one for site "
        "administrators, the organiser's own catalog for everyone else).",
    )
    files = serializers.ListField(child=serializers.FileField(), min_length=1, max_length=5)


class DecklistSource(serializers.Serializer):
    """A list as text (the decklist format) or as its JSON form; exactly one of them."""

    text = serializers.CharField(required=False, allow_blank=False, trim_whitespace=False)
    data = serializers.JSONField(required=False)

    def validate(self, attrs: dict) -> dict:  # type: ignore[type-arg]
        if ("text" in attrs) == ("data" in attrs):
            raise serializers.ValidationError({"text": "Send the list as either `text` or `data`."})
        return attrs


class DecklistCheckInput(DecklistSource):
    game = serializers.ChoiceField(choices=game_choices(), default=default_game)
    format = serializers.CharField(
        max_length=40, required=False, help_text="A format of the game (default: the game's own)."
    )
    params = serializers.DictField(required=False)
    catalog = serializers.SlugField(
        max_length=80,
        required=False,
        help_text="The catalog's slug (default: the official catalog, the demo one while "
        "there is no official card).",
    )
    event = serializers.SlugField(
        max_length=140, required=False, help_text="Check against this event's catalog."
    )

    def validate(self, attrs: dict) -> dict:  # type: ignore[type-arg]
        attrs = super().validate(attrs)
        if not attrs.get("format"):
            attrs["format"] = get_game(attrs["game"]).default_format
        return attrs


class DecklistVersionOutput(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    submitted_by = serializers.SerializerMethodField()

    class Meta:
        model = DecklistVersion
        fields = (
            "id",
            "number",
            "player",
            "format_key",
            "legal",
            "report",
            "statistics",
            "text",
            "data",
            "submitted_by",
            "entered_by_staff",
            "submitted_at",
        )

    def get_player(self, obj: DecklistVersion) -> str:
        return obj.decklist.registration.name

    def get_submitted_by(self, obj: DecklistVersion) -> str | None:
        return obj.submitted_by.public_name if obj.submitted_by_id else None


class DecklistVersionSummary(serializers.ModelSerializer):
    class Meta:
        model = DecklistVersion
        fields = ("id", "number", "legal", "entered_by_staff", "submitted_at")


class UnlockInput(serializers.Serializer):
    unlocked = input_fields.BooleanField(default=True)


class PublishInput(serializers.Serializer):
    published = input_fields.BooleanField(default=True)


class DeckCheckInput(serializers.Serializer):
    round_number = serializers.IntegerField(min_value=1, max_value=100)
    count = serializers.IntegerField(min_value=1, max_value=1000)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)


class DeckCheckResultOutput(serializers.ModelSerializer):
    player = serializers.CharField(source="registration.name", read_only=True)
    version_number = serializers.IntegerField(source="version.number", read_only=True, default=None)

    class Meta:
        model = DeckCheckResult
        fields = (
            "id",
            "registration",
            "player",
            "version",
            "version_number",
            "outcome",
            "notes",
            "penalty_reference",
            "checked_at",
        )


class DeckCheckOutput(serializers.ModelSerializer):
    results = DeckCheckResultOutput(many=True, read_only=True)

    class Meta:
        model = DeckCheck
        fields = ("id", "round_number", "seed", "requested", "created_at", "results")


class DeckCheckRecordInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=DeckCheckResult.Outcome.values)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    penalty_reference = serializers.CharField(required=False, allow_blank=True, max_length=80)


class OrganisationCatalogInput(serializers.Serializer):
    game = serializers.ChoiceField(choices=game_choices())
    name = serializers.CharField(max_length=120)
