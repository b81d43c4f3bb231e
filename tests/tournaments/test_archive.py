"""Event archive and restore (export_event / import_event), the archive kept after each round,
and the CSV exports of standings, pairings and results."""

from __future__ import annotations

import copy
import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.models import User
from config.csvfile import csv_text, safe_cell
from decks.models import Decklist, DecklistVersion
from eventdata import archive
from eventdata.archive import ArchiveError
from eventdata.archive_selectors import event_archive
from eventdata.archive_services import archive_import
from eventdata.archive_store import archive_store_round, stored_archives
from matches import exports
from matches import services as ms
from matches.models import Match, ResultVersion, Ruling
from tests.factories import UserFactory, logged_in
from tests.scenarios import client_for, own_copy, running_event
from tests.support import fresh_manage
from tests.tournaments.archive_scenes import (
    NASTY_NAMES,
    build_event,
    delete_event,
    play_round,
    submit_decklist,
)
from tournaments import services as ts
from tournaments.models import AuditEntry, Registration, Tournament


def keyed_standings(event: Tournament) -> list[tuple[Any, ...]]:
    """Standings recomputed from the results, players named by their archive key (tied
    players share a rank; their order among themselves follows ids, so it is not compared)."""
    key = {r.pk: f"R{n}" for n, r in enumerate(event.registrations.order_by("created_at", "id"), 1)}
    last = ms.last_finished_swiss_round(event)
    assert last is not None
    rows = ms.standings_rows(event, ms.swiss_history(event, upto=last.number))
    return sorted(
        (row["rank"], key[row["registration"]], row["points"], row["record"], row["tiebreakers"])
        for row in rows
    )


Built = tuple[Tournament, Any, list[Registration]]


@pytest.fixture(scope="module")
def event_of_five_once(module_db: None) -> Built:
    """archive_scenes.build_event of 5 players, built once for the module (tests/scenarios.py:
    sharing a world)."""
    return build_event(players=5)


@pytest.fixture
def event_of_five(event_of_five_once: Built, db: None) -> Built:
    """The event, its organiser and its registrations (the test's own copies; each test's
    changes are rolled back)."""
    return own_copy(event_of_five_once)


def _round_trip() -> None:
    event, _organiser, regs = build_event()
    slug = event.slug
    before_standings = keyed_standings(event)
    first = event_archive(event)
    text = archive.dumps(first)
    counts = {
        "versions": ResultVersion.objects.filter(match__round__tournament=event).count(),
        "audit": AuditEntry.objects.filter(tournament=event).count(),
    }
    delete_event(event)
    # A player whose account is gone on this installation: made again from the archive.
    gone = regs[3].player
    gone_name, gone_player_id = gone.username, gone.player_id
    gone.delete()
    assert not Tournament.objects.filter(slug=slug).exists()

    report = archive_import(text)
    assert report.counts["users"]["created"] == 1
    assert report.counts["matches"]["created"] > 0
    restored = Tournament.objects.get(slug=slug)
    again = event_archive(restored)
    assert archive.comparable(again) == archive.comparable(first)
    assert keyed_standings(restored) == before_standings
    assert (
        ResultVersion.objects.filter(match__round__tournament=restored).count()
        == (counts["versions"])
    )
    assert AuditEntry.objects.filter(tournament=restored).count() == counts["audit"]
    remade = User.objects.get(username=gone_name)
    assert remade.player_id == gone_player_id
    assert not remade.has_usable_password()
    assert Ruling.objects.filter(call__tournament=restored).count() == 1
    assert DecklistVersion.objects.filter(decklist__registration__tournament=restored).exists()

    # Importing the same archive again changes nothing.
    twice = archive_import(text)
    assert not twice.changed
    assert archive.comparable(event_archive(restored)) == archive.comparable(first)


@pytest.mark.django_db
def test_an_event_survives_export_delete_import_export_unchanged() -> None:
    _round_trip()


@pytest.mark.services
def test_round_trip_on_postgresql(require_postgres: None) -> None:
    _round_trip()


@pytest.mark.django_db
def test_a_dry_run_reports_what_it_would_create_and_writes_nothing(event_of_five: Built) -> None:
    event, _organiser, _regs = event_of_five
    text = archive.dumps(event_archive(event))
    slug = event.slug
    delete_event(event)
    users_before = User.objects.count()
    report = archive_import(text, dry_run=True)
    assert report.dry_run and report.changed
    assert report.counts["event"]["created"] == 1
    assert report.counts["rounds"]["created"] == 3
    assert not Tournament.objects.filter(slug=slug).exists()
    assert User.objects.count() == users_before


