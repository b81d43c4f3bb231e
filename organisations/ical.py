"""iCalendar feeds (RFC 5545) of events, written with the `icalendar` library.

``events_ics(events, name)`` is the one writer: the organisation feed, the private "my events"
feed and (the lead's series app) a series feed all call it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from django.http import HttpResponse

from tournaments.models import Tournament
from tournaments.status import EventStatus

PRODID = "-//Battledesk//Events//EN"
UID_DOMAIN = "battledesk"


def _location(event: Tournament) -> str:
    return ", ".join(part for part in (event.venue, event.city) if part)


def events_ics(events: Iterable[Tournament], name: str, *, base_url: str = "") -> bytes:
    """The events as one VCALENDAR named ``name``: one VEVENT each, its UID stable (the event's
    slug), its URL the event page (absolute when ``base_url`` is given), cancelled events
    marked STATUS:CANCELLED."""
    # Imported here, not at the top: icalendar takes 0.1 s to load, which every process would
    # otherwise pay at start for a feed few requests ask for.
    from icalendar import Calendar, Event

    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    stamp = datetime.now(UTC).replace(microsecond=0)
    for event in events:
        url = base_url.rstrip("/") + event.get_absolute_url()
        entry = Event()
        entry.add("uid", f"event-{event.slug}@{UID_DOMAIN}")
        entry.add("dtstamp", stamp)
        entry.add("dtstart", event.starts_at.astimezone(UTC))
        entry.add("summary", event.name)
        location = _location(event)
        if location:
            entry.add("location", location)
        entry.add("url", url)
        entry.add("description", f"{event.game_name} · {event.format_label}\n{url}")
        entry.add("status", "CANCELLED" if event.status == EventStatus.CANCELLED else "CONFIRMED")
        entry.add("last-modified", event.updated_at.astimezone(UTC).replace(microsecond=0))
        calendar.add_component(entry)
    return bytes(calendar.to_ical())


def ics_response(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
