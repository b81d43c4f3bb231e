"""Decks API: catalog, formats, check my deck, submissions, visibility, deck checks."""

from __future__ import annotations

import pytest

from decks import services
from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    organiser_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_catalog(shared_demo_catalog):  # type: ignore[no-untyped-def]
    """tests/conftest.py's demo catalog, loaded once for the module (tests/scenarios.py)."""
    return shared_demo_catalog


def test_catalog_is_public_and_searchable(api_client, demo_catalog) -> None:  # type: ignore[no-untyped-def]
    body = api_client.get("/api/cards/?game=boba&kind=hero&limit=5").json()
    assert body["count"] > 0 and all(c["kind"] == "hero" for c in body["results"])
    name = body["results"][0]["name"]
    found = api_client.get(f"/api/cards/?q={name[:5]}").json()
    assert any(c["name"] == name for c in found["results"])


def test_formats_list_every_preset_with_parameters(api_client) -> None:  # type: ignore[no-untyped-def]
    body = api_client.get("/api/formats/?game=boba").json()
    keys = {f["key"] for f in body["formats"]}
    assert {
        "rookie",
        "substitution",
        "playmaker",
        "elite_playmaker",
        "double_blaster_sealed",
    } <= keys
    playmaker = next(f for f in body["formats"] if f["key"] == "playmaker")
    assert playmaker["parameters"]["playbook_size"] == 30 and playmaker["mode"] == "playmaker"
    assert api_client.get("/api/formats/?game=chess").status_code == 400


def test_check_my_deck_needs_no_account(api_client, legal_list: str) -> None:  # type: ignore[no-untyped-def]
    response = api_client.post(
        "/api/decklists/check/", {"format": "playmaker", "text": legal_list}, format="json"
    )
    assert response.status_code == 200 and response.json()["report"]["legal"] is True
    spec = api_client.post(
        "/api/decklists/check/", {"format": "elite_playmaker", "text": legal_list}, format="json"
    )
    assert spec.status_code == 200


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"format": "playmaker"}, "text"),
        ({"format": "playmaker", "text": "x", "data": {}}, "text"),
        ({"format": "nope", "text": "1 x"}, "format"),
        ({"format": "playmaker", "text": "a" * 300_000}, "decklist"),
    ],
)
def test_check_my_deck_bad_input_names_the_field(api_client, demo_catalog, payload, field) -> None:  # type: ignore[no-untyped-def]
    response = api_client.post("/api/decklists/check/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_player_submits_by_api_and_sees_history(api_client, legal_list: str) -> None:  # type: ignore[no-untyped-def]
    reg = RegistrationFactory()
    url = f"/api/registrations/{reg.pk}/decklist/"
    api_client.force_authenticate(reg.player)
    created = api_client.post(url, {"text": legal_list}, format="json")
    assert created.status_code == 201 and created.json()["legal"] is True
    body = api_client.get(url).json()
    assert body["active"]["number"] == 1 and len(body["versions"]) == 1
    data_form = api_client.post(url, {"data": created.json()["data"]}, format="json")
    assert data_form.status_code == 201 and data_form.json()["number"] == 2
    assert data_form.json()["text"] == created.json()["text"]


def test_unreadable_submission_returns_the_report(api_client, demo_catalog) -> None:  # type: ignore[no-untyped-def]
    reg = RegistrationFactory()
    api_client.force_authenticate(reg.player)
    response = api_client.post(
        f"/api/registrations/{reg.pk}/decklist/", {"text": "Heroes\n2 Zzzz Qqqq\n"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "decklist" and response.json()["report"]["violations"]


def test_decklists_are_private_until_published(api_client, legal_list: str) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory(status="finished")
    reg = RegistrationFactory(tournament=event)
    version = services.decklist_submit(
        actor=organiser_of(event), registration=reg, source=legal_list
    )
    api_client.force_authenticate(UserFactory())
    assert api_client.get(f"/api/registrations/{reg.pk}/decklist/").status_code == 403
    assert api_client.get(f"/api/decklist-versions/{version.pk}/").status_code == 403
    assert api_client.get(f"/api/events/{event.slug}/decklists/").status_code == 403
    assert (
        api_client.post(
            f"/api/events/{event.slug}/decklists/publish/", {}, format="json"
        ).status_code
        == 403
    )
    api_client.force_authenticate(organiser_of(event))
    assert (
        api_client.post(
            f"/api/events/{event.slug}/decklists/publish/", {}, format="json"
        ).status_code
        == 200
    )
    api_client.force_authenticate(None)
    assert api_client.get(f"/api/decklist-versions/{version.pk}/").json()["legal"] is True
    rows = api_client.get(f"/api/events/{event.slug}/decklists/").json()["decklists"]
    assert rows[0]["version"]["number"] == 1


def test_a_player_cannot_submit_or_unlock_for_another(api_client, legal_list: str) -> None:  # type: ignore[no-untyped-def]
    reg = RegistrationFactory()
    api_client.force_authenticate(UserFactory())
    assert (
        api_client.post(
            f"/api/registrations/{reg.pk}/decklist/", {"text": legal_list}, format="json"
        ).status_code
        == 403
    )
    assert (
        api_client.post(
            f"/api/registrations/{reg.pk}/decklist/unlock/", {}, format="json"
        ).status_code
        == 403
    )
    api_client.force_authenticate(organiser_of(reg.tournament))
    assert api_client.post(
        f"/api/registrations/{reg.pk}/decklist/unlock/", {}, format="json"
    ).json()["unlocked"]


def test_deck_checks_through_the_api(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory(status="running")
    RegistrationFactory.create_batch(5, tournament=event)
    url = f"/api/events/{event.slug}/deck-checks/"
    api_client.force_authenticate(UserFactory())
    assert api_client.post(url, {"round_number": 1, "count": 2}, format="json").status_code == 403
    api_client.force_authenticate(organiser_of(event))
    created = api_client.post(url, {"round_number": 1, "count": 2, "seed": 7}, format="json")
    assert created.status_code == 201 and len(created.json()["results"]) == 2
    result_id = created.json()["results"][0]["id"]
    recorded = api_client.post(
        f"/api/deck-check-results/{result_id}/", {"outcome": "ok"}, format="json"
    )
    assert recorded.json()["outcome"] == "ok"
    bad = api_client.post(
        f"/api/deck-check-results/{result_id}/", {"outcome": "meh"}, format="json"
    )
    assert bad.status_code == 400 and "outcome" in bad.json()
    assert len(api_client.get(url).json()) == 1


def test_card_import_upload_api(api_client) -> None:  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile

    api_client.force_authenticate(UserFactory())
    upload = SimpleUploadedFile("c.csv", b"name,set,card_number,weapon,power\nA,S,1,Fire,100\n")
    assert (
        api_client.post("/api/card-imports/", {"files": [upload]}, format="multipart").status_code
        == 403
    )
    api_client.force_authenticate(OrganiserFactory())
    upload = SimpleUploadedFile("c.csv", b"name,set,card_number,weapon,power\nA,S,1,Fire,100\n")
    response = api_client.post("/api/card-imports/", {"files": [upload]}, format="multipart")
    assert response.status_code == 202
    detail = api_client.get(f"/api/card-imports/{response.json()['id']}/").json()
    assert detail["status"] in {"pending", "done"}
    assert api_client.post("/api/card-imports/", {}, format="multipart").status_code == 400


def test_openapi_schema_generates_without_warnings() -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    assert "/api/decklists/check/" in out.getvalue()
