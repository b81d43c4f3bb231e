"""Placings read from stage rows (event-structures: Placings) for the stage kinds the stages
foundation describes: a double-elimination bracket played out by the bracket core over the
recorded matches (a rematch in the grand final and its reset), and a round robin ranked by the
standings core. The rounds here are written as the models keep them, not through services."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import Match, MatchStatus, Round, RoundStage, RoundStatus
from matches.placings import event_placings
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory
from tournaments.models import Registration, Stage, Tournament

pytestmark = pytest.mark.django_db


def _event(kind: str, players: int) -> tuple[Tournament, list[Registration]]:
    event = TournamentFactory(status="finished", match_structure="bo1", top_cut_size=0)
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(players)]
    Stage.objects.create(
        tournament=event,
        number=1,
        name="Bracket" if kind != "round_robin" else "Round robin",
        kind=kind,
        players=[r.pk for r in regs],
        started_at=timezone.now(),
    )
    return event, regs


def _round(event: Tournament, number: int, stage: str, games: list[tuple[Any, Any, int]]) -> None:
    """A finished round whose matches are (a, b, winner side: 0 for a, 1 for b)."""
    round_ = Round.objects.create(
        tournament=event,
        number=number,
        stage=stage,
        stage_number=1,
        status=RoundStatus.FINISHED,
        finished_at=timezone.now(),
    )
    for table, (a, b, won) in enumerate(games, start=1):
        Match.objects.create(
            round=round_,
            table=table,
            a=a,
            b=b,
            status=MatchStatus.FINAL,
            games_a=1 - won,
            games_b=won,
            games_drawn=0,
            result_version=1,
        )


def test_a_double_elimination_with_a_bracket_reset_places_by_where_each_went_out() -> None:
    event, (a, b, c, d) = _event("double_elimination", 4)  # seeds 1 to 4
    top = RoundStage.TOP_CUT
    _round(event, 1, top, [(a, d, 0), (b, c, 1)])  # winners round 1: A and C go on
    _round(event, 2, top, [(a, c, 0), (b, d, 0)])  # winners final A; losers round 1: D out
    _round(event, 3, top, [(c, b, 1)])  # losers round 2: C out
    _round(event, 4, top, [(a, b, 1)])  # grand final: B from the losers' side wins: a reset
    _round(event, 5, top, [(a, b, 1)])  # the reset: B again, the champion
    placings = event_placings(event)
    assert placings.final is True
    assert [(row.entrant, row.eliminated_in) for row in placings.rows] == [
        (b.pk, None),
        (a.pk, "Grand final"),
        (c.pk, "Losers round 2"),
        (d.pk, "Losers round 1"),
    ]
    body = APIClient().get(f"/api/events/{event.slug}/placings/").json()
    assert [row["place"] for row in body["rows"]] == [1, 2, 3, 4]
    assert body["rows"][0]["name"] == b.name


def test_a_double_elimination_without_its_reset_is_not_final() -> None:
    event, (a, b, c, d) = _event("double_elimination", 4)
    event.status = "running"
    event.save()
    top = RoundStage.TOP_CUT
    _round(event, 1, top, [(a, d, 0), (b, c, 1)])
    _round(event, 2, top, [(a, c, 0), (b, d, 0)])
    _round(event, 3, top, [(c, b, 1)])
    _round(event, 4, top, [(a, b, 1)])  # B wins the first grand final: a reset to play
    placings = event_placings(event)
    assert placings.final is False
    assert [row.entrant for row in placings.rows[:2]] == [a.pk, b.pk]  # both still in, by seed
    assert [row.eliminated_in for row in placings.rows] == [
        None,
        None,
        "Losers round 2",
        "Losers round 1",
    ]


def test_a_round_robin_places_by_its_standings() -> None:
    event, (a, b, c, d) = _event("round_robin", 4)
    rr = RoundStage.ROUND_ROBIN
    _round(event, 1, rr, [(a, d, 1), (b, c, 0)])  # D and B win
    _round(event, 2, rr, [(d, c, 0), (a, b, 1)])  # D and B win
    _round(event, 3, rr, [(b, d, 0), (c, a, 0)])  # B and C win
    placings = event_placings(event)
    assert placings.final is True
    # B 3 wins, D 2, C 1 (beat A), A 0.
    assert [row.entrant for row in placings.rows] == [b.pk, d.pk, c.pk, a.pk]
    assert all(row.stage == 1 and row.eliminated_in is None for row in placings.rows)
