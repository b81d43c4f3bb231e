"""Use cases for registrations: register, withdraw, remove, reactivate, walk-ins and their
claim codes, the waitlist, and dropping out of (or back into) a running event."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.player_ids import ALPHABET
from accounts.validators import check_name
from config.errors import Conflict, Forbidden, ServiceError
from config.locks import for_update
from config.transactions import atomic
from tournaments import permissions
from tournaments.audit import audit
from tournaments.extensions import player_dropped, registration_checks
from tournaments.lottery_rules import lottery_collects_entries, require_lottery_open
from tournaments.models import (
    ACTIVE_STATUSES,
    WAITLIST_ORDER,
    Registration,
    RegistrationStatus,
    Tournament,
)
from tournaments.selectors import event_facts_without_rounds
from tournaments.services.locks import event_locked, locked_registration
from tournaments.status import EventStatus, players_refusal, registration_refusal


def registration_is_open(tournament: Tournament, now: datetime | None = None) -> bool:
    facts = event_facts_without_rounds(tournament)
    return registration_refusal(facts, now or timezone.now()) is None


def _require_registration_open(tournament: Tournament) -> None:
    # The same words the event page shows instead of a Register button.
    refusal = registration_refusal(event_facts_without_rounds(tournament), timezone.now())
    if refusal is not None:
        raise ServiceError(
            _("tournament: registration is not open. %(why)s") % {"why": refusal.render(_)},
            field="tournament",
            code=refusal.code,
        )


def registered_count(tournament: Tournament) -> int:
    return tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()


def has_room(tournament: Tournament) -> bool:
    return tournament.capacity is None or registered_count(tournament) < tournament.capacity


def _enter(registration: Registration, tournament: Tournament) -> None:
    """Register if there is room, else join the end of the waitlist; before a lottery's
    draw, enter the lottery."""
    registration.draw_position = None
    if lottery_collects_entries(tournament):
        registration.status = RegistrationStatus.ENTERED
        registration.queued_at = None
    elif has_room(tournament):
        registration.status = RegistrationStatus.REGISTERED
        registration.queued_at = None
    else:
        registration.status = RegistrationStatus.WAITLISTED
        registration.queued_at = timezone.now()


@atomic
def registration_register(*, actor: Any, tournament: Tournament) -> Registration:
    """Register the acting player; beyond capacity they join the waitlist."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Log in to register."))
    tournament = event_locked(tournament)
    _require_registration_open(tournament)
    require_lottery_open(tournament)
    for check in registration_checks():
        check(tournament, actor)  # an organisation's suspension: a 409 naming it
    registration = (
        for_update(Registration.objects).filter(tournament=tournament, player=actor).first()
    )
    if registration is not None:
        if registration.status in ACTIVE_STATUSES:
            raise ServiceError(
                _("You are already registered for this event."),
                field="tournament",
                code="already_registered",
            )
        if registration.status == RegistrationStatus.REMOVED:
            raise Forbidden(
                _("An organiser removed you from this event; ask them to add you back.")
            )
    else:
        registration = Registration(tournament=tournament, player=actor)
    _enter(registration, tournament)
    try:
        with transaction.atomic():
            registration.save()
    except IntegrityError:
        raise Conflict(
            _("You are already registered for this event."), field="tournament"
        ) from None
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.registered",
        registration=registration,
        status=registration.status,
    )
    return registration


@atomic
def registration_withdraw(*, actor: Any, registration: Registration) -> Registration:
    """A player leaves an event before it starts; their place goes to the waitlist."""
    tournament, registration = locked_registration(registration)
    if not permissions.is_own_registration(actor, registration):
        if permissions.is_organiser_of(actor, tournament):
            return _remove(actor=actor, tournament=tournament, registration=registration)
        raise Forbidden(_("You can only withdraw your own registration."))
    if registration.status not in ACTIVE_STATUSES:
        raise ServiceError(_("You are not registered for this event."), field="registration")
    if tournament.status != EventStatus.REGISTRATION_OPEN:
        raise ServiceError(
            _("Registration has closed: ask an organiser, or drop once the event is running."),
            field="registration",
            code="registration_closed",
        )
    return _leave(
        actor=actor,
        tournament=tournament,
        registration=registration,
        status=RegistrationStatus.WITHDRAWN,
        action="registration.withdrawn",
    )


