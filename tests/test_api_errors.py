"""Every answer under /api/ is JSON, and odd input is a 4xx naming what is wrong, never a 500:
an unknown API path, a NUL in a path, a number too large for a float, a statement the database
gave up on (security finding 4)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.scenarios import running_event

pytestmark = pytest.mark.django_db


def test_an_unknown_api_path_is_a_json_404() -> None:
    for path in ("/api/no-such-thing/", "/api/events/x/no-such-thing/", "/api/v2/"):
        response = Client().get(path)
        assert response.status_code == 404, path
        assert response["Content-Type"] == "application/json"
        assert response.json()["code"] == "not_found"


def test_an_unknown_page_is_still_a_page() -> None:
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_a_nul_in_an_event_slug_is_a_404_naming_the_path() -> None:
    event, _organiser, _regs = running_event(2)
    for path in (f"/api/events/{event.slug}%00/", "/api/events/a%00b/", "/api/registrations/1%00/"):
        response = Client().get(path)
        assert response.status_code == 404, path
        assert response.json()["field"] == "path"
    page = Client().get(f"/events/{event.slug}%00/")
    assert page.status_code == 404
    assert b"NUL" in page.content


def _pairing_options(body: Any, **kwargs: Any) -> Any:
    event, organiser, regs = running_event(2)
    client = APIClient()
    client.force_authenticate(organiser)
    return client.post(f"/api/registrations/{regs[0].pk}/pairing/", body, **kwargs), regs[0]


def test_a_seed_too_large_for_a_float_is_a_400_naming_the_seed() -> None:
    response, registration = _pairing_options('{"seed": 1e400}', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "seed"
    assert response.json()["code"] == "out_of_range"
    registration.refresh_from_db()
    assert registration.seed is None


@pytest.mark.parametrize("seed", ["1e400", "nan", "-inf"])
def test_a_seed_that_is_not_a_finite_number_is_a_400_naming_the_seed_in_a_form(
    seed: str,
) -> None:
    response, registration = _pairing_options({"seed": seed}, format="multipart")
    assert response.status_code == 400
    assert "seed" in response.json()
    registration.refresh_from_db()
    assert registration.seed is None


def test_a_finite_seed_is_kept() -> None:
    response, registration = _pairing_options({"seed": 12.5}, format="json")
    assert response.status_code == 200
    assert response.json()["seed"] == 12.5


def test_a_nested_float_overflow_names_its_top_level_field() -> None:
    client = APIClient()
    client.force_authenticate(UserFactory())
    response = client.post(
        "/api/decklists/check/",
        '{"game": "boba", "params": {"deep": [1e999]}}',
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "params"


def test_a_service_error_on_a_field_named_code_keeps_the_error_code() -> None:
    """The check-in desk's `code` field: the body's own `code` stays the error's code."""
    from config.errors import ServiceError

    body = ServiceError("code: nobody has it.", field="code").as_dict()
    assert body["code"] == "invalid"
    assert body["field"] == "code"


def _slow(*args: Any, **kwargs: Any) -> Any:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(2)")
    raise AssertionError("the statement timeout did not cancel the query")


@pytest.mark.services
def test_a_statement_timeout_is_a_json_503_in_the_api_and_a_page_elsewhere(
    require_postgres: None,
) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] != "0"  # settings set one on every connection
        cursor.execute("SET statement_timeout = '50ms'")
    try:
        with mock.patch("decks.api.selectors.default_catalogs", side_effect=_slow):
            api = Client().get("/api/catalogs/")
        with mock.patch("tournaments.views.render", side_effect=_slow):
            page = Client().get("/")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET statement_timeout")
    assert api.status_code == 503
    assert api["Content-Type"] == "application/json"
    assert api.json()["code"] == "timeout"
    assert api["Retry-After"]
    assert page.status_code == 503
    assert page["Content-Type"].startswith("text/html")
    assert "try again" in page.content.decode().lower()


def test_a_whole_number_card_filter_refuses_a_fraction_naming_it() -> None:
    """`power` and `cost` are whole numbers, as the schema says: 5.5 is a 400, not a search."""
    for query in ("power=5.5", "cost=1e-3"):
        response = Client().get(f"/api/cards/?{query}")
        assert response.status_code == 400, query
        assert query.split("=")[0] in response.json()
    assert Client().get("/api/cards/?power=5").status_code == 200


@pytest.mark.django_db
def test_a_number_sent_as_a_note_is_a_400_naming_it_not_saved_as_its_digits() -> None:
    from rest_framework.exceptions import ValidationError as DRFValidationError

    from matches.serializers import EscalateInput, NoteInput

    for serializer in (EscalateInput, NoteInput):
        with pytest.raises(DRFValidationError) as refused:
            serializer(data={"note": -1367330}).is_valid(raise_exception=True)
        assert "note" in refused.value.detail
        assert serializer(data={"note": "Table 12 asks for a second opinion"}).is_valid()
