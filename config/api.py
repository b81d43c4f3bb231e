"""One mapper from domain errors to HTTP responses, and the API's shared permission classes."""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.errors import ServiceError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            return Response(exc.message_dict, status=status.HTTP_400_BAD_REQUEST)
        return Response(_non_field_errors(exc.messages), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if isinstance(exc, exceptions.Throttled) and response is not None:
        # 429 with Retry-After (DRF), and the wait in the body as well.
        response.data = {
            "detail": str(exc.detail),
            "code": "throttled",
            "retry_after": None if exc.wait is None else math.ceil(exc.wait),
        }
    if response is not None and isinstance(response.data, list):
        # A validation error about the whole body: an object like every other error body.
        response.data = _non_field_errors([str(message) for message in response.data])
    return response


def _non_field_errors(messages: list[str]) -> dict[str, Any]:
    return {"detail": " ".join(messages), "code": "invalid", "non_field_errors": messages}


def validated(serializer_class: Any, data: Any, *, partial: bool = False) -> dict[str, Any]:
    """Validate a request body with an input serializer; a non-object body is a 400 too."""
    if not hasattr(data, "get"):
        raise ServiceError("The request body must be a JSON object.", field="body")
    serializer = serializer_class(data=data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