@atomic
def registration_remove(
    *, actor: Any, registration: Registration, reason: str = "", confirm: bool = False
) -> Registration:
    """An organiser takes a registration out; its place goes to the waitlist at once, so it
    needs ``confirm`` (the message says what is lost)."""
    tournament, registration = locked_registration(registration)
    permissions.require_organiser(actor, tournament)
    if not confirm:
        raise ServiceError(
            _("confirm: %(what)s Confirm to go on.") % {"what": remove_consequences(registration)},
            field="confirm",
            code="confirmation_required",
        )
    return _remove(actor=actor, tournament=tournament, registration=registration, reason=reason)


def remove_consequences(registration: Registration) -> str:
    """What removing this registration loses, in words."""
    text = _("Removing %(name)s takes them out of %(event)s.") % {
        "name": registration.name,
        "event": registration.tournament.name,
    }
    if registration.status == RegistrationStatus.REGISTERED:
        nxt = (
            registration.tournament.registrations.filter(status=RegistrationStatus.WAITLISTED)
            .order_by(*WAITLIST_ORDER)
            .first()
        )
        if nxt is not None:
            text += " " + _("Their place goes to %(next)s from the waitlist at once.") % {
                "next": nxt.name
            }
        else:
            text += " " + _("Their place is freed.")
    if hasattr(registration, "decklist"):
        text += " " + _("Their decklist is no longer part of the event.")
    if registration.is_walk_in:
        text += " " + _("Their claim code stops working.")
    return text


def _remove(
    *, actor: Any, tournament: Tournament, registration: Registration, reason: str = ""
) -> Registration:
    if registration.status not in ACTIVE_STATUSES:
        raise ServiceError(_("This registration is not active."), field="registration")
    if tournament.status in (EventStatus.RUNNING, EventStatus.TOP_CUT):
        raise ServiceError(
            _("The event is running: drop the player instead, so their results stay."),
            field="registration",
        )
    return _leave(
        actor=actor,
        tournament=tournament,
        registration=registration,
        status=RegistrationStatus.REMOVED,
        action="registration.removed",
        reason=reason,
    )


def _leave(
    *,
    actor: Any,
    tournament: Tournament,
    registration: Registration,
    status: RegistrationStatus,
    action: str,
    **data: Any,
) -> Registration:
    """The registration gives up its place (or waitlist spot); the waitlist moves up."""
    was = registration.status
    registration.status = status
    registration.queued_at = None
    registration.checked_in_at = None
    registration.save()
    audit(
        tournament=tournament,
        actor=actor,
        action=action,
        registration=registration,
        was=was,
        **data,
    )
    promote_waitlist(tournament, actor=actor)
    return registration


@atomic
def registration_reactivate(*, actor: Any, registration: Registration) -> Registration:
    """An organiser adds back a withdrawn or removed registration (capacity permitting)."""
    tournament, registration = locked_registration(registration)
    permissions.require_organiser(actor, tournament)
    if registration.status in ACTIVE_STATUSES:
        raise ServiceError(_("This registration is already active."), field="registration")
    _enter(registration, tournament)
    registration.save()
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.reactivated",
        registration=registration,
        status=registration.status,
    )
    return registration


def promote_waitlist(tournament: Tournament, *, actor: Any) -> list[Registration]:
    """Fill free places from the waitlist, in a lottery's draw order, then first in first
    promoted. Caller holds the lock."""
    if tournament.status not in (EventStatus.REGISTRATION_OPEN, EventStatus.REGISTRATION_CLOSED):
        return []
    promoted = []
    waiting = (
        for_update(Registration.objects)
        .filter(tournament=tournament, status=RegistrationStatus.WAITLISTED)
        .order_by(*WAITLIST_ORDER)
    )
    free = (
        None if tournament.capacity is None else tournament.capacity - registered_count(tournament)
    )
    for registration in waiting:
        if free is not None and free <= 0:
            break
        registration.status = RegistrationStatus.REGISTERED
        registration.queued_at = None
        registration.save(update_fields=["status", "queued_at", "updated_at"])
        audit(
            tournament=tournament,
            actor=actor,
            action="registration.promoted",
            registration=registration,
        )
        promoted.append(registration)
        if free is not None:
            free -= 1
    return promoted


