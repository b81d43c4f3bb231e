"""Notifications: each trigger queues its messages inside the change's transaction and sends them
after commit, exactly once even when the task runs twice; failures are logged and retried with
backoff; webhooks get Discord's JSON or the generic one; only organisers configure or read."""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
from datetime import timedelta
from email.message import Message as HeaderMessage
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from config.errors import ServiceError
from matches import notices as match_notices
from matches import services as match_services
from matches.models import Match
from notifications import delivery as sending
from notifications import services, tasks
from notifications.models import (
    DEFAULT_EMAIL_KINDS,
    Channel,
    Delivery,
    DeliveryStatus,
    Kind,
    NotificationSettings,
)
from tests.factories import UserFactory, logged_in
from tests.scenarios import client_for, running_event
from tests.support import FakeHttp
from tournaments import services as event_services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

DISCORD = "https://discord.com/api/webhooks/123456/secret-token"
GENERIC = "https://hooks.example.org/battledesk"


def _settings(event: Any, **fields: Any) -> NotificationSettings:
    prefs, _ = NotificationSettings.objects.get_or_create(tournament=event)
    for key, value in fields.items():
        setattr(prefs, key, value)
    prefs.save()
    return prefs


def _publish(capture: Any, players: int = 5, **fields: Any) -> tuple[Any, Any, Any]:
    event, organiser, regs = running_event(players, **fields)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with capture(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    return event, organiser, round_


def _run_every_task_again(event: Any) -> None:
    for delivery in Delivery.objects.filter(tournament=event):
        tasks.deliver_task.delay(delivery.pk)
        tasks.dispatch_task.delay(event.pk, delivery.source)


# --- the four triggers ------------------------------------------------------------------------


def test_publishing_pairings_emails_every_player_once_even_if_the_tasks_run_twice(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, _, round_ = _publish(django_capture_on_commit_callbacks, players=5)
    players = {r.player.email: r for m in round_.matches.all() for r in (m.a, m.b) if r is not None}
    assert sorted(m.to[0] for m in mail.outbox) == sorted(players)
    bye = round_.matches.get(b__isnull=True)
    bye_mail = next(m for m in mail.outbox if m.to == [bye.a.player.email])
    assert "bye" in bye_mail.body and "bye" in bye_mail.subject
    seated = round_.matches.filter(b__isnull=False).first()
    assert seated is not None
    a_mail = next(m for m in mail.outbox if m.to == [seated.a.player.email])
    assert seated.b.name in a_mail.body and f"table {seated.table}" in a_mail.body
    assert f"/events/{event.slug}/my-match/" in a_mail.body

    _run_every_task_again(event)

    assert len(mail.outbox) == 5
    deliveries = Delivery.objects.filter(tournament=event)
    assert deliveries.count() == 5
    assert set(deliveries.values_list("status", "attempts")) == {(DeliveryStatus.SENT, 1)}


def test_nothing_is_queued_or_sent_when_the_change_is_rolled_back(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, organiser, _ = running_event(4)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        match_services.round_publish(actor=organiser, round_=round_)
        raise RuntimeError("the request failed after publishing")
    assert not Delivery.objects.exists()
    assert mail.outbox == []


def test_players_without_an_email_address_are_skipped(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, organiser, regs = running_event(4)
    regs[0].player.email = ""
    regs[0].player.save()
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert len(mail.outbox) == 3
    assert not Delivery.objects.filter(recipient=regs[0].player).exists()


def test_a_report_asks_the_opponent_to_confirm_once_and_a_confirmation_sends_nothing(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, _, round_ = _publish(django_capture_on_commit_callbacks, players=4)
    mail.outbox.clear()
    match = round_.matches.select_related("a__player", "b__player").first()
    assert match is not None
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    assert [m.to for m in mail.outbox] == [[match.b.player.email]]
    body = mail.outbox[0].body
    assert match.a.name in body and "1-0" in body and f"/matches/{match.pk}/report/" in body
    _run_every_task_again(event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_confirm(actor=match.b.player, match=Match.objects.get(pk=match.pk))
    assert len(mail.outbox) == 1
    assert Delivery.objects.filter(kind=Kind.RESULT_TO_CONFIRM).count() == 1


def test_a_ruling_on_a_dispute_tells_both_players_and_a_plain_call_tells_nobody(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, organiser, round_ = _publish(django_capture_on_commit_callbacks, players=4)
    disputed, called = round_.matches.select_related("a__player", "b__player")[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_report(actor=disputed.a.player, match=disputed, games=[1, 0, 0])
        match_services.match_report(actor=disputed.b.player, match=disputed, games=[0, 1, 0])
        call, _ = match_services.call_open(actor=called.a.player, match=called, question="?")
    mail.outbox.clear()
    dispute = disputed.calls.get()
    with django_capture_on_commit_callbacks(execute=True):
        match_services.call_ruling(
            actor=organiser,
            call=dispute,
            text="The reveal came first: the battle goes to A.",
            result={"games": [1, 0, 0]},
        )
        match_services.call_ruling(actor=organiser, call=call, text="Play on.")
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [disputed.a.player.email, disputed.b.player.email]
    )
    assert all("The reveal came first" in m.body for m in mail.outbox)
    assert all("1-0" in m.body for m in mail.outbox)
    _run_every_task_again(event)
    assert len(mail.outbox) == 2


def test_a_dispute_settled_by_a_staff_entry_tells_both_players_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Staff entering the result of a disputed match settle its dispute without a ruling:
    the players hear the final result all the same, once."""
    event, organiser, round_ = _publish(django_capture_on_commit_callbacks, players=4)
    disputed = round_.matches.select_related("a__player", "b__player").first()
    assert disputed is not None
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_report(actor=disputed.a.player, match=disputed, games=[1, 0, 0])
        match_services.match_report(actor=disputed.b.player, match=disputed, games=[0, 1, 0])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_report(actor=organiser, match=disputed, games=[0, 1, 0])
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [disputed.a.player.email, disputed.b.player.email]
    )
    assert all("settled" in m.subject and "0-1" in m.body for m in mail.outbox)
    _run_every_task_again(event)
    assert len(mail.outbox) == 2


def test_a_drop_tells_the_player(django_capture_on_commit_callbacks: Any) -> None:
    event, _, regs = running_event(4)
    with django_capture_on_commit_callbacks(execute=True):
        event_services.registration_drop(actor=regs[1].player, registration=regs[1], round_number=2)
    assert [m.to for m in mail.outbox] == [[regs[1].player.email]]
    assert "dropped" in mail.outbox[0].subject and "after round 2" in mail.outbox[0].body


def test_a_disqualification_tells_the_player_once_as_a_disqualification(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, organiser, round_ = _publish(django_capture_on_commit_callbacks, players=4)
    mail.outbox.clear()
    match = round_.matches.select_related("a__player").first()
    assert match is not None
    with django_capture_on_commit_callbacks(execute=True):
        match_services.penalty_give(
            actor=organiser, match=match, registration=match.a_id, infraction="cheating"
        )
    assert [m.to for m in mail.outbox] == [[match.a.player.email]]
    assert "disqualified" in mail.outbox[0].subject
    assert "disqualified" in mail.outbox[0].body and "after round 1" in mail.outbox[0].body
    _run_every_task_again(event)
    assert len(mail.outbox) == 1


def test_kinds_switched_off_are_not_sent(django_capture_on_commit_callbacks: Any) -> None:
    event, organiser, _ = running_event(4)
    _settings(event, email_kinds=[Kind.DISPUTE_RULED])
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert mail.outbox == [] and not Delivery.objects.exists()


# --- webhooks ---------------------------------------------------------------------------------


def test_a_discord_webhook_gets_discords_json_once(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    http = FakeHttp(monkeypatch, 204)
    event, organiser, _ = running_event(4)
    _settings(event, webhook_url=DISCORD, email_kinds=[])
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    _run_every_task_again(event)

    assert len(http.requests) == 1
    request = http.requests[0]
    assert request.full_url == DISCORD and request.get_method() == "POST"
    assert request.get_header("Content-type") == "application/json"
    body = http.bodies()[0]
    assert set(body) == {"content", "allowed_mentions"}
    assert body["allowed_mentions"] == {"parse": []}
    assert f"Round 1 of {event.name}" in body["content"]
    assert f"/events/{event.slug}/rounds/1/pairings/" in body["content"]
    assert len(body["content"]) <= 2000
    delivery = Delivery.objects.get(channel=Channel.WEBHOOK)
    assert delivery.status == DeliveryStatus.SENT and delivery.recipient is None


def test_a_generic_webhook_gets_the_same_content_and_structured_fields(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    http = FakeHttp(monkeypatch, 200)
    event, organiser, _ = running_event(4)
    _settings(event, webhook_url=GENERIC, webhook_kinds=[Kind.PAIRINGS_PUBLISHED])
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    (body,) = http.bodies()
    assert body["kind"] == "pairings_published"
    assert body["event"] == {"slug": event.slug, "name": event.name}
    assert body["data"]["round"] == 1 and body["data"]["matches"] == 2
    assert body["idempotency_key"] == Delivery.objects.get(channel=Channel.WEBHOOK).key
    assert f"Round 1 of {event.name}" in body["content"]


def test_a_failure_is_logged_and_retried_with_backoff_then_sent(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    http = FakeHttp(monkeypatch, urllib.error.URLError("connection refused"), 204)
    event, organiser, _ = running_event(4)
    _settings(event, webhook_url=DISCORD, email_kinds=[])
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=False):
        match_services.round_publish(actor=organiser, round_=round_)
    delivery = Delivery.objects.get()

    before = timezone.now()
    status, wait = sending.deliver(delivery.pk)
    delivery.refresh_from_db()
    assert (status, wait) == (DeliveryStatus.FAILED, 30)
    assert delivery.status == DeliveryStatus.FAILED and delivery.attempts == 1
    assert "connection refused" in delivery.error
    assert delivery.next_attempt_at is not None
    assert delivery.next_attempt_at >= before + timedelta(seconds=29)

    assert sending.deliver(delivery.pk) == (DeliveryStatus.SENT, None)
    delivery.refresh_from_db()
    assert delivery.attempts == 2 and delivery.sent_at is not None and delivery.error == ""
    assert len(http.requests) == 2
    assert sending.deliver(delivery.pk) == (DeliveryStatus.SENT, None)
    assert len(http.requests) == 2


def test_the_task_retries_by_itself_and_gives_up_after_the_last_attempt(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    http = FakeHttp(monkeypatch, TimeoutError("timed out"))
    event, organiser, _ = running_event(4)
    _settings(event, webhook_url=DISCORD, email_kinds=[])
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):  # eager: retries run at once
        match_services.round_publish(actor=organiser, round_=round_)
    delivery = Delivery.objects.get()
    assert len(http.requests) == sending.MAX_ATTEMPTS
    assert delivery.status == DeliveryStatus.FAILED
    assert delivery.attempts == sending.MAX_ATTEMPTS and delivery.next_attempt_at is None
    assert "timed out" in delivery.error
    tasks.deliver_task.delay(delivery.pk)
    assert len(http.requests) == sending.MAX_ATTEMPTS


def test_backoff_doubles_up_to_its_cap() -> None:
    assert [sending.backoff(n) for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert sending.backoff(20) == sending.MAX_BACKOFF_SECONDS


def test_a_webhook_that_is_gone_is_not_retried(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = urllib.error.HTTPError(DISCORD, 404, "Not Found", HeaderMessage(), None)
    http = FakeHttp(monkeypatch, gone)
    event, organiser, _ = running_event(4)
    _settings(event, webhook_url=DISCORD, email_kinds=[])
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    delivery = Delivery.objects.get()
    assert len(http.requests) == 1
    assert delivery.status == DeliveryStatus.FAILED and delivery.next_attempt_at is None
    assert delivery.error.startswith("HTTP 404")


def test_rate_limits_wait_as_long_as_the_webhook_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    headers = HeaderMessage()
    headers["Retry-After"] = "300"
    FakeHttp(monkeypatch, urllib.error.HTTPError(DISCORD, 429, "Too Many", headers, None))
    with pytest.raises(sending.DeliveryError) as caught:
        sending.post_webhook(DISCORD, {"content": "x"})
    assert not caught.value.permanent and caught.value.retry_after == 300


def test_redirects_are_never_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    handler = sending._NoRedirects()
    request = urllib.request.Request(GENERIC, data=b"{}", method="POST")
    assert handler.redirect_request(request, None, 302, "Found", {}, "https://10.0.0.1/") is None
    FakeHttp(monkeypatch, urllib.error.HTTPError(GENERIC, 302, "Found", HeaderMessage(), None))
    with pytest.raises(sending.DeliveryError) as caught:
        sending.post_webhook(GENERIC, {"content": "x"})
    assert caught.value.permanent and "redirect" in caught.value.message


def test_a_webhook_host_on_a_private_network_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    http = FakeHttp(monkeypatch, 204)
    monkeypatch.setattr(sending, "_resolve", lambda host: ["10.1.2.3"])
    with pytest.raises(sending.DeliveryError) as caught:
        sending.post_webhook(GENERIC, {"content": "x"})
    assert caught.value.permanent and http.requests == []


@pytest.mark.parametrize(
    "url",
    [
        "http://discord.com/api/webhooks/1/x",
        "https://127.0.0.1/hook",
        "https://[::1]/hook",
        "https://localhost/hook",
        "ftp://example.org/x",
        "https://" + "a" * 500 + ".example.org/",
        "not a url",
    ],
)
def test_webhook_urls_must_be_public_https_and_bounded(url: str) -> None:
    with pytest.raises(ServiceError) as caught:
        sending.check_webhook_url(url)
    assert caught.value.field == "webhook_url"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https://user:pass@discord.com/api/webhooks/1/x", "user name or password"),
        ("https://hook@discord.com/api/webhooks/1/x", "user name or password"),
        ("https://discord.com:8443/api/webhooks/1/x", "443"),
        ("https://discord.com:22/api/webhooks/1/x", "443"),
        ("https://disc\u202eord.com/api/webhooks/1/x", "invisible"),
        ("https://discord.com\u2066.evil.example/x", "invisible"),
        ("https://discord.com/api/webhooks/1/\u202ex", "invisible"),
    ],
)
def test_webhook_urls_refuse_credentials_other_ports_and_hidden_characters(
    url: str, why: str
) -> None:
    with pytest.raises(ServiceError) as caught:
        sending.check_webhook_url(url)
    assert caught.value.field == "webhook_url"
    assert why in caught.value.message


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.com/api/webhooks/1/abc",
        "https://discord.com:443/api/webhooks/1/abc",
        "https://hooks.example.org/battledesk?token=abc",
        "https://bücher.example/hook",
    ],
)
def test_ordinary_https_webhook_urls_are_kept(url: str) -> None:
    assert sending.check_webhook_url(url) == url


def test_claiming_lets_exactly_one_sender_through(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, _, regs = running_event(4)
    with django_capture_on_commit_callbacks(execute=False):
        event_services.registration_drop(actor=regs[0].player, registration=regs[0])
    delivery = Delivery.objects.get()
    assert sending.claim(delivery.pk) is True
    assert sending.claim(delivery.pk) is False
    assert sending.deliver(delivery.pk) == (DeliveryStatus.SENDING, None)
    assert mail.outbox == []


def test_the_sweep_resends_lost_and_due_deliveries_but_never_one_cut_off_mid_send(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, _, regs = running_event(4)
    with django_capture_on_commit_callbacks(execute=False):
        for reg in regs[:3]:
            event_services.registration_drop(actor=reg.player, registration=reg)
    lost, due, cut_off = Delivery.objects.order_by("id")
    long_ago = timezone.now() - timedelta(hours=1)
    Delivery.objects.filter(pk=lost.pk).update(created_at=long_ago)
    Delivery.objects.filter(pk=due.pk).update(
        status=DeliveryStatus.FAILED, attempts=1, next_attempt_at=long_ago
    )
    Delivery.objects.filter(pk=cut_off.pk).update(
        status=DeliveryStatus.SENDING, attempts=1, last_attempt_at=long_ago
    )
    assert tasks.sweep_task.delay().get() == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [regs[0].player.email, regs[1].player.email]
    )
    cut_off.refresh_from_db()
    assert cut_off.status == DeliveryStatus.FAILED and cut_off.next_attempt_at is None
    assert tasks.sweep_task.delay().get() == 0


# --- settings, the API and the page -----------------------------------------------------------


def test_organisers_read_and_set_the_settings_on_the_api() -> None:
    event, organiser, _ = running_event(2)
    client = client_for(organiser)
    url = f"/api/events/{event.slug}/notifications/"
    default = client.get(url)
    assert default.status_code == 200
    assert default.json()["webhook_url"] == ""
    assert default.json()["email_kinds"] == DEFAULT_EMAIL_KINDS
    assert Kind.ROUND_ENDING not in DEFAULT_EMAIL_KINDS  # "5 minutes left" is for phones
    assert {k["key"] for k in default.json()["kinds"]} == set(Kind.values)
    body = {
        "webhook_url": DISCORD,
        "email_kinds": ["pairings_published"],
        "webhook_kinds": ["pairings_published", "dispute_ruled"],
    }
    saved = client.put(url, body, format="json")
    assert saved.status_code == 200, saved.content
    prefs = NotificationSettings.objects.get(tournament=event)
    assert prefs.webhook_url == DISCORD and prefs.webhook_kinds == body["webhook_kinds"]
    entry = AuditEntry.objects.get(action="notifications.settings_changed")
    assert entry.data["after"]["webhook_host"] == "discord.com"
    assert "secret-token" not in json.dumps(entry.data)
    patched = client.patch(url, {"webhook_url": ""}, format="json")
    assert patched.status_code == 200 and patched.json()["webhook_url"] == ""
    assert patched.json()["email_kinds"] == ["pairings_published"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"webhook_url": "http://example.org/x"}, "webhook_url"),
        ({"webhook_url": "https://192.168.1.1/x"}, "webhook_url"),
        ({"webhook_url": "https://x.org/" + "a" * 600}, "webhook_url"),
        ({"email_kinds": ["everything"]}, "email_kinds"),
        ({"webhook_kinds": "pairings_published"}, "webhook_kinds"),
    ],
)
def test_bad_settings_are_a_400_naming_the_field_and_nothing_is_saved(
    body: dict[str, Any], field: str
) -> None:
    event, organiser, _ = running_event(2)
    response = client_for(organiser).patch(
        f"/api/events/{event.slug}/notifications/", body, format="json"
    )
    assert response.status_code == 400
    assert field in response.json()
    assert not NotificationSettings.objects.exists()


def test_only_organisers_configure_or_read_the_log() -> None:
    event, organiser, regs = running_event(2)
    judge = UserFactory()
    event.judges.add(judge)
    settings_url = f"/api/events/{event.slug}/notifications/"
    log_url = f"/api/events/{event.slug}/notifications/deliveries/"
    for person in (regs[0].player, judge, UserFactory()):
        client = client_for(person)
        assert client.get(settings_url).status_code == 403
        assert client.get(log_url).status_code == 403
        put = client.put(
            settings_url,
            {"webhook_url": GENERIC, "email_kinds": [], "webhook_kinds": []},
            format="json",
        )
        assert put.status_code == 403
    from rest_framework.test import APIClient

    assert APIClient().get(log_url).status_code in (401, 403)
    assert not NotificationSettings.objects.exists()
    with pytest.raises(ServiceError):
        services.settings_update(actor=judge, tournament=event, webhook_url=GENERIC)


def test_the_delivery_log_on_the_api_is_newest_first_paginated_and_filtered(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, organiser, round_ = _publish(django_capture_on_commit_callbacks, players=4)
    client = client_for(organiser)
    log_url = f"/api/events/{event.slug}/notifications/deliveries/"
    page = client.get(log_url, {"limit": 3}).json()
    assert page["count"] == 4 and len(page["results"]) == 3
    row = page["results"][0]
    assert row["status"] == "sent" and row["attempts"] == 1 and row["channel"] == "email"
    assert row["kind"] == "pairings_published" and row["recipient"] and row["sent_at"]
    assert "@" not in json.dumps(page)  # players' addresses stay private
    ids = [r["id"] for r in page["results"]]
    assert ids == sorted(ids, reverse=True)
    assert client.get(log_url, {"status": "failed"}).json()["count"] == 0
    bad = client.get(log_url, {"status": "lost"})
    assert bad.status_code == 400 and "status" in bad.json()
    huge = client.get(log_url, {"limit": "99999999999999999999", "offset": "9" * 25})
    assert huge.status_code == 200 and huge.json()["results"] == []


def test_the_organiser_page_saves_settings_and_shows_the_log(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, organiser, _ = _publish(django_capture_on_commit_callbacks, players=4)
    client = logged_in(organiser)
    url = f"/events/{event.slug}/manage/notifications/"
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Delivery log" in text and 'for="webhook_url"' in text
    assert text.count('class="badge badge-delivery-sent"') == 4
    saved = client.post(
        url,
        {"webhook_url": GENERIC, "email_kinds": ["dispute_ruled"], "webhook_kinds": []},
        follow=True,
    )
    assert saved.status_code == 200 and "Notification settings saved." in saved.content.decode()
    prefs = NotificationSettings.objects.get(tournament=event)
    assert prefs.webhook_url == GENERIC and prefs.email_kinds == ["dispute_ruled"]
    refused = client.post(url, {"webhook_url": "http://plain.example.org/"})
    assert refused.status_code == 200
    assert "webhook_url: an https:// address" in refused.content.decode()
    prefs.refresh_from_db()
    assert prefs.webhook_url == GENERIC
    dashboard = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert url in dashboard


def test_players_and_judges_cannot_open_the_organiser_page() -> None:
    event, _, regs = running_event(2)
    judge = UserFactory()
    event.judges.add(judge)
    url = f"/events/{event.slug}/manage/notifications/"
    assert logged_in(regs[0].player).get(url).status_code == 403
    assert logged_in(judge).get(url).status_code == 403
    assert logged_in(judge).post(url, {"webhook_url": GENERIC}).status_code == 403
    assert not NotificationSettings.objects.exists()


def test_the_admin_lists_settings_and_deliveries_without_the_webhook_token(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, _, _ = _publish(django_capture_on_commit_callbacks, players=4)
    prefs = _settings(event, webhook_url=DISCORD)
    client = logged_in(UserFactory(is_staff=True, is_superuser=True))
    assert client.get("/admin/notifications/delivery/").status_code == 200
    assert client.get("/admin/notifications/notificationsettings/").status_code == 200
    detail = client.get(f"/admin/notifications/notificationsettings/{prefs.pk}/change/")
    assert detail.status_code == 200 and "secret-token" not in detail.content.decode()


def test_nothing_is_queued_while_quiet(django_capture_on_commit_callbacks: Any) -> None:
    event, organiser, regs = running_event(4)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True), services.quiet():
        match_services.round_publish(actor=organiser, round_=round_)
        event_services.registration_drop(actor=regs[0].player, registration=regs[0])
    assert not Delivery.objects.exists() and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        event_services.registration_drop(actor=regs[1].player, registration=regs[1])
    assert len(mail.outbox) == 1


def test_loading_the_demo_sends_nothing() -> None:
    call_command("load_demo", stdout=io.StringIO())
    assert mail.outbox == [] and not Delivery.objects.exists()


def test_telling_the_same_occurrence_twice_queues_it_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, _, round_ = _publish(django_capture_on_commit_callbacks, players=4)
    first = list(Delivery.objects.order_by("id").values_list("id", "key", "status"))
    round_.refresh_from_db()  # publishing moved its version
    with django_capture_on_commit_callbacks(execute=True):
        match_notices.notify_pairings_published(round_)
    assert list(Delivery.objects.order_by("id").values_list("id", "key", "status")) == first
    assert len(mail.outbox) == 4


def test_the_organiser_page_passes_the_accessibility_audit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tests.support import audit

    event, organiser, _ = _publish(django_capture_on_commit_callbacks, players=4)
    url = f"/events/{event.slug}/manage/notifications/"
    assert audit(logged_in(organiser), url) == []
