"""What moves the live version: every result change (matches.signals.result_changed, sent
inside the change's transaction) and every clock press (a new ClockEvent row). Both bump after
the commit, so a rolled-back change never wakes a stream."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from matches.models import ClockEvent, Match
from matches.signals import result_changed
from overlays.live_version import bump_after_commit


@receiver(result_changed, dispatch_uid="overlays.result_changed")
def result_changed_bump(sender: Any, match: Match, **_: Any) -> None:
    tournament_id = match.round.tournament_id
    bump_after_commit(tournament_id)


@receiver(post_save, sender=ClockEvent, dispatch_uid="overlays.clock_pressed")
def clock_pressed_bump(sender: Any, instance: ClockEvent, created: bool, **_: Any) -> None:
    if created:
        bump_after_commit(instance.match.round.tournament_id)
