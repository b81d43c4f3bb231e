"""Rounds: list and pair, one round (served from its published copy), delete, publish, the timer,
swaps, repairs and checks."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponseBase
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from config import published
from config.api import validated
from config.fast_path import Found
from config.pagination import int_param
from config.schema import error_responses
from matches import selectors, services
from matches import serializers as s
from matches.api.common import (
    MAX_REGISTRATION_ID,
    RUNNING_TIMER_COPY_SECONDS,
    answer_is_private,
    event_of,
    json_bytes,
    round_out,
    wants_json,
)
from matches.models import RoundStatus
from tournaments import permissions as perms


@extend_schema(
    methods=["GET"],
    responses=s.RoundSummaryOutput(many=True),
    description="Rounds of the event: published ones only for players and the public.",
)
@extend_schema(
    methods=["POST"],
    request=s.RoundPairInput,
    responses={201: s.RoundOutput},
    description="Pair the next round of the running stage (organisers): Swiss, the next "
    "bracket round, or the round robin's next round. `stage` names the stage when several "
    "run side by side (flights; 409 naming `stage` otherwise). 409 while the stage's round "
    "is unfinished or the event is not running. Large events pair in a task: status "
    "`pairing` until done.",
)
@api_view(["GET", "POST"])
def rounds(request: Request, slug: str) -> Response:
    event = event_of(request, slug)
    if request.method == "POST":
        data = validated(s.RoundPairInput, request.data)
        round_ = services.round_pair(actor=request.user, tournament=event, stage=data.get("stage"))
        return Response(round_out(round_), status=status.HTTP_201_CREATED)
    qs = selectors.rounds_visible(request.user, event)
    return Response(s.RoundSummaryOutput(qs, many=True).data)


def _round_answer(request: Request, round_: Any) -> HttpResponseBase:
    """The round as published copies (config.published): whole, or `?registration=ID`'s
    match(es) only; rendered per request while it is being paired (its progress moves)."""
    registration = int_param(request, "registration", None, minimum=1, maximum=MAX_REGISTRATION_ID)
    if round_.status == RoundStatus.PAIRING or not wants_json(request):
        return Response(round_out(round_, registration=registration))
    return round_copy_answer(
        request, round_, registration=registration, private=answer_is_private(request)
    )


def round_copy_answer(
    request: Any, round_: Any, *, registration: int | None, private: bool
) -> HttpResponseBase:
    """The round's published copy as an answer (a 304 when the client has it): whole, or
    one registration's match(es). matches.published_round serves it before DRF too."""
    whole = round_copy(round_)
    version = whole.version
    if registration is not None:
        version = published.version_of(version, "registration", registration)

    def render() -> bytes:
        if registration is not None:
            return json_bytes(round_out(round_, registration=registration))
        return _round_json(round_, version)

    return published.serve(
        request,
        # One player's table is cheap to render, and a copy per player would crowd the cache.
        name=None if registration is not None else whole.name,
        version=version,
        render=render,
        changed_at=whole.changed_at,
        max_age=whole.max_age,
        private=private,
    )


def round_copy(round_: Any) -> Found:
    """The whole round's published copy: its name, version, last change and age limit (the
    API's answer and config.fast_path's, which serves it before the middleware)."""
    return Found(
        name=f"round:{round_.pk}",
        version=selectors.round_shown_version(round_),
        changed_at=selectors.round_changed_at(round_),
        max_age=RUNNING_TIMER_COPY_SECONDS if selectors.timer_is_running(round_) else None,
    )


# Spliced into the round's JSON in place of its empty list: the key appears once, and before
# any string field that could hold the same characters (they would be escaped there anyway).
_NO_MATCHES = b'"matches":[]'


