"""The only writers of series: creating one, adding an event, and refreshing the stored
leaderboard after a change of any of its events' results (with the change in the events' audit
trails).

Locks: a refresh locks the series row alone (config/locks.py: no other lock in its
transaction); adding an event relies on the one-series-per-event unique constraint, so two
organisers adding one event to two series at once make one 400, not two memberships.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.validators import check_name
from config.errors import Forbidden, ServiceError
from config.locks import for_update
from config.outbox import send_after_commit
from config.transactions import atomic
from series import permissions
from series.models import Series, SeriesCounting, SeriesEvent
from series.selectors import current_leaderboard
from tournaments import series as series_core
from tournaments.audit import audit
from tournaments.models import Tournament
from tournaments.permissions import is_organiser_of

# Sent by name: series.tasks imports this module.
REFRESH_TASK = "series.refresh"


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "series"
    slug = base
    while Series.objects.filter(slug=slug).exists():
        slug = f"{base}-{secrets.token_hex(3)}"
    return slug


def checked_points(counting: str, points: Any) -> dict[str, int]:
    """The points table in its stored form; a SeriesError becomes a 400 naming its key."""
    try:
        if counting == SeriesCounting.MATCHES:
            return series_core.parse_league_table(points, "points").to_json()
        return series_core.parse_points_table(points, "points").to_json()
    except series_core.SeriesError as exc:
        raise ServiceError(str(exc), field=exc.field) from None


@atomic
def series_create(
    *,
    actor: Any,
    name: str,
    points: Any,
    counting: str = SeriesCounting.PLACINGS,
    description: str = "",
) -> Series:
    if not permissions.can_create_series(actor):
        raise Forbidden(_("Only organisers may create series."))
    check_name("name", name)
    if counting not in SeriesCounting.values:
        raise ServiceError(_("counting: placings or matches."), field="counting")
    series = Series.objects.create(
        name=name,
        slug=_unique_slug(name),
        counting=counting,
        points=checked_points(counting, points),
        description=description,
        created_by=actor,
    )
    series.organisers.add(actor)
    return series


def series_add_event(*, actor: Any, series: Series, event: Tournament) -> SeriesEvent:
    """Add an event (an organiser of both). The event's audit trail records it; its placings
    count from the next refresh, which runs after commit."""
    if not (permissions.is_organiser_of_series(actor, series) and is_organiser_of(actor, event)):
        raise Forbidden(_("Only an organiser of both the series and the event may add it."))
    existing = SeriesEvent.objects.filter(event=event).select_related("series").first()
    if existing is not None:
        if existing.series_id == series.pk:
            return existing
        raise ServiceError(
            _("event: this event already belongs to the series %(name)s.")
            % {"name": existing.series.name},
            field="event",
        )
    try:
        with transaction.atomic():
            entry = SeriesEvent.objects.create(series=series, event=event, added_by=actor)
            audit(
                tournament=event,
                actor=actor,
                action="series.event_added",
                target=series,
                series=series.slug,
            )
            send_after_commit(REFRESH_TASK, series.pk)
    except IntegrityError:
        raise ServiceError(
            _("event: this event already belongs to a series."), field="event"
        ) from None
    return entry


def _by_player(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["player_id"]: row for row in rows}


@atomic
def refresh(*, series_id: int) -> bool:
    """Store the series' current leaderboard; when it differs from the stored one, record
    what changed in the audit trail of each event whose placings moved a player's points.
    Whether anything changed. Idempotent: a second run finds nothing to record."""
    series = for_update(Series.objects).filter(pk=series_id).first()
    if series is None:
        return False
    rows = current_leaderboard(series)
    if rows == series.leaderboard:
        return False
    before, after = _by_player(series.leaderboard), _by_player(rows)
    changes: dict[str, list[dict[str, Any]]] = {}
    for player_id in sorted(set(before) | set(after)):
        old = {r["event"]: r for r in before.get(player_id, {}).get("results", [])}
        new = {r["event"]: r for r in after.get(player_id, {}).get("results", [])}
        for event_slug in sorted(set(old) | set(new)):
            if old.get(event_slug) != new.get(event_slug):
                changes.setdefault(event_slug, []).append(
                    {
                        "player_id": player_id,
                        "before": old.get(event_slug),
                        "after": new.get(event_slug),
                        "total_before": before.get(player_id, {}).get("points", 0),
                        "total_after": after.get(player_id, {}).get("points", 0),
                    }
                )
    events = {
        e.slug: e
        for e in Tournament.objects.filter(slug__in=list(changes), series_entry__series=series)
    }
    for event_slug, moved in changes.items():
        event = events.get(event_slug)
        if event is not None:
            audit(
                tournament=event,
                actor=None,
                action="series.leaderboard_changed",
                target=series,
                series=series.slug,
                players=moved[:200],
                players_moved=len(moved),
            )
    series.leaderboard = rows
    series.refreshed_at = timezone.now()
    series.save(update_fields=["leaderboard", "refreshed_at"])
    return True


def refresh_later(event_id: int) -> None:
    """After the caller's commit, refresh the series this event belongs to (if any)."""
    series_id = (
        SeriesEvent.objects.filter(event_id=event_id).values_list("series_id", flat=True).first()
    )
    if series_id is not None:
        send_after_commit(REFRESH_TASK, series_id)
