"""A round as players live it on their phones, in a real browser (Debian's chromium through
Playwright's Python package, as tests/test_browser.py; nothing downloads a browser).

A player finds their table on the pairings page and reports; the opponent confirms; the
standings page shows it; the round timer keeps counting offline (the browser's offline mode)
and after a reload, without polling the server more than every 30 s (on fake clocks: the
server's and Playwright's, so every value is asserted exactly).

Without chromium the tests skip locally and fail in CI (REQUIRE_SERVICES=1), like
tests/test_browser.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse

from matches import services
from matches.models import MatchStatus, RoundStatus
from tests.browser_scenes import NAMES, match_of, pair_and_publish, running_event
from tests.support import PHONE
from tournaments.timer import RoundTimer

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

PASSWORD = "correct-horse-battery"  # tests.factories.UserFactory's


@pytest.fixture
def phone(open_page: Callable[..., Any]) -> Callable[..., Any]:
    """A phone-sized page, logged in as ``user`` when given."""
    return lambda user=None: open_page(user, PHONE)


def cells(row: Any) -> dict[str, str]:
    """A table row's cells (th and td) by the text of their column's header."""
    found: dict[str, str] = row.evaluate(
        """(tr) => {
            const heads = [...tr.closest("table").tHead.rows[0].cells]
                .map((cell) => cell.textContent.trim());
            return Object.fromEntries([...tr.cells].map((cell, i) => [heads[i], cell.innerText.trim()]));
        }"""
    )
    return found


def test_a_player_finds_their_table_reports_and_the_opponent_confirms(  # type: ignore[no-untyped-def]
    live_server, phone
) -> None:
    from playwright.sync_api import expect

    event, organiser, regs = running_event(NAMES)
    round_ = pair_and_publish(event, organiser)
    ada = regs[0]
    match = match_of(round_, ada)
    assert match.b is not None, "six players: nobody has a bye"
    a_side = "a" if match.a_id == ada.pk else "b"
    opponent = match.b if a_side == "a" else match.a
    assert opponent is not None

    # 1. Ada logs in on her phone and finds her table in the by-name list.
    page = phone()
    pairings = f"/events/{event.slug}/rounds/1/pairings/"
    page.goto(f"{live_server.url}/accounts/login/?next={pairings}")
    page.get_by_label(re.compile(r"^Username")).fill(ada.player.username)
    page.get_by_label(re.compile(r"^Password")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{pairings}")
    page.get_by_role("link", name="Find me by name").tap()
    by_name = page.locator("section.pairings-by-name")
    expect(by_name.get_by_role("heading", name="Round 1: pairings by name")).to_be_in_viewport()
    row = by_name.locator("tbody tr").filter(
        has=page.get_by_role("rowheader", name=ada.name, exact=True)
    )
    expect(row).to_have_count(1)
    seat = cells(row)
    assert seat["Table"] == str(match.table), seat
    assert seat["Seat"] == a_side.upper() and seat["Opponent"] == opponent.name, seat
    expect(page.locator(".your-table-number")).to_have_text(str(match.table))

    # 2. She reports her win on "my match" (a best of 1): one tap, then a confirmation that
    # says what she is sending; it waits for the opponent.
    page.goto(f"{live_server.url}/events/{event.slug}/my-match/")
    expect(page.locator(".match-table strong")).to_have_text(str(match.table))
    expect(page.locator(".match-opponent strong")).to_have_text(opponent.name)
    send = page.get_by_role("button", name="Confirm and send")
    expect(send).to_be_hidden()  # nothing to confirm before the tap
    expect(page.get_by_role("group", name="How did your match end?")).to_be_visible()
    page.get_by_text("I won", exact=True).tap()
    expect(page.get_by_text(f"You won against {opponent.name}.")).to_be_visible()
    expect(page.get_by_text(f"{opponent.name} won.")).to_be_hidden()
    assert match.reports.count() == 0  # the tap alone sends nothing
    box = send.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] <= 390
    send.tap()
    expect(page.get_by_role("heading", name="Waiting for your opponent")).to_be_visible()
    expect(
        page.get_by_text("You reported: you won. Your opponent now confirms it.")
    ).to_be_visible()
    expect(
        page.get_by_text("Result sent. Waiting for your opponent to confirm it on their phone.")
    ).to_be_visible()
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED

    # 3. Her opponent, on their own phone, sees her report waiting for confirmation, from
    # their side, and confirms it.
    other = phone(opponent.player)
    other.goto(f"{live_server.url}/events/{event.slug}/my-match/")
    expect(other.locator(".badge-match-reported")).to_have_text("One side reported")
    confirm = other.locator("section.match-confirm")
    expect(confirm.get_by_role("heading", name="Your opponent reported")).to_be_visible()
    expect(confirm.locator(".result-line")).to_have_text(f"{ada.name} won.")
    confirm.get_by_role("button", name="Confirm").tap()
    result = other.locator("section.match-result")
    expect(result.get_by_role("heading", name="Result")).to_be_visible()
    expect(result.locator(".result-line")).to_have_text(re.compile(r"^\s*You lost\s+0\u20131\s*$"))
    expect(result.get_by_text("The result is final.")).to_be_visible()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL
    assert match.games == ((1, 0, 0) if a_side == "a" else (0, 1, 0))

    # Ada's page shows it final too, as her win.
    page.reload()
    expect(page.locator("section.match-result .result-line")).to_have_text(
        re.compile(r"^\s*You won\s+1\u20130\s*$")
    )

    # 4. Staff enter the other tables; the standings show Ada's win near the top.
    for other_match in round_.matches.exclude(pk=match.pk):
        services.match_report(actor=organiser, match=other_match, games=[1, 0, 0])
    round_.refresh_from_db()
    assert round_.status == RoundStatus.FINISHED
    page.goto(f"{live_server.url}/events/{event.slug}/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(NAMES))
    standings = [cells(rows.nth(i)) for i in range(len(NAMES))]
    first = {line["Player"]: line for line in standings[:3]}  # the three winners
    assert ada.name in first, f"Ada is not in the first rows: {standings}"
    assert first[ada.name]["Points"] == "3" and first[ada.name]["Record"] == "1-0-0"
    assert first[ada.name]["Rank"] in {"1", "2", "3"}
    mine = rows.filter(has=page.get_by_role("rowheader", name=ada.name, exact=True))
    expect(mine).to_have_id(f"player-{ada.pk}")
    expect(mine).to_contain_text(re.compile(r"Ada Lovelace\s+3\s+1-0-0"), use_inner_text=True)
    loser = next(line for line in standings if line["Player"] == opponent.name)
    assert loser["Points"] == "0" and loser["Record"] == "0-1-0", loser


def left_text(seconds: int) -> str:
    """The countdown's text for `seconds` left (static/js/round-timer.js's format)."""
    hours, rest = divmod(seconds, 3600)
    clock = (
        f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
        if hours
        else f"{rest // 60:02d}:{rest % 60:02d}"
    )
    return f"{clock} left"


# Counts the page's requests for the round timer (the script's fetch), as the page makes them.
COUNT_TIMER_FETCHES = """
    window.__timerFetches = 0;
    const realFetch = window.fetch.bind(window);
    window.fetch = (url, options) => {
        if (String(url).includes("/timer/")) window.__timerFetches += 1;
        return realFetch(url, options);
    };
