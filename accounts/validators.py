"""Django's side of accounts.names: a form and serializer validator, and the services' check."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from accounts import names
from config.errors import ServiceError


def _message(codes: list[str]) -> str:
    return _(
        "remove the control or invisible characters (%(codes)s): a name is one line of "
        "visible text."
    ) % {"codes": names.describe(codes)}


def _blank_message() -> str:
    return _("write a name that can be seen: this one looks blank.")


def validate_name(value: str) -> None:
    """For form and serializer fields (DRF turns it into a 400 naming the field)."""
    codes = names.unsafe_characters(value or "")
    if codes:
        raise ValidationError(_message(codes), code="unsafe_characters")
    if names.looks_blank(value or ""):
        raise ValidationError(_blank_message(), code="blank_looking")


def check_name(field: str, value: str) -> None:
    """For services: a ServiceError (400) naming the field."""
    codes = names.unsafe_characters(value or "")
    if codes:
        raise ServiceError(f"{field}: {_message(codes)}", field=field, code="unsafe_characters")
    if names.looks_blank(value or ""):
        raise ServiceError(f"{field}: {_blank_message()}", field=field, code="blank_looking")
