"""The generated demo catalog: fictional, seeded, and rich enough for every preset."""

from __future__ import annotations

import pytest

from engine.boba.deckbuilding import (
    FORMAT_PRESETS,
    WEAPONS,
    CardKind,
    Catalog,
    demo_cards,
    get_format,
    normalise_name,
    sample_decklist,
    validate_decklist,
)


def test_same_seed_same_catalog() -> None:
    assert demo_cards(7) == demo_cards(7)
    assert demo_cards(7) != demo_cards(8)


def test_every_weapon_power_range_and_kind(demo: Catalog) -> None:
    heroes = [c for c in demo.cards() if c.kind is CardKind.HERO]
    assert {c.weapon for c in heroes} == set(WEAPONS)
    powers = {c.power or 0 for c in heroes}
    assert min(powers) == 55 and max(powers) >= 240 and len(powers) >= 30
    plays = [c for c in demo.cards() if c.kind is CardKind.PLAY]
    assert len({c.play_name for c in plays}) >= 60
    assert all(c.cost is not None and c.dbs is not None for c in plays)
    assert any(c.base_name for c in plays)  # HTD variants
    assert sum(c.kind is CardKind.BONUS_PLAY for c in demo.cards()) >= 10
    assert sum(c.kind is CardKind.HOT_DOG for c in demo.cards()) >= 10
    assert any(len(demo.variant(c.id).printings) > 1 for c in heroes)  # parallels


def test_names_are_fictional(demo: Catalog, real: Catalog) -> None:
    real_names = {normalise_name(c.name) for c in real.cards()}
    demo_names = {normalise_name(c.name) for c in demo.cards()} - {"hot dog"}
    assert demo_names.isdisjoint(real_names)


@pytest.mark.parametrize("key", sorted(FORMAT_PRESETS))
def test_a_legal_demo_list_for_every_preset(demo: Catalog, key: str) -> None:
    fmt = get_format(key)
    for seed in range(3):
        report = validate_decklist(sample_decklist(demo, fmt, seed=seed), demo, fmt)
        assert report.legal, report.to_dict()
