"""API input and output shapes. Input serializers validate types; services decide the rest."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.validators import validate_name
from config import fields as input_fields
from engine.games import default_game, game_choices, get_game
from tournaments.models import (
    TOP_CUT_CHOICES,
    AuditEntry,
    ClockMode,
    CutPolicy,
    FirstRoundPairing,
    LateEntryPolicy,
    Registration,
    RegistrationMode,
    StageCarry,
    StageKind,
    StageStatus,
    Team,
    Tournament,
)
from tournaments.roster_csv import MAX_ROSTER_BYTES
from tournaments.services import EDITABLE_FIELDS
from tournaments.status import EventStatus


class EventOutput(serializers.ModelSerializer):
    format_label = serializers.CharField(read_only=True)
    tiebreaker_order = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="The organiser's order of the Swiss tiebreakers (registry keys); empty: the "
        "game's order.",
    )
    registered_count = serializers.SerializerMethodField()
    organisers = serializers.SerializerMethodField()
    organisation = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="The slug of the organisation running the event (null: none); set through "
        "POST /api/organisations/{slug}/events/.",
    )

    class Meta:
        model = Tournament
        fields = (
            "id",
            "slug",
            *EDITABLE_FIELDS,
            "format_label",
            "status",
            "player_check_in_open",
            "decklists_published_at",
            "registered_count",
            "organisers",
            "lottery_commitment",
            "lottery_drawn_at",
            "organisation",
        )

    def get_registered_count(self, obj: Tournament) -> int:
        annotated = getattr(obj, "registered_count", None)
        if annotated is not None:
            return int(annotated)
        return obj.registrations.filter(status="registered").count()

    def get_organisers(self, obj: Tournament) -> list[str]:
        return [u.public_name for u in obj.organisers.all()]


class StageEntrySchema(serializers.Serializer):
    """A stage's entry rule (event-structures: Stages): exactly one of top, points, players."""

    # "from" is a Python keyword: the field is named in the schema by `source` below.
    top = serializers.IntegerField(required=False, min_value=2, max_value=256)
    points = serializers.IntegerField(required=False, min_value=0)
    players = serializers.ListField(child=serializers.IntegerField(), required=False)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = serializers.ListField(
            child=serializers.IntegerField(min_value=1),
            required=False,
            help_text="The earlier stages (numbers) whose finishers are eligible; several "
            "are flights, merged by points and tiebreakers.",
        )
        return fields


class StageInput(serializers.Serializer):
    """One stage as POST/PATCH /api/events/ take it (event-structures: Stages)."""

    name = serializers.CharField(max_length=64, required=False)
    kind = serializers.ChoiceField(choices=StageKind.choices)
    rounds = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=64,
        help_text="Left out: Swiss plays the recommended count, elimination runs to a "
        "champion, round robin plays everyone once.",
    )
    match_structure = serializers.CharField(required=False, help_text="Left out: the event's.")
    round_minutes = serializers.IntegerField(
        required=False, min_value=5, max_value=600, help_text="Left out: the event's."
    )
    entry = StageEntrySchema(required=False, help_text="Every stage but the first: who enters it.")
    carry = serializers.ChoiceField(choices=StageCarry.choices, required=False, default="none")


class StageOutput(StageInput):
    """A stage as GET /api/events/{slug}/stages/ shows it."""

    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=StageStatus.choices)
    players = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Once started: the registration ids, in seed order.",
    )


@extend_schema_field(StageInput(many=True))
class StagesField(serializers.JSONField):
    """The contract's stage list, checked whole by the service (errors name the path,
    ``stages[1].entry.top``)."""


