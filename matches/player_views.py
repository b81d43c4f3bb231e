"""A player's history pages: their own (/me/history/, always) and the public profile
(/players/{player_id}/, opt-in; hidden or unknown: 404). Reads in matches/players.py."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from matches import players

EVENTS_PER_PAGE = 25


def _page(request: HttpRequest, user: object) -> tuple[object, list[players.PlayedEvent]]:
    page = Paginator(players.played_registrations(user), EVENTS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return page, players.history(list(page.object_list))


@login_required
@require_GET
def my_history(request: HttpRequest) -> HttpResponse:
    page, events = _page(request, request.user)
    return render(
        request,
        "matches/player_history.html",
        {
            "page": page,
            "events": events,
            "summary": players.profile_summary(request.user),
            "series": players.series_points(request.user),
            "person": request.user,
        },
    )


@require_GET
def player_profile(request: HttpRequest, player_id: str) -> HttpResponse:
    person = players.public_profile_owner(player_id)
    page, events = _page(request, person)
    return render(
        request,
        "matches/player_profile.html",
        {
            "page": page,
            "events": events,
            "summary": players.profile_summary(person),
            "series": players.series_points(person),
            "person": person,
        },
    )