@atomic
def registration_add_walk_in(
    *, actor: Any, tournament: Tournament, name: str, over_capacity: bool = False
) -> Registration:
    """An organiser adds a person who has no account; an account can claim it later."""
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    check_name("name", name)
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("name: a walk-in needs a name."), field="name")
    if len(name) > 80:
        raise ServiceError(_("name: at most 80 characters."), field="name")
    refusal = players_refusal(tournament.status)
    if refusal is not None:
        raise ServiceError(
            _("tournament: walk-ins join only while the event takes players. %(why)s")
            % {"why": refusal.render(_)},
            field="tournament",
            code=refusal.code,
        )
    if not over_capacity and not has_room(tournament):
        raise ServiceError(
            _("capacity: the event is full. Confirm to add the walk-in over capacity."),
            field="capacity",
            code="full",
        )
    registration = Registration.objects.create(
        tournament=tournament,
        walk_in_name=name,
        claim_code=new_claim_code(),
        status=RegistrationStatus.REGISTERED,
    )
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.walk_in_added",
        registration=registration,
        name=name,
        over_capacity=over_capacity,
    )
    return registration


def new_claim_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(8))


@atomic
def registration_claim(*, actor: Any, claim_code: str) -> Registration:
    """A walk-in with an account now links the registration the organiser made for them."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Log in to claim a registration."))
    code = "".join(claim_code.split()).upper()
    unclaimed = Registration.objects.filter(claim_code=code, player__isnull=True)
    found = unclaimed.select_related("tournament").first()
    # The site's lock order: the event first, then the registration, re-read under its lock
    # (another account may have claimed it, or an organiser removed it, meanwhile).
    tournament = event_locked(found.tournament) if found is not None else None
    registration = for_update(unclaimed).filter(pk=found.pk).first() if found else None
    if tournament is None or registration is None:
        raise ServiceError(
            _("claim_code: no unclaimed registration has this code."), field="claim_code"
        )
    registration.tournament = tournament
    if registration.status not in ACTIVE_STATUSES:
        raise Conflict(
            _(
                "claim_code: this registration is no longer in the event (an organiser removed "
                "it); ask an organiser to add it back."
            ),
            field="claim_code",
            code="registration_inactive",
        )
    if permissions.is_judge_of(actor, tournament) and not permissions.is_organiser_of(
        actor, tournament
    ):
        raise Forbidden(
            _("claim_code: a judge of this event cannot claim a walk-in's registration."),
            field="claim_code",
        )
    if Registration.objects.filter(tournament=tournament, player=actor).exists():
        raise ServiceError(
            _("claim_code: you already have a registration for this event."), field="claim_code"
        )
    registration.player = actor
    registration.claim_code = None
    registration.save()
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.claimed",
        registration=registration,
        walk_in_name=registration.walk_in_name,
    )
    return registration


@atomic
def registration_drop(
    *, actor: Any, registration: Registration, round_number: int | None = None
) -> Registration:
    """Leave a running event: no more pairings, results so far stay in the standings."""
    tournament, registration = locked_registration(registration)
    if not (
        permissions.is_own_registration(actor, registration)
        or permissions.is_organiser_of(actor, tournament)
    ):
        raise Forbidden(_("You can only drop yourself."))
    if tournament.status not in (EventStatus.RUNNING, EventStatus.TOP_CUT):
        raise ServiceError(
            _("Players drop only while the event runs; before that, withdraw."),
            field="registration",
        )
    if registration.status != RegistrationStatus.REGISTERED:
        raise ServiceError(_("This player is not in the event."), field="registration")
    if registration.dropped:
        raise ServiceError(_("This player has already dropped."), field="registration")
    registration.dropped_at = timezone.now()
    registration.drop_round = round_number
    registration.save(update_fields=["dropped_at", "drop_round", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.dropped",
        registration=registration,
        round=round_number,
    )
    player_dropped.send(sender=Registration, registration=registration)
    return registration


@atomic
def registration_reinstate(*, actor: Any, registration: Registration) -> Registration:
    tournament, registration = locked_registration(registration)
    permissions.require_organiser(actor, tournament)
    if not registration.dropped:
        raise ServiceError(_("This player has not dropped."), field="registration")
    registration.dropped_at = None
    registration.drop_round = None
    registration.save(update_fields=["dropped_at", "drop_round", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.reinstated",
        registration=registration,
    )
    return registration
