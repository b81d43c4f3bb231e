"""Team events end to end through the REST API (event-structures: Teams; docs/teams.md).

A 12-team APEX Madness event (teams of 4 to 6 with a Head Coach, Rookie mode, the APEX Madness
format, boards best of 3): teams formed by their captains, line-ups set per round, boards
reported by both players, a dispute settled by a judge, a tied team match going to the Head
Coaches' deciding game, and the team standings (3 / 1 / 0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match, MatchStatus, TeamMatch
from tests.factories import OrganiserFactory, RegistrationFactory, UserFactory
from tests.scenarios import client_for, own_copy
from tests.support import run_at_once
from tournaments import services as event_services
from tournaments.models import Registration, Team, TeamMember, Tournament
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db

SIZES = [4, 5, 6] * 4  # twelve teams of 4 to 6 (Formats: APEX Madness)


def _apex_event(organiser: Any) -> dict[str, Any]:
    response = client_for(organiser).post(
        "/api/events/",
        {
            "name": "APEX Madness Cup",
            "game": "boba",
            "mode": "rookie",
            "format_key": "apex_madness",
            "match_structure": "bo3",
            "starts_at": "2026-12-01T10:00:00Z",
            "top_cut_size": 0,
            "require_legal_decklist": False,
            "team_rules": {"preset": "apex_madness"},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return dict(response.json())


def _open(slug: str, organiser: Any) -> None:
    response = client_for(organiser).post(
        f"/api/events/{slug}/transition/", {"to": "registration_open"}, format="json"
    )
    assert response.status_code == 200, response.json()


class TeamEvent:
    """The 12 teams' people: registrations per team (the captain first, the Head Coach last)."""

    def __init__(self) -> None:
        self.organiser = OrganiserFactory()
        self.judge = UserFactory()
        self.event_json = _apex_event(self.organiser)
        self.slug = self.event_json["slug"]
        _open(self.slug, self.organiser)
        self.event = Tournament.objects.get(slug=self.slug)
        self.event.judges.add(self.judge)
        self.rosters: list[list[Registration]] = []
        self.teams: list[dict[str, Any]] = []
        for i, size in enumerate(SIZES):
            regs = [
                RegistrationFactory(tournament=self.event, player=UserFactory())
                for _ in range(size)
            ]
            captain = client_for(regs[0].player)
            response = captain.post(
                f"/api/events/{self.slug}/teams/",
                {
                    "name": f"Team {i + 1}",
                    "members": [r.pk for r in regs],
                    "head_coach": regs[-1].pk,
                },
                format="json",
            )
            assert response.status_code == 201, response.json()
            self.rosters.append(regs)
            self.teams.append(response.json())
        self.by_team = {t["id"]: regs for t, regs in zip(self.teams, self.rosters, strict=True)}
        self.clients: dict[int, APIClient] = {}

    def client(self, registration_id: int) -> APIClient:
        if registration_id not in self.clients:
            player = Registration.objects.get(pk=registration_id).player
            self.clients[registration_id] = client_for(player)
        return self.clients[registration_id]

    def start(self) -> None:
        for to in ("registration_closed", "running"):
            response = client_for(self.organiser).post(
                f"/api/events/{self.slug}/transition/",
                {"to": to, "no_shows": "keep"},
                format="json",
            )
            assert response.status_code == 200, response.json()

    def pair(self) -> dict[str, Any]:
        response = client_for(self.organiser).post(f"/api/events/{self.slug}/rounds/")
        assert response.status_code == 201, response.json()
        return dict(response.json())

    def lineup(self, team_match: dict[str, Any], side: str) -> list[int]:
        """The team's captain fields its first four, the Head Coach among them when the team
        has only four."""
        team_id = team_match[side]
        regs = self.by_team[team_id]
        players = [r.pk for r in regs[:3]] + [regs[-1].pk]
        response = self.client(regs[0].pk).post(
            f"/api/team-matches/{team_match['id']}/lineup/",
            {"team": team_id, "players": players},
            format="json",
        )
        assert response.status_code == 200, response.json()
        return players

    def publish(self, number: int) -> dict[str, Any]:
        response = client_for(self.organiser).post(
            f"/api/events/{self.slug}/rounds/{number}/publish/", {}, format="json"
        )
        assert response.status_code == 200, response.json()
        return self.round(number)

    def round(self, number: int) -> dict[str, Any]:
        response = client_for(self.organiser).get(f"/api/events/{self.slug}/rounds/{number}/")
        assert response.status_code == 200
        return dict(response.json())

    def report_both(self, board: dict[str, Any], games: list[int]) -> None:
        for side in ("a", "b"):
            response = self.client(board[side]).post(
                f"/api/matches/{board['id']}/report/", {"games": games}, format="json"
            )
            assert response.status_code == 200, response.json()


