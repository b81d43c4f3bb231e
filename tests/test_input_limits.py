"""Hostile input is a 4xx naming the field, never a 500 (issue 10, hardening).

Each test is one finding of the security review: a huge `limit`, no maximum page size, a NUL
byte or an overlong value in a search, deeply nested or oversized JSON, and a round number
beyond its column.
"""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from config.middleware import MAX_QUERY_VALUE
from config.pagination import MAX_OFFSET, MAX_PAGE_SIZE
from config.parsers import MAX_JSON_BYTES, MAX_JSON_DEPTH
from decks.services import demo_catalog_load
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.scenarios import client_for
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


# --- pagination -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/cards/", "/api/events/"])
def test_a_limit_beyond_any_integer_column_is_clamped_not_a_500(
    api_client: APIClient, path: str
) -> None:
    demo_catalog_load(game="boba")
    TournamentFactory(status=EventStatus.REGISTRATION_OPEN.value)
    response = api_client.get(f"{path}?limit=99999999999999999999")
    assert response.status_code == 200
    body = response.json()
    assert 0 < len(body["results"]) <= MAX_PAGE_SIZE


def test_no_page_is_larger_than_the_maximum_page_size(api_client: APIClient) -> None:
    demo_catalog_load(game="boba")
    total = api_client.get("/api/cards/?limit=1").json()["count"]
    assert total > MAX_PAGE_SIZE, "the demo catalog is big enough to show the clamp"
    body = api_client.get("/api/cards/?limit=100000").json()
    assert len(body["results"]) == MAX_PAGE_SIZE
    assert f"limit={MAX_PAGE_SIZE}" in body["next"] and f"offset={MAX_PAGE_SIZE}" in body["next"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=abc", "limit"),
        ("limit=0", "limit"),
        ("limit=-5", "limit"),
        ("limit=1.5", "limit"),
        ("offset=-1", "offset"),
        ("offset=xyz", "offset"),
        ("offset=99999999999999999999", "offset"),
        (f"offset={MAX_OFFSET + 1}", "offset"),
    ],
)
def test_junk_limits_and_offsets_are_a_400_naming_the_parameter(
    api_client: APIClient, query: str, field: str
) -> None:
    response = api_client.get(f"/api/events/?{query}")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_hand_paginated_views_use_the_bounded_pagination() -> None:
    event, organiser, _regs = _running_event()
    staff = client_for(organiser)
    assert (
        staff.get(f"/api/events/{event.slug}/penalties/?limit=99999999999999999999").status_code
        == 200
    )
    response = staff.get(f"/api/events/{event.slug}/penalties/?offset=99999999999999999999")
    assert response.status_code == 400 and response.json()["field"] == "offset"
    response = staff.get("/api/calls/?limit=junk")
    assert response.status_code == 400 and response.json()["field"] == "limit"


# --- query strings and forms --------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/api/cards/?q=a%00b", "/api/events/?search=a%00b", "/api/events/?status=a%00b"],
)
def test_a_nul_byte_in_an_api_query_is_a_400_naming_the_parameter(
    api_client: APIClient, path: str
) -> None:
    response = api_client.get(path)
    assert response.status_code == 400
    field = path.split("?")[1].split("=")[0]
    assert response.json()["field"] == field and "NUL" in response.json()["detail"]


def test_an_overlong_query_value_is_a_400(api_client: APIClient) -> None:
    response = api_client.get("/api/cards/", {"q": "x" * (MAX_QUERY_VALUE + 1)})
    assert response.status_code == 400 and response.json()["field"] == "q"
    assert api_client.get("/api/cards/", {"q": "x" * MAX_QUERY_VALUE}).status_code == 200


def test_a_nul_byte_in_page_searches_is_a_400_page_naming_the_field(client) -> None:  # type: ignore[no-untyped-def]
    event, organiser, _regs = _running_event()
    client.force_login(organiser)
    for path in (
        f"/events/{event.slug}/manage/?q=a%00b",  # the dashboard's player search
        f"/events/{event.slug}/standings/?q=a%00b",
        "/?q=a%00b",
    ):
        response = client.get(path)
        assert response.status_code == 400, path
        assert "q: NUL characters are not allowed." in response.content.decode()


def test_a_nul_byte_in_a_posted_form_is_a_400(client) -> None:  # type: ignore[no-untyped-def]
    response = client.post("/accounts/login/", {"username": "a\x00b", "password": "x"})
    assert response.status_code == 400
    assert "username: NUL characters are not allowed." in response.content.decode()


# --- JSON bodies -----------------------------------------------------------------------------


def test_deeply_nested_json_to_the_anonymous_deck_check_is_a_400_naming_the_body(
    api_client: APIClient,
) -> None:
    depth = 100_000
    body = "[" * depth + "]" * depth
    response = api_client.post("/api/decklists/check/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "body" and response.json()["code"] == "too_deep"


def test_json_just_past_the_depth_bound_is_refused_and_at_it_accepted(
    api_client: APIClient,
) -> None:
    too_deep = json.dumps({"list": "x", "data": _nested(MAX_JSON_DEPTH)})
    response = api_client.post("/api/decklists/check/", too_deep, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "too_deep"
    fine = json.dumps({"list": "x", "data": _nested(MAX_JSON_DEPTH - 2)})
    response = api_client.post("/api/decklists/check/", fine, content_type="application/json")
    assert response.json().get("field") != "body"


def test_an_oversized_json_body_is_a_400_naming_the_body(api_client: APIClient) -> None:
    body = json.dumps({"list": "x" * (MAX_JSON_BYTES + 1)})
    response = api_client.post("/api/decklists/check/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "body" and response.json()["code"] == "too_large"


def test_malformed_json_names_the_body(api_client: APIClient) -> None:
    response = api_client.post("/api/decklists/check/", "{nope", content_type="application/json")
    assert response.status_code == 400 and response.json()["field"] == "body"


# --- integer bounds in serializers --------------------------------------------------------------


def test_a_drop_round_beyond_its_column_is_a_400_naming_round_number() -> None:
    event, organiser, regs = _running_event()
    response = client_for(organiser).post(
        f"/api/registrations/{regs[0].pk}/drop/", {"round_number": 40000}, format="json"
    )
    assert response.status_code == 400
    assert "round_number" in response.json()
    regs[0].refresh_from_db()
    assert regs[0].dropped_at is None


# --- helpers ----------------------------------------------------------------------------------


def _running_event():  # type: ignore[no-untyped-def]
    organiser = OrganiserFactory()
    event = TournamentFactory(organisers=[organiser], status=EventStatus.RUNNING.value)
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(4)]
    return event, organiser, regs


def _nested(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


def test_deeply_nested_json_to_replay_is_a_400_naming_the_record() -> None:
    depth = 100_000
    body = "[" * depth + "]" * depth
    response = client_for(UserFactory()).post(
        "/api/replay/boba/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "record"


def test_a_multipart_body_to_replay_is_read_as_the_record_not_a_500() -> None:
    response = client_for(UserFactory()).post("/api/replay/boba/", {"a": "b"}, format="multipart")
    assert response.status_code == 400


def test_a_nul_character_inside_posted_json_is_a_400_naming_its_top_level_field() -> None:
    event, organiser, _regs = _running_event()
    body = json.dumps({"format_params": {"note": "a\u0000b"}})
    response = client_for(organiser).patch(
        f"/api/events/{event.slug}/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "format_params" and response.json()["code"] == "nul"
