"""Every library Play whose name starts with M-Z (variants included) has a row in a table."""

from __future__ import annotations

from typing import Any

from engine.boba.play_library import library_names, normalise_name
from tests.engine.boba.plays.m_z import (
    test_coins_and_dice,
    test_draw_and_discard,
    test_heroes_and_substitution,
    test_hot_dogs,
    test_ongoing,
    test_power,
)
from tests.engine.boba.plays.m_z._table import card_of

TABLES = (
    test_power,
    test_coins_and_dice,
    test_hot_dogs,
    test_draw_and_discard,
    test_ongoing,
    test_heroes_and_substitution,
)


def in_range(name: str) -> bool:
    return "m" <= name[:1].lower() <= "z"


def row_ids() -> list[str]:
    ids: list[str] = []
    for module in TABLES:
        rows: list[Any] = module.ROWS
        ids.extend(r.id for r in rows)
    return ids


def test_every_m_to_z_library_card_has_a_row() -> None:
    covered = {normalise_name(card_of(i)) for i in row_ids()}
    wanted = [n for n in library_names() if in_range(n)]
    assert len(wanted) == 178
    assert [n for n in wanted if normalise_name(n) not in covered] == []


def test_rows_name_only_library_cards_in_range() -> None:
    names = {normalise_name(n) for n in library_names()}
    for i in row_ids():
        assert normalise_name(card_of(i)) in names, i
        assert in_range(card_of(i)), i


def test_row_ids_are_unique() -> None:
    ids = row_ids()
    assert len(ids) == len(set(ids))
