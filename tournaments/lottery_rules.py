"""What a registration lottery means for an event's settings and its registrations: the
seed chosen (and its commitment shown) with the lottery, entries instead of places until the
draw, no entries after the deadline, no change of mode or deadline once drawn. The draw itself
is the pure ``tournaments.lottery``; the organiser's action is ``tournaments.capacity``."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from tournaments import lottery
from tournaments.models import RegistrationMode, RegistrationStatus, Tournament


def lottery_collects_entries(tournament: Tournament) -> bool:
    """A lottery event before its draw: registrations are entries."""
    return (
        tournament.registration_mode == RegistrationMode.LOTTERY
        and tournament.lottery_drawn_at is None
    )


def commit_lottery_seed(tournament: Tournament) -> None:
    """A lottery's seed is chosen, and its commitment shown, as soon as the lottery is."""
    if tournament.registration_mode == RegistrationMode.LOTTERY and not tournament.lottery_seed:
        tournament.lottery_seed = lottery.new_seed()
        tournament.lottery_commitment = lottery.commitment(tournament.lottery_seed)


def check_lottery_may_change(tournament: Tournament, field: str) -> None:
    """``registration_mode`` and ``lottery_deadline`` are fixed once drawn (409); the mode
    also once anyone has entered."""
    if tournament.lottery_drawn_at is not None:
        raise Conflict(
            _("%(field)s: the lottery has been drawn; it can no longer change.") % {"field": field},
            field=field,
        )
    if (
        field == "registration_mode"
        and tournament.registrations.filter(status=RegistrationStatus.ENTERED).exists()
    ):
        raise Conflict(
            _("%(field)s: players have entered the lottery; draw it instead.") % {"field": field},
            field=field,
        )


def entries_closed(tournament: Tournament) -> bool:
    """A lottery past its deadline and not drawn yet: nobody may enter, the draw is next."""
    deadline = tournament.lottery_deadline
    return (
        lottery_collects_entries(tournament) and deadline is not None and timezone.now() >= deadline
    )


def require_lottery_open(tournament: Tournament) -> None:
    """After the deadline and before the draw, nobody enters."""
    deadline = tournament.lottery_deadline
    if entries_closed(tournament) and deadline is not None:
        raise ServiceError(
            _("tournament: the lottery's entries closed at %(deadline)s; the draw comes next.")
            % {"deadline": deadline.isoformat()},
            field="tournament",
            code="lottery_closed",
        )
