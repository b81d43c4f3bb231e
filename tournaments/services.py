"""Use cases for events and registrations: the only code that writes to these models.

Every public function takes keyword-only arguments, checks who may act and in what state,
writes inside one transaction holding the event's row lock (so two requests for the last place
queue up instead of both taking it), and appends an AuditEntry for every change.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

import notifications.services
from config.errors import Conflict, Forbidden, ServiceError
from tournaments import permissions
from tournaments.models import (
    ACTIVE_STATUSES,
    AuditEntry,
    Registration,
    RegistrationStatus,
    Tournament,
)
from tournaments.status import ON_THE_DAY, EventStatus, InvalidTransition, check_transition

EDITABLE_FIELDS = (
    "name",
    "game",
    "mode",
    "format_key",
    "format_params",
    "match_structure",
    "description",
    "starts_at",
    "time_zone",
    "venue",
    "capacity",
    "registration_opens_at",
    "registration_closes_at",
    "decklist_deadline",
    "round_minutes",
    "planned_rounds",
    "top_cut_size",
    "require_legal_decklist",
    "first_round_pairing",
    "late_entry_policy",
    "cut_policy",
    "start_timer_on_publish",
    "auto_confirm_minutes",
    "hide_standings_before_final",
)
# Once players have registered, what they registered for must not change under them.
FIXED_AFTER_DRAFT = ("game", "mode", "format_key", "format_params", "match_structure")


def audit(
    *,
    tournament: Tournament,
    actor: Any,
    action: str,
    target: Any = None,
    registration: Registration | None = None,
    **data: Any,
) -> AuditEntry:
    target_label = f"{target._meta.model_name}:{target.pk}" if target is not None else ""
    return AuditEntry.objects.create(
        tournament=tournament,
        event_slug=tournament.slug if tournament is not None else "",
        registration=registration,
        actor=actor if permissions.is_authenticated(actor) else None,
        action=action,
        target=target_label,
        data=_jsonable(data),
    )


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


def _locked(tournament: Tournament) -> Tournament:
    """Re-read the event under a row lock; every registration write goes through this."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _validation_error(exc: ValidationError) -> ServiceError:
    if hasattr(exc, "error_dict"):
        field, errors = next(iter(exc.message_dict.items()))
        return ServiceError(f"{field}: {errors[0]}", field=field)
    return ServiceError("; ".join(exc.messages))


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "event"
    slug = base
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{base}-{secrets.token_hex(3)}"
    return slug


# --- events ------------------------------------------------------------------------------


@transaction.atomic
def event_create(*, actor: Any, **fields: Any) -> Tournament:
    if not permissions.can_create_events(actor):
        raise Forbidden(_("Only organisers may create events."))
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        name = sorted(unknown)[0]
        raise ServiceError(_("%(field)s: not a field of an event.") % {"field": name}, field=name)
    if fields.get("format_params") is None:
        fields["format_params"] = {}
    tournament = Tournament(**fields, created_by=actor)
    tournament.slug = _unique_slug(fields.get("name", ""))
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise _validation_error(exc) from None
    tournament.save()
    tournament.organisers.add(actor)
    audit(tournament=tournament, actor=actor, action="event.created", target=tournament)
    return tournament


