"""A team event's stages through the REST API (event-structures: Stages, Teams, Placings):
APEX Madness as the publisher runs it, a round robin of teams then a top 4 of teams
(Formats: APEX Madness), with a tied team match decided by the Head Coaches in the bracket,
team standings per stage and team placings."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q
from rest_framework.test import APIClient

from matches.models import TeamMatch
from matches.services.teams import team_value, team_values
from tests.factories import RegistrationFactory, UserFactory
from tests.matches.team_stage_support import TEAMS, StagedTeamEvent, lower_id_wins
from tournaments import teams
from tournaments.models import Team, TeamMember

pytestmark = pytest.mark.django_db


def test_formats_apex_madness_round_robin_then_a_top_4_of_teams_places_teams() -> None:
    ev = StagedTeamEvent(
        [
            {"name": "Round robin", "kind": "round_robin", "match_structure": "bo3"},
            {
                "name": "Top 4",
                "kind": "single_elimination",
                "match_structure": "bo3",
                "entry": {"from": [1], "top": 4},
            },
        ]
    )
    team_ids = sorted(ev.rosters)
    stages = APIClient().get(f"/api/events/{ev.slug}/stages/").json()
    assert stages[0]["status"] == "running" and stages[0]["players"] == team_ids

    # A round robin of 5 teams: 5 rounds, every pair of teams meets once, one sits out.
    met: set[frozenset[int]] = set()
    for _ in range(TEAMS):
        played = ev.play_round(lower_id_wins)
        assert played["stage"] == "round_robin" and played["status"] == "finished"
        pairs = [frozenset((tm["a"], tm["b"])) for tm in played["matches"]]
        assert len(pairs) == 2 and not set(pairs) & met
        met |= set(pairs)
    assert len(met) == TEAMS * (TEAMS - 1) // 2
    extra = ev.org.post(f"/api/events/{ev.slug}/rounds/", {}, format="json")
    assert extra.status_code == 409

    standings = APIClient().get(f"/api/events/{ev.slug}/standings/?stage=1").json()
    assert standings["stage"] == 1
    assert [row["team"] for row in standings["rows"]] == team_ids  # lower id, more wins
    assert standings["rows"][0]["points"] == 12

    # The top 4 of teams: seeds 1 v 4, 2 v 3; the first semifinal ties 2-2 on boards and
    # goes to the Head Coaches' deciding game, which the fourth seed wins.
    started = ev.org.post(f"/api/events/{ev.slug}/stages/2/start/", {}, format="json")
    assert started.status_code == 200, started.json()
    assert started.json()["players"] == team_ids[:4]

    def semis(tm: dict[str, Any]) -> list[list[int]]:
        if {tm["a"], tm["b"]} == {team_ids[0], team_ids[3]}:
            return [[2, 0, 0], [2, 0, 0], [0, 2, 0], [0, 2, 0]]
        return lower_id_wins(tm)

    semi = ev.play_round(semis)
    assert semi["name"] == "Semifinals" and semi["stage"] == "top_cut"
    tied = next(tm for tm in semi["matches"] if tm["result"]["boards"] == [2, 2, 0])
    assert tied["status"] == "pending" and tied["decider"] is not None
    coach_wins = [1, 0, 0] if tied["a"] == team_ids[3] else [0, 1, 0]
    ev.report(tied["decider"]["id"], coach_wins)
    semi = ev.round(semi["number"])
    assert semi["status"] == "finished"

    placings = APIClient().get(f"/api/events/{ev.slug}/placings/").json()
    assert placings["final"] is False
    assert all("team" in row and "registration" not in row for row in placings["rows"])

    final = ev.play_round(lower_id_wins)
    assert final["name"] == "Final"
    assert {final["matches"][0]["a"], final["matches"][0]["b"]} == {team_ids[1], team_ids[3]}
    ev.event.refresh_from_db()
    assert ev.event.status == "finished"

    placings = APIClient().get(f"/api/events/{ev.slug}/placings/").json()
    assert placings["final"] is True
    rows = placings["rows"]
    assert [row["team"] for row in rows] == [
        team_ids[1],
        team_ids[3],
        team_ids[0],
        team_ids[2],
        team_ids[4],
    ]
    assert [row["place"] for row in rows] == [1, 2, 3, 4, 5]
    assert rows[0]["name"] == "Team 2" and rows[0]["eliminated_in"] is None
    assert rows[1]["eliminated_in"] == "Final" and rows[2]["eliminated_in"] == "Semifinals"
    assert rows[4]["stage"] == 1

    # Every member shares the team's place in the standings CSV's place column.
    from matches.placings import event_placings, places_by_registration

    places = places_by_registration(ev.event, event_placings(ev.event))
    assert {places[r.pk] for r in ev.rosters[team_ids[1]]} == {1}

    # The bracket page draws the teams: the round robin's team matches by boards, the top 4
    # with the decided semifinal won by the fourth seed, and the champion.
    from django.test import Client

    page = Client().get(f"/events/{ev.slug}/bracket/").content.decode()
    assert "Team 2" in page and "Team 4" in page
    assert "3\u20131" in page  # a round-robin cell: three boards to one
    member = ev.rosters[team_ids[0]][0].name
    assert member and member not in page  # no board's player stands in for a team


def test_event_structures_a_team_bracket_without_a_head_coach_needs_odd_boards() -> None:
    with pytest.raises(teams.TeamError) as caught:
        teams.check_bracket_config(teams.TeamConfig(players=4, roster_max=4, head_coach=False))
    assert caught.value.field == "team.head_coach"
    teams.check_bracket_config(teams.TeamConfig(players=3, roster_max=4, head_coach=False))
    teams.check_bracket_config(teams.TeamConfig(players=4, roster_max=6, head_coach=True))


def test_a_swiss_of_teams_then_a_final_of_teams() -> None:
    ev = StagedTeamEvent(
        [
            {"name": "Swiss", "kind": "swiss", "rounds": 2, "match_structure": "bo3"},
            {
                "name": "Top 2",
                "kind": "single_elimination",
                "match_structure": "bo3",
                "entry": {"from": [1], "top": 2},
            },
        ],
        team_count=4,
    )
    for _ in range(2):
        assert ev.play_round(lower_id_wins)["status"] == "finished"
    started = ev.org.post(f"/api/events/{ev.slug}/stages/2/start/", {}, format="json")
    assert started.status_code == 200, started.json()
    final = ev.play_round(lower_id_wins)
    assert final["name"] == "Final"
    assert TeamMatch.objects.filter(round__number=final["number"]).count() == 1
    placings = APIClient().get(f"/api/events/{ev.slug}/placings/").json()
    assert placings["final"] is True and [r["place"] for r in placings["rows"]] == [1, 2, 3, 4]


def test_the_top_cut_endpoint_starts_a_bracket_of_teams_in_an_event_without_stages() -> None:
    ev = StagedTeamEvent(None, team_count=4)
    for _ in range(2):
        assert ev.play_round(lower_id_wins)["status"] == "finished"
    cut = ev.org.post(f"/api/events/{ev.slug}/top-cut/", {}, format="json")
    assert cut.status_code in (200, 201), cut.json()
    team_ids = sorted(ev.rosters)
    final = TeamMatch.objects.get(round__tournament=ev.event, round__stage="top_cut")
    assert {final.team_a_id, final.team_b_id} == set(team_ids[:2])


def test_a_double_elimination_of_teams_runs_to_a_champion_with_a_bracket_reset() -> None:
    """Four teams, double elimination (the 2026 nationals' shape, event-structures: Stages):
    the losers' side and a grand final the team from the losers' side wins, so a second is
    paired (a bracket reset); the placings place the four teams."""
    ev = StagedTeamEvent(
        [{"name": "Double elimination", "kind": "double_elimination", "match_structure": "bo3"}],
        team_count=4,
    )
    team_ids = sorted(ev.rosters)
    underdog = team_ids[3]

    def results(tm: dict[str, Any]) -> list[list[int]]:
        """The fourth seed loses its first team match, then wins every one after it; else
        the lower id wins. Side a wins three boards of four, or loses three."""
        if underdog in (tm["a"], tm["b"]):
            played_before = (
                TeamMatch.objects.filter(round__tournament=ev.event, status="final")
                .filter(Q(team_a_id=underdog) | Q(team_b_id=underdog))
                .count()
            )
            a_wins = (tm["a"] == underdog) == (played_before > 0)
        else:
            a_wins = tm["a"] < tm["b"]
        won, lost = [2, 0, 0], [0, 2, 0]
        return [won if a_wins else lost] * 3 + [lost if a_wins else won]

    names = []
    while APIClient().get(f"/api/events/{ev.slug}/stages/").json()[0]["status"] == "running":
        played = ev.play_round(results)
        assert played["stage"] == "top_cut" and played["status"] == "finished"
        names.append(played["name"])
        assert len(names) < 10
    assert names == [
        "Winners round 1",
        "Winners round 2",
        "Losers round 1",
        "Losers round 2",
        "Grand final",
        "Grand final",  # the bracket reset: the team from the losers' side won the first
    ]
    placings = APIClient().get(f"/api/events/{ev.slug}/placings/").json()
    assert placings["final"] is True
    assert [r["place"] for r in placings["rows"]] == [1, 2, 3, 4]
    assert placings["rows"][0]["team"] == underdog


def test_event_structures_a_team_bracket_that_could_end_drawn_is_refused_naming_head_coach() -> (
    None
):
    """Two boards and no Head Coach: a 1-1 team match would be drawn, which no bracket match
    may be, so starting the bracket is a 400 naming team.head_coach."""
    ev = StagedTeamEvent(
        [
            {"name": "Round robin", "kind": "round_robin"},
            {"name": "Final", "kind": "single_elimination", "entry": {"from": [1], "top": 2}},
        ],
        team_count=3,
        team={"players": 2, "roster_max": 2, "head_coach": False},
    )
    for _ in range(3):
        assert ev.play_round(lambda tm: [[2, 0, 0], [2, 0, 0]])["status"] == "finished"
    refused = ev.org.post(f"/api/events/{ev.slug}/stages/2/start/", {}, format="json")
    assert refused.status_code == 400, refused.json()
    assert refused.json()["field"] == "team.head_coach"
    assert "Head Coach" in refused.json()["detail"]


def test_team_values_read_as_plain_values_are_the_teams_the_models_make() -> None:
    """Publishing and team standings read the teams as plain values (services.team_values):
    the same teams, members in the order they joined, as team_value of each model row."""
    staged = StagedTeamEvent(None, team_count=3)
    first = Team.objects.filter(tournament=staged.event).order_by("id").first()
    assert first is not None
    late = RegistrationFactory(tournament=staged.event, player=UserFactory())
    TeamMember.objects.create(team=first, registration=late)  # joined last: listed last
    Team.objects.filter(pk=first.pk).update(head_coach=None)

    values = team_values(staged.event)
    rows = Team.objects.filter(tournament=staged.event).prefetch_related("members").order_by("id")
    assert list(values) == [t.pk for t in rows]
    assert list(values.values()) == [team_value(t) for t in rows]
    assert values[first.pk].members[-1] == str(late.pk)
    assert values[first.pk].head_coach is None
