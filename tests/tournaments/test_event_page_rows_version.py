"""Issue 19: the event page takes the event's rounds, stages and organisers from what the process
kept for their version (tournaments.selectors.page_rows_version, config.prepared's
`remember`). The version must move with every change of any of those rows, so a change shows
on the page at once: each kind of change here fails the test if it leaves the version as it
was. PostgreSQL only (the version is read from its rows' ``xmin`` and ``ctid``); on another
database there is no version and the page reads the rows each time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config import prepared
from matches.models import Round, RoundStatus
from tests.factories import OrganiserFactory, TournamentFactory, logged_in
from tests.scenarios import RunningTopCut
from tests.support import missing_service, without_csrf_value
from tournaments import event_page, selectors
from tournaments.models import Stage, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """One moment for the whole test (the timer's `data-now`), so two renders of the same
    page can be compared byte for byte."""
    frozen = timezone.now().replace(microsecond=0)
    monkeypatch.setattr(timezone, "now", lambda: frozen)


@pytest.fixture
def postgres(db: None) -> None:
    if connection.vendor != "postgresql":
        missing_service("needs PostgreSQL: set DATABASE_URL")


def _version(event: Tournament) -> str | None:
    return selectors.page_rows_version(Tournament.objects.get(pk=event.pk))


def _round(scene: RunningTopCut) -> Round:
    return Round.objects.get(pk=scene.cut.pk)


def _stage(scene: RunningTopCut) -> Stage:
    return Stage.objects.filter(tournament=scene.event).order_by("number").last()  # type: ignore[return-value]


def _new_organiser(scene: RunningTopCut) -> None:
    scene.event.organisers.add(OrganiserFactory())


def _rename_organiser(scene: RunningTopCut) -> None:
    organiser = scene.event.organisers.get()
    organiser.display_name = "Another name"
    organiser.save()


def _copy_a_round(scene: RunningTopCut) -> None:
    source = _round(scene)
    source.pk = None
    source.number = 99
    source.stage_number = 7  # the one unfinished round of its stage
    source.save()


def _copy_a_stage(scene: RunningTopCut) -> None:
    source = _stage(scene)
    source.pk = None
    source.number = 9
    source.save()


def _save_unchanged(row: Any) -> None:
    row.save()  # the same values written again: a new version of the row all the same


# Every kind of change to the rows the page keeps: an update of any column (through save or
# through a queryset's update, which sends no signal), an insert and a delete, of a round,
# a stage, an organiser's link and an organiser's account.
CHANGES: dict[str, Callable[[RunningTopCut], None]] = {
    "a round's status": lambda s: Round.objects.filter(pk=s.cut.pk).update(
        status=RoundStatus.FINISHED
    ),
    "a round's timer": lambda s: Round.objects.filter(pk=s.cut.pk).update(timer={"minutes": 1}),
    "a round's name, saved": lambda s: setattr(r := _round(s), "name", "Renamed") or r.save(),
    "a round saved unchanged": lambda s: _save_unchanged(_round(s)),
    "a round added": _copy_a_round,
    "a round deleted": lambda s: Round.objects.filter(pk=s.cut.pk).delete(),
    "a stage's name": lambda s: Stage.objects.filter(pk=_stage(s).pk).update(name="Renamed"),
    "a stage's players": lambda s: Stage.objects.filter(pk=_stage(s).pk).update(players=[1]),
    "a stage added": _copy_a_stage,
    "a stage deleted": lambda s: _stage(s).delete(),
    "an organiser added": _new_organiser,
    "an organiser removed": lambda s: s.event.organisers.clear(),
    "an organiser's name": _rename_organiser,
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_every_change_of_the_rows_the_page_keeps_moves_their_version(
    postgres: None, running_top_cut: RunningTopCut, change: str
) -> None:
    event = running_top_cut.event
    before = _version(event)
    assert before is not None
    assert _version(event) == before  # nothing changed: the same version (what makes it pay)
    CHANGES[change](running_top_cut)
    after = _version(event)
    assert after != before
    assert _version(event) == after


def test_two_changes_of_one_row_in_one_transaction_each_move_the_version(
    postgres: None, running_top_cut: RunningTopCut
) -> None:
    event = running_top_cut.event
    seen = {_version(event)}
    with transaction.atomic():
        for name in ("First", "Second", "Third"):
            Round.objects.filter(pk=running_top_cut.cut.pk).update(name=name)
            seen.add(_version(event))
    assert len(seen) == 4


def test_another_events_change_leaves_the_version(
    postgres: None, running_top_cut: RunningTopCut
) -> None:
    event = running_top_cut.event
    before = _version(event)
    other = TournamentFactory(organisers=[OrganiserFactory()])
    Stage.objects.create(tournament=other, number=1, name="Other", kind="swiss")
    other.organisers.get().save()
    assert _version(event) == before


def test_the_page_reads_the_kept_rows_once_per_version(
    postgres: None, running_top_cut: RunningTopCut
) -> None:
    event = running_top_cut.event
    client = logged_in(running_top_cut.registrations[0].player)
    path = f"/events/{event.slug}/"
    prepared.forget_remembered()
    client.get(path)  # reads the rows and keeps them
    with CaptureQueriesContext(connection) as again:
        assert client.get(path).status_code == 200
    # the rows' own reads (each selects its table's columns first); the version's query and
    # the event's (whose roles subqueries name the organisers' table) are not among them
    tables = ("matches_round", "tournaments_stage", "accounts_user")
    assert not [
        q["sql"]
        for q in again.captured_queries
        if q["sql"].startswith(tuple(f'SELECT "{table}".' for table in tables))
        or q["sql"].startswith('SELECT "stage_number"')
    ]
    Round.objects.filter(pk=running_top_cut.cut.pk).update(name="Renamed")
    with CaptureQueriesContext(connection) as changed:
        client.get(path)
    assert any(q["sql"].startswith('SELECT "matches_round".') for q in changed.captured_queries)
    assert any(q["sql"].startswith('SELECT "stage_number"') for q in changed.captured_queries)


def _page_without_kept_rows(monkeypatch: pytest.MonkeyPatch, client: Client, path: str) -> bytes:
    """The page as it reads every row itself (no version: nothing kept is used)."""
    with monkeypatch.context() as patched:
        patched.setattr(event_page, "event_rows_version", lambda event: None)
        body: bytes = client.get(path).content
    return body


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_change_shows_on_the_page_at_once(
    postgres: None,
    running_top_cut: RunningTopCut,
    monkeypatch: pytest.MonkeyPatch,
    change: str,
) -> None:
    """After each change, the page from the kept rows is the page that reads every row
    (the forms' CSRF tokens aside), for the organiser, who sees every round and stage."""
    event = running_top_cut.event
    client = logged_in(running_top_cut.organiser)
    path = f"/events/{event.slug}/"
    client.get(path)  # the rows kept for the version before the change
    CHANGES[change](running_top_cut)
    kept = without_csrf_value(client.get(path).content)
    assert kept == without_csrf_value(_page_without_kept_rows(monkeypatch, client, path))


def test_an_organisers_new_name_shows_in_the_json_ld_at_once(
    postgres: None, running_top_cut: RunningTopCut
) -> None:
    event = running_top_cut.event
    client = logged_in(running_top_cut.registrations[0].player)
    path = f"/events/{event.slug}/"
    assert b"Another name" not in client.get(path).content
    _rename_organiser(running_top_cut)
    assert b"Another name" in client.get(path).content


def test_only_postgresql_has_a_version(running_top_cut: RunningTopCut) -> None:
    version = selectors.page_rows_version(running_top_cut.event)
    if connection.vendor == "postgresql":
        assert isinstance(version, str) and version
    else:
        assert version is None


def test_the_page_reads_the_version_with_the_events_row(
    postgres: None, running_top_cut: RunningTopCut
) -> None:
    from django.test import RequestFactory

    event = running_top_cut.event
    for reader in (running_top_cut.organiser, running_top_cut.registrations[0].player):
        request = RequestFactory().get(f"/events/{event.slug}/")
        request.user = reader
        with CaptureQueriesContext(connection) as queries:
            found = selectors.visible_event_with_roles(request, event.slug)
            version = selectors.event_rows_version(found)
        assert len(queries.captured_queries) == 1
        assert version == selectors.page_rows_version(event) is not None
    Round.objects.filter(pk=running_top_cut.cut.pk).update(name="Renamed")
    request.user = running_top_cut.organiser
    again = selectors.visible_event_with_roles(request, event.slug)
    assert selectors.event_rows_version(again) == _version(event) != version
