"""The top-cut bracket page, rendered once per version of the bracket the reader sees."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy

from matches import selectors, services
from matches.bracket_drawing import bracket_columns, bracket_svg
from matches.models import Match, Round, RoundStage
from matches.views.common import PAIRINGS_CACHE_SECONDS, cache_key
from tournaments.models import Tournament
from tournaments.selectors import visible_event

POLICY_LABELS = {
    "strict": gettext_lazy(
        "Strict: the top players by the final standings, tiebreakers included, make the cut."
    ),
    "points": gettext_lazy(
        "By points: everyone on the same match points as the last qualified place is in too "
        "(so the top seeds may get a bye)."
    ),
}


def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    cut_rounds = list(
        selectors.rounds_visible(request.user, event).filter(stage=RoundStage.TOP_CUT)
    )
    for r in cut_rounds:
        r.tournament = event
    # Rendered once per version of the top cut this reader sees (staff see unpublished
    # bracket rounds: another version, so another copy) and language.
    version = selectors.top_cut_version(event, cut_rounds)
    key = cache_key(
        "bracket", event.pk, get_language(), hashlib.sha256(version.encode()).hexdigest()
    )
    body = cache.get(key)
    if body is None:
        body = _bracket_body(event, cut_rounds)
        cache.set(key, body, PAIRINGS_CACHE_SECONDS)
    context = {"event": event, "bracket_body": mark_safe(body)}  # our autoescaping template
    return render(request, "matches/bracket.html", context)


def _bracket_body(event: Tournament, cut_rounds: list[Round]) -> str:
    matches: dict[int, list[Match]] = {r.pk: [] for r in cut_rounds}
    if cut_rounds:
        for m in Match.objects.filter(round__in=cut_rounds).select_related(
            "a__player", "b__player"
        ):
            matches[m.round_id].append(m)
    pairs = [(r, matches[r.pk]) for r in cut_rounds]
    columns = bracket_columns(pairs)
    champion = services.champion_of(event) if cut_rounds else None
    stats = cut_rounds[0].pairing_stats if cut_rounds else {}
    policy = (stats or {}).get("policy") or event.cut_policy
    context = {
        "event": event,
        "svg": bracket_svg(columns, champion.name if champion else None),
        "rounds": [
            {"round": r, "boxes": col} for (r, _m), col in zip(pairs, columns, strict=False)
        ],
        "champion": champion,
        "policy": policy,
        "policy_label": POLICY_LABELS.get(policy, policy),
        "notes": (stats or {}).get("notes") or [],
    }
    return render_to_string("matches/_bracket_body.html", context)
