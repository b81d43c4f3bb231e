"""The REST API: permissions for every endpoint, and clear 4xx errors naming the field."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    organiser_of,
)
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

EVENT_PAYLOAD = {
    "name": "API Open",
    "mode": "playmaker",
    "format_key": "playmaker",
    "starts_at": "2030-05-01T10:00:00Z",
    "time_zone": "Europe/Berlin",
    "capacity": 32,
}


def test_anyone_lists_published_events_but_not_drafts(api_client) -> None:  # type: ignore[no-untyped-def]
    TournamentFactory(name="Public")
    draft = TournamentFactory(name="Secret", status="draft")
    body = api_client.get("/api/events/").json()
    assert [e["name"] for e in body["results"]] == ["Public"]
    assert api_client.get(f"/api/events/{draft.slug}/").status_code == 404
    api_client.force_authenticate(organiser_of(draft))
    assert api_client.get(f"/api/events/{draft.slug}/").status_code == 200


def test_registered_count_is_reported(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    RegistrationFactory.create_batch(3, tournament=event)
    body = api_client.get(f"/api/events/{event.slug}/").json()
    assert body["registered_count"] == 3


def test_organiser_creates_an_event(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post("/api/events/", EVENT_PAYLOAD, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "draft"


@pytest.mark.parametrize(("user_factory", "status"), [(None, 401), (UserFactory, 403)])
def test_non_organisers_cannot_create_events(api_client, user_factory, status) -> None:  # type: ignore[no-untyped-def]
    if user_factory:
        api_client.force_authenticate(user_factory())
    assert api_client.post("/api/events/", EVENT_PAYLOAD, format="json").status_code in (
        status,
        403,
    )
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({**EVENT_PAYLOAD, "starts_at": "tomorrow-ish"}, "starts_at"),
        ({**EVENT_PAYLOAD, "capacity": "lots"}, "capacity"),
        ({**EVENT_PAYLOAD, "capacity": -4}, "capacity"),
        ({**EVENT_PAYLOAD, "format_key": "unknown"}, "format_key"),
        ({**EVENT_PAYLOAD, "time_zone": "Nowhere/Town"}, "time_zone"),
        ({k: v for k, v in EVENT_PAYLOAD.items() if k != "name"}, "name"),
    ],
)
def test_malformed_event_payloads_get_400_naming_the_field(api_client, payload, field) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post("/api/events/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("body", ['["a list"]', '"a string"', "{not json", "12"])
def test_non_object_bodies_get_400(api_client, body: str) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post("/api/events/", body, content_type="application/json")
    assert response.status_code == 400


def test_only_the_events_organisers_update_and_transition_it(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    url = f"/api/events/{event.slug}/"
    api_client.force_authenticate(OrganiserFactory())
    assert api_client.patch(url, {"venue": "Elsewhere"}, format="json").status_code == 403
    assert (
        api_client.post(url + "transition/", {"to": "cancelled"}, format="json").status_code == 403
    )
    api_client.force_authenticate(organiser_of(event))
    assert (
        api_client.patch(url, {"venue": "Elsewhere"}, format="json").json()["venue"] == "Elsewhere"
    )
    response = api_client.post(url + "transition/", {"to": "finished"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "status"
    assert (
        api_client.post(
            url + "transition/", {"to": "registration_closed"}, format="json"
        ).status_code
        == 200
    )


def test_player_self_service_registration(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    player = UserFactory()
    url = f"/api/events/{event.slug}/register/"
    assert api_client.post(url).status_code in (401, 403)
    api_client.force_authenticate(player)
    created = api_client.post(url)
    assert created.status_code == 201 and created.json()["status"] == "registered"
    again = api_client.post(url)
    assert again.status_code == 400 and again.json()["field"] == "tournament"
    reg_id = created.json()["id"]
    assert api_client.post(f"/api/registrations/{reg_id}/withdraw/").json()["status"] == "withdrawn"


def test_a_player_cannot_see_or_touch_anothers_registration(api_client) -> None:  # type: ignore[no-untyped-def]
    reg = RegistrationFactory()
    api_client.force_authenticate(UserFactory())
    base = f"/api/registrations/{reg.pk}/"
    assert api_client.get(base).status_code == 403
    for action in ("withdraw/", "remove/", "check-in/", "drop/", "reinstate/", "reactivate/"):
        assert api_client.post(base + action, {}, format="json").status_code == 403, action
    reg.refresh_from_db()
    assert reg.status == "registered" and not reg.checked_in


def test_players_see_only_their_own_registration_in_the_event_list(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    mine = RegistrationFactory(tournament=event)
    RegistrationFactory(tournament=event)
    url = f"/api/events/{event.slug}/registrations/"
    assert api_client.get(url).status_code in (401, 403)
    api_client.force_authenticate(mine.player)
    assert [r["id"] for r in api_client.get(url).json()["results"]] == [mine.pk]
    api_client.force_authenticate(organiser_of(event))
    body = api_client.get(url).json()
    assert body["count"] == 2 and "claim_code" in body["results"][0]


def test_judges_see_all_registrations_but_cannot_manage(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    reg = RegistrationFactory(tournament=event)
    judge = UserFactory()
    event.judges.add(judge)
    api_client.force_authenticate(judge)
    assert api_client.get(f"/api/events/{event.slug}/registrations/").json()["count"] == 1
    assert (
        api_client.post(f"/api/registrations/{reg.pk}/remove/", {}, format="json").status_code
        == 403
    )
    assert api_client.get(f"/api/events/{event.slug}/audit/").status_code == 200


def test_organiser_manages_walk_ins_check_in_and_removal(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    api_client.force_authenticate(organiser_of(event))
    walk_in = api_client.post(f"/api/events/{event.slug}/walk-ins/", {"name": "Pat"}, format="json")
    assert walk_in.status_code == 201
    reg_id = walk_in.json()["id"]
    assert api_client.post(f"/api/registrations/{reg_id}/check-in/", {}, format="json").json()[
        "checked_in"
    ]
    bad = api_client.post(f"/api/events/{event.slug}/walk-ins/", {"name": ""}, format="json")
    assert bad.status_code == 400 and "name" in bad.json()
    assert (
        api_client.post(
            f"/api/registrations/{reg_id}/remove/", {"reason": "x", "confirm": True}, format="json"
        ).json()["status"]
        == "removed"
    )


def test_walk_in_claim_through_the_api(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    api_client.force_authenticate(organiser_of(event))
    code = api_client.post(
        f"/api/events/{event.slug}/walk-ins/", {"name": "Pat"}, format="json"
    ).json()["claim_code"]
    player = UserFactory()
    api_client.force_authenticate(player)
    response = api_client.post("/api/registrations/claim/", {"claim_code": code}, format="json")
    assert response.status_code == 200 and response.json()["player_id"] == player.player_id
    assert api_client.get("/api/registrations/mine/").json()["count"] == 1


def test_player_check_in_opens_and_players_check_in_from_phones(api_client) -> None:  # type: ignore[no-untyped-def]
    reg = RegistrationFactory()
    event = reg.tournament
    api_client.force_authenticate(reg.player)
    closed = api_client.post(f"/api/registrations/{reg.pk}/check-in/", {}, format="json")
    assert closed.status_code == 400 and closed.json()["code"] == "check_in_closed"
    assert (
        api_client.post(
            f"/api/events/{event.slug}/player-check-in/", {"open": True}, format="json"
        ).status_code
        == 403
    )
    api_client.force_authenticate(organiser_of(event))
    api_client.post(f"/api/events/{event.slug}/player-check-in/", {"open": True}, format="json")
    api_client.force_authenticate(reg.player)
    assert api_client.post(f"/api/registrations/{reg.pk}/check-in/", {}, format="json").json()[
        "checked_in"
    ]


def test_assign_judge_by_player_id(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    judge = UserFactory()
    api_client.force_authenticate(organiser_of(event))
    ok = api_client.post(
        f"/api/events/{event.slug}/judges/", {"player_id": judge.player_id.lower()}, format="json"
    )
    assert ok.status_code == 204 and event.judges.filter(pk=judge.pk).exists()
    missing = api_client.post(
        f"/api/events/{event.slug}/judges/", {"player_id": "ZZZ-ZZZ"}, format="json"
    )
    assert missing.status_code == 400 and missing.json()["field"] == "player_id"


def test_me_and_token_authentication(api_client) -> None:  # type: ignore[no-untyped-def]
    user = UserFactory(username="tokenuser")
    assert api_client.get("/api/me/").status_code in (401, 403)
    token = api_client.post(
        "/api/auth/token/",
        {"username": "tokenuser", "password": "correct-horse-battery"},
        format="json",
    ).json()["token"]
    assert Token.objects.get(user=user).key == token
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = api_client.get("/api/me/").json()
    assert me["player_id"] == user.player_id and me["is_organiser"] is False


def test_schema_and_docs_are_served(api_client) -> None:  # type: ignore[no-untyped-def]
    schema = api_client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/events/" in schema.content
    docs = api_client.get("/api/docs/")
    assert docs.status_code == 200 and b"cdn" not in docs.content.lower()


def test_walk_in_registrations_never_duplicate_accounts(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    player = UserFactory()
    RegistrationFactory(tournament=event, player=player)
    api_client.force_authenticate(player)
    assert api_client.post(f"/api/events/{event.slug}/register/").status_code == 400
    assert Registration.objects.filter(tournament=event, player=player).count() == 1


@pytest.mark.parametrize(
    "url",
    [
        "/api/registrations/null/",
        "/api/registrations/null,null/withdraw/",
        "/api/decklist-versions/abc/",
        "/api/cards/%C3%8F/",
        "/api/card-imports/x/",
    ],
)
def test_non_numeric_ids_are_404_not_500(api_client, url: str) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post(url) if url.endswith("withdraw/") else api_client.get(url)
    assert response.status_code == 404
