"""Pairing loads each registration once, with only what it reads, and sees the same players as
the history with accounts (standings, swiss_state) does."""

from __future__ import annotations

from typing import Any

import pytest

from matches import services
from matches.models import MatchStatus
from tests.factories import RegistrationFactory, UserFactory
from tests.scenarios import running_event
from tournaments.services import registration_drop

pytestmark = pytest.mark.django_db


def _finish(event: Any, organiser: Any) -> None:
    """Pair, publish and finish a round with staff results (side a wins)."""
    round_ = services.round_pair(actor=organiser, tournament=event)
    round_ = services.round_publish(actor=organiser, round_=round_)
    for match in round_.matches.filter(b__isnull=False, status=MatchStatus.PENDING):
        services.match_report(actor=organiser, match=match, games=[1, 0, 0])
    round_.refresh_from_db()
    assert round_.status == "finished"


@pytest.fixture
def after_round_one() -> tuple[Any, Any, list[Any]]:
    """A 9-player event after round 1 (one bye): a player granted a bye in round 2, a seed and a
    fixed table set, one player dropped, one entering late."""
    event, organiser, regs = running_event(9)
    regs[0].bye_rounds = [2]
    regs[1].seed = 5.0
    regs[2].fixed_table = 3
    for r in regs[:3]:
        r.save()
    _finish(event, organiser)
    registration_drop(actor=regs[3].player, registration=regs[3], round_number=1)
    late = RegistrationFactory(tournament=event, player=UserFactory())
    return event, organiser, [*regs, late]


def test_the_lean_history_holds_the_same_players_and_rounds(
    after_round_one: tuple[Any, Any, list[Any]],
) -> None:
    event, _organiser, regs = after_round_one
    candidates = services.pairing_candidates(event)
    lean = services.swiss_history(event, extra=candidates, for_pairing=True)
    full = services.swiss_history(event, extra=services.pairable_registrations(event))

    assert {r.pk for r in candidates} == {r.pk for r in services.pairable_registrations(event)}
    assert regs[3].pk not in {r.pk for r in candidates}  # dropped: not paired...
    assert str(regs[3].pk) in {p.id for p in lean.players}  # ...but in the history
    assert str(regs[-1].pk) in {p.id for p in lean.players}  # the late entry
    assert lean.players == full.players
    assert lean.rounds == full.rounds
    # The lean history keeps the candidates' registrations only: pairing reads the players.
    assert set(lean.registrations) == {r.pk for r in candidates}
    assert set(full.registrations) == {int(p.id) for p in lean.players}


def test_the_lean_history_loads_no_registration_one_by_one(
    after_round_one: tuple[Any, Any, list[Any]], django_assert_max_num_queries: Any
) -> None:
    """Two queries for the candidates, three for the history (round numbers, matches, the
    dropped player who is not a candidate): never one per registration."""
    event, _organiser, _regs = after_round_one
    with django_assert_max_num_queries(5):
        candidates = services.pairing_candidates(event)
        history = services.swiss_history(event, extra=candidates, for_pairing=True)
        assert len(history.players) == 10


def test_pairing_a_round_after_the_lean_load_pairs_every_candidate(
    after_round_one: tuple[Any, Any, list[Any]],
) -> None:
    event, organiser, regs = after_round_one
    round_ = services.round_pair(actor=organiser, tournament=event)
    seated = {pk for m in round_.matches.all() for pk in (m.a_id, m.b_id) if pk is not None}
    assert seated == {r.pk for r in services.pairable_registrations(event)}
    assert regs[3].pk not in seated
    late = type(regs[-1]).objects.get(pk=regs[-1].pk)
    assert late.late_entry_round == 2
    bye = round_.matches.get(a_id=regs[0].pk)
    assert bye.b_id is None and bye.assigned_bye
