"""API shapes for rounds, matches, results, standings and the top cut (../shared/spec/event-api.md).

Output fields of the contract keep their names; fields beyond it are additions.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.fields import FiniteFloatField, TextField
from engine import penalties
from matches import selectors
from matches.models import JudgeCall, Match, ResultVersion, Round, Ruling, TeamMatch
from matches.services import pairing_progress, records_before_round
from tournaments.models import TeamMember

MAX_ID = 2**63 - 1  # ids are BigAutoFields


class TimerOutput(serializers.Serializer):
    state = serializers.ChoiceField(choices=["not_started", "running", "paused"])
    ends_at = serializers.DateTimeField(allow_null=True)
    remaining_seconds = serializers.IntegerField()
    length_seconds = serializers.IntegerField()


class ResultOutput(serializers.Serializer):
    games = serializers.ListField(child=serializers.IntegerField(), min_length=3, max_length=3)
    battles = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), required=False
    )
    game_details = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Per game, what the event's game records of it (BOS: winner, bids, ether...).",
    )


class MatchOutput(serializers.ModelSerializer):
    a = serializers.IntegerField(source="a_id")
    b = serializers.IntegerField(source="b_id", allow_null=True)
    result = serializers.SerializerMethodField()
    a_name = serializers.SerializerMethodField()
    b_name = serializers.SerializerMethodField()
    round = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = (
            "id",
            "table",
            "a",
            "b",
            "status",
            "result",
            "reason",
            "a_name",
            "b_name",
            "round",
            "extension_minutes",
            "seed_a",
            "seed_b",
        )

    def get_result(self, obj: Match) -> dict[str, Any] | None:
        return obj.result_json(self.context.get("viewer"))

    def get_a_name(self, obj: Match) -> str:
        return obj.a.name

    def get_b_name(self, obj: Match) -> str | None:
        return obj.b.name if obj.b_id is not None else None

    def get_round(self, obj: Match) -> int:
        return int(obj.round.number)


class PlayerReportOutput(MatchOutput):
    """The answer to a report or a confirmation (the schema's view of it): the match, and for
    a player of it `message`, what the report did in words (matches.selectors.report_outcome)."""

    # Not read_only: the schema would then call it required, and staff answers have none.
    message = serializers.CharField(
        required=False,
        help_text="For a player of the match: final, waiting for the opponent, or disputed "
        "and a judge is coming, in words (the page's message).",
    )

    class Meta(MatchOutput.Meta):
        fields = (*MatchOutput.Meta.fields, "message")


class RoundMatchOutput(MatchOutput):
    """A match inside a round: the round is the enclosing object. `a_record`, `b_record`:
    each player's record going into the round (context "records", registration id ->
    "w-l-d"; null when the records are hidden, and b's for a bye)."""

    a_record = serializers.SerializerMethodField()
    b_record = serializers.SerializerMethodField()

    class Meta(MatchOutput.Meta):
        fields = (*(f for f in MatchOutput.Meta.fields if f != "round"), "a_record", "b_record")

    def _record(self, registration_id: int | None) -> str | None:
        records = self.context.get("records")
        if records is None or registration_id is None:
            return None
        return str(records.get(registration_id, "0-0-0"))

    def get_a_record(self, obj: Match) -> str | None:
        return self._record(obj.a_id)

    def get_b_record(self, obj: Match) -> str | None:
        return self._record(obj.b_id)


class RoundSummaryOutput(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ("number", "stage", "stage_number", "name", "status")


class RoundOutput(serializers.ModelSerializer):
    ends_at = serializers.SerializerMethodField()
    timer = serializers.SerializerMethodField()
    matches = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = (
            "number",
            "stage",
            "stage_number",
            "name",
            "status",
            "ends_at",
            "matches",
            "published_at",
            "finished_at",
            "timer",
            "progress",
            "pairing_error",
            "version",
        )

    def _timer(self, obj: Round) -> selectors.TimerView:
        return selectors.timer_view(obj, timezone.now())

    def get_ends_at(self, obj: Round) -> str | None:
        ends = self._timer(obj).ends_at
        return serializers.DateTimeField().to_representation(ends) if ends else None

    def get_timer(self, obj: Round) -> dict[str, Any]:
        return dict(TimerOutput(self._timer(obj)).data)

    def get_matches(self, obj: Round) -> list[dict[str, Any]]:
        if self.context.get("without_matches"):
            return []  # the caller splices in a stored copy of them (matches.api)
        return round_matches_data(obj, self.context.get("registration"))

    def get_progress(self, obj: Round) -> int:
        return pairing_progress(obj)


def round_matches_data(round_: Round, registration: int | None = None) -> list[dict[str, Any]]:
    """A round's `matches` (with `registration`, only that player's); in a team event its
    team matches (event-structures: Teams), each with its boards and decider."""
    if round_.tournament.team is not None:
        return team_matches_data(round_, registration)
    # Computed once per round (the stored standings), not per match.
    records = None if selectors.records_hidden(round_) else records_before_round(round_)
    matches = selectors.round_matches(round_)
    if registration is not None:
        matches = matches.filter(Q(a_id=registration) | Q(b_id=registration))
    return list(RoundMatchOutput(matches, many=True, context={"records": records}).data)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 0},
        "minItems": 3,
        "maxItems": 3,
        "description": "[won by a, won by b, drawn]; the match's best-of and its game's draw "
        "rules bound them further (tournaments.results.check_result).",
    }
)
class GamesField(serializers.ListField):
    """Read as JSON and checked by the results rules, which name `games` in every refusal."""


