"""How a change in an event reaches its series: a result changed in a finished event (a
correction), or an event finished. Each queues the series' refresh after the commit
(series.services.refresh_later), which records what moved in the event's audit trail."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from matches.models import Match
from matches.signals import result_changed
from series.services import refresh_later
from tournaments.models import Tournament
from tournaments.status import EventStatus


@receiver(result_changed, sender=Match, dispatch_uid="series.result_changed")
def result_changed_in_event(sender: Any, match: Match, **kwargs: Any) -> None:
    # Placings are final only once the event is: results in a running event move nothing.
    tournament = match.round.tournament
    if tournament.status == EventStatus.FINISHED:
        refresh_later(tournament.pk)


@receiver(post_save, sender=Tournament, dispatch_uid="series.event_status")
def event_status_saved(
    sender: Any, instance: Tournament, update_fields: Any = None, **kwargs: Any
) -> None:
    # Every status change saves with update_fields naming "status" (tournaments.services,
    # matches.services.round_end); an event finishing (or reopened) changes the board.
    if update_fields is not None and "status" in update_fields:
        refresh_later(instance.pk)
