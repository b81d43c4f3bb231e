"""Serializer fields shared by the apps' input serializers."""

from __future__ import annotations

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
