"""Player-facing pages for the rounds: pairings, my match and its report form, the round timer,
standings with their explanations, the cut calculator, the bracket and the venue projector.

Thin views over matches.services and matches.selectors (the same calls as matches/api.py).
The pages 2,000 players reload at once (pairings, standings, the projector list) render their
body once per round version / standings snapshot and keep it in django.core.cache; only the
small per-person part (the "your table" banner) is rendered per request.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Forbidden, NotFound, ServiceError
from config.pages import attempt, next_or
from engine.games import DetailField, GameDetailsError, MatchRules, for_reader, get_game
from matches import clock_services, selectors, services
from matches.models import (
    VISIBLE_TO_PLAYERS,
    JudgeCall,
    Match,
    MatchStatus,
    Round,
    RoundStage,
    RoundStatus,
    StandingsSnapshot,
)
from tournaments.models import Registration, Tournament
from tournaments.selectors import visible_event
from tournaments.standings import TIEBREAKER_LABELS, Scoring

PAIRINGS_CACHE_SECONDS = 6 * 3600
STANDINGS_CACHE_SECONDS = 6 * 3600
STANDINGS_PER_PAGE = 200
CUT_ROWS_PER_PAGE = 200
SCHEDULE_BREAK_MINUTES = 10  # between rounds, for the estimated start times
FLOOR = Scoring().floor

# The pure core's English labels, marked for translation here (same text as TIEBREAKER_LABELS).
TIEBREAKER_NAMES = {
    "omw": gettext_lazy("opponents' match-win %"),
    "gw": gettext_lazy("game-win %"),
    "ogw": gettext_lazy("opponents' game-win %"),
    "battle_diff": gettext_lazy("battle differential"),
    "h2h": gettext_lazy("head-to-head"),
}
PERCENT_TIEBREAKERS = ("omw", "gw", "ogw")
VERDICT_LABELS = {
    "certain": gettext_lazy("makes the cut"),
    "possible": gettext_lazy("might make the cut"),
    "impossible": gettext_lazy("cannot make the cut"),
}


# --- small reads and formatting (no selector covers these) ------------------------------------


def tiebreaker_label(key: str) -> str:
    return str(TIEBREAKER_NAMES.get(key) or TIEBREAKER_LABELS.get(key, key))


def pct(value: Any) -> str:
    """0.6123 -> "61.2%"."""
    if value is None:
        return "—"
    return f"{float(value) * 100:.1f}%"


def tiebreaker_value(key: str, value: Any) -> str:
    if value is None:
        return "—"
    if key in PERCENT_TIEBREAKERS or isinstance(value, float):
        return pct(value)
    if key == "battle_diff":
        return f"{int(value):+d}"
    return str(value)


def _mmss(seconds: int) -> str:
    seconds = abs(int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def _cache_key(*parts: Any) -> str:
    return ":".join(str(p) for p in parts)


def timer_context(
    event: Tournament, round_: Round, *, extension_minutes: int = 0, now: datetime | None = None
) -> dict[str, Any] | None:
    """What templates/matches/_timer.html shows; None unless the round is being played."""
    if round_.status != RoundStatus.PUBLISHED:
        return None
    now = now or timezone.now()
    view = selectors.timer_view(round_, now)
    ends_at = view.ends_at + timedelta(minutes=extension_minutes) if view.ends_at else None
    remaining = view.remaining_seconds + extension_minutes * 60
    return {
        "state": view.state,
        "ends_at": view.ends_at,
        "table_ends_at": ends_at,
        "remaining": view.remaining_seconds,
        "table_remaining": remaining,
        "remaining_text": _mmss(remaining),
        "overtime": view.state == "running" and remaining < 0,
        "extension_seconds": extension_minutes * 60,
        "extension_minutes": extension_minutes,
        "now": now,
        "ends_at_iso": view.ends_at.isoformat(timespec="milliseconds") if view.ends_at else "",
        "now_iso": now.isoformat(timespec="milliseconds"),
        "url": reverse("api-round-timer", kwargs={"slug": event.slug, "number": round_.number}),
        "time_zone": event.time_zone,
        "round_number": round_.number,
    }


def registration_of(user: Any, event: Tournament) -> Registration | None:
    return selectors.registration_of(user, event)


# --- pairings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """One line of the alphabetical list: a player, his table, seat and opponent."""

    name: str
    table: int | None
    seat: str
    opponent: str | None
    bye: bool
    record: str | None = None


NO_RECORD = "0-0-0"


def pairing_lists(
    matches: list[Match], records: Mapping[int, str] | None = None
) -> tuple[list[Match], list[Seat]]:
    """By table (byes last) and alphabetically by name (each player once). With `records`
    (registration id -> record going into the round), each match carries `a_record` and
    `b_record` and each seat its player's record; without, none is shown."""
    by_table = sorted(matches, key=lambda m: (m.b_id is None, m.table or 0, m.pk))

    def record_of(registration_id: int | None) -> str | None:
        if records is None or registration_id is None:
            return None
        return records.get(registration_id, NO_RECORD)

    seats: list[Seat] = []
    for m in matches:
        m.a_record, m.b_record = record_of(m.a_id), record_of(m.b_id)  # type: ignore[attr-defined]
        if m.b is None:
            seats.append(Seat(m.a.name, m.table, "", None, True, record_of(m.a_id)))
            continue
        seats.append(Seat(m.a.name, m.table, "A", m.b.name, False, record_of(m.a_id)))
        seats.append(Seat(m.b.name, m.table, "B", m.a.name, False, record_of(m.b_id)))
    seats.sort(key=lambda s: (s.name.casefold(), s.table or 0))
    return by_table, seats


