"""``{% match_clock_summary match %}``: the match clock's times, read-only, where judges and
organisers look at a match (templates/matches/clock_summary.html). Shows nothing when the
event runs no clock and the match has none."""

from __future__ import annotations

from typing import Any

from django import template

from matches import clock_services
from matches.presenters import clock_ms_text

register = template.Library()


@register.inclusion_tag("matches/clock_summary.html")
def match_clock_summary(match: Any) -> dict[str, Any]:
    if match is None or match.b_id is None:
        return {"clock": None}
    view = clock_services.clock_view_for_staff(match)
    if not view.enabled and view.events == 0:
        return {"clock": None}
    data = view.to_json()
    remaining = data.get("remaining_ms") or {}
    return {
        "clock": data,
        "match": match,
        "times": [
            {"side": s, "name": data["players"][s], "time": clock_ms_text(remaining.get(s))}
            for s in ("a", "b")
        ],
    }