@pytest.mark.django_db
def test_a_change_since_the_archive_is_reported_and_restored(event_of_five: Built) -> None:
    event, _organiser, _regs = event_of_five
    text = archive.dumps(event_archive(event))
    match = Match.objects.filter(round__tournament=event, round__number=1).first()
    assert match is not None
    Match.objects.filter(pk=match.pk).update(table=99)
    report = archive_import(text, dry_run=True)
    assert report.counts["matches"]["updated"] == 1
    assert Match.objects.get(pk=match.pk).table == 99  # the dry run wrote nothing
    archive_import(text)
    assert Match.objects.get(pk=match.pk).table != 99


@pytest.mark.django_db
def test_an_archive_the_database_refuses_imports_nothing(event_of_five: Built) -> None:
    event, _organiser, _regs = event_of_five
    doc = event_archive(event)
    delete_event(event)
    doc["matches"][-1]["games_a"] = "lots"
    with pytest.raises(ArchiveError, match="games_a"):
        archive_import(doc)
    assert not Tournament.objects.filter(slug=doc["event"]["slug"]).exists()


def test_the_parser_names_the_version_it_reads() -> None:
    with pytest.raises(ArchiveError, match="version 2 cannot be read"):
        archive.parse(json.dumps({"format": archive.FORMAT, "version": 2}))
    with pytest.raises(ArchiveError, match="not a Battledesk event archive"):
        archive.parse('{"format": "something else"}')
    with pytest.raises(ArchiveError, match="not JSON"):
        archive.parse(b"\xff\xfe not json")
    with pytest.raises(ArchiveError, match="not JSON"):
        archive.parse("[" * 100_000)


def _minimal() -> dict[str, Any]:
    doc: dict[str, Any] = {"format": archive.FORMAT, "version": archive.VERSION}
    doc.update({name: [] for name in archive.SECTIONS})
    doc["users"] = [{"username": "org", "player_id": "ABC2345"}]
    doc["event"] = {"slug": "an-event", "name": "An Event", "organisers": ["org"]}
    doc["registrations"] = [
        {"key": "R1", "player": "org", "created_at": "2026-01-01T10:00:00+00:00"},
        {"key": "R2", "walk_in_name": "W", "created_at": "2026-01-01T10:00:00+00:00"},
    ]
    doc["rounds"] = [{"number": 1, "stage": "swiss", "status": "finished"}]
    doc["matches"] = [{"key": "M1.1", "round": 1, "a": "R1", "b": "R2"}]
    doc["result_versions"] = [{"match": "M1.1", "number": 1}]
    doc["audit"] = [{"action": "event.created", "created_at": "2026-01-01T10:00:00+00:00"}]
    return doc


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)


def test_the_minimal_archive_parses() -> None:
    assert archive.parse(_minimal())["event"]["slug"] == "an-event"


@settings(max_examples=300)
@given(data=st.data())
def test_a_damaged_archive_gives_an_archive_error_and_nothing_else(data: st.DataObject) -> None:
    doc = _minimal()
    # Walk to a random place in the document and replace or remove what is there.
    node: Any = doc
    path: list[Any] = []
    while isinstance(node, dict | list) and node and data.draw(st.booleans()):
        key = data.draw(
            st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node)))
        )
        path.append(key)
        node = node[key]
    damaged = copy.deepcopy(doc)
    if not path:
        damaged = data.draw(JSON)
    else:
        parent = damaged
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON)
    try:
        archive.parse(json.dumps(damaged))
    except ArchiveError as exc:
        assert str(exc)


@given(text=st.text(max_size=200) | st.binary(max_size=200))
def test_any_text_is_an_archive_or_an_archive_error(text: str | bytes) -> None:
    with pytest.raises(ArchiveError):
        archive.parse(text)


