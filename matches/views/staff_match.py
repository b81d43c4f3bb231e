"""One match for staff: its reports and result versions, entering or correcting its result
(with a preview of what a correction changes), and a table's extension.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Forbidden, ServiceError
from config.pages import attempt, int_or_none, next_or
from engine.errors import MAX_RECORD_DEPTH, json_problem
from engine.frozen import thaw
from engine.games import GameDetailsError, get_game
from matches import selectors, services
from matches.models import Match, MatchStatus, RoundStatus
from matches.presenters import score_text
from matches.report_forms import detail_games, details_from_post, problem_text
from matches.views.staff_common import match_url, round_url, staff_match, staff_timer_context
from tournaments import permissions as perms


def _games_from(request: HttpRequest) -> tuple[int, int, int] | None:
    values = [
        int_or_none(request.POST.get(name, "0" if name == "games_drawn" else ""))
        for name in ("games_a", "games_b", "games_drawn")
    ]
    if any(v is None or v < 0 for v in values):
        return None
    won_a, won_b, drawn = values
    assert won_a is not None and won_b is not None and drawn is not None
    return (won_a, won_b, drawn)


def _game_lines(match: Match) -> list[str]:
    """Each game of the recorded result in words, as the event's game describes it."""
    name_b = match.b.name if match.b is not None else ""
    return selectors.game_detail_lines(
        match.round.tournament.game, match.game_details, match.a.name, name_b
    )


def _staff_detail_games(match: Match) -> list[dict[str, Any]]:
    """The per-game inputs of the event's game for staff: a's and b's, filled with the
    recorded details (matches.report_forms.detail_games)."""
    event = match.round.tournament
    rules = get_game(event.game).match_rules()
    if match.b is None or not rules.has_game_details:
        return []
    structure = services.round_structure(match.round)
    return detail_games(
        rules,
        structure.max_games if structure is not None else 1,
        "a",
        match.game_details,
        names=(match.a.name, match.b.name),
        staff=True,
    )


def _problem_text(match: Match, exc: Exception) -> str:
    """A refusal in words: refused game details as "Game 1, Ether bid: …" with the players'
    names (matches.report_forms.problem_text), the API's field path left out."""
    cause = exc.__cause__ if isinstance(exc, ServiceError) else exc
    if isinstance(cause, GameDetailsError):
        rules = get_game(match.round.tournament.game).match_rules()
        names = {"a": match.a.name, "b": match.b.name if match.b is not None else ""}
        return problem_text(cause, rules, names, None)
    return exc.message if isinstance(exc, ServiceError) else str(exc)


def json_text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _staff_details(request: HttpRequest, match: Match) -> Any:
    """The game details staff posted: from the preview's hidden JSON on the apply step, else
    from the per-game inputs. A ValueError says what does not read."""
    if request.POST.get("step") == "apply":
        raw = request.POST.get("game_details_json", "")
        if not raw:
            return None
        try:
            details = json.loads(raw[:100_000])
        except (ValueError, RecursionError):
            raise ValueError(_("The game details do not read; enter them again.")) from None
        if json_problem(details, MAX_RECORD_DEPTH) is not None:  # never from the preview
            raise ValueError(
                _("Game details: no NUL characters, no nesting %(n)d levels deep.")
                % {"n": MAX_RECORD_DEPTH}
            )
        return details
    posted = details_from_post(request, match, "a", staff=True)
    if posted is not None and match.game_details is not None:
        rules = get_game(match.round.tournament.game).match_rules()
        if posted == thaw(rules.details_from_form(rules.form_values(match.game_details))):
            return None  # the recorded details, untouched: kept or dropped with the games
    return posted


