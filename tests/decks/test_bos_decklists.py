"""BOS decklists on the site: check my deck (page and API), submitting on a BOS event (legal,
illegal with BOS citations, unreadable), the deck page's sections and charts from the plugin,
the printed sheet, published lists and deck checks."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from decks import services
from decks.catalog import catalog_for
from decks.models import DecklistVersion
from engine.games import get_game
from tests.factories import (
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
    organiser_of,
)
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

GAME = "bos"


@pytest.fixture
def rules():  # type: ignore[no-untyped-def]
    return get_game(GAME).deck_rules()


@pytest.fixture
def catalog(db):  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game=GAME)
    return catalog_for(GAME)


@pytest.fixture
def legal_text(catalog, rules) -> str:  # type: ignore[no-untyped-def]
    return rules.export(rules.sample(catalog, rules.resolve_format("competitive"), 0), catalog)


@pytest.fixture
def short_text(legal_text: str) -> str:
    """Readable but illegal: one wizard short (BOS: Starting Info)."""
    lines = legal_text.splitlines()
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    return "\n".join(lines[:first] + lines[first + 1 :]) + "\n"


@pytest.fixture
def setup(catalog) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    event = TournamentFactory(
        name="Ether Cup",
        game=GAME,
        mode="competitive",
        format_key="competitive",
        match_structure="bo3",
    )
    services.demo_event_catalog(event=event)
    judge = UserFactory(display_name="Judy Judge")
    event.judges.add(judge)
    reg = RegistrationFactory(tournament=event, player=UserFactory(display_name="Pat Player"))
    other = RegistrationFactory(tournament=event, player=UserFactory(display_name="Otto Other"))
    return {
        "event": event,
        "organiser": organiser_of(event),
        "judge": judge,
        "reg": reg,
        "player": reg.player,
        "other_reg": other,
    }


# --- check my deck -------------------------------------------------------------------------


def test_check_page_offers_every_game_with_its_formats_grouped(catalog) -> None:  # type: ignore[no-untyped-def]
    html = Client().get("/check-deck/?game=bos").content.decode()
    assert 'for="id_game"' in html and '<option value="bos" selected>' in html
    assert '<optgroup label="BOS">' in html and '<option value="competitive" selected>' in html
    # The decklist help is the game's: its section headings (the other games' helps are
    # only in the JSON the optional game-switch script reads).
    visible = html.split('<script id="game-switch"')[0]
    assert "Wizards, Summons, Spells, Boss and Reserves" in visible
    assert "Hot Dogs" not in visible


def test_check_page_validates_a_bos_list(legal_text: str, short_text: str) -> None:
    ok = Client().post(
        "/check-deck/", {"game": GAME, "format": "competitive", "decklist": legal_text}
    )
    html = ok.content.decode()
    assert ok.status_code == 200 and "verdict-legal" in html
    assert '<span class="meta">(BOS)</span>' in html  # the report says which game it checked
    # The plugin's charts: vim cost curve, cards per type, reserves against the cap of 10.
    assert html.count('role="img"') == 3 and "Vim cost curve" in html
    assert "Cards per type" in html and 'data-cap="10"' in html

    bad = (
        Client()
        .post("/check-deck/", {"game": GAME, "format": "competitive", "decklist": short_text})
        .content.decode()
    )
    assert "Not legal" in bad and "BOS: Starting Info" in bad and "wizard_count" in bad
    assert not DecklistVersion.objects.exists()


def test_check_page_refuses_a_format_of_another_game_naming_the_field_by_its_label(
    legal_text: str,
) -> None:
    # Not another game's default, and the form was shown for this game: a deliberate choice.
    response = Client().post(
        "/check-deck/",
        {"game": GAME, "shown_game": GAME, "format": "spec_playmaker", "decklist": legal_text},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "SPEC Playmaker is not a format of BOS" in html
    assert "spec_playmaker is not" not in html
    assert 'id="id_format"' in html and "verdict-legal" not in html


def test_check_page_changing_only_the_game_checks_against_its_default_format(
    legal_text: str,
) -> None:
    # The QA walkthrough: the form shown for BoBA, the game switched to BOS without a script,
    # the format left on BoBA's default.
    response = Client().post(
        "/check-deck/",
        {"game": GAME, "shown_game": "boba", "format": "playmaker", "decklist": legal_text},
    )
    html = response.content.decode()
    assert response.status_code == 200 and "verdict-legal" in html
    assert "BOS has no format “Playmaker”" in html and "default format, Competitive" in html
    assert '<option value="competitive" selected>' in html
    assert '<input type="hidden" name="shown_game" value="bos"' in html
    visible = html.split('<script id="game-switch"')[0]
    assert "Wizards, Summons, Spells, Boss and Reserves" in visible and "Hot Dog" not in visible


def test_check_page_any_format_of_the_game_shown_before_becomes_the_new_games_default(
    legal_text: str,
) -> None:
    response = Client().post(
        "/check-deck/",
        {"game": GAME, "shown_game": "boba", "format": "spec_playmaker", "decklist": legal_text},
    )
    assert "verdict-legal" in response.content.decode()


def test_check_page_offers_the_game_switch_script_each_games_default_and_help() -> None:
    html = Client().get("/check-deck/").content.decode()
    assert 'data-game-switch="game-switch"' in html and "js/game-switch.js" in html
    data = json.loads(
        html.split('<script id="game-switch" type="application/json">')[1].split("</script>")[0]
    )
    assert data["bos"]["fields"] == {"format": "competitive", "catalog": ""}
    assert "Wizards, Summons" in data["bos"]["help"]["decklist"]
    assert data["boba"]["fields"]["format"] == "playmaker"


def test_check_page_refuses_a_card_list_of_another_game(legal_text: str) -> None:
    services.demo_catalog_load()  # the default game's demo catalog
    other = next(
        c for c in services.selectors.catalogs_for_choice(get_game("boba").key) if c.kind == "demo"
    )
    response = Client().post(
        "/check-deck/",
        {"game": GAME, "format": "competitive", "catalog": other.slug, "decklist": legal_text},
    )
    assert "This card list is not one of BOS" in response.content.decode()


def test_check_api_for_bos_defaults_to_its_format(api_client, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    response = api_client.post(
        "/api/decklists/check/", {"game": GAME, "text": legal_text}, format="json"
    )
    body = response.json()
    assert response.status_code == 200 and body["report"]["legal"] is True
    assert body["report"]["format"] == "competitive"
    assert body["statistics"]["cards"] == 24 and body["statistics"]["reserves"] == 7


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"game": GAME, "format": "playmaker", "text": "1 Kindle"}, "format"),
        ({"game": "chess", "text": "1 Kindle"}, "game"),
        ({"game": GAME}, "text"),
        ({"game": GAME, "text": "a" * 300_000}, "decklist"),
        ({"game": GAME, "text": "1 Kindle", "catalog": "boba-demo"}, "catalog"),
        ({"game": GAME, "text": "1 Kindle", "event": "no-such-event"}, "event"),
    ],
)
def test_check_api_bad_input_names_the_field(api_client, catalog, payload, field) -> None:  # type: ignore[no-untyped-def]
    response = api_client.post("/api/decklists/check/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_formats_api_for_bos(api_client) -> None:  # type: ignore[no-untyped-def]
    body = api_client.get("/api/formats/?game=bos").json()
    assert body["game"] == GAME
    assert [f["key"] for f in body["formats"]] == ["competitive"]
    params = body["formats"][0]["parameters"]
    assert (params["deck_size"], params["reserves_max"], params["max_copies"]) == (24, 10, 3)
    assert body["rules"]["reserves_size"] == "BOS: Reserves"
    assert body["rules"]["wizard_count"] == "BOS: Starting Info"
    bad = api_client.get("/api/formats/?game=chess")
    assert bad.status_code == 400 and "game" in bad.json()


# --- submitting on a BOS event -------------------------------------------------------------


def test_submitting_a_legal_bos_list_saves_a_version_and_audits_it(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    client = logged_in(setup["player"])
    page = client.get(f"/registrations/{setup['reg'].pk}/decklist/").content.decode()
    assert "Wizards, Summons, Spells, Boss and Reserves" in page
    response = client.post(
        f"/registrations/{setup['reg'].pk}/decklist/", {"decklist": legal_text}, follow=True
    )
    assert "the list is legal" in response.content.decode()
    version = DecklistVersion.objects.get()
    assert version.legal and version.format_key == "competitive"
    assert [i["name"] for i in version.data["reserves"]]
    assert AuditEntry.objects.filter(action="decklist.submitted").count() == 1


def test_an_illegal_bos_list_is_saved_with_its_citations(setup, short_text: str) -> None:  # type: ignore[no-untyped-def]
    too_many_reserves = short_text.replace(
        "3 Brand Knight", "3 Brand Knight\n3 Blaze Pact\n2 Kindle"
    )
    version = services.decklist_submit(
        actor=setup["player"], registration=setup["reg"], source=too_many_reserves
    )
    assert not version.legal
    citations = {v["rule"]: v["citation"] for v in version.report["violations"]}
    assert citations["wizard_count"] == "BOS: Starting Info"
    assert citations["reserves_size"] == "BOS: Reserves"
    html = logged_in(setup["player"]).get(f"/registrations/{setup['reg'].pk}/decklist/")
    text = html.content.decode()
    assert "BOS: Starting Info" in text and "BOS: Reserves" in text


def test_an_unreadable_bos_list_is_refused_by_the_api_naming_the_field(api_client, setup) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(setup["player"])
    response = api_client.post(
        f"/api/registrations/{setup['reg'].pk}/decklist/",
        {"text": "Wizards (1)\n1 Nobody Of Note\n"},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert "decklist" in body and body["report"]["violations"][0]["line"] == 2
    assert not DecklistVersion.objects.exists()


def test_bos_submission_api_permissions_and_lock(api_client, setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    url = f"/api/registrations/{setup['reg'].pk}/decklist/"
    api_client.force_authenticate(UserFactory())
    assert api_client.post(url, {"text": legal_text}, format="json").status_code == 403
    api_client.force_authenticate(setup["player"])
    assert api_client.post(url, {"text": legal_text}, format="json").status_code == 201
    event = setup["event"]
    event.decklist_deadline = timezone.now()
    event.save(update_fields=["decklist_deadline"])
    locked = api_client.post(url, {"text": legal_text}, format="json")
    assert locked.status_code == 400 and "decklist" in locked.json()
    api_client.force_authenticate(setup["organiser"])
    unlock = api_client.post(
        f"/api/registrations/{setup['reg'].pk}/decklist/unlock/", {"unlocked": True}, format="json"
    )
    assert unlock.status_code == 200
    api_client.force_authenticate(setup["player"])
    assert api_client.post(url, {"text": legal_text}, format="json").status_code == 201
    body = api_client.get(url).json()
    assert body["active"]["number"] == 2 and len(body["versions"]) == 2


# --- the deck page, printing, publishing, deck checks -------------------------------------


def test_the_bos_deck_page_shows_its_sections_charts_and_print_sheet(
    setup, legal_text: str
) -> None:  # type: ignore[no-untyped-def]
    version = services.decklist_submit(
        actor=setup["player"], registration=setup["reg"], source=legal_text
    )
    html = logged_in(setup["player"]).get(f"/decklists/{version.pk}/").content.decode()
    headings = re.findall(r'<h3 class="h-small">([^<]+) <span class="meta">\((\d+)\)', html)
    assert headings == [
        ("Wizards", "3"),
        ("Summons", "10"),
        ("Spells", "10"),
        ("Boss", "1"),
        ("Reserves", "7"),
    ]
    for column in ("Colour", "Vim cost", "Strength"):
        assert column in html
    assert html.count('role="img"') == 3
    assert "Vim cost curve" in html and "Cards per type" in html
    assert "7 of 10 reserves" in html and 'data-cap="10"' in html
    # The printed registration sheet.
    assert "Deck registration sheet" in html and "Ether Cup" in html
    assert setup["player"].player_id in html and "signature-line" in html
    # Heroes and the like belong to another game.
    assert "Hot Dogs" not in html and "Playbook" not in html


def test_bos_decklists_are_private_until_published(api_client, setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    version = services.decklist_submit(
        actor=setup["player"], registration=setup["reg"], source=legal_text
    )
    stranger = logged_in(UserFactory())
    assert stranger.get(f"/decklists/{version.pk}/").status_code == 403
    event = setup["event"]
    event.status = "finished"
    event.save(update_fields=["status"])
    services.decklists_publish(actor=setup["organiser"], tournament=event)
    page = stranger.get(f"/decklists/{version.pk}/")
    assert page.status_code == 200 and "Reserves" in page.content.decode()
    listing = api_client.get(f"/api/events/{event.slug}/decklists/").json()
    assert {row["player"] for row in listing["decklists"]} == {"Pat Player", "Otto Other"}
    overview = Client().get(f"/events/{event.slug}/decklists/").content.decode()
    assert "Pat Player" in overview


def test_a_bos_deck_check_sheet_shows_the_lists_by_the_games_sections(
    setup, legal_text: str
) -> None:  # type: ignore[no-untyped-def]
    services.decklist_submit(actor=setup["player"], registration=setup["reg"], source=legal_text)
    deck_check = services.deck_check_create(
        actor=setup["judge"], tournament=setup["event"], round_number=1, count=2, seed=3
    )
    html = logged_in(setup["judge"]).get(f"/deck-checks/{deck_check.pk}/").content.decode()
    assert "Pat Player" in html and "Reserves" in html and "Wizards" in html
    assert logged_in(setup["player"]).get(f"/deck-checks/{deck_check.pk}/").status_code == 403


def test_check_page_for_a_bos_event_starts_on_its_game_format_and_card_list(setup) -> None:  # type: ignore[no-untyped-def]
    html = Client().get(f"/check-deck/?event={setup['event'].slug}").content.decode()
    assert '<option value="bos" selected>' in html
    assert '<option value="competitive" selected>' in html
    assert '<option value="bos-demo" selected>' in html


def test_check_page_suggests_bos_card_names_for_a_misspelt_card(catalog) -> None:  # type: ignore[no-untyped-def]
    response = Client().post(
        "/check-deck/",
        {"game": GAME, "format": "competitive", "decklist": "Wizards (1)\n1 Ember Tuter\n"},
    )
    html = response.content.decode()
    assert "Not legal" in html and "unknown card" in html
    assert "Did you mean" in html and "Ember Tutor" in html
    assert '<a class="short-link" href="#line-2">2</a>' in html


def test_check_page_changing_only_the_game_drops_the_old_games_card_list(legal_text: str) -> None:
    services.demo_catalog_load()  # the default game's demo catalog
    other = next(
        c for c in services.selectors.catalogs_for_choice(get_game("boba").key) if c.kind == "demo"
    )
    form = {"game": GAME, "shown_game": "boba", "format": "playmaker", "decklist": legal_text}
    response = Client().post("/check-deck/", {**form, "catalog": other.slug})
    html = response.content.decode()
    assert "verdict-legal" in html and "This card list is not one of BOS" not in html
