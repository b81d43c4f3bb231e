"""A game's published rulings on card texts (its plugin's `rulings()`), for judges and players.

``GET /rules/rulings/?q=<card>&game=<key>``: a public page, searchable by card name, 25
rulings a page, printable. ``GET /api/rules/rulings/?q=<card>&game=<key>``: the same rulings as
JSON, paginated (limit/offset). ``game`` defaults to the site's default game; a game without
published rulings lists none (the page says so); an unknown game is a 400 naming ``game``. A
``q`` longer than :data:`MAX_Q` characters is a 400; a blank ``q`` lists every ruling. The
rulings are the engine's data, read once: no database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from config.errors import ServiceError
from config.pages import int_or_none
from config.pagination import Pagination
from engine.games import GAMES, CardRuling, GamePlugin, UnknownGame, default_game, get_game

MAX_Q = 100  # the longest card-name query (a game's rulings may accept less)
PAGE_SIZE = 25
MAX_PAGE = 10_000


def _too_long() -> str:
    return _("q: at most %(limit)d characters.") % {"limit": MAX_Q}


def _game(raw: str) -> GamePlugin:
    """The game asked for (blank: the default), or a 400 naming ``game``."""
    try:
        return get_game(raw.strip() or default_game())
    except UnknownGame:
        raise ServiceError(_("game: no such game."), field="game") from None


def _search(game: GamePlugin, q: str) -> tuple[Sequence[CardRuling], int]:
    """The game's rulings on cards named like ``q``, and how many it has in all."""
    source = game.rulings()
    if source is None:
        return (), 0
    if len(q) > source.max_query:
        raise ServiceError(_too_long(), field="q")
    return source.search(q), source.count()


def _row(ruling: CardRuling, game: GamePlugin) -> dict[str, Any]:
    return {
        **ruling.to_json(),
        "citations": [{"ref": c, "title": game.section_title(c) or ""} for c in ruling.citations],
    }


@require_GET
def rulings_page(request: HttpRequest) -> HttpResponse:
    """Every ruling, or those on the cards whose name holds ``q``; open to everyone."""
    raw = request.GET.get("q", "")
    if len(raw) > MAX_Q:
        context = {"problem": _too_long(), "field": "q"}
        return render(request, "bad_input.html", context, status=400)
    q = " ".join(raw.split())
    raw_game = request.GET.get("game", "")
    try:
        game = _game(raw_game)
        found, total = _search(game, q)
    except ServiceError as exc:
        context = {"problem": exc.message, "field": exc.field}
        return render(request, "bad_input.html", context, status=400)
    number = int_or_none(request.GET.get("page")) or 1
    page = Paginator(found, PAGE_SIZE).get_page(min(max(number, 1), MAX_PAGE))
    params = {"q": q} if q else {}
    if raw_game.strip():
        params["game"] = game.key
    keep = urlencode(params)
    context = {
        "q": q,
        "game": game,
        "has_rulings": game.rulings() is not None,
        "page": page,
        "rows": [_row(r, game) for r in page.object_list],
        "total": total,
        "keep_query": keep,
        "here": reverse("rulings") + (f"?{keep}" if keep else ""),
    }
    return render(request, "rules/rulings.html", context)


# --- the API ----------------------------------------------------------------------------------


class CardRulingOutput(serializers.Serializer):
    id = serializers.CharField(help_text="A stable slug naming the ruling.")
    card = serializers.CharField(help_text='The card\'s exact name in the play library, or "*".')
    question = serializers.CharField()
    answer = serializers.CharField(help_text="How the engine reads the card.")
    reasoning = serializers.CharField()
    citations = serializers.ListField(
        child=serializers.CharField(), help_text='Comprehensive Rules sections ("CR 5.2.1").'
    )


class RulingsPagination(Pagination):
    default_limit = PAGE_SIZE


class RulingsView(generics.ListAPIView):
    """The rulings on card texts, searchable by card name (public)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = CardRulingOutput
    pagination_class = RulingsPagination
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        raw = self.request.query_params.get("q", "")
        if len(raw) > MAX_Q:
            raise ServiceError(_too_long(), field="q")
        game = _game(self.request.query_params.get("game", ""))
        return [r.to_json() for r in _search(game, " ".join(raw.split()))[0]]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "q",
                str,
                description=f"Part of a card name (case-insensitive; at most {MAX_Q} "
                "characters). Blank: every ruling.",
            ),
            OpenApiParameter(
                "game",
                str,
                enum=list(GAMES),
                description="The game (a key of the registered games; blank: the default "
                "game). A game without published rulings lists none; an unknown one is a 400.",
            ),
        ],
        description="A game's rulings on card texts (its plugin's rulings: where a card's "
        "text admits more than one reading, the engine's reading with its reasoning and "
        "citations). Public.",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
