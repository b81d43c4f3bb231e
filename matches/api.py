"""REST API for rounds, results, standings and the top cut: thin views over matches.services.

The contract is ../shared/spec/event-api.md; docs/api.md lists what this adds to it.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from django.http import Http404, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from config import published
from config.api import validated
from config.errors import NotFound, ServiceError
from config.pagination import MAX_OFFSET, MAX_PAGE_SIZE, Pagination, int_param
from config.schema import error_responses, paginated
from engine import penalties as catalogue
from engine.games import get_game
from matches import selectors, services
from matches import serializers as s
from matches.models import Match, RoundStatus
from matches.placings import event_placings, placings_json
from matches.placings import placings_version as event_placings_version
from tournaments import permissions as perms
from tournaments.models import Registration, Tournament
from tournaments.selectors import visible_event
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


def _event(request: Request, slug: str) -> Tournament:
    return visible_event(request, slug)


def _round_out(round_: Any, *, registration: int | None = None) -> dict[str, Any]:
    """The round's JSON; with `registration`, only that player's match(es) in it."""
    return dict(s.RoundOutput(round_, context={"registration": registration}).data)


def _match(request: Request, pk: int) -> Match:
    return selectors.match_visible(request.user, pk)


# A `round` query parameter as _int_param reads it.
_ROUND_NUMBER = {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}


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
    event = _event(request, slug)
    if request.method == "POST":
        data = validated(s.RoundPairInput, request.data)
        round_ = services.round_pair(actor=request.user, tournament=event, stage=data.get("stage"))
        return Response(_round_out(round_), status=status.HTTP_201_CREATED)
    qs = selectors.rounds_visible(request.user, event)
    return Response(s.RoundSummaryOutput(qs, many=True).data)


# A running timer's `remaining_seconds` in a stored copy is at most this old (`ends_at` is
# exact); the ETag leaves it out (docs/api.md, "Published copies").
RUNNING_TIMER_COPY_SECONDS = 1.0
# int_param reads a longer run of digits as 10**18: one below it is the largest id asked for.
MAX_REGISTRATION_ID = 10**18 - 1


def _json_bytes(data: Any) -> bytes:
    return bytes(JSONRenderer().render(data))


def _wants_json(request: Request) -> bool:
    """The client asked for JSON (the browsable API's HTML is rendered per request)."""
    return getattr(request.accepted_renderer, "format", "json") == "json"


def _private(request: Request) -> bool:
    """A signed-in reader's answer may differ from the public's (staff see more rounds)."""
    return bool(request.user.is_authenticated)


def _round_answer(request: Request, round_: Any) -> HttpResponseBase:
    """The round as published copies (config.published): whole, or `?registration=ID`'s
    match(es) only; rendered per request while it is being paired (its progress moves)."""
    registration = int_param(request, "registration", None, minimum=1, maximum=MAX_REGISTRATION_ID)
    if round_.status == RoundStatus.PAIRING or not _wants_json(request):
        return Response(_round_out(round_, registration=registration))
    return round_copy_answer(request, round_, registration=registration, private=_private(request))


def round_copy_answer(
    request: Any, round_: Any, *, registration: int | None, private: bool
) -> HttpResponseBase:
    """The round's published copy as an answer (a 304 when the client has it): whole, or
    one registration's match(es). matches.published_round serves it before DRF too."""
    version = selectors.round_shown_version(round_)
    if registration is not None:
        version = published.version_of(version, "registration", registration)

    def render() -> bytes:
        if registration is not None:
            return _json_bytes(_round_out(round_, registration=registration))
        return _round_json(round_, version)

    return published.serve(
        request,
        # One player's table is cheap to render, and a copy per player would crowd the cache.
        name=None if registration is not None else f"round:{round_.pk}",
        version=version,
        render=render,
        changed_at=selectors.round_changed_at(round_),
        max_age=RUNNING_TIMER_COPY_SECONDS if selectors.timer_is_running(round_) else None,
        private=private,
    )


# Spliced into the round's JSON in place of its empty list: the key appears once, and before
# any string field that could hold the same characters (they would be escaped there anyway).
_NO_MATCHES = b'"matches":[]'


def _round_json(round_: Any, version: str) -> bytes:
    """The whole round's JSON: its matches (the heavy part) from a copy made once per
    version, the rest (the timer's remaining_seconds) as of now, so re-making the round's
    copy every second while its timer runs costs a splice and a gzip, not 1,024 matches."""
    head = _json_bytes(dict(s.RoundOutput(round_, context={"without_matches": True}).data))
    matches = published.stored(
        f"round-matches:{round_.pk}",
        version=version,
        render=lambda: _json_bytes(s.round_matches_data(round_)),
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
    event = _event(request, slug)
    round_ = selectors.round_visible(request.user, event, number)
    if request.method == "DELETE":
        data = validated(s.ConfirmInput, request.data or {"confirm": False})
        services.round_delete(actor=request.user, round_=round_, confirm=data["confirm"])
        return Response(status=status.HTTP_204_NO_CONTENT)
    return _round_answer(request, round_)


def _staff_round(request: Request, slug: str, number: int) -> Any:
    event = _event(request, slug)
    round_ = selectors.round_visible(request.user, event, number)
    perms.require_staff(request.user, event)
    return round_


@extend_schema(request=None, responses=s.RoundOutput)
@api_view(["POST"])
def round_publish(request: Request, slug: str, number: int) -> Response:
    round_ = _staff_round(request, slug, number)
    round_ = services.round_publish(actor=request.user, round_=round_)
    return Response(_round_out(round_))


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
        event = _event(request, slug)
        round_ = selectors.round_visible(request.user, event, number)
        return Response(s.TimerOutput(selectors.timer_view(round_, timezone.now())).data)
    round_ = _staff_round(request, slug, number)
    data = validated(s.TimerInput, request.data)
    round_ = services.round_timer(actor=request.user, round_=round_, **data)
    return Response(_round_out(round_))


@extend_schema(request=s.SwapInput, responses=s.RoundOutput)
@api_view(["POST"])
def round_swap(request: Request, slug: str, number: int) -> Response:
    round_ = _staff_round(request, slug, number)
    data = validated(s.SwapInput, request.data)
    round_ = services.round_swap(actor=request.user, round_=round_, **data)
    return Response(_round_out(round_))


@extend_schema(request=None, responses=s.RoundOutput)
@api_view(["POST"])
def round_repair(request: Request, slug: str, number: int) -> Response:
    round_ = _staff_round(request, slug, number)
    round_ = services.round_repair(actor=request.user, round_=round_)
    return Response(_round_out(round_))


@extend_schema(responses=s.RoundCheckOutput(many=True))
@api_view(["GET"])
def round_checks(request: Request, slug: str, number: int) -> Response:
    round_ = _staff_round(request, slug, number)
    checks = services.round_checks(round_)
    return Response([{"ok": c.ok, "name": c.name, "detail": c.detail} for c in checks])


@extend_schema(
    parameters=[
        OpenApiParameter("round", _ROUND_NUMBER, description="standings after this round"),
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
    event = _event(request, slug)
    number = _int_param(request, "round", None)
    if event.team is not None:
        return _team_standings(request, event, number)
    stage = _standings_stage(request, event)
    snapshot = services.standings_snapshot(event, number, stage)
    number = snapshot.round.number
    if selectors.standings_hidden_for(request.user, event, number):
        raise Http404("Standings are hidden until the final round is over.")
    limit = _int_param(request, "limit", MAX_STANDINGS_PAGE)
    offset = _int_param(request, "offset", 0)
    if not 1 <= (limit or 0) <= MAX_STANDINGS_PAGE:
        raise ServiceError(f"limit: from 1 to {MAX_STANDINGS_PAGE}.", field="limit")
    if not _wants_json(request):
        return Response(_standings_body(snapshot, number, limit or 0, offset or 0))
    # A snapshot is recomputed (a new computed_at) whenever a result it counts changes.
    version = published.version_of(
        "standings", snapshot.pk, snapshot.source_version, snapshot.computed_at, limit, offset
    )
    return published.serve(
        request,
        name=f"standings:{snapshot.pk}:{limit}:{offset}",
        version=version,
        changed_at=snapshot.computed_at,
        render=lambda: _json_bytes(_standings_body(snapshot, number, limit or 0, offset or 0)),
        private=_private(request),
    )


def _standings_stage(request: Request, event: Tournament) -> int | None:
    """The ``stage`` query parameter: a Swiss or round-robin stage of the event."""
    stage = _int_param(request, "stage", None)
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
    limit = _int_param(request, "limit", MAX_STANDINGS_PAGE) or 0
    offset = _int_param(request, "offset", 0) or 0
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
    parameters=[OpenApiParameter("round", _ROUND_NUMBER)],
    responses=OpenApiTypes.OBJECT,
    description="One player's line with every opponent and how each tiebreaker was computed.",
)
@api_view(["GET"])
def standings_player(request: Request, slug: str, registration: int) -> Response:
    event = _event(request, slug)
    snapshot = services.standings_snapshot(event, _int_param(request, "round", None))
    if selectors.standings_hidden_for(request.user, event, snapshot.round.number):
        raise Http404("Standings are hidden until the final round is over.")
    for row in snapshot.rows:
        if row["registration"] == registration:
            return Response({"round": snapshot.round.number, **row})
    raise Http404("This player has no standings line.")


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
    event = _event(request, slug)
    limit = _int_param(request, "limit", MAX_PLACINGS_PAGE)
    offset = _int_param(request, "offset", 0) or 0
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

    if not _wants_json(request):
        return Response(body())
    return published.serve(
        request,
        name=f"placings:{event.pk}:{limit}:{offset}",
        version=published.version_of(version, limit, offset),
        render=lambda: _json_bytes(body()),
        private=_private(request),
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
    event = _event(request, slug)
    clean = validated(s.TopDecklistsInput, request.data)
    out = services.top_decklists_publish(actor=request.user, tournament=event, **clean)
    return Response({"event": event.slug, **out})


def _int_param(request: Request, name: str, default: int | None) -> int | None:
    return int_param(request, name, default, minimum=0, maximum=MAX_OFFSET)


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
    event = _event(request, slug)
    if request.method == "POST":
        round_ = services.top_cut_start(actor=request.user, tournament=event)
        return Response(_round_out(round_), status=status.HTTP_201_CREATED)
    cut_rounds = list(selectors.rounds_visible(request.user, event).filter(stage="top_cut"))
    for r in cut_rounds:
        r.tournament = event
    if any(r.status == RoundStatus.PAIRING for r in cut_rounds) or not _wants_json(request):
        return Response(_top_cut_body(event, cut_rounds))
    return published.serve(
        request,
        # Staff see unpublished bracket rounds: their copy beside the public's, not over it.
        name=f"top-cut:{event.pk}:{'staff' if perms.is_staff_of(request.user, event) else 'all'}",
        version=selectors.top_cut_version(event, cut_rounds),
        changed_at=selectors.top_cut_changed_at(cut_rounds),
        max_age=(
            RUNNING_TIMER_COPY_SECONDS
            if any(selectors.timer_is_running(r) for r in cut_rounds)
            else None
        ),
        render=lambda: _json_bytes(_top_cut_body(event, cut_rounds)),
        private=_private(request),
    )


def _top_cut_body(event: Tournament, cut_rounds: list[Any]) -> dict[str, Any]:
    champion = services.champion_of(event)
    return {
        "size": event.top_cut_size,
        "policy": event.cut_policy,
        "rounds": [_round_out(r) for r in cut_rounds],
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
    event = _event(request, slug)
    row = services.stage_start_service(actor=request.user, tournament=event, number=number)
    return Response(row.to_json())


@extend_schema(responses=s.MatchOutput)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def my_match(request: Request, slug: str) -> HttpResponseBase:
    # What 2,000 phones poll every 30 seconds: one indexed statement decides the version, a
    # polling phone that has it gets a 304, and the body is one stored copy per match and
    # viewer (config.published), re-made each second while the round's timer runs.
    seat = selectors.my_seat(request.user, slug) if _wants_json(request) else None
    if seat is None:
        event = _event(request, slug)
        match = selectors.my_match(request.user, event)
        if match is None:
            raise Http404("You have no match in a published round.")
        return Response(_match_out(match, request))
    match_id = seat.match_id

    def render() -> bytes:
        return _json_bytes(_match_out(selectors.match_visible(request.user, match_id), request))

    return published.serve(
        request,
        name=f"my-match:{match_id}:{seat.viewer}",
        version=seat.version,
        render=render,
        changed_at=seat.changed_at,
        max_age=RUNNING_TIMER_COPY_SECONDS if seat.timer_running else None,
        private=True,
    )


def _viewer(request: Request, match: Match) -> str | None:
    """Who looks at a match's result: "staff", the player's side, or None."""
    if perms.is_staff_of(request.user, match.round.tournament):
        return "staff"
    return services._acting_side(request.user, match)


def _match_out(match: Match, request: Request | None = None) -> dict[str, Any]:
    viewer = _viewer(request, match) if request is not None else None
    data = dict(s.MatchOutput(match, context={"viewer": viewer}).data)
    timer = selectors.timer_view(match.round, timezone.now(), match.extension_minutes)
    data["timer"] = dict(s.TimerOutput(timer).data)
    data["ends_at"] = data["timer"]["ends_at"]
    return data


def _answer_to_player(request: Request, match: Match) -> dict[str, Any]:
    """The match after a report or confirmation; a player's answer also says in words what
    happened (`message`: final, waiting for the opponent, or disputed)."""
    match = selectors.match_visible(request.user, match.pk)
    data = _match_out(match, request)
    if services._acting_side(request.user, match) is not None:
        data["message"] = selectors.report_outcome(match)
    return data


@extend_schema(responses=s.MatchOutput)
@api_view(["GET"])
def match_detail(request: Request, pk: int) -> Response:
    return Response(_match_out(_match(request, pk), request))


def _api_details(tournament: Tournament, game_details: Any) -> None:
    """The event API takes per-game details under the game's own name: a game that names
    them otherwise (BoBA: `battles`) refuses `game_details`, as before its trophies were
    per-game details."""
    rules = get_game(tournament.game).match_rules()
    if game_details is not None and rules.api_key != "game_details":
        raise ServiceError(
            "game_details: this game records no per-game details", field="game_details"
        )


@extend_schema(request=s.ReportInput, responses=s.PlayerReportOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_report(request: Request, pk: int) -> Response:
    match = _match(request, pk)
    data = validated(s.ReportInput, request.data)
    _api_details(match.round.tournament, data.get("game_details"))
    match = services.match_report(actor=request.user, match=match, **data)
    return Response(_answer_to_player(request, match))


@extend_schema(request=s.MatchConfirmInput, responses=s.PlayerReportOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_confirm(request: Request, pk: int) -> Response:
    data = validated(s.MatchConfirmInput, request.data or {})
    match = services.match_confirm(
        actor=request.user,
        match=_match(request, pk),
        expected_version=data.get("result_version"),
    )
    return Response(_answer_to_player(request, match))


@extend_schema(request=s.ReportInput, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_correction_preview(request: Request, pk: int) -> Response:
    match = _match(request, pk)
    data = validated(s.ReportInput, request.data)
    _api_details(match.round.tournament, data.get("game_details"))
    data.pop("reason", None)
    data.pop("confirm_override", None)
    return Response(services.correction_preview(actor=request.user, match=match, **data))


@extend_schema(request=s.ExtensionInput, responses=s.MatchOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_extension(request: Request, pk: int) -> Response:
    match = _match(request, pk)
    data = validated(s.ExtensionInput, request.data)
    match = services.match_extend(actor=request.user, match=match, **data)
    return Response(_match_out(selectors.match_visible(request.user, match.pk), request))


@extend_schema(request=s.TableInput, responses=s.MatchOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_table(request: Request, pk: int) -> Response:
    match = _match(request, pk)
    data = validated(s.TableInput, request.data)
    match = services.round_set_table(actor=request.user, match=match, **data)
    return Response(_match_out(selectors.match_visible(request.user, match.pk), request))


@extend_schema(responses=s.ResultVersionOutput(many=True))
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def match_versions(request: Request, pk: int) -> Response:
    match = _match(request, pk)
    if not (
        perms.is_staff_of(request.user, match.round.tournament)
        or services._acting_side(request.user, match) is not None
    ):
        raise Http404("No such match.")
    versions = match.versions.select_related("actor")
    data = s.ResultVersionOutput(versions, many=True).data
    viewer = _viewer(request, match)
    for row in data:
        for key in ("before", "after"):
            if isinstance(row[key], dict) and "game_details" in row[key]:
                row[key]["game_details"] = match.visible_details(row[key]["game_details"], viewer)
    return Response(data)


@extend_schema(
    responses=OpenApiTypes.OBJECT,
    description="Before the last Swiss round(s): for each player, whether a win, a draw or a "
    "loss makes the top cut certain on points, possible, or impossible.",
)
@api_view(["GET"])
def cut_calculator(request: Request, slug: str) -> Response:
    event = _event(request, slug)
    snapshot = services.standings_snapshot(event)
    if selectors.standings_hidden_for(request.user, event, snapshot.round.number):
        raise Http404("Standings are hidden until the final round is over.")
    return Response(services.cut_calculator(event))


@extend_schema(
    request=s.PairingOptionsInput,
    responses=OpenApiTypes.OBJECT,
    description="Organisers: byes granted for rounds, a round-1 seed, a fixed table.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def registration_pairing_options(request: Request, pk: int) -> Response:
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    if not perms.is_staff_of(request.user, registration.tournament):
        raise Http404("No such registration.")
    data = validated(s.PairingOptionsInput, request.data)
    registration = services.registration_pairing_options(
        actor=request.user, registration=registration, **data
    )
    return Response(
        {
            "id": registration.pk,
            "bye_rounds": registration.bye_rounds,
            "seed": registration.seed,
            "fixed_table": registration.fixed_table,
        }
    )


# --- judging ------------------------------------------------------------------------------


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
    match = _match(request, pk)
    if request.method == "GET":
        if not (
            perms.is_staff_of(request.user, match.round.tournament)
            or services._acting_side(request.user, match) is not None
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
        event = _event(request, request.query_params["event"])
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
        event = _event(request, request.query_params["event"])
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
        _api_details(call.tournament, result.get("game_details"))
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


# --- penalties ------------------------------------------------------------------------------


class PenaltyCSVRenderer(BaseRenderer):
    """`?format=csv` on the event's penalty log (and its `.csv` path)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        if isinstance(data, str):
            return data.encode("utf-8")
        return json.dumps(data).encode("utf-8")  # an error body


def _penalty_out(penalty: Any) -> dict[str, Any]:
    return dict(s.PenaltyOutput(penalty).data)


@extend_schema(
    request=s.PenaltyInput,
    responses={201: s.PenaltyOutput},
    description="The event's judges and organisers penalise a player of the match. The "
    "penalty defaults to the catalogue's (upgraded when the same infraction repeats in the "
    "event); a game or match loss changes the result, a disqualification (organisers only) "
    "also drops the player. Audited as `penalty.given`.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def match_penalties(request: Request, pk: int) -> Response:
    match = _match(request, pk)
    data = validated(s.PenaltyInput, request.data)
    penalty = services.penalty_give(actor=request.user, match=match, **data)
    penalty = services.penalties_of_event(match.round.tournament).get(pk=penalty.pk)
    return Response(_penalty_out(penalty), status=status.HTTP_201_CREATED)


@extend_schema(
    parameters=[
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1},
            description=f"at most {MAX_PAGE_SIZE} rows per page (a larger limit is clamped)",
        ),
        OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}),
    ],
    responses={200: paginated(s.PenaltyOutput), (200, "text/csv"): OpenApiTypes.STR},
    description="The event's penalty log, oldest first, paginated; `?format=csv` (or "
    "`penalties.csv`) gives all of it as CSV. Staff only.",
)
@api_view(["GET"])
@renderer_classes([JSONRenderer, BrowsableAPIRenderer, PenaltyCSVRenderer])
@permission_classes([permissions.IsAuthenticated])
def event_penalties(request: Request, slug: str) -> Response:
    event = _event(request, slug)
    perms.require_staff(request.user, event)
    if getattr(request.accepted_renderer, "format", "") == "csv":
        return _penalty_csv_response(event)
    paginator = Pagination()
    page = paginator.paginate_queryset(services.penalties_of_event(event), request)
    return paginator.get_paginated_response([_penalty_out(p) for p in page or []])


def _penalty_csv_response(event: Tournament) -> Response:
    return Response(
        services.penalty_log_csv(event),
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{event.slug}-penalties.csv"'},
    )


@extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
@api_view(["GET"])
@renderer_classes([PenaltyCSVRenderer, JSONRenderer])
@permission_classes([permissions.IsAuthenticated])
def event_penalties_csv(request: Request, slug: str) -> Response:
    event = _event(request, slug)
    perms.require_staff(request.user, event)
    return _penalty_csv_response(event)


@extend_schema(
    responses=paginated(s.PenaltyOutput),
    description="Staff of the registration's event: this player's penalties across every "
    "event (by account; a walk-in's own), newest first, each with `upgrade_suggested` when "
    "the infraction had repeated in its event.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def registration_penalties(request: Request, pk: int) -> Response:
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    if not perms.is_staff_of(request.user, registration.tournament):
        raise Http404("No such registration.")
    history = services.penalty_history(registration, viewer=request.user)
    paginator = Pagination()
    page = paginator.paginate_queryset(history, request)
    return paginator.get_paginated_response([_penalty_out(p) for p in page or []])


@extend_schema(
    responses=OpenApiTypes.OBJECT,
    description="The infraction catalogue (engine/penalties.py, the same for every game): "
    "categories, each "
    "infraction's key, label and default penalty, and the penalties lightest first.",
)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def penalty_catalogue(request: Request) -> Response:
    return Response(
        {
            "penalties": [
                {"key": k, "label": catalogue.PENALTY_LABELS[k]} for k in catalogue.PENALTIES
            ],
            "categories": [
                {"key": key, "label": label, "infractions": [i.to_json() for i in items]}
                for key, label, items in catalogue.by_category()
            ],
            "upgrade_cap": catalogue.UPGRADE_CAP,
        }
    )


def _team_match_out(request: Request, pk: int) -> dict[str, Any]:
    tm = services.team_match_visible(request.user, pk)
    boards = list(
        Match.objects.filter(team_match=tm).select_related(
            "round__tournament", "a__player", "b__player"
        )
    )
    out = s.team_match_json(tm, boards)
    out["round"] = tm.round.number
    out["lineups"] = selectors.lineups_for(request.user, tm)
    return out


@extend_schema(
    responses={200: s.TeamMatchOutput, **error_responses(404)},
    description="A team match (event-structures: Teams) with its boards and decider; "
    "`lineups` as the reader may see them (staff: both; a team's members: their own until the "
    "round is published; everyone once it is).",
)
@api_view(["GET"])
def team_match_detail(request: Request, pk: int) -> Response:
    return Response(_team_match_out(request, pk))


@extend_schema(
    request=s.LineupInput,
    responses={200: s.TeamMatchOutput, **error_responses(400, 403, 404, 409)},
    description="Set a team's line-up (players in board order, `players` of them from its "
    "roster): a member of that team, or organisers; after pairing, before publishing (409 "
    "once published).",
)
@api_view(["POST"])
def team_match_lineup(request: Request, pk: int) -> Response:
    tm = services.team_match_visible(request.user, pk)
    data = validated(s.LineupInput, request.data)
    services.lineup_set(
        actor=request.user, team_match=tm, team=data["team"], players=data["players"]
    )
    return Response(_team_match_out(request, pk))
