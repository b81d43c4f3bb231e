"""Read a catalog from the database into the game's pure Catalog, cached per process.

Building a Catalog of the full BoBA list takes a quarter of a second, so it is built once per
catalog state: the key is the catalog plus its row count and newest update, one cheap indexed
query per request. Any import changes the key, so no explicit invalidation is needed. Which
catalog a read uses is decided in `decks.selectors` (an event's, or the game's default).
"""

from __future__ import annotations

import threading
from typing import Any

from django.db.models import Count, Max

from decks.models import Card, Catalog
from decks.selectors import default_catalog, event_catalog
from engine.games import get_game
from tournaments.models import Tournament

_lock = threading.Lock()
_cache: dict[Any, tuple[tuple[Any, ...], Any]] = {}

DB_FIELDS = {"id": "external_id", "set": "set_name"}


def card_rows(game: str, catalog: Catalog | None = None) -> list[dict[str, Any]]:
    """Every card of a catalog (by default the game's default one) as the plugin's flat dicts."""
    catalog = catalog if catalog is not None else default_catalog(game)
    if catalog is None:
        return []
    rules = get_game(game).deck_rules()
    known = {f.name for f in Card._meta.concrete_fields}
    aliases = {**DB_FIELDS, rules.kind_field: "kind"}
    columns = {name: aliases.get(name, name) for name in rules.card_fields}
    in_columns = {name: column for name, column in columns.items() if column in known}
    rows = Card.objects.filter(catalog=catalog).values(*in_columns.values(), "attributes")
    return [
        {
            name: row[in_columns[name]] if name in in_columns else row["attributes"].get(name)
            for name in rules.card_fields
        }
        for row in rows.order_by()
    ]


def catalog_state(catalog: Catalog) -> tuple[Any, ...]:
    state = Card.objects.filter(catalog=catalog).aggregate(n=Count("id"), newest=Max("updated_at"))
    return (state["n"], state["newest"])


def catalog_for(game: str, catalog: Catalog | None = None) -> Any:
    """The pure Catalog of `catalog` (by default the game's default catalog: the official one
    once it has cards, else the demo one)."""
    catalog = catalog if catalog is not None else default_catalog(game)
    if catalog is None:
        return get_game(game).deck_rules().build_catalog([])
    key = catalog_state(catalog)
    cached = _cache.get(catalog.pk)
    if cached is not None and cached[0] == key:
        return cached[1]
    with _lock:
        cached = _cache.get(catalog.pk)
        if cached is not None and cached[0] == key:
            return cached[1]
        built = get_game(game).deck_rules().build_catalog(card_rows(game, catalog))
        _cache[catalog.pk] = (key, built)
        return built


def catalog_for_event(tournament: Tournament) -> Any:
    """The pure Catalog an event's decklists are read and validated against."""
    return catalog_for(tournament.game, event_catalog(tournament))
