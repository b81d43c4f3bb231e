"""The BOS card catalog on the site: the import command, the upload page and API (who may
import where), the card API and its filters, CardVersion history, per-row rejections."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from decks import services
from decks.catalog import catalog_for
from decks.models import Card, CardImport, CardVersion, Catalog
from engine.games import get_game
from tests.factories import OrganiserFactory, UserFactory, logged_in

pytestmark = pytest.mark.django_db

GAME = "bos"
HEADER = "name,type,color,vim_cost,strength,summoning_condition,ability,set,card_number"
ROWS = [
    "Glass Adept,wizard,blue,,,,[act]: look at a reserve.,Test Set,1",
    "Glass Hound,summon,blue,,3,Conduct a summon with any blue wizard.,,Test Set,2",
    "Glass Rain,spell,blue,2,,,Deal 2 damage to a summon.,Test Set,3",
    "Glass Titan,boss,blue,,11,You control 2 summons.,,Test Set,4",
]
BAD_ROWS = [
    "Odd Thing,artifact,blue,,,,,Test Set,5",  # type
    "Pale Hound,summon,purple,,2,,,Test Set,6",  # color
    "Cheap Rain,spell,blue,,,,,Test Set,7",  # vim_cost missing on a spell
    "Weak Hound,summon,blue,,-1,,,Test Set,8",  # strength not a whole number
]


def _csv(rows: list[str]) -> str:
    return "\n".join([HEADER, *rows]) + "\n"


def _write(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "bos.csv"
    path.write_text(_csv(rows), encoding="utf-8")
    return path


def test_import_cards_bos_creates_updates_and_reports(tmp_path: Path) -> None:
    path = _write(tmp_path, ROWS + BAD_ROWS)
    out = StringIO()
    call_command("import_cards", GAME, str(path), stdout=out)
    text = out.getvalue()
    assert "created 4, updated 0, unchanged 0, rejected 4" in text
    # Each rejected row is listed with the column it failed on.
    for column in ("type", "color", "vim_cost", "strength"):
        assert f"[bos.csv:{column}]" in text
    official = Catalog.objects.get(game=GAME, kind=Catalog.Kind.OFFICIAL)
    assert Card.objects.filter(catalog=official).count() == 4

    out = StringIO()
    call_command("import_cards", GAME, str(path), stdout=out)
    assert "created 0, updated 0, unchanged 4, rejected 4" in out.getvalue()


def test_import_cards_bos_json_report_names_rows_and_columns(tmp_path: Path) -> None:
    path = _write(tmp_path, ROWS[:1] + BAD_ROWS[:1])
    out = StringIO()
    call_command("import_cards", GAME, str(path), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert (report["created"], report["rejected"]) == (1, 1)
    assert report["rejections"][0]["field"] == "bos.csv:type"
    assert "artifact" in report["rejections"][0]["reason"]


def test_a_csv_without_the_bos_header_is_refused_naming_the_files(tmp_path: Path) -> None:
    path = tmp_path / "wrong.csv"
    path.write_text("name,set,card_number,weapon,power\nA,S,1,Fire,100\n")
    with pytest.raises(CommandError) as excinfo:
        call_command("import_cards", GAME, str(path), stdout=StringIO())
    assert "files" in str(excinfo.value) and "vim_cost" in str(excinfo.value)
    assert not Card.objects.filter(game=GAME).exists()


def test_bos_fields_without_a_column_round_trip_through_attributes() -> None:
    """import -> Card rows (type as kind, the rest in attributes) -> catalog_for -> validate."""
    services.import_cards(game=GAME, files=[("bos.csv", _csv(ROWS).encode())])
    hound = Card.objects.get(game=GAME, name="Glass Hound")
    assert hound.kind == "summon"
    assert hound.set_name == "Test Set" and hound.card_number == "2"
    assert hound.attributes["color"] == "blue"
    assert hound.attributes["strength"] == 3
    assert hound.attributes["summoning_condition"].startswith("Conduct a summon")
    catalog = catalog_for(GAME)
    card = catalog.by_name("Glass Rain")
    assert card is not None and card.vim_cost == 2 and card.color.value == "blue"
    rules = get_game(GAME).deck_rules()
    fmt = rules.resolve_format("competitive")
    text = "Wizards (1)\n1 Glass Adept\nSpells (1)\n1 Glass Rain\n"
    evaluation = rules.evaluate(text, catalog, fmt)
    assert evaluation.readable and not evaluation.legal
    assert {v["rule"] for v in evaluation.report["violations"]} >= {"deck_size", "wizard_count"}


def test_a_changed_bos_card_is_updated_with_its_history() -> None:
    organiser = OrganiserFactory()
    services.import_cards(game=GAME, files=[("bos.csv", _csv(ROWS).encode())])
    stronger = [
        row.replace("Glass Hound,summon,blue,,3", "Glass Hound,summon,blue,,4") for row in ROWS
    ]
    counts, _ = services.import_cards(
        game=GAME, files=[("bos.csv", _csv(stronger).encode())], actor=organiser
    )
    assert (counts["updated"], counts["unchanged"]) == (1, 3)
    version = CardVersion.objects.get(card__name="Glass Hound")
    assert version.before["attributes"]["strength"] == 3
    assert version.after["attributes"]["strength"] == 4
    assert version.changed_by == organiser and version.source == "command"
    assert catalog_for(GAME).by_name("Glass Hound").strength == 4


def test_bos_upload_api_staff_for_shared_catalogs_organisers_for_their_own(
    api_client, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    def upload() -> SimpleUploadedFile:
        return SimpleUploadedFile("bos.csv", _csv(ROWS + BAD_ROWS[:1]).encode())

    api_client.force_authenticate(UserFactory())
    body = {"game": GAME, "files": [upload()]}
    assert api_client.post("/api/card-imports/", body, format="multipart").status_code == 403

    organiser = OrganiserFactory()
    api_client.force_authenticate(organiser)
    services.demo_catalog_load(game=GAME)
    shared = {"game": GAME, "catalog": "bos-demo", "files": [upload()]}
    refused = api_client.post("/api/card-imports/", shared, format="multipart")
    assert refused.status_code == 403

    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(
            "/api/card-imports/", {"game": GAME, "files": [upload()]}, format="multipart"
        )
    assert response.status_code == 202, response.json()
    detail = api_client.get(f"/api/card-imports/{response.json()['id']}/").json()
    assert detail["game"] == GAME and detail["status"] == "done"
    assert (detail["created_count"], detail["rejected_count"]) == (4, 1)
    assert detail["rejections"][0]["field"] == "bos.csv:type"
    own = Catalog.objects.get(slug=detail["catalog"])
    assert own.kind == Catalog.Kind.CUSTOM and own.owner == organiser and own.game == GAME

    staff = UserFactory(is_superuser=True, is_organiser=True)
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(
            "/api/card-imports/", {"game": GAME, "files": [upload()]}, format="multipart"
        )
    assert response.status_code == 202
    imported = CardImport.objects.get(pk=response.json()["id"])
    assert imported.catalog is not None and imported.catalog.kind == Catalog.Kind.OFFICIAL


def test_bos_upload_api_bad_game_is_a_400_naming_the_field(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    upload = SimpleUploadedFile("bos.csv", _csv(ROWS).encode())
    response = api_client.post(
        "/api/card-imports/", {"game": "chess", "files": [upload]}, format="multipart"
    )
    assert response.status_code == 400 and "game" in response.json()


def test_bos_upload_page(django_capture_on_commit_callbacks) -> None:  # type: ignore[no-untyped-def]
    organiser = OrganiserFactory()
    client = logged_in(organiser)
    page = client.get("/cards/import/?game=bos")
    assert page.status_code == 200
    assert '<option value="bos" selected>' in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/cards/import/",
            {"game": GAME, "files": SimpleUploadedFile("bos.csv", _csv(ROWS).encode())},
        )
    assert response.status_code == 302
    card_import = CardImport.objects.get()
    assert card_import.game == GAME and card_import.created_count == 4
    assert logged_in(UserFactory()).get("/cards/import/").status_code == 403


def test_card_api_filters_bos_cards_by_kind_and_shows_attributes(api_client) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game=GAME)
    body = api_client.get("/api/cards/?game=bos&kind=summon&limit=100").json()
    results = body["results"]
    assert results and all(c["game"] == GAME and c["kind"] == "summon" for c in results)
    pup = next(c for c in results if c["name"] == "Spark Pup")
    assert pup["attributes"]["color"] == "red" and pup["attributes"]["strength"] == 2
    assert pup["catalog"] == "bos-demo"
    bosses = api_client.get("/api/cards/?game=bos&kind=boss").json()["results"]
    assert {c["name"] for c in bosses} >= {"Furnace Tyrant", "Deep Leviathan"}
    # The card search the decklist editor uses: by name, in an event's or a catalog's pool.
    found = api_client.get("/api/cards/?catalog=bos-demo&q=ember").json()["results"]
    assert [c["name"] for c in found] == ["Ember Tutor"]
    # A kind no card of the game has is a typo, not an empty list (finding 7a).
    hero = api_client.get("/api/cards/?game=bos&kind=hero")
    assert hero.status_code == 400 and hero.json()["field"] == "kind"


def test_the_bos_demo_catalog_loads_idempotently() -> None:
    first = services.demo_catalog_load(game=GAME)
    second = services.demo_catalog_load(game=GAME)
    assert first["created"] == len(get_game(GAME).deck_rules().demo_cards())
    assert second == {"created": 0, "unchanged": first["created"]}
    assert Catalog.objects.get(game=GAME, kind=Catalog.Kind.DEMO).cards.count() == first["created"]


def test_bos_cards_filter_on_their_own_fields(api_client) -> None:  # type: ignore[no-untyped-def]
    """`attr=name:value` reaches the fields a game keeps in `attributes` (BOS colour, vim)."""
    from decks.services import demo_catalog_load
    from engine.bos.demo_catalog import demo_cards

    demo_catalog_load(game="bos")
    cards = demo_cards()
    red_spells = sorted(c.name for c in cards if c.color.value == "red" and c.type.value == "spell")
    body = api_client.get("/api/cards/?game=bos&kind=spell&attr=color:red&limit=100").json()
    assert sorted(c["name"] for c in body["results"]) == red_spells and red_spells
    cost = next(c.vim_cost for c in cards if c.type.value == "spell")
    costly = api_client.get(f"/api/cards/?game=bos&attr=vim_cost:{cost}&limit=100").json()
    assert costly["count"] == sum(1 for c in cards if c.vim_cost == cost)
    both = api_client.get(
        f"/api/cards/?game=bos&attr=vim_cost:{cost}&attr=color:nothing&limit=100"
    ).json()
    assert both["count"] == 0


@pytest.mark.parametrize(
    "query",
    [
        "attr=colour",
        "attr=name:x",
        "attr=secret:1",
        "attr=color:",
        "&".join(["attr=color:red"] * 6),
    ],
)
def test_a_bad_attribute_filter_is_a_400_naming_attr(api_client, query: str) -> None:  # type: ignore[no-untyped-def]
    response = api_client.get(f"/api/cards/?game=bos&{query}")
    assert response.status_code == 400 and response.json()["field"] == "attr"
