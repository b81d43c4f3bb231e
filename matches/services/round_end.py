"""Finishing a round once its last result is in, and the event with its final round."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from matches.models import (
    MatchStatus,
    Round,
    RoundStage,
    RoundStatus,
)
from matches.services.locks import _lock_event, _round_shown_changed
from matches.services.stages import after_round_finished
from matches.services.standings import _warm_standings
from tournaments import results
from tournaments.audit import audit
from tournaments.models import (
    Registration,
    Tournament,
)
from tournaments.status import EventStatus
from tournaments.tasks import schedule_round_archive
from tournaments.timer import RoundTimer


def _finish_round_if_done(round_: Round) -> None:
    """A published round whose every match is final finishes by itself. Caller holds the
    round lock, so two last results cannot both miss (or both see) the end."""
    if round_.status != RoundStatus.PUBLISHED:
        return
    if round_.matches.exclude(status=MatchStatus.FINAL).exists():
        return
    now = timezone.now()
    timer = RoundTimer.from_json(round_.timer)
    if timer.state == "running":
        round_.timer = timer.pause(now).to_json()
    round_.status = RoundStatus.FINISHED
    round_.finished_at = now
    round_.save(update_fields=["status", "finished_at", "timer"])
    _round_shown_changed(round_)
    tournament = round_.tournament
    audit(
        tournament=tournament,
        actor=None,
        action="round.finished",
        target=round_,
        round=round_.number,
    )
    schedule_round_archive(round_.pk)  # the event's archive as of this round, kept
    if round_.stage == RoundStage.TOP_CUT and "bracket" not in (round_.pairing_stats or {}):
        # The legacy top cut (tournaments.topcut): its final finishes the event.
        final = round_.matches.count() == 1
        if final:
            _finish_event(tournament, round_)
    elif round_.stage != RoundStage.TOP_CUT:
        transaction.on_commit(lambda: _warm_standings(round_.pk))
    # An event run in explicit stages: the stage's last round finishes it (and the event).
    after_round_finished(round_)


def _finish_event(tournament: Tournament, final_round: Round) -> None:
    """The final's result finishes the event. The caller locked the event first
    (_lock_for_result), so this re-read takes no new lock out of order."""
    tournament = _lock_event(tournament)
    final = final_round.matches.select_related("a", "b").get()
    champion = final.b if results.outcome(final.games or (0, 0, 0)) == "b" else final.a
    if tournament.status == EventStatus.TOP_CUT:
        tournament.status = EventStatus.FINISHED
        tournament.save(update_fields=["status", "updated_at"])
    now = timezone.now()
    for row in tournament.stages.filter(number=final_round.stage_number, finished_at__isnull=True):
        row.finished_at = now
        row.save(update_fields=["finished_at"])
        audit(tournament=tournament, actor=None, action="stage.finished", target=row)
    audit(
        tournament=tournament,
        actor=None,
        action="event.finished",
        target=tournament,
        champion=champion.pk if champion else None,
        champion_name=champion.name if champion else "",
    )


def champion_of(tournament: Tournament) -> Registration | None:
    final_round = (
        tournament.rounds.filter(stage=RoundStage.TOP_CUT, status=RoundStatus.FINISHED)
        .order_by("-number")
        .first()
    )
    if final_round is None:
        return None
    matches = list(final_round.matches.select_related("a__player", "b__player"))
    if len(matches) != 1:
        return None
    final = matches[0]
    return final.b if results.outcome(final.games or (0, 0, 0)) == "b" else final.a
