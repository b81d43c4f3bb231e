"""REST API of the match clock (docs/api.md, "Match clock"): thin views over
matches.clock_services."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import validated
from matches import clock_services, selectors
from matches.clock import KINDS


class ClockPressInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(KINDS))
    side = serializers.ChoiceField(choices=["a", "b"], required=False, allow_blank=True)
    payload = serializers.DictField(required=False, allow_empty=True)
    expected_seq = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="The clock's seq as the client last saw it: 0 before the first press.",
    )

    def validate_payload(self, value: dict) -> dict:  # type: ignore[type-arg]
        if len(value) > 5:
            raise serializers.ValidationError("At most 5 keys.")
        return value


ClockOutput = inline_serializer(
    "MatchClock",
    fields={
        "match": serializers.IntegerField(),
        "clock_mode": serializers.CharField(help_text="off, per_game or per_match"),
        "enabled": serializers.BooleanField(),
        "seq": serializers.IntegerField(help_text="The last press's seq (0: none yet)."),
        "events": serializers.IntegerField(),
        "server_now": serializers.DateTimeField(),
        "players": serializers.DictField(child=serializers.CharField(allow_null=True)),
        "match_status": serializers.CharField(),
        "mode": serializers.CharField(allow_null=True),
        "phase": serializers.CharField(
            allow_null=True, help_text="ready, running, between_games or over"
        ),
        "game": serializers.IntegerField(),
        "active": serializers.CharField(allow_null=True),
        "paused": serializers.BooleanField(),
        "running": serializers.BooleanField(),
        "remaining_ms": serializers.DictField(child=serializers.IntegerField(), allow_null=True),
        "delay_left_ms": serializers.IntegerField(),
        "flagged": serializers.CharField(allow_null=True),
    },
)


@extend_schema(
    methods=["GET"],
    responses=ClockOutput,
    description="The match clock at the server's now (players of the match and the event's "
    "staff): remaining milliseconds per side, the active side, the delay left this turn. "
    "Clients count down from it themselves and poll every few seconds.",
)
@extend_schema(
    methods=["POST"],
    request=ClockPressInput,
    responses={200: ClockOutput},
    description="Press the clock: start (payload.first), turn, pause, resume, game_end "
    "(payload.winner), flag (side; accepted only when that side's time is at 0 on the "
    "server), adjust (staff; side, payload.add_ms or set_ms, payload.reason). 409 with "
    "code stale_seq and the current state in `clock` when expected_seq is not the last seq; "
    "409 when the press does not apply now.",
)
@api_view(["GET", "POST"])
def match_clock(request: Request, pk: int) -> Response:
    match = selectors.match_visible(request.user, pk)
    if request.method == "GET":
        view = clock_services.clock_view(actor=request.user, match=match)
        return Response(view.to_json())
    data = validated(ClockPressInput, request.data)
    view = clock_services.press(
        actor=request.user,
        match=match,
        kind=data["kind"],
        side=data.get("side", ""),
        payload=data.get("payload"),
        expected_seq=data["expected_seq"],
    )
    return Response(view.to_json())
