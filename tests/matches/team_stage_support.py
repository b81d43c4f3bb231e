"""A staged team event run through the API (tests of team stages, their pages and the archive share it)."""

from __future__ import annotations

import copy
from typing import Any

from tests.factories import OrganiserFactory, RegistrationFactory, UserFactory
from tests.scenarios import client_for
from tournaments.models import Registration, Tournament

TEAMS = 5  # an odd count: a team sits out each round-robin round


class StagedTeamEvent:
    def __init__(
        self,
        stages: list[dict[str, Any]] | None,
        team_count: int = TEAMS,
        team: dict[str, Any] | None = None,
        *,
        run: bool = True,
    ) -> None:
        """An APEX Madness event (teams of 4, a Head Coach), or one with ``team`` instead;
        running unless ``run`` is False (then registration is closed, the teams formed)."""
        size = team["players"] if team else 4
        self.organiser = OrganiserFactory()
        self.org = client_for(self.organiser)
        response = self.org.post(
            "/api/events/",
            {
                "name": "APEX Madness Invitational",
                "game": "boba",
                "mode": "rookie",
                "format_key": "apex_madness",
                "match_structure": "bo3",
                "starts_at": "2026-12-01T10:00:00Z",
                "require_legal_decklist": False,
                **({"team": team} if team else {"team_rules": {"preset": "apex_madness"}}),
                **({"stages": stages} if stages else {"top_cut_size": 2}),
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        self.slug = response.json()["slug"]
        self._transition("registration_open")
        self.event = Tournament.objects.get(slug=self.slug)
        self.rosters: dict[int, list[Registration]] = {}
        for i in range(team_count):
            regs = [
                RegistrationFactory(tournament=self.event, player=UserFactory())
                for _ in range(size)
            ]
            made = self.org.post(
                f"/api/events/{self.slug}/teams/",
                {
                    "name": f"Team {i + 1}",
                    "members": [r.pk for r in regs],
                    **({} if team and not team.get("head_coach") else {"head_coach": regs[-1].pk}),
                },
                format="json",
            )
            assert made.status_code == 201, made.json()
            self.rosters[made.json()["id"]] = regs
        self._transition("registration_closed")
        if run:
            self._transition("running")

    def __deepcopy__(self, memo: dict[int, Any]) -> StagedTeamEvent:
        """A test's own copy of an event built once for its module (tests/scenarios.py:
        own_copy): copies of the instances, and a client of its own for the organiser (a
        test client, holding its handler, is made anew rather than copied)."""
        twin = object.__new__(StagedTeamEvent)
        for name, value in self.__dict__.items():
            if name != "org":
                setattr(twin, name, copy.deepcopy(value, memo))
        twin.org = client_for(twin.organiser)
        return twin

    def _transition(self, to: str) -> None:
        response = self.org.post(
            f"/api/events/{self.slug}/transition/", {"to": to, "no_shows": "keep"}, format="json"
        )
        assert response.status_code == 200, response.json()

    def play_round(self, winner_of: Any, stage: int | None = None) -> dict[str, Any]:
        """Pair (stage ``stage`` while flights run side by side), field every team's roster,
        publish, and report every board (organiser's entry): ``winner_of(team_match)`` gives
        the boards' results, side a's games first."""
        body = {} if stage is None else {"stage": stage}
        paired = self.org.post(f"/api/events/{self.slug}/rounds/", body, format="json")
        assert paired.status_code == 201, paired.json()
        number = paired.json()["number"]
        for tm in paired.json()["matches"]:
            if tm["b"] is None:
                continue
            for side in ("a", "b"):
                lineup = self.org.post(
                    f"/api/team-matches/{tm['id']}/lineup/",
                    {"team": tm[side], "players": [r.pk for r in self.rosters[tm[side]]]},
                    format="json",
                )
                assert lineup.status_code == 200, lineup.json()
        published = self.org.post(
            f"/api/events/{self.slug}/rounds/{number}/publish/", {}, format="json"
        )
        assert published.status_code == 200, published.json()
        for tm in self.round(number)["matches"]:
            if tm["b"] is None:
                continue
            for board, games in zip(tm["boards"], winner_of(tm), strict=True):
                self.report(board["id"], games)
        return self.round(number)

    def report(self, match_id: int, games: list[int]) -> None:
        response = self.org.post(
            f"/api/matches/{match_id}/report/", {"games": games, "reason": "slip"}, format="json"
        )
        assert response.status_code == 200, response.json()

    def round(self, number: int) -> dict[str, Any]:
        return dict(self.org.get(f"/api/events/{self.slug}/rounds/{number}/").json())


def lower_id_wins(tm: dict[str, Any]) -> list[list[int]]:
    """The team with the lower id wins three boards of four."""
    a_wins = tm["a"] < tm["b"]
    won, lost = [2, 0, 0], [0, 2, 0]
    return [won if a_wins else lost] * 3 + [lost if a_wins else won]
