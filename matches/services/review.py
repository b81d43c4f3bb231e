"""The organiser's review of a paired round before it is published: checks, swaps, tables,
re-pairing, deleting, publishing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from config.locks import for_update
from config.transactions import atomic
from matches import notices
from matches.models import (
    Match,
    Round,
    RoundStage,
    RoundStatus,
)
from matches.services import stages
from matches.services import teams as team_services
from matches.services.locks import _bump_round, _lock_event, _lock_match, _lock_round
from matches.services.pairing import _versions_for_byes, round_pairing_run
from matches.services.round_end import _finish_round_if_done
from matches.services.timer import schedule_round_ending
from tournaments import permissions
from tournaments.audit import audit
from tournaments.models import (
    RegistrationStatus,
)
from tournaments.status import EventStatus
from tournaments.timer import RoundTimer


def _require_unpublished(round_: Round) -> None:
    if round_.status != RoundStatus.PAIRED:
        raise Conflict(
            _("Round %(n)d is %(status)s: only a paired, unpublished round can be changed.")
            % {"n": round_.number, "status": round_.get_status_display()},
            field="round",
            code="round_published",
        )


@dataclass(frozen=True)
class RoundCheck:
    ok: bool
    name: str
    detail: str


def round_checks(round_: Round) -> list[RoundCheck]:
    """What the organiser checks before publishing: nobody twice, nobody dropped, byes
    honoured, rematches."""
    matches = list(round_.matches.select_related("a", "b"))
    seen: dict[int, int] = {}
    twice = []
    dropped = []
    for m in matches:
        for reg in (m.a, m.b):
            if reg is None:
                continue
            if reg.pk in seen:
                twice.append(reg.name)
            seen[reg.pk] = m.pk
            if reg.dropped:
                dropped.append(reg.name)
    granted = [
        r
        for r in round_.tournament.registrations.filter(
            status=RegistrationStatus.REGISTERED, dropped_at__isnull=True
        )
        if round_.number in (r.bye_rounds or [])
    ]
    unhonoured = [
        r.name for r in granted if not any(m.a_id == r.pk and m.b_id is None for m in matches)
    ]
    rematches = [m for m in matches if "rematch:" in m.reason]
    checks = [
        RoundCheck(not twice, _("Nobody twice"), ", ".join(twice) or _("every player once")),
        RoundCheck(not dropped, _("Nobody dropped"), ", ".join(dropped) or _("no dropped player")),
        RoundCheck(
            not unhonoured,
            _("Byes honoured"),
            ", ".join(unhonoured)
            or (
                _("%(n)d granted byes given") % {"n": len(granted)}
                if granted
                else _("none granted")
            ),
        ),
    ]
    if round_.stage == RoundStage.SWISS:
        checks.append(
            RoundCheck(
                not rematches,
                _("No rematches"),
                ", ".join(f"{m.a.name} v {m.b.name if m.b else '-'}" for m in rematches)
                or _("no rematch"),
            )
        )
    return checks


@atomic
def round_swap(*, actor: Any, round_: Round, first: int, second: int) -> Round:
    """Swap two players' seats in an unpublished round (a bye moves with its seat)."""
    tournament = _lock_event(round_.tournament)
    permissions.require_organiser(actor, tournament)
    round_ = _lock_round(round_)
    _require_unpublished(round_)
    if first == second:
        raise ServiceError(_("second: choose two different players."), field="second")
    seats: dict[int, tuple[Match, str]] = {}
    for m in for_update(round_.matches.all()).order_by("id"):
        for side in ("a", "b"):
            reg_id = getattr(m, f"{side}_id")
            if reg_id in (first, second):
                seats[reg_id] = (m, side)
    for field, reg_id in (("first", first), ("second", second)):
        if reg_id not in seats:
            raise ServiceError(
                _("%(field)s: this player is not in round %(n)d.")
                % {"field": field, "n": round_.number},
                field=field,
            )
    (m1, s1), (m2, s2) = seats[first], seats[second]
    if m1.pk == m2.pk:
        raise ServiceError(_("second: these two already play each other."), field="second")
    # Move both out of the way first: (round, a) and (round, b) are unique.
    Match.objects.filter(pk__in=[m1.pk, m2.pk]).delete()
    setattr(m1, f"{s1}_id", second)
    setattr(m2, f"{s2}_id", first)
    for m in (m1, m2):
        m.pk = None
        m.reason = _("swapped by an organiser")
        if m.b_id is None:
            m.result_version = 0
        m.save()
        if m.b_id is None:
            _versions_for_byes([m])
    _bump_round(round_)
    audit(
        tournament=tournament,
        actor=actor,
        action="round.swapped",
        target=round_,
        round=round_.number,
        first=first,
        second=second,
    )
    return round_


