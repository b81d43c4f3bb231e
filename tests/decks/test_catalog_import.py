"""Card catalog imports: the real community lists, CSV, idempotency, rejections, the task."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from config.errors import Forbidden, ServiceError
from decks import services
from decks.catalog import catalog_for
from decks.models import Card, CardImport
from tests.decks.card_samples import CSV
from tests.factories import OrganiserFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_whole_real_list_imports_and_a_second_run_changes_nothing(shared_data: Path) -> None:
    files = [
        ("cards.json", (shared_data / "boba" / "cards.json").read_bytes()),
        ("plays.json", (shared_data / "boba" / "plays.json").read_bytes()),
    ]
    counts, rejections = services.import_cards(game="boba", files=files)
    real_rows = len(json.loads(files[0][1]))
    rejected_card_rows = [r for r in rejections if not str(r["field"]).startswith("plays")]
    # Every card row is imported or rejected with a reason; plays the card list lacks are added.
    assert counts["created"] + len(rejected_card_rows) >= real_rows
    assert counts["created"] >= 17_600
    assert all(r["row"] and r["reason"] for r in rejections)
    plays = Card.objects.filter(game="boba", kind__in=["play", "bonus_play"])
    assert plays.filter(cost__isnull=False).count() > 400
    assert plays.filter(dbs__isnull=False).count() > 400

    again, _ = services.import_cards(game="boba", files=files)
    assert (
        again["created"] == 0 and again["updated"] == 0 and again["unchanged"] == counts["created"]
    )
    assert len(catalog_for("boba")) >= counts["created"]


def test_csv_import_reports_each_rejected_row_with_its_field() -> None:
    counts, rejections = services.import_cards(game="boba", files=[("cards.csv", CSV.encode())])
    assert counts["created"] == 2
    assert len(rejections) == 1 and rejections[0]["row"] == 4
    assert "weapon" in str(rejections[0]["field"]).lower()


def test_changed_rows_are_updated() -> None:
    services.import_cards(game="boba", files=[("cards.csv", CSV.encode())])
    changed = CSV.replace("Fire,120", "Fire,130")
    counts, _ = services.import_cards(game="boba", files=[("cards.csv", changed.encode())])
    assert counts["updated"] == 1 and counts["unchanged"] == 1


@pytest.mark.parametrize(
    ("name", "data"),
    [("cards.json", b"{not json"), ("cards.json", b'{"an": "object"}'), ("x.bin", b"\x00\x01\x02")],
)
def test_unreadable_files_are_refused_naming_the_file(name: str, data: bytes) -> None:
    with pytest.raises(ServiceError) as excinfo:
        services.import_cards(game="boba", files=[(name, data)])
    assert excinfo.value.field == "files"
    assert not Card.objects.exists()


def test_upload_runs_as_a_task_and_records_progress_and_counts(
    django_capture_on_commit_callbacks,
) -> None:  # type: ignore[no-untyped-def]
    organiser = OrganiserFactory()
    with pytest.raises(Forbidden):
        services.card_import_start(
            actor=UserFactory(), game="boba", files=[("c.csv", CSV.encode())]
        )
    with django_capture_on_commit_callbacks(execute=True):
        card_import = services.card_import_start(
            actor=organiser, game="boba", files=[("c.csv", CSV.encode())]
        )
    # Celery runs eagerly in tests; the task ran on commit.
    card_import.refresh_from_db()
    assert card_import.status == CardImport.Status.DONE
    assert (card_import.created_count, card_import.rejected_count, card_import.percent) == (
        2,
        1,
        100,
    )
    assert card_import.payload == []
    # Idempotent: running the task again leaves it as it is.
    assert services.card_import_run(import_id=card_import.pk).created_count == 2


def test_a_failed_import_is_marked_failed_with_the_reason(
    django_capture_on_commit_callbacks,
) -> None:  # type: ignore[no-untyped-def]
    with django_capture_on_commit_callbacks(execute=True):
        card_import = services.card_import_start(
            actor=OrganiserFactory(), game="boba", files=[("cards.json", b"[1, 2")]
        )
    card_import.refresh_from_db()
    assert card_import.status == CardImport.Status.FAILED and "cards.json" in card_import.error


def test_import_cards_command_prints_counts(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text(CSV)
    out = StringIO()
    call_command("import_cards", "boba", str(path), stdout=out)
    assert "created 2, updated 0, unchanged 0, rejected 1" in out.getvalue()
    out = StringIO()
    call_command("import_cards", "boba", str(path), stdout=out)
    assert "created 0, updated 0, unchanged 2, rejected 1" in out.getvalue()


def test_demo_catalog_loads_idempotently_with_fictional_cards() -> None:
    first = services.demo_catalog_load(game="boba")
    second = services.demo_catalog_load(game="boba")
    assert first["created"] > 300 and second["created"] == 0
    assert Card.objects.filter(kind="hero").exists() and Card.objects.filter(kind="play").exists()


def test_nul_characters_in_uploads_never_reach_the_database() -> None:
    rows = [
        {
            "Card ID": "nul-1",
            "Name": "Nul\u0000 Hero",
            "Year": 2025,
            "Set": "S\u0000",
            "Card Number": "1",
            "Parallel": "Paper",
            "Weapon": "Fire",
            "Power": 100,
        },
    ]
    counts, rejections = services.import_cards(
        game="boba", files=[("cards.json", json.dumps(rows).encode())]
    )
    assert counts["created"] == 1
    card = Card.objects.get(external_id="nul-1")
    assert "\x00" not in card.name and "\x00" not in (card.set_name or "")


def test_import_progress_reports_counts_batch_by_batch() -> None:
    seen: list[tuple[int, int, dict[str, int]]] = []
    rows = "name,set,card_number,weapon,power\n" + "".join(
        f"Hero {i},S,{i},Fire,100\n" for i in range(services.IMPORT_BATCH + 5)
    )
    services.import_cards(
        game="boba",
        files=[("c.csv", rows.encode())],
        progress=lambda done, total, counts: seen.append((done, total, dict(counts))),
    )
    assert [s[0] for s in seen] == [services.IMPORT_BATCH, services.IMPORT_BATCH + 5]
    assert seen[0][2]["created"] == services.IMPORT_BATCH
