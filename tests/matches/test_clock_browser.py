"""The match clock page in a real browser at phone size (Debian's chromium through Playwright,
as tests/test_browser.py: skips without chromium locally, fails in CI)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from matches import clock_services
from matches.models import ClockEvent, Match, MatchStatus, ResultChange
from tests.scenarios import bos_table

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

# The BOS delay of the flag test's event, per turn. Player a's turn must end inside it (the
# start and turn presses were 0.15 to 0.2 s apart on the 2-core machine at load 9): 3 s is 15
# times that. The flag waits out, in real time, what is left of b's delay: 10 s cost 7 s more.
DELAY_SECONDS = 3
SMALL_PHONE = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def _clock_page(open_page: Callable[..., Any], live_server: Any, player: Any, match: Match) -> Any:
    """The match's clock page on a small phone, for ``player``."""
    page = open_page(player, SMALL_PHONE)
    page.goto(f"{live_server.url}/matches/{match.pk}/clock/")
    return page


def _fits_the_phone(page: Any, screenshot_env: str) -> None:
    """No sideways scroll at 360 px; a screenshot when ``screenshot_env`` names a path."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, "the page scrolls sideways at 360 px"
    shot = os.environ.get(screenshot_env)
    if shot:
        page.screenshot(path=shot, full_page=True)


def test_one_phone_runs_the_clock_for_both_players_and_flags_at_zero(
    open_page: Callable[..., Any], live_server: Any
) -> None:
    _event, organiser, match = bos_table(structure="bo1", clock_delay_seconds=DELAY_SECONDS)
    assert match.b is not None
    page = _clock_page(open_page, live_server, match.a.player, match)

    half_a = page.locator(".clock-half-a")
    half_b = page.locator(".clock-half-b")
    expect(half_a.locator("[data-time]")).to_have_text("15:00")
    expect(half_a).to_be_disabled()
    page.get_by_role("group", name="who goes first").get_by_role(
        "button", name=match.a.name
    ).click()
    expect(half_a).to_be_enabled()
    expect(half_a.locator("[data-delay]")).to_be_visible()
    expect(half_a.locator("[data-delay]")).to_contain_text("Delay 0:")
    half_a.click()  # a ends their turn within the delay: no time used
    expect(half_b).to_be_enabled()
    expect(half_a).to_be_disabled()
    expect(half_a.locator("[data-time]")).to_have_text("15:00")
    page.get_by_role("button", name="Pause (opponent acting)").click()
    expect(page.get_by_role("button", name="Resume")).to_be_visible()
    expect(half_b).to_be_disabled()
    flip = page.get_by_role("button", name="Face to face")
    flip.click()
    expect(flip).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#match-clock")).to_have_class("match-clock is-flipped")
    _fits_the_phone(page, "CLOCK_SCREENSHOT")
    page.get_by_role("button", name="Resume").click()
    expect(half_b).to_be_enabled()

    # A judge leaves b one second (after what is left of the delay); the phone picks it up,
    # counts down and flags b itself.
    seq = ClockEvent.objects.filter(match=match).count()
    clock_services.press(
        actor=organiser,
        match=match,
        kind="adjust",
        side="b",
        expected_seq=seq,
        payload={"set_ms": 1000, "reason": "test"},
    )
    expect(page.locator("#clock-status")).to_contain_text("ran out of time", timeout=20_000)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (1, 0, 0)
    assert match.versions.get().change == ResultChange.TIME
    assert ClockEvent.objects.filter(match=match, kind="flag", side="b").count() == 1


def test_the_start_form_takes_both_bids_on_a_small_phone(
    open_page: Callable[..., Any], live_server: Any
) -> None:
    _event, _organiser, match = bos_table()
    assert match.b is not None
    page = _clock_page(open_page, live_server, match.b.player, match)
    bid_a = page.get_by_label(f"{match.a.name}’s bid")  # noqa: RUF001
    bid_b = page.get_by_label(f"{match.b.name}’s bid")  # noqa: RUF001
    expect(bid_a).to_be_visible()
    _fits_the_phone(page, "CLOCK_START_SCREENSHOT")
    # A tie is refused with the server's message; the deciding bids start the game.
    bid_a.fill("3")
    bid_b.fill("3")
    group = page.get_by_role("group", name="who goes first")
    group.get_by_role("button", name=match.b.name).click()
    expect(page.locator("#clock-error")).to_contain_text("bid again")
    bid_b.fill("5")
    group.get_by_role("button", name=match.b.name).click()
    expect(page.locator(".clock-half-b")).to_be_enabled()
    row = ClockEvent.objects.get(match=match)
    assert row.payload["bids"] == [3, 5] and row.payload["first"] == "b"


def test_the_game_over_step_closes_when_its_game_ends_and_is_closed_in_the_next_game(
    open_page: Callable[..., Any], live_server: Any
) -> None:
    _event, _organiser, match = bos_table()  # best of 3
    assert match.b is not None
    page = _clock_page(open_page, live_server, match.a.player, match)
    who_first = page.get_by_role("group", name="who goes first")
    who_first.get_by_role("button", name=match.a.name).click()
    step = page.locator("details.clock-confirm")
    expect(step).to_be_visible()
    step.locator("summary").click()
    expect(step).to_have_attribute("open", "")
    step.get_by_role("button", name=f"{match.a.name} won").click()
    expect(page.locator("#clock-status")).to_contain_text("Game 1")
    who_first.get_by_role("button", name=match.b.name).click()
    # Game 2 runs: its "game over" step starts closed, its winner buttons out of reach.
    expect(step).to_be_visible()
    expect(step).not_to_have_attribute("open", "")
    expect(step.get_by_role("button", name=f"{match.b.name} won")).to_be_hidden()
    assert ClockEvent.objects.filter(match=match, kind="game_end").count() == 1
