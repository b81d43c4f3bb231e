"""The round timer (start, pause, resume, add time) and extensions for one match."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from config.transactions import atomic
from matches.models import (
    Match,
    Round,
    RoundStatus,
)
from matches.services.locks import _lock_match, _lock_round, _round_shown_changed
from tournaments import permissions
from tournaments.audit import audit
from tournaments.timer import RoundTimer, TimerError

MAX_EXTENSION_MINUTES = 60


MAX_ADDED_MINUTES = 240


TIMER_ACTIONS = ("start", "pause", "resume", "add")


@atomic
def round_timer(*, actor: Any, round_: Round, action: str, minutes: int = 0) -> Round:
    """Start, pause, resume, or add minutes to the whole round (staff)."""
    round_ = _lock_round(round_)
    permissions.require_staff(actor, round_.tournament)
    if action not in TIMER_ACTIONS:
        raise ServiceError(
            _("action: one of %(actions)s.") % {"actions": ", ".join(TIMER_ACTIONS)},
            field="action",
        )
    if round_.status not in (RoundStatus.PUBLISHED, RoundStatus.PAIRED):
        raise Conflict(_("round: only a current round has a running timer."), field="round")
    timer = RoundTimer.from_json(round_.timer)
    now = timezone.now()
    try:
        if action in ("start", "resume"):
            timer = timer.start(now)
        elif action == "pause":
            timer = timer.pause(now)
        else:
            if not -MAX_ADDED_MINUTES <= minutes <= MAX_ADDED_MINUTES or minutes == 0:
                raise ServiceError(
                    _("minutes: between -%(max)d and %(max)d, not 0.") % {"max": MAX_ADDED_MINUTES},
                    field="minutes",
                )
            timer = timer.add(timedelta(minutes=minutes))
    except TimerError as exc:
        raise ServiceError(
            exc.message, field=exc.field if exc.field != "timer" else "action", code="timer"
        ) from None
    round_.timer = timer.to_json()
    round_.save(update_fields=["timer"])
    _round_shown_changed(round_)
    audit(
        tournament=round_.tournament,
        actor=actor,
        action=f"round.timer_{action}",
        target=round_,
        round=round_.number,
        minutes=minutes,
    )
    return round_


@atomic
def match_extend(*, actor: Any, match: Match, minutes: int) -> Match:
    """A judge gives one table extra time (replaces its extension)."""
    round_ = _lock_round(match.round)
    permissions.require_staff(actor, round_.tournament)
    if not 0 <= minutes <= MAX_EXTENSION_MINUTES:
        raise ServiceError(
            _("minutes: from 0 to %(max)d.") % {"max": MAX_EXTENSION_MINUTES}, field="minutes"
        )
    match = _lock_match(match)
    was = match.extension_minutes
    match.extension_minutes = minutes
    match.save(update_fields=["extension_minutes", "updated_at"])
    _round_shown_changed(round_)
    audit(
        tournament=round_.tournament,
        actor=actor,
        action="match.extension",
        target=match,
        round=round_.number,
        table=match.table,
        minutes=minutes,
        was=was,
    )
    return match
