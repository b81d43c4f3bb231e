"""Standings, a player's standings line with its explanations, and the cut calculator."""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from config.errors import NotFound
from matches import selectors, services
from matches.models import RoundStage, RoundStatus, StandingsSnapshot
from matches.presenters import EN_DASH, score_text
from matches.services.stage_history import OWN_KINDS
from matches.views.common import (
    CUT_ROWS_PER_PAGE,
    STANDINGS_CACHE_SECONDS,
    STANDINGS_PER_PAGE,
    cache_key,
    registration_of,
)
from matches.views.tiebreaker_explanation import (
    FLOOR,
    _explanations,
    pct,
    tiebreaker_columns,
    tiebreaker_value,
)
from tournaments.models import TeamMember, Tournament
from tournaments.selectors import stage_rows, visible_event

VERDICT_LABELS = {
    "certain": gettext_lazy("makes the cut"),
    "possible": gettext_lazy("might make the cut"),
    "impossible": gettext_lazy("cannot make the cut"),
}


def _round_param(request: HttpRequest) -> int | None:
    raw = request.GET.get("round") or ""
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise Http404("No such round.") from None
    if not 0 < value < 10_000:
        raise Http404("No such round.")
    return value


def _stage_param(request: HttpRequest) -> int | None:
    raw = request.GET.get("stage") or ""
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 1000:
        raise Http404("No such stage.")
    return int(raw)


def _standings_stages(event: Tournament) -> list[dict[str, Any]]:
    """The stages with standings to show (a Swiss or round-robin stage with a finished round),
    in order: the stage picker's choices."""
    with_rounds = set(
        event.rounds.filter(stage__in=OWN_KINDS, status=RoundStatus.FINISHED).values_list(
            "stage_number", flat=True
        )
    )
    return [
        {"number": row.number, "name": row.name}
        for row in stage_rows(event)
        if not row.is_elimination and row.number in with_rounds
    ]


def _snapshot(
    event: Tournament, number: int | None, stage: int | None = None
) -> StandingsSnapshot | None:
    try:
        snapshot = services.standings_snapshot(event, number, stage)
    except NotFound:
        if number is not None or stage is not None:
            raise Http404("No standings after this round.") from None
        return None
    snapshot.round.tournament = event
    return snapshot


