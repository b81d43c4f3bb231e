"""Metagame pages (an event's, a series'): the same reads as the API (metagame.selectors) and
the same writes (metagame.services). The coverage page is metagame/coverage_views.py's."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.pages import attempt
from decks.charts import hbar_chart
from metagame import selectors, services
from metagame.models import Archetype
from series.models import Series
from series.selectors import series_events
from tournaments.selectors import visible_event

EN_DASH = "\u2013"  # nothing to show (no rate, no match)
CHART_LABEL = 14
MAX_RULE_TEXT = 20_000


def short_label(name: str) -> str:
    """A bar's label, cut to fit the chart's label column (the table below has the full name)."""
    return name if len(name) <= CHART_LABEL else name[: CHART_LABEL - 1] + "\u2026"


def percent(value: float | None) -> str:
    return EN_DASH if value is None else f"{value * 100:.1f}%"


def present(data: dict[str, Any], chart_id: str, title: str) -> dict[str, Any]:
    """A breakdown ready for the template: rows with percentages, the matrix, the chart."""
    rows = data["archetypes"]
    names = [row["archetype"] for row in rows]
    shown = []
    for row in rows:
        against = {a["archetype"]: a for a in row["against"]}
        shown.append(
            {
                **row,
                "share_text": percent(row["share"]),
                "win_text": percent(row["match_win_rate"]),
                "battle_text": percent(row["battle_win_rate"]),
                "cells": [
                    {"name": other, "mirror": other == row["archetype"], **against.get(other, {})}
                    | {"text": _cell_text(row, other, against.get(other))}
                    for other in names
                ],
            }
        )
    chart = hbar_chart(
        chart_id=chart_id,
        title=title,
        desc=_(
            "Number of published decklists of each archetype; the table below has the same numbers."
        ),
        bars=[(short_label(row["archetype"]), row["players"]) for row in rows],
        empty_text=_("No published decklists yet"),
    )
    return {
        "lists": data["lists"],
        "rows": shown,
        "names": names,
        "chart": mark_safe(chart),  # built by decks.charts, every label escaped there
        "any_battles": any(row["battles_played"] for row in rows),
    }


def _cell_text(row: dict[str, Any], other: str, record: dict[str, Any] | None) -> str:
    if other == row["archetype"]:
        return (
            _("%(n)d mirror") % {"n": row["mirror_matches"]} if row["mirror_matches"] else EN_DASH
        )
    if record is None:
        return EN_DASH
    return f"{record['won']}-{record['lost']}-{record['drawn']}"


def event_metagame(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    is_organiser = services.may_manage(request.user, tournament=event)
    context: dict[str, Any] = {
        "event": event,
        "metagame": present(
            selectors.event_breakdown(event), "metagame-chart", _("Archetypes of the field")
        ),
        "is_organiser": is_organiser,
        "archetypes": selectors.archetypes_for_event(event),
    }
    if is_organiser:
        context["suggestions"] = selectors.event_suggestions(event)
        context["rule_example"] = RULE_EXAMPLE
    return render(request, "metagame/event_metagame.html", context)


RULE_EXAMPLE = json.dumps(
    {
        "all": [
            {"card": "Play X"},
            {"count": {"section": "heroes", "power": {"gte": 130}}, "min": 20},
        ]
    }
)


def archetype_form(request: HttpRequest) -> dict[str, object] | None:
    """An archetype form's name, rule and priority (templates/metagame/_archetype_fields.html),
    or None after telling the person that the rule is not JSON."""
    rule = _rule_from_text(request.POST.get("rule", ""))
    if rule is None:
        messages.error(request, _("rule: not valid JSON (see the example)."))
        return None
    return {
        "name": request.POST.get("name", ""),
        "rule": rule,
        "priority": _priority(request.POST.get("priority", "100")),
    }


def _rule_from_text(text: str) -> object:
    if len(text) > MAX_RULE_TEXT:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _priority(text: str) -> object:
    return int(text) if text.strip().isdigit() and len(text.strip()) <= 5 else text


@require_POST
@login_required
def event_archetype_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    if "cards" in request.POST and not request.POST.get("rule", ""):
        cards = [c for c in request.POST.getlist("cards") if c.strip()]
        attempt(
            request,
            lambda: services.archetype_from_group(
                actor=request.user,
                tournament=event,
                name=request.POST.get("name", ""),
                cards=cards,
                priority=_priority(request.POST.get("priority", "100")),
            ),
            _("Archetype added."),
        )
        return redirect("metagame:event_metagame", slug=event.slug)
    if not services.may_manage(request.user, tournament=event):
        raise PermissionDenied
    fields = archetype_form(request)
    if fields is not None:
        attempt(
            request,
            lambda: services.archetype_create(actor=request.user, tournament=event, **fields),
            _("Archetype added."),
        )
    return redirect("metagame:event_metagame", slug=event.slug)


@require_POST
@login_required
def archetype_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = visible_event(request, slug)
    archetype = get_object_or_404(Archetype, pk=pk, tournament=event)
    attempt(
        request,
        lambda: services.archetype_delete(actor=request.user, archetype=archetype),
        _("Archetype deleted."),
    )
    return redirect("metagame:event_metagame", slug=event.slug)


def series_metagame(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    data = selectors.series_breakdown(series)
    context = {
        "series": series,
        "metagame": present(data, "series-metagame-chart", _("Archetypes across the series")),
        "events": series_events(series),
        "may_define": services.may_manage(request.user, series=series),
    }
    return render(request, "metagame/series_metagame.html", context)
