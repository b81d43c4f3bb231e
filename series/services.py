"""The only writers of series: creating one, adding an event, and refreshing the stored
leaderboard after a change of any of its events' results (with the change in the events' audit
trails).

Locks (config/locks.py): a refresh locks the series row alone; closing locks the events it
invites into (id order), then the series, then the registrations it writes; adding an event
relies on the one-series-per-event unique constraint, so two organisers adding one event to two
series at once make one 400, not two memberships.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.validators import check_name
from config.errors import Conflict, Forbidden, ServiceError
from config.locks import for_update
from config.outbox import send_after_commit
from config.transactions import atomic
from organisations.models import Organisation
from organisations.services import may_organise
from series import permissions
from series.models import Series, SeriesCounting, SeriesEvent, SeriesQualification
from series.selectors import current_leaderboard
from tournaments import series as series_core
from tournaments.audit import audit
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.permissions import is_organiser_of
from tournaments.status import EventStatus

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
    organisation: Organisation | None = None,
) -> Series:
    if not permissions.can_create_series(actor):
        raise Forbidden(_("Only organisers may create series."))
    if organisation is not None and not may_organise(actor, organisation):
        raise Forbidden(_("Only an organisation's owners and organisers may add a series to it."))
    check_name("name", name)
    if counting not in SeriesCounting.values:
        raise ServiceError(_("counting: placings or matches."), field="counting")
    series = Series.objects.create(
        name=name,
        slug=_unique_slug(name),
        counting=counting,
        points=checked_points(counting, points),
        description=description,
        organisation=organisation,
        created_by=actor,
    )
    series.organisers.add(actor)
    return series


def series_add_event(*, actor: Any, series: Series, event: Tournament) -> SeriesEvent:
    """Add an event (an organiser of both). The event's audit trail records it; its placings
    count from the next refresh, which runs after commit."""
    if not (permissions.is_organiser_of_series(actor, series) and is_organiser_of(actor, event)):
        raise Forbidden(_("Only an organiser of both the series and the event may add it."))
    _require_open(series)
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


# Events that may still take invitations: not started, not over.
INVITABLE = (
    EventStatus.DRAFT,
    EventStatus.REGISTRATION_OPEN,
    EventStatus.REGISTRATION_CLOSED,
)
MAX_INVITES = 1024
MAX_BYE_ROUND = 30


def _require_series_organiser(actor: Any, series: Series) -> None:
    if not permissions.is_organiser_of_series(actor, series):
        raise Forbidden(_("Only the series' organisers may do this."))


def _require_open(series: Series) -> None:
    if series.closed_at is not None:
        raise Conflict(_("status: this series is closed."), field="status", code="closed")


def _count(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(
            _("%(field)s: a whole number from %(low)d to %(high)d.")
            % {"field": field, "low": low, "high": high},
            field=field,
        )
    return value


@atomic
def qualification_add(
    *,
    actor: Any,
    series: Series,
    event: Tournament,
    invite_top: Any,
    bye_top: Any = 0,
    bye_rounds: Any = (),
) -> SeriesQualification:
    """The rule "the top ``invite_top`` get an invite to ``event``; the top ``bye_top`` also get byes
    in ``bye_rounds``": applied when the series closes (an organiser of both)."""
    _require_series_organiser(actor, series)
    if not is_organiser_of(actor, event):
        raise Forbidden(_("Only an organiser of the event may invite players into it."))
    _require_open(series)
    if event.status not in INVITABLE:
        raise ServiceError(
            _("event: %(name)s has started or is over; it takes no invitations.")
            % {"name": event.name},
            field="event",
        )
    invite_top = _count(invite_top, "invite_top", 1, MAX_INVITES)
    bye_top = _count(bye_top, "bye_top", 0, invite_top)
    if not isinstance(bye_rounds, list | tuple):
        raise ServiceError(_("bye_rounds: a list of round numbers."), field="bye_rounds")
    rounds = sorted({_count(r, "bye_rounds", 1, MAX_BYE_ROUND) for r in bye_rounds})
    if bye_top and not rounds:
        raise ServiceError(_("bye_rounds: name the rounds of the byes."), field="bye_rounds")
    if rounds and not bye_top:
        raise ServiceError(_("bye_top: say how many players get the byes."), field="bye_top")
    if SeriesQualification.objects.filter(series=series, event=event).exists():
        raise ServiceError(
            _("event: this series already has a qualification into this event."), field="event"
        )
    try:
        with transaction.atomic():
            return SeriesQualification.objects.create(
                series=series,
                event=event,
                invite_top=invite_top,
                bye_top=bye_top,
                bye_rounds=rounds,
                created_by=actor,
            )
    except IntegrityError:
        raise ServiceError(
            _("event: this series already has a qualification into this event."), field="event"
        ) from None


