"""The organiser's live round panel in a real browser (Debian's chromium through Playwright, as
tests/test_browser.py; nothing downloads a browser).

Round 1 runs; one player reports and the opponent does not answer. The organiser, on a phone,
sees that table among the one-sided reports, accepts it with one tap, and the panel shows the
table final without a page reload. Then another player reports from their own phone: the
organiser's panel shows it by polling, again without a reload.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from matches import services
from matches.models import MatchStatus, ResultChange
from tests.scenarios import running_event
from tournaments.models import AuditEntry

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]


def test_the_organiser_accepts_a_one_sided_report_and_the_panel_follows_by_polling(
    live_server: Any, open_page: Callable[..., Any], settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.ROUND_PANEL_POLL_SECONDS = 1
    event, organiser, _regs = running_event(6)
    round_ = services.round_pair(actor=organiser, tournament=event)
    round_ = services.round_publish(actor=organiser, round_=round_)
    first, second, _third = sorted(
        round_.matches.select_related("a__player", "b__player"), key=lambda m: m.table or 0
    )
    services.match_report(actor=first.a.player, match=first, games=[1, 0, 0])

    page = open_page(organiser)
    page.goto(f"{live_server.url}/events/{event.slug}/manage/")
    panel = page.locator("#round-panel")
    expect(panel).to_contain_text("Reported by one side (1)")
    expect(panel).to_contain_text(f"reported by {first.a.name}")
    page.evaluate("window.__same_page = true")  # gone if the page reloads

    accept = panel.get_by_role(
        "button", name=f"Accept {first.a.name}'s report at table {first.table}"
    )
    box = accept.bounding_box()
    assert box is not None and box["height"] >= 44  # a main action on a phone
    accept.click()

    expect(panel.locator("#round-panel-live")).to_contain_text(
        f"Table {first.table}: result accepted."
    )
    expect(panel).to_contain_text("Reported by one side (0)")
    first.refresh_from_db()
    assert first.status == MatchStatus.FINAL
    assert first.versions.order_by("-number").first().change == ResultChange.CONFIRMED  # type: ignore[union-attr]
    assert AuditEntry.objects.filter(action="match.confirmed", actor=organiser).exists()

    # A player reports at another table: the panel shows it by polling, no reload.
    services.match_report(actor=second.b.player, match=second, games=[0, 1, 0])
    expect(panel).to_contain_text(f"reported by {second.b.name}")
    expect(panel).to_contain_text("Reported by one side (1)")
    assert page.evaluate("window.__same_page === true")
