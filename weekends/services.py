"""Use cases for weekends: the only code that writes to weekends' tables.

Keyword-only, one transaction each, audited in every event they touch. Locks, in the site's
order (config/locks.py): the events in id order, then registrations in id order; the weekend's
own row is locked before any of them (it is above every event: adding or removing an event,
launching a side event).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.validators import check_name
from config.errors import Conflict, Forbidden, ServiceError
from config.locks import for_update
from config.transactions import atomic
from decks.models import EventCatalog
from tournaments import permissions
from tournaments import services as event_services
from tournaments import stages as stage_rules
from tournaments.audit import audit
from tournaments.group_check_in import (
    EventCheckIn,
    check_in_across_events,
    registrations_by_player_code,
)
from tournaments.models import Tournament
from weekends.models import Weekend, WeekendEvent, WeekendEventKind

# What a side event launched from a template copies of it (settings, format, structure, venue
# and capacity): everything an organiser edits but the name and the times, which the request
# gives, and the registration window and decklist deadline, which belong to the template's day.
COPIED_FIELDS = tuple(
    field
    for field in event_services.EDITABLE_FIELDS
    if field
    not in (
        "name",
        "starts_at",
        "registration_opens_at",
        "registration_closes_at",
        "decklist_deadline",
        "description",
    )
)


def is_organiser_of_weekend(user: Any, weekend: Weekend) -> bool:
    if not permissions.is_authenticated(user):
        return False
    return bool(user.is_superuser) or weekend.organisers.filter(pk=user.pk).exists()


def require_weekend_organiser(user: Any, weekend: Weekend) -> None:
    if not is_organiser_of_weekend(user, weekend):
        raise Forbidden(_("Only this weekend's organisers may do this."))


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "weekend"
    slug, n = base, 1
    while Weekend.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@atomic
def weekend_create(
    *, actor: Any, name: str, starts_on: date, ends_on: date, venue: str = ""
) -> Weekend:
    if not permissions.can_create_events(actor):
        raise Forbidden(_("Only organisers may create weekends."))
    check_name("name", name)
    if venue:
        check_name("venue", venue)
    if ends_on < starts_on:
        raise ServiceError(_("ends_on: the last day is before the first."), field="ends_on")
    weekend = Weekend.objects.create(
        name=name,
        slug=_unique_slug(name),
        venue=venue,
        starts_on=starts_on,
        ends_on=ends_on,
        created_by=actor,
    )
    weekend.organisers.add(actor)
    return weekend


def _locked_weekend(weekend: Weekend) -> Weekend:
    return for_update(Weekend.objects).get(pk=weekend.pk)


def _event_for_staff_change(actor: Any, weekend: Weekend, tournament: Tournament) -> None:
    require_weekend_organiser(actor, weekend)
    if not permissions.is_organiser_of(actor, tournament):
        raise Forbidden(
            _("event: only the event's organisers may move it into or out of a weekend.")
        )


@atomic
def weekend_add_event(
    *, actor: Any, weekend: Weekend, tournament: Tournament, kind: str = WeekendEventKind.SIDE
) -> WeekendEvent:
    """Put an event into the weekend (organisers of both). An event is in at most one weekend;
    a weekend has at most one main event."""
    weekend = _locked_weekend(weekend)
    _event_for_staff_change(actor, weekend, tournament)
    if kind not in WeekendEventKind.values:
        raise ServiceError(_("kind: one of main, side, lcq."), field="kind")
    tournament = event_services.event_locked(tournament)
    existing = WeekendEvent.objects.filter(tournament=tournament).select_related("weekend").first()
    if existing is not None:
        if existing.weekend_id == weekend.pk:
            raise Conflict(_("event: already in this weekend."), field="event")
        raise Conflict(
            _("event: already in the weekend %(name)s; an event is in one weekend at most.")
            % {"name": existing.weekend.name},
            field="event",
            code="in_another_weekend",
        )
    return _link(actor, weekend, tournament, kind, template=None)


def _link(
    actor: Any,
    weekend: Weekend,
    tournament: Tournament,
    kind: str,
    template: Tournament | None,
) -> WeekendEvent:
    if kind == WeekendEventKind.MAIN and weekend.entries.filter(kind=kind).exists():
        raise Conflict(_("kind: this weekend has a main event already."), field="kind")
    try:
        with transaction.atomic():
            entry = WeekendEvent.objects.create(
                weekend=weekend, tournament=tournament, kind=kind, template=template
            )
    except IntegrityError:
        raise Conflict(_("event: already in a weekend."), field="event") from None
    audit(
        tournament=tournament,
        actor=actor,
        action="weekend.event_added",
        weekend=weekend.slug,
        kind=kind,
        template=template.slug if template is not None else None,
    )
    return entry


@atomic
def weekend_remove_event(*, actor: Any, weekend: Weekend, tournament: Tournament) -> None:
    weekend = _locked_weekend(weekend)
    _event_for_staff_change(actor, weekend, tournament)
    tournament = event_services.event_locked(tournament)
    deleted, _rows = WeekendEvent.objects.filter(weekend=weekend, tournament=tournament).delete()
    if not deleted:
        raise ServiceError(_("event: not an event of this weekend."), field="event")
    audit(tournament=tournament, actor=actor, action="weekend.event_removed", weekend=weekend.slug)


def _audit_weekend(actor: Any, action: str, weekend: Weekend, **data: Any) -> None:
    """A change to the weekend itself: in the audit trail without an event, naming it."""
    audit(tournament=None, actor=actor, action=action, target=weekend, weekend=weekend.slug, **data)


@atomic
def weekend_add_organiser(*, actor: Any, weekend: Weekend, user: Any) -> Weekend:
    """A weekend organiser adds another (who then runs the weekend's schedule, check-in desk
    and side events with them). Already one: 409 naming ``user``."""
    weekend = _locked_weekend(weekend)
    require_weekend_organiser(actor, weekend)
    if user is None or not getattr(user, "is_active", False):
        raise ServiceError(_("user: no such person."), field="user")
    if weekend.organisers.filter(pk=user.pk).exists():
        raise Conflict(_("user: already an organiser of this weekend."), field="user")
    weekend.organisers.add(user)
    _audit_weekend(actor, "weekend.organiser_added", weekend, user=user.pk)
    return weekend


@atomic
def weekend_remove_organiser(*, actor: Any, weekend: Weekend, user: Any) -> Weekend:
    """A weekend organiser removes another (or themselves); the last one stays (409)."""
    weekend = _locked_weekend(weekend)
    require_weekend_organiser(actor, weekend)
    if not weekend.organisers.filter(pk=user.pk).exists():
        raise ServiceError(_("user: not an organiser of this weekend."), field="user")
    if not weekend.organisers.exclude(pk=user.pk).exists():
        raise Conflict(_("user: a weekend keeps at least one organiser."), field="user")
    weekend.organisers.remove(user)
    _audit_weekend(actor, "weekend.organiser_removed", weekend, user=user.pk)
    return weekend


def weekend_event_ids(weekend: Weekend) -> list[int]:
    return sorted(weekend.entries.values_list("tournament_id", flat=True))


@dataclass(frozen=True)
class BadgeCheckIn:
    player: Any
    events: list[EventCheckIn]


def weekend_check_in(*, actor: Any, weekend: Weekend, code: str) -> BadgeCheckIn:
    """The weekend desk: the badge (a player id or the QR code's text) checks the player into
    each weekend event they registered for whose check-in is open, in one transaction."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Sign in to run the check-in desk."))
    text = (code or "").strip()
    if not text:
        raise ServiceError(_("code: scan or type the player's badge."), field="code")
    registrations = registrations_by_player_code(weekend_event_ids(weekend), text)
    if not registrations:
        if not is_organiser_of_weekend(actor, weekend) and not any(
            permissions.can_run_check_in(actor, entry.tournament)
            for entry in weekend.entries.select_related("tournament")
        ):
            raise Forbidden(_("Only the weekend's check-in staff check players in."))
        raise ServiceError(
            _("code: nobody registered for this weekend's events has the player id %(code)s.")
            % {"code": text[:40]},
            field="code",
            code="unknown_code",
        )
    results = check_in_across_events(actor=actor, registration_ids=[r.pk for r in registrations])
    player = results[0].registration.player if results else None
    return BadgeCheckIn(player=player, events=results)


