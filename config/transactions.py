"""`transaction.atomic` as a typed decorator for the services (Django ships no types here,
so the bare decorator would make every service untyped under mypy --strict)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import transaction

_P = ParamSpec("_P")
_R = TypeVar("_R")


def atomic(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run the service in one transaction: all of its writes land, or none do."""
    wrapped: Callable[_P, _R] = transaction.atomic(func)
    return wrapped
