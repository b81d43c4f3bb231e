"""A player's public profile on a phone, in a real browser (Debian's chromium through
Playwright): it fits the screen, shows the events with place and record, and disappears (a 404)
once hidden. Without chromium the test skips locally and fails in CI (REQUIRE_SERVICES=1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from matches import services
from tests.browser_scenes import NAMES, pair_and_publish, running_event
from tests.support import PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]


def test_a_public_profile_fits_a_phone_and_hides_on_request(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    event, organiser, regs = running_event(NAMES[:4])
    round_ = pair_and_publish(event, organiser)
    for match in round_.matches.filter(b__isnull=False):
        services.match_report(actor=organiser, match=match, games=[1, 0, 0])
    person = regs[0].player
    person.profile_public = True
    person.save()
    page = open_page(None, PHONE)
    response = page.goto(f"{live_server.url}/players/{person.player_id}/")
    assert response is not None and response.status == 200
    expect(page.locator("h1")).to_have_text(person.public_name)
    item = page.locator(".history-event")
    expect(item).to_have_count(1)
    expect(item.locator("h3")).to_have_text(event.name)
    expect(item).to_contain_text("Place so far")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    person.profile_public = False
    person.save()
    hidden = page.goto(f"{live_server.url}/players/{person.player_id}/")
    assert hidden is not None and hidden.status == 404
