"""Judge calls and rulings: the queue, claiming, handing back, escalating, notes, rulings, and
replaying a game record."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import validated
from config.errors import ServiceError
from config.pagination import Pagination
from config.schema import error_responses, paginated
from engine.games import get_game
from matches import selectors, services
from matches import serializers as s
from matches.api.common import check_api_details, event_of, match_of
from tournaments import permissions as perms


def _call_out(call: Any, *, brief: bool = False) -> dict[str, Any]:
    return dict(s.CallOutput(call, context={"brief": brief}).data)


@extend_schema(
    methods=["POST"],
    request=s.CallInput,
    responses={201: s.CallOutput, 200: s.CallOutput},
    description="A player of the match, or staff, calls a judge. An open call on the same "
    "match is returned (200) instead of a second one (201).",
)
@extend_schema(methods=["GET"], responses=s.CallOutput(many=True))
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticated])
def match_calls(request: Request, pk: int) -> Response:
    match = match_of(request, pk)
    if request.method == "GET":
        if not (
            perms.is_staff_of(request.user, match.round.tournament)
            or services.acting_side(request.user, match) is not None
        ):
            raise Http404("No such match.")
        return Response([_call_out(c) for c in match.calls.select_related("holder")])
    data = validated(s.CallInput, request.data)
    call, created = services.call_open(actor=request.user, match=match, **data)
    call = selectors.call_visible(request.user, call.pk, lean=True)
    return Response(
        _call_out(call), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
    )


@extend_schema(
    parameters=[
        OpenApiParameter("status", str, enum=list(selectors.QUEUE_FILTERS)),
        OpenApiParameter("sort", str, enum=list(selectors.QUEUE_SORTS)),
        OpenApiParameter("event", str, description="an event's slug"),
    ],
    responses={200: paginated(s.CallOutput), **error_responses(404)},
    operation_id="calls_list",
    description="The judges' queue across every running event the user judges or organises.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def calls(request: Request) -> Response:
    state = request.query_params.get("status", "open")
    sort = request.query_params.get("sort", "waiting")
    if state not in selectors.QUEUE_FILTERS:
        raise ServiceError(f"status: one of {', '.join(selectors.QUEUE_FILTERS)}.", field="status")
    if sort not in selectors.QUEUE_SORTS:
        raise ServiceError(f"sort: one of {', '.join(selectors.QUEUE_SORTS)}.", field="sort")
    event = None
    if request.query_params.get("event"):
        event = event_of(request, request.query_params["event"])
    qs = selectors.judge_queue(request.user, state=state, sort=sort, event=event)
    paginator = Pagination()
    page = paginator.paginate_queryset(qs, request)
    rows = s.CallOutput(page or [], many=True, context={"brief": True}).data
    return paginator.get_paginated_response(rows)


@extend_schema(responses=s.CallOutput)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def call_detail(request: Request, pk: int) -> Response:
    return Response(_call_out(selectors.call_visible(request.user, pk, lean=True)))


def _staff_call(request: Request, pk: int) -> Any:
    call = selectors.call_visible(request.user, pk, lean=True)
    perms.require_staff(request.user, call.tournament)
    return call


@extend_schema(request=None, responses=s.CallOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def call_claim(request: Request, pk: int) -> Response:
    call = services.call_claim(actor=request.user, call=_staff_call(request, pk))
    return Response(_call_out(selectors.call_visible(request.user, call.pk, lean=True)))


@extend_schema(
    request=None,
    parameters=[OpenApiParameter("event", str, description="an event's slug")],
    responses={200: s.CallOutput, 204: None, **error_responses(404)},
    description="Claim the call that has waited longest and nobody holds, across the events "
    "the user judges today (or one event); 204 when nothing is waiting.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def call_claim_next(request: Request) -> Response:
    event = None
    if request.query_params.get("event"):
        event = event_of(request, request.query_params["event"])
    call = services.call_claim_next(actor=request.user, event=event)
    if call is None:
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(_call_out(selectors.call_visible(request.user, call.pk, lean=True)))


@extend_schema(request=None, responses=s.CallOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def call_hand_back(request: Request, pk: int) -> Response:
    call = services.call_hand_back(actor=request.user, call=_staff_call(request, pk))
    return Response(_call_out(selectors.call_visible(request.user, call.pk, lean=True)))


@extend_schema(request=s.EscalateInput, responses=s.CallOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def call_escalate(request: Request, pk: int) -> Response:
    data = validated(s.EscalateInput, request.data)
    call = services.call_escalate(actor=request.user, call=_staff_call(request, pk), **data)
    return Response(_call_out(selectors.call_visible(request.user, call.pk, lean=True)))


@extend_schema(request=s.NoteInput, responses=s.CallOutput, description="Add a note.")
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def call_notes(request: Request, pk: int) -> Response:
    data = validated(s.NoteInput, request.data)
    call = services.call_add_note(
        actor=request.user, call=_staff_call(request, pk), text=data.get("note", "")
    )
    return Response(_call_out(selectors.call_visible(request.user, call.pk, lean=True)))


@extend_schema(request=s.RulingInput, responses={201: s.RulingOutput})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def call_ruling(request: Request, pk: int) -> Response:
    call = _staff_call(request, pk)
    data = validated(s.RulingInput, request.data)
    result = data.get("result")
    if isinstance(result, dict):
        check_api_details(call.tournament, result.get("game_details"))
    ruling = services.call_ruling(actor=request.user, call=call, **data)
    return Response(s.RulingOutput(ruling).data, status=status.HTTP_201_CREATED)


@extend_schema(
    request=OpenApiTypes.OBJECT,
    responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
    description="Replay a game record of the path's game (one path per registered game that "
    "keeps records: `/api/replay/boba/`, `/api/replay/bos/`): exactly the JSON of that game's replay CLI, `python -m engine.<game> "
    "replay --json` (legal or not: `legal` says which; an engine bug is `error.code` "
    "`internal_error`, logged, still a 200). A malformed record is a 400 with the same "
    "JSON and its `error.field`.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def replay_game(request: Request, game: str) -> Response:
    replayer = get_game(game).replayer()  # routed only for games that replay records
    if replayer is None:
        raise Http404("This game keeps no game records.")
    body = request.body
    if len(body) > services.MAX_RECORD_BYTES:
        raise ServiceError(f"record: at most {services.MAX_RECORD_BYTES} bytes.", field="record")
    # Not JSON (or nested too deep to decode): the engine reports it as a malformed record,
    # as the CLI does.
    with contextlib.suppress(ValueError, RecursionError):
        services.check_record_bounds(json.loads(body))
    # An engine bug comes back as error.code internal_error (logged by the engine with its
    # traceback): the same JSON as the CLI's (exit 3), a 200 like any replay, never a 500.
    out = replayer.replay_text(body).to_json()
    if services.replay_malformed(out):
        return Response(out, status=status.HTTP_400_BAD_REQUEST)
    return Response(out)
