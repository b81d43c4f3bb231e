"""A BOS event through the API: its players, a published match, and the per-game details a
report carries (the BOS result tests and the report form tests)."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tests.factories import bos_event, register_decklist
from tests.scenarios import pair_and_publish_through_api
from tournaments.models import Registration
from tournaments.status import EventStatus


def bos_running(players: int = 2, **fields: Any) -> tuple[Any, Any, list[Registration]]:
    from tests.factories import OrganiserFactory, RegistrationFactory, UserFactory

    organiser = OrganiserFactory()
    fields.setdefault("status", EventStatus.RUNNING.value)
    event = bos_event(organisers=[organiser], **fields)
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(players)]
    return event, organiser, regs


BosMatch = tuple[Any, Any, dict[str, Any]]  # (event, organiser, the published match's JSON)


def bos_match(*, decklists: bool = False) -> BosMatch:
    event, organiser, regs = bos_running()
    if decklists:
        for reg in regs:
            register_decklist(reg)
    m = pair_and_publish_through_api(event, organiser)["matches"][0]
    return event, organiser, m


def game(winner: str, bids: tuple[int, int] = (3, 1), **extra: Any) -> dict[str, Any]:
    return {"winner": winner, "bids": list(bids), **extra}


DETAILS = [game("a", (4, 7)), game("b", (2, 0)), game("a", (0, 5), first="a")]


def report(client: APIClient, match_id: int, body: dict[str, Any]) -> Any:
    return client.post(f"/api/matches/{match_id}/report/", body, format="json")