@pytest.fixture(scope="module")
def team_event_once(module_db: None) -> TeamEvent:
    """The 12 teams formed, built once for the module (tests/scenarios.py: sharing a world)."""
    return TeamEvent()


@pytest.fixture
def team_event(team_event_once: TeamEvent, db: None) -> TeamEvent:
    """The test's own copy of the 12 teams' event (no client made yet; each test's changes
    are rolled back)."""
    return own_copy(team_event_once)


def _play_round(
    te: TeamEvent, number: int, board_games: Callable[[int, int], list[int]]
) -> dict[str, Any]:
    paired = te.pair()
    assert paired["number"] == number and paired["status"] == "paired"
    for team_match in paired["matches"]:
        if team_match["b"] is not None:
            te.lineup(team_match, "a")
            te.lineup(team_match, "b")
    published = te.publish(number)
    for t, team_match in enumerate(published["matches"]):
        for board in team_match["boards"]:
            te.report_both(board, board_games(t, board["board"]))
    return te.round(number)


def test_a_12_team_apex_madness_event_with_a_dispute_and_a_decider(team_event: TeamEvent) -> None:
    te = team_event
    listed = APIClient().get(f"/api/events/{te.slug}/teams/").json()
    assert [t["name"] for t in listed] == [f"Team {i + 1}" for i in range(12)]
    assert listed[0]["head_coach"] == te.rosters[0][-1].pk
    assert te.event_json["team"] == {"players": 4, "roster_max": 6, "head_coach": True}
    te.start()

    # Round 1: team match 1 ties 2-2 on boards (the decider), one board is disputed.
    paired = te.pair()
    assert len(paired["matches"]) == 6
    assert all(tm["status"] == "pending" and tm["boards"] == [] for tm in paired["matches"])
    for team_match in paired["matches"]:
        te.lineup(team_match, "a")
        te.lineup(team_match, "b")
    published = te.publish(1)
    first = published["matches"][0]
    assert [b["board"] for b in first["boards"]] == [1, 2, 3, 4]
    assert first["decider"] is None
    assert len({b["table"] for tm in published["matches"] for b in tm["boards"]}) == 24

    tied = first["boards"]
    te.report_both(tied[0], [2, 0, 0])
    te.report_both(tied[1], [2, 1, 0])
    te.report_both(tied[2], [0, 2, 0])
    # Board 4 disputed: each player says he won; a judge settles it for side b.
    board4 = tied[3]
    te.client(board4["a"]).post(
        f"/api/matches/{board4['id']}/report/", {"games": [2, 0, 0]}, format="json"
    )
    disputed = te.client(board4["b"]).post(
        f"/api/matches/{board4['id']}/report/", {"games": [0, 2, 0]}, format="json"
    )
    assert disputed.json()["status"] == "disputed"
    assert te.round(1)["matches"][0]["result"] == {"boards": [2, 1, 0], "decider": None}
    settled = client_for(te.judge).post(
        f"/api/matches/{board4['id']}/report/",
        {"games": [0, 2, 0], "reason": "judge call"},
        format="json",
    )
    assert settled.status_code == 200, settled.json()

    round1 = te.round(1)
    tm1 = round1["matches"][0]
    assert tm1["result"] == {"boards": [2, 2, 0], "decider": None}
    assert tm1["status"] == "pending"
    decider = tm1["decider"]
    coaches = {te.by_team[tm1["a"]][-1].pk, te.by_team[tm1["b"]][-1].pk}
    assert decider is not None and {decider["a"], decider["b"]} == coaches

    # CR 4.4.3: a deciding game that ties goes on to sudden death, so a draw is refused.
    drawn = te.client(decider["a"]).post(
        f"/api/matches/{decider['id']}/report/", {"games": [0, 0, 1]}, format="json"
    )
    assert drawn.status_code == 400
    assert drawn.json()["field"] == "games" and "4.4.3" in drawn.json()["detail"]
    te.report_both(decider, [0, 1, 0])

    # The other five team matches: side a wins every board.
    for team_match in round1["matches"][1:]:
        for board in team_match["boards"]:
            te.report_both(board, [2, 0, 0])
    round1 = te.round(1)
    assert round1["status"] == "finished"
    tm1 = round1["matches"][0]
    assert tm1["status"] == "final"
    assert tm1["result"] == {"boards": [2, 2, 0], "decider": "b"}
    assert tm1["decider"]["result"]["games"] == [0, 1, 0]

    standings = APIClient().get(f"/api/events/{te.slug}/standings/").json()
    rows = {row["team"]: row for row in standings["rows"]}
    assert len(rows) == 12
    assert rows[tm1["b"]]["points"] == 3 and rows[tm1["a"]]["points"] == 0
    assert rows[tm1["b"]]["games"] == [2, 2, 0]  # the decider is not a board
    for team_match in round1["matches"][1:]:
        assert rows[team_match["a"]]["points"] == 3
        assert rows[team_match["b"]]["points"] == 0

    # Rounds 2 and 3: no team meets a team it met; side a wins three boards of four.
    met = {frozenset((tm["a"], tm["b"])) for tm in round1["matches"]}
    for number in (2, 3):
        played = _play_round(te, number, lambda t, n: [2, 0, 0] if n < 4 else [0, 2, 0])
        assert played["status"] == "finished"
        pairs = {frozenset((tm["a"], tm["b"])) for tm in played["matches"]}
        assert not pairs & met
        met |= pairs
        assert all(
            tm["result"] == {"boards": [3, 1, 0], "decider": None} for tm in played["matches"]
        )

    final = APIClient().get(f"/api/events/{te.slug}/standings/").json()
    assert final["round"] == 3
    points = [row["points"] for row in final["rows"]]
    assert points == sorted(points, reverse=True)
    assert sum(points) == 3 * 6 * 3  # every team match won outright or on the decider
    assert final["rows"][0]["record"].startswith("3-0")
    # Board records count for the players' own history.
    player_rows = Match.objects.filter(round__tournament=te.event, team_match__isnull=False)
    assert player_rows.filter(status=MatchStatus.FINAL).count() == 3 * 24 + 1