class EventInput(serializers.Serializer):
    name = serializers.CharField(max_length=120, validators=[validate_name])
    game = serializers.ChoiceField(choices=game_choices(), default=default_game)
    # Left out of a new event: the game's own defaults (its plugin's), see `validate`.
    mode = serializers.CharField(max_length=30, required=False)
    format_key = serializers.CharField(max_length=40, required=False)
    format_params = serializers.DictField(required=False)
    require_legal_decklist = input_fields.BooleanField(required=False)
    match_structure = serializers.CharField(max_length=10, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=10_000)
    starts_at = serializers.DateTimeField()
    time_zone = serializers.CharField(max_length=64, default="UTC")
    venue = serializers.CharField(
        required=False, allow_blank=True, max_length=200, validators=[validate_name]
    )
    city = serializers.CharField(
        required=False, allow_blank=True, max_length=100, validators=[validate_name]
    )
    capacity = serializers.IntegerField(
        required=False, allow_null=True, min_value=2, max_value=100_000
    )
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    decklist_deadline = serializers.DateTimeField(required=False, allow_null=True)
    round_minutes = serializers.IntegerField(required=False, min_value=5, max_value=600)
    planned_rounds = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=30
    )
    top_cut_size = serializers.ChoiceField(choices=[c[0] for c in TOP_CUT_CHOICES], required=False)
    first_round_pairing = serializers.ChoiceField(choices=FirstRoundPairing.choices, required=False)
    late_entry_policy = serializers.ChoiceField(choices=LateEntryPolicy.choices, required=False)
    cut_policy = serializers.ChoiceField(choices=CutPolicy.choices, required=False)
    start_timer_on_publish = input_fields.BooleanField(required=False)
    auto_confirm_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=240
    )
    hide_standings_before_final = input_fields.BooleanField(required=False)
    judges_may_check_in = input_fields.BooleanField(required=False)
    clock_mode = serializers.ChoiceField(
        choices=ClockMode.choices,
        required=False,
        help_text="The match clock: off, per_game (each game starts with full time) or "
        "per_match (the time carries over between games). Left out on create: per_game when "
        "the game recommends a clock, off otherwise.",
    )
    clock_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=600,
        help_text="Minutes each player has; null: the game's recommendation (a game without "
        "one needs a number when the clock is on).",
    )
    clock_delay_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=600,
        help_text="The delay each turn before a player's time runs; null: the game's "
        "recommendation (0 when it has none).",
    )

    team = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text='A team event (event-structures: Teams): {"players", "roster_max", '
        '"head_coach"}; null: played by individuals. Settled before the event runs and before '
        "any team is formed.",
    )
    team_rules = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text='What a team preset adds: {"preset": "apex_madness" | "hilo_madness", '
        '"low_power_boards": [board numbers], "head_coach_board": n, "formats": {"player": '
        'format, "head_coach": format}}, each optional (docs/teams.md). A preset without '
        "`team` takes the preset's team configuration.",
    )

    stages = StagesField(
        required=False,
        help_text="The event's stages in order (event-structures: Stages); left out: one Swiss "
        "stage, then a single elimination of the top top_cut_size when it has a top cut. "
        "Replaced by a PATCH until the event starts.",
    )
    tiebreaker_order = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        max_length=20,
        help_text="The Swiss tiebreakers after match points, in order (keys such as omw, gw, "
        "ogw, h2h, and the game's own: battle_diff for BoBA); empty: the game's order.",
    )

    registration_mode = serializers.ChoiceField(
        choices=RegistrationMode.choices,
        required=False,
        help_text="first_come (default) or lottery: entries until lottery_deadline, then a "
        "draw with a seed committed to beforehand (needs capacity and lottery_deadline).",
    )
    lottery_deadline = serializers.DateTimeField(required=False, allow_null=True)
    entry_fee = serializers.DecimalField(
        max_digits=8, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    entry_fee_currency = serializers.CharField(
        max_length=3, required=False, allow_blank=True, help_text="ISO 4217, like EUR."
    )

    def validate(self, attrs: dict) -> dict:  # type: ignore[type-arg]
        """A new event's mode, format and match structure default to its game's (the
        plugin's); whether a given one belongs to the game is the service's check (a 400
        naming the field). An update changes only what it sends."""
        attrs = super().validate(attrs)
        if not self.partial:
            game = get_game(attrs.get("game") or default_game())
            attrs.setdefault("mode", game.default_mode)
            attrs.setdefault("format_key", game.default_format)
            attrs.setdefault("match_structure", game.default_match_structure)
        return attrs


class TransitionInput(serializers.Serializer):
    to = serializers.ChoiceField(choices=[s.value for s in EventStatus])
    confirm = input_fields.BooleanField(
        required=False, default=False, help_text="Cancelling is final: send true to go on."
    )
    no_shows = serializers.ChoiceField(
        choices=["drop", "keep"],
        required=False,
        allow_null=True,
        default=None,
        help_text="Starting (running) with some players not checked in: drop or keep them.",
    )


class CheckInDeskInput(serializers.Serializer):
    registrations = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
        required=False,
        max_length=200,
        help_text="Registration ids to check in at once.",
    )
    code = serializers.CharField(
        required=False, max_length=200, help_text="A scanned player id, QR text or claim code."
    )

    def validate(self, attrs: dict) -> dict:  # type: ignore[type-arg]
        if bool(attrs.get("registrations")) == bool(attrs.get("code")):
            raise serializers.ValidationError(
                {"registrations": ["Send either registrations (ids) or code."]}
            )
        return attrs


class JudgeInput(serializers.Serializer):
    player_id = serializers.CharField(max_length=12)
    assigned = input_fields.BooleanField(default=True)
    head = input_fields.BooleanField(default=False, help_text="Make them the head judge.")


class PlayerCheckInInput(serializers.Serializer):
    open = input_fields.BooleanField()


