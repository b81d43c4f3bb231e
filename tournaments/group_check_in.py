"""One check-in across several events (a weekend's badge, issue 22): the player's registrations
in the events named, each checked in by the same rules as the event's own desk, in one
transaction, audited per event.

Locks in the site's order (config/locks.py): the events in id order, then the registrations in
id order. An event whose check-in is not open (its status), where the person at the desk may not
check in, or where the player cannot check in (waitlisted, no legal decklist) is skipped with the
reason; the others are checked in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError
from config.locks import for_update
from config.transactions import atomic
from tournaments import permissions
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.services import check_in_locked, player_id_candidates
from tournaments.status import ON_THE_DAY


@dataclass(frozen=True)
class EventCheckIn:
    """What the check-in did in one event: ``outcome`` is checked_in, already or skipped."""

    event: Tournament
    registration: Registration
    outcome: str
    reason: str = ""
    code: str = ""


def registrations_by_player_code(event_ids: Iterable[int], code: str) -> list[Registration]:
    """The registrations, in these events, of the player a badge code (player id or QR text)
    names; withdrawn and removed ones left out. Empty when the code names nobody."""
    candidates = player_id_candidates(code)
    if not candidates:
        return []
    return list(
        Registration.objects.filter(
            tournament_id__in=list(event_ids),
            player__player_id__in=candidates,
            status__in=(RegistrationStatus.REGISTERED, RegistrationStatus.WAITLISTED),
        ).order_by("id")
    )


@atomic
def check_in_across_events(*, actor: Any, registration_ids: Iterable[int]) -> list[EventCheckIn]:
    """Check these registrations (one player's, in several events) in where each event's
    check-in is open; one transaction, every check-in audited in its own event. Raises
    Forbidden when the actor runs the check-in of none of the events."""
    ids = sorted({int(pk) for pk in registration_ids})
    if not ids:
        raise ServiceError(_("code: no registration to check in."), field="code")
    event_ids = sorted(
        set(Registration.objects.filter(pk__in=ids).values_list("tournament_id", flat=True))
    )
    events = {
        e.pk: e for e in for_update(Tournament.objects.filter(pk__in=event_ids).order_by("id"))
    }
    locked = list(
        for_update(Registration.objects.filter(pk__in=ids)).select_related("player").order_by("id")
    )
    allowed = {pk for pk, event in events.items() if permissions.can_run_check_in(actor, event)}
    if not allowed:
        raise Forbidden(_("Only these events' organisers (and judges, when allowed) check in."))
    done: list[EventCheckIn] = []
    for registration in sorted(locked, key=lambda r: (r.tournament_id, r.pk)):
        event = events[registration.tournament_id]
        registration.tournament = event
        if event.pk not in allowed:
            done.append(
                EventCheckIn(
                    event,
                    registration,
                    "skipped",
                    _("You do not run this event's check-in."),
                    "forbidden",
                )
            )
            continue
        if event.status_enum not in ON_THE_DAY:
            done.append(
                EventCheckIn(
                    event, registration, "skipped", _("Check-in is not open."), "check_in_closed"
                )
            )
            continue
        if registration.checked_in:
            done.append(EventCheckIn(event, registration, "already"))
            continue
        try:
            with transaction.atomic():
                check_in_locked(actor, event, registration, True)
        except ServiceError as exc:
            done.append(
                EventCheckIn(event, registration, "skipped", exc.message, exc.code or "refused")
            )
            continue
        done.append(EventCheckIn(event, registration, "checked_in"))
    return done
