"""The event's audit trail: every change to an event appends one AuditEntry, whoever made it
(a service of any app, the Django admin, an account's erasure).

``audit()`` is the one writer of AuditEntry rows; apps above tournaments call it from their
services. An audited change also marks the event's shared page copies (config.shared_copies,
kind ``EVENT_COPIES``) as changed, so the organiser's dashboard never serves a copy older than
the trail.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from config import shared_copies
from tournaments import permissions
from tournaments.models import AuditEntry, Registration, Tournament

# The kind of shared page copy (config.shared_copies) that follows every audited change of
# an event (the organiser dashboard's player list).
EVENT_COPIES = "event"


def audit(
    *,
    tournament: Tournament | None,
    actor: Any,
    action: str,
    target: Any = None,
    registration: Registration | None = None,
    **data: Any,
) -> AuditEntry:
    target_label = f"{target._meta.model_name}:{target.pk}" if target is not None else ""
    if tournament is not None:
        # Every change to an event is audited: the event's shared page copies follow it.
        shared_copies.changed(
            EVENT_COPIES, tournament.pk, actor.pk if permissions.is_authenticated(actor) else None
        )
    entry: AuditEntry = AuditEntry.objects.create(
        tournament=tournament,
        event_slug=tournament.slug if tournament is not None else "",
        registration=registration,
        actor=actor if permissions.is_authenticated(actor) else None,
        action=action,
        target=target_label,
        data=_jsonable(data),
    )
    return entry


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, datetime):
            out[key] = value.isoformat()
        elif isinstance(value, dict):
            out[key] = _jsonable(value)
        else:
            out[key] = value
    return out


def audit_account_erased(*, user: Any, erased_by: Any, at: datetime, **_: Any) -> None:
    """accounts.signals.account_erased: the erasure goes into the trail of every event the
    person played in (accounts sits below tournaments and cannot write the trail itself)."""
    for event in Tournament.objects.filter(registrations__player=user).distinct():
        audit(tournament=event, actor=erased_by, action="account.erased", target=user, at=at)
