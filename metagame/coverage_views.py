"""The event's coverage page (/events/<slug>/coverage/) and its live part.

The page shows the standings' top, the bracket (the bracket page's own picture), the feature
matches, the top decklists once published and the metagame. Those sections are one fragment
(templates/metagame/_coverage_live.html) that static/js/coverage.js asks for again every
COVERAGE_POLL_SECONDS at /events/<slug>/coverage/live/ with the ETag it has: an unchanged
coverage is a 304 with no body, decided from a stamp of three small reads (the event row, the
overlays' live stamp and the event's audited-change version) without reading or rendering the
sections. Without JavaScript the page has a plain reload link.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config import published, shared_copies
from config.errors import NotFound
from decks import services as deck_services
from matches import selectors as match_selectors
from matches import services as match_services
from matches.models import RoundStage
from matches.views.bracket_page import bracket_parts
from metagame import selectors
from metagame.views import present
from overlays import selectors as overlay_selectors
from overlays.services import opted_out_side
from tournaments.audit import EVENT_COPIES
from tournaments.models import Tournament
from tournaments.selectors import visible_event

COVERAGE_STANDINGS = 16
COVERAGE_DECKLISTS = 16
COVERAGE_POLL_SECONDS = 20
# A change that leaves no mark on the event itself (an archetype of the event's series or
# organisation, a cache that lost the audited-change version) shows within this long.
COVERAGE_STAMP_SECONDS = 120


def _standings(request: HttpRequest, event: Tournament) -> dict[str, Any] | None:
    try:
        snapshot = match_services.standings_snapshot(event, None)
    except NotFound:
        return None
    number = snapshot.round.number
    if match_selectors.standings_hidden_for(request.user, event, number):
        return {"round_number": number, "hidden": True, "rows": []}
    return {"round_number": number, "hidden": False, "rows": snapshot.rows[:COVERAGE_STANDINGS]}


def _top_decklists(
    event: Tournament, standings: dict[str, Any] | None, assignments: dict[str, str]
) -> list[dict[str, Any]]:
    whole = event.decklists_published_at is not None
    published_ones = deck_services.published_one_by_one(event)
    if not (whole or published_ones):
        return []
    latest = deck_services.latest_versions(event)
    ranks = {row["registration"]: row["rank"] for row in (standings or {}).get("rows", [])}
    out = []
    registrations = event.registrations.filter(pk__in=list(latest)).select_related("player")
    for registration in registrations:
        if not (whole or registration.pk in published_ones):
            continue
        out.append(
            {
                "name": registration.name,
                "rank": ranks.get(registration.pk),
                "archetype": assignments.get(str(registration.pk), ""),
                "version": latest[registration.pk],
            }
        )
    out.sort(key=lambda d: (d["rank"] is None, d["rank"] or 0, d["name"]))
    return out[:COVERAGE_DECKLISTS]


def _feature_matches(event: Tournament) -> list[dict[str, Any]]:
    """The newest public round's feature matches, by slot; a match whose player chose not to
    be streamed is left out here as on its overlay (docs/overlays.md)."""
    shown = []
    for feature in overlay_selectors.feature_matches(event):
        match = feature.match
        if opted_out_side(match) is not None:
            continue
        reported = match.games_a is not None
        shown.append(
            {
                "slot": feature.slot,
                "round": feature.round.number,
                "table": match.table,
                "a": match.a.name,
                "b": match.b.name if match.b is not None else None,
                "score": f"{match.games_a}-{match.games_b}-{match.games_drawn or 0}"
                if reported
                else None,
            }
        )
    return shown


def coverage_stamp(request: HttpRequest, event: Tournament) -> str:
    """What the live sections show, in one string, read without building them: the overlays'
    live stamp (every round's content version, the rounds, the feature marks), the event's
    status and decklist publication, the version of its audited changes (an archetype, a
    decklist published one by one), who reads (hidden standings, staff-only bracket rounds),
    the language, and a slot of COVERAGE_STAMP_SECONDS."""
    audited = cache.get(shared_copies.version_key(EVENT_COPIES, event.pk)) or ""
    return "|".join(
        [
            overlay_selectors.live_stamp(event.pk),
            event.status,
            str(event.decklists_published_at),
            str(audited),
            str(request.user.pk or 0),
            get_language() or "",
            str(int(time.time() // COVERAGE_STAMP_SECONDS)),
        ]
    )


def _live_context(request: HttpRequest, event: Tournament) -> dict[str, Any]:
    data = selectors.event_breakdown(event)
    standings = _standings(request, event)
    has_bracket = (
        match_selectors.rounds_visible(request.user, event)
        .filter(stage=RoundStage.TOP_CUT)
        .exists()
    )
    parts = bracket_parts(request, event) if has_bracket else {}
    return {
        "event": event,
        "standings": standings,
        "has_bracket": has_bracket or bool(parts.get("stage_sections")),
        **parts,
        "decklists": _top_decklists(event, standings, data["assignments"]),
        "metagame": present(data, "coverage-metagame-chart", _("Archetypes of the field")),
        "feature_matches": _feature_matches(event),
        "updated_at": timezone.localtime(),
    }


def coverage(request: HttpRequest, slug: str) -> HttpResponse:
    """The event as coverage shows it, kept up to date by static/js/coverage.js."""
    event = visible_event(request, slug)
    context = {
        **_live_context(request, event),
        "live_url": reverse("metagame:coverage_live", kwargs={"slug": event.slug}),
        "live_etag": published.etag_for(coverage_stamp(request, event)),
        "poll_seconds": COVERAGE_POLL_SECONDS,
    }
    return render(request, "metagame/coverage.html", context)


def coverage_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The coverage page's live sections as an HTML fragment, or 304 (If-None-Match) while
    nothing they show changed."""
    event = visible_event(request, slug)
    stamp = coverage_stamp(request, event)
    found = published.conditional(request, version=stamp, changed_at=None)
    if found is not None:
        return published.not_modified_answer(found, private=True)
    response = render(request, "metagame/_coverage_live.html", _live_context(request, event))
    response["ETag"] = published.etag_for(stamp)
    response["Cache-Control"] = published.CACHE_CONTROL_PRIVATE
    response["Vary"] = ", ".join(published.VARY)
    return response
