"""The calendar and an organisation's page on a phone (issue 22), in a real browser (Debian's
chromium through Playwright, as tests/test_browser_phone.py): no sideways scrolling at 390px,
the filters usable by touch, the events listed.

Without chromium the tests skip locally and fail in CI (REQUIRE_SERVICES=1).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import TournamentFactory
from tests.organisations.helpers import organisation
from tests.support import PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]


def test_the_calendar_on_a_phone_filters_by_city_without_sideways_scrolling(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    org = organisation("Dragon Den")
    TournamentFactory(name="Leeds Championship Qualifier", city="Leeds", organisation=org)
    TournamentFactory(name="York Weekly", city="York")
    page = open_page(None, PHONE)
    page.goto(f"{live_server.url}/calendar/")
    expect(page.locator("ul.cards > li")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_label("City").fill("Leeds")
    button = page.get_by_role("button", name="Show events")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44, box  # a thumb's target
    button.tap()
    expect(page.locator("ul.cards > li")).to_have_count(1)
    expect(page.locator("ul.cards")).to_contain_text("Leeds Championship Qualifier")
    assert "city=Leeds" in page.url  # a filtered calendar can be shared
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_organisation_page_on_a_phone_lists_upcoming_and_past_events(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    org = organisation("Dragon Den")
    TournamentFactory(name="Friday Night", organisation=org)
    TournamentFactory(
        name="Spring Open",
        organisation=org,
        status="finished",
        starts_at=timezone.now() - timedelta(days=40),
    )
    page = open_page(None, PHONE)
    page.goto(f"{live_server.url}/orgs/{org.slug}/")
    expect(page.get_by_role("heading", name="Dragon Den")).to_be_visible()
    upcoming = page.locator("section[aria-labelledby=upcoming]")
    past = page.locator("section[aria-labelledby=past]")
    expect(upcoming).to_contain_text("Friday Night")
    expect(past).to_contain_text("Spring Open")
    expect(page.get_by_role("link", name="Subscribe to these events (iCalendar)")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_management_page_on_a_phone_suspends_after_confirmation(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    from organisations.models import Suspension
    from tests.factories import RegistrationFactory, UserFactory
    from tests.organisations.helpers import owner_of
    from tournaments.models import RegistrationStatus

    org = organisation("Dragon Den")
    player = UserFactory()
    registration = RegistrationFactory(
        tournament=TournamentFactory(name="Friday Night", organisation=org), player=player
    )
    page = open_page(owner_of(org), PHONE)
    page.goto(f"{live_server.url}/orgs/{org.slug}/manage/")
    expect(page.get_by_role("heading", name="Members and roles")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    form = page.locator("#suspend-form")
    form.get_by_label("Player id or username").fill(player.player_id)
    until = (timezone.now() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M")
    form.get_by_label("Until").fill(until)
    form.get_by_label("Reason (the player sees it)").fill("Marked cards")
    form.get_by_role("button", name="Suspend").tap()
    expect(page.locator("#suspend-error")).to_contain_text("Friday Night")
    assert not Suspension.objects.exists()
    page.locator("#suspend-form").get_by_label("I understand: cancel these registrations").check()
    page.locator("#suspend-form").get_by_role("button", name="Suspend").tap()
    expect(page.locator(".message-success")).to_contain_text(
        "Registrations cancelled: Friday Night"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.REMOVED
    assert Suspension.objects.get().reason == "Marked cards"
