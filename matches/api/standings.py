"""Standings (a player's line, the cut calculator), placings, the top cut, starting a stage, and
publishing the top decklists."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from config import published
from config.api import validated
from config.errors import NotFound, ServiceError
from config.fast_path import Found
from config.pagination import MAX_OFFSET
from config.schema import error_responses
from matches import selectors, services
from matches import serializers as s
from matches.api.common import (
    ROUND_NUMBER,
    RUNNING_TIMER_COPY_SECONDS,
    answer_is_private,
    event_of,
    json_bytes,
    query_int,
    round_out,
    wants_json,
)
from matches.models import RoundStatus
from matches.placings import event_placings, placings_json
from matches.placings import placings_version as event_placings_version
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.serializers import StageOutput

MAX_STANDINGS_PAGE = 5000
STANDING_FIELDS = (
    "rank",
    "registration",
    "name",
    "points",
    "record",
    "dropped",
    "tiebreakers",
    "byes",
    "match_win_pct",
    "games",
    "trophies",
)


@extend_schema(
    parameters=[
        OpenApiParameter("round", ROUND_NUMBER, description="standings after this round"),
        OpenApiParameter(
            "stage",
            {"type": "integer", "minimum": 1},
            description="that stage's standings (a Swiss or round-robin stage; with its "
            "carried records where it carries them); left out: the latest stage's",
        ),
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": MAX_STANDINGS_PAGE},
            description=f"at most {MAX_STANDINGS_PAGE} rows",
        ),
        OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}),
    ],
    responses={200: s.StandingsOutput, 304: None, **error_responses(400, 404)},
    description="The standings after a finished Swiss round, served from a copy made once "
    'per computed snapshot (ETag, Last-Modified, gzip: docs/api.md, "Published copies").',
)
@api_view(["GET"])
def standings(request: Request, slug: str) -> HttpResponseBase:
    event = event_of(request, slug)
    number = query_int(request, "round", None)
    if event.team is not None:
        return _team_standings(request, event, number)
    stage = _standings_stage(request, event)
    snapshot = services.standings_snapshot(event, number, stage)
    number = snapshot.round.number
    if selectors.standings_hidden_for(request.user, event, number):
        raise Http404("Standings are hidden until the final round is over.")
    limit = query_int(request, "limit", MAX_STANDINGS_PAGE)
    offset = query_int(request, "offset", 0)
    if not 1 <= (limit or 0) <= MAX_STANDINGS_PAGE:
        raise ServiceError(f"limit: from 1 to {MAX_STANDINGS_PAGE}.", field="limit")
    if not wants_json(request):
        return Response(_standings_body(snapshot, number, limit or 0, offset or 0))
    copy = standings_copy(snapshot, limit or 0, offset or 0)
    return published.serve(
        request,
        name=copy.name,
        version=copy.version,
        changed_at=copy.changed_at,
        render=lambda: json_bytes(_standings_body(snapshot, number, limit or 0, offset or 0)),
        private=answer_is_private(request),
    )


def standings_copy(snapshot: Any, limit: int, offset: int) -> Found:
    """A page of the standings' published copy (the API's answer and config.fast_path's)."""
    # A snapshot is recomputed (a new computed_at) whenever a result it counts changes.
    return Found(
        name=f"standings:{snapshot.pk}:{limit}:{offset}",
        version=published.version_of(
            "standings", snapshot.pk, snapshot.source_version, snapshot.computed_at, limit, offset
        ),
        changed_at=snapshot.computed_at,
    )


def _standings_stage(request: Request, event: Tournament) -> int | None:
    """The ``stage`` query parameter: a Swiss or round-robin stage of the event."""
    stage = query_int(request, "stage", None)
    if stage is None:
        return None
    row = event.stages.filter(number=stage).first()
    if row is None:
        raise NotFound(f"stage: the event has no stage {stage}.", field="stage")
    if row.is_elimination:
        raise NotFound(
            f"stage: stage {stage} is an elimination bracket; its standings are its placings.",
            field="stage",
        )
    return stage


