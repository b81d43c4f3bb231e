"""A BOS event: organisers create it on the page and through the API; what a new event starts
with comes from the game's plugin; a mode, format or match structure of another game (or of
none) is a 400 naming the field, and nothing is saved."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.games import get_game
from tests.factories import OrganiserFactory, TournamentFactory, UserFactory, logged_in
from tournaments.forms import format_params_example
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

GAME = "bos"
PAYLOAD: dict[str, Any] = {
    "name": "Ether Open",
    "game": GAME,
    "starts_at": "2030-05-01T10:00:00Z",
    "time_zone": "Europe/Berlin",
    "capacity": 16,
}
FORM = {
    "name": "Ether Form Open",
    "game": GAME,
    "mode": "competitive",
    "format_key": "competitive",
    "match_structure": "bo3",
    "starts_at": "2030-01-01T10:00",
    "time_zone": "UTC",
    "round_minutes": 50,
    "top_cut_size": 8,
}


def test_a_bos_event_through_the_api_starts_on_the_games_defaults(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post("/api/events/", PAYLOAD, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    game = get_game(GAME)
    assert (body["game"], body["mode"], body["format_key"], body["match_structure"]) == (
        GAME,
        game.default_mode,
        game.default_format,
        game.default_match_structure,
    )
    event = Tournament.objects.get(slug=body["slug"])
    assert event.match_structure == "bo3"
    assert AuditEntry.objects.filter(tournament=event, action="event.created").exists()


def test_a_bos_event_may_be_best_of_one(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post("/api/events/", {**PAYLOAD, "match_structure": "bo1"}, format="json")
    assert response.status_code == 201 and response.json()["match_structure"] == "bo1"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"mode": "playmaker"}, "mode"),
        ({"format_key": "playmaker"}, "format_key"),
        ({"mode": "competitive", "format_key": "spec_playmaker"}, "format_key"),
        ({"match_structure": "bo5"}, "match_structure"),
        ({"match_structure": ""}, "match_structure"),
        ({"format_params": {"deck_size": "lots"}}, "format_params"),
        ({"format_params": {"dbs_cap": 900}}, "format_params"),
        ({"game": "chess"}, "game"),
    ],
)
def test_a_bos_event_with_another_games_settings_is_a_400_naming_the_field(
    api_client, change: dict[str, Any], field: str
) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post("/api/events/", {**PAYLOAD, **change}, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert not Tournament.objects.exists()


def test_a_bos_event_keeps_its_custom_format_parameters(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post(
        "/api/events/", {**PAYLOAD, "format_params": {"reserves_max": 5}}, format="json"
    )
    assert response.status_code == 201, response.json()
    event = Tournament.objects.get(slug=response.json()["slug"])
    assert event.format_params == {"reserves_max": 5}


def test_switching_an_event_to_bos_without_its_mode_names_the_mode(api_client) -> None:  # type: ignore[no-untyped-def]
    event = TournamentFactory(status="draft")
    api_client.force_authenticate(event.organisers.first())
    response = api_client.patch(f"/api/events/{event.slug}/", {"game": GAME}, format="json")
    assert response.status_code == 400 and "mode" in response.json()
    event.refresh_from_db()
    assert event.game != GAME
    moved = api_client.patch(
        f"/api/events/{event.slug}/",
        {"game": GAME, "mode": "competitive", "format_key": "competitive"},
        format="json",
    )
    assert moved.status_code == 200, moved.json()
    event.refresh_from_db()
    assert (event.game, event.mode) == (GAME, "competitive")


def test_only_organisers_create_bos_events(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(UserFactory())
    assert api_client.post("/api/events/", PAYLOAD, format="json").status_code == 403
    assert not Tournament.objects.exists()


def test_an_organiser_creates_a_bos_event_on_the_page() -> None:
    client = logged_in(OrganiserFactory())
    response = client.post("/events/new/", FORM)
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Tournament.objects.get(name="Ether Form Open")
    assert (event.game, event.mode, event.format_key, event.match_structure) == (
        GAME,
        "competitive",
        "competitive",
        "bo3",
    )
    assert client.get(response["Location"]).status_code == 200


def test_the_new_event_page_groups_choices_by_game_and_starts_on_a_games_defaults() -> None:
    client = logged_in(OrganiserFactory())
    html = client.get("/events/new/?game=bos").content.decode()
    assert '<optgroup label="BOS">' in html
    assert '<option value="bos" selected>' in html
    assert '<option value="competitive" selected>' in html
    assert '<option value="bo3" selected>' in html
    # The game chooser is a labelled form of its own (no script needed).
    assert '<label for="start-game">' in html and 'name="game"' in html


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"mode": "playmaker"}, "Playmaker is not a game mode of BOS"),
        ({"format_key": "playmaker"}, "Playmaker is not a format of BOS"),
        ({"game": "boba"}, "Competitive is not a game mode of Bo Jackson Battle Arena"),
    ],
)
def test_the_event_page_names_a_choice_of_another_game_on_its_field(
    change: dict[str, str], message: str
) -> None:
    client = logged_in(OrganiserFactory())
    response = client.post("/events/new/", {**FORM, **change})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("query", "structure"), [("?game=bos", "bo3"), ("", "bo1")])
def test_a_structure_offered_by_several_games_is_selected_once(query: str, structure: str) -> None:
    html = logged_in(OrganiserFactory()).get(f"/events/new/{query}").content.decode()
    select = html.split('name="match_structure"', 1)[1].split("</select>", 1)[0]
    assert select.count(" selected") == 1
    assert f'<option value="{structure}" selected>' in select


def test_editing_a_bos_event_selects_its_settings_in_its_own_group() -> None:
    event = TournamentFactory(
        status="draft", game=GAME, mode="competitive", format_key="competitive"
    )
    event.match_structure = "bo1"
    event.save(update_fields=["match_structure"])
    html = logged_in(event.organisers.first()).get(f"/events/{event.slug}/edit/").content.decode()
    select = html.split('name="match_structure"', 1)[1].split("</select>", 1)[0]
    bos_group = select.split('<optgroup label="BOS">', 1)[1].split("</optgroup>", 1)[0]
    assert select.count(" selected") == 1 and '<option value="bo1" selected>' in bos_group


def test_the_event_page_flags_every_choice_of_another_game_at_once() -> None:
    client = logged_in(OrganiserFactory())
    wrong = {"mode": "playmaker", "format_key": "spec_playmaker", "match_structure": "bo5"}
    html = client.post("/events/new/", {**FORM, **wrong}).content.decode()
    assert "Playmaker is not a game mode of BOS" in html
    assert "SPEC Playmaker is not a format of BOS" in html
    assert "Select a valid choice. bo5" in html  # not a structure of any game
    assert not Tournament.objects.exists()


def test_changing_only_the_game_fills_in_its_defaults_and_asks_to_check_again() -> None:
    # The QA walkthrough: the page shown for BoBA, only the game switched to BOS (no script).
    client = logged_in(OrganiserFactory())
    boba = {"mode": "playmaker", "format_key": "playmaker", "match_structure": "bo1"}
    form = {**FORM, **boba, "clock_mode": "off", "shown_game": "boba"}
    html = client.post("/events/new/", form).content.decode()
    assert not Tournament.objects.exists()
    assert "The game is now BOS: its game mode, format, match structure, match clock" in html
    for name, value in (("mode", "competitive"), ("format_key", "competitive")):
        select = html.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
        assert f'<option value="{value}" selected>' in select
    structure = html.split('name="match_structure"', 1)[1].split("</select>", 1)[0]
    bos_group = structure.split('<optgroup label="BOS">', 1)[1].split("</optgroup>", 1)[0]
    assert '<option value="bo3" selected>' in bos_group
    clock = html.split('name="clock_mode"', 1)[1].split("</select>", 1)[0]
    assert '<option value="per_game" selected>' in clock
    assert '<input type="hidden" name="shown_game" value="bos"' in html
    # Saving the form as shown again creates the event.
    again = {**form, "mode": "competitive", "format_key": "competitive"}
    again.update(match_structure="bo3", clock_mode="per_game", shown_game="bos")
    response = client.post("/events/new/", again)
    assert response.status_code == 302
    event = Tournament.objects.get()
    assert (event.format_key, event.match_structure, event.clock_mode) == (
        "competitive",
        "bo3",
        "per_game",
    )


def test_a_choice_made_for_the_new_game_is_kept_when_the_game_changes() -> None:
    # Mode and format already the new game's (the script ran, or the organiser chose them).
    client = logged_in(OrganiserFactory())
    response = client.post("/events/new/", {**FORM, "match_structure": "bo1", "shown_game": "boba"})
    assert response.status_code == 302
    assert Tournament.objects.get().match_structure == "bo1"


def test_bos_new_event_page_starts_with_the_recommended_clock_per_game() -> None:
    client = logged_in(OrganiserFactory())
    bos = client.get("/events/new/?game=bos").content.decode()
    clock = bos.split('name="clock_mode"', 1)[1].split("</select>", 1)[0]
    assert '<option value="per_game" selected>' in clock
    boba = client.get("/events/new/?game=boba").content.decode()
    clock = boba.split('name="clock_mode"', 1)[1].split("</select>", 1)[0]
    assert '<option value="off" selected>' in clock


def test_bos_event_created_through_the_api_has_the_recommended_clock_per_game(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    bos = api_client.post("/api/events/", PAYLOAD, format="json").json()
    assert bos["clock_mode"] == "per_game"
    boba = api_client.post("/api/events/", {**PAYLOAD, "game": "boba"}, format="json").json()
    assert boba["clock_mode"] == "off"
    off = api_client.post("/api/events/", {**PAYLOAD, "clock_mode": "off"}, format="json").json()
    assert off["clock_mode"] == "off"


def test_the_event_page_shows_the_games_own_parameter_example_and_plain_format_labels() -> None:
    client = logged_in(OrganiserFactory())
    bos = client.get("/events/new/?game=bos").content.decode()
    visible = bos.split('<script id="game-switch"')[0]
    assert "dbs_cap" not in visible and 'For example: {"deck_size": 24}' in visible
    assert "Competitive (competitive)" not in visible and ">Competitive</option>" in visible
    assert ">Apex Madness (Rookie)</option>" in visible
    # Checkbox labels carry no colon; the script gets every game's defaults.
    assert "Judges may check players in:" not in visible
    assert ">Judges may check players in</label>" in visible
    assert 'data-game-switch="game-switch"' in bos and "js/game-switch.js" in bos


@pytest.mark.parametrize("game", ["boba", "bos"])
def test_each_games_parameter_example_is_accepted_by_its_format(game: str) -> None:
    example = json.loads(format_params_example(game))
    plugin = get_game(game)
    assert example and plugin.deck_rules().resolve_format(plugin.default_format, example)
