"""Template filters for a match's judge calls."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

register = template.Library()


@register.filter
def first_open(calls: Iterable[Any]) -> Any:
    """The match's unresolved call, if any (a match has at most one: a database constraint)."""
    return next((call for call in calls if call.is_open), None)
