"""The match report page a slip's QR code opens, its confirmation, and the match card's
context they and my match (matches.views.my_match_page) show."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Forbidden, ServiceError
from config.pages import attempt, next_or
from engine.games import get_game
from matches import clock_services, selectors, services
from matches.models import JudgeCall, Match, MatchStatus, RoundStage, RoundStatus
from matches.report_forms import (
    detail_games,
    detail_rows_from_post,
    detail_summary,
    report_form_state,
    report_from_post,
)
from matches.views.common import games_to_win_of, timer_context
from tournaments.models import Tournament


def _my_registration_id(user: Any, match: Match) -> int:
    if match.a.player_id == user.pk:
        return match.a_id
    return match.b_id or 0


def match_context(
    request: HttpRequest,
    event: Tournament,
    match: Match,
    *,
    problem: Exception | None = None,
) -> dict[str, Any]:
    """Everything the match card shows, from the player's own side. `problem`: why the
    report just posted was refused; the form is then filled with what was posted and says
    what to fix next to the field it names (matches.views.match_report_page)."""
    # The judge section reads the match's calls, their holders and rulings: one query each.
    prefetch_related_objects(
        [match],
        Prefetch("calls", queryset=JudgeCall.objects.select_related("holder")),
        "calls__rulings",
    )
    me = _my_registration_id(request.user, match)
    side = match.side_of(me)
    opponent = (match.b if side == "a" else match.a) if not match.is_bye else None
    reports = {r.registration_id: r for r in match.reports.all()} if not match.is_bye else {}

    def mine_first(games: tuple[int, int, int] | None) -> dict[str, int] | None:
        if games is None:
            return None
        won, lost = (games[0], games[1]) if side == "a" else (games[1], games[0])
        return {"won": won, "lost": lost, "drawn": games[2]}

    my_report = reports.get(me)
    their_report = reports.get(match.opponent_of(me) or -1)
    games_to_win = games_to_win_of(match.round)
    max_games = 2 * games_to_win - 1
    match_rules = get_game(event.game).match_rules()
    # The match clock's games (docs/match-clock.md): shown above the form, and filling in the
    # per-game inputs of a first report (the player may change them).
    clock_games = clock_services.table_games(match) if match.status != MatchStatus.FINAL else []
    clock_prefill = clock_services.form_prefill(match, clock_games) if my_report is None else []
    detail_inputs = (
        detail_games(
            match_rules,
            max_games,
            side,
            my_report.game_details if my_report and problem is None else None,
            names=(_("me"), opponent.name if opponent is not None else ""),
            prefill=detail_rows_from_post(request, match, side or "a")
            if problem is not None
            else clock_prefill,
        )
        if match_rules.has_game_details
        else []
    )
    names = {
        side or "a": _("you"),
        ("b" if side == "a" else "a"): opponent.name if opponent is not None else "",
    }
    # A first report's totals from the games the clock saw, as its per-game inputs are.
    clock_totals = None
    if my_report is None and clock_games:
        winners = [g.get("winner") for g in clock_games]
        other = "b" if side == "a" else "a"
        clock_totals = (winners.count(side or "a"), winners.count(other))
    form = report_form_state(
        request, match_rules, side or "a", names, detail_inputs, my_report, problem, clock_totals
    )

    def described(details: Any) -> list[str]:
        if details is None:
            return []
        visible = match.visible_details(details, side)
        return [
            " ".join(capfirst(text.render(_)) for text in game)
            for game in match_rules.describe(visible, names)
        ]

    result = mine_first(match.games) if match.status == MatchStatus.FINAL else None
    outcome = None
    if result is not None:
        if result["won"] > result["lost"]:
            outcome = "win"
        elif result["won"] < result["lost"]:
            outcome = "loss"
        else:
            outcome = "draw"
    return {
        "match": match,
        "round": match.round,
        "side": side,
        "opponent": opponent,
        "my_report": mine_first(my_report.games) if my_report else None,
        "their_report": mine_first(their_report.games) if their_report else None,
        "result": result,
        "outcome": outcome,
        "can_report": match.status != MatchStatus.FINAL
        and match.round.status == RoundStatus.PUBLISHED
        and not match.is_bye,
        "games_to_win": games_to_win,
        # Best of 1: one tap and a confirmation. A refused games-count post (a scorekeeper's
        # or an older page's) is shown again in the form it came from.
        "one_tap": games_to_win == 1
        and not (problem is not None and "outcome" not in request.POST),
        "draw_allowed": get_game(event.game).drawn_games
        and match.round.stage != RoundStage.TOP_CUT,
        "game_numbers": list(range(1, max_games + 1)),
        "detail_games": detail_inputs,
        "detail_summary": detail_summary(match_rules),
        "report": form,
        "drawn_games": get_game(event.game).drawn_games,
        "clock_games": clock_games,
        "clock_prefilled": bool(clock_prefill and detail_inputs),
        "clock_players": {"a": match.a.name, "b": match.b.name if match.b is not None else ""},
        "result_details": described(match.game_details)
        if match.status == MatchStatus.FINAL
        else [],
        "my_details": described(my_report.game_details) if my_report else [],
        "their_details": described(their_report.game_details) if their_report else [],
        "timer": timer_context(event, match.round, extension_minutes=match.extension_minutes),
        "report_url": reverse("match_report_page", kwargs={"pk": match.pk}),
        "confirm_url": reverse("match_confirm_page", kwargs={"pk": match.pk}),
    }


def _own_match(request: HttpRequest, pk: int) -> Match:
    """A match the person plays in; 404 when the selectors hide it, 403 for anyone else."""
    match = selectors.match_visible(request.user, pk)
    if services.acting_side(request.user, match) is None:
        raise PermissionDenied(_("You do not play in this match."))
    return match


@login_required
def match_report_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The page a match slip's QR code opens: the report form for the match's two players."""
    match = _own_match(request, pk)
    event = match.round.tournament
    problem: Exception | None = None
    if request.method == "POST":
        side = services.acting_side(request.user, match) or "a"
        try:
            data = report_from_post(request, match, side)
            reported = services.match_report(actor=request.user, match=match, **data)
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None
        except (ValueError, ServiceError) as exc:
            # Refused: the form again with everything typed, the problem next to its field.
            problem = exc
            match = _own_match(request, pk)
            event = match.round.tournament
        else:
            # A disputed match is no success: the player must stay and wait for a judge.
            say = messages.warning if reported.status == MatchStatus.DISPUTED else messages.success
            say(request, selectors.report_outcome(reported))
            return redirect(next_or(request, request.path))
    here = next_or(request, request.path) if problem is not None else request.path
    context: dict[str, Any] = {"event": event, "here": here, "standalone": True}
    context.update(match_context(request, event, match, problem=problem))
    return render(
        request, "matches/my_match.html", context, status=400 if problem is not None else 200
    )


@require_POST
@login_required
def match_confirm_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = _own_match(request, pk)
    attempt(
        request,
        lambda: services.match_confirm(actor=request.user, match=match),
        _("Result confirmed."),
    )
    return redirect(next_or(request, reverse("match_report_page", kwargs={"pk": match.pk})))
