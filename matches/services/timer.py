"""The round timer (start, pause, resume, add time) and extensions for one match, and its
warning to the players when ``WARN_BEFORE_END`` is left (``round_ending_due``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from config.outbox import send_after_commit
from config.transactions import atomic
from matches import notices
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
    schedule_round_ending(round_)
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


# The players of unfinished matches are told (by push, or as the event chose) this long
# before the round's end.
WARN_BEFORE_END = timedelta(minutes=5)
# Sent by name (matches.tasks.round_ending_task), since matches.tasks imports these services.
ROUND_ENDING_TASK = "matches.round_ending"
# A warning task that runs this early (a clock a little ahead) still warns.
WARN_EARLY_TOLERANCE = timedelta(seconds=2)


def schedule_round_ending(round_: Round) -> None:
    """After the commit, a task that warns when WARN_BEFORE_END is left of a published round
    whose timer runs; it waits for its moment (matches.tasks). Each change of the timer sends
    a new one; the older finds the end time changed and does nothing."""
    timer = RoundTimer.from_json(round_.timer)
    if round_.status != RoundStatus.PUBLISHED or timer.ends_at is None:
        return
    send_after_commit(ROUND_ENDING_TASK, round_.pk, timer.ends_at.isoformat())


def round_ending_due(
    *, round_id: int, ends_at: str, now: datetime | None = None
) -> tuple[str, float]:
    """The round-ending task's check: ("sent", 0) when it warned (or had, for this end time),
    ("wait", seconds) when too early, ("stale", 0) when the timer changed or the round is over
    or no longer published. Idempotent: the warning of one end time is queued once."""
    now = now or timezone.now()
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None or round_.status != RoundStatus.PUBLISHED:
        return "stale", 0.0
    timer = RoundTimer.from_json(round_.timer)
    if timer.ends_at is None or timer.ends_at.isoformat() != ends_at:
        return "stale", 0.0
    left = timer.ends_at - now
    if left <= timedelta():
        return "stale", 0.0
    if left > WARN_BEFORE_END + WARN_EARLY_TOLERANCE:
        return "wait", (left - WARN_BEFORE_END).total_seconds()
    minutes = max(1, round(left.total_seconds() / 60))
    with transaction.atomic():
        notices.notify_round_ending(round_, timer.ends_at, minutes)
    return "sent", 0.0


def round_endings_due(now: datetime | None = None) -> int:
    """Celery beat's net under the scheduled tasks (a lost task, a worker restarted): every
    published round whose timer runs and is within WARN_BEFORE_END of its end is warned (once:
    the warning's keys are unique). How many rounds were in the window."""
    now = now or timezone.now()
    count = 0
    rounds = Round.objects.filter(
        status=RoundStatus.PUBLISHED, timer__has_key="activations"
    ).values_list("pk", "timer")
    for pk, data in rounds:
        ends_at = RoundTimer.from_json(data).ends_at
        if ends_at is None or not timedelta() < ends_at - now <= WARN_BEFORE_END:
            continue
        status, _wait = round_ending_due(round_id=pk, ends_at=ends_at.isoformat(), now=now)
        count += status == "sent"
    return count
