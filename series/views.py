"""Series pages: the leaderboard with each player's events and points, and its CSV (the same
reads as the API: series.selectors)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from config.csvfile import csv_text
from organisations.ical import events_ics, ics_response
from series import selectors
from series.models import Series
from tournaments.status import PUBLIC

PAGE_SIZE = 100
MAX_QUERY = 60


def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    events = selectors.series_events(series)
    rows = selectors.current_leaderboard(series)
    query = (request.GET.get("q") or "").strip()[:MAX_QUERY]
    shown = [row for row in rows if query.casefold() in row["name"].casefold()] if query else rows
    names = {event.slug: event.name for event in events}
    page = Paginator(shown, PAGE_SIZE).get_page(request.GET.get("page"))
    page.object_list = [
        {
            **row,
            "result_names": [
                {**result, "name": names.get(result["event"], result["event"])}
                for result in row["results"]
            ],
        }
        for row in page.object_list
    ]
    return render(
        request,
        "series/series_detail.html",
        {"series": series, "events": events, "page": page, "q": query, "count": len(shown)},
    )


def series_csv(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    events = selectors.series_events(series)
    rows = selectors.current_leaderboard(series)
    header = [_("rank"), _("player id"), _("name"), _("points"), _("events")]
    header += [event.slug for event in events]
    lines = []
    for row in rows:
        per_event = {result["event"]: result["points"] for result in row["results"]}
        lines.append(
            [row["rank"], row["player_id"], row["name"], row["points"], row["events"]]
            + [per_event.get(event.slug, "") for event in events]
        )
    response = HttpResponse(csv_text(header, lines), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-leaderboard.csv"'
    return response


FEED_SIZE = 200


def series_ics(request: HttpRequest, slug: str) -> HttpResponse:
    """The series' public events as an iCalendar feed (RFC 5545), newest first."""
    series = get_object_or_404(Series, slug=slug)
    events = [e for e in selectors.series_events(series) if e.status in PUBLIC][-FEED_SIZE:]
    base_url = request.build_absolute_uri("/").rstrip("/")
    return ics_response(events_ics(events, series.name, base_url=base_url), f"{series.slug}.ics")