def close_consequences(series: Series) -> str:
    rules = list(series.qualifications.select_related("event"))
    if not rules:
        return _("Closing freezes the leaderboard; no qualification is set.")
    return _("Closing freezes the leaderboard and invites: %(rules)s. This cannot be undone.") % {
        "rules": "; ".join(
            _("top %(n)d to %(event)s") % {"n": rule.invite_top, "event": rule.event.name}
            for rule in rules
        )
    }


@dataclass(frozen=True)
class Invitation:
    event: str
    player_id: str
    rank: int
    registration: int
    bye_rounds: tuple[int, ...]


def series_close(*, actor: Any, series: Series, confirm: bool = False) -> list[Invitation]:
    """Close the series: the leaderboard as it stands decides every qualification. Each
    qualified player with an account is registered in the rule's event (an existing
    registration is kept, and its byes widened), with the invitation on the registration and
    an audit entry in that event; players tied at the line all qualify. Cannot be undone:
    ``confirm`` is required."""
    _require_series_organiser(actor, series)
    if not confirm:
        raise ServiceError(
            _("confirm: %(what)s Confirm to go on.") % {"what": close_consequences(series)},
            field="confirm",
            code="confirmation_required",
        )
    with transaction.atomic():
        rules = list(series.qualifications.order_by("event_id"))
        events = {
            e.pk: e
            for e in for_update(Tournament.objects)
            .filter(pk__in=[r.event_id for r in rules])
            .order_by("pk")
        }
        series = for_update(Series.objects).get(pk=series.pk)
        _require_open(series)
        rows = current_leaderboard(series)
        done: list[Invitation] = []
        for rule in rules:
            event = events[rule.event_id]
            if event.status not in INVITABLE:
                raise Conflict(
                    _("event: %(name)s has started or is over; it takes no invitations.")
                    % {"name": event.name},
                    field="event",
                )
            done.extend(_invite(actor, series, rule, event, rows))
            rule.applied_at = timezone.now()
            rule.save(update_fields=["applied_at"])
        series.closed_at = timezone.now()
        series.leaderboard = rows
        series.save(update_fields=["closed_at", "leaderboard"])
    return done


def _invite(
    actor: Any,
    series: Series,
    rule: SeriesQualification,
    event: Tournament,
    rows: list[dict[str, Any]],
) -> list[Invitation]:
    qualified = [row for row in rows if row["rank"] <= rule.invite_top]
    users = {
        u.player_id: u
        for u in User.objects.filter(player_id__in=[row["player_id"] for row in qualified])
    }
    existing = {
        r.player_id: r
        for r in for_update(Registration.objects)
        .filter(tournament=event, player__in=list(users.values()))
        .order_by("pk")
    }
    out: list[Invitation] = []
    for row in qualified:
        user = users.get(row["player_id"])
        if user is None:
            continue  # a walk-in without an account cannot be registered
        byes = list(rule.bye_rounds) if row["rank"] <= rule.bye_top else []
        note = _("Invited: rank %(rank)d of %(series)s (top %(n)d).") % {
            "rank": row["rank"],
            "series": series.name,
            "n": rule.invite_top,
        }
        registration = existing.get(user.pk)
        before = None
        if registration is None:
            registration = Registration.objects.create(
                tournament=event,
                player=user,
                status=RegistrationStatus.REGISTERED,
                bye_rounds=byes,
                invitation=note,
            )
        else:
            before = {
                "status": registration.status,
                "bye_rounds": registration.bye_rounds,
                "invitation": registration.invitation,
            }
            registration.status = RegistrationStatus.REGISTERED
            registration.bye_rounds = sorted(set(registration.bye_rounds or ()) | set(byes))
            registration.invitation = note
            registration.queued_at = None
            registration.save(
                update_fields=["status", "bye_rounds", "invitation", "queued_at", "updated_at"]
            )
        audit(
            tournament=event,
            actor=actor,
            action="registration.invited",
            target=series,
            registration=registration,
            series=series.slug,
            rank=row["rank"],
            points=row["points"],
            bye_rounds=registration.bye_rounds,
            before=before,
        )
        out.append(
            Invitation(
                event.slug,
                row["player_id"],
                row["rank"],
                registration.pk,
                tuple(registration.bye_rounds),
            )
        )
    return out
