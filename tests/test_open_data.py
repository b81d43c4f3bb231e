"""Results as open data (issue 23): the document validates against its published JSON Schema,
holds only what the public may see, and exists once the event is finished."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.utils import timezone

from decks.models import Decklist, DecklistVersion
from tests.factories import UserFactory
from tests.scenarios import client_for, finished_swiss
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[1] / "docs" / "open-data.schema.json").read_text()
)


def _list_for(registration: Any, *, published: bool) -> None:
    decklist = Decklist.objects.create(
        registration=registration, published_at=timezone.now() if published else None
    )
    DecklistVersion.objects.create(
        decklist=decklist,
        number=1,
        text=f"Deck of {registration.pk}",
        data={"sections": []},
        format_key="playmaker",
        legal=True,
        report={},
    )


def test_open_data_of_a_finished_event_matches_its_json_schema() -> None:
    swiss = finished_swiss(players=6, rounds=2)
    event, organiser = swiss.event, swiss.organiser
    _list_for(swiss.registrations[0], published=True)
    _list_for(swiss.registrations[1], published=False)
    url = f"/api/events/{event.slug}/open-data/"
    anyone = client_for(UserFactory())
    early = anyone.get(url)
    assert early.status_code == 409 and early.json()["field"] == "status"

    done = client_for(organiser).post(
        f"/api/events/{event.slug}/transition/", {"to": "finished"}, format="json"
    )
    assert done.status_code == 200, done.content
    answer = anyone.get(url)
    assert answer.status_code == 200
    document = json.loads(answer.content)
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(document, SCHEMA, format_checker=jsonschema.FormatChecker())
    assert document["event"]["status"] == EventStatus.FINISHED
    assert [r["number"] for r in document["rounds"]] == [1, 2]
    assert sum(len(r["matches"]) for r in document["rounds"]) == 6
    assert {p["registration"] for p in document["players"]} == {r.pk for r in swiss.registrations}
    assert [row["place"] for row in document["placings"]["rows"]] == list(range(1, 7))
    assert document["placings"]["final"] is True
    # Only the published list: the other stays private.
    assert [d["registration"] for d in document["decklists"]] == [swiss.registrations[0].pk]
    text = answer.content.decode()
    assert "@" not in text and swiss.registrations[0].player.username not in text

    again = anyone.get(url, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304


def test_open_data_follows_the_decklists_published_for_the_whole_event() -> None:
    swiss = finished_swiss(players=4, rounds=2)
    event = swiss.event
    for registration in swiss.registrations:
        _list_for(registration, published=False)
    event.status = EventStatus.FINISHED.value
    event.decklists_published_at = timezone.now()
    event.save(update_fields=["status", "decklists_published_at"])
    document = client_for(UserFactory()).get(f"/api/events/{event.slug}/open-data/").json()
    assert len(document["decklists"]) == 4