@atomic
def side_event_from_template(
    *,
    actor: Any,
    template: Tournament,
    name: str,
    starts_at: datetime,
    kind: str = WeekendEventKind.LCQ,
) -> WeekendEvent:
    """ "New side event like this one": a new event in the template's weekend with its settings,
    format, structure (stages), venue and capacity, card catalog, organisers and judges (and
    head judge), named and timed by the request; never its players, rounds or decklists. One
    transaction: the new event is created in draft, like any new event."""
    entry = WeekendEvent.objects.filter(tournament=template).select_related("weekend").first()
    if entry is None:
        raise ServiceError(
            _("template: the event is in no weekend; put it in one first."), field="template"
        )
    weekend = _locked_weekend(entry.weekend)
    if not permissions.is_organiser_of(actor, template):
        raise Forbidden(_("template: only the event's organisers may launch an event like it."))
    if kind not in (WeekendEventKind.SIDE, WeekendEventKind.LCQ):
        raise ServiceError(_("kind: side or lcq."), field="kind")
    fields = {field: getattr(template, field) for field in COPIED_FIELDS}
    rules = event_services.stage_rules_of(template)
    if rules and not event_services.has_legacy_stages(template, template.top_cut_size):
        fields["stages"] = stage_rules.stages_to_json(rules)
    event = event_services.event_create(actor=actor, name=name, starts_at=starts_at, **fields)
    organisers = list(template.organisers.exclude(pk=actor.pk).order_by("pk"))
    event.organisers.add(*organisers)
    event.judges.add(*template.judges.order_by("pk"))
    if template.head_judge_id is not None:
        event.head_judge_id = template.head_judge_id
        event.save(update_fields=["head_judge", "updated_at"])
    catalog = EventCatalog.objects.filter(tournament=template).first()
    if catalog is not None:
        EventCatalog.objects.create(tournament=event, catalog=catalog.catalog, chosen_by=actor)
    audit(
        tournament=event,
        actor=actor,
        action="event.copied_from_template",
        target=event,
        template=template.slug,
        organisers=[u.pk for u in organisers],
        judges=list(event.judges.values_list("pk", flat=True)),
        head_judge=template.head_judge_id,
        catalog=catalog.catalog.slug if catalog is not None else None,
    )
    return _link(actor, weekend, event, kind, template=template)
