"""Round control for staff: the round's page, pairing, the top cut, swaps and table moves,
re-pairing, publishing, deleting and the round timer. Every change goes through
matches.services (the same calls as the API).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from config.pages import attempt, int_or_none, next_or
from matches import selectors, services
from matches.models import MatchStatus, Round, RoundStage, RoundStatus
from matches.services import stages
from matches.views.staff_common import (
    filtered_matches,
    find_seat,
    matches_by_table,
    round_seats,
    round_url,
    staff_event,
    staff_round,
    staff_timer_context,
)
from tournaments import permissions as perms
from tournaments.extensions import dashboard_sections
from tournaments.models import Tournament
from tournaments.selectors import stage_timeline
from tournaments.status import EventStatus

PAGE_SIZE = 100
STATE_FILTERS = ("unfinished", "all", *MatchStatus.values)


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
    event = staff_event(request, slug)
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
        "stages": stage_timeline(event),
        "extra_sections": [mark_safe(html) for html in dashboard_sections(request, event)],
    }
    running_stages = [s for s in context["stages"] if s["status"] == "running"]
    # Flights run side by side: a pair button for each (round_pair needs the stage then).
    context["stage_pairs"] = running_stages if len(running_stages) > 1 else []
    if not stages.is_legacy(event, list(event.stages.order_by("number"))):
        # Explicit stages: the timeline starts each stage; a stage pairs until it finishes.
        open_stages = {r.stage_number for r in rounds if r.status != RoundStatus.FINISHED}
        context["can_top_cut"] = False
        context["can_pair"] = (
            is_organiser
            and running
            and len(running_stages) == 1
            and running_stages[0]["number"] not in open_stages
        )
    if is_organiser and running and not (context["can_pair"] or context["can_top_cut"]):
        context["next_refusal"] = _next_round_refusal(last, bracket_over)
    if round_ is None:
        return render(request, "matches/staff/round_control.html", context)
    context.update(staff_timer_context(round_))
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
    event = staff_event(request, slug)
    text = request.POST.get("stage", "")
    stage = int(text) if text.isdigit() and len(text) < 4 else None
    attempt(
        request,
        lambda: services.round_pair(actor=request.user, tournament=event, stage=stage),
        _("Round paired: review it, then publish it."),
    )
    return redirect("round_control", slug=slug)


@require_POST
@login_required
def stage_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Start a stage from the timeline; the box is the second confirmation (its players are
    fixed from the final standings when it starts)."""
    event = staff_event(request, slug)
    if request.POST.get("confirm") != "yes":
        messages.error(
            request, _("confirm: tick the box to start the stage (its players are then fixed).")
        )
        return redirect("round_control", slug=slug)
    attempt(
        request,
        lambda: services.stage_start_service(actor=request.user, tournament=event, number=number),
        _("Stage started: pair its first round."),
    )
    return redirect("round_control", slug=slug)


@require_POST
@login_required
def round_top_cut(request: HttpRequest, slug: str) -> HttpResponse:
    event = staff_event(request, slug)
    attempt(
        request,
        lambda: services.top_cut_start(actor=request.user, tournament=event),
        _("Top cut started: review the bracket, then publish it."),
    )
    return redirect("round_control", slug=slug)


@require_POST
@login_required
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = staff_round(request, slug, number)
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
            return redirect(round_url(round_, "swap"))
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
    return redirect(round_url(round_, "swap"))


@require_POST
@login_required
def round_set_table(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = staff_round(request, slug, number)
    current = int_or_none(request.POST.get("from_table"))
    target = int_or_none(request.POST.get("table"))
    match = round_.matches.filter(table=current).first() if current is not None else None
    if match is None:
        messages.error(
            request,
            _("Table: there is no table %(t)s in round %(n)d.")
            % {"t": request.POST.get("from_table", "").strip()[:10] or "?", "n": round_.number},
        )
        return redirect(round_url(round_, "move-table"))
    if target is None:
        messages.error(request, _("New table: a table number from 1."))
        return redirect(round_url(round_, "move-table"))
    match.round = round_
    done = attempt(
        request,
        lambda: services.round_set_table(actor=request.user, match=match, table=target),
        _("The match at table %(old)d now plays at table %(new)d.")
        % {"old": current, "new": target},
    )
    return redirect(round_url(round_, f"table-{target}" if done else "move-table"))


@require_POST
@login_required
def round_repair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = staff_round(request, slug, number)
    attempt(
        request,
        lambda: services.round_repair(actor=request.user, round_=round_),
        _("Round %(n)d paired again with a fresh draw.") % {"n": round_.number},
    )
    return redirect(round_url(round_))


@require_POST
@login_required
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = staff_round(request, slug, number)
    attempt(
        request,
        lambda: services.round_publish(actor=request.user, round_=round_),
        _("Round %(n)d published: players can see their tables.") % {"n": round_.number},
    )
    return redirect(round_url(round_))


@login_required
def round_delete(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The second, explicit step before an unpublished round and its pairings are thrown away."""
    round_ = staff_round(request, slug, number)
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
        return redirect(round_url(round_))
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
    round_ = staff_round(request, slug, number)
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
    return redirect(next_or(request, round_url(round_, "timer")))
