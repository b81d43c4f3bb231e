"""The organisations API: CRUD by owners, members and roles, suspensions, events, and the
permissions between organisations (issue 22)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from organisations.models import Membership, Suspension
from tests.factories import OrganiserFactory, TournamentFactory, UserFactory, organiser_of
from tests.organisations.helpers import member, organisation, owner_of
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


def test_an_organiser_creates_an_organisation_and_becomes_its_owner(api_client) -> None:  # type: ignore[no-untyped-def]
    person = OrganiserFactory()
    api_client.force_authenticate(person)
    response = api_client.post(
        "/api/organisations/", {"name": "Dragon Den", "city": "Leeds"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["slug"] == "dragon-den" and body["city"] == "Leeds"
    assert Membership.objects.get(organisation__slug="dragon-den").user == person
    assert AuditEntry.objects.filter(action="organisation.created").exists()


def test_a_player_cannot_create_an_organisation_and_a_blank_name_is_named(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(UserFactory())
    assert api_client.post("/api/organisations/", {"name": "X"}, format="json").status_code == 403
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post("/api/organisations/", {"name": ""}, format="json")
    assert response.status_code == 400 and "name" in response.json()


def test_organisations_list_is_paginated_and_public(api_client) -> None:  # type: ignore[no-untyped-def]
    for n in range(3):
        organisation(f"Store {n}")
    body = api_client.get("/api/organisations/?limit=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]


def test_only_owners_edit_the_organisation_a_scorekeeper_cannot(api_client) -> None:  # type: ignore[no-untyped-def]
    org = organisation()
    keeper = member(org, "scorekeeper")
    url = f"/api/organisations/{org.slug}/"
    api_client.force_authenticate(keeper)
    assert api_client.patch(url, {"name": "Mine now"}, format="json").status_code == 403
    assert api_client.delete(url).status_code == 403
    api_client.force_authenticate(owner_of(org))
    response = api_client.patch(url, {"name": "Renamed"}, format="json")
    assert response.status_code == 200 and response.json()["name"] == "Renamed"


def test_owners_manage_members_and_roles_and_the_last_owner_stays(api_client) -> None:  # type: ignore[no-untyped-def]
    org = organisation()
    owner = owner_of(org)
    person = UserFactory()
    url = f"/api/organisations/{org.slug}/members/"
    api_client.force_authenticate(owner)
    added = api_client.post(url, {"user": person.pk, "role": "judge"}, format="json")
    assert added.status_code == 201 and added.json()["role"] == "judge"
    changed = api_client.patch(f"{url}{person.pk}/", {"role": "organiser"}, format="json")
    assert changed.json()["role"] == "organiser"
    listed = api_client.get(url).json()
    assert {m["role"] for m in listed["results"]} == {"owner", "organiser"}
    bad = api_client.post(url, {"user": person.pk, "role": "emperor"}, format="json")
    assert bad.status_code == 400 and "role" in bad.json()
    unknown = api_client.post(url, {"user": 999999, "role": "judge"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["field"] == "user"
    last = api_client.delete(f"{url}{owner.pk}/")
    assert last.status_code == 409 and last.json()["field"] == "user"
    assert api_client.delete(f"{url}{person.pk}/").status_code == 204
    api_client.force_authenticate(UserFactory())
    assert api_client.get(url).status_code == 403


def test_an_organisations_organisers_are_organisers_of_its_events(api_client) -> None:  # type: ignore[no-untyped-def]
    org = organisation()
    organiser = member(org, "organiser")
    event = TournamentFactory()
    api_client.force_authenticate(organiser)
    assert (
        api_client.patch(f"/api/events/{event.slug}/", {"venue": "X"}, format="json").status_code
        == 403
    )
    api_client.force_authenticate(organiser_of(event))
    # the event's own organiser is no member of the organisation: it cannot join it
    refused = api_client.post(
        f"/api/organisations/{org.slug}/events/", {"event": event.slug}, format="json"
    )
    assert refused.status_code == 403
    event.organisers.add(owner_of(org))
    api_client.force_authenticate(owner_of(org))
    joined = api_client.post(
        f"/api/organisations/{org.slug}/events/", {"event": event.slug}, format="json"
    )
    assert joined.status_code == 200 and joined.json()["organisation"] == org.slug
    api_client.force_authenticate(organiser)
    response = api_client.patch(
        f"/api/events/{event.slug}/", {"venue": "Back room", "city": "York"}, format="json"
    )
    assert response.status_code == 200 and response.json()["city"] == "York"
    assert response.json()["organisation"] == org.slug


def test_an_organiser_of_org_a_cannot_manage_org_bs_events(api_client) -> None:  # type: ignore[no-untyped-def]
    org_a, org_b = organisation("A"), organisation("B")
    organiser_a = member(org_a, "organiser")
    event_b = TournamentFactory(organisation=org_b, status="draft")
    api_client.force_authenticate(organiser_a)
    patch = api_client.patch(f"/api/events/{event_b.slug}/", {"venue": "X"}, format="json")
    assert patch.status_code == 404  # a draft of B's is not even visible to A's organiser
    event_b.status = "registration_open"
    event_b.save()
    patch = api_client.patch(f"/api/events/{event_b.slug}/", {"venue": "X"}, format="json")
    assert patch.status_code == 403
    detach = api_client.delete(f"/api/organisations/{org_b.slug}/events/{event_b.slug}/")
    assert detach.status_code == 403
    suspend = api_client.post(
        f"/api/organisations/{org_b.slug}/suspensions/",
        {"player": UserFactory().pk, "until": "2099-01-01T00:00:00Z", "reason": "x"},
        format="json",
    )
    assert suspend.status_code == 403


def test_an_organisations_judges_judge_its_events_and_see_its_drafts() -> None:
    from tournaments import permissions

    org = organisation()
    judge = member(org, "judge")
    keeper = member(org, "scorekeeper")
    event = TournamentFactory(organisation=org, status="draft")
    assert permissions.is_judge_of(judge, event) and not permissions.is_organiser_of(judge, event)
    assert permissions.is_staff_of(keeper, event) and not permissions.is_judge_of(keeper, event)
    assert not permissions.is_organiser_of(keeper, event)
    from tournaments.models import Tournament

    assert event in Tournament.objects.visible_to(judge)
    assert event not in Tournament.objects.visible_to(UserFactory())


def test_a_suspended_player_cannot_register_for_the_organisations_events(api_client) -> None:  # type: ignore[no-untyped-def]
    org = organisation()
    player = UserFactory()
    event = TournamentFactory(organisation=org)
    other = TournamentFactory()
    api_client.force_authenticate(owner_of(org))
    response = api_client.post(
        f"/api/organisations/{org.slug}/suspensions/",
        {
            "player": player.pk,
            "until": (timezone.now() + timedelta(days=30)).isoformat(),
            "reason": "Marked cards",
        },
        format="json",
    )
    assert response.status_code == 201 and response.json()["active"] is True
    entry = AuditEntry.objects.get(action="organisation.player_suspended")
    assert entry.data["reason"] == "Marked cards" and entry.data["player"] == player.pk
    api_client.force_authenticate(player)
    refused = api_client.post(f"/api/events/{event.slug}/register/")
    assert refused.status_code == 409
    assert refused.json()["field"] == "suspension" and "Marked cards" in refused.json()["detail"]
    assert not Registration.objects.filter(tournament=event, player=player).exists()
    assert api_client.post(f"/api/events/{other.slug}/register/").status_code == 201
    # lifted early: registration is open again, the row kept
    suspension = Suspension.objects.get()
    api_client.force_authenticate(owner_of(org))
    lifted = api_client.delete(f"/api/organisations/{org.slug}/suspensions/{suspension.pk}/")
    assert lifted.status_code == 200 and lifted.json()["lifted_at"]
    api_client.force_authenticate(player)
    assert api_client.post(f"/api/events/{event.slug}/register/").status_code == 201


def test_a_suspension_ending_before_it_starts_is_a_400_naming_until(api_client) -> None:  # type: ignore[no-untyped-def]
    org = organisation()
    api_client.force_authenticate(owner_of(org))
    response = api_client.post(
        f"/api/organisations/{org.slug}/suspensions/",
        {
            "player": UserFactory().pk,
            "starts_at": "2030-02-01T00:00:00Z",
            "until": "2030-01-01T00:00:00Z",
            "reason": "Slow play",
        },
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "until"
    assert not Suspension.objects.exists()
    blank = api_client.post(
        f"/api/organisations/{org.slug}/suspensions/",
        {"player": UserFactory().pk, "until": "2099-01-01T00:00:00Z", "reason": " "},
        format="json",
    )
    assert blank.status_code == 400 and "reason" in blank.json()


def test_a_suspension_over_does_not_refuse(api_client) -> None:  # type: ignore[no-untyped-def]
    from organisations import services

    org = organisation()
    player = UserFactory()
    event = TournamentFactory(organisation=org)
    start = timezone.now() - timedelta(days=10)
    services.suspension_create(
        actor=owner_of(org),
        organisation=org,
        player=player,
        starts_at=start,
        until=start + timedelta(days=5),
        reason="Old",
    )
    api_client.force_authenticate(player)
    assert api_client.post(f"/api/events/{event.slug}/register/").status_code == 201


def test_the_calendar_api_filters_and_names_bad_filters(api_client) -> None:  # type: ignore[no-untyped-def]
    org = organisation()
    TournamentFactory(name="Leeds Open", city="Leeds", organisation=org)
    TournamentFactory(name="York Open", city="York")
    TournamentFactory(name="Old", starts_at=timezone.now() - timedelta(days=20), status="finished")
    TournamentFactory(name="Hidden", status="draft")
    names = [e["name"] for e in api_client.get("/api/calendar/").json()["results"]]
    assert sorted(names) == ["Leeds Open", "York Open"]
    by_city = api_client.get("/api/calendar/?city=leeds").json()["results"]
    assert [e["name"] for e in by_city] == ["Leeds Open"]
    by_org = api_client.get(f"/api/calendar/?organisation={org.slug}").json()["results"]
    assert [e["organisation"] for e in by_org] == [org.slug]
    assert api_client.get("/api/calendar/?format_key=nope").json()["count"] == 0
    bad_game = api_client.get("/api/calendar/?game=chess")
    assert bad_game.status_code == 400 and bad_game.json()["field"] == "game"
    bad_org = api_client.get("/api/calendar/?organisation=nobody")
    assert bad_org.status_code == 400 and bad_org.json()["field"] == "organisation"
    assert api_client.get("/api/calendar/?limit=x").status_code == 400


def test_the_organisations_events_list_is_public_and_paginated(api_client) -> None:  # type: ignore[no-untyped-def]
    org = organisation()
    for _ in range(3):
        TournamentFactory(organisation=org)
    TournamentFactory(organisation=org, status="draft")
    body = api_client.get(f"/api/organisations/{org.slug}/events/?limit=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2
    assert api_client.get("/api/organisations/nobody/events/").status_code == 404


def test_an_organisations_scorekeeper_works_the_scorekeeper_desk(published_round) -> None:  # type: ignore[no-untyped-def]
    from matches.models import Match
    from tests.factories import logged_in

    event = published_round.event
    org = organisation()
    event.organisation = org
    event.save(update_fields=["organisation"])
    keeper = member(org, "scorekeeper")
    outsider = UserFactory()
    url = f"/events/{event.slug}/manage/rounds/{published_round.round.number}/scorekeeper/"
    assert logged_in(outsider).get(url).status_code in (403, 404)
    client = logged_in(keeper)
    assert client.get(url).status_code == 200
    match = published_round.matches[0]
    response = client.post(url, {"table": str(match.table), "result": "1-0"})
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).status == "final"
    # but the event stays its organisers': a scorekeeper cannot edit it
    assert client.get(f"/events/{event.slug}/edit/").status_code in (403, 404)
