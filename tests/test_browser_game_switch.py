"""Choosing another game in a browser (a 360 px phone): the check page and the new-event page
fill in the game's defaults as soon as the game changes (static/js/game-switch.js), and a
check or save goes through for that game. Screenshots go to $SCREENSHOT_DIR when set."""

from __future__ import annotations

import os
from typing import Any

import pytest

from decks import services as deck_services
from tests.factories import OrganiserFactory
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"))
        page.screenshot(path=os.path.join(folder, f"{name}-full.png"), full_page=True)


def test_check_page_switching_to_bos_picks_its_format_and_help(live_server, browser_page) -> None:  # type: ignore[no-untyped-def]
    deck_services.demo_catalog_load()
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/check-deck/")
    assert page.locator("#id_format").input_value() == "playmaker"
    page.select_option("#id_game", "bos")
    assert page.locator("#id_format").input_value() == "competitive"
    help_text = page.locator("#id_decklist_helptext").inner_text()
    assert "Wizards, Summons" in help_text and "Hot Dog" not in help_text
    _shot(page, "check-deck-bos")
    page.fill("#id_decklist", "Wizards\n1 Nobody Here\n")
    page.get_by_role("button", name="Check the list").click()
    page.locator(".verdict").wait_for()
    html = page.content()
    assert "is not a format of BOS" not in html and "Not legal" in html
    # No horizontal scrolling on a 360 px phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_new_event_page_switching_to_bos_fills_in_its_defaults(live_server, browser_page) -> None:  # type: ignore[no-untyped-def]
    organiser = OrganiserFactory()
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_cookies([_session_cookie(live_server, organiser)])
    page.goto(f"{live_server.url}/events/new/")
    page.select_option("#id_game", "bos")
    assert page.locator("#id_mode").input_value() == "competitive"
    assert page.locator("#id_format_key").input_value() == "competitive"
    assert page.locator("#id_match_structure").input_value() == "bo3"
    assert page.locator("#id_clock_mode").input_value() == "per_game"
    selected = page.locator("#id_match_structure option:checked")
    assert selected.evaluate("o => o.parentNode.label") == "BOS"
    assert page.locator("#id_clock_minutes").get_attribute("placeholder") == "15"
    assert "deck_size" in page.locator("#id_format_params_helptext").inner_text()
    _shot(page, "new-event-bos")
    page.fill("#id_name", "Phone BOS Open")
    page.fill("#id_starts_at", "2030-05-01T10:00")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url("**/manage/")
    event = Tournament.objects.get(name="Phone BOS Open")
    assert (event.game, event.mode, event.format_key, event.match_structure) == (
        "bos",
        "competitive",
        "competitive",
        "bo3",
    )
    assert event.clock_mode == "per_game"


def _session_cookie(live_server: Any, user: Any) -> dict[str, Any]:
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    return {"name": "sessionid", "value": cookie.value, "url": live_server.url}
