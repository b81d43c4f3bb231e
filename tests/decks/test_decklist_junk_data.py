"""Any JSON sent as a list's `data`, for every game, is a 4xx naming what is wrong, never a
500: the check is public, so this is input an anonymous user controls."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from decks.services import demo_catalog_load
from engine.games import GAMES

pytestmark = pytest.mark.django_db

JUNK: list[Any] = [
    [1, 2],
    5,
    True,
    "not an object",
    {"wizards": 7},
    {"wizards": [1, "x", None]},
    {"heroes": [{"name": ["nested"]}], "spells": [{"id": {"a": 1}, "count": "3"}]},
    {"summons": [{"name": "x", "count": 1}] * 1000},
]


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("data", JUNK, ids=[f"junk{i}" for i in range(len(JUNK))])
def test_junk_decklist_data_is_a_4xx_for_every_game(game: str, data: Any) -> None:
    demo_catalog_load(game=game)
    response = APIClient().post(
        "/api/decklists/check/", {"game": game, "data": data}, format="json"
    )
    # A 4xx, or a report that says the list is not legal (what the check answers for lines it
    # cannot read): never a 500.
    assert 400 <= response.status_code < 500 or (
        response.status_code == 200 and response.json()["report"]["legal"] is False
    ), response.content
