"""Catalogs that do not mix, and card changes that keep their history.

The demo's fictional cards live in the demo catalog; once the official list has cards, a real
event's search, "did you mean" suggestions and validation read only it. Shared catalogs change
only for the site-wide role; organisers import into a catalog of their own.
"""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command

from config.errors import Forbidden, ServiceError
from decks import selectors, services
from decks.catalog import catalog_for, catalog_for_event
from decks.models import Card, CardImport, CardVersion, Catalog, shared_catalog
from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
    organiser_of,
)
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

REAL_CSV = (
    "name,set,card_number,weapon,power,parallel\n"
    "Test Hero,Test Set,1,Fire,120,Paper\n"
    "Other Hero,Test Set,2,Ice,125,Paper\n"
)


def _import_official() -> Catalog:
    services.import_cards(game="boba", files=[("cards.csv", REAL_CSV.encode())])
    return Catalog.objects.get(game="boba", kind=Catalog.Kind.OFFICIAL)


def _a_demo_hero() -> str:
    return str(
        Card.objects.filter(catalog__kind=Catalog.Kind.DEMO, kind="hero")
        .order_by("name")
        .values_list("name", flat=True)
        .first()
    )


def _suggested_names(report: dict[str, Any]) -> set[str]:
    return {s for v in report["violations"] for s in v.get("suggestions", [])}


# --- catalogs that do not mix ---------------------------------------------------------------


def test_without_an_official_card_the_demo_catalog_is_the_default(demo_catalog) -> None:  # type: ignore[no-untyped-def]
    default = selectors.default_catalog("boba")
    assert default is not None and default.kind == Catalog.Kind.DEMO
    assert len(catalog_for("boba")) >= Card.objects.filter(catalog=default).count() > 300


def test_demo_cards_never_reach_a_real_events_validation_or_suggestions(
    legal_list: str,
) -> None:
    official = _import_official()
    demo_name = _a_demo_hero()
    assert selectors.default_catalog("boba") == official
    assert len(catalog_for("boba")) < 5  # the two real cards (and the game's Hot Dog)

    reg = RegistrationFactory()
    with pytest.raises(services.DecklistUnreadable) as refused:
        services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    suggested = _suggested_names(refused.value.report)
    demo_names = set(Card.objects.filter(catalog__kind="demo").values_list("name", flat=True))
    assert not suggested & demo_names

    typo = services.decklist_check(
        game="boba", format_key="playmaker", source=f"Heroes\n1 {demo_name[:-1]}x (Fire 120)\n"
    )
    assert demo_name not in _suggested_names(typo.report)
    real_typo = services.decklist_check(
        game="boba", format_key="playmaker", source="Heroes\n1 Test Herp (Fire 120)\n"
    )
    assert "Test Hero" in _suggested_names(real_typo.report)


def test_the_demo_event_keeps_its_fictional_catalog_after_the_real_import(
    legal_list: str,
) -> None:
    _import_official()
    demo_event = TournamentFactory()
    services.demo_event_catalog(event=demo_event)
    reg = RegistrationFactory(tournament=demo_event)
    version = services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    assert version.legal
    assert len(catalog_for_event(demo_event)) > 300


def test_the_card_search_reads_the_official_catalog_unless_told_otherwise(
    api_client,  # type: ignore[no-untyped-def]
    demo_catalog,  # type: ignore[no-untyped-def]
) -> None:
    demo_name = _a_demo_hero()
    # Before the real list: the demo cards are what there is.
    before = api_client.get("/api/cards/", {"q": demo_name}).json()
    assert before["count"] > 0 and before["results"][0]["catalog"] == "boba-demo"

    _import_official()
    event = TournamentFactory()
    assert api_client.get("/api/cards/", {"q": demo_name}).json()["count"] == 0
    assert api_client.get("/api/cards/", {"q": demo_name, "event": event.slug}).json()["count"] == 0
    found = api_client.get("/api/cards/", {"q": "Test Hero"}).json()
    assert [c["catalog"] for c in found["results"]] == ["boba-official"]
    asked = api_client.get("/api/cards/", {"q": demo_name, "catalog": "boba-demo"}).json()
    assert asked["count"] > 0
    unknown = api_client.get("/api/cards/", {"catalog": "nope"})
    assert unknown.status_code == 400 and unknown.json()["field"] == "catalog"


