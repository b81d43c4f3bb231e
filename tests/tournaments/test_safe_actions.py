"""Actions that cannot be undone ask a second time, naming what is lost, and are audited;
new events start as Playmaker events."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from config.errors import ServiceError
from tests.factories import RegistrationFactory, TournamentFactory, logged_in, organiser_of
from tournaments import services
from tournaments.models import AuditEntry, Registration
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def test_cancelling_on_the_dashboard_asks_first_and_names_what_is_lost() -> None:
    event = TournamentFactory()
    RegistrationFactory(tournament=event)
    RegistrationFactory(tournament=event)
    client = logged_in(organiser_of(event))
    dashboard = client.get(reverse("event_dashboard", args=[event.slug])).content.decode()
    assert "Move to: Cancelled" not in dashboard and "Cancel the event…" in dashboard
    url = reverse("event_transition", args=[event.slug])
    page = client.post(url, {"to": "cancelled"}).content.decode()
    assert "is final" in page and "2 registered players" in page and 'name="confirm"' in page
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_OPEN
    client.post(url, {"to": "cancelled", "confirm": "yes"})
    event.refresh_from_db()
    assert event.status == EventStatus.CANCELLED
    entry = AuditEntry.objects.get(action="event.status", tournament=event)
    assert entry.data["to"] == "cancelled"


def test_cancelling_through_the_api_needs_confirm(api_client: Any) -> None:
    event = TournamentFactory()
    api_client.force_authenticate(organiser_of(event))
    url = f"/api/events/{event.slug}/transition/"
    asked = api_client.post(url, {"to": "cancelled"}, format="json")
    assert asked.status_code == 400
    assert asked.json()["field"] == "confirm" and asked.json()["code"] == "confirmation_required"
    assert "cannot be reopened" in asked.json()["detail"]
    done = api_client.post(url, {"to": "cancelled", "confirm": True}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "cancelled"


def test_removing_a_player_asks_first_and_names_who_gets_the_place() -> None:
    event = TournamentFactory(capacity=2)
    leaving = RegistrationFactory(tournament=event)
    RegistrationFactory(tournament=event)
    waiting = RegistrationFactory(tournament=event, status="waitlisted")
    client = logged_in(organiser_of(event))
    url = reverse("registration_manage", args=[leaving.pk, "remove"])
    page = client.post(url).content.decode()
    assert f"Their place goes to {waiting.name}" in page and 'name="confirm"' in page
    leaving.refresh_from_db()
    assert leaving.status == "registered"
    client.post(url, {"confirm": "yes"})
    leaving.refresh_from_db()
    assert leaving.status == "removed"
    assert AuditEntry.objects.filter(action="registration.removed", registration=leaving).exists()


def test_removing_through_the_service_or_api_needs_confirm(api_client: Any) -> None:
    reg = RegistrationFactory()
    with pytest.raises(ServiceError) as excinfo:
        services.registration_remove(actor=organiser_of(reg.tournament), registration=reg)
    assert excinfo.value.field == "confirm"
    api_client.force_authenticate(organiser_of(reg.tournament))
    response = api_client.post(f"/api/registrations/{reg.pk}/remove/", {}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "confirm"
    assert Registration.objects.get(pk=reg.pk).status == "registered"


def test_a_new_event_defaults_to_playmaker_on_the_form_and_the_api(api_client: Any) -> None:
    from tests.factories import OrganiserFactory

    organiser = OrganiserFactory()
    form = logged_in(organiser).get(reverse("event_create")).content.decode()
    assert '<option value="playmaker" selected>' in form
    api_client.force_authenticate(organiser)
    created = api_client.post(
        "/api/events/",
        {"name": "Saturday Open", "starts_at": "2026-12-05T10:00:00Z"},
        format="json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["mode"] == "playmaker" and created.json()["format_key"] == "playmaker"


def test_audit_entries_outlive_their_event() -> None:
    event = TournamentFactory()
    services.event_update(actor=organiser_of(event), tournament=event, venue="Hall B")
    slug = event.slug
    event.delete()
    entry = AuditEntry.objects.get(action="event.updated")
    assert entry.tournament is None and entry.event_slug == slug
