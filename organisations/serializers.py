"""The organisations API's bodies."""

from __future__ import annotations

from rest_framework import serializers

from accounts.validators import validate_name
from organisations.models import Membership, Organisation, Role, Suspension


class OrganisationInput(serializers.Serializer):
    name = serializers.CharField(max_length=120, validators=[validate_name])
    slug = serializers.SlugField(max_length=80, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=10_000)
    website = serializers.URLField(required=False, allow_blank=True, max_length=200)
    city = serializers.CharField(
        required=False, allow_blank=True, max_length=100, validators=[validate_name]
    )


class OrganisationOutput(serializers.ModelSerializer):
    website = serializers.CharField(
        max_length=200, allow_blank=True, help_text="The organisation's website, or empty."
    )

    class Meta:
        model = Organisation
        fields = ("id", "slug", "name", "description", "website", "city", "created_at")


class MemberInput(serializers.Serializer):
    user = serializers.IntegerField(help_text="The account's id.")
    role = serializers.ChoiceField(choices=Role.choices)


class MemberRoleInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class MemberOutput(serializers.ModelSerializer):
    name = serializers.CharField(source="user.public_name", read_only=True)
    player_id = serializers.CharField(source="user.player_id", read_only=True)

    class Meta:
        model = Membership
        fields = ("user", "name", "player_id", "role", "created_at")


class SuspensionInput(serializers.Serializer):
    player = serializers.IntegerField(help_text="The account's id.")
    starts_at = serializers.DateTimeField(required=False, help_text="Blank: now.")
    until = serializers.DateTimeField()
    reason = serializers.CharField(max_length=2000)
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Needed when the suspension cancels the player's registrations for the "
        "organisation's events that have not started (a 400 naming `confirm` lists them).",
    )


class SuspensionOutput(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.public_name", read_only=True)
    active = serializers.SerializerMethodField()

    class Meta:
        model = Suspension
        fields = (
            "id",
            "player",
            "player_name",
            "starts_at",
            "until",
            "reason",
            "created_at",
            "lifted_at",
            "active",
        )

    def get_active(self, obj: Suspension) -> bool:
        from django.utils import timezone

        now = timezone.now()
        return obj.lifted_at is None and obj.starts_at <= now < obj.until


class SuspendedOutput(SuspensionOutput):
    cancelled = serializers.SerializerMethodField(
        help_text="The slugs of the events whose registration the suspension cancelled."
    )

    class Meta(SuspensionOutput.Meta):
        fields = (*SuspensionOutput.Meta.fields, "cancelled")

    def get_cancelled(self, obj: Suspension) -> list[str]:
        return [str(slug) for slug in self.context.get("cancelled", [])]


class EventLinkInput(serializers.Serializer):
    event = serializers.SlugField(max_length=140, help_text="The event's slug.")


class CalendarEventOutput(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField()
    format_key = serializers.CharField()
    format_label = serializers.CharField()
    starts_at = serializers.DateTimeField()
    time_zone = serializers.CharField()
    venue = serializers.CharField()
    city = serializers.CharField()
    status = serializers.CharField()
    organisation = serializers.CharField(
        source="organisation.slug", allow_null=True, read_only=True, help_text="Its slug."
    )
    url = serializers.CharField(source="get_absolute_url")


class CalendarTokenOutput(serializers.Serializer):
    url = serializers.CharField(help_text="The private feed's address: keep it secret.")
