"""The demo Open's archetypes (made when `load_demo` announces the event, through the
services as its organiser), so its coverage page shows a metagame. Idempotent."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from metagame import services
from metagame.models import Archetype
from tournaments.models import Tournament


def _weapon(weapon: str, at_least: int) -> dict[str, Any]:
    return {"count": {"section": "heroes", "weapon": weapon}, "min": at_least}


# The demo's lists are drawn at random from the fictional catalog: these rules split them into
# a few archetypes by what they lean on (priority: tried in this order).
DEMO_ARCHETYPES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    (
        "Heavy Hitters",
        10,
        {"count": {"section": "heroes", "power": {"gte": 130}}, "min": 42},
    ),
    ("Alt Control", 20, _weapon("Alt", 9)),
    ("Gum Swarm", 30, _weapon("Gum", 9)),
    ("Ice Tempo", 40, _weapon("Ice", 9)),
)


def load_demo_archetypes(sender: object = None, *, event: Tournament, **kwargs: Any) -> int:
    """The demo archetypes of `event` (the demo Open), made once; returns how many were made."""
    if Archetype.objects.filter(tournament=event).exists():
        return 0
    organiser = get_user_model().objects.get(username="organiser")
    for name, priority, rule in DEMO_ARCHETYPES:
        services.archetype_create(
            actor=organiser, tournament=event, name=name, rule=rule, priority=priority
        )
    return len(DEMO_ARCHETYPES)
