"""Check-in: one player, several at once (the desk), or by a scanned player id or claim
code, and the desk's search."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.player_ids import normalise_player_id
from config.errors import Forbidden, ServiceError
from config.locks import for_update
from config.transactions import atomic
from tournaments import permissions
from tournaments.audit import audit
from tournaments.extensions import decklists
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.services.locks import event_locked, locked_registration
from tournaments.status import ON_THE_DAY


@atomic
def registration_check_in(
    *, actor: Any, registration: Registration, checked_in: bool = True
) -> Registration:
    """Organisers (and judges, when allowed) check anyone in or out; players check
    themselves in once it is opened."""
    tournament, registration = locked_registration(registration)
    return check_in_locked(actor, tournament, registration, checked_in)


def check_in_locked(
    actor: Any, tournament: Tournament, registration: Registration, checked_in: bool
) -> Registration:
    """The caller holds the event and registration locks."""
    if not permissions.can_run_check_in(actor, tournament):
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
    if (
        checked_in
        and tournament.require_legal_decklist
        and not decklists().has_legal_decklist(registration)
    ):
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


MAX_BULK_CHECK_IN = 200


@dataclass(frozen=True)
class BulkCheckIn:
    checked_in: list[Registration]
    skipped: list[tuple[Registration, str]]


@atomic
def registrations_check_in(
    *, actor: Any, tournament: Tournament, registration_ids: Sequence[int]
) -> BulkCheckIn:
    """Check several players in at once (the desk's "check in selected"). Who cannot be
    checked in (waitlisted, no legal decklist, ...) is skipped with the reason; the others
    are checked in, all in one transaction."""
    ids = sorted({int(i) for i in registration_ids})
    if not ids:
        raise ServiceError(_("registrations: choose at least one player."), field="registrations")
    if len(ids) > MAX_BULK_CHECK_IN:
        raise ServiceError(
            _("registrations: at most %(n)d at a time.") % {"n": MAX_BULK_CHECK_IN},
            field="registrations",
        )
    tournament = event_locked(tournament)
    if not permissions.can_run_check_in(actor, tournament):
        raise Forbidden(_("Only this event's organisers (and judges, when allowed) check in."))
    locked = list(
        for_update(tournament.registrations.all())
        .select_related("player")
        .filter(pk__in=ids)
        .order_by("id")
    )
    if len(locked) != len(ids):
        raise ServiceError(
            _("registrations: not all of these are registrations of this event."),
            field="registrations",
        )
    done: list[Registration] = []
    skipped: list[tuple[Registration, str]] = []
    for registration in locked:
        registration.tournament = tournament
        if registration.checked_in:
            continue
        try:
            with transaction.atomic():
                done.append(check_in_locked(actor, tournament, registration, True))
        except ServiceError as exc:
            skipped.append((registration, exc.message))
    return BulkCheckIn(checked_in=done, skipped=skipped)


def desk_search(tournament: Tournament, query: str) -> QuerySet[Registration]:
    """The check-in desk's search: a name (any part), a player id (as people type it), or a
    table number of the event's latest round."""
    registrations = tournament.registrations.order_by("player__display_name", "walk_in_name", "id")
    query = query.strip()
    if not query:
        return registrations
    match = (
        Q(player__display_name__icontains=query)
        | Q(player__username__icontains=query)
        | Q(walk_in_name__icontains=query)
        | Q(player__player_id=normalise_player_id(query))
    )
    if query.isdigit() and len(query) <= 5:
        latest = tournament.rounds.order_by("-number").values_list("pk", flat=True).first()
        if latest is not None:
            at_table = Q(matches_as_a__round_id=latest, matches_as_a__table=int(query)) | Q(
                matches_as_b__round_id=latest, matches_as_b__table=int(query)
            )
            match |= at_table
    return registrations.filter(match).distinct()


def player_id_candidates(code: str) -> set[str]:
    """The player ids a scanned or typed code may name (as people type them, or inside a QR
    code's text); empty for a blank code."""
    text = (code or "").strip()[:200]
    if not text:
        return set()
    candidates = {normalise_player_id(part) for part in re.split(r"[\s/:=?&#]+", text) if part}
    candidates.add(normalise_player_id(text))
    return candidates


def find_for_check_in(tournament: Tournament, code: str) -> Registration | None:
    """The registration a scanned or typed code names: a player id (as people type it, or
    inside a QR code's text) or a walk-in's claim code; None when it names nobody here."""
    text = (code or "").strip()[:200]
    if not text:
        return None
    candidates = player_id_candidates(text)
    registrations = tournament.registrations.select_related("player")
    found = registrations.filter(player__player_id__in=candidates).first()
    if found is None:
        found = registrations.filter(claim_code__in={text.upper(), text}).first()
    return found


@atomic
def registration_check_in_by_code(*, actor: Any, tournament: Tournament, code: str) -> Registration:
    """The check-in desk's scanner: a player's id or QR code checks them in."""
    registration = find_for_check_in(tournament, code)
    if registration is None:
        if not permissions.can_run_check_in(actor, tournament):
            raise Forbidden(_("Only this event's organisers (and judges, when allowed) check in."))
        raise ServiceError(
            _("code: nobody in this event has the player id or claim code %(code)s.")
            % {"code": (code or "").strip()[:40]},
            field="code",
            code="unknown_code",
        )
    tournament, registration = locked_registration(registration)
    return check_in_locked(actor, tournament, registration, True)
