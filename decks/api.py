"""REST API for the card catalog, decklists and deck checks: thin views over decks.services."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import api_view, permission_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import validated
from config.errors import Forbidden, ServiceError
from config.pagination import Pagination
from config.schema import paginated
from decks import selectors, services
from decks import serializers as s
from decks.models import (
    Card,
    CardImport,
    Catalog,
    DeckCheckResult,
    DecklistVersion,
)
from engine.frozen import thaw
from engine.games import DEFAULT_GAME, GAMES, default_game, get_game
from organisations.models import Organisation
from tournaments import permissions as perms
from tournaments.models import Registration, Tournament
from tournaments.selectors import event_visible, visible_event


def _card_pool(request: Request) -> tuple[Catalog | None, bool]:
    """The catalog a card read names (`catalog` slug, or `event` slug), or (None, False) for
    every game's default catalog. A name that matches nothing is a 400 naming its field."""
    slug = request.query_params.get("catalog", "").strip()
    if slug:
        catalog = selectors.catalog_by_slug(slug)
        if catalog is None:
            raise ServiceError(f"catalog: no catalog {slug[:80]!r}.", field="catalog")
        return catalog, True
    event_slug = request.query_params.get("event", "").strip()
    if event_slug:
        event = event_visible(user=request.user, slug=event_slug)
        if event is None:
            raise ServiceError(f"event: no event {event_slug[:80]!r}.", field="event")
        return selectors.event_catalog(event), True
    return None, False


