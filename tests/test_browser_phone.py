"""The player's phone at the venue (issue 18), in a real browser (Debian's chromium through
Playwright, as tests/test_browser_rounds.py): the standings are a compact table at 390px, a
row per player with its detail on a tap, while a desktop keeps the full table.

Without chromium the tests skip locally and fail in CI (REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import re
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

DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def finished_round(names: list[str]) -> tuple[Any, Any]:
    event, organiser, regs = running_event(names)
    round_ = pair_and_publish(event, organiser)
    for match in round_.matches.filter(b__isnull=False):
        services.match_report(actor=organiser, match=match, games=[1, 0, 0])
    return event, regs


def test_standings_on_a_phone_are_a_compact_table_with_the_detail_on_a_tap(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    event, regs = finished_round(NAMES)
    page = open_page(None, PHONE)
    page.goto(f"{live_server.url}/events/{event.slug}/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(NAMES))
    # A row per player: rank, name, points and record on one compact line.
    header = [
        text.strip()
        for text in page.locator("table.standings thead th").evaluate_all(
            "(cells) => cells.filter((c) => c.offsetParent !== null).map((c) => c.innerText)"
        )
    ]
    assert header[:4] == ["Rank", "Player", "Points", "Record"], header
    assert "OMW" not in " ".join(header)
    first = rows.first
    box = first.bounding_box()
    assert box is not None and box["height"] <= 80, box  # one or two lines, not a 165px card
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    omw = first.locator("td.standing-tb").first
    expect(omw).to_be_hidden()

    # The tiebreakers and the breakdown link open on a tap.
    more = first.locator("details.standing-more summary")
    summary_box = more.bounding_box()
    assert summary_box is not None and summary_box["height"] >= 44
    more.tap()
    detail = first.locator("details.standing-more")
    expect(detail.locator("dt").first).to_have_text("Opponents' match-win %")
    expect(detail.locator("dd").first).to_have_text(re.compile(r"^\d+\.\d%$"))
    expect(detail.get_by_role("link", name="How these were counted")).to_be_visible()
    page.screenshot(path="/tmp/standings-phone.png", full_page=True)


def test_standings_on_a_desktop_keep_the_full_table(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    event, _regs = finished_round(NAMES)
    page = open_page(None, DESKTOP)
    page.goto(f"{live_server.url}/events/{event.slug}/standings/")
    first = page.locator("table.standings tbody tr").first
    expect(first.locator("td.standing-tb").first).to_be_visible()
    expect(first.locator("details.standing-more")).to_be_hidden()
    page.emulate_media(media="print")
    expect(first.locator("td.standing-tb").first).to_be_visible()
    expect(first.locator("details.standing-more")).to_be_hidden()
