"""On a phone (390 px): the card search and the bulk player import, in Debian's chromium."""

from __future__ import annotations

import pytest

from decks import services as deck_services
from tests.factories import TournamentFactory, UserFactory, organiser_of
from tournaments.models import Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth + 1"


def test_the_card_search_works_on_a_phone(open_page, live_server) -> None:  # type: ignore[no-untyped-def]
    deck_services.demo_catalog_load(game="boba")
    page = open_page()
    page.goto(f"{live_server.url}/check-deck/")
    page.get_by_role("link", name="Look up a card").click()
    page.get_by_label("Type").select_option("hero")
    page.get_by_label("Power from").fill("130")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url("**/cards/?*power_min=130*")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    powers = page.locator("tbody tr").count()
    assert powers > 0
    box = page.get_by_role("button", name="Search").bounding_box()
    assert box is not None and box["height"] >= 44


def test_an_organiser_imports_a_roster_on_a_phone(open_page, live_server) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory(name="Roster Open")
    player = UserFactory()
    page = open_page(user=organiser_of(event))
    page.goto(f"{live_server.url}/events/{event.slug}/manage/")
    page.get_by_role("link", name="Import many players from a CSV roster").click()
    page.get_by_label("Paste the roster").fill(f"name,email\nAda,{player.email}\nWally,\n")
    page.get_by_role("button", name="Preview").click()
    page.get_by_text("Preview: ready to import").wait_for()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert not Registration.objects.filter(tournament=event).exists()
    confirm = page.get_by_role("button", name="Import 2 players")
    box = confirm.bounding_box()
    assert box is not None and box["height"] >= 44
    confirm.click()
    page.wait_for_url(f"**/events/{event.slug}/manage/")
    assert Registration.objects.filter(tournament=event).count() == 2
