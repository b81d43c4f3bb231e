"""Web Push end to end against the real libraries: a player subscribes through the API with a
browser's keys (an EC P-256 key pair and an auth secret made here), pairings are published,
and a push service on loopback (a tiny HTTP server in a thread) receives the message, which
the test decrypts with the subscription's private key (RFC 8291, aes128gcm, http_ece) and
whose VAPID signature (RFC 8292) it checks with the site's public key. Also: a 410 removes
the subscription, a missing VAPID key is a clear refusal, who may do what, bounded input."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.core.management import call_command
from django.urls import reverse

from matches import services as match_services
from notifications import push, tasks
from notifications.management.commands.vapid_keys import new_key_pair
from notifications.models import Channel, Delivery, DeliveryStatus, Kind, PushSubscription, SentVia
from tests.factories import logged_in
from tests.notifications.push_support import Browser
from tests.scenarios import client_for, running_event
from tests.support import audit
from tournaments.models import AuditEntry
from tournaments.timer import RoundTimer

pytestmark = pytest.mark.django_db


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on 127.0.0.1: keeps every request; answers 201, or 410 under /gone/,
    or a redirect under /moved/."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.received.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                if self.path.startswith("/moved/"):
                    self.send_response(307)
                    self.send_header("Location", f"{service.base}/push/elsewhere")
                else:
                    self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service() -> Iterator[PushService]:
    running = PushService()
    yield running
    running.close()


@pytest.fixture
def vapid(settings: Any) -> tuple[str, str]:
    public, private = new_key_pair()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_SUBJECT = "mailto:organiser@battledesk.example"
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    return public, private


def subscribe(player: Any, browser: Browser) -> Any:
    return client_for(player).post(
        "/api/push/subscriptions/", browser.subscription_json(), format="json"
    )


def check_vapid(headers: dict[str, str], public_key: str, audience: str) -> dict[str, Any]:
    """RFC 8292: Authorization: vapid t=<ES256 JWT>, k=<the site's public key>; the JWT's
    signature verifies with that key and its aud is the push service's origin."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    head, claims, signature = fields["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    decoded = json.loads(unb64url(claims))
    assert decoded["aud"] == audience
    assert decoded["sub"] == "mailto:organiser@battledesk.example"
    return dict(decoded)


