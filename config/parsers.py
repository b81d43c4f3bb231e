"""The API's JSON parser: bounded in size and nesting, so a hostile body is a 400, never a 500.

DRF reads a JSON body straight from the request stream, so Django's
DATA_UPLOAD_MAX_MEMORY_SIZE does not apply to it: this parser reads at most MAX_JSON_BYTES
(the largest body the API takes is a game record of a megabyte, escaped inside JSON) and
refuses numbers too large for a float (`1e400`, read as infinity),
objects and arrays nested deeper than MAX_JSON_DEPTH (the deepest real body, a game
record, is a handful of levels; 100,000 levels made the decoder raise RecursionError) and NUL
characters in strings and keys (PostgreSQL stores neither in text nor in jsonb). Every refusal
is a ServiceError (400) naming the field: `body`, or the top-level key the problem is under.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.parsers import JSONParser

from config.errors import ServiceError
from engine import errors

MAX_JSON_BYTES = 4 * 1024 * 1024
MAX_JSON_DEPTH = 32


def json_problem(value: Any, max_depth: int) -> tuple[str, str] | None:
    """(code, field) of the first problem in parsed JSON (engine.errors.json_problem, finite
    floats too): the field is the top-level key the problem is under (``body`` for the body
    itself)."""
    problem = errors.json_problem(value, max_depth, finite_floats=True)
    if problem is None:
        return None
    code, path = problem
    top = path.split(".", 1)[0].split("[", 1)[0] if isinstance(value, dict) else ""
    return code, (top[:60] or "body")


def _strict_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


class BoundedJSONParser(JSONParser):
    """JSONParser with a size and a depth bound; malformed JSON names the body too."""

    max_bytes = MAX_JSON_BYTES
    max_depth = MAX_JSON_DEPTH

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read(self.max_bytes + 1) if stream is not None else b""
        if len(raw) > self.max_bytes:
            raise ServiceError(
                f"body: a JSON body is at most {self.max_bytes // 1024 // 1024} MB.",
                field="body",
                code="too_large",
            )
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise ServiceError(f"body: not valid {encoding} text.", field="body") from None
        try:
            data = json.loads(text, parse_constant=_strict_constant if self.strict else None)
        except RecursionError:
            data, problem = None, ("too_deep", "body")
        except ValueError as exc:
            raise ServiceError(f"body: JSON parse error - {exc}", field="body") from None
        else:
            problem = json_problem(data, self.max_depth)
        if problem is None:
            return data
        code, field = problem
        if code == "nul":
            message = f"{field}: NUL characters are not allowed."
        elif code == "out_of_range":
            message = f"{field}: a number too large to be read (at most about 1.8e308)."
        else:
            message = f"{field}: JSON nested more than {self.max_depth} levels deep."
        raise ServiceError(message, field=field, code=code)