class CardViewSet(viewsets.ReadOnlyModelViewSet):
    """The card catalog: public. Filter by game, kind, set, weapon, power, cost; `q` searches
    names (and card numbers), `search` names and rules text, `text` rules text only.

    `catalog` (a catalog's slug) or `event` (an event's slug) chooses the card pool; without
    them, each game's default catalog: the official one, the demo one while there is no
    official card. An unknown parameter or a value no card has is a 400 naming it (the same
    reads as the card search page: decks.selectors.card_query and search_cards)."""

    lookup_value_regex = r"\d+"  # anything else is a 404, not a crash

    serializer_class = s.CardOutput
    permission_classes = [permissions.AllowAny]
    filter_backends: list[type] = []  # decks.selectors.search_cards filters

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, description="one game's cards", enum=list(GAMES)),
            OpenApiParameter("q", str, description="name contains, or the card number"),
            OpenApiParameter(
                "search", str, description="name or rules text contains (case-insensitive)"
            ),
            OpenApiParameter("text", str, description="rules text contains (case-insensitive)"),
            OpenApiParameter("kind", str, description="the game's card kind (type)"),
            OpenApiParameter("set_name", str),
            OpenApiParameter("weapon", str),
            OpenApiParameter("power", int),
            OpenApiParameter("power_min", int),
            OpenApiParameter("power_max", int),
            OpenApiParameter("cost", int),
            OpenApiParameter("catalog", str, description="a catalog's slug"),
            OpenApiParameter("event", str, description="an event's slug: its catalog"),
            OpenApiParameter(
                "attr",
                str,
                many=True,
                description="a game's own card field, `name:value` (e.g. `color:red`, "
                "`vim_cost:3`); up to 5, all must match",
            ),
        ]
    )
    def list(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().list(request, *args, **kwargs)

    def get_queryset(self):  # type: ignore[no-untyped-def]
        qs = Card.objects.select_related("catalog")
        if self.action != "list" or getattr(self, "swagger_fake_view", False):
            return qs.order_by("name", "set_name", "card_number", "id")  # one card by id
        query = selectors.card_query(
            dict(self.request.query_params.lists()), also=(*selectors.CARD_POOL_PARAMS, *API_PARAMS)
        )
        catalog, named = _card_pool(self.request)
        if named:
            qs = qs.filter(catalog=catalog) if catalog is not None else qs.none()
        else:
            qs = qs.filter(catalog__in=selectors.default_catalogs())
        return selectors.search_cards(qs, query)


# Parameters of every list call (pagination, DRF's format override), not card filters.
API_PARAMS = ("limit", "offset", "format")


@extend_schema(
    parameters=[OpenApiParameter("game", str, default=DEFAULT_GAME, enum=list(GAMES))],
    responses={200: dict},
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def formats(request: Request) -> Response:
    """Every format preset of a game with its parameters and game mode."""
    key = request.query_params.get("game", "").strip() or default_game()
    if key not in GAMES:
        raise ServiceError(f"game: unknown game {key!r}.", field="game")
    game = get_game(key)
    params = game.deck_rules().format_parameters()
    return Response(
        {
            "game": key,
            "formats": [
                {
                    "key": f.key,
                    "name": f.label,
                    "mode": f.mode,
                    "parameters": thaw(params.get(f.key, {})),
                }
                for f in game.formats()
            ],
            "rules": {rule_id: str(text) for rule_id, text in game.deck_rules().rules.items()},
        }
    )


class CardImportViewSet(mixins.RetrieveModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Organisers upload card lists; the import runs as a task and reports its progress here."""

    lookup_value_regex = r"\d+"  # anything else is a 404, not a crash

    serializer_class = s.CardImportOutput
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]

    def get_queryset(self):  # type: ignore[no-untyped-def]
        if getattr(self, "swagger_fake_view", False):
            return CardImport.objects.none()
        if not perms.can_create_events(self.request.user):
            raise Forbidden("Only organisers may import cards.")
        # Another organiser's import is a 404: its file names and rejections are theirs.
        return selectors.card_imports_for(self.request.user).order_by("-created_at")

    @extend_schema(
        request={"multipart/form-data": s.CardImportInput}, responses={202: s.CardImportOutput}
    )
    def create(self, request: Request) -> Response:
        data = {
            "game": request.data.get("game") or default_game(),
            "files": request.FILES.getlist("files"),
        }
        if request.data.get("catalog"):
            data["catalog"] = request.data["catalog"]
        clean = validated(s.CardImportInput, data)
        services.check_import_size(sum(f.size or 0 for f in clean["files"]))
        files = [(f.name, f.read()) for f in clean["files"]]
        card_import = services.card_import_start(
            actor=request.user, game=clean["game"], files=files, catalog=clean.get("catalog")
        )
        card_import.refresh_from_db()
        return Response(s.CardImportOutput(card_import).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(
    parameters=[
        OpenApiParameter("game", str, description="only this game's catalogs", enum=list(GAMES))
    ],
    responses=s.CatalogListOutput,
)
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def catalogs(request: Request) -> Response:
    """Every card catalog (official, demo, organisers' own) with its card count; `default`
    names each game's default catalog."""
    game = request.query_params.get("game", "").strip()
    if game and game not in GAMES:
        raise ServiceError(f"game: unknown game {game[:40]!r}.", field="game")
    qs = selectors.catalog_list(game=game)
    return Response(
        {
            "catalogs": s.CatalogOutput(qs, many=True).data,
            "default": {c.game: c.slug for c in selectors.default_catalogs()},
        }
    )


class EventCatalogView(APIView):
    """The catalog an event's decklists, card search and suggestions read (GET: anyone who
    sees the event; POST: its organisers choose a shared catalog or one of their own)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, slug: str) -> Response:
        event = _event(request, slug)
        return Response(_event_catalog_body(event))

    @extend_schema(request=s.CatalogChoiceInput, responses={200: dict})
    def post(self, request: Request, slug: str) -> Response:
        if not request.user.is_authenticated:
            raise Forbidden("Log in to choose the event's catalog.")
        event = _event(request, slug)
        clean = validated(s.CatalogChoiceInput, request.data)
        catalog = selectors.catalog_by_slug(clean["catalog"])
        if catalog is None:
            raise ServiceError(f"catalog: no catalog {clean['catalog']!r}.", field="catalog")
        services.event_catalog_set(actor=request.user, tournament=event, catalog=catalog)
        return Response(_event_catalog_body(event))


def _event_catalog_body(event: Tournament) -> dict[str, object]:
    chosen = selectors.event_catalog_chosen(event)
    catalog = selectors.event_catalog(event)
    return {
        "event": event.slug,
        "catalog": s.CatalogOutput(catalog).data if catalog is not None else None,
        "chosen": chosen,
    }


def _source(clean: dict) -> object:  # type: ignore[type-arg]
    return clean["text"] if "text" in clean else clean["data"]


@extend_schema(request=s.DecklistCheckInput, responses={200: dict})
@api_view(["POST"])
@permission_classes([permissions.AllowAny])
def decklist_check(request: Request) -> Response:
    """Validate a list against a format without saving it ("check my deck")."""
    clean = validated(s.DecklistCheckInput, request.data)
    event = None
    if clean.get("event"):
        event = event_visible(user=request.user, slug=clean["event"])
        if event is None or event.game != clean["game"]:
            raise ServiceError(
                f"event: no {clean['game']} event {clean['event']!r}.", field="event"
            )
    result = services.decklist_check(
        game=clean["game"],
        format_key=clean["format"],
        source=_source(clean),
        params=clean.get("params"),
        catalog=clean.get("catalog"),
        event=event,
    )
    return Response(
        {
            "report": result.report_json(),
            "statistics": result.statistics_json(),
            "text": result.text,
        }
    )


class RegistrationDecklistView(APIView):
    """A registration's decklist: GET the active version and history, POST a new version."""

    permission_classes = [permissions.IsAuthenticated]

    def _registration(self, request: Request, pk: int) -> Registration:
        registration = selectors.registration_get(pk)
        if registration is None:
            raise Http404("No such registration.")
        if not services.can_view_decklist(request.user, registration):
            raise Forbidden("You may not see this decklist.")
        return registration

    @extend_schema(responses={200: dict})
    def get(self, request: Request, pk: int) -> Response:
        registration = self._registration(request, pk)
        versions = selectors.decklist_versions(registration)
        active = versions.first()
        decklist = getattr(registration, "decklist", None)
        return Response(
            {
                "registration": registration.pk,
                "locked": services.decklist_lock_reason(registration.tournament),
                "unlocked": bool(decklist and decklist.unlocked),
                "active": s.DecklistVersionOutput(active).data if active else None,
                "versions": s.DecklistVersionSummary(versions, many=True).data,
            }
        )

    @extend_schema(request=s.DecklistSource, responses={201: s.DecklistVersionOutput})
    def post(self, request: Request, pk: int) -> Response:
        registration = get_object_or_404(Registration, pk=pk)
        clean = validated(s.DecklistSource, request.data)
        version = services.decklist_submit(
            actor=request.user, registration=registration, source=_source(clean)
        )
        return Response(s.DecklistVersionOutput(version).data, status=status.HTTP_201_CREATED)


@extend_schema(request=s.UnlockInput, responses={200: dict})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def decklist_unlock(request: Request, pk: int) -> Response:
    registration = get_object_or_404(Registration, pk=pk)
    clean = validated(s.UnlockInput, request.data)
    decklist = services.decklist_unlock(actor=request.user, registration=registration, **clean)
    return Response({"registration": registration.pk, "unlocked": decklist.unlocked})


class DecklistVersionViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    lookup_value_regex = r"\d+"  # anything else is a 404, not a crash
    serializer_class = s.DecklistVersionOutput
    permission_classes = [permissions.AllowAny]
    queryset = selectors.decklist_version_list()

    def get_object(self) -> DecklistVersion:
        version = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])
        if not services.can_view_decklist(self.request.user, version.decklist.registration):
            raise Forbidden("You may not see this decklist.")
        return version


def _event(request: Request, slug: str) -> Tournament:
    return visible_event(request, slug)


@extend_schema(responses={200: dict})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def event_decklists(request: Request, slug: str) -> Response:
    """Every registered player's list status: staff always; everyone once published."""
    event = _event(request, slug)
    is_staff = perms.is_staff_of(request.user, event)
    whole = event.decklists_published_at is not None
    one_by_one = services.published_one_by_one(event)
    if not (is_staff or whole or one_by_one):
        raise Forbidden("The decklists of this event are not published.")
    registrations = selectors.registered_players(event)
    latest = services.latest_versions(event)
    rows = []
    for r in registrations:
        published = whole or r.pk in one_by_one
        if not (is_staff or published):
            continue  # only the top decklists are public
        v = latest.get(r.pk)
        rows.append(
            {
                "registration": r.pk,
                "player": r.name,
                "player_id": r.player.player_id if r.player_id else None,
                "version": s.DecklistVersionSummary(v).data if v else None,
                "published": published,
            }
        )
    return Response(
        {"event": event.slug, "published_at": event.decklists_published_at, "decklists": rows}
    )


@extend_schema(request=s.PublishInput, responses={200: dict})
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def event_decklists_publish(request: Request, slug: str) -> Response:
    event = _event(request, slug)
    clean = validated(s.PublishInput, request.data)
    event = services.decklists_publish(actor=request.user, tournament=event, **clean)
    return Response({"event": event.slug, "published_at": event.decklists_published_at})


class EventDeckChecksView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=s.DeckCheckOutput(many=True))
    def get(self, request: Request, slug: str) -> Response:
        event = _event(request, slug)
        perms.require_staff(request.user, event)
        checks = selectors.deck_check_list(event).prefetch_related(
            "results__registration__player", "results__version"
        )
        return Response(s.DeckCheckOutput(checks, many=True).data)

    @extend_schema(request=s.DeckCheckInput, responses={201: s.DeckCheckOutput})
    def post(self, request: Request, slug: str) -> Response:
        event = _event(request, slug)
        clean = validated(s.DeckCheckInput, request.data)
        deck_check = services.deck_check_create(actor=request.user, tournament=event, **clean)
        return Response(s.DeckCheckOutput(deck_check).data, status=status.HTTP_201_CREATED)


@extend_schema(request=s.DeckCheckRecordInput, responses=s.DeckCheckResultOutput)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def deck_check_result(request: Request, pk: int) -> Response:
    result = get_object_or_404(DeckCheckResult, pk=pk)
    clean = validated(s.DeckCheckRecordInput, request.data)
    result = services.deck_check_record(actor=request.user, result=result, **clean)
    return Response(s.DeckCheckResultOutput(result).data)


@extend_schema(
    methods=["GET"],
    responses=paginated(s.CatalogOutput),
    description="The organisation's card catalogs, by game and name (anyone reads them).",
)
@extend_schema(
    methods=["POST"],
    request=s.OrganisationCatalogInput,
    responses={201: s.CatalogOutput},
    description="A new custom card catalog belonging to the organisation (its owners and "
    "organisers, who then import cards into it and choose it for their events; audited).",
)
@api_view(["GET", "POST"])
@permission_classes([permissions.AllowAny])
def organisation_catalogs(request: Request, slug: str) -> Response:
    organisation = get_object_or_404(Organisation, slug=slug)
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise Forbidden("Log in to make a card catalog.")
        clean = validated(s.OrganisationCatalogInput, request.data)
        catalog = services.custom_catalog_create(
            actor=request.user, game=clean["game"], name=clean["name"], organisation=organisation
        )
        catalog.card_count = 0  # type: ignore[attr-defined]
        return Response(s.CatalogOutput(catalog).data, status=status.HTTP_201_CREATED)
    paginator = Pagination()
    page = paginator.paginate_queryset(selectors.organisation_catalogs(organisation), request)
    return paginator.get_paginated_response(s.CatalogOutput(page, many=True).data)