def _team_standings(request: Request, event: Tournament, number: int | None) -> Response:
    """A team event's standings: teams ranked by team-match points (3 / 1 / 0) and the
    event's tiebreakers over teams, after the finished rounds (up to `round`) of one Swiss or
    round-robin stage (`stage`; left out: the latest such stage with a finished round)."""
    limit = query_int(request, "limit", MAX_STANDINGS_PAGE) or 0
    offset = query_int(request, "offset", 0) or 0
    if not 1 <= limit <= MAX_STANDINGS_PAGE:
        raise ServiceError(f"limit: from 1 to {MAX_STANDINGS_PAGE}.", field="limit")
    row = services.team_standings_stage(event, _standings_stage(request, event), number)
    if row is None:
        raise Http404("No finished round yet.")
    last, rows = services.team_stage_standings(event, row, upto=number)
    if not last:
        raise Http404("No finished round yet.")
    return Response(
        {
            "round": last,
            "stage": row.number,
            "count": len(rows),
            "rows": rows[offset : offset + limit],
        }
    )


def _standings_body(snapshot: Any, number: int, limit: int, offset: int) -> dict[str, Any]:
    rows = snapshot.rows[offset : offset + limit]
    return {
        "round": number,
        "stage": snapshot.round.stage_number,
        "count": len(snapshot.rows),
        "rows": [{k: row[k] for k in STANDING_FIELDS} for row in rows],
    }


@extend_schema(
    operation_id="events_standings_player_retrieve",
    parameters=[OpenApiParameter("round", ROUND_NUMBER)],
    responses=OpenApiTypes.OBJECT,
    description="One player's line with every opponent and how each tiebreaker was computed.",
)
@api_view(["GET"])
def standings_player(request: Request, slug: str, registration: int) -> Response:
    event = event_of(request, slug)
    snapshot = services.standings_snapshot(event, query_int(request, "round", None))
    if selectors.standings_hidden_for(request.user, event, snapshot.round.number):
        raise Http404("Standings are hidden until the final round is over.")
    for row in snapshot.rows:
        if row["registration"] == registration:
            return Response({"round": snapshot.round.number, **row})
    raise Http404("This player has no standings line.")


@extend_schema(
    parameters=[
        OpenApiParameter(
            "stage",
            {"type": "integer", "minimum": 1},
            description="that Swiss stage among flights played side by side (a day 2 drawn "
            "from several); left out: the first one being played",
        )
    ],
    responses=OpenApiTypes.OBJECT,
    description="Before the last Swiss round(s): for each player (a team event: each team), "
    "whether a win, a draw or a loss makes the top cut (or the next stage's points) certain, "
    "possible, or impossible.",
)
@api_view(["GET"])
def cut_calculator(request: Request, slug: str) -> Response:
    event = event_of(request, slug)
    stage = query_int(request, "stage", None)
    if stage is not None and not event.stages.filter(number=stage).exists():
        raise NotFound(f"stage: the event has no stage {stage}.", field="stage")
    snapshot = services.standings_snapshot(event)
    if selectors.standings_hidden_for(request.user, event, snapshot.round.number):
        raise Http404("Standings are hidden until the final round is over.")
    return Response(services.cut_calculator(event, stage))


MAX_PLACINGS_PAGE = 5000


@extend_schema(
    parameters=[
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": MAX_PLACINGS_PAGE},
            description=f"at most {MAX_PLACINGS_PAGE} rows",
        ),
        OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}),
    ],
    responses={200: s.PlacingsOutput, 304: None, **error_responses(400, 404)},
    description="The event's placings (event-structures: Placings): everyone who played, "
    "places 1..N without gaps; `final` once the last stage is finished. Served from a copy "
    'made once per change of results (ETag, Last-Modified, gzip: docs/api.md, "Published '
    'copies").',
)
@api_view(["GET"])
def placings(request: Request, slug: str) -> HttpResponseBase:
    event = event_of(request, slug)
    limit = query_int(request, "limit", MAX_PLACINGS_PAGE)
    offset = query_int(request, "offset", 0) or 0
    if not 1 <= (limit or 0) <= MAX_PLACINGS_PAGE:
        raise ServiceError(f"limit: from 1 to {MAX_PLACINGS_PAGE}.", field="limit")
    last = services.last_finished_swiss_round(event)
    if last is not None and selectors.standings_hidden_for(request.user, event, last.number):
        raise Http404("Placings are hidden with the standings until the final round is over.")
    version = event_placings_version(event)

    def body() -> dict[str, Any]:
        return placings_json(
            event, placings=event_placings(event, version=version), limit=limit, offset=offset
        )

    if not wants_json(request):
        return Response(body())
    return published.serve(
        request,
        name=f"placings:{event.pk}:{limit}:{offset}",
        version=published.version_of(version, limit, offset),
        render=lambda: json_bytes(body()),
        private=answer_is_private(request),
    )