# -- the commands ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_export_then_import_with_the_commands(tmp_path: Path) -> None:
    event, _organiser, _regs = build_event(players=4)
    out = tmp_path / "event.json"
    call_command("export_event", event.slug, "--output", str(out))
    assert json.loads(out.read_text())["format"] == archive.FORMAT
    delete_event(event)
    dry = io.StringIO()
    call_command("import_event", str(out), "--dry-run", stdout=dry)
    assert "dry run, nothing written" in dry.getvalue()
    assert "rounds: would create 3" in dry.getvalue()
    assert not Tournament.objects.filter(slug=event.slug).exists()
    call_command("import_event", str(out), stdout=io.StringIO())
    again = io.StringIO()
    call_command("import_event", str(out), stdout=again)
    assert "no change" in again.getvalue()
    report = io.StringIO()
    call_command("import_event", str(out), "--json", stdout=report)
    assert json.loads(report.getvalue())["changed"] is False


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("not json at all", "not JSON"),
        (json.dumps({"format": archive.FORMAT, "version": 99}), "version 99"),
        (json.dumps({"format": archive.FORMAT, "version": 1}), "expected a list"),
    ],
)
def test_import_of_a_bad_file_exits_2_with_a_message(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "archive.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(CommandError, match=message) as raised:
        call_command("import_event", str(path))
    assert raised.value.returncode == 2


@pytest.mark.django_db
def test_export_of_an_unknown_event_exits_2() -> None:
    with pytest.raises(CommandError, match="no event") as raised:
        call_command("export_event", "no-such-event")
    assert raised.value.returncode == 2


# -- kept after each round --------------------------------------------------------------------


@pytest.mark.django_db
def test_finishing_a_round_keeps_an_archive_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event, organiser, _regs = running_event(4, planned_rounds=3, top_cut_size=0)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = play_round(event, organiser, 1)
    assert round_.status == "finished"
    name = f"archives/{event.slug}/round-swiss-1.json"
    assert default_storage.exists(name)
    kept = json.loads(default_storage.open(name).read())
    assert [r["status"] for r in kept["rounds"]] == ["finished"]
    assert archive_store_round(round_id=round_.pk) == name  # written once, kept
    assert [a.name for a in stored_archives(event)] == ["round-swiss-1.json"]

    page = logged_in(organiser).get(f"/events/{event.slug}/manage/archive/")
    assert page.status_code == 200
    assert b"round-swiss-1.json" in page.content
    dashboard = logged_in(organiser).get(f"/events/{event.slug}/manage/")
    assert f"/events/{event.slug}/manage/archives/round-swiss-1.json".encode() in dashboard.content
    download = logged_in(organiser).get(f"/events/{event.slug}/manage/archives/round-swiss-1.json")
    assert json.loads(b"".join(download.streaming_content))["event"]["slug"] == event.slug
    missing = logged_in(organiser).get(f"/events/{event.slug}/manage/archives/..%2Fsecret.json")
    assert missing.status_code == 404


@pytest.mark.django_db
def test_an_unfinished_round_is_not_archived() -> None:
    event, organiser, _regs = running_event(4)
    round_ = ms.round_pair(actor=organiser, tournament=event)
    assert archive_store_round(round_id=round_.pk) is None


# -- downloads: who may ------------------------------------------------------------------------


@pytest.mark.django_db
def test_organisers_download_the_archive_from_the_dashboard_and_the_api() -> None:
    event, organiser, regs = running_event(3)
    dashboard = logged_in(organiser).get(f"/events/{event.slug}/manage/")
    assert f"/events/{event.slug}/manage/archive.json".encode() in dashboard.content
    page = logged_in(organiser).get(f"/events/{event.slug}/manage/archive.json")
    assert page.status_code == 200
    assert json.loads(page.content)["format"] == archive.FORMAT
    api = client_for(organiser).get(f"/api/events/{event.slug}/archive/")
    assert api.status_code == 200
    assert api.json()["event"]["slug"] == event.slug
    assert len(api.json()["registrations"]) == 3


@pytest.mark.django_db
def test_judges_players_and_the_public_cannot_download_the_archive() -> None:
    event, organiser, regs = running_event(3)
    judge = UserFactory()
    ts.event_set_judge(actor=organiser, tournament=event, user=judge, assigned=True)
    for user in (judge, regs[0].player):
        assert client_for(user).get(f"/api/events/{event.slug}/archive/").status_code == 403
        assert logged_in(user).get(f"/events/{event.slug}/manage/archive.json").status_code == 403
        assert client_for(user).get(f"/api/events/{event.slug}/results.csv").status_code == 403
    dashboard = logged_in(judge).get(f"/events/{event.slug}/manage/")
    assert b"manage/archive.json" not in dashboard.content
    from rest_framework.test import APIClient

    assert APIClient().get(f"/api/events/{event.slug}/archive/").status_code == 403


# -- CSV ---------------------------------------------------------------------------------------


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_csv_helper_neutralises_formulas() -> None:
    for name in NASTY_NAMES:
        assert safe_cell(name) == "'" + name
    assert safe_cell(-3) == "'-3"
    assert safe_cell("Ann") == "Ann" and safe_cell(None) == "" and safe_cell(True) == "yes"
    assert _cells(csv_text(["a", "b"], [["=1", "x"]])) == [["a", "b"], ["'=1", "x"]]


@pytest.mark.django_db
def test_csv_exports_have_a_header_one_line_each_and_no_formula() -> None:
    event, organiser, regs = running_event(len(NASTY_NAMES), planned_rounds=3, top_cut_size=0)
    for reg, name in zip(regs, NASTY_NAMES, strict=True):
        reg.player.display_name = name
        reg.player.save()
    play_round(event, organiser, 1)
    client = client_for(organiser)
    standings = _cells(client.get(f"/api/events/{event.slug}/standings.csv").content.decode())
    pairings = _cells(client.get(f"/api/events/{event.slug}/pairings.csv?round=1").content.decode())
    results = _cells(client.get(f"/api/events/{event.slug}/results.csv").content.decode())
    assert standings[0][: len(exports.STANDINGS_COLUMNS)] == list(exports.STANDINGS_COLUMNS)
    assert len(standings) == 1 + len(NASTY_NAMES)
    assert pairings[0] == list(exports.PAIRINGS_COLUMNS)
    assert results[0] == list(exports.RESULTS_COLUMNS)
    assert len(pairings) == len(results) == 1 + len(NASTY_NAMES) // 2
    names = {row[3] for row in standings[1:]}
    stored = {User.objects.get(pk=r.player_id).public_name for r in regs}
    assert names == {safe_cell(n) for n in stored}
    assert {"'" + n for n in NASTY_NAMES[:4]} <= names  # (tab and CR: names refuse them)
    for table in (standings, pairings, results):
        for row in table:
            for cell in row:
                assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    assert {row[13] for row in results[1:]} <= {"a", "b", "draw"}
    page = logged_in(organiser).get(f"/events/{event.slug}/manage/exports/standings.csv")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/csv")
    assert _cells(page.content.decode()) == standings


@pytest.mark.django_db
def test_a_bad_round_for_the_pairings_csv_names_the_field() -> None:
    event, organiser, _regs = running_event(4)
    client = client_for(organiser)
    for bad in ("x", "-1", "0", "99999999999999999999", "²"):
        response = client.get(f"/api/events/{event.slug}/pairings.csv", {"round": bad})
        assert response.status_code == 400, bad
        assert b"round" in response.content
    assert client.get(f"/api/events/{event.slug}/pairings.csv?round=7").status_code == 404
    page = logged_in(organiser).get(f"/events/{event.slug}/manage/exports/standings.csv")
    assert page.status_code == 404  # no finished round yet: the page says so
    assert b"round" in page.content


@pytest.mark.django_db
def test_the_penalty_log_csv_uses_the_shared_helper() -> None:
    event, organiser, regs = running_event(2)
    regs[0].player.display_name = "=cmd"
    regs[0].player.save()
    round_ = ms.round_pair(actor=organiser, tournament=event)
    ms.round_publish(actor=organiser, round_=round_)
    m = Match.objects.get(round=round_)
    ms.penalty_give(actor=organiser, match=m, registration=regs[0].pk, infraction="slow_play")
    rows = _cells(ms.penalty_log_csv(event))
    assert rows[1][5] == "'=cmd"


@pytest.mark.django_db
def test_a_walk_in_and_a_decklist_are_in_the_archive() -> None:
    event, organiser, regs = running_event(2)
    ts.registration_add_walk_in(actor=organiser, tournament=event, name="Wanda")
    decklists_before = Decklist.objects.count()  # the module's shared event has one
    submit_decklist(regs[0])
    doc = event_archive(event)
    walk_ins = [r for r in doc["registrations"] if r["player"] is None]
    assert [r["walk_in_name"] for r in walk_ins] == ["Wanda"]
    assert doc["decklists"][0]["registration"] == "R1"
    assert doc["decklists"][0]["versions"][0]["number"] == 1
    assert doc["cards"], "the cards the list names travel with it"
    assert Decklist.objects.count() == decklists_before + 1


def test_the_archive_format_and_the_csv_helper_import_no_django() -> None:
    from tests.support import NOT_IN_PURE_CODE, imported_names

    root = Path(__file__).resolve().parents[2]
    for module in ("eventdata/archive.py", "config/csvfile.py"):
        imported = imported_names(root / module)
        assert not [n for n in imported if n.split(".")[0] in NOT_IN_PURE_CODE], module


@pytest.mark.django_db
def test_restored_on_another_installation_by_manage_py(
    tmp_path: Path, migrated_sqlite: Path, event_of_five: Built
) -> None:
    """As an organiser runs it: a fresh process and an empty database of its own."""

    event, _organiser, _regs = event_of_five
    first = event_archive(event)
    path = tmp_path / "event.json"
    path.write_text(archive.dumps(first))
    database = tmp_path / "other.sqlite3"
    manage = fresh_manage(database)

    early = manage("import_event", str(path))
    assert early.returncode == 2 and "make migrate" in early.stderr
    assert "Traceback" not in early.stderr
    shutil.copyfile(migrated_sqlite, database)  # as `manage.py migrate` leaves it
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "battledesk-event-archive", "version": 7}')
    refused = manage("import_event", str(bad))
    assert refused.returncode == 2 and "version 7" in refused.stderr
    assert "Traceback" not in refused.stderr
    dry = manage("import_event", "--dry-run", str(path))
    assert dry.returncode == 0 and "would create" in dry.stdout, dry.stderr
    done = manage("import_event", str(path))
    assert done.returncode == 0, done.stderr
    assert "no change" in manage("import_event", str(path)).stdout
    again = manage("export_event", event.slug)
    assert again.returncode == 0, again.stderr
    restored = archive.comparable(json.loads(again.stdout))
    # That installation had none of the cards: they are kept in a catalog of the event's own,
    # which it reads; everything else is as exported.
    own = f"archive-{event.slug}"
    assert restored["event"]["card_catalog"] == own
    assert {c["catalog"] for c in restored["cards"]} == {own}
    expected = archive.comparable(first)
    expected["event"] = {**expected["event"], "card_catalog": own}
    expected["cards"] = [{**c, "catalog": own} for c in expected["cards"]]
    assert restored == expected


