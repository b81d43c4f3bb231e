"""The rounds section of tournaments' event page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from django.utils.safestring import mark_safe

from config import shared_copies
from matches import selectors
from matches.models import VISIBLE_TO_PLAYERS, Round, RoundStage, RoundStatus
from matches.panel import etag
from matches.panel_views import panel_for
from matches.views.common import timer_context
from matches.views.placings_page import final_summary
from tournaments.models import Tournament
from tournaments.selectors import stage_timeline

SCHEDULE_BREAK_MINUTES = 10  # between rounds, for the estimated start times


def rounds_section(request: HttpRequest, event: Tournament, registered: int) -> dict[str, Any]:
    """The rounds, the current timer and the schedule for tournaments' event page: one query
    for the rounds (no per-round queries)."""
    rounds = selectors.rounds_visible_list(request.user, event)
    current = next((r for r in reversed(rounds) if r.status == RoundStatus.PUBLISHED), None)
    latest_published = next(
        (r.number for r in reversed(rounds) if r.status in VISIBLE_TO_PLAYERS), None
    )
    planned = selectors.swiss_rounds_planned(event, registered)
    by_number = {r.number: r for r in rounds}
    step = timedelta(minutes=event.round_minutes + SCHEDULE_BREAK_MINUTES)
    schedule = []
    for n in range(1, planned + 1):
        r = by_number.get(n)
        schedule.append(
            {
                "number": n,
                "round": r,
                "estimate": None if r is not None else event.starts_at + (n - 1) * step,
            }
        )
    has_cut = any(r.stage == RoundStage.TOP_CUT for r in rounds)
    timeline = stage_timeline(event)
    with_standings = {
        r.stage_number
        for r in rounds
        if r.stage != RoundStage.TOP_CUT and r.status == RoundStatus.FINISHED
    }
    with_rounds = {r.stage_number for r in rounds}
    for stage in timeline:
        stage["has_standings"] = stage["number"] in with_standings
        stage["has_bracket"] = (
            stage["kind"] != "swiss"
            and stage["kind"] != "round_robin"
            and (stage["number"] in with_rounds)
        )
    return {
        # The event's stages (event-structures: Stages), listed when there is more than one
        # stage or it is not a Swiss: each links to its standings or its bracket.
        "stages": timeline
        if len(timeline) > 1 or (timeline and timeline[0]["kind"] != "swiss")
        else [],
        "rounds": rounds,
        "current_round": current,
        "latest_published": latest_published,
        "timer": timer_context(event, current) if current else None,
        "schedule": schedule,
        "has_cut": has_cut,
        "has_standings": any(
            r.stage == RoundStage.SWISS and r.status == RoundStatus.FINISHED for r in rounds
        ),
        "final_placings": final_summary(event),
    }


def dashboard_panel(request: HttpRequest, event: Tournament) -> dict[str, Any]:
    """The organiser dashboard's round panel, from its shared copy (matches.panel_views)."""
    copy = panel_for(event, request.user.pk)
    return {
        "panel_html": mark_safe(shared_copies.personal(request, copy["html"])),
        "panel_etag": etag(copy, "html"),
        "panel_poll_seconds": settings.ROUND_PANEL_POLL_SECONDS,
        "panel_now": timezone.now(),
    }


class RoundsPagesOfMatches:
    """What tournaments' pages show of the rounds (tournaments.extensions.RoundsPages)."""

    def rounds_section(
        self, request: HttpRequest, event: Tournament, registered: int
    ) -> dict[str, Any]:
        return rounds_section(request, event, registered)

    def rounds_timer(self, event: Tournament, current_round: Round) -> dict[str, Any] | None:
        return timer_context(event, current_round)

    def dashboard_panel(self, request: HttpRequest, event: Tournament) -> dict[str, Any]:
        return dashboard_panel(request, event)
