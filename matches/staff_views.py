"""Pages for tournament staff running the rounds: round control, a match's staff page, the
scorekeeper and printable match slips. Thin: every change goes through matches.services (the
same calls as the API), every read through matches.selectors or a small query here.

Who may do what is decided by the services and tournaments.permissions: organisers pair,
review and publish; organisers and judges enter results, run the timer and give extensions.
Everyone else gets a 403 (or a 404 for an event or round they cannot see).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import F, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.player_ids import normalise_player_id
from config.errors import Forbidden, ServiceError
from config.pages import attempt, int_or_none, next_or
from matches import selectors, services
from matches.models import (
    Match,
    MatchStatus,
    ResultChange,
    ResultVersion,
    Round,
    RoundStage,
    RoundStatus,
)
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event
from tournaments.status import EventStatus

PAGE_SIZE = 100
QR_AUTO_MASK_UP_TO = 128
QR_CACHE_SECONDS = 24 * 3600
RECENT_ENTRIES = 15
STATE_FILTERS = ("unfinished", "all", *MatchStatus.values)
# "2-0", "2-1", "1-1-1", "0-2", "1-0"; dashes, slashes, dots or spaces between the numbers.
RESULT_RE = re.compile(
    r"^\s*(\d{1,2})\s*[-\u2013/. ]\s*(\d{1,2})(?:\s*[-\u2013/. ]\s*(\d{1,2}))?\s*$"
)
SEAT_RE = re.compile(r"^t?(\d{1,6})\s*([ab])$", re.IGNORECASE)


# --- small helpers ---------------------------------------------------------------------------


def _staff_event(request: HttpRequest, slug: str) -> Tournament:
    """The event if this person may see it (else 404) and is its staff (else 403)."""
    event = visible_event(request, slug)
    if not perms.is_staff_of(request.user, event):
        raise PermissionDenied(_("Only this event's organisers and judges may see this page."))
    return event


def _staff_round(request: HttpRequest, slug: str, number: int) -> Round:
    event = _staff_event(request, slug)
    return selectors.round_visible(request.user, event, number)


def _staff_match(request: HttpRequest, pk: int) -> Match:
    match = selectors.match_visible(request.user, pk)
    if not perms.is_staff_of(request.user, match.round.tournament):
        raise PermissionDenied(_("Only this event's organisers and judges may see this page."))
    return match


def _round_url(round_: Round, anchor: str = "") -> str:
    url = reverse("round_control", args=[round_.tournament.slug, round_.number])
    return f"{url}#{anchor}" if anchor else url


def _match_url(match: Match, anchor: str = "") -> str:
    url = reverse("match_staff", args=[match.pk])
    return f"{url}#{anchor}" if anchor else url


def parse_result(text: str) -> tuple[int, int, int] | None:
    """A result as written on a slip: "2-0", "2-1", "1-1-1" (won by a, won by b, drawn)."""
    found = RESULT_RE.match(text or "")
    if found is None:
        return None
    won_a, won_b, drawn = found.groups()
    return (int(won_a), int(won_b), int(drawn or 0))


def _result_text(games: Any) -> str:
    if not games:
        return "—"
    won_a, won_b, drawn = [*list(games), 0, 0, 0][:3]
    return f"{won_a}-{won_b}-{drawn}" if drawn else f"{won_a}-{won_b}"


def _clock(seconds: int) -> str:
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    return f"{sign}{minutes:02d}:{secs:02d}"


def _timer_context(round_: Round, extension_minutes: int = 0) -> dict[str, Any]:
    """The round's timer for static/js/round-timer.js: the round's own end time (the same as
    the timer API returns) and a table's extension in seconds, which the script adds."""
    now = timezone.now()
    view = selectors.timer_view(round_, now)
    return {
        "timer": view,
        "timer_now": now,
        "timer_extension_seconds": extension_minutes * 60,
        "timer_text": _clock(view.remaining_seconds + extension_minutes * 60),
        "timer_url": reverse("api-round-timer", args=[round_.tournament.slug, round_.number]),
        "timer_js": finders.find("js/round-timer.js") is not None,
    }