@pytest.mark.django_db
def test_a_bos_event_keeps_its_game_details_and_clock_through_the_archive() -> None:
    """Everything an archive keeps for BoBA it keeps for BOS: the per-game details of every
    report and result, and the match clock's event log."""
    from matches import clock_services
    from matches import services as match_services
    from matches.models import ClockEvent, Match, Report
    from tests.scenarios import bos_table

    event, organiser, match = bos_table()
    for seq, (kind, side, payload) in enumerate(
        [("start", "", {"first": "a", "bids": [3, 1]}), ("turn", "a", None), ("pause", "", None)]
    ):
        clock_services.press(
            actor=organiser, match=match, kind=kind, expected_seq=seq, side=side, payload=payload
        )
    details = [{"winner": "a", "bids": [3, 1]}, {"winner": "a", "bids": [0, 2]}]
    match_services.match_report(
        actor=match.a.player, match=match, games=[2, 0, 0], game_details=details
    )
    slug = event.slug
    first = event_archive(event)
    assert [e["kind"] for e in first["clock_events"]] == ["start", "turn", "pause"]
    assert first["reports"][0]["game_details"][0]["ether"] == [0, 1]
    text = archive.dumps(first)
    # An archive written before the clock existed has no such section: it reads as none.
    older = {k: v for k, v in first.items() if k != "clock_events"}
    assert archive.parse(older)["clock_events"] == []
    delete_event(event)
    assert not ClockEvent.objects.exists()

    report = archive_import(text)
    assert report.counts["clock_events"]["created"] == 3
    restored = Tournament.objects.get(slug=slug)
    assert archive.comparable(event_archive(restored)) == archive.comparable(first)
    match = Match.objects.get(round__tournament=restored)
    assert list(match.clock_events.values_list("seq", "kind")) == [
        (1, "start"),
        (2, "turn"),
        (3, "pause"),
    ]
    assert Report.objects.get(match=match).game_details[1]["chose_first"] == "b"
