"""Check-in at the desk on a phone, in a real browser (Debian's chromium through Playwright,
as tests/test_browser.py): find a player by searching, check them in without losing your
place, then a scanner-style entry of a player id. Skips locally without chromium, fails in CI.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournaments.models import Registration
from tournaments.status import EventStatus

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]


def test_check_in_by_search_on_a_phone(open_page: Callable[..., Any], live_server: Any) -> None:
    organiser = OrganiserFactory()
    event = TournamentFactory(
        name="Desk Open", organisers=[organiser], status=EventStatus.REGISTRATION_CLOSED.value
    )
    regs = [
        RegistrationFactory(tournament=event, player=UserFactory(display_name=f"Player {name}"))
        for name in ("Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hazel")
    ]
    page = open_page(organiser)
    page.goto(live_server.url + reverse("event_check_in", args=[event.slug]))
    assert page.locator("#scan-code").evaluate("el => el === document.activeElement")
    # Search by part of a name, then check that player in from the results.
    page.get_by_label("Find a player: name, player id or table").fill("Ceda")
    page.get_by_role("button", name="Search").click()
    # expect() waits for the search's page to arrive; count() and is_visible() would read
    # whichever page the browser happens to hold at that instant.
    rows = page.locator("table.check-in-list tbody tr")
    expect(rows).to_have_count(1)
    rows.first.get_by_role("button", name="Check in Player Cedar").click()
    expect(page.get_by_text("Player Cedar checked in.")).to_be_visible()
    # Back on the same search, at the row acted on: the address keeps the query and anchor.
    assert "q=Ceda" in page.url and page.url.endswith(f"#reg-{regs[2].pk}")
    assert Registration.objects.get(pk=regs[2].pk).checked_in
    # A scanner types a player id and presses Enter.
    page.locator("#scan-code").fill(regs[5].player.player_id.lower())
    page.locator("#scan-code").press("Enter")
    expect(page.get_by_text("Player Fir checked in.")).to_be_visible()
    assert Registration.objects.get(pk=regs[5].pk).checked_in
    # Usable on a phone: nothing wider than the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1
    page.screenshot(path="/tmp/check-in-phone.png", full_page=True)
