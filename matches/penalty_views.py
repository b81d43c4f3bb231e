"""Pages for penalties: the one-screen form reached from a match's staff page, the event's
penalty log (with a CSV download) and a player's penalty history across events.

Thin, like matches/staff_views.py: the penalty is given by matches.services.penalty_give (the
same call as the API), which decides who may do what; these pages only read. Staff of the
event only (403 for others, 404 for an event or match they cannot see).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.errors import ServiceError
from engine import penalties as catalogue
from matches import selectors, services
from matches.models import Match, MatchStatus, RoundStage
from matches.presenters import score_text
from tournaments import permissions as perms
from tournaments.models import Registration, Tournament
from tournaments.selectors import visible_event

PAGE_SIZE = 100
OTHER_EVENTS_SHOWN = 10


def _staff_match(request: HttpRequest, pk: int) -> Match:
    match = selectors.match_visible(request.user, pk)
    if not perms.is_staff_of(request.user, match.round.tournament):
        raise PermissionDenied(_("Only this event's organisers and judges may see this page."))
    return match


def _staff_event(request: HttpRequest, slug: str) -> Tournament:
    event = visible_event(request, slug)
    if not perms.is_staff_of(request.user, event):
        raise PermissionDenied(_("Only this event's organisers and judges may see this page."))
    return event


def _player_panel(registration: Registration, event: Tournament, viewer: Any) -> dict[str, Any]:
    """What the judge sees about one player before saving: their penalties here, the repeats
    (upgrade suggested) and their penalties at other events."""
    history = list(services.penalty_history(registration, viewer=viewer))
    here = [p for p in history if p.tournament_id == event.pk]
    elsewhere = [p for p in history if p.tournament_id != event.pk]
    repeats = [
        {
            "infraction": catalogue.infraction(key),
            "times": suggestion.repeats,
            "suggested": catalogue.PENALTY_LABELS[suggestion.penalty],
        }
        for key, suggestion in services.repeated_infractions(registration).items()
    ]
    return {
        "registration": registration,
        "here": here,
        "elsewhere": elsewhere[:OTHER_EVENTS_SHOWN],
        "elsewhere_count": len(elsewhere),
        "repeats": repeats,
    }


def _effect(match: Match, side: str, kind: str) -> str:
    """In words, what giving this penalty now would do to the match's result."""
    if kind not in catalogue.RESULT_PENALTIES:
        return _("Recorded; the result does not change.")
    if match.is_bye:
        return _("A bye has no result to change.")
    structure = services.round_structure(match.round)
    games_to_win = structure.games_to_win if structure is not None else 1
    final = match.status == MatchStatus.FINAL
    if kind == catalogue.GAME_LOSS:
        if not final:
            return _("No final result yet: the players report the result with this game lost.")
        new = catalogue.after_game_loss(
            match.games,
            side,
            games_to_win=games_to_win,
            draws_allowed=match.round.stage != RoundStage.TOP_CUT,
        )
    else:
        new = catalogue.after_match_loss(
            match.games if final else None, side, games_to_win=games_to_win
        )
    if new is None:
        return _("The result stands: the player had already lost this match.")
    text = _("The result becomes %(after)s (was %(before)s).") % {
        "after": score_text(new),
        "before": score_text(match.games) if final else _("none"),
    }
    if kind == catalogue.DISQUALIFICATION:
        text += " " + _("The player is dropped from the event.")
    return text