class RegistrationOutput(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)
    player_id = serializers.SerializerMethodField()
    checked_in = serializers.BooleanField(read_only=True)
    dropped = serializers.BooleanField(read_only=True)
    event = serializers.SlugRelatedField(source="tournament", slug_field="slug", read_only=True)

    class Meta:
        model = Registration
        fields = (
            "id",
            "event",
            "name",
            "player_id",
            "status",
            "checked_in",
            "checked_in_at",
            "dropped",
            "drop_round",
            "created_at",
            "bye_rounds",
            "invitation",
        )

    def get_player_id(self, obj: Registration) -> str | None:
        return obj.player.player_id if obj.player_id else None


class RegistrationStaffOutput(RegistrationOutput):
    """What the event's staff see. A walk-in's claim code links the registration to whoever
    types it, so only the event's organisers see it: pass ``context={"organiser": True}``;
    for judges it is null."""

    claim_code = serializers.SerializerMethodField()

    class Meta(RegistrationOutput.Meta):
        fields = (
            *RegistrationOutput.Meta.fields,
            "walk_in_name",
            "claim_code",
            "queued_at",
            "draw_position",
            "fee_status",
        )

    def get_claim_code(self, obj: Registration) -> str | None:
        return obj.claim_code if self.context.get("organiser") is True else None


class WalkInInput(serializers.Serializer):
    name = serializers.CharField(max_length=80, validators=[validate_name])
    over_capacity = input_fields.BooleanField(default=False)


class RosterImportInput(serializers.Serializer):
    """A roster CSV, pasted (`csv`) or uploaded (`file`): name, email, player_id, decklist."""

    csv = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False, max_length=MAX_ROSTER_BYTES
    )
    file = serializers.FileField(required=False, max_length=200)
    dry_run = input_fields.BooleanField(default=False)
    over_capacity = input_fields.BooleanField(default=False)

    def validate_file(self, value: Any) -> Any:
        # Refused by its size before anyone reads it.
        if value is not None and (value.size or 0) > MAX_ROSTER_BYTES:
            raise serializers.ValidationError(
                f"at most {MAX_ROSTER_BYTES // 1024:,} KB; split the roster."
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("csv")) == bool(attrs.get("file")):
            raise serializers.ValidationError(
                {"csv": "give the roster as csv or as file, one of them."}
            )
        return attrs


class CheckInInput(serializers.Serializer):
    checked_in = input_fields.BooleanField(default=True)


class ClaimInput(serializers.Serializer):
    claim_code = serializers.CharField(max_length=20)


class DropInput(serializers.Serializer):
    # drop_round is a PositiveSmallIntegerField: anything above its range was a 500.
    round_number = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=32767
    )


class RemoveInput(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)
    confirm = input_fields.BooleanField(
        required=False, default=False, help_text="The place goes to the waitlist: send true."
    )


class AuditOutput(serializers.ModelSerializer):
    actor = serializers.SerializerMethodField()
    before = serializers.SerializerMethodField()
    after = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField()

    class Meta:
        model = AuditEntry
        fields = (
            "id",
            "created_at",
            "actor",
            "action",
            "target",
            "registration",
            "data",
            "before",
            "after",
            "reason",
        )

    def get_actor(self, obj: AuditEntry) -> str | None:
        return obj.actor.public_name if obj.actor_id else None

    # Result changes carry these in data; lifted to the top for the event API's audit trail.
    def get_before(self, obj: AuditEntry) -> dict | None:  # type: ignore[type-arg]
        return obj.data.get("before")

    def get_after(self, obj: AuditEntry) -> dict | None:  # type: ignore[type-arg]
        return obj.data.get("after")

    def get_reason(self, obj: AuditEntry) -> str:
        return str(obj.data.get("reason") or "")


class TeamRosterEntry(serializers.Serializer):
    registration = serializers.IntegerField()
    name = serializers.CharField()


class TeamOutput(serializers.ModelSerializer):
    """A team (event-structures: Teams): `members` are registration ids; `roster` adds their
    names."""

    members = serializers.SerializerMethodField()
    head_coach = serializers.IntegerField(source="head_coach_id", allow_null=True)
    roster = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ("id", "name", "members", "head_coach", "roster")

    def get_members(self, obj: Team) -> list[int]:
        return [m.registration_id for m in obj.members.all()]

    @extend_schema_field(TeamRosterEntry(many=True))
    def get_roster(self, obj: Team) -> list[dict[str, Any]]:
        return [
            {"registration": m.registration_id, "name": m.registration.name}
            for m in obj.members.all()
        ]


class TeamInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    # Read as JSON: the service names `members` in every refusal (ids of this event...).
    members = serializers.JSONField(help_text="Registration ids (a list).")
    head_coach = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1
    )
