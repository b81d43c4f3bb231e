"""Judge calls: opening or joining one, claiming, handing back, escalating, notes, and settling
the calls a result change answers.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config import shared_copies
from config.errors import Conflict, Forbidden, NotFound, ServiceError
from config.locks import for_update
from matches import notices
from matches.models import (
    OPEN_CALL_STATUSES,
    CallKind,
    CallStatus,
    JudgeCall,
    Match,
    MatchStatus,
    ResultChange,
)
from matches.selectors import QUEUE_COPIES, judged_events
from matches.services.locks import _lock_call, _lock_for_result, _lock_match, _match_result
from matches.services.result_checks import acting_side, games_text
from tournaments import permissions
from tournaments.audit import audit
from tournaments.models import (
    Tournament,
)

MAX_QUESTION = 500


def _queue_changed(call: JudgeCall, actor: Any) -> None:
    """The judges' queue is one rendered copy per version of each event's calls, shared by
    every judge (matches.judge_views): this call changed."""
    actor_id = actor.pk if permissions.is_authenticated(actor) else None
    shared_copies.changed(QUEUE_COPIES, call.tournament_id, actor_id)


def _open_or_join_call(
    match: Match, *, kind: str, actor: Any, question: str
) -> tuple[JudgeCall, bool]:
    """Open a call on the match, or join the one already open (its question goes to the
    notes). The caller holds the match lock, so two callers cannot both open one."""
    existing = (
        for_update(JudgeCall.objects).filter(match=match, status__in=OPEN_CALL_STATUSES).first()
    )
    who = actor.public_name if permissions.is_authenticated(actor) else _("the site")
    if existing is not None:
        if question:
            existing.notes = (
                existing.notes + "\n" if existing.notes else ""
            ) + f"{who}: {question}"
        if kind == CallKind.DISPUTE and existing.kind != CallKind.DISPUTE:
            existing.kind = CallKind.DISPUTE
        existing.save(update_fields=["notes", "kind"])
        _queue_changed(existing, actor)
        return existing, False
    call = JudgeCall.objects.create(
        tournament_id=match.round.tournament_id,
        match=match,
        kind=kind,
        question=question,
        opened_by=actor if permissions.is_authenticated(actor) else None,
    )
    _queue_changed(call, actor)
    audit(
        tournament=match.round.tournament,
        actor=actor,
        action=f"call.opened_{kind}",
        target=call,
        round=match.round.number,
        table=match.table,
        question=question,
    )
    return call, True


def call_open(*, actor: Any, match: Match, question: str = "") -> tuple[JudgeCall, bool]:
    """A player of the match or staff calls a judge; (the call, whether it is new)."""
    question = " ".join((question or "").split())
    if len(question) > MAX_QUESTION:
        raise ServiceError(
            _("question: at most %(n)d characters.") % {"n": MAX_QUESTION}, field="question"
        )
    with transaction.atomic():
        # The match lock alone keeps one open call per match; a call changes no result, so it
        # does not queue behind the round's results (as _lock_for_result would make it).
        match = _lock_match(match)
        round_ = match.round
        tournament = round_.tournament
        is_staff = permissions.is_staff_of(actor, tournament)
        if acting_side(actor, match) is None and not is_staff:
            raise Forbidden(_("Only the players of this match and the event's staff may call."))
        if not round_.is_visible_to_players and not is_staff:
            raise NotFound(_("match: no such match."), field="match")
        return _open_or_join_call(match, kind=CallKind.CALL, actor=actor, question=question)


def call_claim(*, actor: Any, call: JudgeCall) -> JudgeCall:
    """Exactly one judge holds a call; claiming what you already hold changes nothing."""
    with transaction.atomic():
        call = _lock_call(call)
        permissions.require_staff(actor, call.tournament)
        if call.status == CallStatus.RESOLVED:
            raise Conflict(_("call: this call is resolved."), field="call", code="resolved")
        if call.holder_id == actor.pk:
            return call
        if call.holder_id is not None:
            raise Conflict(
                _("call: %(name)s holds this call.") % {"name": call.holder.public_name},
                field="call",
                code="held",
            )
        call.holder = actor
        call.status = CallStatus.CLAIMED
        call.claimed_at = timezone.now()
        call.save(update_fields=["holder", "status", "claimed_at"])
        _queue_changed(call, actor)
        audit(tournament=call.tournament, actor=actor, action="call.claimed", target=call)
        return call


def call_claim_next(*, actor: Any, event: Tournament | None = None) -> JudgeCall | None:
    """Claim the call that has waited longest and nobody holds, in the events this judge
    judges today. Rows another judge is claiming right now are skipped (SKIP LOCKED), so
    twenty judges pressing "next" at once get twenty different calls, never a conflict."""
    events = judged_events(actor)
    if event is not None:
        permissions.require_staff(actor, event)
        events = events.filter(pk=event.pk)
    with transaction.atomic():
        call = (
            for_update(JudgeCall.objects, skip_locked=True)
            .filter(
                tournament__in=events.values("pk"),
                status=CallStatus.OPEN,
                holder__isnull=True,
            )
            .select_related("tournament")
            .order_by("opened_at", "id")
            .first()
        )
        if call is None:
            return None
        call.holder = actor
        call.status = CallStatus.CLAIMED
        call.claimed_at = timezone.now()
        call.save(update_fields=["holder", "status", "claimed_at"])
        _queue_changed(call, actor)
        audit(tournament=call.tournament, actor=actor, action="call.claimed", target=call)
        return call


def call_hand_back(*, actor: Any, call: JudgeCall) -> JudgeCall:
    """The holder (or an organiser) puts the call back in the queue for any judge."""
    with transaction.atomic():
        call = _lock_call(call)
        permissions.require_staff(actor, call.tournament)
        if call.status != CallStatus.CLAIMED:
            raise Conflict(_("call: nobody holds this call."), field="call")
        if call.holder_id != actor.pk and not permissions.is_organiser_of(actor, call.tournament):
            raise Conflict(_("call: only its holder can hand it back."), field="call", code="held")
        call.holder = None
        call.status = CallStatus.OPEN
        call.save(update_fields=["holder", "status"])
        _queue_changed(call, actor)
        audit(tournament=call.tournament, actor=actor, action="call.handed_back", target=call)
        return call


def call_escalate(*, actor: Any, call: JudgeCall, note: str = "") -> JudgeCall:
    """Send the call to the event's head judge (who then holds it), with a note."""
    note = " ".join((note or "").split())[:MAX_QUESTION]
    with transaction.atomic():
        call = _lock_call(call)
        permissions.require_staff(actor, call.tournament)
        if call.status == CallStatus.RESOLVED:
            raise Conflict(_("call: this call is resolved."), field="call", code="resolved")
        head = call.tournament.head_judge
        call.escalated = True
        if head is not None:
            call.holder = head
            call.status = CallStatus.CLAIMED
            call.claimed_at = timezone.now()
        if note:
            call.notes = (call.notes + "\n" if call.notes else "") + f"{actor.public_name}: {note}"
        call.save(update_fields=["escalated", "holder", "status", "claimed_at", "notes"])
        _queue_changed(call, actor)
        audit(
            tournament=call.tournament,
            actor=actor,
            action="call.escalated",
            target=call,
            note=note,
            head_judge=head.public_name if head else "",
        )
        return call


