"""Registration at capacity: the lottery's draw and the entry-fee status of registrations.

Services (the only writers of these fields): ``lottery_draw`` (organisers, a second
confirmation, once), ``fee_set`` (organisers). Reads shared by the pages and the API:
``lottery_state``, ``fee_history``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from config.locks import for_update
from config.transactions import atomic
from tournaments import lottery, permissions
from tournaments.audit import audit
from tournaments.models import (
    FeeChange,
    FeeStatus,
    Registration,
    RegistrationMode,
    RegistrationStatus,
    Tournament,
)
from tournaments.services import event_locked, registered_count
from tournaments.status import EventStatus

DRAW_STATUSES = (EventStatus.REGISTRATION_OPEN, EventStatus.REGISTRATION_CLOSED)


@dataclass(frozen=True)
class LotteryState:
    """What anyone may know of an event's lottery: the seed only once drawn."""

    mode: str
    deadline: Any
    commitment: str
    seed: str | None
    drawn_at: Any
    entries: int
    places: int | None
    winners: list[int] | None
    waitlist: list[int] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "registration_mode": self.mode,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "commitment": self.commitment or None,
            "seed": self.seed,
            "drawn_at": self.drawn_at.isoformat() if self.drawn_at else None,
            "entries": self.entries,
            "places": self.places,
            "winners": self.winners,
            "waitlist": self.waitlist,
        }


def lottery_entries(tournament: Tournament) -> list[int]:
    """The registrations drawn (after the draw) or to be drawn (before it), ids ascending."""
    qs = tournament.registrations.all()
    if tournament.lottery_drawn_at is None:
        qs = qs.filter(status=RegistrationStatus.ENTERED)
    else:
        qs = qs.filter(draw_position__isnull=False)
    return list(qs.order_by("id").values_list("id", flat=True))


def lottery_state(tournament: Tournament) -> LotteryState:
    drawn = tournament.lottery_drawn_at is not None
    entries = lottery_entries(tournament)
    winners = waitlist = None
    places = None
    if drawn:
        last = (
            tournament.audit_entries.filter(action="lottery.drawn")
            .values_list("data", flat=True)
            .first()
        )
        if last:
            winners, waitlist, places = last["winners"], last["waitlist"], last["places"]
    elif tournament.capacity is not None:
        places = max(0, tournament.capacity - registered_count(tournament))
    return LotteryState(
        mode=tournament.registration_mode,
        deadline=tournament.lottery_deadline,
        commitment=tournament.lottery_commitment,
        seed=tournament.lottery_seed if drawn else None,
        drawn_at=tournament.lottery_drawn_at,
        entries=len(entries),
        places=places,
        winners=winners,
        waitlist=waitlist,
    )


def draw_refusal(tournament: Tournament) -> str:
    """Why the lottery cannot be drawn now ("" when it can)."""
    if tournament.registration_mode != RegistrationMode.LOTTERY:
        return _("registration_mode: this event has no lottery.")
    if tournament.lottery_drawn_at is not None:
        return _("tournament: the lottery has already been drawn.")
    if not tournament.lottery_seed:
        # An event restored from an archive before its draw: the secret seed is not archived.
        return _(
            "registration_mode: this lottery has no seed (restored from an archive); save the event to choose one."
        )
    if tournament.status not in DRAW_STATUSES:
        return _("tournament: the lottery is drawn while registration is open or closed.")
    deadline = tournament.lottery_deadline
    if deadline is not None and timezone.now() < deadline:
        return _("lottery_deadline: entries are open until %(deadline)s; draw after it.") % {
            "deadline": deadline.isoformat()
        }
    return ""


def draw_consequences(tournament: Tournament) -> str:
    state = lottery_state(tournament)
    return _(
        "Drawing the lottery registers %(places)s of the %(entries)d entries and puts the "
        "others on the waitlist in draw order, and publishes the seed. It cannot be undone."
    ) % {"places": state.places if state.places is not None else _("all"), "entries": state.entries}


@atomic
def lottery_draw(*, actor: Any, tournament: Tournament, confirm: bool = False) -> LotteryState:
    """Draw the lottery: winners registered up to capacity, the rest waitlisted in draw
    order; the seed becomes public. Organisers, with ``confirm``; once."""
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    refusal = draw_refusal(tournament)
    if refusal:
        field = refusal.split(":", 1)[0]
        if tournament.lottery_drawn_at is not None:
            raise Conflict(refusal, field=field, code="already_drawn")
        raise ServiceError(refusal, field=field, code="cannot_draw")
    if not confirm:
        raise ServiceError(
            _("confirm: %(what)s Confirm to go on.") % {"what": draw_consequences(tournament)},
            field="confirm",
            code="confirmation_required",
        )
    entries = list(
        for_update(Registration.objects)
        .filter(tournament=tournament, status=RegistrationStatus.ENTERED)
        .order_by("id")
    )
    capacity = tournament.capacity or 0
    places = max(0, capacity - registered_count(tournament))
    result = lottery.draw([r.pk for r in entries], tournament.lottery_seed, places)
    by_id = {r.pk: r for r in entries}
    now = timezone.now()
    winners = set(result.winners)
    for position, pk in enumerate(result.order, start=1):
        registration = by_id[pk]
        registration.draw_position = position
        if pk in winners:
            registration.status = RegistrationStatus.REGISTERED
            registration.queued_at = None
        else:
            registration.status = RegistrationStatus.WAITLISTED
            registration.queued_at = now
    Registration.objects.bulk_update(entries, ["draw_position", "status", "queued_at"])
    tournament.lottery_drawn_at = now
    tournament.save(update_fields=["lottery_drawn_at", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="lottery.drawn",
        target=tournament,
        **result.to_json(tournament.lottery_seed),
        entries=[r.pk for r in entries],
    )
    for pk in result.order:
        registration = by_id[pk]
        audit(
            tournament=tournament,
            actor=actor,
            action="registration.drawn",
            registration=registration,
            position=registration.draw_position,
            status=registration.status,
        )
    return lottery_state(tournament)


# --- entry fees ------------------------------------------------------------------------------


@atomic
def fee_set(*, actor: Any, registration: Registration, status: str, note: str = "") -> FeeChange:
    """An organiser records a registration's entry-fee status (history kept, audited)."""
    tournament = event_locked(registration.tournament)
    registration = for_update(Registration.objects).get(pk=registration.pk)
    registration.tournament = tournament
    permissions.require_organiser(actor, tournament)
    if status not in FeeStatus.values:
        raise ServiceError(
            _("status: one of %(choices)s.") % {"choices": ", ".join(FeeStatus.values)},
            field="status",
        )
    note = " ".join((note or "").split())
    if len(note) > 200:
        raise ServiceError(_("note: at most 200 characters."), field="note")
    was = registration.fee_status
    if was == status:
        raise ServiceError(
            _("status: the entry fee is already %(status)s.") % {"status": status},
            field="status",
            code="unchanged",
        )
    registration.fee_status = status
    registration.save(update_fields=["fee_status", "updated_at"])
    change = FeeChange.objects.create(
        registration=registration, was=was, status=status, note=note, actor=actor
    )
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.fee",
        registration=registration,
        was=was,
        status=status,
        note=note,
    )
    return change


def fee_history(registration: Registration) -> QuerySet[FeeChange]:
    """Every change of the registration's entry-fee status, newest first."""
    return registration.fee_changes.select_related("actor").order_by("-created_at", "-id")
