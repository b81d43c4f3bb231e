"""The transactional outbox (config/outbox.py) and where a sent message went (finding 7e)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import kombu.exceptions
import pytest
from django.core import mail
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from config import outbox
from config.cache import BROKER_BREAKER
from config.celery import ping
from config.models import OutboxTask
from matches import services as match_services
from notifications.models import Delivery, DeliveryStatus, SentVia, email_sent_via
from tests.factories import logged_in
from tests.scenarios import running_event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_breaker():  # type: ignore[no-untyped-def]
    BROKER_BREAKER.reset()
    outbox.BACKLOG.waiting = False
    yield
    BROKER_BREAKER.reset()
    outbox.BACKLOG.waiting = False


class BrokerDown:
    """Stands in for an unreachable broker: every publish fails as kombu fails."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        monkeypatch.setattr(outbox, "_in_process", lambda: False)
        monkeypatch.setattr(outbox, "_publish", self.publish)

    def publish(self, row: OutboxTask) -> None:
        self.calls += 1
        raise kombu.exceptions.OperationalError("Error 111 connecting. Connection refused.")


class BrokerUp:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: list[str] = []
        monkeypatch.setattr(outbox, "_in_process", lambda: False)
        monkeypatch.setattr(outbox, "_publish", lambda row: self.sent.append(row.task_id))


def test_a_task_is_written_in_the_transaction_and_sent_after_commit(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    broker = BrokerUp(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        row = outbox.send_after_commit(ping, "hello")
        assert broker.sent == []  # nothing before the commit
    row.refresh_from_db()
    assert broker.sent == [row.task_id] and row.sent_at is not None and row.attempts == 1


def test_a_rolled_back_change_leaves_no_task(monkeypatch: pytest.MonkeyPatch) -> None:
    BrokerUp(monkeypatch)
    with pytest.raises(RuntimeError), transaction.atomic():
        outbox.send_after_commit(ping, "never")
        raise RuntimeError("the change failed")
    assert not OutboxTask.objects.exists()


def test_with_the_broker_down_the_change_commits_and_the_task_waits_until_it_is_back(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    down = BrokerDown(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        outbox.send_after_commit(ping, "later")
        outbox.send_after_commit(ping, "later too")
    assert down.calls == 1  # one fast failure opens the breaker: the second is not tried
    assert BROKER_BREAKER.is_down and outbox.BACKLOG.waiting
    assert outbox.relay() == 0 and down.calls == 1  # within the cooldown nothing is tried
    waiting = OutboxTask.objects.filter(sent_at__isnull=True)
    assert waiting.count() == 2
    assert "Connection refused" in waiting.first().last_error  # type: ignore[union-attr]

    up = BrokerUp(monkeypatch)
    BROKER_BREAKER.reset()  # the cooldown has passed
    assert outbox.relay() == 2
    assert outbox.relay() == 0  # relaying again sends nothing twice
    assert len(up.sent) == 2 == len(set(up.sent))
    assert not outbox.BACKLOG.waiting


def test_a_row_another_relay_is_sending_is_left_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    up = BrokerUp(monkeypatch)
    row = OutboxTask.objects.create(task_name=ping.name, task_id="leased-elsewhere")
    OutboxTask.objects.filter(pk=row.pk).update(leased_until=timezone.now() + timedelta(minutes=1))
    assert outbox.relay() == 0 and up.sent == []
    # A relay that died mid-send leaves its lease to run out; the row is then sent.
    OutboxTask.objects.filter(pk=row.pk).update(leased_until=timezone.now() - timedelta(seconds=1))
    assert outbox.relay() == 1 and up.sent == ["leased-elsewhere"]


def test_the_next_request_relays_what_the_process_left_waiting(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    OutboxTask.objects.create(task_name=ping.name, task_id="waited")
    up = BrokerUp(monkeypatch)
    client.get("/healthz")
    assert up.sent == []  # nothing was left waiting by this process: no relay per request
    outbox.BACKLOG.waiting = True
    client.get("/healthz")
    assert up.sent == ["waited"]


def test_the_relay_command_and_beats_task_send_what_waits_and_forget_old_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.core.management import call_command

    from config.tasks import relay_outbox_task

    up = BrokerUp(monkeypatch)
    OutboxTask.objects.create(task_name=ping.name, task_id="one")
    call_command("relay_outbox")
    old = OutboxTask.objects.create(task_name=ping.name, task_id="old")
    OutboxTask.objects.filter(pk=old.pk).update(sent_at=timezone.now() - timedelta(days=8))
    OutboxTask.objects.create(task_name=ping.name, task_id="two")
    assert relay_outbox_task() == 1
    assert up.sent == ["one", "two"]
    assert not OutboxTask.objects.filter(pk=old.pk).exists()


def test_without_a_broker_tasks_run_in_process_after_commit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The zero-setup site (no REDIS_URL): publishing still e-mails at once, through the
    outbox."""
    event, organiser, _ = running_event(4)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert len(mail.outbox) == 4
    assert not OutboxTask.objects.filter(sent_at__isnull=True).exists()


# --- finding 7e: where a sent message went ---------------------------------------------------


@pytest.mark.parametrize(
    ("backend", "where"),
    [
        ("django.core.mail.backends.console.EmailBackend", SentVia.CONSOLE),
        ("django.core.mail.backends.locmem.EmailBackend", SentVia.MEMORY),
        ("django.core.mail.backends.dummy.EmailBackend", SentVia.DISCARDED),
        ("django.core.mail.backends.filebased.EmailBackend", SentVia.FILE),
        ("django.core.mail.backends.smtp.EmailBackend", SentVia.SMTP),
        ("anymail.backends.mailgun.EmailBackend", SentVia.OTHER_EMAIL),
    ],
)
def test_finding_7e_each_email_backend_is_named_for_what_it_does(
    backend: str, where: SentVia
) -> None:
    assert email_sent_via(backend) == where


def test_finding_7e_the_delivery_log_says_an_email_was_only_printed_to_the_console(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, organiser, _ = running_event(2)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with (
        override_settings(EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        match_services.round_publish(actor=organiser, round_=round_)
    delivery = Delivery.objects.filter(tournament=event).first()
    assert delivery is not None and delivery.status == DeliveryStatus.SENT
    assert delivery.sent_via == SentVia.CONSOLE
    page = logged_in(organiser).get(f"/events/{event.slug}/manage/notifications/")
    assert "Printed to the server console (no mail server configured)" in page.content.decode()
    api = logged_in(organiser).get(f"/api/events/{event.slug}/notifications/deliveries/")
    first = api.json()["results"][0]
    assert first["sent_via"] == "console"
    assert first["sent_via_text"] == "Printed to the server console (no mail server configured)"
