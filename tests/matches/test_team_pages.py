"""Team pages (docs/teams.md): forming a team as its captain, the organiser's team list, the
team's page, its line-up form, and a HiLo round's team pairings on a phone with the boards
played "low power wins"."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from matches import services as match_services
from matches.models import Match, TeamMatch
from tests.factories import OrganiserFactory, RegistrationFactory, UserFactory, logged_in
from tests.support import audit
from tournaments import services
from tournaments.models import Registration, Team, Tournament
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def _event(preset: str, status: str = EventStatus.REGISTRATION_OPEN.value) -> Tournament:
    organiser = OrganiserFactory()
    event = services.event_create(
        actor=organiser,
        name=f"{preset} night",
        game="boba",
        mode="rookie",
        format_key=preset,
        match_structure="bo3",
        starts_at="2026-12-01T10:00:00Z",
        top_cut_size=0,
        require_legal_decklist=False,
        team_rules={"preset": preset},
    )
    Tournament.objects.filter(pk=event.pk).update(status=status)
    event.refresh_from_db()
    return event


def _players(event: Tournament, n: int) -> list[Registration]:
    return [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(n)]


def test_a_captain_forms_a_team_on_the_teams_page() -> None:
    event = _event("apex_madness")
    regs = _players(event, 5)
    client = logged_in(regs[0].player)
    url = reverse("event_teams", args=[event.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert "Form your team" in page.content.decode()
    response = client.post(
        url,
        {
            "name": "The Hot Dogs",
            "members": [r.pk for r in regs[:4]],
            "player_ids": regs[4].player.player_id,
            "head_coach": regs[4].pk,
        },
    )
    team = Team.objects.get(tournament=event)
    assert response.status_code == 302
    assert response["Location"] == reverse("team_page", args=[event.slug, team.pk])
    assert sorted(team.members.values_list("registration_id", flat=True)) == sorted(
        r.pk for r in regs
    )
    assert team.head_coach_id == regs[4].pk
    shown = client.get(response["Location"]).content.decode()
    assert "The Hot Dogs" in shown and "Head Coach" in shown


def test_a_roster_too_small_comes_back_with_the_reason() -> None:
    event = _event("apex_madness")
    regs = _players(event, 3)
    response = logged_in(regs[0].player).post(
        reverse("event_teams", args=[event.slug]),
        {"name": "Three", "members": [r.pk for r in regs], "head_coach": regs[0].pk},
    )
    assert response.status_code == 400
    assert "4 to 6" in response.content.decode()
    assert not Team.objects.exists()


def test_the_organisers_team_list_and_pages_are_accessible() -> None:
    event = _event("apex_madness")
    organiser = event.organisers.get()
    regs = _players(event, 4)
    team = services.team_create(
        actor=organiser,
        tournament=event,
        name="Builders",
        members=[r.pk for r in regs],
        head_coach=regs[0].pk,
    )
    client = logged_in(organiser)
    listing = client.get(reverse("event_teams", args=[event.slug])).content.decode()
    assert "Builders" in listing and "Build a team" in listing
    for url in (
        reverse("event_teams", args=[event.slug]),
        reverse("team_page", args=[event.slug, team.pk]),
        reverse("team_lineups", args=[event.slug, team.pk]),
    ):
        assert audit(client, url) == [], url


def _hilo_round() -> tuple[Tournament, Any, list[Team], list[list[Registration]]]:
    event = _event("hilo_madness")
    organiser = event.organisers.get()
    rosters = [_players(event, 4) for _ in range(2)]
    teams = [
        services.team_create(
            actor=organiser,
            tournament=event,
            name=f"Team {i}",
            members=[r.pk for r in roster],
            head_coach=roster[0].pk,
        )
        for i, roster in enumerate(rosters)
    ]
    Tournament.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING.value)
    event.refresh_from_db()
    match_services.round_pair(actor=organiser, tournament=event)
    return event, organiser, teams, rosters


def test_the_line_up_form_sets_the_teams_line_up_and_hilo_boards_show_low_power() -> None:
    event, organiser, teams, rosters = _hilo_round()
    round_ = event.rounds.get()
    tm = TeamMatch.objects.get(round=round_)
    for team, roster in zip(teams, rosters, strict=True):
        client = logged_in(roster[1].player)
        url = reverse("team_lineups", args=[event.slug, team.pk])
        form = client.get(url).content.decode()
        assert "Board 1" in form and "Your line-up, in board order" in form
        response = client.post(
            url,
            {
                "team_match": tm.pk,
                **{f"tm{tm.pk}-board_{n}": r.pk for n, r in enumerate(roster, start=1)},
            },
        )
        assert response.status_code == 302
    assert tm.lineups.count() == 2
    match_services.round_publish(actor=organiser, round_=round_)
    boards = Match.objects.filter(team_match=tm).order_by("board")
    assert [b.low_power_wins for b in boards] == [False, True, True, True]

    phone = logged_in(rosters[0][2].player)
    pairings = phone.get(reverse("round_pairings", args=[event.slug, 1])).content.decode()
    assert "Round 1: team matches" in pairings
    assert pairings.count("Low power wins") == 3
    mine = phone.get(reverse("my_match", args=[event.slug])).content.decode()
    assert "Low power wins" in mine and "Board 3 of your team match" in mine

    for board in boards.select_related("round"):
        match_services.match_report(actor=organiser, match=board, games=[2, 0, 0])
    standings_url = reverse("team_standings", args=[event.slug])
    standings = phone.get(standings_url).content.decode()
    assert "After round 1" in standings
    # Side a won every board: that team leads (round 1's pairing decides which team is a).
    tm.refresh_from_db()
    assert standings.index(tm.team_a.name) < standings.index(tm.team_b.name)
    assert audit(phone, standings_url) == []


def test_hilo_puts_the_head_coach_on_the_high_board() -> None:
    event, _organiser, teams, rosters = _hilo_round()
    tm = TeamMatch.objects.get(round__tournament=event)
    roster = rosters[0]
    client = logged_in(roster[1].player)
    response = client.post(
        reverse("team_lineups", args=[event.slug, teams[0].pk]),
        {
            "team_match": tm.pk,
            **{f"tm{tm.pk}-board_{n}": r.pk for n, r in enumerate(roster[::-1], start=1)},
        },
    )
    assert response.status_code == 200
    assert "the Head Coach plays board 1" in response.content.decode()
    assert not tm.lineups.exists()
