"""The organisation page, the calendar page, the iCalendar feeds and the event page's
schema.org JSON-LD (issue 22)."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from organisations import services
from organisations.ical import events_ics
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, logged_in
from tests.organisations.helpers import organisation, owner_of

pytestmark = pytest.mark.django_db

# schema.org Event as search engines read it (Google's event structured data): the
# properties without which an event is not listed, and the ones recommended beside them.
EVENT_REQUIRED = ("name", "startDate", "location")
EVENT_RECOMMENDED = (
    "eventStatus",
    "eventAttendanceMode",
    "organizer",
    "url",
    "description",
)
PLACE_REQUIRED = ("name", "address")
EVENT_STATUSES = {
    "https://schema.org/EventScheduled",
    "https://schema.org/EventCancelled",
    "https://schema.org/EventPostponed",
    "https://schema.org/EventRescheduled",
    "https://schema.org/EventMovedOnline",
}
ATTENDANCE_MODES = {
    "https://schema.org/OfflineEventAttendanceMode",
    "https://schema.org/OnlineEventAttendanceMode",
    "https://schema.org/MixedEventAttendanceMode",
}


def jsonld(html: str) -> dict:  # type: ignore[type-arg]
    found = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert len(found) == 1, "one JSON-LD block"
    return json.loads(found[0])  # type: ignore[no-any-return]


def test_the_organisation_page_lists_upcoming_and_past_events() -> None:
    org = organisation("Dragon Den")
    TournamentFactory(name="Next Friday", organisation=org)
    TournamentFactory(
        name="Last Month",
        organisation=org,
        status="finished",
        starts_at=timezone.now() - timedelta(days=30),
    )
    TournamentFactory(name="Someone Else's", starts_at=timezone.now() + timedelta(days=1))
    TournamentFactory(name="Secret Draft", organisation=org, status="draft")
    html = Client().get(f"/orgs/{org.slug}/").content.decode()
    upcoming, past = html.split('id="past"')
    assert "Next Friday" in upcoming and "Last Month" not in upcoming
    assert "Last Month" in past
    assert "Someone Else" not in html and "Secret Draft" not in html
    assert Client().get("/orgs/nobody/").status_code == 404


def test_a_suspended_player_sees_the_suspension_and_its_reason() -> None:
    org = organisation()
    player = UserFactory()
    event = TournamentFactory(organisation=org)
    services.suspension_create(
        actor=owner_of(org),
        organisation=org,
        player=player,
        until=timezone.now() + timedelta(days=7),
        reason="Unsporting conduct",
    )
    client = logged_in(player)
    page = client.get(f"/orgs/{org.slug}/").content.decode()
    assert "Unsporting conduct" in page
    response = client.post(f"/events/{event.slug}/register/", follow=True)
    assert "Unsporting conduct" in response.content.decode()
    assert not event.registrations.exists()


def test_the_calendar_page_filters_and_names_a_bad_filter() -> None:
    org = organisation()
    TournamentFactory(name="Leeds Open", city="Leeds", organisation=org)
    TournamentFactory(name="York Open", city="York")
    page = Client().get("/calendar/?city=York").content.decode()
    assert "York Open" in page and "Leeds Open" not in page
    page = Client().get(f"/calendar/?organisation={org.slug}").content.decode()
    assert "Leeds Open" in page and "York Open" not in page
    bad = Client().get("/calendar/?game=chess")
    assert bad.status_code == 400 and "game" in bad.content.decode()


def test_the_organisation_feed_is_icalendar_and_an_unknown_one_is_404() -> None:
    org = organisation("Dragon Den")
    TournamentFactory(name="Friday Night", organisation=org, venue="Back room", city="Leeds")
    TournamentFactory(name="Cancelled One", organisation=org, status="cancelled")
    TournamentFactory(name="Draft", organisation=org, status="draft")
    response = Client().get(f"/orgs/{org.slug}/events.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["version"]) == "2.0" and calendar["prodid"]
    events = {str(e["summary"]): e for e in calendar.walk("VEVENT")}
    assert set(events) == {"Friday Night", "Cancelled One"}
    friday = events["Friday Night"]
    assert str(friday["location"]) == "Back room, Leeds" and friday["dtstart"] and friday["uid"]
    assert str(friday["url"]).startswith("http://testserver/events/")
    assert str(events["Cancelled One"]["status"]) == "CANCELLED"
    assert Client().get("/orgs/nobody/events.ics").status_code == 404


def test_the_private_feed_lists_my_events_by_token_only(api_client) -> None:  # type: ignore[no-untyped-def]
    player = UserFactory()
    mine = RegistrationFactory(player=player).tournament
    TournamentFactory(name="Not mine")
    api_client.force_authenticate(player)
    url = api_client.get("/api/calendar/token/").json()["url"]
    assert api_client.get("/api/calendar/token/").json()["url"] == url  # stable
    body = Client().get(url.replace("http://testserver", "")).content
    summaries = [str(e["summary"]) for e in Calendar.from_ical(body).walk("VEVENT")]
    assert summaries == [mine.name]
    rotated = api_client.post("/api/calendar/token/").json()["url"]
    assert rotated != url
    assert Client().get(url.replace("http://testserver", "")).status_code == 404
    assert Client().get("/calendar/my/guess.ics").status_code == 404
    api_client.force_authenticate(None)
    assert api_client.get("/api/calendar/token/").status_code in (401, 403)


def test_events_ics_is_reusable_with_any_events() -> None:
    events = [TournamentFactory(name="A"), TournamentFactory(name="B")]
    calendar = Calendar.from_ical(events_ics(events, "Series X"))
    assert str(calendar["x-wr-calname"]) == "Series X"
    assert [str(e["summary"]) for e in calendar.walk("VEVENT")] == ["A", "B"]


@pytest.mark.parametrize("with_organisation", [True, False])
def test_every_public_event_page_has_schema_org_event_jsonld(with_organisation: bool) -> None:
    org = organisation("Dragon Den") if with_organisation else None
    event = TournamentFactory(
        name="Friday </script> Night", venue="Back room", city="Leeds", organisation=org
    )
    html = Client().get(f"/events/{event.slug}/").content.decode()
    data = jsonld(html)
    assert data["@context"] == "https://schema.org" and data["@type"] == "Event"
    for prop in (*EVENT_REQUIRED, *EVENT_RECOMMENDED):
        assert data.get(prop), prop
    assert data["name"] == "Friday </script> Night"
    assert data["location"]["@type"] == "Place"
    for prop in PLACE_REQUIRED:
        assert data["location"][prop], prop
    assert data["location"]["address"]["@type"] == "PostalAddress"
    assert data["location"]["address"]["addressLocality"] == "Leeds"
    assert data["eventStatus"] in EVENT_STATUSES
    assert data["eventAttendanceMode"] in ATTENDANCE_MODES
    assert data["url"] == f"http://testserver/events/{event.slug}/"
    assert timezone.datetime.fromisoformat(data["startDate"]) == event.starts_at
    organizer = data["organizer"]
    if with_organisation:
        assert organizer == {
            "@type": "Organization",
            "name": "Dragon Den",
            "url": f"http://testserver/orgs/{org.slug}/",  # type: ignore[union-attr]
        }
    else:
        assert organizer and all(o["@type"] == "Person" and o["name"] for o in organizer)


def test_a_cancelled_event_says_so_in_its_jsonld() -> None:
    event = TournamentFactory(status="cancelled")
    data = jsonld(Client().get(f"/events/{event.slug}/").content.decode())
    assert data["eventStatus"] == "https://schema.org/EventCancelled"
