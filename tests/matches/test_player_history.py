"""Players with a history: the person's own history page and API (always), the opt-in public
profile (private by default, hideable; hidden or unknown is the same 404 on the page and the
API), places from the stored standings, records, and lists only once published."""

from __future__ import annotations

import pytest
from django.utils import timezone

from decks.services import decklist_submit
from matches import players
from tests.factories import TournamentFactory, UserFactory, logged_in
from tests.scenarios import client_for, finished_swiss
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def test_the_own_history_lists_every_event_played_with_place_and_record(api_client) -> None:  # type: ignore[no-untyped-def]
    scene = finished_swiss(players=4, rounds=2, top_cut_size=0)
    me = scene.registrations[0].player
    # An event still taking registrations is not history.
    TournamentFactory().registrations.create(player=me)
    body = client_for(me).get("/api/me/history/").json()
    assert body["player_id"] == me.player_id and body["events_played"] == 1
    [event] = body["results"]
    assert event["event"] == scene.event.slug and event["players"] == 4
    rows = players.final_places([scene.event])[scene.event.pk].places
    assert event["place"] == rows[scene.registrations[0].pk]
    wins, losses, draws = event["wins"], event["losses"], event["draws"]
    assert wins + losses + draws == 2 and event["record"] == f"{wins}-{losses}-{draws}"
    assert body["record"] == event["record"]
    page = logged_in(me).get("/me/history/").content.decode()
    assert scene.event.name in page and event["record"] in page
    assert "your public profile is hidden" in page
    assert api_client.get("/api/me/history/").status_code in (401, 403)


def test_a_profile_is_private_by_default_and_the_same_404_as_an_unknown_player(api_client) -> None:  # type: ignore[no-untyped-def]
    scene = finished_swiss(players=4, rounds=1)
    me = scene.registrations[0].player
    for client in (api_client, client_for(UserFactory()), client_for(me)):
        hidden = client.get(f"/api/players/{me.player_id}/")
        unknown = client.get("/api/players/ZZZZZZ/")
        assert hidden.status_code == unknown.status_code == 404
        assert hidden.json() == unknown.json()
    assert logged_in(UserFactory()).get(f"/players/{me.player_id}/").status_code == 404


def test_a_profile_shown_then_hidden_again() -> None:
    scene = finished_swiss(players=4, rounds=1)
    me = scene.registrations[0].player
    mine = client_for(me)
    bad = mine.post("/api/me/profile/", {"public": "perhaps"}, format="json")
    assert bad.status_code == 400 and "public" in bad.json()
    shown = mine.post("/api/me/profile/", {"public": True}, format="json")
    assert shown.status_code == 200 and shown.json()["profile_public"] is True
    stranger = client_for(UserFactory())
    body = stranger.get(f"/api/players/{me.player_id.lower()}/").json()
    assert body["name"] == me.public_name and body["events_played"] == 1
    assert body["results"][0]["event"] == scene.event.slug
    page = logged_in(UserFactory()).get(f"/players/{me.player_id}/")
    assert page.status_code == 200 and me.public_name in page.content.decode()
    # Hidden again from the account settings page.
    form = logged_in(me).post(
        "/accounts/profile/",
        {"display_name": me.display_name, "email": me.email, "first_name": "", "last_name": ""},
    )
    assert form.status_code == 302
    me.refresh_from_db()
    assert me.profile_public is False
    assert stranger.get(f"/api/players/{me.player_id}/").status_code == 404
    assert logged_in(UserFactory()).get(f"/players/{me.player_id}/").status_code == 404


def test_the_history_is_paginated() -> None:
    me = UserFactory(profile_public=True)
    for _ in range(3):
        scene = finished_swiss(players=2, rounds=1)
        Registration.objects.filter(pk=scene.registrations[0].pk).update(player=me)
    body = client_for(UserFactory()).get(f"/api/players/{me.player_id}/", {"limit": 2}).json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]
    assert body["events_played"] == 3
    bad = client_for(UserFactory()).get(f"/api/players/{me.player_id}/", {"limit": "x"})
    assert bad.status_code == 400 and bad.json()["field"] == "limit"


def test_a_decklist_shows_on_the_profile_only_once_published(legal_list: str) -> None:
    scene = finished_swiss(players=2, rounds=1)
    registration = scene.registrations[0]
    me = registration.player
    me.profile_public = True
    me.save()
    decklist_submit(actor=scene.organiser, registration=registration, source=legal_list)
    url = f"/api/players/{me.player_id}/"
    assert client_for(UserFactory()).get(url).json()["results"][0]["decklist"] is None
    scene.event.decklists_published_at = timezone.now()
    scene.event.save()
    version = client_for(UserFactory()).get(url).json()["results"][0]["decklist"]
    assert version is not None
    page = logged_in(UserFactory()).get(f"/players/{me.player_id}/").content.decode()
    assert f"/decklists/{version}/" in page


def test_erasing_an_account_hides_its_profile() -> None:
    from accounts.services import account_erase

    me = UserFactory(profile_public=True)
    code = me.player_id
    account_erase(actor=me, user=me, confirm=True, password="correct-horse-battery")
    me.refresh_from_db()
    assert me.profile_public is False
    assert client_for(UserFactory()).get(f"/api/players/{code}/").status_code == 404