def test_the_anonymous_deck_check_takes_a_catalog_or_an_event(
    api_client,  # type: ignore[no-untyped-def]
    legal_list: str,
) -> None:
    _import_official()
    default = api_client.post(
        "/api/decklists/check/", {"format": "playmaker", "text": legal_list}, format="json"
    )
    assert default.status_code == 200 and default.json()["report"]["legal"] is False
    demo = api_client.post(
        "/api/decklists/check/",
        {"format": "playmaker", "text": legal_list, "catalog": "boba-demo"},
        format="json",
    )
    assert demo.status_code == 200 and demo.json()["report"]["legal"] is True
    demo_event = TournamentFactory()
    services.demo_event_catalog(event=demo_event)
    by_event = api_client.post(
        "/api/decklists/check/",
        {"format": "playmaker", "text": legal_list, "event": demo_event.slug},
        format="json",
    )
    assert by_event.status_code == 200 and by_event.json()["report"]["legal"] is True
    for field, value in (("catalog", "nope"), ("event", "no-such-event")):
        bad = api_client.post(
            "/api/decklists/check/",
            {"format": "playmaker", "text": legal_list, field: value},
            format="json",
        )
        assert bad.status_code == 400 and bad.json()["field"] == field


def test_the_check_my_deck_page_uses_the_official_list_and_offers_the_demo(
    client,  # type: ignore[no-untyped-def]
    legal_list: str,
) -> None:
    _import_official()
    default = client.post("/check-deck/", {"format": "playmaker", "decklist": legal_list})
    assert default.status_code == 200 and default.context["report"]["legal"] is False
    demo = client.post(
        "/check-deck/", {"format": "playmaker", "decklist": legal_list, "catalog": "boba-demo"}
    )
    assert demo.status_code == 200 and demo.context["report"]["legal"] is True


def test_an_organiser_chooses_their_events_catalog_audited(
    api_client,  # type: ignore[no-untyped-def]
    demo_catalog,  # type: ignore[no-untyped-def]
) -> None:
    _import_official()
    event = TournamentFactory()
    organiser = organiser_of(event)
    body = api_client.get(f"/api/events/{event.slug}/catalog/").json()
    assert body["catalog"]["slug"] == "boba-official" and body["chosen"] is False

    own = services.custom_catalog_create(actor=organiser, game="boba", name="League cards")
    theirs = services.custom_catalog_create(actor=OrganiserFactory(), game="boba", name="Theirs")
    api_client.force_authenticate(organiser)
    chosen = api_client.post(
        f"/api/events/{event.slug}/catalog/", {"catalog": own.slug}, format="json"
    )
    assert chosen.status_code == 200 and chosen.json()["catalog"]["slug"] == own.slug
    assert selectors.event_catalog(event) == own
    assert AuditEntry.objects.filter(tournament=event, action="decks.catalog_chosen").exists()

    refused = api_client.post(
        f"/api/events/{event.slug}/catalog/", {"catalog": theirs.slug}, format="json"
    )
    assert refused.status_code == 403 and selectors.event_catalog(event) == own
    api_client.force_authenticate(UserFactory())
    stranger = api_client.post(
        f"/api/events/{event.slug}/catalog/", {"catalog": "boba-demo"}, format="json"
    )
    assert stranger.status_code == 403


def test_a_catalog_of_another_game_is_refused_naming_the_field() -> None:
    event = TournamentFactory()
    other = Catalog.objects.create(game="bos", name="BOS", slug="bos-x", kind="custom")
    with pytest.raises(ServiceError) as excinfo:
        services.event_catalog_set(actor=organiser_of(event), tournament=event, catalog=other)
    assert excinfo.value.field == "catalog"


def test_the_catalogs_api_lists_them_with_the_default(api_client, demo_catalog) -> None:  # type: ignore[no-untyped-def]
    body = api_client.get("/api/catalogs/", {"game": "boba"}).json()
    assert body["default"] == {"boba": "boba-demo"}
    assert {c["slug"]: c["kind"] for c in body["catalogs"]} == {"boba-demo": "demo"}
    _import_official()
    body = api_client.get("/api/catalogs/").json()
    assert body["default"]["boba"] == "boba-official"
    official = next(c for c in body["catalogs"] if c["slug"] == "boba-official")
    assert official["cards"] == 2


# --- who may change a shared catalog --------------------------------------------------------


def test_an_organiser_may_not_import_into_the_official_catalog() -> None:
    _import_official()
    with pytest.raises(Forbidden):
        services.card_import_start(
            actor=OrganiserFactory(),
            game="boba",
            files=[("c.csv", REAL_CSV.encode())],
            catalog="boba-official",
        )
    assert not CardImport.objects.exists()


