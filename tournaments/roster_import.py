"""Bulk player import: an organiser adds many players at once from a roster CSV.

The one service behind the organiser's import page and `POST
/api/events/{slug}/registrations/import/`. A preview (`dry_run`) names every row's problem
(row, column, reason) and saves nothing; an import with any problem saves nothing either (all
or nothing). Accounts are matched by e-mail or player id, never created or duplicated: a row
that matches no account is a walk-in (with a claim code, as one added at the desk), a row whose
e-mail and player id name two different accounts is a problem, and a player already in the
event is left as they are. A decklist in the row goes through the same deck service as a
player's own submission (tournaments.extensions.Decklists): a list that cannot be read is the
row's problem, a readable list that breaks the format is saved marked illegal, with a warning.

Players are imported while the event takes walk-ins (registration open or closed, or running);
more new players than places left is a problem unless the organiser confirms going over
capacity, as for a walk-in.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from accounts import names
from accounts.player_ids import normalise_player_id
from config.errors import ServiceError
from config.transactions import atomic
from tournaments import permissions
from tournaments.audit import audit
from tournaments.extensions import decklists
from tournaments.models import ACTIVE_STATUSES, Registration, RegistrationStatus, Tournament
from tournaments.roster_csv import Roster, RosterRow, RowProblem, read_roster
from tournaments.services import event_locked, has_room, new_claim_code, registered_count
from tournaments.status import players_refusal

REGISTER = "register"  # an account joins the event
WALK_IN = "walk_in"  # a person without an account joins, with a claim code
SKIP = "skip"  # already in the event: left as they are


@dataclass
class ImportRow:
    """One roster row as the import reads it: what it would do, and why it cannot."""

    row: int
    name: str
    email: str
    player_id: str
    action: str = ""
    account: Any = None
    decklist: str = ""
    decklist_legal: bool | None = None
    problems: list[RowProblem] = dataclass_field(default_factory=list)
    warnings: list[RowProblem] = dataclass_field(default_factory=list)
    registration: Registration | None = None

    @property
    def shown_name(self) -> str:
        return str(self.account.public_name) if self.account is not None else self.name

    def to_dict(self) -> dict[str, object]:
        return {
            "row": self.row,
            "name": self.shown_name,
            "email": self.email,
            "player_id": self.account.player_id if self.account is not None else self.player_id,
            "action": self.action,
            "account": self.account is not None,
            "decklist": bool(self.decklist),
            "decklist_legal": self.decklist_legal,
            "registration": self.registration.pk if self.registration is not None else None,
            "claim_code": self.registration.claim_code if self.registration is not None else None,
            "problems": [p.to_dict() for p in self.problems],
            "warnings": [w.to_dict() for w in self.warnings],
        }


@dataclass
class ImportPreview:
    rows: list[ImportRow]
    problems: list[RowProblem]
    places_left: int | None
    saved: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems and not any(r.problems for r in self.rows)

    @property
    def all_problems(self) -> list[RowProblem]:
        return [*self.problems, *(p for r in self.rows for p in r.problems)]

    def counts(self) -> dict[str, int]:
        return {
            "rows": len(self.rows),
            "accounts": sum(1 for r in self.rows if r.action == REGISTER),
            "walk_ins": sum(1 for r in self.rows if r.action == WALK_IN),
            "skipped": sum(1 for r in self.rows if r.action == SKIP),
            "decklists": sum(1 for r in self.rows if r.decklist and r.action != SKIP),
            "problems": len(self.all_problems),
        }

    def to_dict(self) -> dict[str, object]:
        return {
            "saved": self.saved,
            "ok": self.ok,
            "counts": self.counts(),
            "places_left": self.places_left,
            "problems": [p.to_dict() for p in self.problems],
            "rows": [r.to_dict() for r in self.rows],
        }


class RosterImportRefused(ServiceError):
    """The import has problems, so nothing was saved; the preview names each one."""

    def __init__(self, preview: ImportPreview) -> None:
        first = preview.all_problems[0]
        super().__init__(
            _("rows: nothing was imported; row %(row)d, %(column)s: %(reason)s")
            % {"row": first.row, "column": first.column, "reason": first.reason},
            field="rows",
            code="import_refused",
        )
        self.preview = preview

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "preview": self.preview.to_dict()}


@atomic
def registrations_import(
    *,
    actor: Any,
    tournament: Tournament,
    data: str | bytes,
    dry_run: bool,
    over_capacity: bool = False,
) -> ImportPreview:
    """Preview (dry_run) or import a roster; raises RosterImportRefused (nothing saved) when
    any row or the file has a problem."""
    # The event's lock first, as a walk-in takes it: places left and "already registered"
    # cannot change between the check and the import.
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    roster = read_roster(data)
    preview = _preview(tournament, roster, over_capacity=over_capacity)
    if dry_run:
        return preview
    if not preview.ok:
        raise RosterImportRefused(preview)
    _save(actor, tournament, preview, over_capacity=over_capacity)
    preview.saved = True
    return preview


def _preview(tournament: Tournament, roster: Roster, *, over_capacity: bool) -> ImportPreview:
    problems = [p.translated(_) for p in roster.problems]
    refusal = players_refusal(tournament.status)
    if refusal is not None:
        problems.append(
            RowProblem(
                0,
                "event",
                _("players are imported only while the event takes players. %(why)s")
                % {"why": refusal.render(_)},
            )
        )
    rows = [
        ImportRow(
            r.row,
            r.name,
            r.email,
            r.player_id,
            decklist=r.decklist,
            problems=[p.translated(_) for p in r.problems],
        )
        for r in roster.rows
    ]
    _match_accounts(rows, roster.rows)
    _match_registrations(tournament, rows)
    _check_decklists(tournament, rows)
    joining = sum(1 for r in rows if r.action in (REGISTER, WALK_IN) and not r.problems)
    places = (
        None
        if tournament.capacity is None
        else max(tournament.capacity - registered_count(tournament), 0)
    )
    if places is not None and joining > places and not over_capacity:
        problems.append(
            RowProblem(
                0,
                "capacity",
                _(
                    "%(n)d new players but %(places)d places left; remove rows, raise the "
                    "capacity or confirm going over capacity"
                )
                % {"n": joining, "places": places},
            )
        )
    return ImportPreview(rows=rows, problems=problems, places_left=places)


def _match_accounts(rows: list[ImportRow], source: tuple[RosterRow, ...]) -> None:
    """Find each row's account by e-mail and by player id (two queries for the file)."""
    user_model = get_user_model()
    emails = {r.email.lower() for r in rows if r.email}
    ids = {normalise_player_id(r.player_id) for r in rows if r.player_id}
    by_email: dict[str, list[Any]] = {}
    for user in user_model.objects.annotate(email_key=Lower("email")).filter(
        email_key__in=emails, is_active=True
    ):
        by_email.setdefault(user.email_key, []).append(user)
    by_id = {u.player_id: u for u in user_model.objects.filter(player_id__in=ids, is_active=True)}
    for row in rows:
        from_email = from_id = None
        if row.email:
            try:
                validate_email(row.email)
            except ValidationError:
                row.problems.append(RowProblem(row.row, "email", _("not an e-mail address")))
            found = by_email.get(row.email.lower(), [])
            if len(found) > 1:
                row.problems.append(
                    RowProblem(
                        row.row,
                        "email",
                        _("several accounts have this e-mail; give the player id instead"),
                    )
                )
            elif found:
                from_email = found[0]
        if row.player_id:
            from_id = by_id.get(normalise_player_id(row.player_id))
            if from_id is None:
                row.problems.append(
                    RowProblem(
                        row.row,
                        "player_id",
                        _(
                            "no account has this player id; leave it empty to add the "
                            "player as a walk-in"
                        ),
                    )
                )
        if from_email is not None and from_id is not None and from_email.pk != from_id.pk:
            row.problems.append(
                RowProblem(
                    row.row,
                    "player_id",
                    _(
                        "the e-mail is the account of %(a)s but the player id is %(b)s's; "
                        "which one is it?"
                    )
                    % {"a": from_email.public_name, "b": from_id.public_name},
                )
            )
            continue
        row.account = from_email or from_id
        if row.name:
            codes = names.unsafe_characters(row.name)
            if codes:
                row.problems.append(
                    RowProblem(row.row, "name", _("the name holds characters a name may not"))
                )
        if row.account is None and not row.name:
            row.problems.append(
                RowProblem(row.row, "name", _("no account matches: a walk-in needs a name"))
            )
        if row.account is None and row.email and not row.problems:
            row.warnings.append(
                RowProblem(
                    row.row,
                    "email",
                    _("no account has this e-mail: added as a walk-in with a claim code"),
                )
            )


