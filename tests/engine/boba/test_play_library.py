"""The play library: every entry speaks the effect vocabulary and names a real Play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.boba.generator import random_game
from engine.boba.play_library import base_name, library_names, lookup_play, normalise_name
from engine.boba.replay import replay

PLAYS_JSON = Path(__file__).resolve().parents[4] / "shared" / "data" / "boba" / "plays.json"


def test_every_library_entry_validates() -> None:
    names = library_names()
    assert names
    for name in names:
        definition = lookup_play(name)
        assert definition is not None, name
        assert definition.cost is None or definition.cost >= 0


@pytest.mark.skipif(not PLAYS_JSON.exists(), reason="needs ../shared/data/boba/plays.json")
def test_library_names_are_real_plays() -> None:
    real = {normalise_name(p["name"]) for p in json.loads(PLAYS_JSON.read_text())}
    unknown = [n for n in library_names() if normalise_name(n) not in real]
    assert unknown == []


@pytest.mark.parametrize(
    ("name", "base"),
    [
        ("Loan Sharked - htd", "Loan Sharked"),
        ("Last-Minute Re-Org htd", "Last-Minute Re-Org"),
        ("Front Run", "Front Run"),
        ("Heads-Up! - HTD", "Heads-Up!"),
    ],
)
def test_cr_2_1_2_variant_names_map_to_their_base_play(name: str, base: str) -> None:
    assert base_name(name) == base


def test_names_are_matched_loosely() -> None:
    assert lookup_play("  front   RUN ") == lookup_play("Front Run")
    assert normalise_name("It\u2019s Gonna Cost Ya") == "it's gonna cost ya"


def test_random_games_with_the_library_stay_legal() -> None:
    for seed in range(20):
        rec = random_game(seed, "playmaker")
        out = replay(rec)
        assert out.legal, (seed, out.error)