def _pairings_fragment(round_: Round, template: str, kind: str) -> str:
    """A round's rendered pairings, once per round version and language (and whether the
    records are shown: they appear once the standings they come from may be seen)."""
    hidden = selectors.records_hidden(round_)
    key = _cache_key("pairings", kind, round_.pk, round_.version, get_language(), hidden)
    html = cache.get(key)
    if html is None:
        matches = list(selectors.round_matches(round_))
        records = None if hidden else services.records_before_round(round_)
        by_table, by_name = pairing_lists(matches, records)
        html = render_to_string(
            template,
            {
                "round": round_,
                "by_table": by_table,
                "by_name": by_name,
                "show_records": records is not None,
            },
        )
        cache.set(key, html, PAIRINGS_CACHE_SECONDS)
        # Each player's seat too, so the "your table" banner costs a small cache read.
        seats = {}
        for m in matches:
            for reg in (m.a, m.b):
                if reg is not None and reg.player_id is not None:
                    seats[_seat_key(round_, reg.player_id)] = {
                        "table": m.table,
                        "is_bye": m.b_id is None,
                    }
        cache.set_many(seats, PAIRINGS_CACHE_SECONDS)
    return mark_safe(html)  # rendered by our own autoescaping template


def _seat_key(round_: Round, user_id: int) -> str:
    return _cache_key("seat", round_.pk, round_.version, user_id)


def _my_seat(request: HttpRequest, event: Tournament, round_: Round) -> Any:
    """The logged-in player's table in this round: from the cache the pairings filled, or
    looked up when it has been evicted (``None`` for someone not playing)."""
    if not request.user.is_authenticated:
        return None
    seat = cache.get(_seat_key(round_, request.user.pk))
    if seat is not None:
        return seat
    return selectors.my_match(request.user, event, round_)


def round_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = visible_event(request, slug)
    round_ = selectors.round_visible(request.user, event, number)
    body = _pairings_fragment(round_, "matches/_pairings_body.html", "board")
    mine = _my_seat(request, event, round_)
    context = {
        "event": event,
        "round": round_,
        "pairings_body": body,
        "mine": mine,
        "timer": timer_context(event, round_),
    }
    return render(request, "matches/pairings.html", context)


def _my_registration_id(user: Any, match: Match) -> int:
    if match.a.player_id == user.pk:
        return match.a_id
    return match.b_id or 0


# --- my match and reporting ---------------------------------------------------------------------


def _games_to_win(event: Tournament) -> int:
    structure = event.structure
    return structure.games_to_win if structure is not None else 1


