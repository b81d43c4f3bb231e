"""Row parsers for catalog imports, against the real community lists and hand-made CSV."""

from __future__ import annotations

from typing import Any

from engine.boba.deckbuilding import (
    CardKind,
    Catalog,
    CatalogCard,
    ImportResult,
    catalog_from_mappings,
    parse_community_cards,
    parse_community_plays,
    parse_csv,
)


def test_the_whole_real_card_list_imports(
    real_import: ImportResult, card_rows: list[dict[str, Any]]
) -> None:
    assert len(card_rows) == 17_644
    # The two rows without a name or set (ids 0 and 777777777) are the only rejections.
    assert [(r.row, r.field) for r in real_import.rejections] == [
        (17_643, "Name"),
        (17_644, "Name"),
    ]
    printed = [c for c in real_import.entries if not c.id.startswith("plays:")]
    assert len(printed) == 17_642
    assert len({c.id for c in real_import.entries}) == len(real_import.entries)


def test_every_real_play_gets_cost_and_dbs(
    real_import: ImportResult, play_rows: list[dict[str, Any]]
) -> None:
    assert len(play_rows) == 411
    stats, rejected = parse_community_plays(play_rows)
    assert len(stats) == 411 and rejected == []
    plays = [c for c in real_import.entries if c.is_play]
    assert all(c.dbs is not None for c in plays)
    # One play-list row (LA-20) has no printing in the card list: it becomes its own entry.
    assert [c.card_number for c in real_import.entries if c.id.startswith("plays:")] == ["LA-20"]


def test_kinds_and_counts_of_the_real_catalog(real: Catalog) -> None:
    kinds: dict[CardKind, int] = {}
    for card in real.cards():
        kinds[card.kind] = kinds.get(card.kind, 0) + 1
    assert kinds[CardKind.BONUS_PLAY] == 75
    assert kinds[CardKind.HOT_DOG] == 130 + 1  # plus the generic "Hot Dog"
    assert kinds[CardKind.PLAY] == 300 + 60 + 1  # PL, HTD, and LA-20
    heroes = [c for c in real.cards() if c.kind is CardKind.HERO]
    assert len({c.name for c in heroes}) == 303
    assert min(c.power or 0 for c in heroes) == 55 and max(c.power or 0 for c in heroes) == 250


def test_htd_variants_are_named_and_priced_from_the_play_list(real: Catalog) -> None:
    (variant,) = real.variants_named("Loan Sharked - htd")
    card = variant.card
    assert (card.kind, card.base_name, card.set) == (CardKind.PLAY, "Loan Sharked", "Alpha Blast")
    assert (card.cost, card.dbs) == (1, 15)  # plays.json HTD-42, not the card list's HTD number
    (base,) = real.variants_named("Loan Sharked")
    assert (base.card.cost, base.card.dbs) == (2, 10)


def test_reprints_take_the_stats_of_the_earlier_printing(real: Catalog) -> None:
    (variant,) = real.variants_named("Crystal Ball")
    assert {p.set for p in variant.printings} == {"Alpha Edition", "Griffey Edition"}
    assert {(p.cost, p.dbs) for p in variant.printings} == {(0, 10)}


def test_a_play_with_variable_cost_keeps_its_dbs(real: Catalog) -> None:
    (copycat,) = real.variants_named("Copycat")
    assert copycat.card.kind is CardKind.BONUS_PLAY
    assert (copycat.card.cost, copycat.card.dbs) == (None, 25)


def test_hero_parallels_are_one_variant(real: Catalog) -> None:
    (variant,) = real.hero_variants("Action", "Fire", 110)
    assert len(variant.printings) >= 7
    assert variant.card.card_number == "76"  # the paper printing of the earliest set


