"""The API schema's shared parts (config/schema.py): every operation documents the refusals it
can make, with the error body the API really sends (security finding 8)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from rest_framework.test import APIClient

from config.errors import Conflict, ServiceError
from tests.factories import UserFactory

METHODS = ("get", "post", "put", "patch", "delete")


@cache
def _schema() -> dict[str, Any]:
    raw = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(raw))


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in _schema()["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def _error_schema() -> dict[str, Any]:
    return _schema()["components"]["schemas"]["Error"]


def test_every_operation_documents_its_standard_refusals_with_the_error_body() -> None:
    error_ref = {"$ref": "#/components/schemas/Error"}
    for method, path, operation in _operations():
        own_400 = path.startswith("/api/replay/")  # a malformed record: the engine's replay JSON
        expected = {"400", "403", "429", "503"}
        if "{" in path:
            expected.add("404")
        if method != "get":
            expected.add("409")
        responses = operation["responses"]
        assert expected <= set(responses), (method, path, sorted(responses))
        for code in expected - ({"400"} if own_400 else set()):
            body = responses[code]["content"]["application/json"]["schema"]
            assert body == error_ref, (method, path, code, body)


def test_documented_request_bodies_are_json_where_a_view_reads_json() -> None:
    for method, path, operation in _operations():
        media_types = set(operation.get("requestBody", {}).get("content", {}))
        if (method, path) == ("post", "/api/card-imports/"):
            assert media_types == {"multipart/form-data"}
        elif (method, path) == ("post", "/api/events/{slug}/registrations/import/"):
            # The roster as JSON text (`csv`) or as an uploaded file (`file`).
            assert media_types == {"application/json", "multipart/form-data"}
        else:
            assert media_types <= {"application/json"}, (method, path, media_types)


def test_ids_routed_as_digits_are_integers_and_slugs_have_the_slug_pattern() -> None:
    for _method, path, operation in _operations():
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "path":
                continue
            schema = parameter["schema"]
            assert schema.get("pattern") != r"^\d+$", path
            if parameter["name"] == "slug":
                assert schema["pattern"] == "^[-a-zA-Z0-9_]+$", path


@pytest.mark.parametrize(
    "error",
    [
        ServiceError("capacity: at least 2.", field="capacity"),
        ServiceError("code: nobody has it.", field="code"),
        Conflict("Someone else changed it first."),
        ServiceError("No field at fault."),
    ],
)
def test_a_service_error_body_matches_the_documented_error(error: ServiceError) -> None:
    jsonschema.validate(error.as_dict(), _error_schema())


@pytest.mark.django_db
def test_the_api_refusals_match_the_documented_error() -> None:
    client = APIClient()
    client.force_authenticate(UserFactory())
    answers = [
        client.get("/api/no-such-thing/"),
        client.post("/api/events/", {"name": ""}, format="json"),
        client.post("/api/events/", "[1, 2]", content_type="application/json"),
        client.get("/api/events/?limit=x"),
        APIClient().post("/api/events/", {}, format="json"),
    ]
    for answer in answers:
        assert 400 <= answer.status_code < 500
        jsonschema.validate(answer.json(), _error_schema())


def test_a_new_endpoint_declares_another_refusal_with_error_responses() -> None:
    calls = _schema()["paths"]["/api/calls/"]["get"]["responses"]
    assert calls["404"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
