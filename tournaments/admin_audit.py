"""Changes made in the Django admin go into the event's audit trail, like every other change.

The admin logs each addition, change and deletion through these three methods (its own
LogEntry); the mixin adds an AuditEntry for the event the object belongs to, so an event's
trail is complete whoever changed it and however.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from tournaments.audit import audit
from tournaments.models import Registration, Tournament


def event_of(obj: Any) -> Any:
    """The event an object belongs to (itself, or through its registration, round or match),
    or None for site-wide objects."""
    if isinstance(obj, Tournament):
        return obj
    paths = ("tournament", "registration.tournament", "round.tournament", "match.round.tournament")
    for path in paths:
        current = obj
        try:
            for part in path.split("."):
                current = getattr(current, part)
        except (AttributeError, ObjectDoesNotExist):  # an unset relation names nothing
            continue
        if isinstance(current, Tournament):
            return current
    return None


def _record(request: HttpRequest, obj: Model, action: str, message: Any) -> None:
    event = event_of(obj)
    if event is None or event.pk is None:
        return
    registration = obj if isinstance(obj, Registration) else getattr(obj, "registration", None)
    audit(
        tournament=event,
        actor=request.user,
        action=action,
        target=obj,
        registration=registration if isinstance(registration, Registration) else None,
        object=str(obj)[:200],
        message=str(message)[:1000] if message else "",
    )


class AuditedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def log_addition(self, request: HttpRequest, obj: Model, message: Any) -> Any:
        _record(request, obj, "admin.added", message)
        return super().log_addition(request, obj, message)

    def log_change(self, request: HttpRequest, obj: Model, message: Any) -> Any:
        _record(request, obj, "admin.changed", message)
        return super().log_change(request, obj, message)

    def log_deletions(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        for obj in queryset:
            _record(request, obj, "admin.deleted", "")
        return super().log_deletions(request, queryset)
