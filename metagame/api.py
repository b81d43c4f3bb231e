"""REST API of the metagame: archetypes (read by anyone who sees their scope, changed by its
organisers), an event's and a series' breakdown, and the suggested groups of an event's lists.
Thin: metagame.services writes, metagame.selectors reads."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from config.api import validated
from config.errors import Forbidden, NotFound, ServiceError
from config.pagination import MAX_OFFSET, Pagination
from config.schema import error_responses, paginated
from engine.games import GAMES, game_choices
from metagame import selectors, services
from metagame.models import Archetype
from organisations.models import Organisation
from series.models import Series
from tournaments.models import Tournament
from tournaments.selectors import event_visible, visible_event

MIN_THRESHOLD = 0.05
PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit", {"type": "integer", "minimum": 1}, description="Rows a page (at most 500)."
    ),
    OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}),
]


class ArchetypeOutput(serializers.ModelSerializer[Archetype]):
    scope = serializers.CharField(read_only=True)
    event = serializers.SlugRelatedField(
        source="tournament", slug_field="slug", read_only=True, allow_null=True
    )
    series = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    organisation = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    rule = serializers.JSONField()

    class Meta:
        model = Archetype
        fields = [
            "id",
            "game",
            "name",
            "priority",
            "rule",
            "scope",
            "event",
            "series",
            "organisation",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class ArchetypeInput(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    rule = serializers.JSONField(
        help_text="A rule of the archetype rule language (docs/metagame.md)."
    )
    priority = serializers.IntegerField(min_value=0, max_value=32767, default=100)


class ScopedArchetypeInput(ArchetypeInput):
    game = serializers.ChoiceField(choices=game_choices(), required=False)
    event = serializers.SlugField(required=False)
    series = serializers.SlugField(required=False)
    organisation = serializers.SlugField(required=False)


class ArchetypeChange(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80, required=False)
    rule = serializers.JSONField(required=False)
    priority = serializers.IntegerField(min_value=0, max_value=32767, required=False)


class GroupInput(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    cards = serializers.ListField(
        child=serializers.CharField(max_length=200), min_length=1, max_length=100
    )
    priority = serializers.IntegerField(min_value=0, max_value=32767, default=100)


def _page(request: Request, queryset: Any) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(queryset, request)
    return paginator.get_paginated_response(ArchetypeOutput(page, many=True).data)


def _event(request: Request, slug: str) -> Tournament:
    return visible_event(request, slug)


def _archetype_visible(request: Request, pk: int) -> Archetype:
    archetype = get_object_or_404(
        Archetype.objects.select_related("tournament", "series", "organisation"), pk=pk
    )
    tournament = archetype.tournament
    if tournament is not None and event_visible(user=request.user, slug=tournament.slug) is None:
        raise NotFound("No such archetype.", field="id")
    return archetype


def _scope_of(request: Request, data: dict[str, Any]) -> dict[str, Any]:
    scope: dict[str, Any] = {}
    if "event" in data:
        event = event_visible(user=request.user, slug=data.pop("event"))
        if event is None:
            raise ServiceError("event: no such event.", field="event")
        scope["tournament"] = event
    if "series" in data:
        scope["series"] = Series.objects.filter(slug=data.pop("series")).first()
        if scope["series"] is None:
            raise ServiceError("series: no such series.", field="series")
    if "organisation" in data:
        scope["organisation"] = Organisation.objects.filter(slug=data.pop("organisation")).first()
        if scope["organisation"] is None:
            raise ServiceError("organisation: no such organisation.", field="organisation")
    return scope


@extend_schema(
    methods=["GET"],
    operation_id="archetypes_list",
    parameters=[OpenApiParameter("game", OpenApiTypes.STR, enum=sorted(GAMES)), *PAGE_PARAMETERS],
    responses={200: paginated(ArchetypeOutput), **error_responses(400)},
    description="The archetypes of series, organisations and the site (an event's own are "
    "under the event), by game and priority; paginated.",
)
@extend_schema(
    methods=["POST"],
    request=ScopedArchetypeInput,
    responses={201: ArchetypeOutput, **error_responses(400, 403)},
    description="A new archetype in one scope: `event`, `series` or `organisation` (their "
    "organisers), or none for the whole site (site administrators); `game` is the event's "
    "for an event, required otherwise. 400 naming the part of a rule that is wrong "
    "(`rule.all[1].count.power.gte`).",
)
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticatedOrReadOnly])
def archetypes(request: Request) -> Response:
    if request.method == "GET":
        queryset = Archetype.objects.filter(tournament__isnull=True).select_related(
            "series", "organisation"
        )
        game = (request.query_params.get("game") or "").strip()
        if game:
            if game not in GAMES:
                raise ServiceError(f"game: one of {', '.join(sorted(GAMES))}.", field="game")
            queryset = queryset.filter(game=game)
        return _page(request, queryset.order_by("game", "priority", "name", "id"))
    data = validated(ScopedArchetypeInput, request.data)
    scope = _scope_of(request, data)
    archetype = services.archetype_create(actor=request.user, **data, **scope)
    return Response(ArchetypeOutput(archetype).data, status=status.HTTP_201_CREATED)


@extend_schema(methods=["GET"], responses=ArchetypeOutput)
@extend_schema(
    methods=["PATCH"],
    request=ArchetypeChange,
    responses={200: ArchetypeOutput, **error_responses(400, 403)},
    description="Change an archetype's name, rule or priority (its scope's organisers).",
)
@extend_schema(methods=["DELETE"], responses={204: None, **error_responses(403)})
@api_view(["GET", "PATCH", "DELETE"])
@permission_classes([permissions.IsAuthenticatedOrReadOnly])
def archetype_detail(request: Request, pk: int) -> Response:
    archetype = _archetype_visible(request, pk)
    if request.method == "GET":
        return Response(ArchetypeOutput(archetype).data)
    if request.method == "DELETE":
        services.archetype_delete(actor=request.user, archetype=archetype)
        return Response(status=status.HTTP_204_NO_CONTENT)
    data = validated(ArchetypeChange, request.data)
    archetype = services.archetype_update(actor=request.user, archetype=archetype, **data)
    return Response(ArchetypeOutput(archetype).data)


@extend_schema(
    methods=["GET"],
    parameters=PAGE_PARAMETERS,
    responses=paginated(ArchetypeOutput),
    description="The archetypes that sort this event's lists, in the order they are tried "
    "(priority, then the nearer scope: event, series, organisation, site); paginated.",
)
@extend_schema(
    methods=["POST"],
    request=ArchetypeInput,
    responses={201: ArchetypeOutput, **error_responses(400, 403)},
    description="A new archetype of this event (its organisers).",
)
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticatedOrReadOnly])
def event_archetypes(request: Request, slug: str) -> Response:
    event = _event(request, slug)
    if request.method == "GET":
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.archetypes_for_event(event), request)
        return paginator.get_paginated_response(ArchetypeOutput(page, many=True).data)
    data = validated(ArchetypeInput, request.data)
    archetype = services.archetype_create(actor=request.user, tournament=event, **data)
    return Response(ArchetypeOutput(archetype).data, status=status.HTTP_201_CREATED)


@extend_schema(
    responses=OpenApiTypes.OBJECT,
    description="The event's metagame from its published lists only: `lists` counted, and per "
    "archetype `players`, `share`, `matches` (won, lost, drawn against other archetypes), "
    "`match_win_rate`, `battle_win_rate` (BoBA: trophies), `mirror_matches` and `against` "
    "(the matrix row); `assignments` (registration id -> archetype); `version` changes with "
    "any result, publication or archetype (docs/metagame.md).",
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def event_metagame(request: Request, slug: str) -> Response:
    return Response(selectors.event_breakdown(_event(request, slug)))


@extend_schema(
    responses=OpenApiTypes.OBJECT,
    description="The series' metagame over all its events' published lists and results.",
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def series_metagame(request: Request, slug: str) -> Response:
    series = get_object_or_404(Series, slug=slug)
    return Response(selectors.series_breakdown(series))


@extend_schema(
    methods=["GET"],
    parameters=[
        OpenApiParameter(
            "threshold",
            {"type": "number", "minimum": MIN_THRESHOLD, "maximum": 1.0},
            description="How alike a group's lists are (card overlap, 0.05 to 1; default 0.5).",
        )
    ],
    responses={200: OpenApiTypes.OBJECT, **error_responses(400, 403)},
    description="Groups of the event's published lists that no archetype names yet, by card "
    "overlap, each with its `core_cards` (organisers).",
)
@extend_schema(
    methods=["POST"],
    request=GroupInput,
    responses={201: ArchetypeOutput, **error_responses(400, 403)},
    description='Name a group: a new event archetype "contains most of these core cards".',
)
@api_view(["GET", "POST"])
@permission_classes([permissions.IsAuthenticated])
def event_suggestions(request: Request, slug: str) -> Response:
    event = _event(request, slug)
    if not services.may_manage(request.user, tournament=event):
        raise Forbidden("Only the event's organisers see the suggestions.")
    if request.method == "POST":
        data = validated(GroupInput, request.data)
        archetype = services.archetype_from_group(actor=request.user, tournament=event, **data)
        return Response(ArchetypeOutput(archetype).data, status=status.HTTP_201_CREATED)
    threshold = threshold_param(request.query_params.get("threshold"))
    return Response({"groups": selectors.event_suggestions(event, threshold=threshold)})


def threshold_param(raw: str | None) -> float:
    """The `threshold` query parameter (blank: the default), else a 400 naming it."""
    if raw is None or not raw.strip():
        return 0.5
    try:
        value = float(raw)
    except ValueError:
        raise ServiceError("threshold: a number from 0.05 to 1.", field="threshold") from None
    if not MIN_THRESHOLD <= value <= 1.0:
        raise ServiceError("threshold: a number from 0.05 to 1.", field="threshold")
    return value
