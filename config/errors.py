"""Domain errors raised by services, mapped to HTTP by config.api and to form errors by pages.

A service raises ServiceError for bad input or a wrong state (400, naming the field when there
is one), and Forbidden when the user may not do this (403). Views never decide these.
"""

from __future__ import annotations


class ServiceError(Exception):
    """The request cannot be carried out as asked; nothing was saved."""

    status_code = 400

    def __init__(self, message: str, *, field: str | None = None, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = {"detail": self.message, "code": self.code}
        if self.field:
            body["field"] = self.field
            # A field named like one of the body's own keys (a check-in `code`) keeps those.
            body.setdefault(self.field, [self.message])
        return body


class Conflict(ServiceError):
    """The object changed state under the caller (someone else acted first)."""

    status_code = 409


class Forbidden(ServiceError):
    """The user is known but may not do this."""

    status_code = 403

    def __init__(
        self, message: str = "You do not have permission to do this.", **kwargs: object
    ) -> None:
        super().__init__(message, code="forbidden", **kwargs)  # type: ignore[arg-type]


class NotFound(ServiceError):
    status_code = 404