@extend_schema(
    request=s.TopDecklistsInput,
    responses={200: s.TopDecklistsOutput, **error_responses(400, 403, 404, 409)},
    description="Publish the decklists of places 1 to `top` (default 8) of a finished event's "
    "final placings (organisers): those lists become public, the others stay as they are. "
    "400 naming `top` or `status`, 409 while the placings are not final. Audited.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def top_decklists_publish(request: Request, slug: str) -> Response:
    event = event_of(request, slug)
    clean = validated(s.TopDecklistsInput, request.data)
    out = services.top_decklists_publish(actor=request.user, tournament=event, **clean)
    return Response({"event": event.slug, **out})


@extend_schema(
    methods=["POST"],
    request=None,
    responses={201: s.RoundOutput},
    description="Cut to the event's top-cut size from the final standings and create the "
    "first bracket round (organisers).",
)
@extend_schema(
    methods=["GET"],
    responses={200: OpenApiTypes.OBJECT, 304: None},
    description="The bracket, served from a copy made once per change (ETag, "
    'Last-Modified, gzip: docs/api.md, "Published copies").',
)
@api_view(["GET", "POST"])
def top_cut(request: Request, slug: str) -> HttpResponseBase:
    event = event_of(request, slug)
    if request.method == "POST":
        round_ = services.top_cut_start(actor=request.user, tournament=event)
        return Response(round_out(round_), status=status.HTTP_201_CREATED)
    cut_rounds = list(selectors.rounds_visible(request.user, event).filter(stage="top_cut"))
    for r in cut_rounds:
        r.tournament = event
    if any(r.status == RoundStatus.PAIRING for r in cut_rounds) or not wants_json(request):
        return Response(_top_cut_body(event, cut_rounds))
    copy = top_cut_copy(event, cut_rounds, staff=perms.is_staff_of(request.user, event))
    return published.serve(
        request,
        name=copy.name,
        version=copy.version,
        changed_at=copy.changed_at,
        max_age=copy.max_age,
        render=lambda: json_bytes(_top_cut_body(event, cut_rounds)),
        private=answer_is_private(request),
    )


def top_cut_copy(event: Tournament, cut_rounds: list[Any], *, staff: bool) -> Found:
    """The top cut's published copy for the bracket rounds the reader sees (the API's answer
    and config.fast_path's)."""
    return Found(
        # Staff see unpublished bracket rounds: their copy beside the public's, not over it.
        name=f"top-cut:{event.pk}:{'staff' if staff else 'all'}",
        version=selectors.top_cut_version(event, cut_rounds),
        changed_at=selectors.top_cut_changed_at(cut_rounds),
        max_age=(
            RUNNING_TIMER_COPY_SECONDS
            if any(selectors.timer_is_running(r) for r in cut_rounds)
            else None
        ),
    )


def _top_cut_body(event: Tournament, cut_rounds: list[Any]) -> dict[str, Any]:
    champion = services.champion_of(event)
    return {
        "size": event.top_cut_size,
        "policy": event.cut_policy,
        "rounds": [round_out(r) for r in cut_rounds],
        "champion": champion.pk if champion else None,
        "champion_name": champion.name if champion else None,
    }


@extend_schema(
    request=None,
    responses={200: StageOutput},
    description="Start stage n (organisers; event-structures: Stages): its entry rule on the "
    "frozen final standings of the finished stages it draws from (flights merged; the "
    "event's cut policy at a top N's line). 409 while a stage it draws from is unfinished or "
    "stage n has started; 400 naming `entry` when the rule admits too few players.",
)
@api_view(["POST"])
def stage_start(request: Request, slug: str, number: int) -> Response:
    event = event_of(request, slug)
    row = services.stage_start_service(actor=request.user, tournament=event, number=number)
    return Response(row.to_json())
