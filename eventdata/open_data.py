"""An event's results as open data (issue 23): its stages, rounds and results, final placings
and published decklists as one JSON document, for anyone once the event is finished.

The document's shape is ``OPEN_DATA_FORMAT`` version ``OPEN_DATA_VERSION``, described by the
JSON Schema at docs/open-data.schema.json (tests/test_open_data.py validates documents against
it). Like the archive (docs/archive.md), fields may be added within a version, never renamed or
removed. Unlike the archive it holds only what the public may see: results as the event API
shows them to anyone, published rounds only, and only the decklists that were published (the
whole event's, or the top decklists one by one); no e-mail address, no account name.
"""

from __future__ import annotations

from typing import Any, Final

from decks.models import DecklistVersion
from matches.models import VISIBLE_TO_PLAYERS, Match
from matches.placings import event_placings, placings_json, placings_version
from tournaments.models import Registration, Tournament
from tournaments.selectors import event_stages
from tournaments.status import EventStatus

OPEN_DATA_FORMAT: Final = "battledesk-results"
OPEN_DATA_VERSION: Final = 1


def is_open(event: Tournament) -> bool:
    """Open data exists once the event is finished."""
    return event.status == EventStatus.FINISHED


def open_data_version(event: Tournament) -> str:
    """Changes with anything the document shows: the placings' version (results, rounds,
    stages, status), and which decklists are published."""
    published = (
        DecklistVersion.objects.filter(
            decklist__registration__tournament=event, decklist__published_at__isnull=False
        ).count()
        if event.decklists_published_at is None
        else -1
    )
    return f"open-data:{OPEN_DATA_VERSION}:{placings_version(event)}:{published}"


def _players(event: Tournament, ids: set[int]) -> list[dict[str, Any]]:
    return [
        {
            "registration": r.pk,
            "name": r.name,
            "player_id": r.player.player_id if r.player_id else None,
            "dropped": r.dropped,
        }
        for r in Registration.objects.filter(tournament=event, pk__in=ids)
        .select_related("player")
        .order_by("id")
    ]


def _rounds(event: Tournament) -> list[dict[str, Any]]:
    matches: dict[int, list[dict[str, Any]]] = {}
    shown = (
        Match.objects.filter(round__tournament=event, round__status__in=VISIBLE_TO_PLAYERS)
        .select_related("round__tournament")
        .order_by("round__number", "table", "id")
    )
    for match in shown:
        matches.setdefault(match.round_id, []).append(
            {
                "table": match.table,
                "a": match.a_id,
                "b": match.b_id,
                "status": match.status,
                "result": match.result_json(),
            }
        )
    return [
        {
            "number": round_.number,
            "name": round_.name,
            "stage": round_.stage,
            "stage_number": round_.stage_number,
            "matches": matches.get(round_.pk, []),
        }
        for round_ in event.rounds.filter(status__in=VISIBLE_TO_PLAYERS).order_by("number")
    ]


def _decklists(event: Tournament) -> list[dict[str, Any]]:
    versions = DecklistVersion.objects.filter(decklist__registration__tournament=event)
    if event.decklists_published_at is None:
        versions = versions.filter(decklist__published_at__isnull=False)
    latest: dict[int, DecklistVersion] = {}
    for version in versions.select_related("decklist").order_by("decklist_id", "number"):
        latest[version.decklist.registration_id] = version
    return [
        {
            "registration": registration,
            "format": version.format_key,
            "legal": version.legal,
            "text": version.text,
            "list": version.data,
        }
        for registration, version in sorted(latest.items())
    ]


def open_data(event: Tournament) -> dict[str, Any]:
    """The document (module docstring). The caller checks ``is_open``."""
    placings = placings_json(event, placings=event_placings(event))
    rounds = _rounds(event)
    played = {
        side
        for round_ in rounds
        for match in round_["matches"]
        for side in (match["a"], match["b"])
        if side is not None
    }
    return {
        "format": OPEN_DATA_FORMAT,
        "version": OPEN_DATA_VERSION,
        "event": {
            "slug": event.slug,
            "name": event.name,
            "game": event.game,
            "format": event.format_key,
            "match_structure": event.match_structure,
            "starts_at": event.starts_at.isoformat(),
            "venue": event.venue,
            "status": event.status,
        },
        "stages": event_stages(event),
        "players": _players(event, played),
        "rounds": rounds,
        "placings": {"final": placings["final"], "rows": placings["rows"]},
        "decklists": _decklists(event),
    }
