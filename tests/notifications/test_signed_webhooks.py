"""Signed webhooks (Standard Webhooks): every generic and Discord post carries webhook-id,
webhook-timestamp and webhook-signature, verified here with the specification's own library
(``standardwebhooks``); secrets rotate with an overlap; each kind's payload matches the JSON
Schema published in docs/webhooks/."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.utils import timezone
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from matches import services as match_services
from notifications import delivery as sending
from notifications import services, signing
from notifications.models import Delivery, Kind, NotificationSettings
from organisations import services as organisation_services
from tests.factories import RegistrationFactory, TournamentFactory
from tests.organisations.helpers import organisation, owner_of
from tests.scenarios import client_for, running_event
from tests.support import FakeHttp
from tournaments import services as event_services
from tournaments.models import AuditEntry
from tournaments.timer import RoundTimer

pytestmark = pytest.mark.django_db

GENERIC = "https://hooks.example.org/battledesk"
SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "webhooks"


def _headers(request: Any) -> dict[str, str]:
    return {key.lower(): value for key, value in request.header_items()}


def _verified(secret: str, request: Any) -> dict[str, Any]:
    payload: dict[str, Any] = Webhook(secret).verify(request.data, _headers(request))
    return payload


def _hooked_event() -> tuple[Any, Any, list[Any], str]:
    event, organiser, regs = running_event(4)
    answer = client_for(organiser).put(
        f"/api/events/{event.slug}/notifications/",
        {"webhook_url": GENERIC, "email_kinds": [], "webhook_kinds": list(Kind.values)},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    secret = answer.json()["webhook_secret"]
    assert secret.startswith(signing.SECRET_PREFIX)
    return event, organiser, regs, secret


def test_a_webhook_post_verifies_with_the_standard_webhooks_library(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    http = FakeHttp(monkeypatch, 204)
    event, organiser, _, secret = _hooked_event()
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    (request,) = http.requests
    payload = _verified(secret, request)
    assert payload["kind"] == "pairings_published" and payload["data"]["round"] == 1
    delivery = Delivery.objects.get(tournament=event)
    assert _headers(request)["webhook-id"] == f"msg_{delivery.pk}"
    forged = signing.new_secret()
    with pytest.raises(WebhookVerificationError):
        _verified(forged, request)


def test_a_retry_keeps_the_message_id_and_signs_anew(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import urllib.error

    http = FakeHttp(monkeypatch, urllib.error.URLError("refused"), 204)
    event, organiser, _, secret = _hooked_event()
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    delivery = Delivery.objects.get(tournament=event)
    sending.deliver(delivery.pk)
    first, second = http.requests
    assert _headers(first)["webhook-id"] == _headers(second)["webhook-id"] == f"msg_{delivery.pk}"
    assert _verified(secret, second)["idempotency_key"] == delivery.key


def test_a_rotated_secret_signs_beside_the_new_one_until_the_overlap_ends(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    http = FakeHttp(monkeypatch, 204)
    event, organiser, _, old = _hooked_event()
    rotated = client_for(organiser).post(
        f"/api/events/{event.slug}/notifications/webhook-secret/",
        {"overlap_hours": 2},
        format="json",
    )
    assert rotated.status_code == 200, rotated.content
    new = rotated.json()["webhook_secret"]
    assert new != old and rotated.json()["webhook_secrets_in_use"] == 2
    assert AuditEntry.objects.filter(
        tournament=event, action="notifications.webhook_secret_rotated"
    ).exists()
    assert old not in json.dumps(list(AuditEntry.objects.values_list("data", flat=True)))

    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    during = http.requests[-1]
    assert _verified(old, during) and _verified(new, during)
    assert len(_headers(during)["webhook-signature"].split()) == 2

    later = timezone.now() + timedelta(hours=3)
    prefs = NotificationSettings.objects.get(tournament=event)
    assert prefs.secrets_in_use(later) == [new]


@pytest.mark.parametrize("overlap", [-1, 169, "24", 1.5, True])
def test_rotation_refuses_a_bad_overlap_naming_it(overlap: Any) -> None:
    event, organiser, _ = running_event(2)
    answer = client_for(organiser).post(
        f"/api/events/{event.slug}/notifications/webhook-secret/",
        {"overlap_hours": overlap},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["field"] == "overlap_hours"


def test_only_organisers_rotate_or_read_the_secret() -> None:
    event, _organiser, regs = running_event(2)
    player = client_for(regs[0].player)
    url = f"/api/events/{event.slug}/notifications/"
    assert player.get(url).status_code == 403
    assert player.post(url + "webhook-secret/", {}, format="json").status_code == 403


def _validate(body: dict[str, Any]) -> None:
    schema = json.loads((SCHEMAS / f"{body['kind']}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(body, schema, format_checker=jsonschema.FormatChecker())


def test_every_kinds_payload_matches_its_published_json_schema(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    http = FakeHttp(monkeypatch, 204)
    event, organiser, regs, secret = _hooked_event()
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    round_.refresh_from_db()
    if RoundTimer.from_json(round_.timer).state != "running":
        round_ = match_services.round_timer(actor=organiser, round_=round_, action="start")
    ends_at = RoundTimer.from_json(round_.timer).ends_at
    assert ends_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        status, _wait = match_services.round_ending_due(
            round_id=round_.pk, ends_at=ends_at.isoformat(), now=ends_at - timedelta(minutes=5)
        )
    assert status == "sent"
    confirm, disputed = round_.matches.select_related("a__player", "b__player")[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_report(actor=confirm.a.player, match=confirm, games=[1, 0, 0])
        match_services.match_report(actor=disputed.a.player, match=disputed, games=[1, 0, 0])
        match_services.match_report(actor=disputed.b.player, match=disputed, games=[0, 1, 0])
    with django_capture_on_commit_callbacks(execute=True):
        match_services.call_ruling(
            actor=organiser, call=disputed.calls.get(), text="A wins.", result={"games": [1, 0, 0]}
        )
    with django_capture_on_commit_callbacks(execute=True):
        event_services.registration_drop(actor=regs[0].player, registration=regs[0], round_number=1)
    # A suspension cancelling a registration for an organisation's event not started yet (that
    # event's webhook, signed with its own secret).
    org = organisation()
    upcoming = TournamentFactory(organisation=org)
    hooked = client_for(owner_of(org)).put(
        f"/api/events/{upcoming.slug}/notifications/",
        {"webhook_url": GENERIC, "email_kinds": [], "webhook_kinds": list(Kind.values)},
        format="json",
    )
    assert hooked.status_code == 200, hooked.content
    secrets = {event.pk: secret, upcoming.pk: hooked.json()["webhook_secret"]}
    RegistrationFactory(tournament=upcoming, player=regs[1].player)
    with django_capture_on_commit_callbacks(execute=True):
        organisation_services.suspend(
            actor=owner_of(org),
            organisation=org,
            player=regs[1].player,
            until=timezone.now() + timedelta(days=30),
            reason="Marked cards",
            confirm=True,
        )
    kinds = set()
    for request in http.requests:
        body = _verified(
            secrets[upcoming.pk if upcoming.slug in str(request.data) else event.pk], request
        )
        _validate(body)
        assert "Marked cards" not in json.dumps(body)  # the reason stays private
        kinds.add(body["kind"])
    assert kinds == set(Kind.values)
    assert len(list(SCHEMAS.glob("*.schema.json"))) == len(Kind.values)


def test_a_webhook_without_a_secret_posts_unsigned(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settings saved before signing existed have no secret until the next save or rotation:
    their posts go out unsigned rather than not at all."""
    http = FakeHttp(monkeypatch, 204)
    event, organiser, _ = running_event(4)
    NotificationSettings.objects.create(
        tournament=event, webhook_url=GENERIC, email_kinds=[], webhook_secrets=[]
    )
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.round_publish(actor=organiser, round_=round_)
    assert "webhook-signature" not in _headers(http.requests[0])
    prefs = services.webhook_secret_rotate(actor=organiser, tournament=event, overlap_hours=0)
    assert len(prefs.secrets_in_use(timezone.now())) == 1