# --- reads the selectors do not offer ----------------------------------------------------------


def matches_by_table(round_: Round) -> QuerySet[Match]:
    """A round's matches with both players, by table, byes last (one query)."""
    return round_.matches.select_related("a__player", "b__player").order_by(
        F("table").asc(nulls_last=True), "id"
    )


def filtered_matches(round_: Round, state: str, query: str) -> QuerySet[Match]:
    """The round control list: by state (``unfinished`` by default) and table or name."""
    qs = matches_by_table(round_)
    if state == "unfinished":
        qs = qs.exclude(status=MatchStatus.FINAL)
    elif state in MatchStatus.values:
        qs = qs.filter(status=state)
    query = query.strip()
    if query:
        table = int_or_none(query.lstrip("#tT"))
        if table is not None:
            qs = qs.filter(table=table)
        else:
            words = Q()
            for side in ("a", "b"):
                words |= (
                    Q(**{f"{side}__player__display_name__icontains": query})
                    | Q(**{f"{side}__player__username__icontains": query})
                    | Q(**{f"{side}__player__player_id__iexact": normalise_player_id(query)})
                    | Q(**{f"{side}__walk_in_name__icontains": query})
                )
            qs = qs.filter(words)
    return qs


def recent_entries(round_: Round, user: Any) -> list[ResultVersion]:
    """The results this person entered in this round, newest first (the scorekeeper's list)."""
    return list(
        ResultVersion.objects.filter(
            match__round=round_,
            actor=user,
            change__in=(ResultChange.ENTERED, ResultChange.CORRECTED),
        )
        .select_related("match__a__player", "match__b__player")
        .order_by("-created_at", "-id")[:RECENT_ENTRIES]
    )


@dataclass(frozen=True)
class Seat:
    registration_id: int
    label: str
    table: int | None
    side: str
    name: str
    player_id: str


def round_seats(matches: list[Match]) -> list[Seat]:
    """Every seat of a round, for the swap form: "12a · Name · ABC-DEF"."""
    seats = []
    for m in matches:
        for side in ("a", "b"):
            reg = getattr(m, side)
            if reg is None:
                continue
            where = f"{m.table}{side}" if m.table is not None else _("bye")
            pid = reg.player.player_id if reg.player_id else ""
            label = " · ".join(x for x in (where, reg.name, pid) if x)
            seats.append(Seat(reg.pk, label, m.table, side, reg.name, pid))
    return seats


def find_seat(seats: list[Seat], text: str) -> Seat | None:
    """What the organiser typed or picked: "12a", a player id, a name, or a seat label."""
    text = (text or "").strip()
    if not text:
        return None
    for seat in seats:
        if seat.label == text:
            return seat
    candidates: list[Seat] = []
    for token in [text, *(t.strip() for t in text.split("·"))]:
        found = SEAT_RE.match(token.replace(" ", ""))
        if found:
            table, side = int(found.group(1)), found.group(2).lower()
            candidates = [s for s in seats if s.table == table and s.side == side]
        if not candidates:
            pid = normalise_player_id(token)
            candidates = [s for s in seats if s.player_id and s.player_id == pid]
        if not candidates:
            candidates = [s for s in seats if s.name.casefold() == token.casefold()]
        if len(candidates) == 1:
            return candidates[0]
    return None


# --- round control -----------------------------------------------------------------------------


def _next_round_refusal(last: Round | None, bracket_over: bool) -> str:
    """Why no next round is offered while the event runs, in words."""
    if bracket_over:
        return _("The top cut is over: finish the event from its dashboard.")
    if last is not None and last.status != RoundStatus.FINISHED:
        if last.status in (RoundStatus.PAIRING, RoundStatus.PAIRED):
            return _("Round %(n)d is not published yet: publish it (or delete it) first.") % {
                "n": last.number
            }
        open_matches = last.matches.exclude(status=MatchStatus.FINAL).count()
        return ngettext(
            "Finish round %(n)d first: %(count)d match is not final.",
            "Finish round %(n)d first: %(count)d matches are not final.",
            open_matches,
        ) % {"n": last.number, "count": open_matches}
    return _(
        "The Swiss rounds are done: the event has no top cut, so finish it from its dashboard."
    )


