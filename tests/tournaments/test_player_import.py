"""Bulk player import (issue 18): a roster CSV previewed row by row, then all or nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.models import DecklistVersion
from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    organiser_of,
)
from tournaments import roster_import
from tournaments.models import AuditEntry, Registration, RegistrationStatus
from tournaments.roster_csv import MAX_CELL, MAX_ROSTER_ROWS, read_roster
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def _import(event, text: str, dry_run: bool = False, **kwargs):  # type: ignore[no-untyped-def]
    return roster_import.registrations_import(
        actor=organiser_of(event), tournament=event, data=text, dry_run=dry_run, **kwargs
    )


def _problems(preview) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    return [(p.row, p.column) for p in preview.all_problems]


# --- the CSV reader (pure) ----------------------------------------------------------------------


def test_the_reader_takes_another_systems_headers_and_names_rows_by_line() -> None:
    roster = read_roster("Player Name,E-mail,Player ID,Deck\nAda,ada@example.com,,\n,,,\nBo,,,\n")
    assert [(r.row, r.name, r.email) for r in roster.rows] == [
        (2, "Ada", "ada@example.com"),
        (4, "Bo", ""),
    ]
    assert not roster.problems


def test_the_reader_bounds_rows_cells_and_the_file() -> None:
    too_long = read_roster(f"name\n{'x' * (MAX_CELL['name'] + 1)}\n")
    assert [(p.row, p.column) for p in too_long.rows[0].problems] == [(2, "name")]
    huge_cell = read_roster('name,decklist\nAda,"' + "x" * 200_000 + '"\nBo,\n')
    assert huge_cell.rows[0].problems and huge_cell.rows[-1].name == "Bo"
    many = read_roster("name\n" + "".join(f"P{i}\n" for i in range(MAX_ROSTER_ROWS + 5)))
    assert len(many.rows) == MAX_ROSTER_ROWS and many.problems[0].column == "file"
    assert read_roster(b"\xff\xfe").problems[0].column == "file"
    assert read_roster("").problems[0].column == "header"
    assert read_roster("colour\nred\n").problems[0].column == "header"
    twice = read_roster("name,E-mail,email\nA,a@example.com,b@example.com\n").problems[0]
    assert (twice.row, twice.column) == (1, "header")
    assert twice.translated(str).reason == "the column email is given twice"


@settings(max_examples=60)
@given(st.text(max_size=400))
def test_the_reader_never_raises_and_every_problem_names_a_row_and_column(text: str) -> None:
    roster = read_roster(text)
    for problem in [*roster.problems, *(p for r in roster.rows for p in r.problems)]:
        assert problem.row >= 0 and problem.column and problem.reason


# --- the service --------------------------------------------------------------------------------


def test_accounts_are_matched_by_email_or_player_id_and_the_rest_are_walk_ins() -> None:
    event = TournamentFactory()
    by_email, by_id = UserFactory(), UserFactory()
    text = (
        "name,email,player_id\n"
        f"Whoever,{by_email.email.upper()},\n"
        f",,{by_id.player_id.lower()}\n"
        "Walk In,new@example.com,\n"
    )
    preview = _import(event, text, dry_run=True)
    assert preview.ok and [r.action for r in preview.rows] == ["register", "register", "walk_in"]
    assert not Registration.objects.filter(tournament=event).exists()  # a preview saves nothing

    saved = _import(event, text)
    assert saved.saved
    registrations = Registration.objects.filter(tournament=event)
    assert {r.player_id for r in registrations} == {by_email.pk, by_id.pk, None}
    walk_in = registrations.get(player__isnull=True)
    assert walk_in.walk_in_name == "Walk In" and walk_in.claim_code
    assert AuditEntry.objects.filter(tournament=event, action="registration.imported").count() == 3
    assert AuditEntry.objects.filter(tournament=event, action="registrations.imported").exists()
    # Importing the same roster again changes nothing: everyone is in already.
    again = _import(event, text)
    assert [r.action for r in again.rows] == ["skip", "skip", "skip"]
    assert Registration.objects.filter(tournament=event).count() == 3
    from accounts.models import User

    assert User.objects.count() == 2 + event.organisers.count()  # no account was made


def test_an_email_of_one_account_and_a_player_id_of_another_is_a_row_problem() -> None:
    event = TournamentFactory()
    a, b = UserFactory(), UserFactory()
    text = f"name,email,player_id\nX,{a.email},{b.player_id}\n"
    preview = _import(event, text, dry_run=True)
    assert _problems(preview) == [(2, "player_id")]
    with pytest.raises(roster_import.RosterImportRefused):
        _import(event, text)
    assert not Registration.objects.filter(tournament=event).exists()


def test_one_bad_row_saves_nothing_and_every_problem_is_named() -> None:
    event = TournamentFactory()
    good = UserFactory()
    text = (
        "name,email,player_id\n"
        f"Good,{good.email},\n"
        "Bad,not-an-email,\n"
        "Nobody,,ZZZ-ZZZ\n"
        ",,\n"
        f"Again,{good.email},\n"
    )
    with pytest.raises(roster_import.RosterImportRefused) as refused:
        _import(event, text)
    assert _problems(refused.value.preview) == [(3, "email"), (4, "player_id"), (6, "row")]
    assert not Registration.objects.filter(tournament=event).exists()
    assert not AuditEntry.objects.filter(tournament=event, action__contains="import").exists()


def test_capacity_closed_events_and_removed_players() -> None:
    event = TournamentFactory(capacity=2)
    RegistrationFactory(tournament=event)
    text = "name\nOne\nTwo\n"
    with pytest.raises(roster_import.RosterImportRefused) as full:
        _import(event, text)
    assert _problems(full.value.preview) == [(0, "capacity")]
    _import(event, text, over_capacity=True)
    assert event.registrations.filter(status=RegistrationStatus.REGISTERED).count() == 3

    finished = TournamentFactory(status=EventStatus.FINISHED.value)
    assert _problems(_import(finished, text, dry_run=True)) == [(0, "event")]
    closed = TournamentFactory(status=EventStatus.REGISTRATION_CLOSED.value)
    assert _import(closed, text).saved  # organisers add players after registration closes

    removed = RegistrationFactory(status=RegistrationStatus.REMOVED)
    preview = _import(removed.tournament, f"email\n{removed.player.email}\n", dry_run=True)
    assert _problems(preview) == [(2, "row")]


def test_only_the_events_organisers_import() -> None:
    from config.errors import Forbidden

    event = TournamentFactory()
    with pytest.raises(Forbidden):
        roster_import.registrations_import(
            actor=OrganiserFactory(), tournament=event, data="name\nX\n", dry_run=True
        )


def test_decklists_go_through_the_deck_service(legal_list: str, illegal_list: str) -> None:
    from decks.services import demo_event_catalog

    event = TournamentFactory()
    demo_event_catalog(event=event)
    player = UserFactory()
    rows = [
        ("Legal", player.email, legal_list),
        ("Illegal", "", illegal_list),
        ("Unreadable", "", "3 No Such Card Anywhere"),
    ]
    text = _roster(rows)
    preview = _import(event, text, dry_run=True)
    assert _problems(preview) == [(preview.rows[2].row, "decklist")]
    assert [w.column for w in preview.rows[1].warnings] == ["decklist"]
    ok = _import(event, _roster(rows[:2]))
    assert ok.saved
    versions = DecklistVersion.objects.filter(decklist__registration__tournament=event)
    assert sorted(v.legal for v in versions) == [False, True]
    assert all(v.entered_by_staff for v in versions)


def _roster(rows: list[tuple[str, str, str]]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["name", "email", "decklist"])
    writer.writerows(rows)
    return out.getvalue()


# --- the API ------------------------------------------------------------------------------------


def test_the_api_previews_then_imports_and_refuses_with_every_problem(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory()
    url = f"/api/events/{event.slug}/registrations/import/"
    api_client.force_authenticate(UserFactory())
    assert api_client.post(url, {"csv": "name\nX\n"}, format="json").status_code == 403
    api_client.force_authenticate(organiser_of(event))
    preview = api_client.post(url, {"csv": "name\nAda\nBo\n", "dry_run": True}, format="json")
    assert preview.status_code == 200 and preview.json()["counts"]["walk_ins"] == 2
    assert not Registration.objects.filter(tournament=event).exists()

    refused = api_client.post(url, {"csv": "name,email\nAda,\nBo,nope\n"}, format="json")
    body = refused.json()
    assert refused.status_code == 400 and body["field"] == "rows"
    assert body["preview"]["rows"][1]["problems"] == [
        {"row": 3, "column": "email", "reason": "not an e-mail address"}
    ]
    assert not Registration.objects.filter(tournament=event).exists()

    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("roster.csv", b"name\nAda\nBo\n", content_type="text/csv")
    done = api_client.post(url, {"file": upload}, format="multipart")
    assert done.status_code == 201 and done.json()["saved"] is True
    assert [r["claim_code"] is not None for r in done.json()["rows"]] == [True, True]
    assert Registration.objects.filter(tournament=event).count() == 2


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "csv"),
        ({"csv": "x" * (2 * 1024 * 1024 + 1)}, "csv"),
        ({"csv": "name\nA", "dry_run": "maybe"}, "dry_run"),
    ],
)
def test_the_api_names_a_bad_field(api_client, payload: dict, field: str) -> None:  # type: ignore[no-untyped-def,type-arg]
    event = TournamentFactory()
    api_client.force_authenticate(organiser_of(event))
    response = api_client.post(
        f"/api/events/{event.slug}/registrations/import/", payload, format="json"
    )
    assert response.status_code == 400 and field in response.json()


# --- the page -----------------------------------------------------------------------------------


def test_the_page_previews_then_imports_on_confirmation() -> None:
    from tests.factories import logged_in

    event = TournamentFactory()
    player = UserFactory()
    client = logged_in(organiser_of(event))
    url = f"/events/{event.slug}/manage/players/import/"
    assert url in client.get(f"/events/{event.slug}/manage/").content.decode()
    assert logged_in(UserFactory()).get(url).status_code == 403

    roster = f"name,email\nAda,{player.email}\nWally,\n"
    preview = client.post(url, {"csv": roster})
    page = preview.content.decode()
    assert preview.status_code == 200 and "Import 2 players" in page
    assert not Registration.objects.filter(tournament=event).exists()
    from tests.support import PageAudit

    audit = PageAudit()
    audit.feed(page)
    assert audit.report() == []

    import html
    import re

    # The confirmation posts back the roster the preview showed.
    shown = re.search(r'<input type="hidden" name="csv" value="([^"]*)">', page)
    assert shown is not None and html.unescape(shown.group(1)) == roster
    done = client.post(url, {"csv": html.unescape(shown.group(1)), "confirm": "yes"})
    assert done.status_code == 302
    assert Registration.objects.filter(tournament=event).count() == 2


def test_the_page_names_each_problem_and_saves_nothing() -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.factories import logged_in

    event = TournamentFactory()
    client = logged_in(organiser_of(event))
    upload = SimpleUploadedFile("roster.csv", b"name,email\nAda,nope\nBo,\n", "text/csv")
    response = client.post(
        f"/events/{event.slug}/manage/players/import/", {"file": upload, "confirm": "yes"}
    )
    page = response.content.decode()
    assert response.status_code == 400 and "not an e-mail address" in page
    assert "Import 1 player" not in page
    assert not Registration.objects.filter(tournament=event).exists()
