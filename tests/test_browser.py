"""A person in a real browser: Playwright's Python package driving Debian's chromium.

Nothing downloads a browser: the test launches /usr/bin/chromium (CHROMIUM_PATH). Without it
the test skips locally and fails in CI (REQUIRE_SERVICES=1), where .ci/run installs it.
"""

from __future__ import annotations

import re

import pytest

from tests.factories import TournamentFactory
from tournaments.models import Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_signs_up_and_registers_through_the_pages(live_server, browser_page) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory(name="Browser Open", capacity=16)
    page = browser_page

    page.goto(f"{live_server.url}/events/{event.slug}/")
    page.get_by_role("link", name="or create an account").click()
    page.get_by_label("Username").fill("phoneplayer")
    page.get_by_label("Display name").fill("Phone Player")
    page.get_by_label("E-mail").fill("phone@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill("a-long-enough-passphrase")
    page.get_by_label("Password confirmation").fill("a-long-enough-passphrase")
    page.get_by_role("button", name="Sign up").click()

    page.wait_for_url(f"**/events/{event.slug}/")
    page.get_by_role("button", name="Register").click()
    page.get_by_text("You are registered.").first.wait_for()

    registration = Registration.objects.get(tournament=event)
    assert registration.player.username == "phoneplayer"
    assert registration.status == "registered"
    assert page.get_by_role("button", name="Withdraw").is_visible()


def test_keyboard_users_can_skip_to_content(live_server, browser_page) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    page.goto(f"{live_server.url}/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert "Skip to content" in focused


def test_a_player_submits_a_decklist_and_checks_in_from_a_phone(live_server, browser_page) -> None:  # type: ignore[no-untyped-def]
    from decks.catalog import catalog_for
    from decks.services import demo_catalog_load
    from engine.games import get_game
    from tests.factories import RegistrationFactory, UserFactory

    demo_catalog_load(game="boba")
    rules = get_game("boba").deck_rules()
    catalog = catalog_for("boba")
    decklist = rules.export(rules.sample(catalog, rules.resolve_format("playmaker"), 11), catalog)
    event = TournamentFactory(
        name="Phone Open", require_legal_decklist=True, player_check_in_open=True
    )
    player = UserFactory(username="decker", display_name="Deck Er")
    registration = RegistrationFactory(tournament=event, player=player)
    page = browser_page

    page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.slug}/decklist/")
    page.get_by_label(re.compile(r"^Username")).fill("decker")
    page.get_by_label(re.compile(r"^Password")).fill("correct-horse-battery")
    page.get_by_role("button", name="Log in").click()
    page.get_by_label(re.compile(r"^Decklist")).fill(decklist)
    page.get_by_role("button", name="Submit the list").click()
    page.get_by_text(re.compile("the list is legal")).first.wait_for()

    page.goto(f"{live_server.url}/events/{event.slug}/")
    page.get_by_role("button", name="Check in").click()
    page.get_by_text("Checked in").first.wait_for()

    registration.refresh_from_db()
    assert registration.checked_in
    assert registration.decklist.versions.get().legal
