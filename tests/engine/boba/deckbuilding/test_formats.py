"""Formats as data: every preset of shared/rules/formats.md, custom formats, typed errors."""

from __future__ import annotations

from typing import Any

import pytest

from engine.boba.deckbuilding import (
    CARD_POOLS,
    FORMAT_PRESETS,
    Format,
    FormatError,
    GameMode,
    get_format,
)

# formats.md, Appendix A table: key -> (game mode, hero deck min, max, playbook, hot dogs)
TABLE = {
    "rookie": (GameMode.ROOKIE, 60, 60, None, None),
    "substitution": (GameMode.SUBSTITUTION, 60, 60, None, 10),
    "playmaker": (GameMode.PLAYMAKER, 60, 60, 30, 10),
    "booster_box_sealed": (GameMode.PLAYMAKER, 60, 60, 30, 10),
    "double_blaster_sealed": (GameMode.PLAYMAKER, 40, 40, 20, 10),
    "double_mega_sealed": (GameMode.PLAYMAKER, 40, 40, 20, 10),
    "spec_playmaker": (GameMode.PLAYMAKER, 60, 60, 30, 10),
    "spec_plus_playmaker": (GameMode.PLAYMAKER, 60, 70, 30, 10),
    "elite_playmaker": (GameMode.PLAYMAKER, 60, 60, 30, 10),
    "apex_madness": (GameMode.ROOKIE, 60, 70, None, 4),
    "hilo_madness": (GameMode.ROOKIE, 60, 60, None, 4),
}


def test_every_published_format_is_a_preset() -> None:
    assert set(FORMAT_PRESETS) == set(TABLE)


@pytest.mark.parametrize("key", sorted(TABLE))
def test_preset_matches_the_format_table(key: str) -> None:
    fmt = get_format(key)
    mode, low, high, playbook, hot_dogs = TABLE[key]
    assert (fmt.game_mode, fmt.hero_deck_min, fmt.hero_deck_max) == (mode, low, high)
    assert (fmt.playbook_size, fmt.hot_dog_count) == (playbook, hot_dogs)


def test_special_limits() -> None:
    assert get_format("spec_playmaker").max_hero_power == 160
    spec_plus = get_format("spec_plus_playmaker")
    assert (spec_plus.limited_slots_above_power, spec_plus.limited_slots) == (160, 5)
    assert get_format("elite_playmaker").max_total_hero_power == 8250
    assert get_format("playmaker").dbs_cap == 1000
    assert get_format("apex_madness").max_heroes_per_power == 6


def test_sealed_no_build_limits() -> None:
    for key in ("double_blaster_sealed", "double_mega_sealed"):
        fmt = get_format(key)
        assert fmt.max_heroes_per_power is None
        assert not fmt.one_copy_per_variation
        assert not fmt.unique_plays
    box = get_format("booster_box_sealed")
    assert box.max_heroes_per_power == 6 and box.one_copy_per_variation and box.unique_plays


def test_name_cap_is_off_in_every_2026_preset() -> None:
    assert all(f.max_copies_per_hero_name is None for f in FORMAT_PRESETS.values())


@pytest.mark.parametrize("key", sorted(TABLE))
def test_to_dict_from_dict_round_trip(key: str) -> None:
    fmt = get_format(key)
    assert Format.from_dict(fmt.to_dict()) == fmt


def test_custom_format_from_a_base() -> None:
    fmt = Format.from_dict(
        {
            "base": "playmaker",
            "key": "casual",
            "name": "Casual",
            "dbs_cap": 1200,
            "max_copies_per_hero_name": 6,
            "card_pool": "modern",
            "play_checklist": ["Loan Sharked"],
        }
    )
    assert fmt.dbs_cap == 1200 and fmt.max_copies_per_hero_name == 6
    assert fmt.card_pool == CARD_POOLS["modern"]
    assert fmt.play_allowed("loan  SHARKED") and not fmt.play_allowed("Crystal Ball")
    assert fmt.set_allowed("griffey edition") and not fmt.set_allowed("Alpha Edition")
    assert fmt.kind.value == "custom"


def test_changing_the_game_mode_brings_its_sections() -> None:
    fmt = Format.from_dict({"base": "playmaker", "key": "r", "name": "R", "game_mode": "rookie"})
    assert fmt.playbook_size is None and fmt.hot_dog_count is None and fmt.dbs_cap is None
    fmt = Format.from_dict({"key": "s", "name": "S", "game_mode": "substitution"})
    assert fmt.playbook_size is None and fmt.hot_dog_count == 10


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"base": "playmaker", "key": "x", "name": "X", "dbs_cap": "lots"}, "dbs_cap"),
        ({"base": "playmaker", "key": "x", "name": "X", "dbs_cap": True}, "dbs_cap"),
        ({"base": "playmaker", "key": "x", "name": "X", "hero_deck_min": 0}, "hero_deck_min"),
        ({"base": "playmaker", "key": "x", "name": "X", "hero_deck_min": 80}, "hero_deck_min"),
        ({"base": "playmaker", "key": "x", "name": "X", "playbok_size": 30}, "playbok_size"),
        ({"base": "nope", "key": "x", "name": "X"}, "base"),
        ({"key": "x", "name": "X"}, "game_mode"),
        ({"key": "x", "name": "X", "game_mode": "chess"}, "game_mode"),
        ({"base": "playmaker", "key": "", "name": "X"}, "key"),
        ({"base": "playmaker", "key": "x", "name": "X", "card_pool": "future"}, "card_pool"),
        ({"base": "playmaker", "key": "x", "name": "X", "card_pool": []}, "card_pool"),
        (
            {"base": "playmaker", "key": "x", "name": "X", "play_checklist": "Loan"},
            "play_checklist",
        ),
        ({"base": "rookie", "key": "x", "name": "X", "dbs_cap": 900}, "dbs_cap"),
        (
            {"base": "playmaker", "key": "x", "name": "X", "limited_slots": 3},
            "limited_slots_above_power",
        ),
        ({"base": "playmaker", "key": "x", "name": "X", "unique_plays": "yes"}, "unique_plays"),
        ({"base": "playmaker", "key": "x", "name": "X", "hot_dog_count": -1}, "hot_dog_count"),
        (
            {"base": "playmaker", "key": "x", "name": "X", "max_hero_power": 10**12},
            "max_hero_power",
        ),
    ],
)
def test_bad_parameters_name_the_field(params: dict[str, Any], field: str) -> None:
    with pytest.raises(FormatError) as caught:
        Format.from_dict(params)
    assert caught.value.field == field
    assert field in str(caught.value)


def test_from_dict_rejects_a_non_mapping() -> None:
    with pytest.raises(FormatError) as caught:
        Format.from_dict(["playmaker"])  # type: ignore[arg-type]
    assert caught.value.field == "params"


def test_get_format_unknown_key() -> None:
    with pytest.raises(FormatError, match="playmaker"):
        get_format("modern_playmaker")


def test_but_checks_the_changed_parameters() -> None:
    assert get_format("playmaker").but(dbs_cap=500).dbs_cap == 500
    assert get_format("playmaker").but(card_pool="modern").card_pool == CARD_POOLS["modern"]
    with pytest.raises(FormatError):
        get_format("playmaker").but(hero_deck_min=61)
    with pytest.raises(FormatError) as caught:
        Format(key="x", name="X", game_mode=GameMode.PLAYMAKER, card_pool="modern")  # type: ignore[arg-type]
    assert caught.value.field == "card_pool"