def _round_json(round_: Any, version: str) -> bytes:
    """The whole round's JSON: its matches (the heavy part) from a copy made once per
    version, the rest (the timer's remaining_seconds) as of now, so re-making the round's
    copy every second while its timer runs costs a splice and a gzip, not 1,024 matches."""
    head = json_bytes(dict(s.RoundOutput(round_, context={"without_matches": True}).data))
    matches = published.stored(
        f"round-matches:{round_.pk}",
        version=version,
        render=lambda: json_bytes(s.round_matches_data(round_)),
        compress=False,
    )
    return head.replace(_NO_MATCHES, b'"matches":' + matches.body, 1)


@extend_schema(
    methods=["GET"],
    parameters=[
        OpenApiParameter(
            "registration",
            {"type": "integer", "minimum": 1, "maximum": MAX_REGISTRATION_ID},
            description="only this registration's match(es) (same shape; an id with no "
            "match in the round gives an empty `matches` list)",
        )
    ],
    responses={200: s.RoundOutput, 304: None, **error_responses(400, 404)},
    description="The round. Served from a copy made once per change: `ETag` (weak) and "
    "`Last-Modified` for `If-None-Match` / `If-Modified-Since` (304), gzip when the "
    'request accepts it (docs/api.md, "Published copies").',
)
@extend_schema(
    methods=["DELETE"],
    request=s.ConfirmInput,
    responses={204: None},
    description='Delete an unpublished round (organisers); needs {"confirm": true}.',
)
@api_view(["GET", "DELETE"])
def round_detail(request: Request, slug: str, number: int) -> HttpResponseBase:
    event = event_of(request, slug)
    round_ = selectors.round_visible(request.user, event, number)
    if request.method == "DELETE":
        data = validated(s.ConfirmInput, request.data or {"confirm": False})
        services.round_delete(actor=request.user, round_=round_, confirm=data["confirm"])
        return Response(status=status.HTTP_204_NO_CONTENT)
    return _round_answer(request, round_)


def _staff_round(request: Request, slug: str, number: int) -> Any:
    event = event_of(request, slug)
    round_ = selectors.round_visible(request.user, event, number)
    perms.require_staff(request.user, event)
    return round_


@extend_schema(request=None, responses=s.RoundOutput)
@api_view(["POST"])
def round_publish(request: Request, slug: str, number: int) -> Response:
    round_ = _staff_round(request, slug, number)
    round_ = services.round_publish(actor=request.user, round_=round_)
    return Response(round_out(round_))


@extend_schema(
    methods=["GET"],
    responses=s.TimerOutput,
    description="The round's timer alone: what a page polls (cheaply) to follow pauses and "
    "added time; browsers count down to `ends_at` themselves.",
)
@extend_schema(methods=["POST"], request=s.TimerInput, responses=s.RoundOutput)
@api_view(["GET", "POST"])
def round_timer(request: Request, slug: str, number: int) -> Response:
    if request.method == "GET":
        event = event_of(request, slug)
        round_ = selectors.round_visible(request.user, event, number)
        return Response(s.TimerOutput(selectors.timer_view(round_, timezone.now())).data)
    round_ = _staff_round(request, slug, number)
    data = validated(s.TimerInput, request.data)
    round_ = services.round_timer(actor=request.user, round_=round_, **data)
    return Response(round_out(round_))


@extend_schema(request=s.SwapInput, responses=s.RoundOutput)
@api_view(["POST"])
def round_swap(request: Request, slug: str, number: int) -> Response:
    round_ = _staff_round(request, slug, number)
    data = validated(s.SwapInput, request.data)
    round_ = services.round_swap(actor=request.user, round_=round_, **data)
    return Response(round_out(round_))


@extend_schema(request=None, responses=s.RoundOutput)
@api_view(["POST"])
def round_repair(request: Request, slug: str, number: int) -> Response:
    round_ = _staff_round(request, slug, number)
    round_ = services.round_repair(actor=request.user, round_=round_)
    return Response(round_out(round_))


@extend_schema(responses=s.RoundCheckOutput(many=True))
@api_view(["GET"])
def round_checks(request: Request, slug: str, number: int) -> Response:
    round_ = _staff_round(request, slug, number)
    checks = services.round_checks(round_)
    return Response([{"ok": c.ok, "name": c.name, "detail": c.detail} for c in checks])
