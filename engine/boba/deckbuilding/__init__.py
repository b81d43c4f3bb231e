"""BoBA deckbuilding: the card catalog, formats as data, the decklist format and the deck rules.

Pure Python (no Django): the decks app reads models into a `Catalog`, then calls these.

    catalog = Catalog(cards)                        # build once, reuse
    report = validate_decklist(text, catalog, "playmaker")
    report.legal, report.to_dict()

Vocabulary (printing, variant, variation, base name) is defined in `cards`; every rule id the
report can name is in `validation.RULES`; every preset and product-decision default is in
`formats`. The text format is documented in docs/decklist-format.md.
"""

from engine.boba.deckbuilding.cards import (
    GENERIC_HOT_DOG_ID,
    WEAPONS,
    CardKind,
    Catalog,
    CatalogCard,
    Variant,
    catalog_from_mappings,
    normalise_name,
)
from engine.boba.deckbuilding.decklist import (
    DeckEntry,
    Decklist,
    DecklistIssue,
    Section,
    decklist_from_dict,
    decklist_to_dict,
    export_decklist,
    parse_decklist,
)
from engine.boba.deckbuilding.demo_catalog import demo_cards, demo_catalog
from engine.boba.deckbuilding.formats import (
    CARD_POOLS,
    FORMAT_PRESETS,
    Format,
    FormatError,
    FormatKind,
    GameMode,
    get_format,
)
from engine.boba.deckbuilding.importers import (
    ImportResult,
    PlayStats,
    Rejection,
    apply_play_stats,
    parse_community_cards,
    parse_community_catalog,
    parse_community_plays,
    parse_csv,
)
from engine.boba.deckbuilding.samples import sample_decklist
from engine.boba.deckbuilding.statistics import DeckStatistics, deck_statistics
from engine.boba.deckbuilding.validation import (
    RULES,
    ValidationReport,
    Violation,
    validate_decklist,
)

__all__ = [
    "CARD_POOLS",
    "FORMAT_PRESETS",
    "GENERIC_HOT_DOG_ID",
    "RULES",
    "WEAPONS",
    "CardKind",
    "Catalog",
    "CatalogCard",
    "DeckEntry",
    "DeckStatistics",
    "Decklist",
    "DecklistIssue",
    "Format",
    "FormatError",
    "FormatKind",
    "GameMode",
    "ImportResult",
    "PlayStats",
    "Rejection",
    "Section",
    "ValidationReport",
    "Variant",
    "Violation",
    "apply_play_stats",
    "catalog_from_mappings",
    "deck_statistics",
    "decklist_from_dict",
    "decklist_to_dict",
    "demo_cards",
    "demo_catalog",
    "export_decklist",
    "get_format",
    "normalise_name",
    "parse_community_cards",
    "parse_community_catalog",
    "parse_community_plays",
    "parse_csv",
    "parse_decklist",
    "sample_decklist",
    "validate_decklist",
]
