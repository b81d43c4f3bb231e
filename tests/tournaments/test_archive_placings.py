"""The archive and the standings CSV carry the event's placings (event-structures: Placings); an
archive written before them (tests/tournaments/fixtures/archive_before_placings.json, exported
by main at f713a3b: a finished Swiss of 10 players, one dropped, and a top 4) still imports,
and its placings are computed again from its results."""

from __future__ import annotations

import copy
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from eventdata import archive
from eventdata.archive import ArchiveError
from eventdata.archive_selectors import event_archive
from eventdata.archive_services import archive_import
from matches import exports
from tests.scenarios import client_for, finished_swiss
from tests.tournaments.archive_scenes import delete_event
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BEFORE = Path(__file__).parent / "fixtures" / "archive_before_placings.json"


def _old_archive() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(BEFORE.read_text())
    return doc


def test_an_archive_written_before_placings_imports_and_places_from_its_results() -> None:
    doc = _old_archive()
    assert "placings" not in doc and "stages" not in doc
    report = archive_import(archive.dumps(doc))
    assert report.counts["matches"]["created"] == len(doc["matches"])
    event = Tournament.objects.get(slug=doc["event"]["slug"])
    assert event.status == "finished"
    key = {r.pk: f"R{n}" for n, r in enumerate(event.registrations.order_by("created_at", "id"), 1)}
    body = APIClient().get(f"/api/events/{event.slug}/placings/").json()
    assert body["final"] is True
    # The final: R3 (seed 1) lost to R7 (seed 2); the semifinal losers R2 (seed 3), R9 (seed 4);
    # then the Swiss standings of everyone else, the dropped R10 where its record puts it.
    assert [key[r["registration"]] for r in body["rows"]] == [
        "R7",
        "R3",
        "R2",
        "R9",
        "R6",
        "R10",
        "R8",
        "R5",
        "R4",
        "R1",
    ]
    assert [r["eliminated_in"] for r in body["rows"][:4]] == [
        None,
        "Final",
        "Semifinals",
        "Semifinals",
    ]
    # It gets the legacy stages, read from its rounds, as the migration gave existing events.
    stages = APIClient().get(f"/api/events/{event.slug}/stages/").json()
    assert [(st["number"], st["kind"], st["status"]) for st in stages] == [
        (1, "swiss", "finished"),
        (2, "single_elimination", "finished"),
    ]
    assert [key[pk] for pk in stages[1]["players"]] == ["R3", "R7", "R2", "R9"]
    rounds = APIClient().get(f"/api/events/{event.slug}/rounds/").json()
    assert [(r["stage_number"], r["name"]) for r in rounds] == [
        (1, "Round 1"),
        (1, "Round 2"),
        (1, "Round 3"),
        (2, "Semifinals"),
        (2, "Final"),
    ]
    # Exported again, the archive now carries them, by registration key.
    again = event_archive(event)
    assert again["placings"]["final"] is True
    assert [r["registration"] for r in again["placings"]["rows"][:2]] == ["R7", "R3"]
    assert archive.parse(archive.dumps(again))["placings"] == again["placings"]
    assert [st["number"] for st in again["stages"]] == [1, 2]
    assert set(again["stages"][0]["players"]) == {f"R{n}" for n in range(1, 11)}
    assert again["stages"][1]["players"] == ["R3", "R7", "R2", "R9"]
    assert archive_import(archive.dumps(again)).changed is False


def test_placings_survive_export_delete_import_export() -> None:
    doc = _old_archive()
    archive_import(archive.dumps(doc))
    event = Tournament.objects.get(slug=doc["event"]["slug"])
    first = event_archive(event)
    delete_event(event)
    archive_import(archive.dumps(first))
    restored = Tournament.objects.get(slug=doc["event"]["slug"])
    assert archive.comparable(event_archive(restored)) == archive.comparable(first)


def test_an_archive_with_broken_placings_is_refused_naming_the_place() -> None:
    doc = _old_archive()
    archive_import(archive.dumps(doc))
    event = Tournament.objects.get(slug=doc["event"]["slug"])
    good = event_archive(event)
    bad = copy.deepcopy(good)
    bad["placings"]["rows"][1]["place"] = 3
    with pytest.raises(ArchiveError) as gap:
        archive.parse(archive.dumps(bad))
    assert gap.value.where == "placings.rows[1]"
    bad = copy.deepcopy(good)
    bad["placings"]["rows"][0]["registration"] = "R99"
    with pytest.raises(ArchiveError) as unknown:
        archive.parse(archive.dumps(bad))
    assert unknown.value.where == "placings.rows[0]"


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_standings_csv_has_a_place_column_once_there_are_placings() -> None:
    swiss = finished_swiss(players=6, rounds=2)
    event = swiss.event
    client = client_for(swiss.organiser)
    client.post(f"/api/events/{event.slug}/transition/", {"to": "finished"}, format="json")
    table = _csv(client.get(f"/api/events/{event.slug}/standings.csv").content.decode())
    header = table[0]
    assert header[: len(exports.STANDINGS_COLUMNS)] == list(exports.STANDINGS_COLUMNS)
    assert header[-1] == "place"
    placings = APIClient().get(f"/api/events/{event.slug}/placings/").json()["rows"]
    place = {str(r["registration"]): str(r["place"]) for r in placings}
    registration = header.index("registration")
    assert [row[-1] for row in table[1:]] == [place[row[registration]] for row in table[1:]]


def test_an_old_archive_with_a_top_cut_gives_its_place_column() -> None:
    doc = _old_archive()
    archive_import(archive.dumps(doc))
    event = Tournament.objects.get(slug=doc["event"]["slug"])
    table = _csv(exports.standings_csv(event))
    registration = table[0].index("registration")
    places = {row[registration]: int(row[-1]) for row in table[1:]}
    assert sorted(places.values()) == list(range(1, 11))
    champion = APIClient().get(f"/api/events/{event.slug}/placings/").json()["rows"][0]
    assert places[str(champion["registration"])] == 1
