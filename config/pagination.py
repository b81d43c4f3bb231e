"""The API's one pagination: limit/offset with a maximum page size and whole-number checks.

`?limit=` above MAX_PAGE_SIZE is clamped to it (the answer's `next` link goes on from there);
a limit or offset that is not a whole number, a limit below 1, a negative offset or an offset
above MAX_OFFSET is a 400 naming the parameter. Views that paginate by hand use `Pagination`
(or `int_param` for their own numbers), never DRF's unbounded LimitOffsetPagination.
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from config.errors import ServiceError

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 500
MAX_OFFSET = 1_000_000
_WHOLE_NUMBER = re.compile(r"([+-]?)0*([0-9]+)", re.ASCII)


def int_param(
    request: Request,
    name: str,
    default: int | None,
    *,
    minimum: int = 0,
    maximum: int = MAX_OFFSET,
    clamp: bool = False,
) -> int | None:
    """A whole-number query parameter between minimum and maximum (blank: the default).

    Junk or a value out of range is a ServiceError (400) naming the parameter; with
    ``clamp`` a value above the maximum becomes the maximum instead.
    """
    raw = request.query_params.get(name)
    if raw is None or raw.strip() == "":
        return default
    match = _WHOLE_NUMBER.fullmatch(raw.strip())
    if match is None:
        raise ServiceError(f"{name}: must be a whole number.", field=name)
    sign, digits = match.groups()
    # A long run of digits is "very large" without converting it (int() of a huge string is
    # slow, and no column could hold it anyway).
    value = int(digits) if len(digits) <= 18 else 10**18
    if sign == "-":
        value = -value
    if value < minimum:
        raise ServiceError(f"{name}: at least {minimum}.", field=name)
    if value > maximum:
        if clamp:
            return maximum
        raise ServiceError(f"{name}: at most {maximum}.", field=name)
    return value


class Pagination(LimitOffsetPagination):
    """LimitOffsetPagination with a maximum page size and a 400 for junk limits and offsets."""

    default_limit = DEFAULT_PAGE_SIZE
    max_limit = MAX_PAGE_SIZE

    def get_limit(self, request: Request) -> int:
        value = int_param(
            request,
            self.limit_query_param,
            self.default_limit,
            minimum=1,
            maximum=self.max_limit,
            clamp=True,
        )
        assert value is not None
        return value

    def get_offset(self, request: Request) -> int:
        value = int_param(request, self.offset_query_param, 0, minimum=0, maximum=MAX_OFFSET)
        assert value is not None
        return value

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        params = super().get_schema_operation_parameters(view)
        for param in params:
            if param["name"] == self.limit_query_param:
                param["schema"]["minimum"] = 1
                param["description"] = (
                    f"Number of results to return per page (at most {self.max_limit}; "
                    "a larger limit is clamped)."
                )
            elif param["name"] == self.offset_query_param:
                param["schema"]["minimum"] = 0
                param["schema"]["maximum"] = MAX_OFFSET
        return params
