"""The match clock page: one phone at the table runs the clock for both players.

The same service as the API (matches.clock_services). Without JavaScript the page shows the
times as the server rendered them and every button is a form (POST, then back here); with
static/js/clock.js it counts down on the device, presses through the API and re-syncs.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.errors import Forbidden, NotFound, ServiceError
from engine.games import get_game
from matches import clock_services, selectors
from matches.clock import KINDS
from matches.presenters import clock_ms_text
from tournaments import permissions


def _clock_view(request: HttpRequest, pk: int) -> clock_services.ClockView:
    match = selectors.match_visible(request.user, pk)
    try:
        return clock_services.clock_view(actor=request.user, match=match)
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except NotFound:
        raise Http404("No such match.") from None


def _press_from_post(request: HttpRequest) -> dict[str, Any]:
    """The pressed button's ``press`` value is ``kind[:side[:argument]]`` (start: who goes
    first; game_end: the winner); an adjustment comes from its own fields."""
    raw = (request.POST.get("press") or "")[:40]
    kind, _sep, rest = raw.partition(":")
    side, _sep, argument = rest.partition(":")
    if kind not in KINDS:
        raise ServiceError(_("kind: press one of the clock's buttons."), field="kind")
    try:
        expected = int(request.POST.get("expected_seq") or "")
    except ValueError:
        raise ServiceError(_("expected_seq: reload the page."), field="expected_seq") from None
    payload: dict[str, Any] = {}
    if kind == "start":
        payload["first"] = argument
        bids = _bids_from_post(request)
        if bids is not None:
            payload["bids"] = bids
    elif kind == "game_end":
        payload["winner"] = argument
    elif kind == "adjust":
        side = request.POST.get("adjust_side") or ""
        try:
            seconds = int(request.POST.get("adjust_seconds") or "")
        except ValueError:
            raise ServiceError(
                _("payload.add_ms: enter whole seconds to add (or take away)."),
                field="payload.add_ms",
            ) from None
        payload = {"add_ms": seconds * 1000, "reason": request.POST.get("reason") or ""}
    return {"kind": kind, "side": side, "payload": payload, "expected_seq": expected}


def _bids_from_post(request: HttpRequest) -> list[int] | None:
    """The start form's two optional bids (``bid_a``, ``bid_b``): both or neither; the
    clock's core checks their range and that they differ."""
    raw = [(request.POST.get(f"bid_{side}") or "").strip()[:10] for side in ("a", "b")]
    if not any(raw):
        return None
    if not all(raw):
        raise ServiceError(
            _("payload.bids: enter both players' bids, or neither."), field="payload.bids"
        )
    try:
        return [int(value) for value in raw]
    except ValueError:
        raise ServiceError(
            _("payload.bids: bids are whole numbers."), field="payload.bids"
        ) from None


@login_required
def match_clock_page(request: HttpRequest, pk: int) -> HttpResponse:
    view = _clock_view(request, pk)
    match = view.match
    here = reverse("match_clock", kwargs={"pk": match.pk})
    if request.method == "POST":
        try:
            clock_services.press(actor=request.user, match=match, **_press_from_post(request))
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect(here)
    tournament = match.round.tournament
    clock_rules = get_game(tournament.game).clock_rules()
    data = view.to_json()
    side_of_user = clock_services.match_services.acting_side(request.user, match)
    remaining = data.get("remaining_ms") or {}
    halves = [
        {
            "side": side,
            "name": data["players"][side],
            "time": clock_ms_text(remaining.get(side)),
            "active": data["active"] == side,
            "can_end_turn": data["running"] and data["active"] == side,
            "you": side_of_user == side,
        }
        for side in ("a", "b")
    ]
    context = {
        "event": tournament,
        "match": match,
        "round": match.round,
        "clock": data,
        "view": view,
        "halves": halves,
        "delay_text": clock_ms_text(data.get("delay_left_ms")),
        "minutes": (data.get("time_ms") or 0) // 60_000,
        "delay_seconds": (data.get("delay_ms") or 0) // 1000,
        "is_staff": permissions.is_staff_of(request.user, tournament),
        "match_final": match.status == "final",
        "may_press": view.enabled
        and match.status != "final"
        and match.round.status == "published"
        and data["phase"] != "over",
        "asks_bids": clock_rules.asks_bids,
        "max_bid": clock_rules.bids.maximum,
        "api_url": reverse("api-match-clock", kwargs={"pk": match.pk}),
        "here": here,
    }
    return render(request, "matches/clock.html", context)
