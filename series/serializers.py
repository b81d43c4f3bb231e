"""Input and output shapes of the series API (event-structures: Series)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from series.models import Series, SeriesCounting, SeriesQualification


class SeriesInput(serializers.Serializer):  # type: ignore[type-arg]
    name = serializers.CharField(max_length=120)
    # Checked by the series core (tournaments.series): a 400 names the offending key.
    points = serializers.JSONField()
    counting = serializers.ChoiceField(
        choices=SeriesCounting.choices, default=SeriesCounting.PLACINGS
    )
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    organisation = serializers.SlugField(
        max_length=140, required=False, help_text="The organisation running the series (slug)."
    )


class SeriesEventInput(serializers.Serializer):  # type: ignore[type-arg]
    event = serializers.SlugField(max_length=140)


class QualificationInput(serializers.Serializer):  # type: ignore[type-arg]
    event = serializers.SlugField(max_length=140)
    # Checked by the service (a 400 naming the field).
    invite_top = serializers.JSONField()
    bye_top = serializers.JSONField(required=False, default=0)
    bye_rounds = serializers.JSONField(required=False, default=list)


class QualificationOutput(serializers.ModelSerializer):  # type: ignore[type-arg]
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = SeriesQualification
        fields = ("id", "event", "invite_top", "bye_top", "bye_rounds", "applied_at")


class CloseInput(serializers.Serializer):  # type: ignore[type-arg]
    confirm = serializers.BooleanField(default=False)


class SeriesOutput(serializers.ModelSerializer):  # type: ignore[type-arg]
    events = serializers.SerializerMethodField()
    organisation = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    qualifications = QualificationOutput(many=True, read_only=True)

    class Meta:
        model = Series
        fields = (
            "slug",
            "name",
            "organisation",
            "points",
            "counting",
            "description",
            "events",
            "closed_at",
            "qualifications",
        )

    def get_events(self, series: Series) -> list[str]:
        return [entry.event.slug for entry in series.entries.all()]


class LeaderboardRowOutput(serializers.Serializer):  # type: ignore[type-arg]
    rank = serializers.IntegerField()
    player_id = serializers.CharField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    events = serializers.IntegerField(
        help_text="How many of the series' events the player has points from."
    )
    results = serializers.ListField(
        child=serializers.DictField(), help_text="Per event: event (slug), place, points."
    )


class LeaderboardOutput(serializers.Serializer):  # type: ignore[type-arg]
    count = serializers.IntegerField()
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    rows = LeaderboardRowOutput(many=True)


def series_json(series: Series) -> dict[str, Any]:
    return dict(SeriesOutput(series).data)


class InvitationOutput(serializers.Serializer):  # type: ignore[type-arg]
    event = serializers.CharField()
    player_id = serializers.CharField()
    rank = serializers.IntegerField()
    registration = serializers.IntegerField()
    bye_rounds = serializers.ListField(child=serializers.IntegerField())


class CloseOutput(serializers.Serializer):  # type: ignore[type-arg]
    series = SeriesOutput()
    invitations = InvitationOutput(many=True)
