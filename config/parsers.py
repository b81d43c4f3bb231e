"""The API's JSON parser: bounded in size and nesting, so a hostile body is a 400, never a 500.

DRF reads a JSON body straight from the request stream, so Django's
DATA_UPLOAD_MAX_MEMORY_SIZE does not apply to it: this parser reads at most MAX_JSON_BYTES
(the largest body the API takes is a game record of a megabyte, escaped inside JSON) and
refuses objects and arrays nested deeper than MAX_JSON_DEPTH (the deepest real body, a game
record, is a handful of levels; 100,000 levels made the decoder raise RecursionError).
Every refusal is a ServiceError naming the field `body`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.parsers import JSONParser

from config.errors import ServiceError

MAX_JSON_BYTES = 4 * 1024 * 1024
MAX_JSON_DEPTH = 32


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether arrays and objects in ``value`` nest deeper than ``limit`` (without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


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
        too_deep = ServiceError(
            f"body: JSON nested more than {self.max_depth} levels deep.",
            field="body",
            code="too_deep",
        )
        try:
            data = json.loads(text, parse_constant=_strict_constant if self.strict else None)
        except RecursionError:
            raise too_deep from None
        except ValueError as exc:
            raise ServiceError(f"body: JSON parse error - {exc}", field="body") from None
        if json_depth_exceeds(data, self.max_depth):
            raise too_deep
        return data