def _match_registrations(tournament: Tournament, rows: list[ImportRow]) -> None:
    """Who is in the event already (left as they are) and who is twice in the file."""
    existing = {
        r.player_id: r
        for r in Registration.objects.filter(
            tournament=tournament, player_id__in=[r.account.pk for r in rows if r.account]
        )
    }
    walk_ins = {
        " ".join(name.split()).casefold()
        for name in Registration.objects.filter(
            tournament=tournament, player__isnull=True, status__in=ACTIVE_STATUSES
        ).values_list("walk_in_name", flat=True)
    }
    seen: dict[object, int] = {}
    for row in rows:
        if row.problems:
            continue
        key: object = ("account", row.account.pk) if row.account else ("name", row.name.casefold())
        if key in seen:
            row.problems.append(
                RowProblem(row.row, "row", _("the same player as row %(n)d") % {"n": seen[key]})
            )
            continue
        seen[key] = row.row
        if row.account is None:
            row.action = WALK_IN
            if row.name.casefold() in walk_ins:
                row.action = SKIP
                row.warnings.append(
                    RowProblem(row.row, "name", _("a walk-in of this name is already in the event"))
                )
            continue
        registration = existing.get(row.account.pk)
        if registration is None:
            row.action = REGISTER
        elif registration.status in ACTIVE_STATUSES:
            row.action = SKIP
            row.warnings.append(
                RowProblem(
                    row.row,
                    "row",
                    _("already %(status)s: left as they are")
                    % {"status": registration.get_status_display().lower()},
                )
            )
        elif registration.status == RegistrationStatus.REMOVED:
            row.problems.append(
                RowProblem(
                    row.row,
                    "row",
                    _("an organiser removed this player; add them back from the players list"),
                )
            )
        else:
            row.problems.append(
                RowProblem(
                    row.row,
                    "row",
                    _("this player withdrew; reactivate them from the players list"),
                )
            )


