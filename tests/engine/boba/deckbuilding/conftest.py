"""Fixtures: the real community card data from ../shared/data (skipped, with the reason, when
that folder is absent) and the generated demo catalog."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.boba.deckbuilding import (
    Catalog,
    ImportResult,
    demo_catalog,
    parse_community_catalog,
)
from tests.support import missing_shared_data

REPO_ROOT = Path(__file__).resolve().parents[4]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data" / "boba"


def _load(name: str) -> list[dict[str, Any]]:
    path = SHARED_DATA / name
    if not path.exists():
        missing_shared_data(path)
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="session")
def card_rows() -> list[dict[str, Any]]:
    return _load("cards.json")


@pytest.fixture(scope="session")
def play_rows() -> list[dict[str, Any]]:
    return _load("plays.json")


@pytest.fixture(scope="session")
def real_import(card_rows: list[dict[str, Any]], play_rows: list[dict[str, Any]]) -> ImportResult:
    return parse_community_catalog(card_rows, play_rows)


@pytest.fixture(scope="session")
def real(real_import: ImportResult) -> Catalog:
    return Catalog(real_import.entries)


@pytest.fixture(scope="session")
def demo() -> Catalog:
    return demo_catalog()