def _swiss_done(event: Tournament, rounds: list[Round]) -> bool:
    swiss = [r for r in rounds if r.stage == RoundStage.SWISS]
    if not swiss or any(r.status != RoundStatus.FINISHED for r in rounds):
        return False
    players = event.registrations.filter(status="registered").count()
    return len(swiss) >= selectors.swiss_rounds_planned(event, players)


@login_required
def round_control(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    event = _staff_event(request, slug)
    rounds = list(event.rounds.order_by("number"))
    if number is None:
        round_ = rounds[-1] if rounds else None
    else:
        round_ = next((r for r in rounds if r.number == number), None)
        if round_ is None:
            raise Http404("No such round.")
    if round_ is not None:
        round_.tournament = event
    is_organiser = perms.is_organiser_of(request.user, event)
    last = rounds[-1] if rounds else None
    running = event.status in (EventStatus.RUNNING, EventStatus.TOP_CUT)
    last_done = last is None or last.status == RoundStatus.FINISHED
    swiss_done = _swiss_done(event, rounds)
    bracket_over = (
        last is not None
        and last.stage == RoundStage.TOP_CUT
        and last.status == RoundStatus.FINISHED
        and last.matches.count() <= 1
    )
    context: dict[str, Any] = {
        "event": event,
        "round": round_,
        "rounds": rounds,
        "is_organiser": is_organiser,
        "is_current": round_ is not None and round_ == last,
        "can_pair": is_organiser
        and running
        and last_done
        and not bracket_over
        and not (swiss_done and event.top_cut_size and event.status == EventStatus.RUNNING),
        "can_top_cut": is_organiser
        and event.status == EventStatus.RUNNING
        and bool(event.top_cut_size)
        and swiss_done,
        "swiss_done": swiss_done,
        "running": running,
    }
    if is_organiser and running and not (context["can_pair"] or context["can_top_cut"]):
        context["next_refusal"] = _next_round_refusal(last, bracket_over)
    if round_ is None:
        return render(request, "matches/staff/round_control.html", context)
    context.update(_timer_context(round_))
    if round_.status == RoundStatus.PAIRING:
        context["progress"] = services.pairing_progress(round_)
    elif round_.status == RoundStatus.PAIRED:
        pairings = list(matches_by_table(round_))
        context.update(
            checks=services.round_checks(round_),
            pairings=pairings,
            seats=round_seats(pairings),
            pairing_count=len(pairings),
        )
    else:
        # A finished round has nothing left to sweep: show all of it.
        default = "all" if round_.status == RoundStatus.FINISHED else "unfinished"
        state = request.GET.get("state", default)
        if state not in STATE_FILTERS:
            state = default
        query = request.GET.get("q", "").strip()[:80]
        progress = selectors.round_progress(round_)
        page = Paginator(filtered_matches(round_, state, query), PAGE_SIZE).get_page(
            request.GET.get("page")
        )
        keep = {k: v for k, v in (("state", state), ("q", query)) if v}
        context.update(
            progress=progress,
            counts=[
                (value, label, progress.counts.get(value, 0))
                for value, label in MatchStatus.choices
            ],
            finished_count=progress.counts.get(MatchStatus.FINAL, 0),
            percent_final=(
                round(100 * progress.counts.get(MatchStatus.FINAL, 0) / progress.total)
                if progress.total
                else 100
            ),
            state=state,
            query=query,
            page=page,
            keep_query=urlencode(keep),
            state_choices=[
                ("unfinished", _("Not final yet")),
                ("all", _("All")),
                *MatchStatus.choices,
            ],
            here=request.get_full_path(),
        )
    return render(request, "matches/staff/round_control.html", context)


@require_POST
@login_required
def round_pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = _staff_event(request, slug)
    attempt(
        request,
        lambda: services.round_pair(actor=request.user, tournament=event),
        _("Round paired: review it, then publish it."),
    )
    return redirect("round_control", slug=slug)


@require_POST
@login_required
def round_top_cut(request: HttpRequest, slug: str) -> HttpResponse:
    event = _staff_event(request, slug)
    attempt(
        request,
        lambda: services.top_cut_start(actor=request.user, tournament=event),
        _("Top cut started: review the bracket, then publish it."),
    )
    return redirect("round_control", slug=slug)


@require_POST
@login_required
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _staff_round(request, slug, number)
    seats = round_seats(list(matches_by_table(round_)))
    picked = []
    for field, label in (("first", _("First player")), ("second", _("Second player"))):
        text = request.POST.get(field, "")
        seat = find_seat(seats, text)
        if seat is None:
            messages.error(
                request,
                _("%(field)s: no single player in round %(n)d matches “%(text)s”.")
                % {"field": label, "n": round_.number, "text": text.strip()[:80]},
            )
            return redirect(_round_url(round_, "swap"))
        picked.append(seat)
    first, second = picked
    attempt(
        request,
        lambda: services.round_swap(
            actor=request.user,
            round_=round_,
            first=first.registration_id,
            second=second.registration_id,
        ),
        _("Swapped %(a)s and %(b)s.") % {"a": first.name, "b": second.name},
    )
    return redirect(_round_url(round_, "swap"))


@require_POST
@login_required
def round_set_table(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _staff_round(request, slug, number)
    current = int_or_none(request.POST.get("from_table"))
    target = int_or_none(request.POST.get("table"))
    match = round_.matches.filter(table=current).first() if current is not None else None
    if match is None:
        messages.error(
            request,
            _("Table: there is no table %(t)s in round %(n)d.")
            % {"t": request.POST.get("from_table", "").strip()[:10] or "?", "n": round_.number},
        )
        return redirect(_round_url(round_, "move-table"))
    if target is None:
        messages.error(request, _("New table: a table number from 1."))
        return redirect(_round_url(round_, "move-table"))
    match.round = round_
    done = attempt(
        request,
        lambda: services.round_set_table(actor=request.user, match=match, table=target),
        _("The match at table %(old)d now plays at table %(new)d.")
        % {"old": current, "new": target},
    )
    return redirect(_round_url(round_, f"table-{target}" if done else "move-table"))


@require_POST
@login_required
def round_repair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _staff_round(request, slug, number)
    attempt(
        request,
        lambda: services.round_repair(actor=request.user, round_=round_),
        _("Round %(n)d paired again with a fresh draw.") % {"n": round_.number},
    )
    return redirect(_round_url(round_))


@require_POST
@login_required
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _staff_round(request, slug, number)
    attempt(
        request,
        lambda: services.round_publish(actor=request.user, round_=round_),
        _("Round %(n)d published: players can see their tables.") % {"n": round_.number},
    )
    return redirect(_round_url(round_))


@login_required
def round_delete(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The second, explicit step before an unpublished round and its pairings are thrown away."""
    round_ = _staff_round(request, slug, number)
    if not perms.is_organiser_of(request.user, round_.tournament):
        raise PermissionDenied(_("Only this event's organisers may do this."))
    if request.method == "POST":
        confirmed = request.POST.get("confirm") == "yes"
        if not confirmed:
            messages.error(
                request, _("Tick the box to confirm that the pairings will be thrown away.")
            )
            return redirect("staff_round_delete", slug=slug, number=number)
        number_deleted = round_.number
        done = attempt(
            request,
            lambda: services.round_delete(actor=request.user, round_=round_, confirm=True),
            _("Round %(n)d deleted.") % {"n": number_deleted},
        )
        if done:
            return redirect("round_control", slug=slug)
        return redirect(_round_url(round_))
    context = {
        "event": round_.tournament,
        "round": round_,
        "pairing_count": round_.matches.count(),
        "deletable": round_.status in (RoundStatus.PAIRED, RoundStatus.PAIRING),
    }
    return render(request, "matches/staff/round_delete.html", context)


@require_POST
@login_required
def round_timer(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _staff_round(request, slug, number)
    action = request.POST.get("action", "")
    minutes = int_or_none(request.POST.get("minutes"), 0) or 0
    success = {
        "start": _("Timer started."),
        "pause": _("Timer paused."),
        "resume": _("Timer resumed."),
        "add": _("%(m)+d minutes on the round timer.") % {"m": minutes},
    }.get(action, _("Timer updated."))
    attempt(
        request,
        lambda: services.round_timer(
            actor=request.user, round_=round_, action=action, minutes=minutes
        ),
        success,
    )
    return redirect(next_or(request, _round_url(round_, "timer")))


# --- one match, for staff ----------------------------------------------------------------------


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
    recorded details (match_views.detail_games)."""
    from engine.games import get_game
    from matches.views import detail_games

    event = match.round.tournament
    rules = get_game(event.game).match_rules()
    if match.b is None or not rules.has_game_details:
        return []
    structure = event.structure
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
    names (matches.views.problem_text), the API's field path left out."""
    from engine.games import GameDetailsError, get_game
    from matches.views import problem_text

    cause = exc.__cause__ if isinstance(exc, ServiceError) else exc
    if isinstance(cause, GameDetailsError):
        rules = get_game(match.round.tournament.game).match_rules()
        names = {"a": match.a.name, "b": match.b.name if match.b is not None else ""}
        return problem_text(cause, rules, names, None)
    return exc.message if isinstance(exc, ServiceError) else str(exc)


def json_text(value: Any) -> str:
    import json

    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _staff_details(request: HttpRequest, match: Match) -> Any:
    """The game details staff posted: from the preview's hidden JSON on the apply step, else
    from the per-game inputs. A ValueError says what does not read."""
    import json

    from engine.errors import MAX_RECORD_DEPTH, json_problem
    from matches.views import details_from_post

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
        from engine.games import get_game

        rules = get_game(match.round.tournament.game).match_rules()
        if posted == rules.details_from_form(rules.form_values(match.game_details)):
            return None  # the recorded details, untouched: kept or dropped with the games
    return posted


def _match_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    from engine.games import get_game

    round_ = match.round
    event = round_.tournament
    back = next_or(request, _round_url(round_, f"table-{match.table}" if match.table else ""))
    context = {
        "event": event,
        "round": round_,
        "match": match,
        "reports": list(match.reports.select_related("registration__player").order_by("id")),
        "versions": list(match.versions.select_related("actor").order_by("number")),
        "is_organiser": perms.is_organiser_of(request.user, event),
        "result_text": _result_text(match.games),
        "game_lines": _game_lines(match),
        "detail_games": _staff_detail_games(match),
        "drawn_games": get_game(event.game).drawn_games,
        "back": back,
        "max_extension": services.MAX_EXTENSION_MINUTES,
        "can_enter": round_.status in (RoundStatus.PUBLISHED, RoundStatus.FINISHED)
        and not match.is_bye,
    }
    context.update(_timer_context(round_, match.extension_minutes))
    return context


@login_required
def match_staff(request: HttpRequest, pk: int) -> HttpResponse:
    """A match for staff: reports, every result version, enter or correct, extend."""
    match = _staff_match(request, pk)
    if request.method != "POST":
        return render(request, "matches/staff/match.html", _match_context(request, match))
    here = _match_url(match, "result")
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
            proposed_text=_result_text(games),
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
            override_reported=services.games_text(exc.reported),
            proposed=games,
            proposed_text=_result_text(games),
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
        % {"r": _result_text(games)},
    )
    return redirect(here)


@require_POST
@login_required
def match_extend(request: HttpRequest, pk: int) -> HttpResponse:
    match = _staff_match(request, pk)
    minutes = int_or_none(request.POST.get("minutes"))
    if minutes is None:
        messages.error(request, _("Minutes: a whole number from 0 to 60."))
    else:
        attempt(
            request,
            lambda: services.match_extend(actor=request.user, match=match, minutes=minutes),
            _("Table %(t)s has %(m)d extra minutes.") % {"t": match.table or "—", "m": minutes},
        )
    return redirect(next_or(request, _match_url(match, "extension")))


# --- scorekeeper -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SlipOutcome:
    """What became of one slip typed on the scorekeeper page: saved (with the entry for the
    running list) or refused (with the reason, the form field it is about and, when there is
    one, a link to act on it or the label of the second confirmation it needs). The page
    without JavaScript and the page's script (as JSON) read the same outcome."""

    saved: bool
    message: str
    status: int = 200
    field: str = ""
    table: int | None = None
    result: str = ""
    players: str = ""
    undo_url: str = ""
    link_url: str = ""
    link_text: str = ""
    confirm_label: str = ""
    unchanged: bool = False
    settled_dispute: bool = False

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": self.saved,
            "message": self.message,
            "table": self.table,
            "result": self.result,
        }
        if self.saved:
            now = timezone.localtime()
            body.update(
                players=self.players,
                undo_url=self.undo_url,
                undo_text=_("Undo or correct table %(t)s") % {"t": self.table},
                unchanged=self.unchanged,
                settled_dispute=self.settled_dispute,
                datetime=now.isoformat(),
                time=now.strftime("%H:%M:%S"),
            )
        else:
            body["field"] = self.field
            if self.link_url:
                body["link"] = {"url": self.link_url, "text": self.link_text}
            if self.confirm_label:
                body["confirm"] = {"field": "confirm_override", "label": self.confirm_label}
        return body


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _scorekeeper_context(request: HttpRequest, round_: Round) -> dict[str, Any]:
    return {
        "event": round_.tournament,
        "round": round_,
        "entries": [
            (v, _result_text((v.after or {}).get("games")))
            for v in recent_entries(round_, request.user)
        ],
        "open": round_.status in (RoundStatus.PUBLISHED, RoundStatus.FINISHED),
    }


@login_required
def scorekeeper(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Results from paper slips, keyboard only: table, result, Enter; the focus comes back.

    Without JavaScript a saved slip redirects back with its message; a refused one shows the
    page again with the slip kept in the form and the reason beside it. The page's script
    (static/js/scorekeeper.js) queues the slips and sends each with ``Accept:
    application/json``: the answer is the slip's outcome as JSON, 200 saved, 400 or 409
    refused (naming the field)."""
    round_ = _staff_round(request, slug, number)
    url = reverse("scorekeeper", args=[slug, number])
    if request.method == "POST":
        outcome = _scorekeeper_enter(request, round_)
        if _wants_json(request):
            return JsonResponse(outcome.as_json(), status=outcome.status)
        if outcome.saved:
            messages.success(request, outcome.message)
            return redirect(url)
        context = _scorekeeper_context(request, round_)
        context.update(
            refused=outcome,
            slip_table=request.POST.get("table", "")[:8],
            slip_result=request.POST.get("result", "")[:12],
        )
        return render(request, "matches/staff/scorekeeper.html", context, status=outcome.status)
    return render(request, "matches/staff/scorekeeper.html", _scorekeeper_context(request, round_))


def _refusal_text(exc: ServiceError) -> str:
    """A service's refusal without its leading field name ("games: ..."): the scorekeeper
    shows it beside the field."""
    prefix = f"{exc.field}: " if exc.field else ""
    return exc.message[len(prefix) :] if prefix and exc.message.startswith(prefix) else exc.message


def _scorekeeper_enter(request: HttpRequest, round_: Round) -> SlipOutcome:
    table_text = request.POST.get("table", "").strip()
    result_text = request.POST.get("result", "").strip()
    table = int_or_none(table_text.lstrip("#tT"))
    if table is None:
        return SlipOutcome(
            False, _("Table: type the table number from the slip."), 400, field="table"
        )
    games = parse_result(result_text)
    if games is None:
        return SlipOutcome(
            False,
            _("Table %(t)d: write the result like 2-0, 2-1, 1-1-1 or 0-2 (not “%(r)s”).")
            % {"t": table, "r": result_text[:20]},
            400,
            field="result",
            table=table,
        )
    shown = _result_text(games)
    match = round_.matches.select_related("a__player", "b__player").filter(table=table).first()
    if match is None:
        return SlipOutcome(
            False,
            _("Table %(t)d: there is no table %(t)d in round %(n)d.")
            % {"t": table, "n": round_.number},
            400,
            field="table",
            table=table,
            result=shown,
        )
    match.round = round_
    names = f"{match.a.name} v {match.b.name if match.b else '—'}"
    if match.status == MatchStatus.FINAL and match.games != games:
        return SlipOutcome(
            False,
            _(
                "Table %(t)d already has the final result %(old)s; not changed to %(new)s. "
                "A correction needs a reason:"
            )
            % {"t": table, "old": _result_text(match.games), "new": shown},
            409,
            field="result",
            table=table,
            result=shown,
            players=names,
            link_url=_match_url(match, "result"),
            link_text=_("open table %(t)d") % {"t": table},
        )
    unchanged = match.status == MatchStatus.FINAL
    disputed = match.status == MatchStatus.DISPUTED
    try:
        services.match_report(
            actor=request.user,
            match=match,
            games=list(games),
            confirm_override=request.POST.get("confirm_override") == "1",
        )
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except services.OverridesReport as exc:
        return SlipOutcome(
            False,
            _(
                "Table %(t)d: %(name)s reported %(theirs)s, still waiting for the opponent's "
                "confirmation. Enter %(new)s over that report?"
            )
            % {
                "t": table,
                "name": exc.reporter,
                "theirs": services.games_text(exc.reported),
                "new": shown,
            },
            exc.status_code,
            field="confirm_override",
            table=table,
            result=shown,
            players=names,
            confirm_label=_("Yes, enter %(r)s over the report") % {"r": shown},
        )
    except ServiceError as exc:
        return SlipOutcome(
            False,
            _("Table %(t)d: %(why)s") % {"t": table, "why": _refusal_text(exc)},
            exc.status_code,
            field="result"
            if exc.field in ("games", "battles", "game_details")
            else exc.field or "",
            table=table,
            result=shown,
            players=names,
        )
    if unchanged:
        message = _("Table %(t)d: %(r)s was already entered (%(names)s); nothing changed.")
    elif disputed:
        message = _("Table %(t)d: %(r)s entered (%(names)s); the dispute is settled.")
    else:
        message = _("Table %(t)d: %(r)s entered (%(names)s).")
    return SlipOutcome(
        True,
        message % {"t": table, "r": shown, "names": names},
        table=table,
        result=shown,
        players=names,
        undo_url=_match_url(match, "result"),
        unchanged=unchanged,
        settled_dispute=disputed,
    )


# --- match slips -------------------------------------------------------------------------------


@login_required
def match_slips(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Printable slips, one per table, each with a QR code to the match's report page."""
    round_ = _staff_round(request, slug, number)
    matches = list(
        round_.matches.filter(b__isnull=False)
        .select_related("a__player", "b__player")
        .order_by("table", "id")
    )
    games_to_win = round_.tournament.structure.games_to_win if round_.tournament.structure else 1
    # A large round fixes the QR mask: choosing the best of eight takes most of the time
    # (1,024 codes: about 8 s against 2 s), and any mask scans. The codes of a round are
    # cached as one entry per round version (bumped whenever who sits where changes).
    fixed_mask = len(matches) > QR_AUTO_MASK_UP_TO
    host = request.build_absolute_uri("/")
    key = (
        "slip-qr:"
        + hashlib.sha1(f"{round_.pk}|{round_.version}|{host}|{get_language()}".encode()).hexdigest()
    )
    codes: dict[int, str] = cache.get(key) or {}
    missing = False
    slips = []
    for m in matches:
        report_url = request.build_absolute_uri(f"/matches/{m.pk}/report/")
        qr = codes.get(m.pk)
        if qr is None:
            missing = True
            title = _("QR code: report the result of table %(t)s") % {"t": m.table or "—"}
            code = segno.make(report_url, micro=False, mask=0 if fixed_mask else None)
            qr = codes[m.pk] = code.svg_inline(scale=2, title=title)
        slips.append({"match": m, "qr": qr, "url": report_url})
    if missing:
        cache.set(key, codes, timeout=QR_CACHE_SECONDS)
    context = {
        "event": round_.tournament,
        "round": round_,
        "slips": slips,
        "games_to_win": games_to_win,
        "best_of": 2 * games_to_win - 1,
    }
    return render(request, "matches/staff/slips.html", context)