def detail_games(
    rules: MatchRules,
    max_games: int,
    side: str | None,
    details: Any,
    *,
    names: tuple[str, str],
    staff: bool = False,
    prefill: list[dict[str, object]] | None = None,
) -> list[dict[str, Any]]:
    """The report form's per-game inputs the game asks for (engine.games.DetailField), from
    `side` ("me", "opp"; staff: a is "me"), filled from recorded details where the field is
    a side or numbers, else from `prefill` (form values: the match clock's games). Staff give
    both players' inputs (`own_only` does not apply)."""
    fields = rules.form_fields()
    if not fields:
        return []
    other = "b" if side == "a" else "a"
    recorded = rules.form_values(details) if details is not None else (prefill or [])

    def mine(value: Any) -> str:
        return "me" if value == side else "opp" if value == other else ""

    games = []
    for number in range(1, max_games + 1):
        old = recorded[number - 1] if number <= len(recorded) else {}
        old = old if isinstance(old, dict) else {}
        shown = []
        for f in fields:
            if number < f.from_game:
                continue
            name = f"g{number}_{f.key}"
            value: Any = old.get(f.key)
            entry: dict[str, Any] = {
                "key": f.key,
                "name": name,
                "label": f.label.render(_),
                "help": f.help.render(_) if f.help else "",
                "kind": f.kind,
                "per_side": f.per_side,
                "own_only": f.own_only and not staff,
                "sides": [("me", names[0])]
                if f.own_only and not staff
                else [("me", names[0]), ("opp", names[1])],
                "choices": [(key, label.render(_)) for key, label in f.choices],
                "min": f.minimum,
                "max": f.maximum,
            }
            if f.kind == "side":
                entry["value"] = mine(value)
            elif f.per_side and isinstance(value, list) and len(value) == 2:
                pair = value if side == "a" else value[::-1]
                entry["value_me"], entry["value_opp"] = pair
            else:
                entry["value"] = value if isinstance(value, str) else ""
            shown.append(entry)
        games.append({"number": number, "fields": shown})
    return games


def problem_text(
    exc: GameDetailsError, rules: MatchRules, names: Mapping[str, str], reader: str | None
) -> str:
    """A refused detail in words for a page: "Game 1, Ether bid: …", players by their names
    (`names`: "a" and "b"), counts from `reader`'s side ("a", "b"; None: a's first). The API
    keeps `exc.field` (`game_details[0].bids`) for tools."""
    message = for_reader(exc.text, names, reader).render(_)
    if exc.game is None:
        return capfirst(message)
    number = exc.game + 1
    known = next((f for f in rules.form_fields() if f.key == exc.part), None)
    if known is None:
        return _("Game %(n)d: %(message)s") % {"n": number, "message": message}
    label = known.label.render(_)
    if known.per_side and exc.side in names:
        label = _("%(label)s (%(name)s)") % {"label": label, "name": names[exc.side or ""]}
    if known.kind == "lines" and exc.item is not None:
        label = _("%(label)s, line %(line)d") % {"label": label, "line": exc.item + 1}
    return _("Game %(n)d, %(field)s: %(message)s") % {
        "n": number,
        "field": label,
        "message": message,
    }


def mark_problem(
    inputs: list[dict[str, Any]], exc: GameDetailsError, reader: str, message: str
) -> str | None:
    """Lay `message` on the input of `detail_games`' output that `exc` names (`reader`: the
    side the form's "me" is); the id to link to, None when it names no game."""
    if exc.game is None or not 0 <= exc.game < len(inputs):
        return None
    game = inputs[exc.game]
    for entry in game["fields"]:
        if entry["key"] != exc.part:
            continue
        if entry["per_side"]:
            who = "opp" if exc.side is not None and exc.side != reader else "me"
            if who not in (w for w, _name in entry["sides"]):
                break
            entry["error"], entry["error_who"] = message, who
            return f"id_{entry['name']}_{who}"
        entry["error"] = message
        return f"id_{entry['name']}"
    game["error"] = message
    return f"id_g{game['number']}"


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

    def trophies_mine_first(battles: Any) -> list[tuple[int, int]]:
        out = []
        for game in battles or ():
            ta, tb = int(game[0]), int(game[1])
            out.append((ta, tb) if side == "a" else (tb, ta))
        return out

    my_report = reports.get(me)
    their_report = reports.get(match.opponent_of(me) or -1)
    games_to_win = _games_to_win(event)
    max_games = 2 * games_to_win - 1
    battles_per_game = services.tournament_battles_per_game(event)
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
    form = _report_form_state(
        request, match_rules, side or "a", names, detail_inputs, my_report, problem, clock_totals
    )
    form["trophies"] = [
        {
            "number": g,
            "me": _posted(request, f"trophies_me_{g}") if problem is not None else "",
            "opp": _posted(request, f"trophies_opp_{g}") if problem is not None else "",
        }
        for g in range(1, max_games + 1)
    ]

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
        "their_trophies": trophies_mine_first(their_report.battles) if their_report else [],
        "result": result,
        "outcome": outcome,
        "result_trophies": trophies_mine_first(match.battles)
        if match.status == MatchStatus.FINAL
        else [],
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
        "battles_per_game": battles_per_game,
        "detail_games": detail_inputs,
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


def _posted(request: HttpRequest, name: str) -> str:
    return (request.POST.get(name) or "").strip()[:20]


