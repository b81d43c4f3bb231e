"""The metagame API and pages: who may change archetypes, what a breakdown counts (published
lists only), suggestions, the series' breakdown, and the pages that show them."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from decks.models import Decklist
from metagame import selectors
from metagame.models import Archetype
from series.models import Series, SeriesEvent
from tests.factories import UserFactory, logged_in
from tests.metagame.metagame_support import AGGRO, give_list, two_player_event
from tests.scenarios import client_for, running_event
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def test_the_event_breakdown_counts_published_lists_and_their_results() -> None:
    event, organiser, regs = two_player_event()
    body = APIClient().get(f"/api/events/{event.slug}/metagame/").json()
    assert body["lists"] == 2  # the withdrawn player's private list does not count
    rows = {row["archetype"]: row for row in body["archetypes"]}
    assert set(rows) == {"Aggro", "Control"}
    assert rows["Aggro"]["share"] == 0.5
    assert rows["Aggro"]["matches"] == {"won": 1, "lost": 0, "drawn": 0, "win_rate": 1.0}
    assert (rows["Aggro"]["battles_won"], rows["Aggro"]["battles_played"]) == (4, 7)
    assert rows["Control"]["battle_win_rate"] == round(3 / 7, 4)
    assert rows["Control"]["against"] == [
        {"archetype": "Aggro", "won": 0, "lost": 1, "drawn": 0, "win_rate": 0.0}
    ]
    assert body["assignments"] == {str(regs[0].pk): "Aggro", str(regs[1].pk): "Control"}

    # Cached per change: publishing the third list makes a new version with it counted.
    before = body["version"]
    Decklist.objects.filter(registration=regs[2]).update(published_at=timezone.now())
    again = selectors.event_breakdown(event)
    assert again["version"] != before and again["lists"] == 3
    # ...and so does a change of archetype (Aggro no longer matches anything: all "Other").
    Archetype.objects.filter(name="Aggro").update(rule={"card": "Nothing"})
    assert {r["archetype"] for r in selectors.event_breakdown(event)["archetypes"]} == {
        "Control",
        "Other",
    }


def test_once_the_event_publishes_every_list_all_count() -> None:
    event, _organiser, regs = two_player_event()
    Tournament.objects.filter(pk=event.pk).update(decklists_published_at=timezone.now())
    event.refresh_from_db()
    assert selectors.event_breakdown(event)["lists"] == 3


def test_only_the_events_organisers_add_archetypes_and_a_bad_rule_names_its_part() -> None:
    event, organiser, _regs = two_player_event()
    url = f"/api/events/{event.slug}/archetypes/"
    body = {"name": "Big", "rule": {"count": {"power": {"gte": 130}}, "min": 20}}
    assert APIClient().post(url, body, format="json").status_code in (401, 403)
    assert client_for(UserFactory()).post(url, body, format="json").status_code == 403
    made = client_for(organiser).post(url, body, format="json")
    assert made.status_code == 201 and made.json()["scope"] == "tournament"
    assert AuditEntry.objects.filter(tournament=event, action="archetype.created").exists()
    bad = client_for(organiser).post(
        url, {"name": "Bad", "rule": {"all": [{"count": {"power": {"gte": "x"}}}]}}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["field"] == "rule.all[0].count.power.gte"
    other = client_for(organiser).post(url, {"name": "Other", "rule": AGGRO}, format="json")
    assert other.status_code == 400 and other.json()["field"] == "name"

    listed = APIClient().get(url).json()
    assert [a["name"] for a in listed["results"]] == ["Aggro", "Control", "Big"]
    assert listed["count"] == 3

    pk = made.json()["id"]
    assert (
        client_for(UserFactory())
        .patch(f"/api/archetypes/{pk}/", {"priority": 0}, format="json")
        .status_code
        == 403
    )
    changed = client_for(organiser).patch(f"/api/archetypes/{pk}/", {"priority": 0}, format="json")
    assert changed.status_code == 200 and changed.json()["priority"] == 0
    assert client_for(UserFactory()).delete(f"/api/archetypes/{pk}/").status_code == 403
    assert client_for(organiser).delete(f"/api/archetypes/{pk}/").status_code == 204
    assert not Archetype.objects.filter(pk=pk).exists()


def test_site_wide_archetypes_are_for_site_administrators() -> None:
    body = {"name": "Everyone", "game": "boba", "rule": {"card": "Blitz"}}
    assert (
        client_for(UserFactory()).post("/api/archetypes/", body, format="json").status_code == 403
    )
    staff = UserFactory(is_staff=True)
    made = client_for(staff).post("/api/archetypes/", body, format="json")
    assert made.status_code == 201 and made.json()["scope"] == "global"
    no_game = client_for(staff).post(
        "/api/archetypes/", {"name": "X", "rule": {"card": "A"}}, format="json"
    )
    assert no_game.status_code == 400 and no_game.json()["field"] == "game"
    assert [a["name"] for a in APIClient().get("/api/archetypes/").json()["results"]] == [
        "Everyone"
    ]


def test_suggestions_are_for_organisers_and_naming_one_makes_an_archetype() -> None:
    event, organiser, regs = running_event(4)
    for reg in regs[:3]:
        give_list(reg, ["Blitz", "Rush", "Jab", f"Own {reg.pk}"], published=True)
    give_list(regs[3], ["Wall", "Stall"], published=True)
    url = f"/api/events/{event.slug}/metagame/suggestions/"
    assert client_for(UserFactory()).get(url).status_code == 403
    assert client_for(organiser).get(url, {"threshold": "7"}).json()["field"] == "threshold"
    groups = client_for(organiser).get(url, {"threshold": "0.4"}).json()["groups"]
    assert len(groups) == 1 and groups[0]["size"] == 3
    assert "Blitz" in groups[0]["core_cards"] and "Iron Slim" in groups[0]["core_cards"]
    named = client_for(organiser).post(
        url, {"name": "Aggro", "cards": groups[0]["core_cards"]}, format="json"
    )
    assert named.status_code == 201
    assignments = selectors.event_breakdown(event)["assignments"]
    assert [assignments[str(r.pk)] for r in regs] == ["Aggro", "Aggro", "Aggro", "Other"]
    assert client_for(organiser).get(url, {"threshold": "0.4"}).json()["groups"] == []


def test_the_series_breakdown_adds_its_events_and_series_organisers_add_archetypes() -> None:
    event, organiser, regs = two_player_event()
    series = Series.objects.create(name="League", slug="league", points={})
    series.organisers.add(organiser)
    SeriesEvent.objects.create(series=series, event=event)
    body = {"name": "Stall", "game": "boba", "series": "league", "rule": {"card": "Stall"}}
    assert (
        client_for(UserFactory()).post("/api/archetypes/", body, format="json").status_code == 403
    )
    assert client_for(organiser).post("/api/archetypes/", body, format="json").status_code == 201
    Archetype.objects.filter(name="Control").delete()
    found = APIClient().get("/api/series/league/metagame/").json()
    assert found["events"] == [event.slug]
    assert {r["archetype"]: r["players"] for r in found["archetypes"]} == {"Aggro": 1, "Stall": 1}
    page = APIClient().get("/series/league/metagame/")
    assert page.status_code == 200 and b"Stall" in page.content


def test_a_draft_events_metagame_and_archetypes_are_not_found() -> None:
    event, organiser, _regs = two_player_event()
    Tournament.objects.filter(pk=event.pk).update(status="draft")
    assert APIClient().get(f"/api/events/{event.slug}/metagame/").status_code == 404
    pk = Archetype.objects.get(name="Aggro").pk
    assert client_for(UserFactory()).get(f"/api/archetypes/{pk}/").status_code == 404


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/ld\+json)[^>]*>")


def test_the_metagame_page_shows_chart_table_and_the_organisers_tools() -> None:
    event, organiser, _regs = two_player_event()
    page = APIClient().get(f"/events/{event.slug}/metagame/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'role="img"' in html and "<table" in html and "Aggro" in html
    assert "Add an archetype" not in html
    assert not INLINE_SCRIPT.search(html)
    client = logged_in(organiser)
    html = client.get(f"/events/{event.slug}/metagame/").content.decode()
    assert "Add an archetype" in html and 'for="id_rule"' in html
    added = client.post(
        f"/events/{event.slug}/metagame/archetypes/",
        {"name": "Walls", "priority": "0", "rule": '{"card": "Wall"}'},
    )
    assert added.status_code == 302
    assert Archetype.objects.filter(tournament=event, name="Walls").exists()
    refused = client.post(
        f"/events/{event.slug}/metagame/archetypes/",
        {"name": "Junk", "rule": "{not json"},
        follow=True,
    )
    assert "rule: not valid JSON" in refused.content.decode()
    walls = Archetype.objects.get(name="Walls")
    assert (
        logged_in(UserFactory())
        .post(f"/events/{event.slug}/metagame/archetypes/{walls.pk}/delete/")
        .status_code
        == 403
    )
    client.post(f"/events/{event.slug}/metagame/archetypes/{walls.pk}/delete/")
    assert not Archetype.objects.filter(pk=walls.pk).exists()


def test_an_organisations_archetypes_reach_its_events_after_the_events_own() -> None:
    from organisations.models import Membership, Organisation

    event, organiser, regs = two_player_event()
    organisation = Organisation.objects.create(name="Store", slug="store")
    owner = UserFactory()
    Membership.objects.create(organisation=organisation, user=owner, role="owner")
    Tournament.objects.filter(pk=event.pk).update(organisation=organisation)
    event.refresh_from_db()
    body = {
        "name": "Store Aggro",
        "game": "boba",
        "organisation": "store",
        "priority": 1,
        "rule": {"card": "Blitz"},
    }
    member = UserFactory()
    Membership.objects.create(organisation=organisation, user=member, role="judge")
    assert client_for(member).post("/api/archetypes/", body, format="json").status_code == 403
    assert client_for(owner).post("/api/archetypes/", body, format="json").status_code == 201
    # Same priority as the event's Aggro: the event's own comes first.
    order = [a.name for a in selectors.archetypes_for_event(event)]
    assert order == ["Aggro", "Store Aggro", "Control"]
    assert selectors.event_breakdown(event)["assignments"][str(regs[0].pk)] == "Aggro"
