"""Feature matches (the stream overlays' marks, docs/overlays.md) in the event archive: an
addition to format version 1 (docs/archive.md), so an archive written before it still imports."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from eventdata import archive
from eventdata.archive import ArchiveError
from eventdata.archive_selectors import event_archive
from eventdata.archive_services import archive_import
from overlays.models import MAX_SLOT, FeatureMatch
from tests.scenarios import own_copy
from tests.tournaments.archive_scenes import build_event, delete_event
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


Exported = tuple[Tournament, Any, dict[str, Any]]


@pytest.fixture(scope="module")
def exported_once(module_db: None) -> Exported:
    """An event with a feature match and its archive, built once for the module
    (tests/scenarios.py: sharing a world)."""
    event, organiser, _regs = build_event()
    return event, organiser, event_archive(event)


@pytest.fixture
def exported(exported_once: Exported, db: None) -> Exported:
    """The event, its organiser and its archive (the test's own copies; the event still on
    this installation, each test's changes rolled back)."""
    return own_copy(exported_once)


def test_a_feature_match_survives_export_delete_import(exported: Exported) -> None:
    event, organiser, doc = exported
    marked = FeatureMatch.objects.get(tournament=event)
    assert doc["feature_matches"] == [
        {
            "match": doc["feature_matches"][0]["match"],
            "slot": 2,
            "marked_by": organiser.username,
            "marked_at": marked.marked_at.isoformat(),
        }
    ]
    table, number = marked.match.table, marked.round.number
    delete_event(event)
    assert not FeatureMatch.objects.exists()

    report = archive_import(archive.dumps(doc))

    assert report.counts["feature_matches"] == {"created": 1, "updated": 0, "unchanged": 0}
    restored = FeatureMatch.objects.select_related("match", "round").get()
    assert restored.tournament.slug == event.slug
    assert (restored.round.number, restored.match.table, restored.slot) == (number, table, 2)
    assert restored.match.round_id == restored.round_id
    assert restored.marked_by == organiser and restored.marked_at == marked.marked_at
    assert not archive_import(archive.dumps(doc)).changed  # found again by its match


def test_an_archive_written_before_feature_matches_imports_with_none(exported: Exported) -> None:
    event, _organiser, doc = exported
    del doc["feature_matches"]
    delete_event(event)

    report = archive_import(archive.dumps(doc))

    assert "feature_matches" not in report.counts
    assert Tournament.objects.filter(slug=event.slug).exists()
    assert not FeatureMatch.objects.exists()


def test_the_archive_s_slot_range_is_the_overlays() -> None:
    assert archive.FEATURE_SLOTS == MAX_SLOT


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f, other: f.update(slot=0), "'slot' is 1 to 8"),
        (lambda f, other: f.update(slot=MAX_SLOT + 1), "'slot' is 1 to 8"),
        (lambda f, other: f.update(slot="2"), "'slot' must be a whole number"),
        (lambda f, other: f.update(match="M9.1"), "'match' names nothing in this archive"),
        (lambda f, other: f.update(marked_by="nobody-here"), "'marked_by' names nothing"),
    ],
)
def test_a_bad_feature_match_is_refused_naming_its_place(
    change: Any, message: str, exported: Exported
) -> None:
    _event, _organiser, doc = exported
    change(doc["feature_matches"][0], None)
    with pytest.raises(ArchiveError) as refused:
        archive.parse(doc)
    assert refused.value.where == "feature_matches[0]"
    assert message in str(refused.value)


def test_two_feature_matches_in_one_slot_of_a_round_or_one_match_twice_are_refused(
    exported: Exported,
) -> None:
    _event, _organiser, doc = exported
    first = doc["feature_matches"][0]
    same_round = [
        m["key"]
        for m in doc["matches"]
        if m["key"].split(".")[0] == first["match"].split(".")[0] and m["key"] != first["match"]
    ]
    for second in ({**first, "match": same_round[0]}, {**first, "slot": 3}):
        broken = copy.deepcopy(doc)
        broken["feature_matches"].append(second)
        with pytest.raises(ArchiveError) as refused:
            archive.parse(broken)
        assert refused.value.where == "feature_matches[1]"
        assert "duplicate" in str(refused.value)