def test_bad_community_rows_are_rejected_with_row_and_field() -> None:
    rows: list[Any] = [
        {
            "Card ID": 1,
            "Name": "Hero",
            "Year": 2025,
            "Set": "S",
            "Card Number": 1,
            "Parallel": "Paper",
            "Weapon": "Fire",
            "Power": 100,
        },
        {
            "Card ID": 2,
            "Name": "Hero",
            "Year": 2025,
            "Set": "S",
            "Card Number": 2,
            "Parallel": "Paper",
            "Weapon": "Laser",
            "Power": 100,
        },
        {
            "Card ID": 3,
            "Name": "Hero",
            "Year": 2025,
            "Set": "S",
            "Card Number": 3,
            "Parallel": "Paper",
            "Weapon": "Fire",
            "Power": None,
        },
        {
            "Card ID": 4,
            "Name": "Odd",
            "Year": 2025,
            "Set": "S",
            "Card Number": "ZZ-1",
            "Parallel": "Sticker",
            "Weapon": None,
            "Power": None,
        },
        {
            "Card ID": 1,
            "Name": "Again",
            "Year": 2025,
            "Set": "S",
            "Card Number": "HD-1",
            "Parallel": "Hotdog",
            "Weapon": None,
            "Power": None,
        },
        "not a row",
        {"Card ID": 5, "Name": ["list"], "Set": "S", "Card Number": "PL-1"},
        {
            "Card ID": 6,
            "Name": "Power",
            "Set": "S",
            "Card Number": 7,
            "Weapon": "Ice",
            "Power": "lots",
        },
    ]
    cards, rejections = parse_community_cards(rows)
    assert [c.id for c in cards] == ["1"]
    assert [(r.row, r.field) for r in rejections] == [
        (2, "Weapon"),
        (3, "Power"),
        (4, "Parallel"),
        (5, "Card ID"),
        (6, None),
        (7, "Name"),
        (8, "Power"),
    ]
    assert all(r.reason for r in rejections)


def test_csv_with_header_row() -> None:
    text = (
        "Kind,Name,Set,Card Number,Weapon,Power,Cost,DBS\n"
        "hero,Test Hero,Demo,1,fire,120,,\n"
        "play,Test Play,Demo,PL-1,,,2,15\n"
        ",Test Play - HTD,Demo,HTD-1,,,1,20\n"
        "hot_dog,Relish,Demo,HD-1,,,,\n"
        "\n"
        "hero,No Power,Demo,2,Ice,,,\n"
        "wizard,Merlin,Demo,3,,,,\n"
        "play,Bad Cost,Demo,PL-2,,,two,5\n"
        "play,Too Many,Demo,PL-3,,,1,5,extra\n"
        "play,Test Play,Demo,PL-1,,,2,15\n"
    )
    cards, rejections = parse_csv(text)
    assert [(c.kind.value, c.name) for c in cards] == [
        ("hero", "Test Hero"),
        ("play", "Test Play"),
        ("play", "Test Play - HTD"),
        ("hot_dog", "Relish"),
    ]
    hero, play, htd, _ = cards
    assert (hero.weapon, hero.power, hero.id) == ("Fire", 120, "Demo:1")
    assert (play.cost, play.dbs) == (2, 15)
    assert htd.base_name == "Test Play"
    assert [(r.row, r.field) for r in rejections] == [
        (7, "power"),
        (8, "kind"),
        (9, "cost"),
        (10, None),
        (11, "id"),
    ]


def test_csv_bad_input_never_raises() -> None:
    assert parse_csv("")[1][0].reason.startswith("the CSV is empty")
    assert parse_csv("foo,bar\n1,2\n")[1][0].field == "name"
    cards, rejections = parse_csv(b"name,set,card_number,kind\n\xff\xfeCaf\xe9,S,1,hot_dog\n")
    assert len(cards) == 1 and rejections == []
    cards, rejections = parse_csv('name,set,card_number,kind\n"unterminated,S,1,hot_dog\n')
    assert isinstance(cards, list) and isinstance(rejections, list)
    cards, rejections = parse_csv("name,set,card_number,kind,power\nX,S,1,hero,999999999999\n")
    assert cards == [] and rejections[0].field in ("power", "weapon")


def test_catalog_cards_round_trip_through_dicts(real: Catalog) -> None:
    cards = list(real.cards())
    assert [CatalogCard.from_dict(c.to_dict()) for c in cards] == cards
    rebuilt = catalog_from_mappings(c.to_dict() for c in cards)
    assert len(rebuilt) == len(real)