def _match_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    round_ = match.round
    event = round_.tournament
    back = next_or(request, round_url(round_, f"table-{match.table}" if match.table else ""))
    context = {
        "event": event,
        "round": round_,
        "match": match,
        "reports": list(match.reports.select_related("registration__player").order_by("id")),
        "versions": list(match.versions.select_related("actor").order_by("number")),
        "is_organiser": perms.is_organiser_of(request.user, event),
        "result_text": score_text(match.games),
        "game_lines": _game_lines(match),
        "detail_games": _staff_detail_games(match),
        "drawn_games": get_game(event.game).drawn_games,
        "back": back,
        "max_extension": services.MAX_EXTENSION_MINUTES,
        "can_enter": round_.status in (RoundStatus.PUBLISHED, RoundStatus.FINISHED)
        and not match.is_bye,
    }
    context.update(staff_timer_context(round_, match.extension_minutes))
    return context


@login_required
def match_staff(request: HttpRequest, pk: int) -> HttpResponse:
    """A match for staff: reports, every result version, enter or correct, extend."""
    match = staff_match(request, pk)
    if request.method != "POST":
        return render(request, "matches/staff/match.html", _match_context(request, match))
    here = match_url(match, "result")
    next_param = request.POST.get("next", "")
    if next_param:
        here = (
            reverse("match_staff", args=[match.pk])
            + "?"
            + urlencode({"next": next_or(request, "")})
            + "#result"
        )
    games = _games_from(request)
    if games is None:
        messages.error(request, _("Games: whole numbers, 0 or more, for both players."))
        return redirect(here)
    try:
        details = _staff_details(request, match)
    except ValueError as exc:
        messages.error(request, _problem_text(match, exc))
        return redirect(here)
    reason = " ".join(request.POST.get("reason", "").split())
    same_details = details is None or details == match.game_details
    correcting = match.status == MatchStatus.FINAL and (match.games != games or not same_details)
    if match.status == MatchStatus.FINAL and match.games == games and same_details:
        messages.info(request, _("That is already this match's result: nothing changed."))
        return redirect(here)
    if correcting and request.POST.get("step") != "apply":
        if not reason:
            messages.error(request, _("Reason: say why this final result is being corrected."))
            return redirect(here)
        try:
            preview = services.correction_preview(
                actor=request.user, match=match, games=games, game_details=details
            )
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None
        except ServiceError as exc:
            messages.error(request, _problem_text(match, exc))
            return redirect(here)
        context = _match_context(request, match)
        rows = []
        for change in preview.get("changes", []):
            tb_before, tb_after = change["tiebreakers"]
            changed = [
                (name, tb_before.get(name), value)
                for name, value in tb_after.items()
                if tb_before.get(name) != value
            ]
            rows.append({**change, "changed_tiebreakers": changed})
        context.update(
            preview=preview,
            preview_rows=rows,
            proposed=games,
            proposed_text=score_text(games),
            proposed_details_json=json_text(details) if details is not None else "",
            reason=reason,
        )
        return render(request, "matches/staff/match.html", context)
    try:
        services.match_report(
            actor=request.user,
            match=match,
            games=list(games),
            game_details=details,
            reason=reason,
            confirm_override=request.POST.get("confirm_override") == "1",
        )
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except services.OverridesReport as exc:
        # Ask once more, on the page, showing whose report this result replaces.
        context = _match_context(request, match)
        context.update(
            override=exc,
            override_reported=score_text(exc.reported),
            proposed=games,
            proposed_text=score_text(games),
            proposed_details_json=json_text(details) if details is not None else "",
            reason=reason,
        )
        return render(request, "matches/staff/match.html", context, status=409)
    except ServiceError as exc:
        messages.error(request, _problem_text(match, exc))
        return redirect(here)
    messages.success(
        request,
        (_("Result corrected to %(r)s.") if correcting else _("Result %(r)s entered."))
        % {"r": score_text(games)},
    )
    return redirect(here)


@require_POST
@login_required
def match_extend(request: HttpRequest, pk: int) -> HttpResponse:
    match = staff_match(request, pk)
    minutes = int_or_none(request.POST.get("minutes"))
    if minutes is None:
        messages.error(request, _("Minutes: a whole number from 0 to 60."))
    else:
        attempt(
            request,
            lambda: services.match_extend(actor=request.user, match=match, minutes=minutes),
            _("Table %(t)s has %(m)d extra minutes.") % {"t": match.table or "—", "m": minutes},
        )
    return redirect(next_or(request, match_url(match, "extension")))
