"""The rulings on card texts (engine/boba/rulings.json), for judges and players.

``GET /rules/rulings/?q=<card>``: a public page, searchable by card name, 25 rulings a page,
printable. ``GET /api/rules/rulings/?q=<card>``: the same rulings as JSON, paginated
(limit/offset). A ``q`` longer than :data:`MAX_Q` characters is a 400; a blank ``q`` lists
every ruling. The rulings are the engine's data, read once: no database.
"""

from __future__ import annotations

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
from engine.boba import rulings
from engine.boba.rule_sections import section_title

MAX_Q = rulings.MAX_QUERY
PAGE_SIZE = 25
MAX_PAGE = 10_000


def _too_long() -> str:
    return _("q: at most %(limit)d characters.") % {"limit": MAX_Q}


def _row(ruling: rulings.Ruling) -> dict[str, Any]:
    return {
        **ruling.to_json(),
        "citations": [{"ref": c, "title": section_title(c) or ""} for c in ruling.citations],
    }


@require_GET
def rulings_page(request: HttpRequest) -> HttpResponse:
    """Every ruling, or those on the cards whose name holds ``q``; open to everyone."""
    raw = request.GET.get("q", "")
    if len(raw) > MAX_Q:
        context = {"problem": _too_long(), "field": "q"}
        return render(request, "bad_input.html", context, status=400)
    q = " ".join(raw.split())
    number = int_or_none(request.GET.get("page")) or 1
    page = Paginator(rulings.search(q), PAGE_SIZE).get_page(min(max(number, 1), MAX_PAGE))
    keep = urlencode({"q": q}) if q else ""
    context = {
        "q": q,
        "page": page,
        "rows": [_row(r) for r in page.object_list],
        "total": len(rulings.all_rulings()),
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
        return [r.to_json() for r in rulings.search(" ".join(raw.split()))]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "q",
                str,
                description=f"Part of a card name (case-insensitive; at most {MAX_Q} "
                "characters). Blank: every ruling.",
            )
        ],
        description="The rulings on card texts (engine/boba/rulings.json): where a Play's "
        "text admits more than one reading, the engine's reading with its reasoning and "
        "citations. Public.",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