@atomic
def round_set_table(*, actor: Any, match: Match, table: int) -> Match:
    """Move a match to a table; the match already there takes this one's table."""
    round_ = match.round
    tournament = _lock_event(round_.tournament)
    permissions.require_organiser(actor, tournament)
    round_ = _lock_round(round_)
    _require_unpublished(round_)
    if table < 1 or table > 100_000:
        raise ServiceError(_("table: a table number from 1."), field="table")
    match = _lock_match(match)
    if match.b_id is None:
        raise ServiceError(_("table: a bye has no table."), field="table")
    other = for_update(round_.matches.filter(table=table)).exclude(pk=match.pk).first()
    old = match.table
    if other is not None:
        other.table = None
        other.save(update_fields=["table"])
    match.table = table
    match.save(update_fields=["table"])
    if other is not None:
        other.table = old
        other.save(update_fields=["table"])
    _bump_round(round_)
    audit(
        tournament=tournament,
        actor=actor,
        action="round.table_set",
        target=match,
        round=round_.number,
        table=table,
        was=old,
    )
    return match


def round_repair(*, actor: Any, round_: Round) -> Round:
    """Throw away an unpublished round's pairings and pair it again with a fresh draw."""
    with transaction.atomic():
        tournament = _lock_event(round_.tournament)
        permissions.require_organiser(actor, tournament)
        round_ = _lock_round(round_)
        if round_.status not in (RoundStatus.PAIRED, RoundStatus.PAIRING):
            _require_unpublished(round_)
        round_.matches.all().delete()
        round_.team_matches.all().delete()  # a team round's team matches and line-ups
        round_.status = RoundStatus.PAIRING
        round_.seed = f"{tournament.pairing_seed}:{round_.number}:{secrets.token_hex(4)}"
        round_.save(update_fields=["status", "seed"])
        audit(
            tournament=tournament,
            actor=actor,
            action="round.repaired",
            target=round_,
            round=round_.number,
        )
    round_pairing_run(round_id=round_.pk)
    _bump_round(round_)
    round_.refresh_from_db()
    return round_


@atomic
def round_delete(*, actor: Any, round_: Round, confirm: bool = False) -> None:
    """Delete an unpublished round (its pairings are lost). Needs an explicit confirmation."""
    tournament = _lock_event(round_.tournament)
    permissions.require_organiser(actor, tournament)
    round_ = _lock_round(round_)
    if round_.status not in (RoundStatus.PAIRED, RoundStatus.PAIRING):
        _require_unpublished(round_)
    if not confirm:
        raise ServiceError(
            _("confirm: deleting round %(n)d throws away its %(count)d pairings; confirm to go on.")
            % {"n": round_.number, "count": round_.matches.count()},
            field="confirm",
            code="confirmation_required",
        )
    number = round_.number
    count = round_.matches.count()
    round_.delete()
    if (
        round_.stage == RoundStage.TOP_CUT
        and not tournament.rounds.filter(stage=RoundStage.TOP_CUT).exists()
    ):
        # The whole bracket is gone: back to the Swiss part.
        tournament.status = EventStatus.RUNNING
        tournament.save(update_fields=["status", "updated_at"])
        rows = list(tournament.stages.order_by("number"))
        if rows and stages.is_legacy(tournament, rows):
            # The legacy top cut's stage had started with its bracket: it waits again, and
            # the Swiss it closed is open again (the organiser may pair more, or cut again).
            cut = rows[round_.stage_number - 1]
            cut.started_at, cut.players = None, None
            cut.save(update_fields=["started_at", "players"])
            for source in cut.to_rule().sources:
                rows[source - 1].finished_at = None
                rows[source - 1].save(update_fields=["finished_at"])
            audit(tournament=tournament, actor=actor, action="stage.reopened", target=cut)
    audit(tournament=tournament, actor=actor, action="round.deleted", round=number, matches=count)


@atomic
def round_publish(*, actor: Any, round_: Round) -> Round:
    tournament = _lock_event(round_.tournament)
    permissions.require_organiser(actor, tournament)
    round_ = _lock_round(round_)
    if round_.status in (RoundStatus.PUBLISHED, RoundStatus.FINISHED):
        return round_  # publishing twice changes nothing
    if round_.status != RoundStatus.PAIRED:
        raise Conflict(_("round: the round is still being paired."), field="round")
    if tournament.is_team_event:
        team_services.publish_team_boards(round_)
    now = timezone.now()
    round_.status = RoundStatus.PUBLISHED
    round_.published_at = now
    fields = ["status", "published_at"]
    if tournament.start_timer_on_publish:
        timer = RoundTimer.from_json(round_.timer)
        if timer.state == "not_started":
            round_.timer = timer.start(now).to_json()
            fields.append("timer")
    round_.save(update_fields=fields)
    _bump_round(round_)
    audit(
        tournament=tournament,
        actor=actor,
        action="round.published",
        target=round_,
        round=round_.number,
    )
    notices.notify_pairings_published(round_)
    schedule_round_ending(round_)
    _finish_round_if_done(round_)
    return round_
