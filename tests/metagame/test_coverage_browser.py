"""The coverage page keeps itself up to date in a real browser (static/js/coverage.js): a
result reported while it is open shows without a reload, and the page says it was updated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]


def test_the_coverage_page_shows_a_new_round_in_place_without_reloading(
    open_page: Callable[..., Any], live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    from metagame import coverage_views
    from tests.scenarios import finish_round, pair_and_publish, running_event

    monkeypatch.setattr(coverage_views, "COVERAGE_POLL_SECONDS", 1)
    event, organiser, _regs = running_event(4)
    page = open_page(None)
    page.goto(f"{live_server.url}/events/{event.slug}/coverage/")
    expect(page.locator("#standings-heading + p")).to_contain_text("No standings yet")
    page.evaluate("window.notReloaded = true")

    finish_round(pair_and_publish(event, organiser), organiser)

    expect(page.locator("#coverage-live caption")).to_contain_text(
        "Top of the standings after round 1"
    )
    assert page.evaluate("window.notReloaded === true")
    assert page.locator("#coverage-announce").inner_text() == "Coverage updated."
    assert page.locator("#coverage-stale").is_hidden()
    assert page.locator('meta[http-equiv="refresh"]').count() == 0
