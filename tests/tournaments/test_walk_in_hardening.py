"""What the security review found about walk-ins, check-in and names, each held by a test:
judges saw and could use walk-ins' claim codes, a removed walk-in could still be claimed, a
form request without `open` closed player check-in, and names took control characters."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from config.errors import Conflict, Forbidden, ServiceError
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, organiser_of
from tests.scenarios import client_for
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

RLO = "\u202e"


def _walk_in(event: Tournament, name: str = "Pat Walker") -> Registration:
    return services.registration_add_walk_in(actor=organiser_of(event), tournament=event, name=name)


def _judge_of(event: Tournament) -> Any:
    judge = UserFactory()
    event.judges.add(judge)
    return judge


# --- claim codes: organisers only --------------------------------------------------------


def test_judges_do_not_see_claim_codes_in_the_registration_list() -> None:
    event = TournamentFactory()
    walk_in = _walk_in(event)

    as_judge = client_for(_judge_of(event)).get(f"/api/events/{event.slug}/registrations/")
    as_organiser = client_for(organiser_of(event)).get(f"/api/events/{event.slug}/registrations/")

    assert as_judge.status_code == 200
    judge_rows = {r["id"]: r for r in as_judge.json()["results"]}
    assert judge_rows[walk_in.pk]["claim_code"] is None
    assert walk_in.claim_code not in as_judge.content.decode()
    organiser_rows = {r["id"]: r for r in as_organiser.json()["results"]}
    assert organiser_rows[walk_in.pk]["claim_code"] == walk_in.claim_code


def test_judges_do_not_see_a_claim_code_on_the_registration_itself() -> None:
    event = TournamentFactory()
    walk_in = _walk_in(event)

    body = client_for(_judge_of(event)).get(f"/api/registrations/{walk_in.pk}/").json()

    assert body["walk_in_name"] == "Pat Walker" and body["claim_code"] is None
    organiser_body = client_for(organiser_of(event)).get(f"/api/registrations/{walk_in.pk}/")
    assert organiser_body.json()["claim_code"] == walk_in.claim_code


def test_the_organiser_adding_a_walk_in_gets_its_claim_code() -> None:
    event = TournamentFactory()
    response = client_for(organiser_of(event)).post(
        f"/api/events/{event.slug}/walk-ins/", {"name": "Pat"}, format="json"
    )
    assert response.status_code == 201
    assert (
        response.json()["claim_code"]
        == Registration.objects.get(pk=response.json()["id"]).claim_code
    )


def test_judges_do_not_see_claim_codes_on_the_dashboard(client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    walk_in = _walk_in(event)
    client.force_login(_judge_of(event))
    page = client.get(reverse("event_dashboard", kwargs={"slug": event.slug}))
    assert page.status_code == 200
    assert walk_in.claim_code not in page.content.decode()


def test_a_judge_of_the_event_cannot_claim_a_walk_in() -> None:
    event = TournamentFactory()
    walk_in = _walk_in(event)
    judge = _judge_of(event)
    assert walk_in.claim_code is not None

    with pytest.raises(Forbidden) as refused:
        services.registration_claim(actor=judge, claim_code=walk_in.claim_code)

    assert refused.value.field == "claim_code"
    walk_in.refresh_from_db()
    assert walk_in.player_id is None and walk_in.claim_code is not None


# --- a removed walk-in cannot be claimed ---------------------------------------------------


def test_a_removed_walk_in_cannot_be_claimed() -> None:
    event = TournamentFactory()
    walk_in = _walk_in(event)
    code = walk_in.claim_code
    assert code is not None
    services.registration_remove(actor=organiser_of(event), registration=walk_in, confirm=True)
    person = UserFactory()

    with pytest.raises(Conflict) as refused:
        services.registration_claim(actor=person, claim_code=code)

    assert refused.value.field == "claim_code" and refused.value.code == "registration_inactive"
    walk_in.refresh_from_db()
    assert walk_in.player_id is None
    assert not Registration.objects.filter(player=person).exists()


def test_claiming_a_removed_walk_in_through_the_api_is_a_409_naming_the_code() -> None:
    event = TournamentFactory()
    walk_in = _walk_in(event)
    services.registration_remove(actor=organiser_of(event), registration=walk_in, confirm=True)

    response = client_for(UserFactory()).post(
        "/api/registrations/claim/", {"claim_code": walk_in.claim_code}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["field"] == "claim_code"


def test_a_reactivated_walk_in_can_be_claimed_again() -> None:
    event = TournamentFactory()
    walk_in = _walk_in(event)
    organiser = organiser_of(event)
    services.registration_remove(actor=organiser, registration=walk_in, confirm=True)
    services.registration_reactivate(actor=organiser, registration=walk_in)
    person = UserFactory()
    assert walk_in.claim_code is not None

    claimed = services.registration_claim(actor=person, claim_code=walk_in.claim_code)

    assert claimed.player_id == person.pk


# --- a form request without `open` --------------------------------------------------------


def _open_check_in() -> Tournament:
    event = TournamentFactory(status="registration_closed")
    services.event_set_player_check_in(actor=organiser_of(event), tournament=event, open=True)
    return event


def test_a_multipart_request_without_open_is_a_400_and_leaves_check_in_open() -> None:
    event = _open_check_in()

    response = client_for(organiser_of(event)).post(
        f"/api/events/{event.slug}/player-check-in/", {}, format="multipart"
    )

    assert response.status_code == 400
    assert "open" in response.json()
    event.refresh_from_db()
    assert event.player_check_in_open is True


def test_a_multipart_request_with_open_false_still_closes_check_in() -> None:
    event = _open_check_in()
    response = client_for(organiser_of(event)).post(
        f"/api/events/{event.slug}/player-check-in/", {"open": "false"}, format="multipart"
    )
    assert response.status_code == 200
    event.refresh_from_db()
    assert event.player_check_in_open is False


def test_the_page_without_open_is_a_400_and_leaves_check_in_open(client) -> None:  # type: ignore[no-untyped-def]
    event = _open_check_in()
    client.force_login(organiser_of(event))

    response = client.post(reverse("event_player_check_in", kwargs={"slug": event.slug}), {})

    assert response.status_code == 400
    assert "open" in response.content.decode()
    event.refresh_from_db()
    assert event.player_check_in_open is True


def test_an_event_created_by_a_form_request_keeps_the_defaults_it_did_not_send() -> None:
    organiser = organiser_of(TournamentFactory())
    response = client_for(organiser).post(
        "/api/events/",
        {"name": "Form Open", "starts_at": "2030-05-01T10:00:00Z"},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    event = Tournament.objects.get(name="Form Open")
    assert event.require_legal_decklist is True
    assert event.start_timer_on_publish is True


def test_a_multipart_check_in_without_checked_in_checks_the_player_in_not_out() -> None:
    event = TournamentFactory(status="registration_closed")
    registration = RegistrationFactory(tournament=event)
    organiser = organiser_of(event)
    services.registration_check_in(actor=organiser, registration=registration)

    response = client_for(organiser).post(
        f"/api/registrations/{registration.pk}/check-in/", {}, format="multipart"
    )

    assert response.status_code == 200
    registration.refresh_from_db()
    assert registration.checked_in


def test_a_multipart_judge_assignment_without_assigned_assigns() -> None:
    event = TournamentFactory()
    judge = UserFactory()
    event.judges.add(judge)

    response = client_for(organiser_of(event)).post(
        f"/api/events/{event.slug}/judges/", {"player_id": judge.player_id}, format="multipart"
    )

    assert response.status_code == 204
    assert event.judges.filter(pk=judge.pk).exists()


# --- names: one line of visible text -------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        f"Pat{RLO}reklaW",  # right-to-left override
        "Pat\u2066Walker\u2069",  # left-to-right isolate and its pop
        "Pat\u200bWalker",  # zero-width space
        "Pat\u200dWalker",  # zero-width joiner
        "Pat\x1b[31mWalker",  # an escape sequence
        "\ufeffPat",  # byte-order mark
    ],
)
def test_walk_in_names_with_control_or_invisible_characters_are_refused(name: str) -> None:
    event = TournamentFactory()
    with pytest.raises(ServiceError) as refused:
        _walk_in(event, name)
    assert refused.value.field == "name"
    assert "U+" in refused.value.message
    assert not event.registrations.exists()


def test_the_walk_in_api_refuses_a_bidi_override_naming_the_field() -> None:
    event = TournamentFactory()
    response = client_for(organiser_of(event)).post(
        f"/api/events/{event.slug}/walk-ins/", {"name": f"Pat{RLO}"}, format="json"
    )
    assert response.status_code == 400
    assert "name" in response.json()
    assert not event.registrations.exists()


def test_the_walk_in_page_refuses_a_bidi_override(client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    client.force_login(organiser_of(event))
    client.post(reverse("event_walk_in", kwargs={"slug": event.slug}), {"name": f"Pat{RLO}Walker"})
    assert not event.registrations.exists()


def test_event_names_and_venues_with_control_characters_are_refused() -> None:
    event = TournamentFactory()
    organiser = organiser_of(event)

    with pytest.raises(ServiceError) as bad_name:
        services.event_update(actor=organiser, tournament=event, name=f"Open{RLO}nepO")
    with pytest.raises(ServiceError) as bad_venue:
        services.event_update(actor=organiser, tournament=event, venue="Hall\u200b 1")

    assert bad_name.value.field == "name" and bad_venue.value.field == "venue"
    event.refresh_from_db()
    assert RLO not in event.name and "\u200b" not in event.venue


def test_creating_an_event_with_a_bidi_override_in_its_name_is_a_400() -> None:
    organiser = organiser_of(TournamentFactory())
    response = client_for(organiser).post(
        "/api/events/",
        {"name": f"Open{RLO}", "starts_at": "2030-05-01T10:00:00Z"},
        format="json",
    )
    assert response.status_code == 400
    assert "name" in response.json()
    assert not Tournament.objects.filter(name__contains=RLO).exists()


def test_names_stored_before_the_check_are_shown_neutralised(client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    walk_in = _walk_in(event)
    Registration.objects.filter(pk=walk_in.pk).update(walk_in_name=f"Pat{RLO}reklaW")
    player = UserFactory(display_name="Kim\u2067Lee")
    RegistrationFactory(tournament=event, player=player)

    walk_in.refresh_from_db()
    assert walk_in.name == "Pat\ufffdreklaW"
    assert player.public_name == "Kim\ufffdLee"
    client.force_login(organiser_of(event))
    page = client.get(reverse("event_dashboard", kwargs={"slug": event.slug})).content.decode()
    assert RLO not in page and "\u2067" not in page
    assert "Pat\ufffdreklaW" in page
