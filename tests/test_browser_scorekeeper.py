"""The scorekeeper typing slips as fast as they come, in a real browser (Debian's chromium
through Playwright's Python package, as tests/test_browser.py; nothing downloads a browser).

Issue 18: with JavaScript on, no slip is ever lost: each is saved and listed, or refused with
its reason and kept to correct and send again; one overriding a player's pending report asks
once more. Without chromium the test skips locally and fails in CI (REQUIRE_SERVICES=1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from matches import services
from matches.models import Match, MatchStatus, ResultChange, ResultVersion
from tests.factories import RegistrationFactory, UserFactory
from tests.scenarios import running_event
from tests.support import PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

TABLES = 20


def test_twenty_slips_typed_fast_are_all_saved_or_refused_and_kept(
    open_page: Callable[..., Any], live_server: Any
) -> None:
    from playwright.sync_api import expect

    event, organiser, _regs = running_event(0, match_structure="bo1")
    for i in range(2 * TABLES):
        RegistrationFactory(tournament=event, player=UserFactory(display_name=f"Player {i:02d}"))
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    pending = round_.matches.get(table=19)
    services.match_report(actor=pending.a.player, match=pending, games=[1, 0, 0])

    good = [(str(t), "1-0" if t % 2 else "0-1") for t in range(1, 18)]
    bad = {
        4: ("99", "1-0"),  # no such table
        9: ("18", "2-1"),  # 2-1 in a best of one
        14: ("1", "0-1"),  # table 1 was saved as 1-0 a moment ago
    }
    slips = list(good)
    for at, slip in sorted(bad.items()):
        slips.insert(at, slip)
    assert len(slips) == 20

    page = open_page(organiser, PHONE)
    page.goto(f"{live_server.url}/events/{event.slug}/manage/rounds/1/scorekeeper/")
    expect(page.locator("#sk-table")).to_be_focused()
    # As fast as a scorekeeper types: never waiting for an answer before the next slip.
    for table, result in slips:
        page.keyboard.type(table)
        page.keyboard.press("Tab")
        page.keyboard.type(result)
        page.keyboard.press("Enter")
    expect(page.locator("#sk-table")).to_be_focused()

    saved_rows = page.locator("#sk-saved tr.sk-saved-row")
    refused = page.locator("#sk-refused li")
    expect(saved_rows).to_have_count(17)
    expect(refused).to_have_count(3)
    expect(page.locator("#sk-queue-section")).to_be_hidden()

    finals = Match.objects.filter(round=round_, status=MatchStatus.FINAL)
    assert sorted(finals.values_list("table", flat=True)) == list(range(1, 18))
    assert Match.objects.get(round=round_, table=1).games == (1, 0, 0)
    assert Match.objects.get(round=round_, table=2).games == (0, 1, 0)
    assert ResultVersion.objects.filter(change=ResultChange.ENTERED, actor=organiser).count() == 17

    # Each refused slip is kept, with its reason beside it, in the order typed.
    reasons = refused.locator(".sk-reason")
    expect(reasons.nth(0)).to_contain_text("there is no table 99 in round 1")
    expect(reasons.nth(1)).to_contain_text("nobody wins more than 1 game")
    expect(reasons.nth(2)).to_contain_text("already has the final result 1-0")
    expect(refused.nth(2).get_by_role("link", name="open table 1")).to_be_visible()
    expect(refused.nth(0).get_by_label("Table")).to_have_value("99")
    # The newest saved slip is on top, with its players and its undo link.
    top = saved_rows.first
    expect(top).to_contain_text("17")
    expect(top.get_by_role("link", name="Undo or correct table 17")).to_be_visible()

    # A refused slip, corrected and sent again, is saved.
    first = refused.nth(0)
    first.get_by_label("Table").fill("20")
    first.get_by_role("button", name="Send again").click()
    expect(saved_rows).to_have_count(18)
    expect(refused).to_have_count(2)
    assert Match.objects.get(round=round_, table=20).games == (1, 0, 0)

    # A slip over a player's different pending report says so and asks once more.
    page.locator("#sk-table").fill("19")
    page.locator("#sk-result").fill("0-1")
    page.keyboard.press("Enter")
    asking = refused.filter(has_text="reported 1-0")
    expect(asking).to_have_count(1)
    expect(asking).to_contain_text(pending.a.name)
    assert Match.objects.get(pk=pending.pk).status == MatchStatus.REPORTED
    asking.get_by_role("button", name="Yes, enter 0-1 over the report").click()
    expect(saved_rows).to_have_count(19)
    expect(refused).to_have_count(2)
    assert Match.objects.get(pk=pending.pk).games == (0, 1, 0)

    # Discarding a refused slip is the scorekeeper's choice, one at a time.
    refused.nth(0).get_by_role("button", name="Discard").click()
    expect(refused).to_have_count(1)
    # Nothing is lost on a reload either: the refused slip is still there.
    page.reload()
    expect(page.locator("#sk-refused li")).to_have_count(1)


def test_a_slip_sent_while_the_connection_is_down_waits_and_is_saved_when_it_returns(
    open_page: Callable[..., Any], live_server: Any
) -> None:
    from playwright.sync_api import expect

    event, organiser, _regs = running_event(4, match_structure="bo1")
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    page = open_page(organiser, PHONE)
    url = f"{live_server.url}/events/{event.slug}/manage/rounds/1/scorekeeper/"
    page.goto(url)
    # The browser applies autofocus after the load: typing before it lands elsewhere (a Tab
    # then an Enter on the header's links left the page).
    expect(page.locator("#sk-table")).to_be_focused()
    dropped: list[str] = []

    def drop_the_first_post(route: Any) -> None:
        if route.request.method == "POST" and not dropped:
            dropped.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(url, drop_the_first_post)
    for table, result in (("1", "1-0"), ("2", "0-1")):
        page.keyboard.type(table)
        page.keyboard.press("Tab")
        page.keyboard.type(result)
        page.keyboard.press("Enter")

    expect(page.locator("#sk-queue")).to_contain_text("no connection")
    expect(page.locator("#sk-saved tr.sk-saved-row")).to_have_count(2)
    expect(page.locator("#sk-queue-section")).to_be_hidden()
    assert len(dropped) == 1
    assert Match.objects.get(round=round_, table=1).games == (1, 0, 0)
    assert Match.objects.get(round=round_, table=2).games == (0, 1, 0)
