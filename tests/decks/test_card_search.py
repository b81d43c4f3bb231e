"""The card search: the cards API's filters (finding 7a) and the public card search page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from config.errors import ServiceError
from decks import services
from decks.models import Card
from decks.selectors import CARD_FILTERS, card_query

pytestmark = pytest.mark.django_db


def _names(body: dict) -> list[str]:  # type: ignore[type-arg]
    return [c["name"] for c in body["results"]]


def test_finding_7a_search_filters_names_case_insensitively(api_client) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game="boba")
    total = api_client.get("/api/cards/?limit=1").json()["count"]
    name = Card.objects.filter(kind="hero").order_by("name").values_list("name", flat=True)[0]
    word = name.split()[0]
    body = api_client.get("/api/cards/", {"search": word.upper(), "limit": 500}).json()
    expected = Card.objects.filter(name__icontains=word).count()
    assert 0 < body["count"] == expected < total
    assert all(word.lower() in n.lower() for n in _names(body))


def test_finding_7a_search_and_text_read_the_rules_text(api_client) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game="bos")
    # "Spark Pup" has no "vim" in its name; cards with "gain 1 vim." in their ability match.
    by_text = api_client.get("/api/cards/", {"game": "bos", "text": "GAIN 1 VIM"}).json()
    assert "Cinder Scribe" in _names(by_text)
    assert all("gain 1 vim" in c["attributes"]["ability"].lower() for c in by_text["results"])
    by_either = api_client.get("/api/cards/", {"game": "bos", "search": "ember"}).json()
    assert "Ember Tutor" in _names(by_either)
    assert by_either["count"] < api_client.get("/api/cards/?game=bos").json()["count"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("serach=hero", "serach"),
        ("power=strong", "power"),
        ("power_min=1.5", "power_min"),
        ("cost=1e9", "cost"),
        ("power_min=200&power_max=100", "power_max"),
        ("game=chess", "game"),
        ("game=boba&kind=wizard", "kind"),
        ("set_name=No%20Such%20Set", "set_name"),
        ("weapon=Banana", "weapon"),
    ],
)
def test_finding_7a_unknown_filters_and_values_are_400s_naming_the_field(
    api_client,  # type: ignore[no-untyped-def]
    query: str,
    field: str,
) -> None:
    services.demo_catalog_load(game="boba")
    response = api_client.get(f"/api/cards/?{query}")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_power_range_filters(api_client) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game="boba")
    body = api_client.get("/api/cards/?power_min=120&power_max=130&limit=500").json()
    powers = {c["power"] for c in body["results"]}
    assert body["count"] > 0 and powers and all(120 <= p <= 130 for p in powers)
    assert body["count"] == Card.objects.filter(power__gte=120, power__lte=130).count()


def test_the_real_list_is_searchable_by_name(api_client, shared_data: Path) -> None:  # type: ignore[no-untyped-def]
    files = [
        ("cards.json", (shared_data / "boba" / "cards.json").read_bytes()),
        ("plays.json", (shared_data / "boba" / "plays.json").read_bytes()),
    ]
    services.import_cards(game="boba", files=files)
    assert Card.objects.count() > 17_000
    body = api_client.get("/api/cards/", {"search": "front run"}).json()
    assert 0 < body["count"] < 50
    assert all("front run" in n.lower() for n in _names(body))

    # A Play's rules text is searchable too (read from the data here, never copied into
    # the project): a phrase from the middle of one Play's ability finds that Play.
    play = next(p for p in json.loads(files[1][1]) if len(p.get("ability") or "") > 40)
    words = play["ability"].split()
    phrase = " ".join(words[2:7]).upper()
    found = api_client.get("/api/cards/", {"game": "boba", "text": phrase}).json()
    assert found["count"] > 0
    assert play["name"].lower() in {n.lower() for n in _names(found)} or found["next"]
    by_search = api_client.get("/api/cards/", {"game": "boba", "search": phrase}).json()
    assert by_search["count"] >= found["count"]
    page = api_client.get("/cards/", {"game": "boba", "text": phrase})
    assert page.status_code == 200 and page.context["page"].paginator.count == found["count"]


# --- the card search page -----------------------------------------------------------------------


def test_card_search_page_filters_by_name_type_and_power(client) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game="boba")
    hero = Card.objects.filter(kind="hero").order_by("name").first()
    assert hero is not None and hero.power is not None
    response = client.get(
        "/cards/",
        {"q": hero.name.upper(), "kind": "hero", "power_min": hero.power, "power_max": hero.power},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert hero.name in page
    found = response.context["page"].paginator.count
    assert (
        found
        == Card.objects.filter(name__icontains=hero.name, kind="hero", power=hero.power).count()
    )
    other = Card.objects.exclude(name__icontains=hero.name).filter(kind="hero").first()
    assert other is not None and f">{other.name}<" not in page


def test_card_search_page_is_paginated_and_bounded(client) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game="boba")
    response = client.get("/cards/?page=999999999999")
    rows = response.context["rows"]
    assert response.status_code == 200 and 0 < len(rows) <= 50
    assert response.context["page"].paginator.count == Card.objects.count()


def test_card_search_page_works_for_every_game_through_its_plugin(client) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game="bos")
    response = client.get("/cards/", {"game": "bos", "text": "gain 1 vim"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Cinder Scribe" in page and "Ember Tutor" not in page
    assert 'id="cards-text"' in page and 'id="cards-power-min"' not in page


def test_card_search_page_names_a_bad_filter(client) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game="boba")
    response = client.get("/cards/", {"power_min": "lots"})
    assert response.status_code == 400
    assert "power_min" in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()


def test_deck_pages_link_to_the_card_search(client, legal_list: str) -> None:  # type: ignore[no-untyped-def]
    from decks.services import decklist_submit
    from tests.factories import RegistrationFactory, logged_in

    assert 'href="/cards/"' in client.get("/check-deck/").content.decode()
    registration = RegistrationFactory()
    version = decklist_submit(
        actor=registration.player, registration=registration, source=legal_list
    )
    player = logged_in(registration.player)
    link = f'href="/cards/?event={registration.tournament.slug}"'
    assert link in player.get(f"/registrations/{registration.pk}/decklist/").content.decode()
    assert link in player.get(f"/decklists/{version.pk}/").content.decode()
    searched = player.get(f"/cards/?event={registration.tournament.slug}&kind=hero")
    assert searched.status_code == 200 and searched.context["event"] == registration.tournament


def test_card_search_page_costs_a_handful_of_queries(client, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    services.demo_catalog_load(game="boba")
    with django_assert_max_num_queries(7):
        assert client.get("/cards/?q=a&kind=hero&power_min=100&page=2").status_code == 200


@settings(max_examples=80)
@given(
    st.dictionaries(
        st.sampled_from([*CARD_FILTERS, "limit", "zzz"]),
        st.lists(st.text(max_size=12), min_size=1, max_size=2),
        max_size=5,
    )
)
def test_card_query_refuses_only_with_a_service_error_naming_a_parameter(
    params: dict[str, list[str]],
) -> None:
    try:
        card_query(params, also=("limit",))
    except ServiceError as exc:
        assert exc.field in params


def test_finding_7a_an_unknown_game_of_the_catalogs_list_is_a_400(api_client) -> None:  # type: ignore[no-untyped-def]
    response = api_client.get("/api/catalogs/", {"game": "chess"})
    assert response.status_code == 400 and response.json()["field"] == "game"
