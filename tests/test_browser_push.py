"""Web Push in a real browser (Debian's chromium through Playwright): the player's page offers
"Notify me on this phone", and the site's service worker (static/js/sw.js) shows a pushed
message as a notification carrying the page a tap opens. The message is handed to the worker
through the DevTools protocol (ServiceWorker.deliverPushMessage), as a push service would after
decrypting; the encryption itself is tests/notifications/test_push.py's.

Without chromium the tests skip locally and fail in CI (REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from notifications.management.commands.vapid_keys import new_key_pair
from tests.browser_scenes import NAMES, pair_and_publish, running_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache"),
]

NOTIFICATIONS = """navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data})))"""


def test_the_service_worker_shows_a_pushed_message(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any], settings: Any
) -> None:
    from playwright.sync_api import expect

    public, private = new_key_pair()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    event, organiser, regs = running_event(NAMES)
    pair_and_publish(event, organiser)
    page = open_page(regs[0].player)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    my_match = f"/events/{event.slug}/my-match/"
    page.goto(live_server.url + my_match)

    # push.js found the worker and no subscription yet: it offers one.
    expect(page.get_by_role("button", name="Notify me on this phone")).to_be_visible()
    expect(page.locator(".push-status")).to_have_text("This phone is not notified.")
    expect(page.get_by_role("button", name="Stop notifying this phone")).to_be_hidden()

    # A push reaches only an activated worker: wait for navigator.serviceWorker.ready (the
    # worker is active) before delivering, and deliver again if the first message was dropped
    # while the worker was starting (the same tag replaces, so one notification is shown).
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    registrations: list[dict[str, Any]] = []
    cdp = page.context.new_cdp_session(page)
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    scope = live_server.url + "/"
    live: list[dict[str, Any]] = []
    for _ in range(100):
        live = [r for r in registrations if r["scopeURL"] == scope and not r["isDeleted"]]
        if live:
            break
        page.wait_for_timeout(100)
    assert live, "the service worker was not registered"
    message = {
        "title": "Round 1: table 3 vs Brian Kernighan",
        "body": event.name,
        "url": my_match,
        "tag": f"{event.slug}:pairings_published",
    }
    shown: list[dict[str, Any]] = []
    for _attempt in range(5):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_server.url,
                "registrationId": live[-1]["registrationId"],
                "data": json.dumps(message),
            },
        )
        for _ in range(30):
            shown = page.evaluate(NOTIFICATIONS)
            if shown:
                break
            page.wait_for_timeout(100)
        if shown:
            break
    assert shown == [
        {
            "title": message["title"],
            "body": event.name,
            "tag": message["tag"],
            "data": {"url": my_match},
        }
    ]