"""


def test_the_round_timer_keeps_counting_offline_and_after_a_reload(  # type: ignore[no-untyped-def]
    live_server, phone, frozen_now
) -> None:
    """On fake clocks: the server's (`frozen_now`) and the page's (Playwright's clock, paused
    and moved by the test), so every second shown and every request is asserted exactly."""
    from playwright.sync_api import expect

    event, organiser, regs = running_event(NAMES)
    round_ = pair_and_publish(event, organiser)
    timer_state = RoundTimer.from_json(round_.timer)
    assert timer_state.ends_at is not None
    length = int(timer_state.length.total_seconds())
    assert timer_state.ends_at == frozen_now.now() + timer_state.length  # started now
    timer_path = reverse("api-round-timer", kwargs={"slug": event.slug, "number": round_.number})

    page = phone(regs[0].player)
    page.add_init_script(COUNT_TIMER_FETCHES)
    # The page's clock stands still at the server's "now" until the test moves it.
    page.clock.install(time=frozen_now.now() - timedelta(seconds=1))
    page.clock.pause_at(frozen_now.now())
    timer = page.get_by_role("timer", name="Round 1 timer")
    text = timer.locator(".round-timer-text")

    def fetches() -> int:
        count: int = page.evaluate("window.__timerFetches")
        return count

    def elapse(seconds: int) -> None:
        """Both clocks move on by `seconds` (the page's fires its timers on the way)."""
        frozen_now.advance(seconds)
        page.clock.run_for(seconds * 1000)

    page.goto(f"{live_server.url}/events/{event.slug}/my-match/")
    # The script replaces the server's "Round ends at HH:MM" with the time left.
    expect(text).to_have_text(left_text(length))
    expect(timer).to_have_attribute("data-phase", "running")

    # Every change of the text, with the page's clock, while the device is offline.
    page.evaluate(
        """(el) => {
            window.__ticks = [];
            new MutationObserver(() => window.__ticks.push([el.textContent, Date.now()]))
                .observe(el, {childList: true, characterData: true, subtree: true});
        }""",
        text.element_handle(),
    )
    start_ms: int = page.evaluate("Date.now()")
    page.context.set_offline(True)
    assert page.evaluate("navigator.onLine") is False
    elapse(5)
    # One second at a time, each the true time left when it was shown.
    assert page.evaluate("window.__ticks") == [
        [left_text(length - n), start_ms + n * 1000] for n in range(1, 6)
    ]
    assert fetches() == 0  # nothing asked while counting

    # Back online, the page re-reads the timer once (its documented "online" refresh) and
    # counts on to the same end.
    with page.expect_response(lambda r: timer_path in r.url) as refreshed:
        page.context.set_offline(False)
    assert refreshed.value.ok and refreshed.value.json()["remaining_seconds"] == length - 5
    assert fetches() == 1
    expect(text).to_have_text(left_text(length - 5))
    elapse(1)
    expect(text).to_have_text(left_text(length - 6))

    # It asks the server for the timer every 30 s, never sooner: 29 s later, still that one
    # request; at the 30th second of the page's poll, the next.
    page_poll_due = 30 - 6  # the poll timer started with the page
    elapse(page_poll_due - 1)
    assert fetches() == 1
    with page.expect_response(lambda r: timer_path in r.url):
        elapse(1)
    assert fetches() == 2
    expect(text).to_have_text(left_text(length - 30))

    # After a reload it shows the same time left and keeps ticking.
    page.reload()
    expect(text).to_have_text(left_text(length - 30))
    elapse(1)
    expect(text).to_have_text(left_text(length - 31))