def _check_decklists(tournament: Tournament, rows: list[ImportRow]) -> None:
    for row in rows:
        if not row.decklist or row.problems:
            continue
        if row.action == SKIP:
            row.warnings.append(
                RowProblem(
                    row.row,
                    "decklist",
                    _("not imported: the player is in the event; submit it from their decklist"),
                )
            )
            continue
        try:
            result = decklists().evaluate(tournament, row.decklist)
        except ServiceError as exc:
            row.problems.append(RowProblem(row.row, "decklist", exc.message))
            continue
        violations = result.report_json().get("violations") or []
        first = str(violations[0].get("message", "")) if violations else ""
        if not result.readable:
            row.problems.append(
                RowProblem(row.row, "decklist", _("the list cannot be read: %s") % first)
            )
        elif not result.legal:
            row.decklist_legal = False
            row.warnings.append(
                RowProblem(row.row, "decklist", _("saved, but not legal: %s") % first)
            )
        else:
            row.decklist_legal = True


def _save(
    actor: Any, tournament: Tournament, preview: ImportPreview, *, over_capacity: bool
) -> None:
    # The new registrations are this transaction's own rows (no other transaction sees them
    # before the commit), so each one's decklist after the next one's row cannot deadlock.
    for row in preview.rows:
        if row.action not in (REGISTER, WALK_IN):
            continue
        full = not has_room(tournament)
        registration = Registration.objects.create(
            tournament=tournament,
            player=row.account,
            walk_in_name="" if row.account is not None else row.name,
            claim_code=None if row.account is not None else new_claim_code(),
            status=RegistrationStatus.REGISTERED,
        )
        row.registration = registration
        audit(
            tournament=tournament,
            actor=actor,
            action="registration.imported",
            registration=registration,
            row=row.row,
            walk_in=row.account is None,
            over_capacity=full,
        )
        if row.decklist:
            row.decklist_legal = decklists().submit(
                actor=actor, registration=registration, source=row.decklist
            )
    audit(
        tournament=tournament,
        actor=actor,
        action="registrations.imported",
        over_capacity=over_capacity,
        counts=preview.counts(),
    )
