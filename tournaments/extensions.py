"""What the apps above tournaments plug into: tournaments runs registration and check-in but
does not own decklists or notifications, and never imports the apps that do.

- ``Decklists``: the app that owns decklists (decks) provides one, in its AppConfig.ready(),
  through ``provide_decklists``. Check-in asks it whether a player's list is legal (for events
  with ``require_legal_decklist``); the roster import asks it to read and to save a row's list.
- ``RoundsPages``: the app that runs the rounds (matches) provides one in its ready(), through
  ``provide_rounds_pages``: the event page's rounds section and the dashboard's round panel.
- ``player_dropped(registration)``: a Django signal sent inside the transaction that dropped
  the player, after the drop is audited, so a receiver's writes (notifications queues the
  player's message) commit or roll back with the drop.
- ``provide_dashboard_section(section)``: an app above adds a section (HTML) to the organiser
  dashboard and the round control (weekends: one entry per deck, "new side event like this one").
- ``OrganisationRoles``: the app that owns organisations provides one, through
  ``provide_organisation_roles``: a person's roles at the events of an organisation. It is
  defined in ``tournaments.organisation_roles``, below the models that read it, and
  re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal
from django.http import HttpRequest

from engine.games import DeckEvaluation
from tournaments.models import Registration, Tournament
from tournaments.organisation_roles import OrganisationRoles as OrganisationRoles
from tournaments.organisation_roles import organisation_roles as organisation_roles
from tournaments.organisation_roles import (
    provide_organisation_roles as provide_organisation_roles,
)

player_dropped = Signal()


class Decklists(Protocol):
    def has_legal_decklist(self, registration: Registration) -> bool:
        """Whether the registration's active list is legal."""
        ...

    def evaluate(self, tournament: Tournament, source: str) -> DeckEvaluation:
        """A list read and validated as a submission to the event would be; saves nothing."""
        ...

    def submit(self, *, actor: Any, registration: Registration, source: str) -> bool:
        """Save the list as the registration's new version; whether it is legal. Raises the
        ServiceError a player's own submission would."""
        ...


_decklists: Decklists | None = None


def provide_decklists(provider: Decklists) -> None:
    global _decklists
    _decklists = provider


def decklists() -> Decklists:
    if _decklists is None:
        raise ImproperlyConfigured("No app provides decklists (decks.apps.DecksConfig.ready).")
    return _decklists


class RoundsPages(Protocol):
    def rounds_section(
        self, request: HttpRequest, event: Tournament, registered: int
    ) -> dict[str, Any]:
        """The event page's rounds section (its template context)."""
        ...

    def rounds_timer(self, event: Tournament, current_round: Any) -> dict[str, Any] | None:
        """The rounds section's ``timer`` for its ``current_round`` now (what
        `rounds_section` gives at this moment for the same round)."""
        ...

    def dashboard_panel(self, request: HttpRequest, event: Tournament) -> dict[str, Any]:
        """The organiser dashboard's round panel (its template context)."""
        ...


_rounds_pages: RoundsPages | None = None


def provide_rounds_pages(provider: RoundsPages) -> None:
    global _rounds_pages
    _rounds_pages = provider


def rounds_pages() -> RoundsPages:
    if _rounds_pages is None:
        raise ImproperlyConfigured("No app provides the rounds pages (matches.apps.MatchesConfig).")
    return _rounds_pages


# Sections an app above adds to the organiser dashboard (and the round control) of an event:
# each is called with the request and the event and returns HTML ("" for nothing), such as the
# weekends app's warnings (one entry per deck) and its "new side event like this one" button.
DashboardSection = Callable[[HttpRequest, Tournament], str]
_dashboard_sections: list[DashboardSection] = []


def provide_dashboard_section(section: DashboardSection) -> None:
    if section not in _dashboard_sections:
        _dashboard_sections.append(section)


def dashboard_sections(request: HttpRequest, event: Tournament) -> list[str]:
    """The HTML of every provided section for this event, empty ones left out."""
    return [html for section in _dashboard_sections if (html := section(request, event))]


RegistrationCheck = Callable[[Tournament, Any], None]
_registration_checks: list[RegistrationCheck] = []


def provide_registration_check(check: RegistrationCheck) -> None:
    if check not in _registration_checks:
        _registration_checks.append(check)


def registration_checks() -> tuple[RegistrationCheck, ...]:
    return tuple(_registration_checks)
