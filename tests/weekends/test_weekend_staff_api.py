"""Weekends through the REST API, the staff side (issue 22): adding and removing a weekend's
organisers (audited; the last one stays), and the scorekeeper and judge desk as an API."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import OrganiserFactory, TournamentFactory, UserFactory
from tests.scenarios import published_round
from tournaments.models import AuditEntry
from weekends import services
from weekends.models import Weekend

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def weekend_of(organiser: Any, *events: Any) -> Weekend:
    weekend = services.weekend_create(
        actor=organiser,
        name="Regionals Weekend",
        starts_on="2026-12-04",  # type: ignore[arg-type]
        ends_on="2026-12-06",  # type: ignore[arg-type]
    )
    for event in events:
        services.weekend_add_event(actor=organiser, weekend=weekend, tournament=event)
    return weekend


def test_weekend_organisers_add_and_remove_organisers_audited() -> None:
    organiser = OrganiserFactory()
    weekend = weekend_of(organiser)
    helper = UserFactory()
    url = f"/api/weekends/{weekend.slug}/organisers/"
    added = client_for(organiser).post(url, {"user": helper.pk}, format="json")
    assert added.status_code == 201 and added.json()["player_id"] == helper.player_id
    assert weekend.organisers.filter(pk=helper.pk).exists()
    again = client_for(organiser).post(url, {"user": helper.pk}, format="json")
    assert again.status_code == 409 and again.json()["field"] == "user"
    listed = APIClient().get(url).json()
    assert listed["count"] == 2 and {r["user"] for r in listed["results"]} == {
        organiser.pk,
        helper.pk,
    }
    # the new organiser runs the weekend now: they remove the one who added them
    assert client_for(helper).delete(f"{url}{organiser.pk}/").status_code == 204
    assert list(weekend.organisers.all()) == [helper]
    last = client_for(helper).delete(f"{url}{helper.pk}/")
    assert last.status_code == 409 and last.json()["field"] == "user"
    actions = list(
        AuditEntry.objects.filter(action__startswith="weekend.organiser_")
        .order_by("pk")
        .values_list("action", "data__user")
    )
    assert actions == [
        ("weekend.organiser_added", helper.pk),
        ("weekend.organiser_removed", organiser.pk),
    ]


def test_only_weekend_organisers_change_organisers_and_bad_ids_are_named() -> None:
    organiser = OrganiserFactory()
    weekend = weekend_of(organiser)
    url = f"/api/weekends/{weekend.slug}/organisers/"
    outsider = UserFactory()
    refused = client_for(outsider).post(url, {"user": outsider.pk}, format="json")
    assert refused.status_code == 403
    assert client_for(outsider).delete(f"{url}{organiser.pk}/").status_code == 403
    unknown = client_for(organiser).post(url, {"user": 999_999}, format="json")
    assert unknown.status_code == 400 and unknown.json()["field"] == "user"
    junk = client_for(organiser).post(url, {"user": "x"}, format="json")
    assert junk.status_code == 400 and "user" in junk.json()
    not_one = client_for(organiser).delete(f"{url}{outsider.pk}/")
    assert not_one.status_code == 400 and not_one.json()["field"] == "user"
    assert list(weekend.organisers.all()) == [organiser]


def test_the_desk_api_lists_the_events_the_person_staffs_with_unreported_matches() -> None:
    scene = published_round()
    event, organiser = scene.event, scene.organiser
    other = TournamentFactory(name="Not Mine", organisers=[organiser])
    weekend = weekend_of(organiser, event, other)
    judge = UserFactory()
    event.judges.add(judge)
    response = client_for(judge).get(f"/api/weekends/{weekend.slug}/desk/")
    assert response.status_code == 200
    body = response.json()
    assert [row["event"] for row in body] == [event.slug]
    row = body[0]
    assert row["round"]["number"] == 1 and row["total"] == 2
    assert len(row["unreported"]) == 2 and row["unreported"][0]["a"]
    assert row["calls"] == []
    organiser_view = client_for(organiser).get(f"/api/weekends/{weekend.slug}/desk/").json()
    assert {r["event"] for r in organiser_view} == {event.slug, other.slug}
    assert client_for(UserFactory()).get(f"/api/weekends/{weekend.slug}/desk/").status_code == 403
    assert APIClient().get(f"/api/weekends/{weekend.slug}/desk/").status_code in (401, 403)


def test_the_schedule_page_lets_organisers_add_and_remove_organisers() -> None:
    from tests.factories import logged_in

    organiser = OrganiserFactory()
    weekend = weekend_of(organiser)
    helper = UserFactory()
    client = logged_in(organiser)
    page = client.get(f"/weekends/{weekend.slug}/").content.decode()
    assert 'id="weekend-organiser"' in page
    assert 'id="weekend-organiser"' not in (
        logged_in(UserFactory()).get(f"/weekends/{weekend.slug}/").content.decode()
    )
    client.post(f"/weekends/{weekend.slug}/organisers/", {"person": helper.player_id})
    assert set(weekend.organisers.all()) == {organiser, helper}
    unknown = client.post(
        f"/weekends/{weekend.slug}/organisers/", {"person": "nobody"}, follow=True
    )
    assert "person: nobody has" in unknown.content.decode()
    outsider = logged_in(UserFactory())
    assert (
        outsider.post(f"/weekends/{weekend.slug}/organisers/{helper.pk}/remove/").status_code == 403
    )
    client.post(f"/weekends/{weekend.slug}/organisers/{helper.pk}/remove/")
    assert list(weekend.organisers.all()) == [organiser]
    last = client.post(f"/weekends/{weekend.slug}/organisers/{organiser.pk}/remove/", follow=True)
    assert "at least one organiser" in last.content.decode()
    assert list(weekend.organisers.all()) == [organiser]
