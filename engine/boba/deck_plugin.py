"""BoBA's deck rules as the game plugin exposes them to the decks app.

The decks app speaks only this interface (see `engine.games.DeckRules`): it stores catalog
cards as flat dicts (`CatalogCard.to_dict()` keys), asks the plugin to read import files, to
build a catalog, and to parse, validate, describe and export decklists for a format given as a
preset key plus optional parameter overrides.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.boba.deckbuilding import (
    FORMAT_PRESETS,
    RULES,
    Catalog,
    CatalogCard,
    Decklist,
    DeckStatistics,
    Format,
    FormatError,
    ImportResult,
    Rejection,
    ValidationReport,
    catalog_from_mappings,
    deck_statistics,
    decklist_from_dict,
    decklist_to_dict,
    demo_cards,
    export_decklist,
    parse_community_catalog,
    parse_community_plays,
    parse_csv,
    parse_decklist,
    sample_decklist,
    validate_decklist,
)
from engine.boba.deckbuilding.importers import apply_play_stats, parse_community_cards

CARD_FIELDS = (
    "id",
    "kind",
    "name",
    "set",
    "card_number",
    "parallel",
    "weapon",
    "power",
    "cost",
    "dbs",
    "base_name",
    "year",
    "release",
)
SECTION_ORDER = ("heroes", "playbook", "bonus_plays", "hot_dogs")


class ImportFileError(ValueError):
    """A whole file could not be read (not a row: rows are rejected one by one)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


card_from_fields = CatalogCard.from_dict
build_catalog = catalog_from_mappings


def resolve_format(key: str, params: Mapping[str, Any] | None = None) -> Format:
    """A preset, or a custom format built on a preset from the organiser's parameters."""
    if key not in FORMAT_PRESETS:
        raise FormatError("format_key", f"unknown format {key!r}")
    if not params:
        return FORMAT_PRESETS[key]
    base = FORMAT_PRESETS[key]
    return Format.from_dict(
        {"base": key, "key": f"{key}+custom", "name": f"{base.name} (custom)", **params}
    )


def format_parameters() -> dict[str, dict[str, Any]]:
    return {key: fmt.to_dict() for key, fmt in FORMAT_PRESETS.items()}


def _json_rows(name: str, data: bytes) -> list[Any]:
    try:
        rows = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportFileError(name, f"not valid JSON ({exc})") from None
    if not isinstance(rows, list):
        raise ImportFileError(name, "expected a JSON array of cards")
    return rows


def _file_kind(name: str, data: bytes) -> str:
    lowered = name.lower()
    if lowered.endswith(".csv"):
        return "csv"
    head = data[:4000].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"["):
        if b'"Card ID"' in head:
            return "community_cards"
        if b'"hot_dog_cost"' in head or b'"dbs"' in head:
            return "community_plays"
        raise ImportFileError(
            name, "a JSON array, but neither the community card list nor the play list"
        )
    if b"," in head.split(b"\n", 1)[0]:
        return "csv"
    raise ImportFileError(
        name, "unrecognised file: expected cards.json, plays.json or a CSV with a header row"
    )


def parse_import(
    files: Sequence[tuple[str, bytes]], existing: Iterable[Mapping[str, Any]] = ()
) -> ImportResult:
    """Read import files (community cards.json / plays.json, or CSV) into catalog entries.

    A plays.json given without cards.json applies its costs and DBS to the Play printings
    already in the catalog (`existing`). Rejections name the file in their field.
    """
    card_rows: list[Any] = []
    play_rows: list[Any] = []
    csv_cards: list[CatalogCard] = []
    rejections: list[Rejection] = []
    for name, data in files:
        kind = _file_kind(name, data)
        if kind == "community_cards":
            card_rows.extend(_json_rows(name, data))
        elif kind == "community_plays":
            play_rows.extend(_json_rows(name, data))
        else:
            cards, rejected = parse_csv(data)
            csv_cards.extend(cards)
            rejections.extend(_named(r, name) for r in rejected)
    entries: list[CatalogCard] = []
    if card_rows:
        result = parse_community_catalog(card_rows, play_rows)
        entries.extend(result.entries)
        rejections.extend(result.rejections)
    elif play_rows:
        stats, rejected = parse_community_plays(play_rows)
        rejections.extend(rejected)
        current = [card_from_fields(row) for row in existing]
        plays = [c for c in current if c.is_play]
        updated, unmatched = apply_play_stats(plays, stats)
        entries.extend(updated)
        rejections.extend(unmatched)
    entries.extend(csv_cards)
    return ImportResult(tuple(entries), tuple(rejections))


def _named(rejection: Rejection, file_name: str) -> Rejection:
    field = f"{file_name}:{rejection.field}" if rejection.field else file_name
    return Rejection(rejection.row, rejection.reason, field)


def read_decklist(source: str | bytes | Mapping[str, Any], catalog: Catalog) -> Decklist:
    if isinstance(source, str | bytes):
        return parse_decklist(source, catalog)
    return decklist_from_dict(source, catalog)


class BobaDeckRules:
    """What the decks app needs from BoBA, bound to the pure functions above."""

    card_fields = CARD_FIELDS
    rules = RULES
    build_catalog = staticmethod(build_catalog)
    card_from_fields = staticmethod(card_from_fields)
    resolve_format = staticmethod(resolve_format)
    format_parameters = staticmethod(format_parameters)
    parse_import = staticmethod(parse_import)
    read_decklist = staticmethod(read_decklist)

    @staticmethod
    def validate(decklist: Decklist, catalog: Catalog, fmt: Format) -> ValidationReport:
        return validate_decklist(decklist, catalog, fmt)

    @staticmethod
    def statistics(decklist: Decklist, catalog: Catalog, fmt: Format | None) -> DeckStatistics:
        return deck_statistics(decklist, catalog, fmt)

    @staticmethod
    def export(decklist: Decklist, catalog: Catalog, title: str | None = None) -> str:
        return export_decklist(decklist, catalog, title=title)

    @staticmethod
    def to_data(decklist: Decklist, catalog: Catalog) -> dict[str, Any]:
        return decklist_to_dict(decklist, catalog)

    @staticmethod
    def demo_cards() -> list[CatalogCard]:
        return list(demo_cards())

    @staticmethod
    def sample(catalog: Catalog, fmt: Format, seed: int = 0) -> Decklist:
        return sample_decklist(catalog, fmt, seed)

    @staticmethod
    def community_cards(
        rows: Iterable[Mapping[str, Any]],
    ) -> tuple[list[CatalogCard], list[Rejection]]:
        return parse_community_cards(rows)


DECK_RULES = BobaDeckRules()
