"""Bad wifi at the venue, in a real browser (Debian's chromium through Playwright, as
tests/test_browser_rounds.py): the service worker (static/js/sw.js) keeps the round's pages, a
page shown from that copy says it is offline and how old the copy is and refreshes itself when
the connection returns, and a result reported offline is sent then.

Without chromium the tests skip locally and fail in CI (REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from matches.models import MatchStatus, Report
from tests.browser_scenes import NAMES, match_of, pair_and_publish, running_event
from tests.support import PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

NOTICE = re.compile(
    r"^Offline: showing the copy from (\d\d:\d\d), (\d+) (second|seconds|minute|minutes) ago\.$"
)
SCREENSHOT = "/tmp/offline.png"


@pytest.fixture
def phone(open_page: Callable[..., Any]) -> Callable[..., Any]:
    return lambda user=None: open_page(user, PHONE)


def kept(page: Any) -> int:
    """Wait until the service worker has kept this page; when it fetched it (ms)."""
    from playwright.sync_api import expect

    expect(page.locator("html[data-offline-kept]")).to_have_count(1)
    fetched = page.locator("html").get_attribute("data-offline-kept")
    assert fetched is not None
    return int(fetched)


def test_the_pairings_page_works_offline_from_its_copy_and_says_how_old_it_is(  # type: ignore[no-untyped-def]
    live_server, phone
) -> None:
    from playwright.sync_api import expect

    event, organiser, regs = running_event(NAMES)
    round_ = pair_and_publish(event, organiser)
    ada = regs[0]
    match = match_of(round_, ada)
    page = phone(ada.player)
    url = f"{live_server.url}/events/{event.slug}/rounds/1/pairings/"

    page.goto(url)
    expect(page.locator(".your-table-number")).to_have_text(str(match.table))
    expect(page.locator("#offline-notices")).to_be_hidden()  # online: nothing to say
    fetched_ms = kept(page)

    # The venue's wifi drops; Ada reloads the pairings.
    page.context.set_offline(True)
    page.clock.install()  # the page's clock (real time until fast-forwarded below)
    page.reload()
    assert page.evaluate("navigator.onLine") is False
    expect(page.get_by_role("heading", name="Round 1 pairings")).to_be_visible()
    expect(page.locator(".your-table-number")).to_have_text(str(match.table))
    rows = page.locator("section.pairings-by-name tbody tr")
    expect(rows).to_have_count(len(NAMES))
    notice = page.locator("#offline-notices .offline-copy")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(NOTICE)
    shown = NOTICE.match(notice.inner_text())
    assert shown is not None
    # The copy's time is when the worker fetched it, on this device's clock (the browser's).
    assert shown.group(1) == datetime.fromtimestamp(fetched_ms / 1000).strftime("%H:%M")
    assert shown.group(3).startswith("second") and int(shown.group(2)) < 60, shown.group(0)
    # The stylesheet came from the worker's cache too: the notice is styled as a message.
    assert notice.evaluate("(p) => getComputedStyle(p).borderLeftStyle") == "solid"
    # The round timer still counts, from the copy's time (not from the reload's).
    timer = page.get_by_role("timer", name="Round 1 timer")
    expect(timer).to_have_attribute("data-phase", "running")
    expect(timer.locator(".round-timer-text")).to_have_text(re.compile(r"^\d\d:\d\d left$"))

    # Minutes later the notice says so (the page's clock moved on; the copy stays the same).
    page.clock.fast_forward("06:05")
    expect(notice).to_have_text(re.compile(r", 6 minutes ago\.$"))
    expect(notice).to_have_text(NOTICE)
    page.screenshot(path=SCREENSHOT)

    # The connection returns: the page refreshes itself from the server.
    with page.expect_navigation():
        page.context.set_offline(False)
    expect(page.locator(".your-table-number")).to_have_text(str(match.table))
    expect(page.locator("#offline-notices")).to_be_hidden()
    assert page.locator('meta[name="battledesk-offline-copy"]').count() == 0


def test_a_result_reported_offline_is_sent_when_the_connection_returns(  # type: ignore[no-untyped-def]
    live_server, phone
) -> None:
    from playwright.sync_api import expect

    event, organiser, regs = running_event(NAMES)
    round_ = pair_and_publish(event, organiser)
    ada = regs[0]
    match = match_of(round_, ada)
    opponent = match.b if match.a_id == ada.pk else match.a
    assert opponent is not None
    page = phone(ada.player)
    page.goto(f"{live_server.url}/events/{event.slug}/my-match/")
    expect(page.get_by_role("heading", name="Report the result")).to_be_visible()
    kept(page)

    page.context.set_offline(True)
    # What the match card's status says as the page is first shown, its stylesheet applied
    # and before the page's scripts could ask the worker anything (recorded on every
    # navigation: the kept copy must never say "Not reported", not even for a moment).
    page.add_init_script(
        """document.addEventListener("DOMContentLoaded", () => {
          const card = document.querySelector(".match-card");
          window.statusAtFirstPaint = card ? card.innerText : null;
        });"""
    )
    page.get_by_text("I won", exact=True).tap()
    page.get_by_role("button", name="Confirm and send").tap()
    # The worker kept it and showed the page's copy, which says the result is not sent yet,
    # from the start: its status is "kept on this device", never "Not reported".
    expect(page.locator("html[data-offline-outbox]")).to_have_count(1)
    at_first = page.evaluate("window.statusAtFirstPaint")
    assert at_first is not None and "Not reported" not in at_first, at_first
    assert "Your result is kept on this device, not sent yet" in at_first, at_first
    expect(page.get_by_text("Not reported")).to_be_hidden()
    waiting = page.locator("#offline-notices .offline-kept")
    expect(waiting).to_have_text(
        re.compile(
            r"^Not sent yet: your result \(you won 1, your opponent won 0\), reported"
            r" at \d\d:\d\d, is kept on this device and sent when the connection returns\.$"
        )
    )
    expect(page.locator("#offline-notices .offline-copy")).to_have_text(NOTICE)
    time.sleep(0.5)  # nothing reaches the server while offline
    assert not Report.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING

    # Online again: the page sends it, then reloads to show the server's answer.
    with page.expect_navigation():
        page.context.set_offline(False)
    expect(page.get_by_role("heading", name="Waiting for your opponent")).to_be_visible()
    expect(
        page.get_by_text("Result sent. Waiting for your opponent to confirm it on their phone.")
    ).to_be_visible()
    expect(page.locator("#offline-notices")).to_be_hidden()
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED
    report = Report.objects.get(match=match)
    assert report.registration_id == ada.pk
    side_a = match.a_id == ada.pk
    assert tuple(report.games) == ((1, 0, 0) if side_a else (0, 1, 0))

    # Offline once more, the copy shows the result sent but not the message said once then.
    kept(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-notices .offline-copy")).to_have_text(NOTICE)
    expect(page.get_by_role("heading", name="Waiting for your opponent")).to_be_visible()
    expect(
        page.get_by_text("Result sent. Waiting for your opponent to confirm it on their phone.")
    ).to_be_hidden()
    expect(page.locator("#offline-notices .offline-kept")).to_have_count(0)

    # Sent once: back online, nothing is sent again.
    with page.expect_navigation():
        page.context.set_offline(False)
    expect(page.get_by_role("heading", name="Waiting for your opponent")).to_be_visible()
    expect(page.locator("#offline-notices")).to_be_hidden()
    assert Report.objects.filter(match=match).count() == 1


def test_another_form_sent_offline_is_shown_as_not_sent(  # type: ignore[no-untyped-def]
    live_server, phone
) -> None:
    from playwright.sync_api import expect

    event, organiser, regs = running_event(NAMES)
    round_ = pair_and_publish(event, organiser)
    ada = regs[0]
    match = match_of(round_, ada)
    opponent = match.b if match.a_id == ada.pk else match.a
    assert opponent is not None
    from matches import services

    services.match_report(actor=opponent.player, match=match, games=[1, 0, 0])
    page = phone(ada.player)
    page.goto(f"{live_server.url}/events/{event.slug}/my-match/")
    kept(page)
    page.context.set_offline(True)
    page.locator("section.match-confirm").get_by_role("button", name="Confirm").tap()
    expect(page.locator("#offline-notices .offline-not-sent")).to_have_text(
        "Not sent: you are offline. Send it again when the connection returns."
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED


def test_logging_out_forgets_the_kept_pages(live_server, phone) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    event, organiser, regs = running_event(NAMES)
    pair_and_publish(event, organiser)
    page = phone(regs[0].player)
    url = f"{live_server.url}/events/{event.slug}/rounds/1/pairings/"
    page.goto(url)
    kept(page)
    kept_urls = (
        "caches.open('battledesk-pages-v1').then((c) => c.keys()).then((k) => k.map((r) => r.url))"
    )
    assert url in page.evaluate(kept_urls)

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert url not in page.evaluate(kept_urls)
    # Offline, the pairings are not shown from Ada's copy.
    page.context.set_offline(True)
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED|ERR_FAILED"):
        page.goto(url)