def call_add_note(*, actor: Any, call: JudgeCall, text: str) -> JudgeCall:
    """A judge's note on a call (what they saw, who they asked), kept with the call."""
    text = " ".join((text or "").split())
    if not text:
        raise ServiceError(_("note: write the note."), field="note")
    if len(text) > MAX_QUESTION:
        raise ServiceError(_("note: at most %(n)d characters.") % {"n": MAX_QUESTION}, field="note")
    with transaction.atomic():
        call = _lock_call(call)
        permissions.require_staff(actor, call.tournament)
        call.notes = (call.notes + "\n" if call.notes else "") + f"{actor.public_name}: {text}"
        call.save(update_fields=["notes"])
        _queue_changed(call, actor)
        audit(tournament=call.tournament, actor=actor, action="call.note", target=call, note=text)
        return call


def _settle_result_calls(match: Match, actor: Any, change: str) -> list[JudgeCall]:
    """The match's open call about its result is resolved by the final result staff just
    gave it: it leaves the judges' queue, with a note and an audit entry saying which result
    settled it. About the result: a dispute (or a call a dispute joined), or a call made once
    a result had been reported (the opponent of a pending report, a player asking to change a
    final one). A call made during play (a rules question) stays open. The caller holds the
    round and match locks; the call comes after them in the lock order."""
    calls = [
        call
        for call in for_update(JudgeCall.objects.select_related("tournament")).filter(
            match=match, status__in=OPEN_CALL_STATUSES
        )
        if call.kind == CallKind.DISPUTE
        or match.versions.filter(created_at__lte=call.opened_at).exists()
    ]
    if not calls:
        return []
    who = actor.public_name if permissions.is_authenticated(actor) else _("the site")
    result = games_text(match.games or (0, 0, 0))
    note = _("%(who)s: settled by the final result %(r)s (result version %(v)d).") % {
        "who": who,
        "r": result,
        "v": match.result_version,
    }
    now = timezone.now()
    for call in calls:
        call.status = CallStatus.RESOLVED
        call.resolved_at = now
        if call.holder_id is None and permissions.is_authenticated(actor):
            call.holder = actor
        call.notes = (call.notes + "\n" if call.notes else "") + note
        call.save(update_fields=["status", "resolved_at", "holder", "notes"])
        notices.notify_dispute_settled(call, match)
        _queue_changed(call, actor)
        audit(
            tournament=call.tournament,
            actor=actor,
            action="call.resolved_by_result",
            target=call,
            round=match.round.number,
            table=match.table,
            after=_match_result(match),
            change=change,
            result_version=match.result_version,
        )
    return calls


def calls_settle_final(*, actor: Any, tournament: Tournament) -> int:
    """Settle the event's open calls about a result that is already final (a dispute left in
    the queue before staff results settled it, as `_settle_result_calls` now does at once).
    Staff only; each match under its round and match locks, audited like any settlement.
    Returns how many calls were settled; a second run finds none."""
    permissions.require_staff(actor, tournament)
    match_ids = list(
        JudgeCall.objects.filter(
            tournament=tournament,
            status__in=OPEN_CALL_STATUSES,
            match__status=MatchStatus.FINAL,
        )
        .order_by("match_id")
        .values_list("match_id", flat=True)
        .distinct()
    )
    settled = 0
    for match_id in match_ids:
        with transaction.atomic():
            _round, match = _lock_for_result(Match.objects.select_related("round").get(pk=match_id))
            if match.status != MatchStatus.FINAL:
                continue
            latest = match.versions.order_by("-number").values_list("change", flat=True).first()
            settled += len(_settle_result_calls(match, actor, latest or ResultChange.ENTERED))
    return settled
