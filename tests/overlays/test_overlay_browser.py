"""The feature-match overlay in a real browser (Debian's chromium through Playwright, as
tests/test_browser.py; nothing downloads a browser): it updates when a result is reported,
by server-sent events under ASGI (uvicorn, as in production) and by polling under WSGI.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from matches import services as match_services
from overlays import services
from tests.scenarios import pair_and_publish, running_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]


@pytest.fixture
def asgi_url(settings: Any) -> Iterator[str]:
    """The site under uvicorn in a thread (static files through Django's finders)."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    settings.OVERLAY_TICK_SECONDS = 0.1
    settings.OVERLAY_DB_CHECK_SECONDS = 0.5
    settings.ALLOWED_HOSTS = ["*"]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        ASGIStaticFilesHandler(get_asgi_application()),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


def _featured() -> tuple[Any, Any, Any]:
    event, organiser, _regs = running_event(4)
    round_ = pair_and_publish(event, organiser)
    match = (
        round_.matches.filter(b__isnull=False)
        .select_related("round__tournament", "a__player", "b__player")
        .order_by("table")
        .first()
    )
    services.feature_mark(actor=organiser, match=match, slot=1)
    return event, organiser, match


def test_the_feature_overlay_updates_by_server_sent_events_when_a_result_is_reported(
    chromium: Any, asgi_url: str
) -> None:
    from playwright.sync_api import expect

    event, organiser, match = _featured()
    page = chromium.new_page()
    page.goto(f"{asgi_url}/events/{event.slug}/overlays/feature/1/")
    overlay = page.locator("[data-overlay=feature]")
    expect(overlay).to_have_attribute("data-live", "stream")
    expect(overlay.locator('[data-f="a-name"]')).to_have_text(match.a.name)
    expect(overlay.locator('[data-f="status"]')).to_have_text("playing")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    page.evaluate("window.__same_page = true")

    match_services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    expect(overlay.locator('[data-f="status"]')).to_have_text("reported", timeout=5_000)
    match_services.match_confirm(actor=match.b.player, match=match)
    expect(overlay.locator('[data-f="status"]')).to_have_text("final", timeout=5_000)
    expect(overlay.locator('[data-f="a-games"]')).to_have_text("1")
    expect(overlay.locator('[data-f="b-games"]')).to_have_text("0")
    assert page.evaluate("window.__same_page === true")  # updated in place, no reload
    assert overlay.get_attribute("data-live") == "stream"


def test_under_wsgi_the_feature_overlay_falls_back_to_polling(
    live_server: Any, chromium: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.OVERLAY_POLL_SECONDS = 1
    event, organiser, match = _featured()
    page = chromium.new_page()
    page.goto(f"{live_server.url}/events/{event.slug}/overlays/feature/1/")
    overlay = page.locator("[data-overlay=feature]")
    expect(overlay).to_have_attribute("data-live", "polling")
    match_services.match_report(actor=organiser, match=match, games=[0, 1, 0])
    expect(overlay.locator('[data-f="status"]')).to_have_text("final", timeout=5_000)
    expect(overlay.locator('[data-f="b-games"]')).to_have_text("1")
