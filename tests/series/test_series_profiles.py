"""Issue 22's players with a history, by final placings (matches.placings.event_placings, top
cut included) rather than Swiss standings, with series points on the public profile; and a
series' leaderboard versioned by its events' placings versions."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches import players
from matches import services as match_services
from matches.models import Match
from matches.placings import event_placings, places_by_entrant, placings_version
from matches.services import standings_snapshot
from series import selectors as series_selectors
from series.models import Series
from tests.factories import OrganiserFactory, UserFactory, logged_in
from tests.scenarios import client_for, finished_swiss, running_top_cut
from tests.series.series_support import POINTS, finished_event

pytestmark = pytest.mark.django_db


def test_history_places_come_from_the_placings_top_cut_included() -> None:
    scene = running_top_cut(players=8, top_cut_size=4, swiss_rounds=2)
    swiss_rank = {
        int(row["registration"]): int(row["rank"]) for row in standings_snapshot(scene.event).rows
    }
    for match in scene.matches:  # the lower seed wins each semi-final
        match_services.match_report(actor=scene.organiser, match=match, games=[0, 1, 0])
    placed = places_by_entrant(event_placings(scene.event))
    history = {
        played.registration_id: played
        for registration in scene.registrations
        for played in players.history(list(players.played_registrations(registration.player)))
    }
    assert {pk: h.place for pk, h in history.items()} == dict(placed)
    # a semi-final's loser is placed by the bracket, not by their Swiss rank
    assert any(history[pk].place != swiss_rank[pk] for pk in placed)
    assert not any(h.place_final for h in history.values())  # the event still runs
    assert all(h.players == 8 for h in history.values())


def test_a_finished_events_places_are_final_on_the_api() -> None:
    scene = finished_swiss(players=4, rounds=2, top_cut_size=0)
    client_for(scene.organiser).post(
        f"/api/events/{scene.event.slug}/transition/", {"to": "finished"}, format="json"
    )
    me = scene.registrations[0].player
    [row] = client_for(me).get("/api/me/history/").json()["results"]
    placings = places_by_entrant(event_placings(scene.event))
    assert row["place"] == placings[scene.registrations[0].pk] and row["place_final"] is True
    page = logged_in(me).get("/me/history/").content.decode()
    assert "Final place" in page


def _series_of(organiser: Any, players_: list[Any], name: str = "Store season") -> Series:
    staff = client_for(organiser)
    slug = staff.post("/api/series/", {"name": name, "points": POINTS}, format="json").json()[
        "slug"
    ]
    event = finished_event(organiser, players_, f"{name} week 1")
    assert (
        staff.post(f"/api/series/{slug}/events/", {"event": event.slug}, format="json").status_code
        == 200
    )
    return Series.objects.get(slug=slug)


def test_a_public_profile_shows_the_players_series_points() -> None:
    organiser = OrganiserFactory()
    people = [UserFactory() for _ in range(4)]
    series = _series_of(organiser, people)
    board = {row["player_id"]: row for row in series_selectors.current_leaderboard(series)}
    me = people[0]
    mine = board[me.player_id]
    # private by default: the series points do not leak through a hidden profile
    assert client_for(UserFactory()).get(f"/api/players/{me.player_id}/").status_code == 404
    me.profile_public = True
    me.save()
    body = client_for(UserFactory()).get(f"/api/players/{me.player_id}/").json()
    assert body["series"] == [
        {
            "series": series.slug,
            "name": series.name,
            "rank": mine["rank"],
            "players": 4,
            "points": mine["points"],
            "events": 1,
            "url": f"/series/{series.slug}/",
        }
    ]
    page = Client().get(f"/players/{me.player_id}/").content.decode()
    assert "Series points" in page and series.name in page and f"/series/{series.slug}/" in page
    # somebody who played in no series has none
    assert players.series_points(UserFactory()) == []


def test_the_leaderboard_version_follows_the_events_placings_versions_in_fixed_queries(
    django_capture_on_commit_callbacks: Any,
) -> None:
    organiser = OrganiserFactory()
    people = [UserFactory() for _ in range(4)]
    series = _series_of(organiser, people)
    with CaptureQueriesContext(connection) as one_event:
        first = series_selectors.leaderboard_version(series)
    for week in (2, 3):
        event = finished_event(organiser, people, f"Week {week}")
        client_for(organiser).post(
            f"/api/series/{series.slug}/events/", {"event": event.slug}, format="json"
        )
    with CaptureQueriesContext(connection) as three_events:
        version = series_selectors.leaderboard_version(series)
    assert version != first
    assert len(three_events) == len(one_event)  # grouped reads, not one set per event
    assert series_selectors.leaderboard_version(series) == version  # nothing changed
    week1 = series_selectors.series_events(series)[0]
    placing_before = placings_version(week1)
    match = Match.objects.filter(round__tournament=week1, b__isnull=False).order_by(
        "-round__number", "table"
    )[0]
    with django_capture_on_commit_callbacks(execute=True):
        flipped = client_for(organiser).post(
            f"/api/matches/{match.pk}/report/",
            {"games": [0, 1, 0], "reason": "Slips swapped"},
            format="json",
        )
    assert flipped.status_code == 200, flipped.content
    assert placings_version(week1) != placing_before
    assert series_selectors.leaderboard_version(series) != version
