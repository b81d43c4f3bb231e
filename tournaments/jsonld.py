"""schema.org Event JSON-LD for the public event page (search engines' event listings).

The properties are schema.org's Event as search engines read it: name, startDate, location (a
Place with its address), eventStatus, eventAttendanceMode, organizer, url and description.
"""

from __future__ import annotations

import contextlib
import json
import threading
import zoneinfo
from collections import OrderedDict
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from config import prepared
from tournaments.models import Tournament
from tournaments.selectors import rows_version
from tournaments.status import EventStatus

SCHEMA = "https://schema.org"
# In a <script> element "</" or "<!--" would end or upset it: escaped as json_script does.
_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


def _place(event: Tournament) -> dict[str, Any]:
    address: dict[str, Any] = {"@type": "PostalAddress"}
    if event.venue:
        address["streetAddress"] = event.venue
    if event.city:
        address["addressLocality"] = event.city
    return {
        "@type": "Place",
        "name": event.venue or event.city or event.name,
        "address": address,
    }


def _organizer(event: Tournament, base_url: str) -> Any:
    organisation = event.organisation
    if organisation is not None:
        return {
            "@type": "Organization",
            "name": organisation.name,
            "url": base_url + reverse("organisations:organisation", args=[organisation.slug]),
        }
    return [{"@type": "Person", "name": name} for name in _organiser_names(event)]


def _organisers_of(event_id: int) -> QuerySet[Any]:
    # The query `event.organisers.all()` makes (the same join, the same order).
    return get_user_model().objects.filter(organised_events__id=event_id)


def _organiser_names(event: Tournament) -> list[str]:
    prefetched = getattr(event, "_prefetched_objects_cache", {})
    if "organisers" in prefetched or type(event.pk) is not int:
        return [u.public_name for u in event.organisers.all()]
    # Its SQL compiled once per process (config.prepared): everybody loads the event page.
    organisers: list[Any] = prepared.fetch(
        "event-organisers", _organisers_of, event.pk, remember=rows_version(event)
    )
    return [u.public_name for u in organisers]


def event_jsonld(event: Tournament, base_url: str) -> dict[str, Any]:
    """The event as a schema.org Event (``base_url``: the site's scheme and host)."""
    base_url = base_url.rstrip("/")
    starts = event.starts_at
    with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
        starts = starts.astimezone(zoneinfo.ZoneInfo(event.time_zone))
    data: dict[str, Any] = {
        "@context": SCHEMA,
        "@type": "Event",
        "name": event.name,
        "startDate": starts.isoformat(),
        "location": _place(event),
        "eventStatus": f"{SCHEMA}/"
        + ("EventCancelled" if event.status == EventStatus.CANCELLED else "EventScheduled"),
        "eventAttendanceMode": f"{SCHEMA}/OfflineEventAttendanceMode",
        "organizer": _organizer(event, base_url),
        "url": base_url + event.get_absolute_url(),
        "description": event.description or f"{event.game_name} · {event.format_label}",
    }
    return data


def jsonld_script_text(data: dict[str, Any]) -> SafeString:
    """The JSON for inside <script type="application/ld+json">, safely escaped."""
    return mark_safe(json.dumps(data, ensure_ascii=False).translate(_ESCAPES))


# The page's JSON-LD text, kept per process: everybody loads the event page at once when a
# round is published, and the text changes only with the values below.
KEPT_MAX = 256
_kept: OrderedDict[tuple[Any, ...], SafeString] = OrderedDict()
_kept_lock = threading.Lock()


def _inputs(event: Tournament, base_url: str, version: str) -> tuple[Any, ...]:
    """Every value `event_jsonld` reads (the organisers' rows through their version: the
    version of the event page's rows, tournaments.selectors.page_rows_version)."""
    organisation = event.organisation
    return (
        event.pk,
        version,
        base_url,
        get_language(),
        event.name,
        event.starts_at,
        event.time_zone,
        event.venue,
        event.city,
        event.status,
        event.description,
        event.game,
        event.format_key,
        event.slug,
        None if organisation is None else (organisation.pk, organisation.name, organisation.slug),
    )


def event_jsonld_text(event: Tournament, base_url: str) -> SafeString:
    """``jsonld_script_text(event_jsonld(event, base_url))``; with the version of the
    event page's rows (set by the page), kept per process for every value it reads (at most
    `KEPT_MAX` texts, the least recently used dropped first)."""
    version = rows_version(event)
    if version is None:
        return jsonld_script_text(event_jsonld(event, base_url))
    key = _inputs(event, base_url, version)
    with _kept_lock:
        text = _kept.get(key)
        if text is not None:
            _kept.move_to_end(key)
            return text
    text = jsonld_script_text(event_jsonld(event, base_url))
    with _kept_lock:
        _kept[key] = text
        while len(_kept) > KEPT_MAX:
            _kept.popitem(last=False)
    return text