def _finished_stage_rounds(event: Tournament, stage: int) -> list[int]:
    """The finished Swiss or round-robin rounds of one stage: the round picker's choices."""
    return list(
        event.rounds.filter(stage__in=OWN_KINDS, status=RoundStatus.FINISHED, stage_number=stage)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _swiss_rounds_left(event: Tournament, after: int, stage: int) -> int:
    """The Swiss rounds left in stage ``stage`` after round ``after``: the stage's own
    ``rounds`` when it names them, else the event's planned or recommended count."""
    row = event.stages.filter(number=stage).first()
    own = row.to_rule().rounds if row is not None else None
    players = event.registrations.filter(status="registered").count()
    planned = own or selectors.swiss_rounds_planned(event, players)
    played = event.rounds.filter(
        stage=RoundStage.SWISS, stage_number=stage, number__lte=after
    ).count()
    return planned - played


def _tiebreaker_columns(event: Tournament) -> list[tuple[str, str]]:
    return tiebreaker_columns(event.tiebreakers)


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    asked_stage = _stage_param(request)
    stages = _standings_stages(event)
    if asked_stage is not None and asked_stage not in {s["number"] for s in stages}:
        raise Http404("No standings for this stage.")
    snapshot = _snapshot(event, _round_param(request), asked_stage)
    context: dict[str, Any] = {"event": event, "snapshot": snapshot}
    if snapshot is None:
        return render(request, "matches/standings.html", context)
    number = snapshot.round.number
    stage = snapshot.round.stage_number
    rounds = _finished_stage_rounds(event, stage)
    context.update(
        {
            "round_number": number,
            "rounds": rounds,
            "q": "",
            # The stage picker: shown when more than one stage has standings.
            "stages": stages if len(stages) > 1 else [],
            "stage_number": stage,
            "stage_name": next((s["name"] for s in stages if s["number"] == stage), ""),
        }
    )
    if selectors.standings_hidden_for(request.user, event, number):
        context["hidden"] = True
        return render(request, "matches/standings.html", context)
    q = (request.GET.get("q") or "").strip()[:100]
    page_param = request.GET.get("page") or "1"
    if not page_param.isdigit() or len(page_param) > 5:
        page_param = "1"
    stamp = snapshot.computed_at.timestamp()
    query = hashlib.sha1(q.casefold().encode()).hexdigest()[:12] if q else ""
    key = cache_key("standings", snapshot.pk, stamp, get_language(), page_param, query, event.slug)
    cached = cache.get(key)
    if cached is None:
        # Only a cache miss reads the stored rows (2,000 players: a few megabytes of JSON).
        rows = snapshot.rows
        if q:
            needle = q.casefold()
            rows = [r for r in rows if needle in r["name"].casefold()]
        full_page = Paginator(rows, STANDINGS_PER_PAGE).get_page(page_param)
        columns = _tiebreaker_columns(event)
        lines = [
            {
                **row,
                "tb": [
                    (k, label, tiebreaker_value(k, row["tiebreakers"].get(k)))
                    for k, label in columns
                ],
            }
            for row in full_page.object_list
        ]
        table = render_to_string(
            "matches/_standings_table.html",
            {"event": event, "columns": columns, "rows": lines, "round_number": number},
        )
        cached = {"table": table, "count": len(rows), "page": full_page.number}
        cache.set(key, cached, STANDINGS_CACHE_SECONDS)
    # The pager needs only the count: a paginator over numbers, not over the rows.
    page = Paginator(range(cached["count"]), STANDINGS_PER_PAGE).get_page(cached["page"])
    table = cached["table"]
    rows_count = cached["count"]
    rounds_left = _swiss_rounds_left(event, number, stage) if number == rounds[-1] else 0
    context.update(
        {
            "q": q,
            "page": page,
            "table": mark_safe(table),
            "count": rows_count,
            "show_cut_calculator": bool(event.top_cut_size) and rounds_left >= 1,
            "rounds_left": rounds_left,
            "registration": registration_of(request.user, event),
        }
    )
    return render(request, "matches/standings.html", context)


RESULT_LABELS = {
    "win": gettext_lazy("Win"),
    "loss": gettext_lazy("Loss"),
    "draw": gettext_lazy("Draw"),
}


def standings_player(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    event = visible_event(request, slug)
    snapshot = _snapshot(event, _round_param(request))
    if snapshot is None:
        raise Http404("No standings yet.")
    number = snapshot.round.number
    context: dict[str, Any] = {"event": event, "round_number": number}
    if selectors.standings_hidden_for(request.user, event, number):
        context["hidden"] = True
        return render(request, "matches/standings_player.html", context)
    row = next((r for r in snapshot.rows if r["registration"] == registration_id), None)
    if row is None:
        raise Http404("This player has no standings line.")
    lines: list[dict[str, Any]] = []
    for o in row["opponents"]:
        lines.append(
            {
                "round": o["round"],
                "opponent": o["name"],
                "registration": o["registration"],
                "result": RESULT_LABELS.get(o["result"], o["result"]),
                "games": score_text(o["games"], dash=EN_DASH, always_drawn=True),
                "mw": pct(o["match_win_pct"]),
                "gw": pct(o["game_win_pct"]),
            }
        )
    for r in row.get("bye_rounds") or ():
        lines.append({"round": r, "bye": True})
    lines.sort(key=lambda line: line["round"])
    rounds_played = row.get("rounds_played") or 0
    mw_text = _(
        "Match-win %%: your match points divided by 3 for each round you played (a bye counts "
        "as a win), at least %(floor)s: %(points)d / (3 \u00d7 %(rounds)d) = %(value)s."
    ) % {
        "floor": f"{FLOOR * 100:g}%",
        "points": row["points"],
        "rounds": rounds_played,
        "value": pct(row["match_win_pct"]),
    }
    context.update(
        {
            "row": row,
            "lines": lines,
            "mw_text": mw_text,
            "explanations": _explanations(event, row),
            "columns": _tiebreaker_columns(event),
        }
    )
    return render(request, "matches/standings_player.html", context)


def cut_calculator(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    snapshot = _snapshot(event, None)
    context: dict[str, Any] = {"event": event, "snapshot": snapshot}
    if snapshot is None:
        return render(request, "matches/cut_calculator.html", context)
    if selectors.standings_hidden_for(request.user, event, snapshot.round.number):
        context["hidden"] = True
        return render(request, "matches/cut_calculator.html", context)
    registration = registration_of(request.user, event)
    # A team event's rows are teams (``team``): "mine" is the signed-in player's team.
    key = "team" if event.is_team_event else "registration"
    own: int | None = None
    if registration is not None:
        own = (
            TeamMember.objects.filter(registration=registration)
            .values_list("team_id", flat=True)
            .first()
            if key == "team"
            else registration.pk
        )
    # Flights played side by side: ?stage=N, else the signed-in player's own flight.
    flights = [
        s for s in event.stages.filter(kind="swiss").order_by("number") if s.status == "running"
    ]
    raw = request.GET.get("stage") or ""
    asked = int(raw) if raw.isdigit() and 0 < int(raw) < 1000 else None
    if asked is None and own is not None:
        asked = next((s.number for s in flights if own in (s.players or ())), None)
    data = services.cut_calculator(event, asked)
    mine = None
    rows = []
    for row in data["rows"]:
        line = {
            **row,
            "verdicts": [
                (k, row[k], VERDICT_LABELS.get(row[k], row[k]), row["explanations"][k])
                for k in ("win", "draw", "loss")
            ],
        }
        if own is not None and row[key] == own:
            mine = line
        elif row["in_contention"]:
            rows.append(line)
    page = Paginator(rows, CUT_ROWS_PER_PAGE).get_page(request.GET.get("page"))
    context.update(
        {
            "data": data,
            "mine": mine,
            "page": page,
            "flights": [(s.number, s.name) for s in flights] if len(flights) > 1 else [],
        }
    )
    return render(request, "matches/cut_calculator.html", context)