def test_pairings_reach_the_phone_encrypted_and_signed(
    service: PushService, vapid: tuple[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    event, organiser, regs = running_event(4)
    browser = Browser(f"{service.base}/push/phone-1")
    answer = subscribe(regs[0].player, browser)
    assert answer.status_code == 201, answer.content
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)

    (request,) = service.received
    assert request["path"] == "/push/phone-1"
    assert request["headers"]["content-encoding"] == "aes128gcm"
    assert int(request["headers"]["ttl"]) == push.PUSH_TTL_SECONDS
    check_vapid(request["headers"], vapid[0], service.base)
    message = browser.decrypt(request["body"])
    match = round_.matches.get(a=regs[0]) if round_.matches.filter(a=regs[0]).exists() else None
    match = match or round_.matches.get(b=regs[0])
    opponent = match.b if match.a_id == regs[0].pk else match.a
    assert message["title"] == f"Round 1: table {match.table} vs {opponent.name}"
    assert message["body"] == event.name
    assert message["url"] == reverse("my_match", args=[event.slug])
    assert message["tag"] == f"{event.slug}:{Kind.PAIRINGS_PUBLISHED}"

    delivery = Delivery.objects.get(tournament=event, channel=Channel.PUSH)
    assert delivery.recipient_id == regs[0].player.pk
    assert delivery.status == DeliveryStatus.SENT and delivery.sent_via == SentVia.PUSH
    assert PushSubscription.objects.get(endpoint=browser.endpoint).last_success_at is not None
    # The other three have no subscription: no push for them, their e-mails as before.
    assert Delivery.objects.filter(tournament=event, channel=Channel.EMAIL).count() == 4


def test_the_opponents_report_the_ruling_and_five_minutes_left_are_pushed(
    service: PushService, vapid: tuple[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    event, organiser, regs = running_event(2)
    browsers = [Browser(f"{service.base}/push/p{i}") for i in range(2)]
    for reg, browser in zip(regs, browsers, strict=True):
        assert subscribe(reg.player, browser).status_code == 201
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    round_.refresh_from_db()
    if RoundTimer.from_json(round_.timer).state != "running":
        with django_capture_on_commit_callbacks(execute=True):
            round_ = match_services.round_timer(actor=organiser, round_=round_, action="start")
    ends_at = RoundTimer.from_json(round_.timer).ends_at
    assert ends_at is not None
    # Eagerly run, the task sent when the timer started found it too early and did nothing.
    assert not Delivery.objects.filter(kind=Kind.ROUND_ENDING).exists()
    with django_capture_on_commit_callbacks(execute=True):
        status, wait = match_services.round_ending_due(
            round_id=round_.pk, ends_at=ends_at.isoformat(), now=ends_at - timedelta(minutes=20)
        )
    assert status == "wait" and wait == pytest.approx(15 * 60)
    with django_capture_on_commit_callbacks(execute=True):
        status, _ = match_services.round_ending_due(
            round_id=round_.pk, ends_at=ends_at.isoformat(), now=ends_at - timedelta(minutes=5)
        )
    assert status == "sent"
    # Telling it again (the beat's net, a duplicate task) pushes nothing more.
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_ending_due(
            round_id=round_.pk, ends_at=ends_at.isoformat(), now=ends_at - timedelta(minutes=4)
        )
    endings = [
        browser.decrypt(r["body"])
        for browser in browsers
        for r in service.received
        if r["path"] == f"/push/{browser.endpoint.rsplit('/', 1)[1]}"
        and browser.decrypt(r["body"])["tag"].endswith(Kind.ROUND_ENDING)
    ]
    assert [m["title"] for m in endings] == ["Round 1: 5 minutes left"] * 2

    match = round_.matches.select_related("a__player", "b__player").get()
    service.received.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    (request,) = service.received
    confirmer = browsers[0] if match.b_id == regs[0].pk else browsers[1]
    assert request["path"] == f"/push/{confirmer.endpoint.rsplit('/', 1)[1]}"
    message = confirmer.decrypt(request["body"])
    assert message["title"].startswith("Your opponent reported")
    assert message["url"] == reverse("match_report_page", args=[match.pk])

    service.received.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_report(actor=match.b.player, match=match, games=[0, 1, 0])
    call = match.calls.get()
    with django_capture_on_commit_callbacks(execute=True):
        match_services.call_ruling(
            actor=organiser, call=call, text="A wins.", result={"games": [1, 0, 0]}
        )
    ruled = [
        browser.decrypt(r["body"])
        for r in service.received
        for browser in browsers
        if r["path"].endswith(browser.endpoint.rsplit("/", 1)[1])
    ]
    assert sum(m["title"].startswith("A judge ruled on your match") for m in ruled) == 2


def test_a_subscription_the_push_service_forgot_is_removed(
    service: PushService, vapid: tuple[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    event, organiser, regs = running_event(2)
    gone = Browser(f"{service.base}/gone/old-phone")
    assert subscribe(regs[0].player, gone).status_code == 201
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert [r["path"] for r in service.received] == ["/gone/old-phone"]
    assert not PushSubscription.objects.filter(endpoint=gone.endpoint).exists()
    delivery = Delivery.objects.get(tournament=event, channel=Channel.PUSH)
    assert delivery.status == DeliveryStatus.FAILED
    assert delivery.next_attempt_at is None  # permanent: not tried again
    assert "no longer knows" in delivery.error


def test_one_phone_gone_another_still_reached(
    service: PushService, vapid: tuple[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    event, organiser, regs = running_event(2)
    old, new = Browser(f"{service.base}/gone/a"), Browser(f"{service.base}/push/b")
    assert subscribe(regs[0].player, old).status_code == 201
    assert subscribe(regs[0].player, new).status_code == 201
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert sorted(r["path"] for r in service.received) == ["/gone/a", "/push/b"]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [new.endpoint]
    assert Delivery.objects.get(channel=Channel.PUSH).status == DeliveryStatus.SENT


def test_pushes_go_out_in_batches(
    service: PushService,
    vapid: tuple[str, str],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tasks, "PUSH_BATCH", 2)
    batches: list[list[int]] = []
    real = tasks.deliver_batch_task.run

    def spy(delivery_ids: list[int]) -> int:
        batches.append(list(delivery_ids))
        return int(real(delivery_ids))

    monkeypatch.setattr(tasks.deliver_batch_task, "run", spy)
    event, organiser, regs = running_event(5)
    browsers = [Browser(f"{service.base}/push/{i}") for i in range(5)]
    for reg, browser in zip(regs, browsers, strict=True):
        assert subscribe(reg.player, browser).status_code == 201
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert [len(b) for b in batches] == [2, 2, 1]
    assert len(service.received) == 5
    bye = [
        b.decrypt(r["body"])
        for r in service.received
        for b in browsers
        if r["path"].endswith(f"/{browsers.index(b)}")
    ]
    assert sum(m["title"] == "Round 1: a bye" for m in bye) == 1


def test_the_organiser_chooses_the_kinds_pushed(
    service: PushService, vapid: tuple[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    event, organiser, regs = running_event(2)
    assert subscribe(regs[0].player, Browser(f"{service.base}/push/x")).status_code == 201
    url = f"/api/events/{event.slug}/notifications/"
    answer = client_for(organiser).patch(url, {"push_kinds": [Kind.ROUND_ENDING]}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["push_kinds"] == [Kind.ROUND_ENDING] and answer.json()["push_enabled"]
    entry = AuditEntry.objects.get(action="notifications.settings_changed")
    assert entry.data["after"]["push_kinds"] == [Kind.ROUND_ENDING]
    assert Kind.PAIRINGS_PUBLISHED in entry.data["before"]["push_kinds"]
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert service.received == []
    assert not Delivery.objects.filter(channel=Channel.PUSH).exists()
    bad = client_for(organiser).patch(url, {"push_kinds": ["everything"]}, format="json")
    assert bad.status_code == 400 and "push_kinds" in bad.json()
    assert (
        client_for(regs[0].player).patch(url, {"push_kinds": []}, format="json").status_code == 403
    )


def test_the_organisers_page_saves_the_push_kinds(vapid: tuple[str, str]) -> None:
    event, organiser, _regs = running_event(2)
    page = f"/events/{event.slug}/manage/notifications/"
    client = logged_in(organiser)
    assert b'name="push_kinds"' in client.get(page).content
    answer = client.post(page, {"push_kinds": [Kind.PAIRINGS_PUBLISHED], "webhook_url": ""})
    assert answer.status_code == 302
    api = client_for(organiser)
    assert api.get(f"/api/events/{event.slug}/notifications/").json()["push_kinds"] == [
        Kind.PAIRINGS_PUBLISHED
    ]


def test_without_vapid_keys_push_is_off_with_a_clear_refusal(
    settings: Any, service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_PRIVATE_KEY = ""
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    event, organiser, regs = running_event(2)
    player = client_for(regs[0].player)
    refused = subscribe(regs[0].player, Browser(f"{service.base}/push/x"))
    assert refused.status_code == 503
    body = refused.json()
    assert body["field"] == "push" and body["code"] == "push_off"
    assert "VAPID_PUBLIC_KEY" in body["detail"]
    assert player.get("/api/push/").json() == {
        "enabled": False,
        "public_key": None,
        "subscriptions": 0,
    }
    page = logged_in(regs[0].player).get(reverse("my_match", args=[event.slug])).content.decode()
    assert "switched off on this site" in page and "js/push.js" not in page
    # A subscription left from before the keys went: nothing is queued for it, nothing crashes.
    PushSubscription.objects.create(
        user=regs[0].player, endpoint=f"{service.base}/push/old", p256dh="x", auth="y"
    )
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert not Delivery.objects.filter(channel=Channel.PUSH).exists()
    assert service.received == []
    assert Delivery.objects.filter(channel=Channel.EMAIL).count() == 2
    settings_page = logged_in(organiser).get(f"/events/{event.slug}/manage/notifications/")
    assert "Push is switched off on this site" in settings_page.content.decode()


def test_a_key_removed_after_queueing_fails_the_push_for_good(
    settings: Any, service: PushService, vapid: tuple[str, str]
) -> None:
    event, _organiser, regs = running_event(2)
    assert subscribe(regs[0].player, Browser(f"{service.base}/push/x")).status_code == 201
    delivery = Delivery.objects.create(
        tournament=event,
        kind=Kind.PAIRINGS_PUBLISHED,
        channel=Channel.PUSH,
        key="k",
        source="s",
        recipient=regs[0].player,
        subject="Round 1",
        body=event.name,
    )
    settings.VAPID_PRIVATE_KEY = ""
    assert tasks.deliver_task(delivery.pk) == DeliveryStatus.FAILED
    delivery.refresh_from_db()
    assert "VAPID" in delivery.error and delivery.next_attempt_at is None
    assert service.received == []


def test_signed_out_people_cannot_subscribe(vapid: tuple[str, str]) -> None:
    from rest_framework.test import APIClient

    anonymous = APIClient()
    browser = Browser("https://fcm.googleapis.com/fcm/send/abc")
    refused = anonymous.post("/api/push/subscriptions/", browser.subscription_json(), format="json")
    assert refused.status_code in (401, 403)
    assert anonymous.get("/api/push/").status_code in (401, 403)
    assert not PushSubscription.objects.exists()


def test_a_player_unsubscribes_only_their_own(vapid: tuple[str, str]) -> None:
    _event, _organiser, regs = running_event(2)
    mine = Browser("https://fcm.googleapis.com/fcm/send/mine")
    theirs = Browser("https://updates.push.services.mozilla.com/wpush/v2/theirs")
    assert subscribe(regs[0].player, mine).status_code == 201
    assert subscribe(regs[1].player, theirs).status_code == 201
    player = client_for(regs[0].player)
    assert player.get("/api/push/").json()["subscriptions"] == 1
    answer = player.post(
        "/api/push/subscriptions/unsubscribe/", {"endpoint": theirs.endpoint}, format="json"
    )
    assert answer.status_code == 200 and answer.json() == {"removed": 0}
    assert PushSubscription.objects.filter(endpoint=theirs.endpoint).exists()
    answer = player.post(
        "/api/push/subscriptions/unsubscribe/", {"endpoint": mine.endpoint}, format="json"
    )
    assert answer.json() == {"removed": 1}
    assert not PushSubscription.objects.filter(user=regs[0].player).exists()


def test_the_same_browser_subscribed_again_changes_hands(vapid: tuple[str, str]) -> None:
    _event, _organiser, regs = running_event(2)
    browser = Browser("https://web.push.apple.com/QGuQyavXutnMH")
    assert subscribe(regs[0].player, browser).status_code == 201
    assert subscribe(regs[1].player, browser).status_code == 201
    (subscription,) = PushSubscription.objects.all()
    assert subscription.user_id == regs[1].player.pk


@pytest.mark.parametrize(
    ("endpoint", "keys", "field"),
    [
        ("http://fcm.googleapis.com/fcm/send/x", None, "endpoint"),
        ("https://10.0.0.1/push", None, "endpoint"),
        ("https://localhost/push", None, "endpoint"),
        ("https://fcm.googleapis.com:8443/x", None, "endpoint"),
        ("https://user:pw@fcm.googleapis.com/x", None, "endpoint"),
        ("https://fcm.googleapis.com/" + "x" * 1200, None, "endpoint"),
        ("https://fcm.googleapis.com/x", {"p256dh": "AAAA", "auth": None}, "p256dh"),
        ("https://fcm.googleapis.com/x", {"p256dh": None, "auth": "c2hvcnQ"}, "auth"),
        ("https://fcm.googleapis.com/x", {"p256dh": "!" * 87, "auth": None}, "p256dh"),
    ],
)
def test_bad_subscriptions_are_refused_naming_the_field(
    settings: Any, vapid: tuple[str, str], endpoint: str, keys: dict[str, Any] | None, field: str
) -> None:
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    _event, _organiser, regs = running_event(1)
    body = Browser(endpoint).subscription_json()
    for name, value in (keys or {}).items():
        if value is not None:
            body["keys"][name] = value
    answer = client_for(regs[0].player).post("/api/push/subscriptions/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()
    assert not PushSubscription.objects.exists()


def test_a_player_has_at_most_ten_subscriptions(vapid: tuple[str, str]) -> None:
    _event, _organiser, regs = running_event(1)
    for i in range(12):
        browser = Browser(f"https://fcm.googleapis.com/fcm/send/{i}")
        assert subscribe(regs[0].player, browser).status_code == 201
    kept = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert len(kept) == 10 and "https://fcm.googleapis.com/fcm/send/11" in kept


def test_the_control_is_on_the_players_pages(vapid: tuple[str, str]) -> None:
    event, organiser, regs = running_event(2)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    match_services.round_publish(actor=organiser, round_=round_)
    player = logged_in(regs[0].player)
    url = reverse("my_match", args=[event.slug])
    page = player.get(url).content.decode()
    assert "Notify me on this phone" in page
    assert f'data-key="{vapid[0]}"' in page and "js/push.js" in page
    assert audit(player, url) == []
    # Not for someone who does not play in it.
    outsider = logged_in(organiser).get(url).content.decode()
    assert "Notify me on this phone" not in outsider


def test_the_control_is_there_before_the_first_pairings(vapid: tuple[str, str]) -> None:
    event, _organiser, regs = running_event(2)
    page = logged_in(regs[0].player).get(reverse("my_match", args=[event.slug]))
    assert "Notify me on this phone" in page.content.decode()


def test_vapid_keys_command_prints_a_usable_pair() -> None:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    values = dict(line.split("=", 1) for line in out.getvalue().split())
    public = unb64url(values["VAPID_PUBLIC_KEY"])
    assert len(public) == 65 and public[0] == 4
    private = int.from_bytes(unb64url(values["VAPID_PRIVATE_KEY"]), "big")
    derived = ec.derive_private_key(private, ec.SECP256R1()).public_key()
    assert (
        derived.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        == public
    )


def test_the_round_ending_task_waits_without_a_worker_and_the_beat_net_warns(
    service: PushService, vapid: tuple[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    from matches import tasks as match_tasks

    event, organiser, regs = running_event(2)
    browser = Browser(f"{service.base}/push/net")
    assert subscribe(regs[0].player, browser).status_code == 201
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    round_.refresh_from_db()
    if RoundTimer.from_json(round_.timer).state != "running":
        round_ = match_services.round_timer(actor=organiser, round_=round_, action="start")
    ends_at = RoundTimer.from_json(round_.timer).ends_at
    assert ends_at is not None
    # Run eagerly (no worker) the task cannot wait: it says so and schedules nothing.
    assert match_tasks.round_ending_task.delay(round_.pk, ends_at.isoformat()).get() == "wait"
    # A task for an end time the timer no longer has does nothing.
    assert (
        match_services.round_ending_due(round_id=round_.pk, ends_at="2000-01-01T00:00:00")[0]
        == "stale"
    )
    assert match_services.round_endings_due(now=ends_at - timedelta(minutes=6)) == 0
    service.received.clear()  # the pairings
    with django_capture_on_commit_callbacks(execute=True):
        assert match_services.round_endings_due(now=ends_at - timedelta(minutes=3)) == 1
    (request,) = service.received
    assert browser.decrypt(request["body"])["title"] == "Round 1: 3 minutes left"
    assert match_services.round_endings_due(now=ends_at + timedelta(seconds=1)) == 0


def test_a_push_service_redirect_is_never_followed(
    service: PushService, vapid: tuple[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    event, organiser, regs = running_event(2)
    assert subscribe(regs[0].player, Browser(f"{service.base}/moved/x")).status_code == 201
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert [r["path"] for r in service.received] == ["/moved/x"]
    delivery = Delivery.objects.get(channel=Channel.PUSH)
    assert delivery.status == DeliveryStatus.FAILED and "307" in delivery.error
    assert delivery.next_attempt_at is None
