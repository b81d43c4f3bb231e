"""Published decklists and a played two-player event for the metagame tests."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from decks.models import Decklist, DecklistVersion
from matches import services as match_services
from metagame.models import Archetype
from tests.factories import RegistrationFactory
from tests.scenarios import pair_and_publish, running_event
from tournaments.models import Registration, RegistrationStatus, Tournament

AGGRO = {"cards": ["Blitz", "Rush", "Jab"], "at_least": 2}


def hero(name: str, power: int, count: int = 1) -> dict[str, Any]:
    return {"count": count, "id": f"h:{name}", "name": name, "weapon": "Fire", "power": power}


def give_list(registration: Registration, cards: list[str], *, published: bool) -> Decklist:
    """A stored list (the JSON form the decks app keeps) with these Plays and one hero."""
    decklist = Decklist.objects.create(
        registration=registration, published_at=timezone.now() if published else None
    )
    data = {
        "heroes": [hero("Iron Slim", 140, 20)],
        "playbook": [{"count": 1, "id": f"p:{c}", "name": c} for c in cards],
        "issues": [],
    }
    DecklistVersion.objects.create(
        decklist=decklist,
        number=1,
        text="",
        data=data,
        format_key="playmaker",
        legal=True,
        report={},
    )
    return decklist


def two_player_event() -> tuple[Tournament, Any, list[Registration]]:
    """A running event whose two players have published lists (Aggro and Control), a third
    (withdrawn) with a private Aggro list, and round 1 played: Aggro won 1-0, trophies 4-3."""
    event, organiser, regs = running_event(2)
    give_list(regs[0], ["Blitz", "Rush", "Extra"], published=True)
    give_list(regs[1], ["Wall", "Stall"], published=True)
    third = RegistrationFactory(tournament=event, status=RegistrationStatus.WITHDRAWN)
    give_list(third, ["Blitz", "Rush"], published=False)
    Archetype.objects.create(game="boba", name="Aggro", rule=AGGRO, tournament=event, priority=1)
    Archetype.objects.create(
        game="boba", name="Control", rule={"card": "Wall"}, tournament=event, priority=2
    )
    round_ = pair_and_publish(event, organiser)
    match = round_.matches.get()
    games = [1, 0, 0] if match.a_id == regs[0].pk else [0, 1, 0]
    battles = [[4, 3]] if match.a_id == regs[0].pk else [[3, 4]]
    match_services.match_report(actor=organiser, match=match, games=games, battles=battles)
    return event, organiser, [*regs, third]
