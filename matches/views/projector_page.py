"""The venue projector: the current round's pairings and timer, polled in place."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from matches.models import VISIBLE_TO_PLAYERS, Round
from matches.views.common import timer_context
from matches.views.pairings import pairings_fragment
from matches.views.qr import qr_svg
from tournaments.models import Tournament
from tournaments.selectors import visible_event

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
    body = pairings_fragment(round_, "matches/_projector_list.html", "projector") if round_ else ""
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
