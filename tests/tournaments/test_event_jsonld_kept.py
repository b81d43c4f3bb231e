"""The event page's JSON-LD is kept per process for the version of the page's rows and every
value of the event it reads (tournaments.jsonld.event_jsonld_text): a change of any of those
values gives the text built afresh, and without a version nothing is kept."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from organisations.models import Organisation
from tests.factories import OrganiserFactory, TournamentFactory
from tournaments import jsonld
from tournaments.models import Tournament
from tournaments.selectors import ROWS_VERSION_ATTR
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db

BASE = "https://x.test/"


def _fresh(event: Tournament, base_url: str = BASE) -> str:
    return str(jsonld.jsonld_script_text(jsonld.event_jsonld(event, base_url)))


def _event(version: str | None = "v1") -> Tournament:
    event: Tournament = TournamentFactory(organisers=[OrganiserFactory()], description="")
    if version is not None:
        setattr(event, ROWS_VERSION_ATTR, version)
    return event


def _organisation(event: Tournament) -> None:
    event.organisation = Organisation(name="Dragon Den", slug="dragon-den")


CHANGES: list[tuple[str, Callable[[Tournament], None]]] = [
    ("name", lambda e: setattr(e, "name", e.name + " II")),
    ("starts_at", lambda e: setattr(e, "starts_at", e.starts_at + timedelta(hours=1))),
    ("time_zone", lambda e: setattr(e, "time_zone", "Asia/Tokyo")),
    ("venue", lambda e: setattr(e, "venue", "Back room")),
    ("city", lambda e: setattr(e, "city", "Leeds")),
    ("status", lambda e: setattr(e, "status", EventStatus.CANCELLED.value)),
    ("description", lambda e: setattr(e, "description", "Bring sleeves")),
    ("game", lambda e: setattr(e, "game", "bos")),
    ("format_key", lambda e: setattr(e, "format_key", "not-a-format")),
    ("slug", lambda e: setattr(e, "slug", e.slug + "-2")),
    ("organisation", _organisation),
    ("version", lambda e: setattr(e, ROWS_VERSION_ATTR, "v2")),
]


@pytest.mark.parametrize("name,change", CHANGES, ids=[name for name, _ in CHANGES])
def test_a_change_of_any_value_read_gives_the_text_built_afresh(
    name: str, change: Callable[[Tournament], None]
) -> None:
    event = _event()
    before = jsonld.event_jsonld_text(event, BASE)
    assert before == _fresh(event)
    change(event)
    after = jsonld.event_jsonld_text(event, BASE)
    assert after == _fresh(event)
    if name != "version":  # a new version alone may give the same text
        assert after != before


def test_another_host_gives_its_own_text() -> None:
    event = _event()
    assert jsonld.event_jsonld_text(event, BASE) == _fresh(event)
    other = "https://y.test/"
    assert jsonld.event_jsonld_text(event, other) == _fresh(event, other) != _fresh(event)


def test_the_same_values_are_not_built_again(monkeypatch: pytest.MonkeyPatch) -> None:
    event = _event("v-kept")
    first = jsonld.event_jsonld_text(event, BASE)

    def built_again(*args: Any) -> Any:
        raise AssertionError("built again")

    monkeypatch.setattr(jsonld, "event_jsonld", built_again)
    assert jsonld.event_jsonld_text(event, BASE) == first


def test_without_a_version_nothing_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    event = _event(version=None)
    calls: list[int] = []
    build = jsonld.event_jsonld

    def counted(*args: Any) -> Any:
        calls.append(1)
        return build(*args)

    monkeypatch.setattr(jsonld, "event_jsonld", counted)
    jsonld.event_jsonld_text(event, BASE)
    jsonld.event_jsonld_text(event, BASE)
    assert len(calls) == 2


def test_at_most_kept_max_texts_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonld, "KEPT_MAX", 2)
    event = _event()
    for version in ("a", "b", "c"):
        setattr(event, ROWS_VERSION_ATTR, version)
        jsonld.event_jsonld_text(event, BASE)
    assert len(jsonld._kept) <= 2
