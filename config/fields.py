"""Serializer fields shared by the apps' input serializers."""

from __future__ import annotations

import math

from rest_framework import serializers
from rest_framework.fields import empty


class BooleanField(serializers.BooleanField):
    """A boolean that a form (multipart or urlencoded) request must send like a JSON one.

    DRF reads a boolean that has no default and is missing from form data as False (an
    unticked HTML checkbox): a form request without ``open`` closed player check-in, and a new
    event sent as a form without ``require_legal_decklist`` stopped requiring legal lists.
    Here a missing field is missing, as in JSON: its default when it has one, left out when it
    is optional, else a 400 naming it."""

    default_empty_html = empty


class FiniteFloatField(serializers.FloatField):
    """A float that is a real number: "1e400" (infinity once read) and "nan" are a 400 naming
    the field, not a value the database or the JSON answer cannot hold."""

    default_error_messages = {"not_finite": "A finite number is required."}

    def to_internal_value(self, data: object) -> float:
        value = super().to_internal_value(data)
        if not math.isfinite(value):
            self.fail("not_finite")
        return value


class TextField(serializers.CharField):
    """Text that must be sent as text: DRF's CharField turns a number into its digits, so
    ``{"note": -1367330}`` would be saved as a note; here it is a 400 naming the field, as the
    schema's ``string`` says."""

    default_error_messages = {"not_text": "Not text: send a string."}

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("not_text")
        return str(super().to_internal_value(data))
