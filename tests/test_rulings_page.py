"""The rulings page (GET /rules/rulings/?q=) and its API (GET /api/rules/rulings/?q=): public,
searchable by card, paginated, bounded input, accessible and printable."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from config.rulings import MAX_Q, PAGE_SIZE
from engine.boba import rulings
from tests.factories import UserFactory, logged_in
from tests.support import audit

pytestmark = pytest.mark.django_db

URL = "/rules/rulings/"
API = "/api/rules/rulings/"


def test_anonymous_visitors_see_the_page_and_the_nav_links_to_it(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'href="/rules/rulings/"' in html  # the site's navigation
    assert "<h1>" in html


def test_empty_search_lists_every_ruling_25_a_page(client: Client) -> None:
    total = len(rulings.all_rulings())
    page = client.get(URL).context["page"]
    assert page.paginator.count == total
    assert len(page.object_list) == min(total, PAGE_SIZE)
    assert client.get(URL, {"q": "   "}).context["page"].paginator.count == total


def test_search_finds_the_rulings_of_a_card_by_part_of_its_name(client: Client) -> None:
    response = client.get(URL, {"q": "hexvan"})
    assert response.status_code == 200
    cards = [row["card"] for row in response.context["rows"]]
    assert cards == ["Hexvantage"]
    html = response.content.decode()
    ruling = rulings.rulings_for_card("Hexvantage")[0]
    assert ruling.answer in html
    assert "CR 5.1.1: Play Effects" in html  # citations with their section titles
    assert client.get(URL, {"q": "DOG"}).context["page"].paginator.count >= 3


def test_a_card_without_rulings_says_so(client: Client) -> None:
    response = client.get(URL, {"q": "no card has this name"})
    assert response.status_code == 200
    assert response.context["rows"] == []
    assert "No ruling" in response.content.decode()


def test_bad_and_long_queries_are_refused_or_read_safely(client: Client) -> None:
    assert client.get(URL, {"q": "x" * (MAX_Q + 1)}).status_code == 400
    assert client.get(URL, {"q": "x" * MAX_Q}).status_code == 200
    assert client.get(URL, {"q": "a\x00b"}).status_code == 400
    response = client.get(URL, {"q": "<script>alert(1)</script>"})
    assert response.status_code == 200
    assert "<script>alert(1)</script>" not in response.content.decode()
    for page in ("junk", "-3", "99999999999999999999999", "0"):
        assert client.get(URL, {"page": page}).status_code == 200


def test_pages_beyond_the_first(client: Client) -> None:
    total = len(rulings.all_rulings())
    last = (total + PAGE_SIZE - 1) // PAGE_SIZE
    response = client.get(URL, {"page": last})
    assert response.context["page"].number == last
    if last > 1:
        assert "page=" in response.content.decode()


def test_the_page_is_accessible_and_printable(client: Client) -> None:
    assert audit(client, URL) == []
    assert audit(client, URL + "?q=dog") == []
    html = client.get(URL).content.decode()
    assert '<label for="rulings-q">' in html
    # the search form and the page links stay off paper (print CSS hides forms, .no-print)
    assert 'class="pagination no-print"' in html or len(rulings.all_rulings()) <= PAGE_SIZE


def test_signed_in_users_see_it_too() -> None:
    assert logged_in(UserFactory()).get(URL).status_code == 200


def test_the_page_refuses_other_methods(client: Client) -> None:
    assert client.post(URL, {"q": "dog"}).status_code == 405


# --- the API ------------------------------------------------------------------------------------


def test_api_lists_and_searches_the_rulings_anonymously() -> None:
    api = APIClient()
    body = api.get(API).json()
    assert body["count"] == len(rulings.all_rulings())
    assert len(body["results"]) == min(body["count"], PAGE_SIZE)
    first = body["results"][0]
    assert set(first) == {"id", "card", "question", "answer", "reasoning", "citations"}
    found = api.get(API, {"q": "ultimatum"}).json()
    assert [r["card"] for r in found["results"]] == ["Ultimatum Dog"]
    assert found["results"][0]["citations"][0].startswith("CR ")


def test_api_paginates_with_limit_and_offset() -> None:
    api = APIClient()
    total = len(rulings.all_rulings())
    body = api.get(API, {"limit": 2, "offset": 1}).json()
    assert len(body["results"]) == 2
    assert body["results"][0]["id"] == rulings.all_rulings()[1].id
    assert body["next"] is not None or total <= 3
    assert api.get(API, {"limit": "junk"}).status_code == 400


def test_api_refuses_a_long_query_naming_q() -> None:
    response = APIClient().get(API, {"q": "x" * (MAX_Q + 1)})
    assert response.status_code == 400
    assert response.json()["field"] == "q"


def test_api_is_in_the_openapi_schema() -> None:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    operation = schema["paths"][API]["get"]
    names = {p["name"] for p in operation["parameters"]}
    assert {"q", "limit", "offset"} <= names
