"""The only writers of organisations, their members and their suspensions: one transaction
each, the caller's right checked here, every change audited (tournaments.audit: entries
without an event, target ``organisation:ID``, the organisation's slug in the data)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from config.locks import for_update
from config.transactions import atomic
from organisations.models import (
    ORGANISING_ROLES,
    CalendarToken,
    Membership,
    Organisation,
    Role,
    Suspension,
)
from organisations.signals import registration_suspended
from tournaments import permissions
from tournaments import services as event_services
from tournaments.audit import audit
from tournaments.models import ACTIVE_STATUSES, Registration, Tournament
from tournaments.status import EventStatus

ORG_FIELDS = ("name", "description", "website", "city")


# --- who may do what --------------------------------------------------------------------


def role_of(user: Any, organisation: Organisation) -> str | None:
    """The person's role in the organisation (None: not a member)."""
    if not permissions.is_authenticated(user):
        return None
    role: str | None = (
        Membership.objects.filter(organisation=organisation, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )
    return role


def is_owner(user: Any, organisation: Organisation) -> bool:
    if permissions.is_authenticated(user) and user.is_superuser:
        return True
    return role_of(user, organisation) == Role.OWNER


def may_organise(user: Any, organisation: Organisation) -> bool:
    """Owners and organisers: they run the organisation's events and its suspensions. The
    lead's series app asks this before a series joins an organisation."""
    if permissions.is_authenticated(user) and user.is_superuser:
        return True
    return role_of(user, organisation) in ORGANISING_ROLES


def require_owner(user: Any, organisation: Organisation) -> None:
    if not is_owner(user, organisation):
        raise Forbidden(_("Only this organisation's owners may do this."))


def require_organiser(user: Any, organisation: Organisation) -> None:
    if not may_organise(user, organisation):
        raise Forbidden(_("Only this organisation's owners and organisers may do this."))


class OrganisationRoles:
    """tournaments.extensions.OrganisationRoles: the roles an organisation gives at its events."""

    def roles(self, user: Any, organisation_id: int) -> frozenset[str]:
        if not permissions.is_authenticated(user):
            return frozenset()
        role = (
            Membership.objects.filter(organisation_id=organisation_id, user_id=user.pk)
            .values_list("role", flat=True)
            .first()
        )
        if role is None:
            return frozenset()
        return frozenset({Role.ORGANISER.value if role == Role.OWNER else str(role)})

    def staffed_organisations(self, user: Any) -> Any:
        return Membership.objects.filter(user_id=user.pk).values("organisation_id")


# --- organisations ----------------------------------------------------------------------


def _clean_text(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - set(ORG_FIELDS)
    if unknown:
        name = sorted(unknown)[0]
        raise ServiceError(_("Unknown field."), field=name)
    if "name" in fields and not str(fields["name"]).strip():
        raise ServiceError(_("An organisation needs a name."), field="name")
    return fields


def _unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "organisation"
    slug, n = base, 2
    while Organisation.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@atomic
def organisation_create(*, actor: Any, slug: str = "", **fields: Any) -> Organisation:
    """A new organisation; the person creating it is its first owner. Anyone who may create
    events may create one."""
    if not permissions.can_create_events(actor):
        raise Forbidden(_("Only organisers may create an organisation."))
    _clean_text(fields)
    if slug and Organisation.objects.filter(slug=slug).exists():
        raise Conflict(_("An organisation already has this slug."), field="slug")
    organisation = Organisation(slug=slug or _unique_slug(str(fields.get("name", ""))), **fields)
    organisation.full_clean()
    try:
        with transaction.atomic():
            organisation.save()
    except IntegrityError:
        raise Conflict(_("An organisation already has this slug."), field="slug") from None
    Membership.objects.create(organisation=organisation, user=actor, role=Role.OWNER)
    _audit(actor, "organisation.created", organisation, name=organisation.name)
    return organisation


@atomic
def organisation_update(*, actor: Any, organisation: Organisation, **fields: Any) -> Organisation:
    organisation = for_update(Organisation.objects).get(pk=organisation.pk)
    require_owner(actor, organisation)
    _clean_text(fields)
    before = {k: getattr(organisation, k) for k in fields}
    for key, value in fields.items():
        setattr(organisation, key, value)
    organisation.full_clean()
    organisation.save()
    _audit(actor, "organisation.updated", organisation, before=before, after=fields)
    return organisation


@atomic
def organisation_delete(*, actor: Any, organisation: Organisation) -> None:
    """Deletes the organisation; its events stay, belonging to none."""
    organisation = for_update(Organisation.objects).get(pk=organisation.pk)
    require_owner(actor, organisation)
    _audit(actor, "organisation.deleted", organisation, name=organisation.name)
    organisation.delete()


# --- members ----------------------------------------------------------------------------


def _owners_left(organisation: Organisation, without_user_id: int) -> int:
    return (
        Membership.objects.filter(organisation=organisation, role=Role.OWNER)
        .exclude(user_id=without_user_id)
        .count()
    )


@atomic
def member_set(*, actor: Any, organisation: Organisation, user: Any, role: str) -> Membership:
    """Adds the person with the role, or changes their role. Owners only; the last owner
    cannot step down (409)."""
    organisation = for_update(Organisation.objects).get(pk=organisation.pk)
    require_owner(actor, organisation)
    if role not in Role.values:
        raise ServiceError(
            _("One of: %(roles)s.") % {"roles": ", ".join(Role.values)}, field="role"
        )
    membership = for_update(Membership.objects).filter(organisation=organisation, user=user).first()
    before = membership.role if membership else None
    if before == Role.OWNER and role != Role.OWNER and not _owners_left(organisation, user.pk):
        raise Conflict(_("An organisation keeps at least one owner."), field="role")
    if membership is None:
        membership = Membership.objects.create(organisation=organisation, user=user, role=role)
    else:
        membership.role = role
        membership.save(update_fields=["role"])
    _audit(actor, "organisation.member_set", organisation, user=user.pk, before=before, role=role)
    return membership


@atomic
def member_remove(*, actor: Any, organisation: Organisation, user: Any) -> None:
    organisation = for_update(Organisation.objects).get(pk=organisation.pk)
    if not (permissions.is_authenticated(actor) and actor.pk == user.pk):
        require_owner(actor, organisation)  # anyone may leave; owners remove others
    membership = for_update(Membership.objects).filter(organisation=organisation, user=user).first()
    if membership is None:
        raise ServiceError(_("Not a member of this organisation."), field="user")
    if membership.role == Role.OWNER and not _owners_left(organisation, user.pk):
        raise Conflict(_("An organisation keeps at least one owner."), field="user")
    membership.delete()
    _audit(actor, "organisation.member_removed", organisation, user=user.pk, role=membership.role)


# --- events -----------------------------------------------------------------------------


@atomic
def event_set_organisation(
    *, actor: Any, tournament: Tournament, organisation: Organisation | None
) -> Tournament:
    """The event joins the organisation (or leaves it: None). The actor organises the event
    and, to join, organises the organisation too."""
    tournament = for_update(Tournament.objects).get(pk=tournament.pk)
    permissions.require_organiser(actor, tournament)
    if organisation is not None and not may_organise(actor, organisation):
        raise Forbidden(_("Only the organisation's owners and organisers may add its events."))
    before = tournament.organisation_id
    tournament.organisation = organisation
    tournament.save(update_fields=["organisation", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="event.organisation_set",
        target=tournament,
        before=before,
        organisation=organisation.slug if organisation else None,
    )
    return tournament


# --- suspensions ------------------------------------------------------------------------


def active_suspension(
    organisation_id: int, player_id: int, at: datetime | None = None
) -> Suspension | None:
    """The suspension keeping the player out of the organisation's events now (or ``at``)."""
    at = at or timezone.now()
    return (
        Suspension.objects.filter(
            organisation_id=organisation_id,
            player_id=player_id,
            starts_at__lte=at,
            until__gt=at,
            lifted_at__isnull=True,
        )
        .order_by("-until")
        .first()
    )


def suspension_text(suspension: Suspension) -> str:
    return _("You are suspended from %(org)s's events until %(until)s: %(reason)s") % {
        "org": suspension.organisation.name,
        "until": formats.date_format(timezone.localtime(suspension.until), "DATETIME_FORMAT"),
        "reason": suspension.reason,
    }


def refuse_suspended(tournament: Tournament, user: Any) -> None:
    """tournaments.extensions registration check: a suspended player cannot register for the
    organisation's events while the suspension lasts (409 naming it and its reason)."""
    if tournament.organisation_id is None or not permissions.is_authenticated(user):
        return
    suspension = active_suspension(tournament.organisation_id, user.pk)
    if suspension is not None:
        raise Conflict(suspension_text(suspension), field="suspension", code="suspended")


# The events a suspension takes registrations back from: the organisation's events that have
# not started. An event under way is left alone (its organisers drop the player if they must:
# a drop keeps the results already played).
NOT_STARTED = (
    EventStatus.DRAFT.value,
    EventStatus.REGISTRATION_OPEN.value,
    EventStatus.REGISTRATION_CLOSED.value,
)


def suspension_registrations(
    organisation: Organisation, player: Any, starts_at: datetime, until: datetime
) -> list[Registration]:
    """The player's active registrations (registered, waitlisted or in a lottery) for the
    organisation's events that have not started and start before ``until`` (from
    ``starts_at`` on when the suspension starts later; every one when it starts now), soonest
    first: what suspending them from ``starts_at`` to ``until`` takes back."""
    rows = Registration.objects.filter(
        player=player,
        status__in=[s.value for s in ACTIVE_STATUSES],
        tournament__organisation=organisation,
        tournament__status__in=NOT_STARTED,
        tournament__starts_at__lt=until,
    )
    if starts_at > timezone.now():
        rows = rows.filter(tournament__starts_at__gte=starts_at)
    return list(rows.select_related("tournament").order_by("tournament__starts_at", "pk"))


def suspension_consequences(registrations: list[Registration]) -> str:
    """What suspending takes back, in words ("" for nothing)."""
    if not registrations:
        return ""
    names = ", ".join(r.tournament.name for r in registrations)
    return _(
        "The player's registrations for %(events)s are cancelled at once, each event's place "
        "going to its waitlist; lifting the suspension does not bring them back."
    ) % {"events": names}


@dataclass(frozen=True)
class Suspended:
    suspension: Suspension
    removed: list[Registration]


@atomic
def suspend(
    *,
    actor: Any,
    organisation: Organisation,
    player: Any,
    until: datetime,
    reason: str,
    starts_at: datetime | None = None,
    confirm: bool = False,
) -> Suspended:
    """Suspends the player from the organisation's events from ``starts_at`` (now) until
    ``until``. Owners and organisers only; the reason is required (the player sees it).

    The player's registrations for the organisation's events that have not started and fall
    in the suspension are taken back (removed, with the suspension as the reason, audited in
    each event, the player told): that cannot be undone cleanly (their places go to the
    waitlists), so it needs ``confirm`` (a 400 naming ``confirm`` lists them)."""
    organisation = for_update(Organisation.objects).get(pk=organisation.pk)
    require_organiser(actor, organisation)
    starts_at = starts_at or timezone.now()
    if until <= starts_at:
        raise ServiceError(_("A suspension must end after it starts."), field="until")
    if not reason or not reason.strip():
        raise ServiceError(_("Give the reason: the player sees it."), field="reason")
    if player is None:
        raise ServiceError(_("No such player."), field="player")
    affected = suspension_registrations(organisation, player, starts_at, until)
    if affected and not confirm:
        raise ServiceError(
            _("confirm: %(what)s Confirm to go on.") % {"what": suspension_consequences(affected)},
            field="confirm",
            code="confirmation_required",
        )
    suspension = Suspension.objects.create(
        organisation=organisation,
        player=player,
        starts_at=starts_at,
        until=until,
        reason=reason.strip(),
        created_by=actor,
    )
    removed = []
    # The site's lock order: the organisation (above), then the events in id order.
    for registration in sorted(affected, key=lambda r: (r.tournament_id, r.pk)):
        removed.append(
            event_services.registration_remove(
                actor=actor,
                registration=registration,
                reason=_("Suspended by %(org)s until %(until)s: %(reason)s")
                % {
                    "org": organisation.name,
                    "until": suspension.until.isoformat(),
                    "reason": suspension.reason,
                },
                confirm=True,
            )
        )
        registration_suspended.send(
            sender=Registration, registration=removed[-1], suspension=suspension
        )
    _audit(
        actor,
        "organisation.player_suspended",
        organisation,
        player=player.pk,
        starts_at=starts_at,
        until=until,
        reason=suspension.reason,
        suspension=suspension.pk,
        registrations_removed=[r.pk for r in removed],
        events=[r.tournament.slug for r in removed],
    )
    return Suspended(suspension=suspension, removed=removed)


def suspension_create(
    *,
    actor: Any,
    organisation: Organisation,
    player: Any,
    until: datetime,
    reason: str,
    starts_at: datetime | None = None,
    confirm: bool = False,
) -> Suspension:
    """:func:`suspend`, for callers that need only the suspension."""
    return suspend(
        actor=actor,
        organisation=organisation,
        player=player,
        until=until,
        reason=reason,
        starts_at=starts_at,
        confirm=confirm,
    ).suspension


@atomic
def suspension_lift(*, actor: Any, suspension: Suspension) -> Suspension:
    suspension = for_update(Suspension.objects).select_related("organisation").get(pk=suspension.pk)
    require_organiser(actor, suspension.organisation)
    if suspension.lifted_at is not None:
        raise Conflict(_("This suspension was already lifted."), field="suspension")
    suspension.lifted_at = timezone.now()
    suspension.save(update_fields=["lifted_at"])
    _audit(
        actor,
        "organisation.suspension_lifted",
        suspension.organisation,
        player=suspension.player_id,
        suspension=suspension.pk,
    )
    return suspension


# --- the private calendar ---------------------------------------------------------------


def calendar_token(*, user: Any, rotate: bool = False) -> str:
    """The person's private "my events" feed token (made on first use; ``rotate`` replaces
    it, so an old URL stops working)."""
    if not permissions.is_authenticated(user):
        raise Forbidden(_("Log in to get your calendar link."))
    with transaction.atomic():
        row = for_update(CalendarToken.objects).filter(user_id=user.pk).first()
        if row is None:
            row = CalendarToken.objects.create(user=user, token=secrets.token_urlsafe(32))
        elif rotate:
            row.token = secrets.token_urlsafe(32)
            row.save(update_fields=["token"])
        return str(row.token)


def user_by_id(pk: Any, field: str) -> Any:
    """The account ``pk`` names, or a 400 naming ``field``."""
    try:
        return get_user_model().objects.get(pk=int(pk))
    except (TypeError, ValueError, get_user_model().DoesNotExist):
        raise ServiceError(_("No such person."), field=field) from None


def _audit(actor: Any, action: str, organisation: Organisation, **data: Any) -> None:
    audit(
        tournament=None,
        actor=actor,
        action=action,
        target=organisation,
        organisation=organisation.slug,
        **data,
    )
