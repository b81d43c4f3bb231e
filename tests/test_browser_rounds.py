"""A round as players live it on their phones, in a real browser (Debian's chromium through
Playwright's Python package, as tests/test_browser.py; nothing downloads a browser).

A player finds their table on the pairings page and reports; the opponent confirms; the
standings page shows it; the round timer keeps counting offline (the browser's offline mode)
and after a reload, without polling the server more than every 30 s.

Without chromium the tests skip locally and fail in CI (REQUIRE_SERVICES=1), like
tests/test_browser.py.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from itertools import pairwise
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
CLOCK = re.compile(r"^(?:(\d+):)?(\d{2}):(\d{2}) left$")


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


def seconds_left(text: str) -> int:
    found = CLOCK.match(text.strip())
    assert found, f"not a running countdown: {text!r}"
    hours, minutes, secs = found.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(secs)


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


def test_the_round_timer_keeps_counting_offline_and_after_a_reload(  # type: ignore[no-untyped-def]
    live_server, phone
) -> None:
    from playwright.sync_api import expect

    event, organiser, regs = running_event(NAMES)
    round_ = pair_and_publish(event, organiser)
    ends_at = RoundTimer.from_json(round_.timer).ends_at
    assert ends_at is not None
    end_ms = ends_at.timestamp() * 1000  # the browser shares this machine's clock
    timer_path = reverse("api-round-timer", kwargs={"slug": event.slug, "number": round_.number})

    page = phone(regs[0].player)
    polls: list[float] = []
    page.on("request", lambda r: polls.append(time.monotonic()) if timer_path in r.url else None)
    timer = page.get_by_role("timer", name="Round 1 timer")
    text = timer.locator(".round-timer-text")

    def load(action: Callable[[], Any]) -> float:
        """Load the page; the seconds from the request to a running countdown."""
        began = time.time()
        action()
        # The script replaces the server's "Round ends at HH:MM" with a countdown.
        expect(text).to_have_text(CLOCK)
        expect(timer).to_have_attribute("data-phase", "running")
        return time.time() - began

    def offset(shown: str, at_ms: float) -> float:
        """Seconds shown minus seconds truly left at that moment (page's Date.now())."""
        return seconds_left(shown) - (end_ms - at_ms) / 1000

    def assert_consistent(off: float, latency: float) -> None:
        # The page counts from the server's end time and "now", both rendered in whole
        # seconds (up to 1 s each way), shown rounded up (< 1 s), and takes the moment the
        # script runs for the server's "now" (so the page's load time adds to it).
        assert (
            -1.1 < off < 2.1 + latency
        ), f"shows {off:+.2f} s against the server's end time (page load {latency:.2f} s)"

    def shown_now() -> tuple[str, float]:
        shown, at = page.evaluate("(el) => [el.textContent, Date.now()]", text.element_handle())
        return shown, at

    started = time.monotonic()
    latency = load(lambda: page.goto(f"{live_server.url}/events/{event.slug}/my-match/"))
    assert_consistent(offset(*shown_now()), latency)

    # Every change of the text, with the page's clock, while the device is offline.
    page.evaluate(
        """(el) => {
            window.__ticks = [[el.textContent, Date.now()]];
            new MutationObserver(() => window.__ticks.push([el.textContent, Date.now()]))
                .observe(el, {childList: true, characterData: true, subtree: true});
        }""",
        text.element_handle(),
    )
    page.context.set_offline(True)
    assert page.evaluate("navigator.onLine") is False
    page.wait_for_timeout(2_500)  # the one fixed wait: time passing offline
    ticks = page.evaluate("window.__ticks")
    end_of_window = shown_now()
    # Back online, the page re-reads the timer once (its documented "online" refresh).
    with page.expect_response(lambda r: timer_path in r.url) as refreshed:
        page.context.set_offline(False)
    assert refreshed.value.ok and refreshed.value.json()["state"] == "running"

    values = [seconds_left(shown) for shown, _ in ticks]
    assert values[0] - values[-1] >= 2, f"offline for 2.5 s the countdown went {values}"
    # One second at a time (never a jump), a change about every second (never frozen)...
    assert all(a - b == 1 for a, b in pairwise(values)), f"the countdown went {values}"
    moments = [at for _, at in ticks] + [end_of_window[1]]
    gaps = [b - a for a, b in pairwise(moments)]
    assert all(gap < 1_600 for gap in gaps), f"the text froze: changes {gaps} ms apart"
    # ...and each second shown is the true time left, rounded up, when it was shown.
    offsets = [offset(shown, at) for shown, at in [*ticks, end_of_window]]
    assert max(offsets) - min(offsets) < 1.1, f"the countdown drifted: {offsets} ({values})"
    for off in offsets:
        assert_consistent(off, latency)

    # Online, with the refreshed timer applied, it goes on counting to the same end time...
    before, at = shown_now()
    expect(text).not_to_have_text(before, timeout=3_000)
    assert_consistent(offset(*shown_now()), latency)

    # ...and after a reload too, where it keeps ticking.
    latency = load(page.reload)
    before, at = shown_now()
    assert_consistent(offset(before, at), latency)
    expect(text).not_to_have_text(before, timeout=3_000)
    assert seconds_left(text.inner_text()) < seconds_left(before)
    assert_consistent(offset(*shown_now()), latency)

    # The page asks the server for the timer at most once per 30 s (here: at most the one
    # refresh on coming back online).
    window = time.monotonic() - started
    gaps = [round(b - a, 1) for a, b in pairwise(polls)]
    assert len(polls) <= 1 + window // 30, f"{len(polls)} timer requests in {window:.1f} s"
    assert all(gap >= 29 for gap in gaps), f"timer requests {gaps} s apart"
