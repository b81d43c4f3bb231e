"""Round services: review before publishing, the timer, byes granted at registration, late
entries, auto-confirmation, and the rules of who may do what."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from config.errors import Conflict, Forbidden, ServiceError
from config.models import OutboxTask
from matches import services
from matches.models import Match, MatchStatus, Round, RoundStatus
from matches.services import pairing
from tests.factories import RegistrationFactory, UserFactory
from tests.scenarios import client_for, running_event
from tests.support import FakeClock
from tournaments import services as event_services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _finish(round_: Round, organiser: Any, games: list[int] | None = None) -> None:
    if round_.status == RoundStatus.PAIRED:
        services.round_publish(actor=organiser, round_=round_)
    for match in round_.matches.filter(b__isnull=False).select_related("round"):
        services.match_report(actor=organiser, match=match, games=games or [1, 0, 0])


def test_decision_11_byes_granted_at_registration_are_honoured() -> None:
    event, organiser, regs = running_event(8)
    invited = regs[3]
    invited.bye_rounds = [1, 2]
    invited.save()
    round_one = services.round_pair(actor=organiser, tournament=event)
    bye = round_one.matches.get(a=invited)
    assert bye.b_id is None and bye.assigned_bye and bye.status == MatchStatus.FINAL
    # 7 others: one odd-field bye besides the granted one
    assert round_one.matches.filter(b__isnull=True).count() == 2
    assert all(c.ok for c in services.round_checks(round_one))
    _finish(round_one, organiser)
    round_two = services.round_pair(actor=organiser, tournament=event)
    assert round_two.matches.get(a=invited).b_id is None
    assert not round_two.matches.filter(b=invited).exists()


def test_a_late_entry_takes_a_loss_for_each_missed_round_by_default() -> None:
    event, organiser, _ = running_event(4)
    _finish(services.round_pair(actor=organiser, tournament=event), organiser)
    late = RegistrationFactory(tournament=event, player=UserFactory())
    round_two = services.round_pair(actor=organiser, tournament=event)
    late.refresh_from_db()
    assert late.late_entry_round == 2
    assert round_two.matches.filter(a=late).exists() or round_two.matches.filter(b=late).exists()
    _finish(round_two, organiser)
    row = next(r for r in services.standings_snapshot(event).rows if r["registration"] == late.pk)
    assert row["rounds_played"] == 2 and row["record"].endswith("-0") and "1-" in row["record"]


def test_a_late_entry_joins_on_zero_when_the_event_says_so() -> None:
    event, organiser, _ = running_event(4, late_entry_policy="zero")
    _finish(services.round_pair(actor=organiser, tournament=event), organiser)
    late = RegistrationFactory(tournament=event, player=UserFactory())
    _finish(services.round_pair(actor=organiser, tournament=event), organiser)
    row = next(r for r in services.standings_snapshot(event).rows if r["registration"] == late.pk)
    assert row["rounds_played"] == 1


def test_dropped_players_are_not_paired_but_stay_in_the_standings() -> None:
    event, organiser, regs = running_event(6)
    _finish(services.round_pair(actor=organiser, tournament=event), organiser)
    event_services.registration_drop(actor=regs[0].player, registration=regs[0])
    round_two = services.round_pair(actor=organiser, tournament=event)
    assert not Match.objects.filter(round=round_two, a=regs[0]).exists()
    assert not Match.objects.filter(round=round_two, b=regs[0]).exists()
    _finish(round_two, organiser)
    row = next(
        r for r in services.standings_snapshot(event).rows if r["registration"] == regs[0].pk
    )
    assert row["dropped"] is True


def test_review_swap_table_repair_and_delete_before_publishing() -> None:
    event, organiser, _ = running_event(8)
    round_ = services.round_pair(actor=organiser, tournament=event)
    first, second = list(round_.matches.order_by("table"))[:2]
    services.round_swap(actor=organiser, round_=round_, first=first.a_id, second=second.b_id)
    seat_a = Match.objects.get(round=round_, b=first.a_id)
    assert seat_a.a_id == second.a_id  # first.a now sits where second.b sat
    version = Round.objects.get(pk=round_.pk).version
    match = Match.objects.get(round=round_, table=1)
    services.round_set_table(actor=organiser, match=match, table=3)
    assert Match.objects.get(pk=match.pk).table == 3
    assert Round.objects.get(pk=round_.pk).version > version
    with pytest.raises(ServiceError) as info:
        services.round_delete(actor=organiser, round_=round_)
    assert info.value.field == "confirm"
    repaired = services.round_repair(actor=organiser, round_=round_)
    assert repaired.status == RoundStatus.PAIRED and repaired.matches.count() == 4
    services.round_delete(actor=organiser, round_=repaired, confirm=True)
    assert not Round.objects.filter(tournament=event).exists()
    actions = set(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert {"round.swapped", "round.table_set", "round.repaired", "round.deleted"} <= actions


def test_a_published_round_cannot_be_changed_or_deleted() -> None:
    event, organiser, _ = running_event(4)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.first()
    with pytest.raises(Conflict):
        services.round_swap(actor=organiser, round_=round_, first=match.a_id, second=match.b_id)
    with pytest.raises(Conflict):
        services.round_delete(actor=organiser, round_=round_, confirm=True)


def test_publishing_starts_the_timer_and_pause_keeps_the_time_left(frozen_now: FakeClock) -> None:
    event, organiser, _ = running_event(4, round_minutes=40)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    staff = client_for(organiser)
    timer = APIClient().get(f"/api/events/{event.slug}/rounds/1/timer/").json()
    assert timer["state"] == "running" and timer["remaining_seconds"] == 2400
    frozen_now.advance(90)
    timer = APIClient().get(f"/api/events/{event.slug}/rounds/1/timer/").json()
    assert timer["remaining_seconds"] == 2310
    paused = staff.post(
        f"/api/events/{event.slug}/rounds/1/timer/", {"action": "pause"}, format="json"
    ).json()
    assert paused["timer"]["state"] == "paused" and paused["ends_at"] is None
    staff.post(
        f"/api/events/{event.slug}/rounds/1/timer/",
        {"action": "add", "minutes": 5},
        format="json",
    )
    resumed = staff.post(
        f"/api/events/{event.slug}/rounds/1/timer/", {"action": "resume"}, format="json"
    ).json()
    assert resumed["timer"]["state"] == "running"
    assert resumed["timer"]["remaining_seconds"] == 2310 + 300  # 5 minutes added while paused
    again = staff.post(
        f"/api/events/{event.slug}/rounds/1/timer/", {"action": "start"}, format="json"
    )
    assert again.status_code == 400


def test_a_judge_extends_one_table_and_its_end_moves() -> None:
    event, organiser, _ = running_event(4)
    judge = UserFactory()
    event.judges.add(judge)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.first()
    response = client_for(judge).post(
        f"/api/matches/{match.pk}/extension/", {"minutes": 6}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    round_end = APIClient().get(f"/api/events/{event.slug}/rounds/1/").json()["ends_at"]
    assert body["extension_minutes"] == 6 and body["ends_at"] != round_end
    player = client_for(match.a.player)
    refused = player.post(f"/api/matches/{match.pk}/extension/", {"minutes": 6}, format="json")
    assert refused.status_code == 403


def test_the_reporter_cannot_confirm_their_own_report() -> None:
    event, organiser, _ = running_event(2)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.select_related("a__player", "round").get()
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    with pytest.raises(ServiceError) as info:
        services.match_confirm(actor=match.a.player, match=match)
    assert info.value.code == "own_report"
    assert Match.objects.get(pk=match.pk).status == MatchStatus.REPORTED


def test_a_lone_report_is_confirmed_automatically_after_the_set_minutes() -> None:
    event, organiser, _ = running_event(2, auto_confirm_minutes=5, round_minutes=30)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.select_related("a__player", "round").get()
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    assert services.auto_confirm_due(timezone.now() + timedelta(minutes=33)) == 0
    assert services.auto_confirm_due(timezone.now() + timedelta(minutes=36)) == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL
    assert match.versions.last().change == "auto_confirmed"


def test_auto_confirmation_is_off_by_default() -> None:
    event, organiser, _ = running_event(2)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.select_related("a__player", "round").get()
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    assert services.auto_confirm_due(timezone.now() + timedelta(days=1)) == 0


def test_standings_can_be_hidden_before_the_final_round() -> None:
    event, organiser, regs = running_event(4, planned_rounds=3, hide_standings_before_final=True)
    for _ in range(2):
        _finish(services.round_pair(actor=organiser, tournament=event), organiser)
    player = client_for(regs[0].player)
    assert player.get(f"/api/events/{event.slug}/standings/").status_code == 404
    assert player.get(f"/api/events/{event.slug}/standings/?round=1").status_code == 200
    assert client_for(organiser).get(f"/api/events/{event.slug}/standings/").status_code == 200
    _finish(services.round_pair(actor=organiser, tournament=event), organiser)
    assert player.get(f"/api/events/{event.slug}/standings/?round=2").status_code == 200


def test_the_cut_calculator_before_the_last_round() -> None:
    event, organiser, _ = running_event(8, planned_rounds=2, top_cut_size=2)
    _finish(services.round_pair(actor=organiser, tournament=event), organiser)
    calc = APIClient().get(f"/api/events/{event.slug}/cut-calculator/").json()
    assert calc["rounds_left"] == 1 and len(calc["rows"]) == 8
    leaders = [r for r in calc["rows"] if r["points"] == 3]
    assert len(leaders) == 4
    assert all(r["loss"] != "certain" for r in leaders)
    losers = [r for r in calc["rows"] if r["points"] == 0]
    assert all(r["loss"] == "impossible" for r in losers)


def test_the_top_cut_is_started_by_its_own_action_not_a_status_change() -> None:
    event, organiser, _ = running_event(4)
    with pytest.raises(ServiceError):
        event_services.event_transition(actor=organiser, tournament=event, to="top_cut")
    services.round_pair(actor=organiser, tournament=event)
    with pytest.raises(ServiceError) as info:
        event_services.event_transition(actor=organiser, tournament=event, to="finished")
    assert info.value.code == "round_unfinished"


def test_only_organisers_pair_and_staff_enter_results() -> None:
    event, organiser, regs = running_event(4)
    judge = UserFactory()
    event.judges.add(judge)
    with pytest.raises(Forbidden):
        services.round_pair(actor=judge, tournament=event)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.select_related("round").first()
    updated = services.match_report(actor=judge, match=match, games=[0, 1, 0])
    assert updated.status == MatchStatus.FINAL


def test_organisers_grant_byes_and_seeds_through_the_api() -> None:
    event, organiser, regs = running_event(8, first_round_pairing="seeded")
    staff = client_for(organiser)
    for k, reg in enumerate(regs):
        response = staff.post(
            f"/api/registrations/{reg.pk}/pairing/", {"seed": float(100 - k)}, format="json"
        )
        assert response.status_code == 200, response.content
    staff.post(f"/api/registrations/{regs[0].pk}/pairing/", {"bye_rounds": [1]}, format="json")
    refused = client_for(regs[1].player).post(
        f"/api/registrations/{regs[1].pk}/pairing/", {"bye_rounds": [1]}, format="json"
    )
    assert refused.status_code in (403, 404)
    round_one = services.round_pair(actor=organiser, tournament=event)
    assert round_one.matches.get(a=regs[0]).b_id is None  # the granted bye
    # seeded: seed 2 (regs[1]) meets the top of the bottom half among the 7 others
    tables = {m.a_id: m.b_id for m in round_one.matches.filter(b__isnull=False)}
    assert regs[1].pk in tables
    assert AuditEntry.objects.filter(action="registration.pairing_options").count() == 9


@pytest.mark.parametrize(
    ("structure", "bye_games", "gw_after_a_loss"),
    [
        ("bo1", [1, 0, 0], 0.5),  # the bye's 1-0 and a 0-1 loss: 1 game of 2
        ("bo3", [2, 0, 0], 0.5),  # the bye's 2-0 and a 0-2 loss: 2 games of 4
    ],
)
def test_decision_11_a_bye_is_worth_the_games_of_one_match_win_of_the_structure(
    structure: str, bye_games: list[int], gw_after_a_loss: float
) -> None:
    event, organiser, _ = running_event(3, match_structure=structure)
    wins = bye_games[0]
    round_one = services.round_pair(actor=organiser, tournament=event)
    bye = round_one.matches.get(b__isnull=True)
    assert [bye.games_a, bye.games_b, bye.games_drawn] == bye_games
    assert bye.versions.get().after["games"] == bye_games
    _finish(round_one, organiser, [wins, 0, 0])
    round_two = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_two)
    # The round-1 bye plays now and loses without a game.
    played = round_two.matches.get(b__isnull=False)
    bye_is_a = played.a_id == bye.a_id
    assert bye_is_a or played.b_id == bye.a_id
    services.match_report(
        actor=organiser, match=played, games=[0, wins, 0] if bye_is_a else [wins, 0, 0]
    )
    row = next(r for r in services.standings_snapshot(event).rows if r["registration"] == bye.a_id)
    assert row["record"] == "1-1-0"
    assert row["tiebreakers"]["gw"] == pytest.approx(gw_after_a_loss)


def test_a_round_above_the_task_threshold_is_paired_by_the_task_sent_by_name(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    event, organiser, _ = running_event(4)
    monkeypatch.setattr(pairing, "PAIR_IN_TASK_ABOVE", 2)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = services.round_pair(actor=organiser, tournament=event)
    sent = OutboxTask.objects.get(task_name="matches.pair_round")
    assert sent.args == [round_.pk] and sent.sent_at is not None
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PAIRED
    assert round_.matches.count() == 2
