"""API input and output shapes of weekends. Input serializers validate types; services decide
the rest."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.validators import validate_name
from weekends.models import Weekend, WeekendEvent, WeekendEventKind


class WeekendInput(serializers.Serializer):
    name = serializers.CharField(max_length=120, validators=[validate_name])
    venue = serializers.CharField(
        max_length=200, required=False, allow_blank=True, validators=[validate_name]
    )
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class WeekendOutput(serializers.ModelSerializer):
    organisers = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Weekend
        fields = ("id", "slug", "name", "venue", "starts_on", "ends_on", "organisers", "url")

    def get_organisers(self, obj: Weekend) -> list[str]:
        return [u.public_name for u in obj.organisers.all()]

    def get_url(self, obj: Weekend) -> str:
        return obj.get_absolute_url()


class WeekendEventOutput(serializers.Serializer):
    """One event of the weekend as its schedule shows it."""

    slug = serializers.CharField(source="tournament.slug")
    name = serializers.CharField(source="tournament.name")
    kind = serializers.ChoiceField(choices=WeekendEventKind.choices)
    starts_at = serializers.DateTimeField(source="tournament.starts_at")
    status = serializers.CharField(source="tournament.status")
    template = serializers.SerializerMethodField()
    current_round = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    @extend_schema_field({"type": "string", "nullable": True})
    def get_template(self, obj: WeekendEvent) -> str | None:
        return obj.template.slug if obj.template_id and obj.template else None

    @extend_schema_field(
        {
            "type": "object",
            "nullable": True,
            "properties": {
                "number": {"type": "integer"},
                "name": {"type": "string"},
                "status": {"type": "string"},
            },
        }
    )
    def get_current_round(self, obj: WeekendEvent) -> dict[str, Any] | None:
        number = getattr(obj, "current_round_number", None)
        if number is None:
            return None
        return {
            "number": number,
            "name": getattr(obj, "current_round_name", "") or "",
            "status": getattr(obj, "current_round_status", ""),
        }

    @extend_schema_field(
        {"type": "object", "additionalProperties": {"type": "string"}},
    )
    def get_links(self, obj: WeekendEvent) -> dict[str, str]:
        slug = obj.tournament.slug
        links = {
            "event": reverse("event_detail", args=[slug]),
            "standings": reverse("standings", args=[slug]),
        }
        number = getattr(obj, "current_round_number", None)
        if number is not None:
            links["pairings"] = reverse("round_pairings", args=[slug, number])
        return links


DECK_CONFLICTS_SCHEMA = {
    "type": "array",
    "description": "One entry per decklist entered by two or more players in the weekend's "
    "events (card for card); shown to the organisers of the weekend and of its events only.",
    "items": {
        "type": "object",
        "properties": {
            "fingerprint": {"type": "string"},
            "entries": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "event": {"type": "string"},
                        "registration": {"type": "integer"},
                        "player": {"type": "string"},
                        "player_id": {"type": "string"},
                    },
                },
            },
        },
    },
}


class WeekendDetailOutput(WeekendOutput):
    events = serializers.SerializerMethodField()
    deck_conflicts = serializers.SerializerMethodField()

    class Meta(WeekendOutput.Meta):
        fields = (*WeekendOutput.Meta.fields, "events", "deck_conflicts")

    @extend_schema_field(WeekendEventOutput(many=True))
    def get_events(self, obj: Weekend) -> list[dict[str, Any]]:
        return list(WeekendEventOutput(self.context["entries"], many=True).data)

    @extend_schema_field({**DECK_CONFLICTS_SCHEMA, "nullable": True})
    def get_deck_conflicts(self, obj: Weekend) -> list[dict[str, Any]] | None:
        conflicts = self.context.get("deck_conflicts")
        return None if conflicts is None else [c.to_json() for c in conflicts]


class WeekendEventInput(serializers.Serializer):
    event = serializers.SlugField(max_length=140, help_text="The event's slug.")
    kind = serializers.ChoiceField(choices=WeekendEventKind.choices, default=WeekendEventKind.SIDE)


class BadgeInput(serializers.Serializer):
    code = serializers.CharField(
        max_length=200, help_text="The player's badge: their player id or its QR code's text."
    )


class SideEventInput(serializers.Serializer):
    template = serializers.SlugField(max_length=140, help_text="The slug of the event to copy.")
    name = serializers.CharField(max_length=120, validators=[validate_name])
    starts_at = serializers.DateTimeField()
    kind = serializers.ChoiceField(
        choices=WeekendEventKind.choices,
        default=WeekendEventKind.LCQ,
        help_text="lcq (the default) or side; a weekend's main event is never launched so.",
    )


class OrganiserInput(serializers.Serializer):
    user = serializers.IntegerField(help_text="The account's id.")


class OrganiserOutput(serializers.Serializer):
    user = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="public_name")
    player_id = serializers.CharField()


class DeskRoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()


class DeskMatchOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    a = serializers.CharField(source="a.name")
    b = serializers.CharField(source="b.name", default="", allow_null=True)
    status = serializers.CharField()


class DeskCallOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="match.table", allow_null=True)
    kind = serializers.CharField()
    status = serializers.CharField()
    escalated = serializers.BooleanField()
    opened_at = serializers.DateTimeField()


class DeskEventOutput(serializers.Serializer):
    """One event the person staffs, as the weekend desk shows it (weekends.selectors.desk)."""

    event = serializers.CharField(source="event.slug")
    name = serializers.CharField(source="event.name")
    status = serializers.CharField(source="event.status")
    round = DeskRoundOutput(allow_null=True)
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="The current round's matches by status."
    )
    total = serializers.IntegerField(help_text="The current round's matches.")
    unreported = DeskMatchOutput(many=True, help_text="Matches not final yet (the first 50).")
    calls = DeskCallOutput(many=True, help_text="Open judge calls (the first 50).")