@transaction.atomic
def event_update(*, actor: Any, tournament: Tournament, **fields: Any) -> Tournament:
    tournament = _locked(tournament)
    permissions.require_organiser(actor, tournament)
    changes: dict[str, Any] = {}
    if "format_params" in fields and fields["format_params"] is None:
        fields["format_params"] = {}
    for name, value in fields.items():
        if name not in EDITABLE_FIELDS:
            raise ServiceError(
                _("%(field)s: not a field of an event.") % {"field": name}, field=name
            )
        old = getattr(tournament, name)
        if old == value:
            continue
        if name in FIXED_AFTER_DRAFT and tournament.status != EventStatus.DRAFT:
            raise ServiceError(
                _("%(field)s: cannot change once the event has left draft.") % {"field": name},
                field=name,
            )
        changes[name] = {"from": _plain(old), "to": _plain(value)}
        setattr(tournament, name, value)
    if not changes:
        return tournament
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise _validation_error(exc) from None
    if tournament.capacity is not None and "capacity" in changes:
        registered = tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()
        if tournament.capacity < registered:
            raise ServiceError(
                _(
                    "capacity: %(registered)d players are already registered; remove some "
                    "before lowering the capacity to %(capacity)d."
                )
                % {"registered": registered, "capacity": tournament.capacity},
                field="capacity",
            )
    tournament.save()
    audit(tournament=tournament, actor=actor, action="event.updated", target=tournament, **changes)
    _promote_waitlist(tournament, actor=actor)
    return tournament


def _check_rounds_allow(tournament: Tournament, target: EventStatus) -> None:
    """Rounds decide when an event may move on: the top cut is started from the final
    standings (matches.services.top_cut_start), and nothing finishes mid-round."""
    if target == EventStatus.TOP_CUT:
        raise ServiceError(
            _("status: start the top cut from the round control; it seeds the bracket."),
            field="status",
            code="invalid_transition",
        )
    if target == EventStatus.FINISHED:
        unfinished = tournament.rounds.exclude(status="finished").order_by("number").first()
        if unfinished is not None:
            raise ServiceError(
                _("status: round %(n)d is not finished yet.") % {"n": unfinished.number},
                field="status",
                code="round_unfinished",
            )


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


