"""The API schema's shared parts: the one error body and the refusals every operation documents.

Every refusal the API makes has the same JSON body (config.api, config.errors,
config.middleware, config.throttling): `detail`, `code` and, when one field is at fault,
`field` with the field's messages under its own name; a validation error maps each field to its
messages. `AutoSchema` adds that body under the status codes an operation can answer without
saying so itself, so a view documents only its successes and its own refusals:

- 400 (bad query string or body), 403 (not signed in, a bad token, not allowed),
  429 (throttled) and 503 (the database gave up on a slow statement): every operation;
- 404: every operation with a path parameter (an object that does not exist, or the caller
  may not see);
- 409: every write (someone else changed it first, or its state forbids the change).

A view that answers another refusal declares it with ``error_responses``, e.g.
``@extend_schema(responses={200: Out, **error_responses(404)})``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

from config.middleware import MAX_QUERY_VALUE

ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "Bad input: the body maps each field at fault to its messages, or names it in `field`.",
    403: "Not signed in, a bad token, or the user may not do this.",
    404: "No such object, or the caller may not see it (yet).",
    409: "Someone else changed it first, or its state forbids this.",
    413: "The upload is too large.",
    429: "Too many requests: `retry_after` seconds (also the Retry-After header).",
    503: "The database gave up on a slow statement; try again (`code`: `timeout`).",
}
ALWAYS = (400, 403, 429, 503)
WITH_PATH_PARAMETERS = (404,)
FOR_WRITES = (409,)
_SLUG = "[-a-zA-Z0-9_]+"  # Django's slug path converter


# A field validator -> the regular expression the schema gives its fields. The app that owns
# the validator registers it in its AppConfig.ready() (config sits below the apps).
VALIDATOR_PATTERNS: dict[Callable[..., Any], Callable[[], str]] = {}


def document_pattern(validator: Callable[..., Any], pattern: Callable[[], str]) -> None:
    """Give every text field checked by ``validator`` the schema pattern ``pattern()``."""
    VALIDATOR_PATTERNS[validator] = pattern


class ErrorSerializer(serializers.Serializer):
    """The API's error body (documentation only: config.api and config.errors build it)."""

    detail = serializers.CharField(required=False)
    code = serializers.CharField(required=False)
    field = serializers.CharField(required=False)
    retry_after = serializers.IntegerField(required=False, allow_null=True)


class ErrorSerializerExtension(OpenApiSerializerExtension):
    """`Error`: the named properties, and any field name mapped to its messages."""

    target_class = ErrorSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "description": "An error: `detail`, `code` and `field`, or field names mapped to "
            "their messages (a list of strings, or nested objects for nested fields).",
            "properties": {
                "detail": {"type": "string"},
                # The error's code; only for a body with an input field named `code` (the
                # check-in desk's) whose validation failed, that field's messages instead.
                "code": {
                    "oneOf": [
                        {"type": "string"},
                        {"type": "array", "items": {"type": "string"}},
                    ]
                },
                "field": {"type": "string"},
                "retry_after": {"type": "integer", "nullable": True},
            },
            "additionalProperties": True,
        }


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """Error responses for ``extend_schema(responses=...)``: the error body under each code."""
    return {
        code: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS.get(code, ""))
        for code in codes
    }


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's AutoSchema, with the standard refusals of every operation."""

    def standard_error_codes(self) -> list[int]:
        codes = list(ALWAYS)
        if "{" in self.path:
            codes.extend(WITH_PATH_PARAMETERS)
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            codes.extend(FOR_WRITES)
        return codes

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code, response in error_responses(*self.standard_error_codes()).items():
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(
                    response, str(code), direction=direction
                )
        return dict(sorted(responses.items()))

    def map_parsers(self) -> list[Any]:
        """JSON is the documented body wherever a view reads it. The form parsers stay (the
        browsable API, scripts posting forms read the same), but a nested body has no one form
        spelling to document."""
        media_types: list[Any] = super().map_parsers()
        return ["application/json"] if "application/json" in media_types else media_types

    def _map_serializer_field(self, field: Any, direction: Any, *args: Any, **kwargs: Any) -> Any:
        """A text field checked by a validator with a documented pattern (accounts' name
        validator: which characters a name refuses) says so."""
        schema = super()._map_serializer_field(field, direction, *args, **kwargs)
        if schema.get("type") == "string":
            for validator, pattern in VALIDATOR_PATTERNS.items():
                if validator in getattr(field, "validators", ()):
                    schema["pattern"] = pattern()
        return schema

    def _get_parameters(self) -> list[dict[str, Any]]:
        """A query parameter's text is bounded as config.middleware bounds it."""
        parameters: list[dict[str, Any]] = super()._get_parameters()
        for parameter in parameters:
            if parameter.get("in") != "query":
                continue
            schema = parameter.get("schema", {})
            for text in (schema, schema.get("items", {})):
                if text.get("type") == "string" and "enum" not in text:
                    text.setdefault("maxLength", MAX_QUERY_VALUE)
        return parameters

    def _resolve_path_parameters(self, variables: Any) -> list[dict[str, Any]]:
        """A path parameter says what the URL takes: an id routed as digits (a viewset's
        ``lookup_value_regex``) is an integer, a slug has the slug converter's pattern."""
        parameters: list[dict[str, Any]] = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            schema = parameter["schema"]
            if schema.get("type") == "string" and schema.get("pattern") == r"^\d+$":
                parameter["schema"] = {"type": "integer", "minimum": 0}
            elif schema.get("type") == "string" and f"<slug:{parameter['name']}>" in (
                self.path_regex
            ):
                schema["pattern"] = f"^{_SLUG}$"
        return parameters


@functools.cache
def paginated(serializer_class: type[serializers.Serializer]) -> Any:
    """The page a view that paginates by hand answers (config.pagination.Pagination): `count`,
    `next`, `previous` and the page's `results`."""
    name = serializer_class.__name__.removesuffix("Serializer").removesuffix("Output")
    return inline_serializer(
        name=f"Paginated{name}List",
        fields={
            "count": serializers.IntegerField(),
            "next": serializers.CharField(allow_null=True),
            "previous": serializers.CharField(allow_null=True),
            "results": serializer_class(many=True),
        },
    )