class ReportInput(serializers.Serializer):
    games = GamesField(child=serializers.JSONField(), help_text="[won by a, won by b, drawn]")
    battles = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        allow_null=True,
        help_text="Per game, trophies won by a and by b (BoBA).",
    )
    game_details = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text="Per game played, in order, what the event's game records of it (BOS: "
        "winner, bids, chose_first, first, ether, swaps, end; docs/api.md). Checked by the "
        "game's rules; a game that records none refuses it.",
    )
    reason = TextField(required=False, allow_blank=True, max_length=500)
    confirm_override = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Staff only: enter this result although a player's different report waits "
        "for the opponent's confirmation (without it: 409 naming confirm_override).",
    )


class TimerInput(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "pause", "resume", "add"])
    minutes = serializers.IntegerField(required=False, default=0, min_value=-240, max_value=240)


class ExtensionInput(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=0, max_value=60)


class SwapInput(serializers.Serializer):
    first = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="registration id")
    second = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="registration id")


class TableInput(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=100_000)


class ConfirmInput(serializers.Serializer):
    confirm = serializers.BooleanField(required=False, default=False)


class MatchConfirmInput(serializers.Serializer):
    result_version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="the match's result_version you saw: a report changed since is a 409",
    )


class ResultVersionOutput(serializers.ModelSerializer):
    actor = serializers.SerializerMethodField()

    class Meta:
        model = ResultVersion
        fields = ("number", "change", "actor", "before", "after", "reason", "created_at")

    def get_actor(self, obj: ResultVersion) -> str | None:
        return obj.actor.public_name if obj.actor_id else None


class StandingRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    registration = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    record = serializers.CharField()
    dropped = serializers.BooleanField()
    tiebreakers = serializers.DictField()


class StandingsOutput(serializers.Serializer):
    round = serializers.IntegerField()
    stage = serializers.IntegerField(help_text="The stage the standings are of (1, 2, ...).")
    rows = StandingRowOutput(many=True)


class PlacingRowOutput(serializers.Serializer):
    place = serializers.IntegerField(min_value=1)
    registration = serializers.IntegerField(
        required=False, help_text="The player (absent in a team event, which places teams)."
    )
    team = serializers.IntegerField(
        required=False, help_text="The team, in a team event (instead of `registration`)."
    )
    name = serializers.CharField()
    stage = serializers.IntegerField(min_value=1, help_text="The last stage the entrant played.")
    eliminated_in = serializers.CharField(
        allow_null=True,
        help_text="The bracket round the entrant went out in (`Quarterfinals`, `Final`, "
        "`Losers round 2`); null for the champion, a player still in, or a Swiss or "
        "round-robin finish.",
    )


class PlacingsOutput(serializers.Serializer):
    final = serializers.BooleanField(help_text="False until the event's last stage is finished.")
    count = serializers.IntegerField(help_text="Rows in all (`limit` and `offset` page them).")
    rows = PlacingRowOutput(many=True)


class TopDecklistsInput(serializers.Serializer):
    top = serializers.IntegerField(
        min_value=1,
        max_value=256,
        default=8,
        help_text="Publish the decklists of places 1 to `top` (default 8).",
    )


class TopDecklistsOutput(serializers.Serializer):
    event = serializers.CharField()
    top = serializers.IntegerField()
    published = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Registrations whose list is public now, in place order.",
    )
    without_list = serializers.ListField(
        child=serializers.IntegerField(), help_text="Registrations in the top without a list."
    )


class RoundPairInput(serializers.Serializer):
    stage = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="The stage to pair (event-structures: Stages); needed only while several run "
        "side by side (flights).",
    )


class RoundCheckOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    name = serializers.CharField()
    detail = serializers.CharField()


class PairingOptionsInput(serializers.Serializer):
    bye_rounds = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=30),
        required=False,
        max_length=30,
        help_text="Rounds for which a bye was granted at registration (e.g. [1, 2]).",
    )
    seed = FiniteFloatField(
        required=False,
        allow_null=True,
        min_value=-1_000_000_000,
        max_value=1_000_000_000,
        help_text="A round-1 seed: higher seeds first.",
    )
    fixed_table = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=100_000
    )


class RulingOutput(serializers.ModelSerializer):
    judge = serializers.SerializerMethodField()

    class Meta:
        model = Ruling
        fields = (
            "id",
            "text",
            "citations",
            "decision",
            "result",
            "engine_version",
            "replay",
            "judge",
            "created_at",
        )

    def get_judge(self, obj: Ruling) -> str | None:
        return obj.judge.public_name if obj.judge_id else None


class CallOutput(serializers.ModelSerializer):
    match = serializers.IntegerField(source="match_id")
    event = serializers.SlugRelatedField(source="tournament", slug_field="slug", read_only=True)
    round = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    holder = serializers.SerializerMethodField()
    waiting_seconds = serializers.SerializerMethodField()
    rulings = serializers.SerializerMethodField()

    class Meta:
        model = JudgeCall
        fields = (
            "id",
            "status",
            "kind",
            "question",
            "notes",
            "match",
            "event",
            "round",
            "table",
            "players",
            "holder",
            "holder_id",
            "escalated",
            "opened_at",
            "claimed_at",
            "resolved_at",
            "waiting_seconds",
            "rulings",
        )

    def get_round(self, obj: JudgeCall) -> int:
        return int(obj.match.round.number)

    def get_table(self, obj: JudgeCall) -> int | None:
        return obj.match.table

    def get_players(self, obj: JudgeCall) -> list[str]:
        match = obj.match
        return [match.a.name] + ([match.b.name] if match.b_id is not None else [])

    def get_holder(self, obj: JudgeCall) -> str | None:
        return obj.holder.public_name if obj.holder_id else None

    def get_waiting_seconds(self, obj: JudgeCall) -> int:
        end = obj.resolved_at or timezone.now()
        return max(0, int((end - obj.opened_at).total_seconds()))

    def get_rulings(self, obj: JudgeCall) -> list[dict[str, Any]]:
        if self.context.get("brief"):
            return []
        return list(RulingOutput(obj.rulings.select_related("judge"), many=True).data)


class CallInput(serializers.Serializer):
    question = TextField(required=False, allow_blank=True, max_length=500)


class EscalateInput(serializers.Serializer):
    note = TextField(required=False, allow_blank=True, max_length=500)


class NoteInput(serializers.Serializer):
    note = TextField(max_length=500)


class RulingInput(serializers.Serializer):
    text = TextField(max_length=5000)
    citations = serializers.ListField(child=TextField(max_length=80), required=False, max_length=20)
    record = serializers.JSONField(required=False, allow_null=True)
    result = serializers.JSONField(required=False, allow_null=True)
    decision = serializers.ChoiceField(
        choices=["stands", "changed", "replayed", "other"], required=False
    )


# --- penalties ------------------------------------------------------------------------------


@extend_schema_field(
    {"type": "string", "enum": [infraction.key for infraction in penalties.CATALOGUE]}
)
class InfractionField(serializers.CharField):
    """Checked against the catalogue by the service (which names `infraction`)."""


class PenaltyInput(serializers.Serializer):
    registration = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The penalised player."
    )
    infraction = InfractionField(
        max_length=60, help_text="A key of the catalogue (GET /api/penalties/catalogue/)."
    )
    penalty = serializers.ChoiceField(
        choices=["caution", "warning", "game_loss", "match_loss", "disqualification"],
        required=False,
        allow_null=True,
        help_text="Default: the catalogue's suggestion, upgraded when the infraction repeats.",
    )
    note = TextField(required=False, allow_blank=True, max_length=2000)


class PenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.CharField(source="tournament.slug")
    event_name = serializers.CharField(source="tournament.name")
    match = serializers.IntegerField(source="match_id")
    round = serializers.IntegerField(source="match.round.number")
    table = serializers.IntegerField(source="match.table", allow_null=True)
    registration = serializers.IntegerField(source="registration_id")
    player = serializers.CharField(source="registration.name")
    category = serializers.CharField()
    infraction = serializers.CharField()
    infraction_label = serializers.CharField()
    penalty = serializers.CharField()
    suggested = serializers.CharField()
    repeat = serializers.IntegerField()
    upgrade_suggested = serializers.BooleanField()
    note = serializers.CharField()
    judge = serializers.SerializerMethodField()
    applied_to_result = serializers.BooleanField()
    outcome = serializers.CharField()
    created_at = serializers.DateTimeField()

    def get_judge(self, obj: Any) -> str | None:
        return obj.judge.public_name if obj.judge_id else None


