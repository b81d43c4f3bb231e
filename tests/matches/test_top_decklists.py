"""The organiser publishes the top decklists with one action (issue 21): the lists of places 1
to N of a finished event's final placings, through the API and the dashboard's button with its
second confirmation; who may, when, and the audit entry. Also the event page's final placings
and the placings page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from decks.models import Decklist, DecklistVersion
from decks.services import decklists_publish
from tests.factories import UserFactory, logged_in
from tests.scenarios import client_for, finished_swiss
from tests.tournaments.archive_scenes import submit_decklist
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _finished_event_with_lists(finish: bool = True) -> dict[str, Any]:
    swiss = finished_swiss(players=6, rounds=2)
    event = swiss.event
    placings = APIClient().get(f"/api/events/{event.slug}/placings/").json()["rows"]
    by_place = [row["registration"] for row in placings]
    regs = {r.pk: r for r in swiss.registrations}
    # Lists for everyone but the second place.
    for pk in by_place:
        if pk != by_place[1]:
            submit_decklist(regs[pk])
    if finish:
        done = client_for(swiss.organiser).post(
            f"/api/events/{event.slug}/transition/", {"to": "finished"}, format="json"
        )
        assert done.status_code == 200, done.content
    event.refresh_from_db()
    return {"event": event, "organiser": swiss.organiser, "by_place": by_place, "regs": regs}


def test_the_organiser_publishes_the_top_decklists_and_it_is_audited() -> None:
    scene = _finished_event_with_lists()
    event, by_place = scene["event"], scene["by_place"]
    url = f"/api/events/{event.slug}/decklists/publish-top/"
    response = client_for(scene["organiser"]).post(url, {"top": 3}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body == {
        "event": event.slug,
        "top": 3,
        "published": [by_place[0], by_place[2]],
        "without_list": [by_place[1]],
    }
    public = set(
        Decklist.objects.filter(
            registration__tournament=event, published_at__isnull=False
        ).values_list("registration_id", flat=True)
    )
    assert public == {by_place[0], by_place[2]}
    event.refresh_from_db()
    assert event.decklists_published_at is None  # the whole event's lists stay private
    entry = AuditEntry.objects.get(tournament=event, action="decklists.published_some")
    assert entry.actor == scene["organiser"]
    assert entry.data["top"] == 3
    assert entry.data["published"] == [by_place[0], by_place[2]]
    assert entry.data["places"] == {str(pk): n for n, pk in enumerate(by_place[:3], start=1)}

    # Anyone now sees those lists, and only those.
    listing = APIClient().get(f"/api/events/{event.slug}/decklists/")
    assert listing.status_code == 200
    assert {row["registration"] for row in listing.json()["decklists"]} == public
    assert all(row["published"] for row in listing.json()["decklists"])
    champion_version = DecklistVersion.objects.filter(decklist__registration_id=by_place[0]).first()
    fourth_version = DecklistVersion.objects.filter(decklist__registration_id=by_place[3]).first()
    assert champion_version is not None and fourth_version is not None
    assert APIClient().get(f"/api/decklist-versions/{champion_version.pk}/").status_code == 200
    assert APIClient().get(f"/api/decklist-versions/{fourth_version.pk}/").status_code in (
        401,
        403,
    )
    assert Client().get(f"/decklists/{champion_version.pk}/").status_code == 200

    # Unpublishing the event's decklists makes the top ones private again.
    decklists_publish(actor=scene["organiser"], tournament=event, published=False)
    assert not Decklist.objects.filter(
        registration__tournament=event, published_at__isnull=False
    ).exists()
    assert APIClient().get(f"/api/events/{event.slug}/decklists/").status_code in (401, 403)


def test_only_organisers_publish_the_top_decklists() -> None:
    scene = _finished_event_with_lists()
    event = scene["event"]
    url = f"/api/events/{event.slug}/decklists/publish-top/"
    judge = UserFactory()
    event.judges.add(judge)
    player = scene["regs"][scene["by_place"][0]].player
    for who in (judge, player, UserFactory()):
        assert client_for(who).post(url, {"top": 8}, format="json").status_code == 403
    assert APIClient().post(url, {"top": 8}, format="json").status_code in (401, 403)
    assert not Decklist.objects.filter(published_at__isnull=False).exists()
    assert not AuditEntry.objects.filter(action="decklists.published_some").exists()


def test_top_decklists_need_a_finished_event_and_a_top_in_range() -> None:
    scene = _finished_event_with_lists(finish=False)
    event = scene["event"]
    staff = client_for(scene["organiser"])
    url = f"/api/events/{event.slug}/decklists/publish-top/"
    running = staff.post(url, {}, format="json")
    assert running.status_code == 400
    assert running.json()["field"] == "status"
    staff.post(f"/api/events/{event.slug}/transition/", {"to": "finished"}, format="json")
    for bad in (0, 257, "x"):
        response = staff.post(url, {"top": bad}, format="json")
        assert response.status_code == 400, bad
        assert "top" in response.content.decode()
    assert not Decklist.objects.filter(published_at__isnull=False).exists()
    default = staff.post(url, {}, format="json")
    assert default.status_code == 200 and default.json()["top"] == 8


def test_the_dashboard_button_asks_to_confirm_then_publishes() -> None:
    scene = _finished_event_with_lists()
    event, organiser = scene["event"], scene["organiser"]
    browser = logged_in(organiser)
    dashboard = browser.get(f"/events/{event.slug}/manage/")
    action = f"/events/{event.slug}/manage/placings/publish-top/"
    assert action.encode() in dashboard.content
    first = browser.post(action, {"top": "2"})
    assert first.status_code == 200
    assert b'name="confirm"' in first.content
    assert not Decklist.objects.filter(published_at__isnull=False).exists()
    second = browser.post(action, {"top": "2", "confirm": "yes"})
    assert second.status_code == 302
    public = set(
        Decklist.objects.filter(published_at__isnull=False).values_list(
            "registration_id", flat=True
        )
    )
    assert public == {scene["by_place"][0]}  # second place has no list
    player = logged_in(scene["regs"][scene["by_place"][0]].player)
    assert player.post(action, {"top": "2", "confirm": "yes"}).status_code == 403


def test_the_event_page_shows_the_final_placings_and_links_to_everyone() -> None:
    scene = _finished_event_with_lists()
    event, by_place, regs = scene["event"], scene["by_place"], scene["regs"]
    page = Client().get(f"/events/{event.slug}/").content.decode()
    assert "Final placings" in page
    champion = regs[by_place[0]].name
    start = page.index("Champion")
    assert champion in page[start : start + 300]
    assert f"/events/{event.slug}/placings/" in page
    everyone = Client().get(f"/events/{event.slug}/placings/")
    assert everyone.status_code == 200
    text = everyone.content.decode()
    positions = [text.index(regs[pk].name) for pk in by_place]
    assert positions == sorted(positions)  # in place order
