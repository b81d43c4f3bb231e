"""The organisations' roles at events: the one extension point the event model itself reads.

``Tournament.objects.visible_to`` shows an event's drafts to the staff of its organisation, so
the models need the provider; it lives here, below the models (it names no model), and
``tournaments.extensions`` re-exports it with the other extension points. The app that owns
organisations (organisations) provides it in its AppConfig.ready(), through
``provide_organisation_roles``.
"""

from __future__ import annotations

from typing import Any, Protocol


class OrganisationRoles(Protocol):
    def roles(self, user: Any, organisation_id: int) -> frozenset[str]:
        """The person's roles in the organisation: some of "organiser", "judge",
        "scorekeeper" (an owner is an organiser)."""
        ...

    def staffed_organisations(self, user: Any) -> Any:
        """A queryset of the ids of the organisations where the person has any role."""
        ...


_organisation_roles: OrganisationRoles | None = None


def provide_organisation_roles(provider: OrganisationRoles) -> None:
    global _organisation_roles
    _organisation_roles = provider


def organisation_roles() -> OrganisationRoles | None:
    """None when no app provides organisations: events then have event staff only."""
    return _organisation_roles
