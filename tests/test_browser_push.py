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


def player_on_my_match(
    live_server: Any, open_page: Callable[..., Any], settings: Any
) -> tuple[Any, list[Any], Any, str]:
    """Push switched on (a new VAPID key pair), round 1 of a running event published, and its
    first player's phone on "my match" with notifications allowed: (event, registrations,
    page, the VAPID public key)."""
    public, private = new_key_pair()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    event, organiser, regs = running_event(NAMES)
    pair_and_publish(event, organiser)
    page = open_page(regs[0].player)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto(f"{live_server.url}/events/{event.slug}/my-match/")
    return event, regs, page, public


def test_the_service_worker_shows_a_pushed_message(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any], settings: Any
) -> None:
    from playwright.sync_api import expect

    event, _regs, page, _public = player_on_my_match(live_server, open_page, settings)
    my_match = f"/events/{event.slug}/my-match/"

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


def _service_worker(page: Any) -> Any:
    """The site's service worker as Playwright reaches it (its global scope), once active."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(100):
        workers = [w for w in page.context.service_workers if w.url.endswith("/sw.js")]
        if workers:
            return workers[-1]
        page.wait_for_timeout(100)
    raise AssertionError("the service worker did not start")


# Chromium never fires pushsubscriptionchange (its push service renews subscriptions itself)
# and the DevTools protocol cannot dispatch it, so the test calls the listener's body,
# renewPush(oldSubscription, newSubscription), inside the real worker. Only the browser's own
# pushManager.subscribe is replaced (a headless browser has no push service to subscribe
# with); the key it is asked for, the API calls with the session and the CSRF token, and what
# the server then keeps are the real ones.
RENEW = """async ([oldEndpoint, fresh]) => {
  const asked = [];
  Object.defineProperty(self.registration.pushManager, "subscribe", {
    configurable: true,
    value: (options) => {
      asked.push({userVisibleOnly: options.userVisibleOnly, key: options.applicationServerKey});
      return Promise.resolve({endpoint: fresh.endpoint, toJSON: () => fresh});
    },
  });
  const old = {endpoint: oldEndpoint, options: {applicationServerKey: null}};
  const done = await renewPush(old, null);
  return {done, asked};
}"""


def test_the_service_worker_renews_a_subscription_the_push_service_replaced(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any], settings: Any
) -> None:
    from notifications import services
    from notifications.models import PushSubscription
    from tests.notifications.push_support import Browser

    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    _event, regs, page, public = player_on_my_match(live_server, open_page, settings)
    player = regs[0].player
    old, new = Browser("https://127.0.0.1/push/old"), Browser("https://127.0.0.1/push/new")
    keys = old.subscription_json()["keys"]
    services.push_subscribe(
        actor=player, endpoint=old.endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
    )
    worker = _service_worker(page)

    answer = worker.evaluate(RENEW, [old.endpoint, new.subscription_json()])

    assert answer["done"] == {"subscribed": new.endpoint, "removed": old.endpoint}
    # Subscribed again with the site's VAPID public key, for notifications the person sees.
    assert [a["key"] for a in answer["asked"]] == [public]
    assert [a["userVisibleOnly"] for a in answer["asked"]] == [True]
    kept = PushSubscription.objects.filter(user=player)
    assert list(kept.values_list("endpoint", "p256dh")) == [(new.endpoint, new.p256dh)]


# The tap itself cannot be made in a test (the DevTools protocol has no notification click), and
# a worker may focus or open a window only while a tap is handled; so the test calls the
# listener's body, openFromNotification(notification), on a notification the worker really
# shows, with focus() and openWindow() recorded instead of refused. matchAll, the choice of
# tab, the origin guard and navigate() (which needs no tap) are the browser's own.
CLICK = """async (url) => {
  await self.registration.showNotification("Round 2", {data: {url}, tag: url});
  const shown = (await self.registration.getNotifications({tag: url}))[0];
  const calls = [];
  WindowClient.prototype.focus = function () { calls.push(["focus", this.url]); return Promise.resolve(this); };
  self.clients.openWindow = (href) => { calls.push(["open", href]); return Promise.resolve(null); };
  const did = await openFromNotification(shown);
  shown.close();
  return {did, calls};
}"""


def test_a_tap_on_a_notification_focuses_its_page_or_takes_a_tab_of_the_site_there(  # type: ignore[no-untyped-def]
    live_server, open_page: Callable[..., Any], settings: Any
) -> None:
    event, _regs, page, _public = player_on_my_match(live_server, open_page, settings)
    my_match = f"{live_server.url}/events/{event.slug}/my-match/"
    standings = f"{live_server.url}/events/{event.slug}/standings/"
    worker = _service_worker(page)

    # A tab already on the message's page: focused, not reloaded.
    assert worker.evaluate(CLICK, f"/events/{event.slug}/my-match/") == {
        "did": "focused",
        "calls": [["focus", my_match]],
    }
    assert page.url == my_match

    # A tab of the site on another page: taken to the message's page, then focused.
    assert worker.evaluate(CLICK, f"/events/{event.slug}/standings/") == {
        "did": "navigated",
        "calls": [["focus", standings]],
    }
    page.wait_for_url(standings)

    # A message naming another site opens this site's home page instead.
    assert worker.evaluate(CLICK, "https://elsewhere.example/login") == {
        "did": "navigated",
        "calls": [["focus", live_server.url + "/"]],
    }
    page.wait_for_url(live_server.url + "/")