# --- team events (event-structures: Teams) ----------------------------------------------------


class BoardOutput(serializers.Serializer):
    id = serializers.IntegerField()
    board = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    a = serializers.IntegerField()
    b = serializers.IntegerField()
    a_name = serializers.CharField()
    b_name = serializers.CharField()
    status = serializers.CharField()
    result = ResultOutput(allow_null=True)
    low_power_wins = serializers.BooleanField(
        help_text='HiLo: the board is played "low power wins".'
    )


class TeamMatchResultOutput(serializers.Serializer):
    boards = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=3,
        max_length=3,
        help_text="[won by a, won by b, drawn] over the final boards.",
    )
    decider = serializers.CharField(
        allow_null=True, help_text='"a" or "b": the deciding game\'s winner; null: none (yet).'
    )


class TeamMatchOutput(serializers.Serializer):
    """A team match: `a`, `b` team ids (`b` null for a bye); each board an ordinary match."""

    id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    a = serializers.IntegerField()
    b = serializers.IntegerField(allow_null=True)
    a_name = serializers.CharField()
    b_name = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=["pending", "final"])
    result = TeamMatchResultOutput()
    reason = serializers.CharField()
    boards = BoardOutput(many=True)
    decider = BoardOutput(allow_null=True)
    version = serializers.IntegerField()


def _board_json(match: Match) -> dict[str, Any]:
    return {
        "id": match.pk,
        "board": match.board,
        "table": match.table,
        "a": match.a_id,
        "b": match.b_id,
        "a_name": match.a.name,
        "b_name": match.b.name if match.b_id is not None else None,
        "status": match.status,
        "result": match.result_json(None),
        "low_power_wins": match.low_power_wins,
    }


def team_match_json(tm: TeamMatch, boards: list[Match]) -> dict[str, Any]:
    """The contract's team match: its result from the boards, the boards in order and the
    decider (null unless a tied team match has one)."""
    decider = next((m for m in boards if m.is_decider), None)
    return {
        "id": tm.pk,
        "table": tm.table,
        "a": tm.team_a_id,
        "b": tm.team_b_id,
        "a_name": tm.team_a.name,
        "b_name": tm.team_b.name if tm.team_b_id is not None else None,
        "status": tm.status,
        "result": {
            "boards": [tm.boards_a, tm.boards_b, tm.boards_drawn],
            "decider": tm.decider or None,
        },
        "reason": tm.reason,
        "boards": [
            _board_json(m) for m in sorted(boards, key=lambda m: m.board or 0) if not m.is_decider
        ],
        "decider": _board_json(decider) if decider is not None else None,
        "version": tm.version,
    }


def team_matches_data(round_: Round, registration: int | None = None) -> list[dict[str, Any]]:
    """A team round's team matches (with `registration`, those its player's team plays)."""
    team_matches = list(
        TeamMatch.objects.filter(round=round_)
        .select_related("team_a", "team_b")
        .order_by("table", "id")
    )
    if registration is not None:
        team_ids = set(
            TeamMember.objects.filter(registration_id=registration).values_list(
                "team_id", flat=True
            )
        )
        team_matches = [tm for tm in team_matches if {tm.team_a_id, tm.team_b_id} & team_ids]
    boards: dict[int, list[Match]] = {tm.pk: [] for tm in team_matches}
    rows = Match.objects.filter(round=round_, team_match_id__in=list(boards)).select_related(
        "round__tournament", "a__player", "b__player"
    )
    for match in rows:
        assert match.team_match_id is not None
        boards[match.team_match_id].append(match)
    return [team_match_json(tm, boards[tm.pk]) for tm in team_matches]


class LineupInput(serializers.Serializer):
    # Read as JSON: the service names the field in every refusal.
    team = serializers.JSONField(help_text="The team's id.")
    players = serializers.JSONField(help_text="Registration ids in board order.")


class TeamStandingRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    record = serializers.CharField()
    dropped = serializers.BooleanField()
    tiebreakers = serializers.DictField()
    byes = serializers.IntegerField()
    match_win_pct = serializers.FloatField()
    games = serializers.ListField(child=serializers.IntegerField())