@login_required
def match_penalty(request: HttpRequest, pk: int) -> HttpResponse:
    """Give a penalty to a player of this match. "Check" shows the catalogue's suggestion and
    its effect on the result; "Give the penalty" saves it."""
    match = _staff_match(request, pk)
    round_ = match.round
    event = round_.tournament
    players = [match.a] + ([match.b] if match.b is not None else [])
    is_organiser = perms.is_organiser_of(request.user, event)
    form: dict[str, Any] = {
        "registration": request.POST.get("registration") or request.GET.get("registration", ""),
        "infraction": request.POST.get("infraction", ""),
        "penalty": request.POST.get("penalty", ""),
        "note": request.POST.get("note", ""),
    }
    check: dict[str, Any] | None = None
    if request.method == "POST":
        registration = next((r for r in players if str(r.pk) == form["registration"]), None)
        step = request.POST.get("step", "check")
        try:
            if registration is None:
                raise ServiceError(_("Player: choose a player of this match."))
            if step == "save":
                given = services.penalty_give(
                    actor=request.user,
                    match=match,
                    registration=registration,
                    infraction=form["infraction"],
                    penalty=form["penalty"] or None,
                    note=form["note"],
                )
                messages.success(
                    request,
                    _("%(penalty)s for %(infraction)s given to %(name)s. %(outcome)s")
                    % {
                        "penalty": given.get_penalty_display(),
                        "infraction": given.infraction_label,
                        "name": registration.name,
                        "outcome": given.outcome,
                    },
                )
                return redirect(reverse("match_penalty", args=[match.pk]) + "#given")
            suggestion = services.penalty_suggestion(
                registration=registration, infraction=form["infraction"]
            )
            if form["penalty"]:
                catalogue.check_penalty(form["penalty"])
            kind = form["penalty"] or suggestion.penalty
            side = match.side_of(registration.pk) or "a"
            check = {
                "registration": registration,
                "infraction": catalogue.infraction(form["infraction"]),
                "category_label": catalogue.CATEGORY_LABELS[
                    catalogue.infraction(form["infraction"]).category
                ],
                "suggestion": suggestion,
                "suggested_label": catalogue.PENALTY_LABELS[suggestion.penalty],
                "default_label": catalogue.PENALTY_LABELS[suggestion.default],
                "penalty": kind,
                "penalty_label": catalogue.PENALTY_LABELS[kind],
                "effect": _effect(match, side, kind),
                "needs_organiser": kind == catalogue.DISQUALIFICATION and not is_organiser,
            }
        except (ServiceError, catalogue.PenaltyError) as exc:
            # Staff already (checked above): a refusal such as a judge's disqualification
            # is said on the form rather than as a 403 page.
            messages.error(request, exc.message)
    context = {
        "event": event,
        "round": round_,
        "match": match,
        "result_text": score_text(match.games),
        "panels": [_player_panel(r, event, request.user) for r in players],
        "categories": [
            (key, label, [i.to_json() for i in items])
            for key, label, items in catalogue.by_category()
        ],
        "penalties": [(k, catalogue.PENALTY_LABELS[k]) for k in catalogue.PENALTIES],
        "is_organiser": is_organiser,
        "can_penalise": round_.is_visible_to_players,
        "given": list(services.penalties_of_event(event).filter(match=match)),
        "form": form,
        "check": check,
    }
    return render(request, "matches/penalties/form.html", context)


@login_required
def event_penalties(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's penalty log, oldest first, with the CSV download."""
    event = _staff_event(request, slug)
    qs = services.penalties_of_event(event)
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    counts = {k: 0 for k in catalogue.PENALTIES}
    for kind in qs.values_list("penalty", flat=True):
        counts[kind] = counts.get(kind, 0) + 1
    return render(
        request,
        "matches/penalties/log.html",
        {
            "event": event,
            "page": page,
            "counts": [(catalogue.PENALTY_LABELS[k], n) for k, n in counts.items()],
        },
    )


@login_required
def event_penalties_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = _staff_event(request, slug)
    response = HttpResponse(services.penalty_log_csv(event), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-penalties.csv"'
    return response


@login_required
def player_penalties(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """One player's penalties across every event, for the staff of this event."""
    event = _staff_event(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id
    )
    if registration.tournament_id != event.pk:
        raise Http404("No such registration.")
    history = list(services.penalty_history(registration, viewer=request.user))
    return render(
        request,
        "matches/penalties/player.html",
        {
            "event": event,
            "registration": registration,
            "history": history,
            "repeats": [
                {
                    "infraction": catalogue.infraction(key),
                    "times": suggestion.repeats,
                    "suggested": catalogue.PENALTY_LABELS[suggestion.penalty],
                }
                for key, suggestion in services.repeated_infractions(registration).items()
            ],
        },
    )
