"""Read the catalog from the database into the game's pure Catalog, cached per process.

Building a Catalog of the full BoBA list takes a quarter of a second, so it is built once per
catalog state: the key is the game plus the catalog's row count and newest update, one cheap
indexed query per request. Any import changes the key, so no explicit invalidation is needed.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db.models import Count, Max

from decks.models import Card
from engine.games import get_game

_lock = threading.Lock()
_cache: dict[str, tuple[tuple[Any, ...], Any]] = {}

DB_FIELDS = {"id": "external_id", "set": "set_name"}


def card_rows(game: str) -> list[dict[str, Any]]:
    """Every card of a game as the plugin's flat dicts."""
    rules = get_game(game).deck_rules()
    columns = [DB_FIELDS.get(name, name) for name in rules.card_fields]
    return [
        {name: row[column] for name, column in zip(rules.card_fields, columns, strict=True)}
        for row in Card.objects.filter(game=game).values(*columns).order_by()
    ]


def catalog_state(game: str) -> tuple[Any, ...]:
    state = Card.objects.filter(game=game).aggregate(n=Count("id"), newest=Max("updated_at"))
    return (state["n"], state["newest"])


def catalog_for(game: str) -> Any:
    key = catalog_state(game)
    cached = _cache.get(game)
    if cached is not None and cached[0] == key:
        return cached[1]
    with _lock:
        cached = _cache.get(game)
        if cached is not None and cached[0] == key:
            return cached[1]
        catalog = get_game(game).deck_rules().build_catalog(card_rows(game))
        _cache[game] = (key, catalog)
        return catalog