def _report_form_state(
    request: HttpRequest,
    rules: MatchRules,
    side: str,
    names: Mapping[str, str],
    detail_inputs: list[dict[str, Any]],
    my_report: Any,
    problem: Exception | None,
    clock_totals: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """The report form's games counts (posted, else my report's, else the games the match
    clock saw: `clock_totals`, mine first) and, after a refusal, the problem in words with
    the id of the input it names (`detail_inputs` marked)."""
    if problem is not None:
        values = {key: _posted(request, key) for key in ("won", "lost", "drawn", "outcome")}
    elif my_report is not None:
        won, lost = my_report.games[0:2] if side == "a" else my_report.games[1::-1]
        outcome = "win" if won > lost else "loss" if lost > won else "draw"
        values = {
            "won": str(won),
            "lost": str(lost),
            "drawn": str(my_report.games[2]),
            "outcome": outcome,
        }
    elif clock_totals is not None:
        won, lost = clock_totals
        outcome = "win" if won > lost else "loss" if lost > won else ""
        values = {"won": str(won), "lost": str(lost), "drawn": "0", "outcome": outcome}
    else:
        values = {"won": "", "lost": "", "drawn": "0", "outcome": ""}
    state: dict[str, Any] = {"values": values, "problem": None, "anchor": "", "on": ""}
    if problem is None:
        return state
    cause = problem.__cause__ if isinstance(problem, ServiceError) else problem
    if isinstance(cause, GameDetailsError) and detail_inputs:
        message = problem_text(cause, rules, names, side)
        # The input it names, else the per-game section as a whole (every game or none).
        anchor = mark_problem(detail_inputs, cause, side, message) or "err_details"
        on = "details"
    else:
        message = problem.message if isinstance(problem, ServiceError) else str(problem)
        field = str(getattr(problem, "field", None) or "")
        on = "trophies" if field.startswith("battles") else "games"
        anchor = "id_trophies_me_1" if on == "trophies" else "id_won"
        if on == "games" and "outcome" in request.POST:
            anchor = "id_outcome_win"  # the one-tap choice (best of 1)
    state.update(problem=message, anchor=anchor, on=on)
    return state


class _FormProblem(ValueError):
    """A report form value that does not read; `field` as the API names it."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


@login_required
def my_match(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    match = selectors.my_match(request.user, event)
    context: dict[str, Any] = {"event": event, "here": request.path}
    if match is None:
        context["registration"] = registration_of(request.user, event)
        context["latest_round"] = selectors.latest_visible_round(request.user, event)
        return render(request, "matches/my_match.html", context)
    match.round.tournament = event
    context.update(match_context(request, event, match))
    return render(request, "matches/my_match.html", context)


def _own_match(request: HttpRequest, pk: int) -> Match:
    """A match the person plays in; 404 when the selectors hide it, 403 for anyone else."""
    match = selectors.match_visible(request.user, pk)
    if services._acting_side(request.user, match) is None:
        raise PermissionDenied(_("You do not play in this match."))
    return match


# A best-of-1 result in one tap (templates/matches/_report_form.html): the games it means,
# the reporter's first. Whether a draw is allowed stays the service's check, as for the form.
ONE_TAP_GAMES = {"win": (1, 0, 0), "loss": (0, 1, 0), "draw": (0, 0, 1)}


def _one_tap_games(outcome: str) -> tuple[int, int, int]:
    try:
        return ONE_TAP_GAMES[outcome]
    except KeyError:
        raise _FormProblem(_("Choose I won, I lost or Draw."), "outcome") from None


def _report_from_post(request: HttpRequest, match: Match, side: str) -> dict[str, Any]:
    """The form's "me / my opponent" numbers as the services take them: a's games first."""

    def number(name: str, *, required: bool = True) -> int:
        raw = (request.POST.get(name) or "").strip()
        if not raw and required:
            # A stray tap must not report a 0-0 draw: both game counts are typed.
            raise ValueError(_("Enter the games each of you won (0 if none)."))
        raw = raw or "0"
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(_("Enter whole numbers of games.")) from None
        if value < 0:
            raise ValueError(_("Enter whole numbers of games, 0 or more."))
        return value

    if "outcome" in request.POST:
        won, lost, drawn = _one_tap_games(request.POST.get("outcome") or "")
    else:
        won, lost, drawn = number("won"), number("lost"), number("drawn", required=False)
    games = [won, lost, drawn] if side == "a" else [lost, won, drawn]
    played = won + lost + drawn
    battles: list[list[int]] = []
    for game in range(1, played + 1):
        mine = (request.POST.get(f"trophies_me_{game}") or "").strip()
        theirs = (request.POST.get(f"trophies_opp_{game}") or "").strip()
        if not mine and not theirs:
            continue
        try:
            pair = [int(mine or 0), int(theirs or 0)]
        except ValueError:
            raise _FormProblem(_("Enter trophies as whole numbers."), "battles") from None
        battles.append(pair if side == "a" else pair[::-1])
    data: dict[str, Any] = {"games": games}
    if battles:
        if len(battles) != played:
            raise _FormProblem(_("Enter the trophies of every game played, or of none."), "battles")
        data["battles"] = battles
    details = details_from_post(request, match, side)
    if details is not None:
        data["game_details"] = details
    return data


def details_from_post(request: HttpRequest, match: Match, side: str, *, staff: bool = False) -> Any:
    """The per-game inputs (me / my opponent; staff: a / b) in a/b terms, as the game's
    MatchRules reads them; None when the game asks for none or none were filled in. A
    GameDetailsError (a ValueError) names what does not read."""
    rules = get_game(match.round.tournament.game).match_rules()
    if not rules.has_game_details:
        return None
    return rules.details_from_form(detail_rows_from_post(request, match, side, staff=staff))


def detail_rows_from_post(
    request: HttpRequest, match: Match, side: str, *, staff: bool = False
) -> list[dict[str, object]]:
    """The per-game inputs as posted, as form values in a/b terms (MatchRules.form_values'
    shape): what `details_from_post` reads, and what the form shows again after a refusal."""
    event = match.round.tournament
    rules = get_game(event.game).match_rules()
    if not rules.has_game_details:
        return []
    fields: tuple[DetailField, ...] = rules.form_fields()
    other = "b" if side == "a" else "a"
    structure = event.structure
    max_games = structure.max_games if structure is not None else 1
    rows: list[dict[str, object]] = []
    for number in range(1, max_games + 1):
        row: dict[str, object] = {}
        for f in fields:
            if number < f.from_game:
                continue
            name = f"g{number}_{f.key}"
            if f.kind == "side":
                chosen = (request.POST.get(name) or "").strip()
                row[f.key] = side if chosen == "me" else other if chosen == "opp" else ""
            elif f.per_side:
                me = (request.POST.get(f"{name}_me") or "")[:2000]
                opp = ("" if f.own_only and not staff else (request.POST.get(f"{name}_opp") or ""))[
                    :2000
                ]
                row[f.key] = [me, opp] if side == "a" else [opp, me]
            else:
                row[f.key] = (request.POST.get(name) or "")[:2000]
        rows.append(row)
    return rows


@login_required
def match_report_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The page a match slip's QR code opens: the report form for the match's two players."""
    match = _own_match(request, pk)
    event = match.round.tournament
    problem: Exception | None = None
    if request.method == "POST":
        side = services._acting_side(request.user, match) or "a"
        try:
            data = _report_from_post(request, match, side)
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


# --- standings ----------------------------------------------------------------------------------


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


def _snapshot(event: Tournament, number: int | None) -> StandingsSnapshot | None:
    try:
        snapshot = services.standings_snapshot(event, number)
    except NotFound:
        if number is not None:
            raise Http404("No standings after this round.") from None
        return None
    snapshot.round.tournament = event
    return snapshot


def _finished_swiss_rounds(event: Tournament) -> list[int]:
    return list(
        event.rounds.filter(stage=RoundStage.SWISS, status=RoundStatus.FINISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _swiss_rounds_left(event: Tournament, after: int) -> int:
    players = event.registrations.filter(status="registered").count()
    planned = selectors.swiss_rounds_planned(event, players)
    played = event.rounds.filter(stage=RoundStage.SWISS, number__lte=after).count()
    return planned - played


def _tiebreaker_columns(event: Tournament) -> list[tuple[str, str]]:
    return [(key, tiebreaker_label(key)) for key in event.tiebreakers if key != "h2h"]


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    snapshot = _snapshot(event, _round_param(request))
    context: dict[str, Any] = {"event": event, "snapshot": snapshot}
    if snapshot is None:
        return render(request, "matches/standings.html", context)
    number = snapshot.round.number
    rounds = _finished_swiss_rounds(event)
    context.update({"round_number": number, "rounds": rounds, "q": ""})
    if selectors.standings_hidden_for(request.user, event, number):
        context["hidden"] = True
        return render(request, "matches/standings.html", context)
    q = (request.GET.get("q") or "").strip()[:100]
    page_param = request.GET.get("page") or "1"
    if not page_param.isdigit() or len(page_param) > 5:
        page_param = "1"
    stamp = snapshot.computed_at.timestamp()
    query = hashlib.sha1(q.casefold().encode()).hexdigest()[:12] if q else ""
    key = _cache_key("standings", snapshot.pk, stamp, get_language(), page_param, query, event.slug)
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
    rounds_left = _swiss_rounds_left(event, number) if number == rounds[-1] else 0
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


def _explanations(event: Tournament, row: dict[str, Any]) -> list[dict[str, str]]:
    """Each tiebreaker of the event in words, with the numbers that made it."""
    floor = f"{FLOOR * 100:g}%"
    out: list[dict[str, str]] = []
    opponents = row["opponents"]
    for key in event.tiebreakers:
        value = row["tiebreakers"].get(key)
        if key == "omw":
            if opponents:
                parts = " + ".join(pct(o["match_win_pct"]) for o in opponents)
                text = _(
                    "Opponents' match-win %% (OMW): the average of your opponents' match-win "
                    "percentages, each at least %(floor)s: (%(parts)s) / %(n)d = %(value)s."
                ) % {"floor": floor, "parts": parts, "n": len(opponents), "value": pct(value)}
            else:
                text = _(
                    "Opponents' match-win %% (OMW): you have had no opponent yet (only byes), "
                    "so it is the minimum, %(floor)s."
                ) % {"floor": floor}
        elif key == "ogw":
            if opponents:
                parts = " + ".join(pct(o["game_win_pct"]) for o in opponents)
                text = _(
                    "Opponents' game-win %% (OGW): the average of your opponents' game-win "
                    "percentages, each at least %(floor)s: (%(parts)s) / %(n)d = %(value)s."
                ) % {"floor": floor, "parts": parts, "n": len(opponents), "value": pct(value)}
            else:
                text = _(
                    "Opponents' game-win %% (OGW): you have had no opponent yet (only byes), "
                    "so it is the minimum, %(floor)s."
                ) % {"floor": floor}
        elif key == "gw":
            won, lost, drawn = (int(g) for g in row["games"])
            played = won + lost + drawn
            if not get_game(event.game).drawn_games and not drawn:
                # A game without drawn games (engine.games.GamePlugin.drawn_games): no draws
                # to explain.
                text = _(
                    "Game-win %% (GW): your game points divided by 3 points for each game you "
                    "played, at least %(floor)s. You won %(won)d games (3 points each) and lost "
                    "%(lost)d, byes included: (3 \u00d7 %(won)d) / (3 \u00d7 %(played)d) = "
                    "%(value)s."
                ) % {
                    "floor": floor,
                    "won": won,
                    "lost": lost,
                    "played": played,
                    "value": pct(value),
                }
            else:
                text = _(
                    "Game-win %% (GW): your game points divided by 3 points for each game you "
                    "played, at least %(floor)s. You won %(won)d games (3 points each), drew "
                    "%(drawn)d (1 point each) and lost %(lost)d, byes included: "
                    "(3 \u00d7 %(won)d + %(drawn)d) / (3 \u00d7 %(played)d) = %(value)s."
                ) % {
                    "floor": floor,
                    "won": won,
                    "drawn": drawn,
                    "lost": lost,
                    "played": played,
                    "value": pct(value),
                }
        elif key == "battle_diff":
            won_t, lost_t = (int(t) for t in row["trophies"])
            text = _(
                "Battle differential: the trophies you won minus the trophies you lost, over "
                "all your games: %(won)d \u2212 %(lost)d = %(value)+d."
            ) % {"won": won_t, "lost": lost_t, "value": won_t - lost_t}
        elif key == "h2h":
            text = _(
                "Head-to-head: used only when exactly two players are still tied after every "
                "other tiebreaker; the one who did better in their matches against each other "
                "ranks higher."
            )
        else:
            continue
        shown = "" if key == "h2h" else tiebreaker_value(key, value)
        out.append({"key": key, "label": tiebreaker_label(key), "value": shown, "text": text})
    return out


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
                "games": "\u2013".join(str(g) for g in o["games"]),
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
    data = services.cut_calculator(event)
    registration = registration_of(request.user, event)
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
        if registration is not None and row["registration"] == registration.pk:
            mine = line
        elif row["in_contention"]:
            rows.append(line)
    page = Paginator(rows, CUT_ROWS_PER_PAGE).get_page(request.GET.get("page"))
    context.update({"data": data, "mine": mine, "page": page})
    return render(request, "matches/cut_calculator.html", context)


# --- bracket ------------------------------------------------------------------------------------

BOX_W, BOX_H, SLOT_H, COL_GAP, ROW_GAP, PAD = 210, 52, 26, 36, 16, 8


@dataclass
class Slot:
    seed: int | None
    name: str
    games: int | None = None
    winner: bool = False
    bye: bool = False


@dataclass
class BracketBox:
    table: int | None
    top: Slot
    bottom: Slot
    final: bool = False


def bracket_columns(rounds: list[tuple[Round, list[Match]]]) -> list[list[BracketBox]]:
    """One column per bracket round (the rounds to come as empty boxes)."""
    columns: list[list[BracketBox]] = []
    for _round, matches in rounds:
        column = []
        for m in sorted(matches, key=lambda m: (m.table or 0, m.pk)):
            final = m.status == MatchStatus.FINAL
            games = m.games if final else None
            a_wins = bool(final and games and (m.b_id is None or games[0] > games[1]))
            b_wins = bool(final and games and m.b_id is not None and games[1] > games[0])
            top = Slot(m.seed_a, m.a.name, games[0] if games and m.b else None, a_wins)
            if m.b is None:
                bottom = Slot(None, _("bye"), bye=True)
            else:
                bottom = Slot(m.seed_b, m.b.name, games[1] if games else None, b_wins)
            column.append(BracketBox(m.table, top, bottom, final))
        columns.append(column)
    if columns:
        size = len(columns[-1])
        while size > 1:
            size //= 2
            columns.append([BracketBox(None, Slot(None, ""), Slot(None, "")) for _ in range(size)])
    return columns


def bracket_svg(columns: list[list[BracketBox]], champion: str | None) -> SafeString:
    """The bracket as an inline SVG: boxes with seed and name, lines to the next round."""
    if not columns:
        return mark_safe("")
    first = len(columns[0])
    height = PAD * 2 + first * BOX_H + (first - 1) * ROW_GAP
    width = PAD * 2 + (len(columns) + 1) * (BOX_W + COL_GAP)
    centres: list[list[float]] = []
    parts: list[str] = []
    for c, column in enumerate(columns):
        x = PAD + c * (BOX_W + COL_GAP)
        if c == 0:
            ys = [PAD + i * (BOX_H + ROW_GAP) + BOX_H / 2 for i in range(len(column))]
        else:
            prev = centres[-1]
            ys = [
                (prev[2 * i] + prev[2 * i + 1]) / 2 if 2 * i + 1 < len(prev) else prev[2 * i]
                for i in range(len(column))
            ]
            for i, y in enumerate(ys):
                for j in (2 * i, 2 * i + 1):
                    if j < len(prev):
                        px = x - COL_GAP
                        mid = px + COL_GAP / 2
                        parts.append(
                            f'<path class="bracket-line" d="M{px:.0f} {prev[j]:.0f} '
                            f'H{mid:.0f} V{y:.0f} H{x:.0f}"/>'
                        )
        centres.append(ys)
        for box, y in zip(column, ys, strict=False):
            top = y - BOX_H / 2
            parts.append(
                f'<rect class="bracket-box" x="{x}" y="{top:.0f}" width="{BOX_W}" '
                f'height="{BOX_H}" rx="4"/>'
                f'<line class="bracket-divider" x1="{x}" y1="{y:.0f}" x2="{x + BOX_W}" '
                f'y2="{y:.0f}"/>'
            )
            for k, slot in enumerate((box.top, box.bottom)):
                ty = top + SLOT_H * k + SLOT_H * 0.68
                weight = ' font-weight="700"' if slot.winner else ""
                seed = f"{slot.seed}" if slot.seed else ""
                name = slot.name or "—"
                if len(name) > 22:
                    name = name[:21] + "…"
                cls = "bracket-name bracket-bye" if slot.bye else "bracket-name"
                parts.append(
                    f'<text class="bracket-seed" x="{x + 6}" y="{ty:.0f}">{escape(seed)}</text>'
                    f'<text class="{cls}" x="{x + 28}" y="{ty:.0f}"{weight}>'
                    f"{escape(name)}</text>"
                )
                if slot.games is not None:
                    parts.append(
                        f'<text class="bracket-games" x="{x + BOX_W - 8}" y="{ty:.0f}" '
                        f'text-anchor="end"{weight}>{slot.games}</text>'
                    )
    # the champion box, joined to the final
    x = PAD + len(columns) * (BOX_W + COL_GAP)
    y = centres[-1][0]
    parts.append(
        f'<path class="bracket-line" d="M{x - COL_GAP} {y:.0f} H{x}"/>'
        f'<rect class="bracket-box bracket-champion" x="{x}" y="{y - SLOT_H:.0f}" '
        f'width="{BOX_W}" height="{SLOT_H * 2}" rx="4"/>'
        f'<text class="bracket-seed" x="{x + 8}" y="{y - 6:.0f}">{escape(_("Champion"))}</text>'
        f'<text class="bracket-name" x="{x + 8}" y="{y + 16:.0f}" font-weight="700">'
        f"{escape(champion or '—')}</text>"
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket-svg" viewBox="0 0 {width} '
        f'{height + SLOT_H}" width="{width}" height="{height + SLOT_H}" role="img" '
        f'aria-labelledby="bracket-svg-title"><title id="bracket-svg-title">'
        f"{escape(_('The top-cut bracket; the same bracket is listed as a table below.'))}"
        f"</title>{''.join(parts)}</svg>"
    )
    return mark_safe(svg)  # every text above is escaped


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
    key = _cache_key(
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


# --- projector ----------------------------------------------------------------------------------


def qr_svg(url: str) -> SafeString:
    """The event page's address as a QR code (inline SVG that scales with its box)."""
    svg = segno.make(url, error="m").svg_inline(
        scale=6, border=2, title=_("QR code: the event page, %(url)s") % {"url": url}
    )
    match = re.match(r'<svg width="(\d+)" height="(\d+)"', svg)
    if match:
        w, h = match.groups()
        svg = svg.replace(
            match.group(0), f'<svg role="img" viewBox="0 0 {w} {h}" width="{w}" height="{h}"', 1
        )
    return mark_safe(svg)  # segno escapes the title


PROJECTOR_POLL_SECONDS = 15


def _projector_round(event: Tournament) -> Round | None:
    # The screen shows what players see, even when a staff member's browser drives it.
    round_ = event.rounds.filter(status__in=VISIBLE_TO_PLAYERS).order_by("-number").first()
    if round_ is not None:
        round_.tournament = event
    return round_


def _projector_stamp(round_: Round | None) -> str:
    """What the projector's live part shows, in one word: a new round, a changed pairing or the
    round's end changes it (the timer keeps itself up to date: static/js/round-timer.js)."""
    return f"{round_.pk}.{round_.version}.{round_.status}" if round_ is not None else "none"


def _projector_live_context(event: Tournament, round_: Round | None) -> dict[str, Any]:
    body = _pairings_fragment(round_, "matches/_projector_list.html", "projector") if round_ else ""
    rows = round_.matches.count() * 2 if round_ else 0
    return {
        "event": event,
        "round": round_,
        "pairings_body": body,
        "timer": timer_context(event, round_) if round_ else None,
        "scroll_seconds": max(30, rows * 2),
        "stamp": _projector_stamp(round_),
        "updated_at": timezone.now(),
    }


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    round_ = _projector_round(event)
    event_url = request.build_absolute_uri(event.get_absolute_url())
    context = {
        **_projector_live_context(event, round_),
        "qr": qr_svg(event_url),
        "event_url": event_url,
        "live_url": reverse("projector_live", kwargs={"slug": event.slug}),
        "poll_seconds": PROJECTOR_POLL_SECONDS,
    }
    return render(request, "matches/projector.html", context)


def projector_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector's changing part (heading, timer, pairings), polled by static/js/projector.js
    in place of a timed page refresh. ``?since=STAMP`` answers 204 while nothing changed: two
    small queries, no rendering."""
    event = visible_event(request, slug)
    round_ = _projector_round(event)
    if request.GET.get("since") == _projector_stamp(round_):
        return HttpResponse(status=204)
    return render(request, "matches/_projector_live.html", _projector_live_context(event, round_))


# --- the event page's rounds section --------------------------------------------------------


def rounds_section(request: HttpRequest, event: Tournament, registered: int) -> dict[str, Any]:
    """The rounds, the current timer and the schedule for tournaments' event page: one query
    for the rounds (no per-round queries)."""
    rounds = list(selectors.rounds_visible(request.user, event).order_by("number"))
    for r in rounds:
        r.tournament = event
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
    return {
        "rounds": rounds,
        "current_round": current,
        "latest_published": latest_published,
        "timer": timer_context(event, current) if current else None,
        "schedule": schedule,
        "has_cut": has_cut,
        "has_standings": any(
            r.stage == RoundStage.SWISS and r.status == RoundStatus.FINISHED for r in rounds
        ),
    }