def test_an_organisers_upload_goes_to_their_own_catalog_and_changes_no_shared_card(
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    official = _import_official()
    organiser = OrganiserFactory()
    renamed = REAL_CSV.replace("Test Hero,", "Renamed Hero,")
    with django_capture_on_commit_callbacks(execute=True):
        card_import = services.card_import_start(
            actor=organiser, game="boba", files=[("c.csv", renamed.encode())]
        )
    card_import.refresh_from_db()
    assert card_import.status == CardImport.Status.DONE
    assert card_import.catalog is not None and card_import.catalog.owner == organiser
    assert card_import.catalog.kind == Catalog.Kind.CUSTOM
    # The official card another event's lists use is as it was.
    assert set(Card.objects.filter(catalog=official).values_list("name", flat=True)) == {
        "Test Hero",
        "Other Hero",
    }
    assert Card.objects.filter(catalog=card_import.catalog, name="Renamed Hero").exists()
    assert not CardVersion.objects.filter(catalog=official).exists()


def test_the_card_import_api_refuses_an_organiser_a_shared_catalog(api_client) -> None:  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile

    _import_official()
    api_client.force_authenticate(OrganiserFactory())
    upload = SimpleUploadedFile("c.csv", REAL_CSV.encode(), content_type="text/csv")
    response = api_client.post(
        "/api/card-imports/",
        {"game": "boba", "catalog": "boba-official", "files": [upload]},
        format="multipart",
    )
    assert response.status_code == 403
    assert not CardImport.objects.exists()


def test_the_site_wide_permission_may_change_the_official_catalog(
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    official = _import_official()
    curator = UserFactory()
    curator.user_permissions.add(Permission.objects.get(codename="manage_shared_catalogs"))
    renamed = REAL_CSV.replace("Test Hero,", "Renamed Hero,")
    with django_capture_on_commit_callbacks(execute=True):
        card_import = services.card_import_start(
            actor=curator, game="boba", files=[("c.csv", renamed.encode())]
        )
    card_import.refresh_from_db()
    assert card_import.catalog == official and card_import.updated_count == 1


# --- history --------------------------------------------------------------------------------


def test_every_change_to_a_card_keeps_before_after_who_and_which_import(
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    official = _import_official()
    card = Card.objects.get(catalog=official, name="Test Hero")
    admin = UserFactory(is_superuser=True, is_staff=True)
    renamed = REAL_CSV.replace("Test Hero,Test Set,1,Fire,120", "New Name,Test Set,1,Fire,130")
    with django_capture_on_commit_callbacks(execute=True):
        card_import = services.card_import_start(
            actor=admin, game="boba", files=[("c.csv", renamed.encode())]
        )
    version = CardVersion.objects.get(card=card)
    assert (version.before["name"], version.before["power"]) == ("Test Hero", 120)
    assert (version.after["name"], version.after["power"]) == ("New Name", 130)
    assert version.changed_by == admin and version.card_import == card_import
    assert version.source == "upload" and version.changed_at is not None
    # Unchanged cards leave no history.
    assert CardVersion.objects.count() == 1


def test_the_command_line_import_keeps_history_too(tmp_path) -> None:  # type: ignore[no-untyped-def]
    _import_official()
    path = tmp_path / "cards.csv"
    path.write_text(REAL_CSV.replace("Fire,120", "Fire,135"))
    call_command("import_cards", "boba", str(path), stdout=StringIO())
    version = CardVersion.objects.get()
    assert (version.before["power"], version.after["power"], version.source) == (
        120,
        135,
        "command",
    )


def test_the_command_imports_into_a_named_catalog(tmp_path) -> None:  # type: ignore[no-untyped-def]
    league = services.custom_catalog_create(actor=OrganiserFactory(), game="boba", name="League")
    path = tmp_path / "cards.csv"
    path.write_text(REAL_CSV)
    call_command("import_cards", "boba", str(path), "--catalog", league.slug, stdout=StringIO())
    assert Card.objects.filter(catalog=league).count() == 2
    assert not Catalog.objects.filter(kind=Catalog.Kind.OFFICIAL).exists()


def test_a_change_in_the_admin_keeps_its_history() -> None:
    official = _import_official()
    card = Card.objects.get(catalog=official, name="Test Hero")
    admin = UserFactory(is_superuser=True, is_staff=True)
    client = logged_in(admin)
    url = f"/admin/decks/card/{card.pk}/change/"
    form = client.get(url).context["adminform"].form
    # As the browser posts the form: a JSON field (attributes) as its JSON text.
    data = {
        k: "" if v is None else json.dumps(v) if isinstance(v, dict | list) else v
        for k, v in form.initial.items()
    }
    data.update(
        {
            "name": "Edited Hero",
            "catalog": official.pk,
            "versions-TOTAL_FORMS": "0",
            "versions-INITIAL_FORMS": "0",
        }
    )
    response = client.post(url, data)
    assert response.status_code == 302, response.content[:2000]
    version = CardVersion.objects.get(card=card)
    assert (version.before["name"], version.after["name"], version.source) == (
        "Test Hero",
        "Edited Hero",
        "admin",
    )
    assert version.changed_by == admin


def test_a_card_made_without_a_catalog_goes_to_the_catalog_of_its_origin() -> None:
    real = Card.objects.create(game="boba", external_id="x:1", kind="hero", name="X")
    demo = Card.objects.create(game="boba", external_id="demo:9999", kind="hero", name="Y")
    assert real.catalog == shared_catalog("boba", Catalog.Kind.OFFICIAL)
    assert demo.catalog == shared_catalog("boba", Catalog.Kind.DEMO)


# --- the data migration ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("with_cards", [False, True])
def test_existing_cards_move_to_the_catalog_of_their_origin(with_cards: bool) -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("decks", "0001_initial")], [("decks", "0004_card_catalog_required")]
    try:
        _migrate_through(connection, before, after, with_cards)
    finally:
        # Leave the schema as the rest of the session expects it: every later migration too
        # (decks 0005 adds Card.attributes), or later tests meet a missing column.
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())


def _migrate_through(connection: Any, before: Any, after: Any, with_cards: bool) -> None:
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old_apps = executor.loader.project_state(before).apps
    OldCard = old_apps.get_model("decks", "Card")
    OldImport = old_apps.get_model("decks", "CardImport")
    if with_cards:
        OldCard.objects.create(game="boba", external_id="demo:1", kind="hero", name="Fictional")
        OldCard.objects.create(game="boba", external_id="real-1", kind="hero", name="Real")
        OldImport.objects.create(game="boba", status="done")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new_apps = executor.loader.project_state(after).apps
    NewCard = new_apps.get_model("decks", "Card")
    if with_cards:
        kinds = dict(NewCard.objects.values_list("external_id", "catalog__kind"))
        assert kinds == {"demo:1": "demo", "real-1": "official"}
        NewImport = new_apps.get_model("decks", "CardImport")
        assert NewImport.objects.get().catalog.slug == "boba-official"
    else:
        assert not new_apps.get_model("decks", "Catalog").objects.exists()


def test_the_adjudication_card_search_reads_only_the_events_catalog(demo_catalog) -> None:  # type: ignore[no-untyped-def]
    from tests.factories import logged_in
    from tests.scenarios import adjudication_url, open_call_scene

    _import_official()
    demo_name = _a_demo_hero()
    scene = open_call_scene()
    client = logged_in(scene["judge"])
    demo = client.post(adjudication_url(scene["call"]), {"op": "search", "q": demo_name})
    assert demo.status_code == 200 and list(demo.context["search_results"]) == []
    real = client.post(adjudication_url(scene["call"]), {"op": "search", "q": "Test Hero"})
    assert [r["label"].split(" · ")[0] for r in real.context["search_results"]] == ["Test Hero"]


def test_the_decklists_page_lets_the_organiser_choose_the_card_list(demo_catalog) -> None:  # type: ignore[no-untyped-def]
    _import_official()
    event = TournamentFactory()
    organiser = organiser_of(event)
    client = logged_in(organiser)
    page = client.get(f"/events/{event.slug}/decklists/")
    assert page.context["catalog"].slug == "boba-official"
    assert {c.slug for c in page.context["catalog_choices"]} == {"boba-official", "boba-demo"}
    assert 'name="catalog"' in page.content.decode()

    response = client.post(f"/events/{event.slug}/catalog/", {"catalog": "boba-demo"})
    assert response.status_code == 302 and selectors.event_catalog(event).slug == "boba-demo"
    refused = logged_in(UserFactory()).post(
        f"/events/{event.slug}/catalog/", {"catalog": "boba-official"}
    )
    assert refused.status_code == 403 and selectors.event_catalog(event).slug == "boba-demo"