def test_line_ups_are_refused_after_publishing_and_publishing_needs_both(
    team_event: TeamEvent,
) -> None:
    te = team_event
    te.start()
    paired = te.pair()
    first = paired["matches"][0]
    te.lineup(first, "a")
    missing = client_for(te.organiser).post(
        f"/api/events/{te.slug}/rounds/1/publish/", {}, format="json"
    )
    assert missing.status_code == 409
    assert missing.json()["field"] == "team_match"
    assert str(first["id"]) in missing.json()["detail"]
    for team_match in paired["matches"]:
        te.lineup(team_match, "a")
        te.lineup(team_match, "b")
    te.publish(1)
    late = te.client(te.by_team[first["a"]][0].pk).post(
        f"/api/team-matches/{first['id']}/lineup/",
        {"team": first["a"], "players": [r.pk for r in te.by_team[first["a"]][:4]]},
        format="json",
    )
    assert late.status_code == 409


def test_a_player_cannot_set_another_teams_line_up(team_event: TeamEvent) -> None:
    te = team_event
    te.start()
    first = te.pair()["matches"][0]
    other = te.by_team[first["b"]]
    response = te.client(te.by_team[first["a"]][0].pk).post(
        f"/api/team-matches/{first['id']}/lineup/",
        {"team": first["b"], "players": [r.pk for r in other[:3]] + [other[-1].pk]},
        format="json",
    )
    assert response.status_code == 403
    assert not TeamMatch.objects.get(pk=first["id"]).lineups.exists()


