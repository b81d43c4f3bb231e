"""Publishing the top decklists of a finished event in one action (issue 21): the lists of
places 1 to N of its final placings, through the decks app's per-list publication."""

from __future__ import annotations

from typing import Any, Final

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from decks.services import decklists_publish_some
from matches.placings import entrant_key, event_placings
from matches.services.locks import _lock_event
from tournaments import permissions
from tournaments.models import TeamMember, Tournament
from tournaments.status import EventStatus

DEFAULT_TOP: Final = 8
MAX_TOP: Final = 256


def top_decklists_publish(
    *, actor: Any, tournament: Tournament, top: int = DEFAULT_TOP
) -> dict[str, Any]:
    """Publish the decklists of places 1 to ``top`` of a finished event's final placings.

    Organisers only; ``400`` naming ``top`` outside 1 to 256, naming ``status`` before the
    event has finished; ``409`` while the placings are not final. Lists already public stay
    so; players without a list are named in ``without_list``. Audited by the decks app
    (``decklists.published_some`` with ``top`` and the places)."""
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP:
        raise ServiceError(_("top: from 1 to %(max)d.") % {"max": MAX_TOP}, field="top")
    with transaction.atomic():
        tournament = _lock_event(tournament)
        permissions.require_organiser(actor, tournament)
        if tournament.status != EventStatus.FINISHED:
            raise ServiceError(
                _("status: the top decklists are published once the event has finished."),
                field="status",
            )
        placings = event_placings(tournament)
        if not placings.final:
            raise Conflict(
                _("status: the placings are not final yet."),
                field="status",
                code="placings_not_final",
            )
        rows = placings.rows[:top]
        if not rows:
            raise ServiceError(_("top: nobody has a place in this event."), field="top")
        places = {row.entrant: row.place for row in rows}
        if entrant_key(tournament) == "team":
            # A team event places teams: their members' lists, at the team's place.
            places = {
                registration: places[team]
                for registration, team in TeamMember.objects.filter(
                    team_id__in=list(places)
                ).values_list("registration_id", "team_id")
            }
        result = decklists_publish_some(
            actor=actor,
            tournament=tournament,
            registrations=sorted(places, key=lambda r: (places[r], r)),
            top=top,
            places={str(r): place for r, place in places.items()},
        )
    return {"top": top, **result}
