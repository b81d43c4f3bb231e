"""A team event's cut calculator reads the team standings (event-structures: Stages and Teams:
the Swiss of a team event pairs teams), its planned Swiss rounds count teams, and its stages
may list their teams by hand (flights of teams), a list of team ids checked by name."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.matches.team_stage_support import StagedTeamEvent, lower_id_wins
from tests.scenarios import client_for, own_copy
from tournaments.models import Team, Tournament
from tournaments.selectors import event_facts
from tournaments.swiss import recommended_structure

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def six_teams_once(module_db: None) -> StagedTeamEvent:
    """Six teams of the legacy Swiss and a top 2, running, built once for the module
    (tests/scenarios.py: sharing a world)."""
    return StagedTeamEvent(None, team_count=6)


@pytest.fixture
def six_teams(six_teams_once: StagedTeamEvent, db: None) -> StagedTeamEvent:
    """The test's own copy of the six teams' event; its changes are rolled back."""
    return own_copy(six_teams_once)


def _calculator(ev: StagedTeamEvent) -> dict[str, Any]:
    answer = ev.org.get(f"/api/events/{ev.slug}/cut-calculator/")
    assert answer.status_code == 200, answer.content
    return dict(answer.json())


def test_the_cut_calculator_of_a_team_event_answers_for_teams_on_the_team_standings(
    six_teams: StagedTeamEvent,
) -> None:
    ev = six_teams
    Tournament.objects.filter(pk=ev.event.pk).update(planned_rounds=3)
    ev.play_round(lower_id_wins)
    calc = _calculator(ev)
    teams = set(ev.rosters)
    assert calc["team"] is True and calc["cut_size"] == 2 and calc["rounds_left"] == 2
    assert {row["team"] for row in calc["rows"]} == teams
    assert all("registration" not in row for row in calc["rows"])
    standings = ev.org.get(f"/api/events/{ev.slug}/standings/").json()["rows"]
    points = {r["team"]: r["points"] for r in standings}
    assert {row["team"]: row["points"] for row in calc["rows"]} == points
    assert sorted(points.values()) == [0, 0, 0, 3, 3, 3]
    # The next round paired (not published): its team matches make the outlook exact.
    paired = ev.org.post(f"/api/events/{ev.slug}/rounds/", {}, format="json")
    assert paired.status_code == 201, paired.content
    assert _calculator(ev)["pairings_known"] is True


def test_a_team_events_calculator_page_shows_teams_and_the_players_own_team(
    six_teams: StagedTeamEvent,
) -> None:
    ev = six_teams
    Tournament.objects.filter(pk=ev.event.pk).update(planned_rounds=3)
    ev.play_round(lower_id_wins)
    team_id, roster = next(iter(ev.rosters.items()))
    browser = Client()
    browser.force_login(roster[0].player)
    page = browser.get(f"/events/{ev.slug}/standings/cut/")
    assert page.status_code == 200
    assert page.context["mine"]["team"] == team_id
    text = page.content.decode()
    assert "Your team, Team 1" in text and "Teams still in contention" in text
    listed = browser.get(f"/events/{ev.slug}/standings/teams/")
    assert f'href="/events/{ev.slug}/standings/cut/"' in listed.content.decode()


def test_a_team_events_planned_swiss_rounds_count_its_teams_not_its_players(
    six_teams: StagedTeamEvent,
) -> None:
    ev = six_teams  # 24 players, 6 teams, no planned rounds
    assert recommended_structure(6)[0] != recommended_structure(24)[0]
    ev.play_round(lower_id_wins)
    assert _calculator(ev)["rounds_left"] == recommended_structure(6)[0] - 1
    # The dashboard's "Swiss rounds still planned" before the top cut counts teams too.
    event = Tournament.objects.get(pk=ev.event.pk)
    assert event_facts(event).swiss_rounds_left == recommended_structure(6)[0] - 1


def test_a_team_events_calculator_answers_what_a_team_needs_for_day_two() -> None:
    stages = [
        {"name": "Day 1", "kind": "swiss", "rounds": 3},
        {
            "name": "Day 2",
            "kind": "swiss",
            "rounds": 1,
            "entry": {"from": [1], "points": 6},
            "carry": "points",
        },
    ]
    ev = StagedTeamEvent(stages, team_count=6)
    ev.play_round(lower_id_wins)
    calc = _calculator(ev)
    assert (calc["team"], calc["threshold"], calc["stage"], calc["rounds_left"]) == (
        True,
        6,
        1,
        2,
    )
    by_points = {r["points"]: r for r in calc["rows"]}
    assert by_points[3]["win"] == "certain" and by_points[0]["loss"] == "impossible"
    assert {r["team"] for r in calc["rows"]} == set(ev.rosters)


FLIGHTS = [
    {"name": "Flight A", "kind": "swiss", "rounds": 1},
    {"name": "Flight B", "kind": "swiss", "rounds": 1, "entry": {"players": []}},
    {
        "name": "Final",
        "kind": "single_elimination",
        "entry": {"from": [1, 2], "top": 2},
    },
]


def _flights(flight_b: list[int]) -> list[dict[str, Any]]:
    return [FLIGHTS[0], {**FLIGHTS[1], "entry": {"players": flight_b}}, FLIGHTS[2]]


def test_a_team_event_runs_flights_of_teams_listed_by_hand_into_one_final() -> None:
    ev = StagedTeamEvent(None, team_count=4, run=False)
    ids = sorted(ev.rosters)
    patched = ev.org.patch(f"/api/events/{ev.slug}/", {"stages": _flights(ids[2:])}, format="json")
    assert patched.status_code == 200, patched.content
    ev._transition("running")
    stages = ev.org.get(f"/api/events/{ev.slug}/stages/").json()
    assert [s["status"] for s in stages] == ["running", "running", "pending"]
    assert (stages[0]["players"], stages[1]["players"]) == (ids[:2], ids[2:])
    for flight in (1, 2):
        played = ev.play_round(lower_id_wins, stage=flight)
        assert played["stage_number"] == flight
        (tm,) = played["matches"]
        assert {tm["a"], tm["b"]} == set(ids[:2] if flight == 1 else ids[2:])
    started = ev.org.post(f"/api/events/{ev.slug}/stages/3/start/", {}, format="json")
    assert started.status_code == 200, started.content
    assert sorted(started.json()["players"]) == [ids[0], ids[2]]  # each flight's winner
    final = ev.play_round(lower_id_wins)
    assert final["stage"] == "top_cut"
    placings = ev.org.get(f"/api/events/{ev.slug}/placings/").json()
    assert placings["final"] is True
    assert [r["team"] for r in placings["rows"][:2]] == [ids[0], ids[2]]


def test_a_team_events_stage_listing_ids_that_are_not_its_teams_is_refused_naming_them() -> None:
    made = client_for(StagedTeamEvent(None, team_count=2, run=False).organiser).post(
        "/api/events/",
        {
            "name": "Flights of teams",
            "game": "boba",
            "mode": "rookie",
            "format_key": "apex_madness",
            "match_structure": "bo3",
            "starts_at": "2026-12-01T10:00:00Z",
            "team_rules": {"preset": "apex_madness"},
            "stages": _flights([1, 2]),
        },
        format="json",
    )
    # A new event has no teams yet: its flights are listed once the teams are formed.
    assert made.status_code == 400 and made.json()["field"] == "stages[1].entry.players[0]"
    ev = StagedTeamEvent(None, team_count=4, run=False)
    ids = sorted(ev.rosters)
    # a player's registration id, not a team id
    member = next(r.pk for regs in ev.rosters.values() for r in regs if r.pk not in ids)
    url = f"/api/events/{ev.slug}/"
    wrong = ev.org.patch(url, {"stages": _flights([ids[2], member])}, format="json")
    assert wrong.status_code == 400, wrong.content
    assert wrong.json()["field"] == "stages[1].entry.players[1]"
    ok = ev.org.patch(url, {"stages": _flights(ids[2:])}, format="json")
    assert ok.status_code == 200, ok.content
    # A listed team deleted afterwards: starting the event names it, and nothing starts.
    Team.objects.filter(pk=ids[3]).delete()
    start = ev.org.post(
        f"/api/events/{ev.slug}/transition/", {"to": "running", "no_shows": "keep"}, format="json"
    )
    assert start.status_code == 400 and start.json()["field"] == "stages[1].entry.players[1]"
    assert Tournament.objects.get(pk=ev.event.pk).status == "registration_closed"