def test_a_line_up_names_the_board_of_a_player_off_the_roster(team_event: TeamEvent) -> None:
    te = team_event
    te.start()
    first = te.pair()["matches"][0]
    mine = te.by_team[first["a"]]
    stranger = te.by_team[first["b"]][0]
    response = te.client(mine[0].pk).post(
        f"/api/team-matches/{first['id']}/lineup/",
        {"team": first["a"], "players": [mine[0].pk, stranger.pk, mine[1].pk, mine[-1].pk]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "players[1]"


def _event_with_players(n: int, **fields: Any) -> tuple[Any, Tournament, list[Registration]]:
    organiser = OrganiserFactory()
    slug = _apex_event(organiser)["slug"]
    _open(slug, organiser)
    event = Tournament.objects.get(slug=slug)
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(n)]
    return organiser, event, regs


def test_anonymous_cannot_create_teams() -> None:
    _organiser, event, regs = _event_with_players(4)
    response = APIClient().post(
        f"/api/events/{event.slug}/teams/",
        {"name": "Ghosts", "members": [r.pk for r in regs], "head_coach": regs[0].pk},
        format="json",
    )
    assert response.status_code in (401, 403)
    assert not Team.objects.filter(tournament=event).exists()


def test_a_player_must_name_themselves_among_the_members() -> None:
    _organiser, event, regs = _event_with_players(5)
    response = client_for(regs[4].player).post(
        f"/api/events/{event.slug}/teams/",
        {"name": "Not mine", "members": [r.pk for r in regs[:4]], "head_coach": regs[0].pk},
        format="json",
    )
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("members", "why"),
    [
        ("not a list", "list"),
        ([1.5], "registration ids"),
        ("short", "4 to 6"),
        ("long", "4 to 6"),
        ("taken", "already in team"),
        ("other event", "not a registration of this event"),
    ],
)
def test_bad_members_are_a_400_naming_members(members: Any, why: str) -> None:
    organiser, event, regs = _event_with_players(12)
    client = client_for(organiser)
    first = client.post(
        f"/api/events/{event.slug}/teams/",
        {"name": "First", "members": [r.pk for r in regs[:4]], "head_coach": regs[0].pk},
        format="json",
    )
    assert first.status_code == 201
    elsewhere = RegistrationFactory()
    chosen: Any = (
        {
            "short": [r.pk for r in regs[4:7]],
            "long": [r.pk for r in regs[4:11]],
            "taken": [r.pk for r in regs[3:7]],
            "other event": [*(r.pk for r in regs[4:7]), elsewhere.pk],
        }.get(members, members)
        if isinstance(members, str)
        else members
    )
    response = client.post(
        f"/api/events/{event.slug}/teams/",
        {"name": "Second", "members": chosen, "head_coach": regs[4].pk},
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == "members"
    assert why in response.json()["detail"]
    assert Team.objects.filter(tournament=event).count() == 1


def test_the_head_coach_plays_the_head_coach_format() -> None:
    organiser, event, regs = _event_with_players(4)
    event.team_rules = {
        **event.team_rules,
        "formats": {"player": "rookie", "head_coach": "apex_madness"},
    }
    event.save(update_fields=["team_rules"])
    event_services.team_create(
        actor=organiser,
        tournament=event,
        name="Coached",
        members=[r.pk for r in regs],
        head_coach=regs[0].pk,
    )
    assert event_services.team_role_format(regs[0]) == "apex_madness"
    assert event_services.team_role_format(regs[1]) == "rookie"


def test_an_individual_event_has_no_teams() -> None:
    organiser = OrganiserFactory()
    response = client_for(organiser).post(
        "/api/events/",
        {"name": "Solo", "starts_at": "2026-12-01T10:00:00Z"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["team"] is None
    slug = response.json()["slug"]
    reg = RegistrationFactory(tournament=Tournament.objects.get(slug=slug))
    refused = client_for(organiser).post(
        f"/api/events/{slug}/teams/", {"name": "X", "members": [reg.pk]}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["field"] == "team"


def test_two_captains_adding_the_same_player_at_once_make_one_team(
    require_postgres: None,
) -> None:
    for _ in range(3):
        _organiser, event, regs = _event_with_players(7)
        shared = regs[0]
        rosters = [[shared, *regs[1:4]], [shared, *regs[4:7]]]
        calls = [
            (
                lambda roster=roster, i=i, event=event: event_services.team_create(
                    actor=roster[1].player,
                    tournament=event,
                    name=f"Team {i}",
                    members=[r.pk for r in roster],
                    head_coach=roster[1].pk,
                )
            )
            for i, roster in enumerate(rosters)
        ]
        results = run_at_once(calls)
        made = [r for r in results if isinstance(r, Team)]
        refused = [r for r in results if not isinstance(r, Team)]
        assert len(made) == 1 and len(refused) == 1, results
        assert getattr(refused[0], "field", None) == "members"
        assert TeamMember.objects.filter(registration=shared).count() == 1
        assert EventStatus(event.status) == EventStatus.REGISTRATION_OPEN


def test_bad_team_settings_are_a_400_naming_them() -> None:
    client = client_for(OrganiserFactory())
    base = {
        "name": "Bad",
        "mode": "rookie",
        "format_key": "rookie",
        "starts_at": "2026-12-01T10:00:00Z",
    }
    for body, field in (
        ({"team": {"players": 0}}, "team"),
        ({"team": {"players": 3}, "team_rules": {"preset": "hilo_madness"}}, "team_rules"),
        ({"team_rules": {"preset": "nope"}}, "team_rules"),
    ):
        response = client.post("/api/events/", {**base, **body}, format="json")
        assert response.status_code == 400, response.json()
        assert response.json()["field"] == field


def test_the_team_settings_are_fixed_once_teams_are_formed(team_event: TeamEvent) -> None:
    te = team_event
    response = client_for(te.organiser).patch(
        f"/api/events/{te.slug}/", {"team": None}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "team" and "12 teams" in response.json()["detail"]


def _two_teams_published() -> tuple[Any, TeamMatch, list[Match]]:
    from matches import services as match_services

    organiser, event, regs = _event_with_players(8)
    teams = [
        event_services.team_create(
            actor=organiser,
            tournament=event,
            name=f"Side {i}",
            members=[r.pk for r in regs[i * 4 : i * 4 + 4]],
            head_coach=regs[i * 4].pk,
        )
        for i in range(2)
    ]
    Tournament.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING.value)
    event.refresh_from_db()
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    tm = TeamMatch.objects.get(round=round_)
    for team in teams:
        roster = list(team.members.values_list("registration_id", flat=True).order_by("id"))
        match_services.lineup_set(actor=organiser, team_match=tm, team=team.pk, players=roster)
    match_services.round_publish(actor=organiser, round_=round_)
    boards = list(Match.objects.filter(team_match=tm).order_by("board").select_related("round"))
    return organiser, tm, boards


def test_a_correction_that_ends_the_tie_removes_the_unplayed_decider() -> None:
    from matches import services as match_services

    organiser, tm, boards = _two_teams_published()
    for board, games in zip(boards, ([2, 0, 0], [2, 0, 0], [0, 2, 0], [0, 2, 0]), strict=True):
        match_services.match_report(actor=organiser, match=board, games=games)
    assert Match.objects.filter(team_match=tm, is_decider=True).exists()
    match_services.match_report(
        actor=organiser, match=boards[3], games=[2, 1, 0], reason="slip misread"
    )
    tm.refresh_from_db()
    assert not Match.objects.filter(team_match=tm, is_decider=True).exists()
    assert (tm.status, tm.boards_a, tm.boards_b, tm.decider) == ("final", 3, 1, "")
    assert tm.round.status == "finished"


def test_a_correction_that_would_tie_a_finished_round_is_refused() -> None:
    from config.errors import Conflict
    from matches import services as match_services

    organiser, tm, boards = _two_teams_published()
    for board, games in zip(boards, ([2, 0, 0], [2, 0, 0], [2, 0, 0], [0, 2, 0]), strict=True):
        match_services.match_report(actor=organiser, match=board, games=games)
    tm.refresh_from_db()
    assert (tm.status, tm.boards_a, tm.boards_b) == ("final", 3, 1)
    with pytest.raises(Conflict) as caught:
        match_services.match_report(
            actor=organiser, match=boards[0], games=[0, 2, 0], reason="wrong slip"
        )
    assert caught.value.field == "games"
    boards[0].refresh_from_db()
    assert boards[0].games == (2, 0, 0)  # nothing half-saved


def test_the_players_standings_read_a_round_with_a_decider() -> None:
    from matches import services as match_services

    organiser, tm, boards = _two_teams_published()
    for board, games in zip(boards, ([2, 0, 0], [2, 0, 0], [0, 2, 0], [0, 2, 0]), strict=True):
        match_services.match_report(actor=organiser, match=board, games=games)
    decider = Match.objects.select_related("round").get(team_match=tm, is_decider=True)
    match_services.match_report(actor=organiser, match=decider, games=[1, 0, 0])
    tm.refresh_from_db()
    assert tm.round.status == "finished" and tm.decider == "a"
    snapshot = match_services.standings_snapshot(tm.round.tournament, 1)
    assert len(snapshot.rows) == 8  # each player once, the Head Coaches too
