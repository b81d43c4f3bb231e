from __future__ import annotations

import pytest

from decks.catalog import catalog_for
from decks.services import demo_catalog_load
from engine.games import get_game


@pytest.fixture
def demo_catalog(db):  # type: ignore[no-untyped-def]
    demo_catalog_load(game="boba")
    return catalog_for("boba")


@pytest.fixture
def deck_rules():  # type: ignore[no-untyped-def]
    return get_game("boba").deck_rules()


@pytest.fixture
def legal_list(demo_catalog, deck_rules) -> str:  # type: ignore[no-untyped-def]
    fmt = deck_rules.resolve_format("playmaker")
    return deck_rules.export(deck_rules.sample(demo_catalog, fmt, 7), demo_catalog)


@pytest.fixture
def illegal_list(legal_list: str) -> str:
    """A readable list one Hero short of 60 (CR 4.1.1 / Formats: hero deck size)."""
    lines = legal_list.splitlines()
    hero_line = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    return "\n".join(lines[:hero_line] + lines[hero_line + 1 :])
