"""Who may do what to an event. Services call these; views never decide on their own."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from config.errors import Forbidden
from tournaments.models import Registration, Tournament


def is_authenticated(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def can_create_events(user: Any) -> bool:
    return is_authenticated(user) and (user.is_organiser or user.is_superuser)


def is_organiser_of(user: Any, tournament: Tournament) -> bool:
    if not is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def is_judge_of(user: Any, tournament: Tournament) -> bool:
    return is_authenticated(user) and tournament.judges.filter(pk=user.pk).exists()


def is_staff_of(user: Any, tournament: Tournament) -> bool:
    """Organisers and judges: the people who may see every player's details."""
    return is_organiser_of(user, tournament) or is_judge_of(user, tournament)


def require_organiser(user: Any, tournament: Tournament) -> None:
    if not is_organiser_of(user, tournament):
        raise Forbidden(_("Only this event's organisers may do this."))


def require_staff(user: Any, tournament: Tournament) -> None:
    if not is_staff_of(user, tournament):
        raise Forbidden(_("Only this event's organisers and judges may do this."))


def is_own_registration(user: Any, registration: Registration) -> bool:
    return is_authenticated(user) and registration.player_id == user.pk


def can_view_registration(user: Any, registration: Registration) -> bool:
    return is_own_registration(user, registration) or is_staff_of(user, registration.tournament)
