"""Security 3 (card imports are the importer's) and 5 (a crashing import is marked failed)."""

from __future__ import annotations

import pytest

from decks import services
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