@transaction.atomic
def event_transition(*, actor: Any, tournament: Tournament, to: str) -> Tournament:
    tournament = _locked(tournament)
    permissions.require_organiser(actor, tournament)
    try:
        target = check_transition(tournament.status, to)
    except InvalidTransition as exc:
        raise ServiceError(str(exc), field="status", code="invalid_transition") from None
    _check_rounds_allow(tournament, target)
    previous = tournament.status
    tournament.status = target.value
    tournament.save(update_fields=["status", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="event.status",
        target=tournament,
        **{"from": previous, "to": target.value},
    )
    return tournament


@transaction.atomic
def event_set_player_check_in(*, actor: Any, tournament: Tournament, open: bool) -> Tournament:
    tournament = _locked(tournament)
    permissions.require_organiser(actor, tournament)
    if open and tournament.status_enum not in ON_THE_DAY:
        raise ServiceError(
            _("player_check_in_open: check-in can only open while the event takes players."),
            field="player_check_in_open",
        )
    tournament.player_check_in_open = open
    tournament.save(update_fields=["player_check_in_open", "updated_at"])
    audit(tournament=tournament, actor=actor, action="event.player_check_in", open=open)
    return tournament


@transaction.atomic
def event_set_judge(
    *, actor: Any, tournament: Tournament, user: Any, assigned: bool, head: bool = False
) -> None:
    """Assign or remove a judge; ``head`` also makes them the head judge (escalated calls
    go to them). Removing the head judge leaves the event without one."""
    tournament = _locked(tournament)
    permissions.require_organiser(actor, tournament)
    if assigned:
        tournament.judges.add(user)
        if head and tournament.head_judge_id != user.pk:
            tournament.head_judge = user
            tournament.save(update_fields=["head_judge", "updated_at"])
    else:
        tournament.judges.remove(user)
        if tournament.head_judge_id == user.pk:
            tournament.head_judge = None
            tournament.save(update_fields=["head_judge", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="event.judge_assigned" if assigned else "event.judge_removed",
        target=user,
        player_id=user.player_id,
        head=bool(assigned and head),
    )


@transaction.atomic
def event_add_organiser(*, actor: Any, tournament: Tournament, user: Any) -> None:
    tournament = _locked(tournament)
    permissions.require_organiser(actor, tournament)
    tournament.organisers.add(user)
    audit(tournament=tournament, actor=actor, action="event.organiser_added", target=user)


# --- registrations -------------------------------------------------------------------------


def registration_is_open(tournament: Tournament, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (
        tournament.status == EventStatus.REGISTRATION_OPEN
        and (tournament.registration_opens_at is None or now >= tournament.registration_opens_at)
        and (tournament.registration_closes_at is None or now < tournament.registration_closes_at)
    )


def _require_registration_open(tournament: Tournament) -> None:
    if tournament.status == EventStatus.CANCELLED:
        raise ServiceError(
            _("This event has been cancelled."), field="tournament", code="cancelled"
        )
    if not registration_is_open(tournament):
        raise ServiceError(
            _("Registration for this event is not open."),
            field="tournament",
            code="registration_closed",
        )


def _registered_count(tournament: Tournament) -> int:
    return tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()


def _has_room(tournament: Tournament) -> bool:
    return tournament.capacity is None or _registered_count(tournament) < tournament.capacity


def _enter(registration: Registration, tournament: Tournament) -> None:
    """Register if there is room, else join the end of the waitlist."""
    if _has_room(tournament):
        registration.status = RegistrationStatus.REGISTERED
        registration.queued_at = None
    else:
        registration.status = RegistrationStatus.WAITLISTED
        registration.queued_at = timezone.now()


@transaction.atomic
def registration_register(*, actor: Any, tournament: Tournament) -> Registration:
    """Register the acting player; beyond capacity they join the waitlist."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Log in to register."))
    tournament = _locked(tournament)
    _require_registration_open(tournament)
    registration = (
        Registration.objects.select_for_update().filter(tournament=tournament, player=actor).first()
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


def _locked_registration(registration: Registration) -> tuple[Tournament, Registration]:
    tournament = _locked(registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    registration.tournament = tournament
    return tournament, registration


@transaction.atomic
def registration_withdraw(*, actor: Any, registration: Registration) -> Registration:
    """A player leaves an event before it starts; their place goes to the waitlist."""
    tournament, registration = _locked_registration(registration)
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


@transaction.atomic
def registration_remove(
    *, actor: Any, registration: Registration, reason: str = ""
) -> Registration:
    tournament, registration = _locked_registration(registration)
    permissions.require_organiser(actor, tournament)
    return _remove(actor=actor, tournament=tournament, registration=registration, reason=reason)


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
    _promote_waitlist(tournament, actor=actor)
    return registration


@transaction.atomic
def registration_reactivate(*, actor: Any, registration: Registration) -> Registration:
    """An organiser adds back a withdrawn or removed registration (capacity permitting)."""
    tournament, registration = _locked_registration(registration)
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


def _promote_waitlist(tournament: Tournament, *, actor: Any) -> list[Registration]:
    """Fill free places from the waitlist, first in first promoted. Caller holds the lock."""
    if tournament.status not in (EventStatus.REGISTRATION_OPEN, EventStatus.REGISTRATION_CLOSED):
        return []
    promoted = []
    waiting = (
        Registration.objects.select_for_update()
        .filter(tournament=tournament, status=RegistrationStatus.WAITLISTED)
        .order_by("queued_at", "id")
    )
    free = (
        None if tournament.capacity is None else tournament.capacity - _registered_count(tournament)
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


@transaction.atomic
def registration_add_walk_in(
    *, actor: Any, tournament: Tournament, name: str, over_capacity: bool = False
) -> Registration:
    """An organiser adds a person who has no account; an account can claim it later."""
    tournament = _locked(tournament)
    permissions.require_organiser(actor, tournament)
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("name: a walk-in needs a name."), field="name")
    if len(name) > 80:
        raise ServiceError(_("name: at most 80 characters."), field="name")
    if tournament.status_enum not in ON_THE_DAY:
        raise ServiceError(
            _("Walk-ins can be added only while the event takes players."), field="tournament"
        )
    if not over_capacity and not _has_room(tournament):
        raise ServiceError(
            _("capacity: the event is full. Confirm to add the walk-in over capacity."),
            field="capacity",
            code="full",
        )
    registration = Registration.objects.create(
        tournament=tournament,
        walk_in_name=name,
        claim_code=_new_claim_code(),
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


def _new_claim_code() -> str:
    from accounts.player_ids import ALPHABET

    return "".join(secrets.choice(ALPHABET) for _ in range(8))


@transaction.atomic
def registration_claim(*, actor: Any, claim_code: str) -> Registration:
    """A walk-in with an account now links the registration the organiser made for them."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Log in to claim a registration."))
    code = "".join(claim_code.split()).upper()
    registration = (
        Registration.objects.select_for_update()
        .filter(claim_code=code, player__isnull=True)
        .first()
    )
    if registration is None:
        raise ServiceError(
            _("claim_code: no unclaimed registration has this code."), field="claim_code"
        )
    tournament = _locked(registration.tournament)
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


@transaction.atomic
def registration_check_in(
    *, actor: Any, registration: Registration, checked_in: bool = True
) -> Registration:
    """Organisers check anyone in or out; players check themselves in once it is opened."""
    tournament, registration = _locked_registration(registration)
    if not permissions.is_organiser_of(actor, tournament):
        if not permissions.is_own_registration(actor, registration):
            raise Forbidden(_("You can only check yourself in."))
        if not tournament.player_check_in_open:
            raise ServiceError(
                _("Check-in from phones is not open yet; see the organiser."),
                field="checked_in",
                code="check_in_closed",
            )
        if not checked_in:
            raise Forbidden(_("Only an organiser can undo a check-in."))
    if registration.status != RegistrationStatus.REGISTERED:
        raise ServiceError(
            _("Only registered players can check in (not waitlisted or withdrawn)."),
            field="registration",
        )
    if tournament.status_enum not in ON_THE_DAY:
        raise ServiceError(_("Check-in is over for this event."), field="checked_in")
    if checked_in == registration.checked_in:
        return registration
    if checked_in and tournament.require_legal_decklist:
        # The decks app owns decklists; imported here to keep the dependency one-way at load.
        from decks.services import has_legal_decklist

        if not has_legal_decklist(registration):
            raise ServiceError(
                _("A legal decklist is needed to check in: submit or fix the list first."),
                field="decklist",
                code="decklist_required",
            )
    registration.checked_in_at = timezone.now() if checked_in else None
    registration.save(update_fields=["checked_in_at", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.checked_in" if checked_in else "registration.check_in_undone",
        registration=registration,
    )
    return registration


@transaction.atomic
def registration_drop(
    *, actor: Any, registration: Registration, round_number: int | None = None
) -> Registration:
    """Leave a running event: no more pairings, results so far stay in the standings."""
    tournament, registration = _locked_registration(registration)
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
    notifications.services.notify_player_dropped(registration)
    return registration


@transaction.atomic
def registration_reinstate(*, actor: Any, registration: Registration) -> Registration:
    tournament, registration = _locked_registration(registration)
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


# --- selectors -----------------------------------------------------------------------------


def registration_list(*, actor: Any, tournament: Tournament) -> QuerySet[Registration]:
    """Organisers and judges see everyone; a player sees only their own registration."""
    qs = tournament.registrations.select_related("player")
    if permissions.is_staff_of(actor, tournament):
        return qs
    if permissions.is_authenticated(actor):
        return qs.filter(player=actor)
    raise Forbidden(_("Log in to see registrations."))


def registration_for(*, user: Any, tournament: Tournament) -> Registration | None:
    if not permissions.is_authenticated(user):
        return None
    return tournament.registrations.filter(player=user).first()


def registration_counts(tournament: Tournament) -> dict[str, int]:
    counts = {status: 0 for status in RegistrationStatus.values}
    for row in tournament.registrations.values("status").order_by().annotate(n=Count("id")):
        counts[row["status"]] = row["n"]
    counts["checked_in"] = tournament.registrations.filter(
        status=RegistrationStatus.REGISTERED, checked_in_at__isnull=False
    ).count()
    return counts
