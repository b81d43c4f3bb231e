"""A finished event for series tests (the series API and profile tests share it)."""

from __future__ import annotations

from typing import Any

from tests.factories import RegistrationFactory, TournamentFactory
from tests.scenarios import client_for, pair_and_publish_through_api
from tournaments.models import Tournament
from tournaments.status import EventStatus

POINTS = {"1": 10, "2": 8, "3-4": 6, "played": 1}


def finished_event(organiser: Any, players: list[Any], name: str) -> Tournament:
    """A two-round Swiss of ``players`` run through the API; side a wins every match; then
    finished by the organiser."""
    event = TournamentFactory(
        organisers=[organiser], status=EventStatus.RUNNING.value, planned_rounds=2, name=name
    )
    for player in players:
        RegistrationFactory(tournament=event, player=player)
    staff = client_for(organiser)
    for _ in range(2):
        round_ = pair_and_publish_through_api(event, organiser)
        for match in round_["matches"]:
            if match["b"] is None:
                continue
            answer = staff.post(
                f"/api/matches/{match['id']}/report/", {"games": [1, 0, 0]}, format="json"
            )
            assert answer.status_code == 200, answer.content
    finished = staff.post(
        f"/api/events/{event.slug}/transition/", {"to": "finished"}, format="json"
    )
    assert finished.status_code == 200, finished.content
    return event
