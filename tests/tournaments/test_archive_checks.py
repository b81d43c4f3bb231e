"""An archive import checks every value as the site's own forms and API would, and writes cards
only into a catalog of the importing event's own (issue 18, security finding 2).

Each refused archive names the place, and the installation is left exactly as it was: no
event, no user, no card, and every page still answers.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from decks.models import Card, Catalog, EventCatalog
from eventdata import archive
from eventdata.archive import ArchiveError
from eventdata.archive_selectors import event_archive
from eventdata.archive_services import archive_import
from matches.models import Match
from tests.factories import OrganiserFactory
from tests.tournaments.archive_scenes import build_event, delete_event
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def exported_once(module_db: None) -> dict[str, Any]:
    """A real event's archive, the event itself then deleted from this installation (made
    once for the module: tests/conftest.py's module_db rolls it back at the module's end)."""
    event, _organiser, _regs = build_event(players=5)
    doc = event_archive(event)
    delete_event(event)
    return doc


@pytest.fixture
def exported(exported_once: dict[str, Any], db: None) -> dict[str, Any]:
    """The archive (a copy of its own), on the installation it was exported from; each test's
    changes are rolled back."""
    return copy.deepcopy(exported_once)


def _first_played(doc: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in doc["matches"] if m["b"] is not None and m["games_a"] is not None)


def _deep(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = [value]
    return value


Edit = Callable[[dict[str, Any]], None]

REFUSED: list[tuple[str, Edit, str]] = [
    ("unknown game", lambda d: d["event"].update(game="chess"), "'game'"),
    ("unknown format", lambda d: d["event"].update(format_key="vintage"), "'format_key'"),
    (
        "format parameters the format refuses",
        lambda d: d["event"].update(format_params={"deck_size": -4}),
        "'format_params'",
    ),
    ("unknown match structure", lambda d: d["event"].update(match_structure="bo9"), "structure"),
    ("unknown status", lambda d: d["event"].update(status="exploded"), "'status'"),
    ("a blank-looking name", lambda d: d["event"].update(name="\u3164\u3164"), "'name'"),
    ("a NUL in the slug", lambda d: d["event"].update(slug="spring\x00open"), "event.slug"),
    ("a slug with a space", lambda d: d["event"].update(slug="spring open"), "'slug'"),
    ("an overflowing timer", lambda d: d["event"].update(round_minutes=1e400), "'round_minutes'"),
    ("a negative timer", lambda d: d["event"].update(round_minutes=-5), "'round_minutes'"),
    ("an unknown time zone", lambda d: d["event"].update(time_zone="Mars/Olympus"), "time_zone"),
    ("a round stage", lambda d: d["rounds"][0].update(stage="semifinal"), "'stage'"),
    ("a match status", lambda d: _first_played(d).update(status="lost"), "'status'"),
    (
        "two wins in a best of one",
        lambda d: _first_played(d).update(games_a=2, games_b=0, games_drawn=0),
        "best of 1",
    ),
    (
        "both players winning",
        lambda d: _first_played(d).update(games_a=1, games_b=1, games_drawn=0),
        "'games_a'",
    ),
    (
        "more trophies than seven battles",
        lambda d: _first_played(d).update(battles=[[9, 9]]),
        "'battles'",
    ),
    ("a NUL in a reason", lambda d: _first_played(d).update(reason="a\x00b"), "NUL"),
    ("deeply nested battles", lambda d: _first_played(d).update(battles=_deep(200)), "'battles'"),
    (
        "deeply nested pairing statistics",
        lambda d: d["rounds"][0].update(pairing_stats=_deep(200)),
        "nested",
    ),
    (
        "an unknown registration status",
        lambda d: d["registrations"][0].update(status="x"),
        "status",
    ),
    (
        "a walk-in with a private-use name",
        lambda d: next(r for r in d["registrations"] if r["player"] is None).update(
            walk_in_name="\ue000\ue001"
        ),
        "walk_in_name",
    ),
    ("a card of another game", lambda d: d["cards"][0].update(game="bos"), "cards[0]"),
]


@pytest.mark.parametrize(("what", "edit", "named"), REFUSED, ids=[r[0] for r in REFUSED])
def test_an_archive_value_the_site_would_refuse_is_refused_naming_it_and_nothing_is_written(
    exported: dict[str, Any], what: str, edit: Edit, named: str
) -> None:
    doc = copy.deepcopy(exported)
    edit(doc)
    users, cards, catalogs = User.objects.count(), Card.objects.count(), Catalog.objects.count()
    with pytest.raises(ArchiveError) as refused:
        archive_import(archive.dumps(doc))
    assert named in str(refused.value), (what, str(refused.value))
    assert not Tournament.objects.exists()
    assert (User.objects.count(), Card.objects.count(), Catalog.objects.count()) == (
        users,
        cards,
        catalogs,
    )
    assert Client().get("/").status_code == 200


def test_the_unchanged_archive_still_imports(exported: dict[str, Any]) -> None:
    """The checks refuse only what is wrong: the exported archive itself imports."""
    archive_import(archive.dumps(exported))
    assert Tournament.objects.filter(slug=exported["event"]["slug"]).exists()
    assert Match.objects.filter(round__tournament__slug=exported["event"]["slug"]).exists()


def test_cards_naming_the_official_catalog_never_change_what_other_events_read(
    exported: dict[str, Any],
) -> None:
    official = Catalog.objects.create(
        game="boba", slug="boba-official", name="Official", kind=Catalog.Kind.OFFICIAL
    )
    doc = copy.deepcopy(exported)
    doc["event"]["card_catalog"] = official.slug
    for card in doc["cards"]:
        card["catalog"] = official.slug
        card["name"] = f"Rewritten {card['name']}"
    archive_import(archive.dumps(doc))

    assert not Card.objects.filter(catalog=official).exists(), "nothing written to the official"
    event = Tournament.objects.get(slug=doc["event"]["slug"])
    own = EventCatalog.objects.get(tournament=event).catalog
    assert own.slug == f"archive-{event.slug}" and own.kind == Catalog.Kind.CUSTOM
    assert Card.objects.filter(catalog=own).count() == len(doc["cards"])
    # Importing it again changes nothing.
    assert not archive_import(archive.dumps(doc)).changed


def test_an_existing_official_card_is_read_not_rewritten(exported: dict[str, Any]) -> None:
    official = Catalog.objects.create(
        game="boba", slug="boba-official", name="Official", kind=Catalog.Kind.OFFICIAL
    )
    for card in exported["cards"]:
        Card.objects.create(
            catalog=official,
            **{k: v for k, v in card.items() if k in {"game", "external_id"}},
            name=card["name"],
        )
    doc = copy.deepcopy(exported)
    doc["event"]["card_catalog"] = official.slug
    for card in doc["cards"]:
        card["catalog"] = official.slug
        card["name"] = "Rewritten"
    archive_import(archive.dumps(doc))
    assert not Card.objects.filter(name="Rewritten").exists()
    event = Tournament.objects.get(slug=doc["event"]["slug"])
    assert EventCatalog.objects.get(tournament=event).catalog == official
    assert not Catalog.objects.filter(slug__startswith="archive-").exists()


def test_cards_naming_another_organisers_catalog_are_not_written_there(
    exported: dict[str, Any],
) -> None:
    stranger = OrganiserFactory()
    theirs = Catalog.objects.create(
        game="boba", slug="their-cards", name="Theirs", kind=Catalog.Kind.CUSTOM, owner=stranger
    )
    doc = copy.deepcopy(exported)
    doc["event"]["card_catalog"] = theirs.slug
    for card in doc["cards"]:
        card["catalog"] = theirs.slug
    report = archive_import(archive.dumps(doc))
    assert not Card.objects.filter(catalog=theirs).exists()
    event = Tournament.objects.get(slug=doc["event"]["slug"])
    assert EventCatalog.objects.get(tournament=event).catalog.slug == f"archive-{event.slug}"
    assert any("their-cards" in note for note in report.notes)
