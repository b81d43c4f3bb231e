"""Who may do what with a series: anyone reads; organisers create; a series' organisers add
their events to it."""

from __future__ import annotations

from typing import Any

from organisations.services import may_organise
from series.models import Series
from tournaments.permissions import can_create_events, is_authenticated


def can_create_series(user: Any) -> bool:
    return can_create_events(user)


def is_organiser_of_series(user: Any, series: Series) -> bool:
    if not is_authenticated(user):
        return False
    if user.is_superuser or series.organisers.filter(pk=user.pk).exists():
        return True
    return series.organisation is not None and may_organise(user, series.organisation)
