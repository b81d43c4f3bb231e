"""Security 3 (card imports are the importer's) and 5 (a crashing import is marked failed)."""

from __future__ import annotations

import pytest

from decks import card_imports, services
from decks.models import CardImport
from tests.factories import OrganiserFactory, UserFactory, logged_in

pytestmark = pytest.mark.django_db

CSV = b"name,set,card_number,weapon,power\nA Hero,S,1,Fire,100\n"


def _import_by(organiser) -> CardImport:  # type: ignore[no-untyped-def]
    return services.card_import_start(actor=organiser, game="boba", files=[("mine.csv", CSV)])


def test_security_3_another_organiser_cannot_read_an_import_by_api(api_client) -> None:  # type: ignore[no-untyped-def]
    owner, other = OrganiserFactory(), OrganiserFactory()
    card_import = _import_by(owner)
    api_client.force_authenticate(other)
    assert api_client.get(f"/api/card-imports/{card_import.pk}/").status_code == 404
    assert api_client.get("/api/card-imports/").json()["count"] == 0
    api_client.force_authenticate(owner)
    assert api_client.get(f"/api/card-imports/{card_import.pk}/").json()["file_names"] == [
        "mine.csv"
    ]
    admin = UserFactory(is_superuser=True, is_staff=True)
    api_client.force_authenticate(admin)
    assert api_client.get(f"/api/card-imports/{card_import.pk}/").status_code == 200


def test_security_3_another_organiser_cannot_read_an_import_page() -> None:
    owner, other = OrganiserFactory(), OrganiserFactory()
    card_import = _import_by(owner)
    assert logged_in(other).get(f"/cards/import/{card_import.pk}/").status_code == 404
    assert "mine.csv" not in logged_in(other).get("/cards/import/").content.decode()
    assert logged_in(owner).get(f"/cards/import/{card_import.pk}/").status_code == 200
    assert "mine.csv" in logged_in(owner).get("/cards/import/").content.decode()


LONG_CELL = "x" * 300_000


@pytest.mark.parametrize(
    ("game", "csv_text", "rejected_row"),
    [
        (
            "boba",
            "name,set,card_number,weapon,power\nA,S,1,Fire,100\n{long},S,2,Fire,100\n"
            "B,S,3,Fire,100\n",
            3,
        ),
        (
            "bos",
            "name,type,color,vim_cost,strength,summoning_condition,ability,set,card_number\n"
            "A,wizard,red,,,,,S,1\nB,wizard,red,,,,{long},S,2\nC,wizard,red,,,,,S,3\n",
            2,
        ),
    ],
)
def test_security_5_an_overlong_cell_is_a_row_rejection_not_a_crash(
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
    game: str,
    csv_text: str,
    rejected_row: int,
) -> None:
    data = csv_text.replace("{long}", LONG_CELL).encode()
    with django_capture_on_commit_callbacks(execute=True):
        card_import = services.card_import_start(
            actor=OrganiserFactory(), game=game, files=[("big.csv", data)]
        )
    card_import.refresh_from_db()
    assert card_import.status == CardImport.Status.DONE
    assert card_import.created_count == 2  # the rows after the long one are read on
    assert [r["row"] for r in card_import.rejections] == [rejected_row]
    assert "longer than" in card_import.rejections[0]["reason"]


def test_security_5_a_crashing_import_task_is_marked_failed_with_its_reason(
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def crash(**_kwargs: object) -> None:
        raise MemoryError("the worker ran out")

    monkeypatch.setattr(card_imports, "import_cards", crash)
    with django_capture_on_commit_callbacks(execute=True):
        card_import = services.card_import_start(
            actor=OrganiserFactory(), game="boba", files=[("c.csv", CSV)]
        )
    card_import.refresh_from_db()
    assert card_import.status == CardImport.Status.FAILED
    assert "MemoryError" in card_import.error and card_import.payload == []
    assert card_import.finished_at is not None


def test_security_5_a_task_that_dies_outside_the_service_marks_the_import_failed() -> None:
    from decks.tasks import run_card_import

    card_import = _import_by(OrganiserFactory())
    run_card_import.on_failure(SystemExit("killed"), "task-id", (card_import.pk,), {}, None)
    card_import.refresh_from_db()
    assert card_import.status == CardImport.Status.FAILED and "SystemExit" in card_import.error


def test_security_5_an_import_every_worker_died_on_is_marked_failed_by_the_sweep() -> None:
    """A worker killed outright (out of memory) runs no failure hook; the task is redelivered,
    and when every try dies the import would stay "running" forever. Beat's sweep ends it."""
    from datetime import timedelta

    from django.utils import timezone

    from decks.tasks import sweep_stuck_imports

    stuck = _import_by(OrganiserFactory())
    recent = _import_by(OrganiserFactory())
    CardImport.objects.filter(pk__in=[stuck.pk, recent.pk]).update(status=CardImport.Status.RUNNING)
    CardImport.objects.filter(pk=stuck.pk).update(
        created_at=timezone.now() - services.STUCK_IMPORT_AFTER - timedelta(minutes=1)
    )
    assert sweep_stuck_imports() == 1
    stuck.refresh_from_db()
    recent.refresh_from_db()
    assert stuck.status == CardImport.Status.FAILED and "Upload the file again" in stuck.error
    assert stuck.payload == [] and stuck.finished_at is not None
    assert recent.status == CardImport.Status.RUNNING
    assert sweep_stuck_imports() == 0
