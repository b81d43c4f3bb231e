"""The top-cut bracket page, rendered once per version of the bracket the reader sees."""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from matches import selectors, services
from matches.bracket_drawing import BracketBox, Slot, bracket_columns, bracket_svg, side_svg
from matches.models import Match, Round, RoundStage, TeamMatch
from matches.services import stages, team_stages
from matches.views.common import PAIRINGS_CACHE_SECONDS, cache_key
from tournaments.models import Registration, Stage, Team, Tournament
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
    return render(
        request, "matches/bracket.html", {"event": event, **bracket_parts(request, event)}
    )


def bracket_parts(request: HttpRequest, event: Tournament) -> dict[str, Any]:
    """The bracket page's picture as the reader may see it: ``bracket_body`` (the top cut's
    drawing and list) and ``stage_sections`` (other elimination and round-robin stages); the
    coverage page embeds the same."""
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
        # A team event's brackets are of teams: drawn by their stage sections only (the
        # legacy drawing reads a round's matches, which are boards there).
        body = _bracket_body(event, [] if event.is_team_event else cut_rounds)
        cache.set(key, body, PAIRINGS_CACHE_SECONDS)
    return {
        "bracket_body": mark_safe(body),  # our autoescaping template
        "stage_sections": stage_sections(event),
    }


SIDE_TITLES = {
    "single": gettext_lazy("Bracket"),
    "winners": gettext_lazy("Winners' side"),
    "losers": gettext_lazy("Losers' side"),
    "grand_final": gettext_lazy("Grand final"),
}


def stage_sections(event: Tournament) -> list[dict[str, Any]]:
    """The stages the legacy top-cut drawing does not cover (event-structures: Stages): each
    started elimination stage paired by tournaments.brackets drawn side by side (a double
    elimination's winners' side, losers' side and grand final), each round robin as a table
    of who beat whom. A few queries a stage; brackets hold at most 256 players."""
    sections: list[dict[str, Any]] = []
    for row in event.stages.order_by("number"):
        if row.players is None:
            continue
        if row.is_elimination and not stages.is_legacy_bracket(event, row):
            sections.append(_elimination_section(event, row))
        elif row.kind == "round_robin":
            sections.append(_round_robin_section(event, row))
    return sections


def _names(ids: list[int]) -> dict[str, str]:
    return {
        str(r.pk): r.name for r in Registration.objects.filter(pk__in=ids).select_related("player")
    }


def _team_names(event: Tournament) -> dict[str, str]:
    return {
        str(pk): name
        for pk, name in Team.objects.filter(tournament=event).values_list("pk", "name")
    }


def _elimination_section(event: Tournament, row: Stage) -> dict[str, Any]:
    state = stages.bracket_of(event, row)
    teams_play = event.is_team_event
    names = _team_names(event) if teams_play else _names(list(row.players or ()))
    games: dict[str, tuple[int, int]] = {}
    deciders = team_stages.team_bracket_winners(event, row) if teams_play else {}
    rounds = event.rounds.filter(stage_number=row.number, stage=RoundStage.TOP_CUT)
    refs_of = {r.pk: (r.pairing_stats or {}).get("bracket", {}).get("refs", {}) for r in rounds}
    if teams_play:
        # A team match's score is its boards (won by a, won by b); a decided tie's winner
        # comes from the bracket state below.
        for tm in TeamMatch.objects.filter(round__in=rounds, status="final", team_b__isnull=False):
            code = refs_of.get(tm.round_id, {}).get(str(tm.table))
            if code:
                games[code] = (tm.boards_a, tm.boards_b)
    for m in (
        []
        if teams_play
        else Match.objects.filter(round__in=rounds, status="final", b__isnull=False)
    ):
        code = refs_of.get(m.round_id, {}).get(str(m.table))
        if code and m.games_a is not None and m.games_b is not None:
            games[code] = (m.games_a, m.games_b)
    sides: dict[str, list[tuple[str, list[BracketBox]]]] = {}
    for rnd in state.rounds:
        boxes = []
        for m in rnd.matches:
            played = games.get(m.ref.code)
            won = None
            if played is not None:
                won = m.a if played[0] > played[1] else m.b
                if played[0] == played[1]:  # a team match tied on boards: the decider's side
                    won = deciders.get(m.ref.code)
            elif m.b is None:
                won = m.a
            top = Slot(m.seed_a, names.get(m.a, m.a), played[0] if played else None, won == m.a)
            if m.b is None:
                bottom = Slot(None, str(_("bye")), bye=True)
            else:
                bottom = Slot(
                    m.seed_b, names.get(m.b, m.b), played[1] if played else None, won == m.b
                )
            boxes.append(BracketBox(None, top, bottom, played is not None))
        sides.setdefault(rnd.side, []).append((rnd.name, boxes))
    champion = names.get(state.champion) if state.champion else None
    pictures = []
    order = [k for k in ("single", "winners", "losers", "grand_final") if k in sides]
    for k, side in enumerate(order):
        last = k == len(order) - 1
        title = str(SIDE_TITLES[side])
        pictures.append(
            {
                "title": title,
                "svg": side_svg(title, sides[side], champion if last else None),
                "rounds": sides[side],
            }
        )
    return {"stage": row, "kind": "elimination", "sides": pictures, "champion": champion}


def _round_robin_section(event: Tournament, row: Stage) -> dict[str, Any]:
    ids = list(row.players or ())
    result: dict[tuple[int, int], str] = {}
    if event.is_team_event:
        # A round robin of teams: each cell a team match's boards.
        names = _team_names(event)
        for tm in TeamMatch.objects.filter(
            round__tournament=event,
            round__stage_number=row.number,
            status="final",
            team_b__isnull=False,
        ):
            assert tm.team_b_id is not None
            a, b = tm.boards_a, tm.boards_b
            result[(tm.team_a_id, tm.team_b_id)] = f"{a}\u2013{b}"
            result[(tm.team_b_id, tm.team_a_id)] = f"{b}\u2013{a}"
    else:
        names = _names(ids)
    for m in (
        []
        if event.is_team_event
        else Match.objects.filter(
            round__tournament=event, round__stage_number=row.number, status="final", b__isnull=False
        )
    ):
        a, b = m.games_a or 0, m.games_b or 0
        result[(m.a_id, m.b_id)] = f"{a}\u2013{b}"
        result[(m.b_id, m.a_id)] = f"{b}\u2013{a}"
    table = [
        {
            "name": names.get(str(pid), str(pid)),
            "cells": ["\u00d7" if pid == other else result.get((pid, other), "") for other in ids],
        }
        for pid in ids
    ]
    return {
        "stage": row,
        "kind": "round_robin",
        "heads": [names.get(str(pid), str(pid)) for pid in ids],
        "table": table,
    }


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
