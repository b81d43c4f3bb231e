"""A staged event run through the API (tests of stages and their pages share it)."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tests.factories import OrganiserFactory, RegistrationFactory, UserFactory
from tests.scenarios import client_for
from tournaments.models import Tournament

EVENT = {
    "name": "Stages Championship",
    "mode": "playmaker",
    "format_key": "playmaker",
    "starts_at": "2030-05-01T10:00:00Z",
}


class Run:
    """An event run through the API: the organiser's client, each player's, and helpers."""

    def __init__(self, stages: list[dict[str, Any]], players: int, **fields: Any) -> None:
        self.staff = client_for(OrganiserFactory())
        created = self.staff.post(
            "/api/events/", {**EVENT, "stages": stages, **fields}, format="json"
        )
        assert created.status_code == 201, created.content
        self.slug = created.json()["slug"]
        self.event = Tournament.objects.get(slug=self.slug)
        self.transition("registration_open")
        self.regs = [
            RegistrationFactory(tournament=self.event, player=UserFactory()) for _ in range(players)
        ]
        self.client_of = {r.pk: client_for(r.player) for r in self.regs}
        self.transition("registration_closed")

    def transition(self, to: str) -> None:
        done = self.staff.post(f"/api/events/{self.slug}/transition/", {"to": to}, format="json")
        assert done.status_code == 200, done.content

    def stages(self) -> list[dict[str, Any]]:
        return APIClient().get(f"/api/events/{self.slug}/stages/").json()

    def start(self, number: int) -> Any:
        return self.staff.post(f"/api/events/{self.slug}/stages/{number}/start/", {}, format="json")

    def pair(self, stage: int | None = None) -> dict[str, Any]:
        body = {} if stage is None else {"stage": stage}
        created = self.staff.post(f"/api/events/{self.slug}/rounds/", body, format="json")
        assert created.status_code == 201, created.content
        number = created.json()["number"]
        published = self.staff.post(
            f"/api/events/{self.slug}/rounds/{number}/publish/", {}, format="json"
        )
        assert published.status_code == 200, published.content
        return published.json()

    def report(self, match: dict[str, Any], a_wins: bool = True) -> None:
        """Both players report the same result: the match is final."""
        body = {"games": [1, 0, 0] if a_wins else [0, 1, 0]}
        first = self.client_of[match["a"]].post(
            f"/api/matches/{match['id']}/report/", body, format="json"
        )
        assert first.status_code == 200, first.content
        second = self.client_of[match["b"]].post(
            f"/api/matches/{match['id']}/report/", body, format="json"
        )
        assert second.status_code == 200 and second.json()["status"] == "final", second.content

    def play(self, round_: dict[str, Any], a_wins: Any = True) -> None:
        for m in round_["matches"]:
            if m["b"] is not None and m["status"] != "final":
                self.report(m, a_wins(m) if callable(a_wins) else a_wins)

    def standings(self, stage: int | None = None) -> dict[str, Any]:
        query = "" if stage is None else f"?stage={stage}"
        answer = APIClient().get(f"/api/events/{self.slug}/standings/{query}")
        assert answer.status_code == 200, answer.content
        return answer.json()

    def round(self, number: int) -> dict[str, Any]:
        return APIClient().get(f"/api/events/{self.slug}/rounds/{number}/").json()

    def play_bracket(self, stage: int, a_wins: Any = True) -> list[dict[str, Any]]:
        """Pair and play the stage's bracket to its champion; the rounds played."""
        played = []
        while self.stages()[stage - 1]["status"] == "running":
            round_ = self.pair()
            assert round_["stage"] == "top_cut" and round_["stage_number"] == stage
            self.play(round_, a_wins)
            played.append(self.round(round_["number"]))
        return played
