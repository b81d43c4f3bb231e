"""Deck rules, one test per rule and per preset, on real cards from ../shared/data."""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest

from engine.boba.deckbuilding import (
    FORMAT_PRESETS,
    RULES,
    CardKind,
    Catalog,
    CatalogCard,
    DeckEntry,
    Decklist,
    Format,
    Section,
    Variant,
    deck_statistics,
    get_format,
    parse_decklist,
    sample_decklist,
    validate_decklist,
)

PLAYMAKER = get_format("playmaker")


# -- helpers ---------------------------------------------------------------------------------
def variants(catalog: Catalog, kind: CardKind) -> list[Variant]:
    seen: dict[str, Variant] = {}
    for card in catalog.cards():
        if card.kind is kind:
            v = catalog.variant(card.id)
            seen.setdefault(v.card.id, v)
    return sorted(seen.values(), key=lambda v: v.card.id)


def heroes_of(decklist: Decklist, catalog: Catalog) -> list[CatalogCard]:
    return [catalog[e.card_id] for e in decklist.section(Section.HEROES)]


def with_heroes(
    decklist: Decklist,
    catalog: Catalog,
    add: Iterable[CatalogCard],
    total: int = 60,
    *,
    exact: bool = False,
) -> Decklist:
    """The list with `add` first among its Heroes, then the old Heroes that keep every Power
    value at 6 or fewer and every variation single, padded with unused low-Power Heroes, cut
    to `total`."""
    heroes = [
        DeckEntry(Section.HEROES, c.id, 1, exact=exact or not catalog.is_canonical(c.id))
        for c in add
    ]
    per_power: dict[int | None, int] = {}
    keys = set()
    for e in heroes:
        card = catalog[e.card_id]
        per_power[card.power] = per_power.get(card.power, 0) + 1
        keys.add(catalog.variant(card.id).key)
    pool = [*decklist.section(Section.HEROES)]
    pool += [
        DeckEntry(Section.HEROES, v.card.id, 1)
        for v in variants(catalog, CardKind.HERO)
        if (v.card.power or 0) <= 120
    ]
    for e in pool:
        if len(heroes) >= total:
            break
        card = catalog[e.card_id]
        key = catalog.variant(card.id).key
        if key in keys or per_power.get(card.power, 0) >= 6:
            continue
        heroes.append(e)
        keys.add(key)
        per_power[card.power] = per_power.get(card.power, 0) + 1
    others = tuple(e for e in decklist.entries if e.section is not Section.HEROES)
    return Decklist(tuple(heroes[:total]) + others)


def with_section(decklist: Decklist, section: Section, entries: Iterable[DeckEntry]) -> Decklist:
    others = tuple(e for e in decklist.entries if e.section is not section)
    return Decklist(others + tuple(entries))


def play_entries(
    cards: Iterable[CatalogCard], section: Section = Section.PLAYBOOK
) -> list[DeckEntry]:
    return [DeckEntry(section, c.id, 1) for c in cards]


def only(report_rules: set[str], rule: str) -> None:
    assert report_rules == {rule}, report_rules


@pytest.fixture(scope="module")
def legal(real: Catalog) -> Decklist:
    """A legal Playmaker list of real cards, without Bonus Plays."""
    decklist = with_section(sample_decklist(real, PLAYMAKER, seed=11), Section.BONUS_PLAYS, [])
    assert validate_decklist(decklist, real, PLAYMAKER).legal
    return decklist


def named(catalog: Catalog, name: str) -> CatalogCard:
    (variant,) = catalog.variants_named(name)
    return variant.card


# -- presets ---------------------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(FORMAT_PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_preset_accepts_a_legal_real_list(real: Catalog, key: str, seed: int) -> None:
    fmt = get_format(key)
    decklist = sample_decklist(real, fmt, seed=seed)
    report = validate_decklist(decklist, real, fmt)
    assert report.legal, report.to_dict()
    stats = deck_statistics(decklist, real, fmt)
    assert fmt.hero_deck_min <= stats.heroes <= fmt.hero_deck_max
    assert stats.playbook == (fmt.playbook_size or 0)
    assert stats.hot_dogs == (fmt.hot_dog_count or 0)


@pytest.mark.parametrize("key", sorted(FORMAT_PRESETS))
def test_every_preset_reports_an_empty_list(real: Catalog, key: str) -> None:
    fmt = get_format(key)
    report = validate_decklist("", real, fmt)
    expected = {"hero_deck.size"}
    if fmt.uses_playbook:
        expected.add("playbook.size")
    if fmt.uses_hot_dogs:
        expected.add("hot_dogs.size")
    assert report.rules() == expected


def test_report_json_shape(real: Catalog) -> None:
    report = validate_decklist("Heroes\n1 Lone Sharked\n", real, "playmaker")
    data = json.loads(json.dumps(report.to_dict()))
    assert data["legal"] is False and data["format"] == "playmaker"
    for violation in data["violations"]:
        assert {"rule", "citation", "message", "cards", "counts"} <= set(violation)
    parse = data["violations"][0]
    assert (parse["rule"], parse["citation"], parse["line"]) == (
        "decklist.unknown_card",
        "Decklist format",
        2,
    )
    assert "Loan Sharked" in parse["suggestions"]
    assert {v["rule"] for v in data["violations"][1:]} == {
        "hero_deck.size",
        "playbook.size",
        "hot_dogs.size",
    }


def test_every_rule_id_is_declared(real: Catalog) -> None:
    report = validate_decklist(
        "Playbook\n2 Loan Sharked\nHot Dogs\n11 Hot Dog\nBogus card\n", real, "rookie"
    )
    for rule in report.rules():
        assert rule in RULES or rule.split(".")[0] in RULES


def test_validation_takes_text_bytes_dict_and_a_format_key(real: Catalog, legal: Decklist) -> None:
    from engine.boba.deckbuilding import decklist_to_dict, export_decklist

    text = export_decklist(legal, real)
    assert validate_decklist(text, real, "playmaker").legal
    assert validate_decklist(text.encode(), real, "playmaker").legal
    assert validate_decklist(decklist_to_dict(legal, real), real, PLAYMAKER).legal


# -- Hero deck -------------------------------------------------------------------------------
def test_cr_4_1_1_hero_deck_size(real: Catalog, legal: Decklist) -> None:
    short = with_heroes(legal, real, [], total=59)
    report = validate_decklist(short, real, PLAYMAKER)
    only(report.rules(), "hero_deck.size")
    (v,) = report.violations
    assert v.citation == "CR 1.2, CR 4.1.1"
    assert dict(v.counts) == {"actual": 59, "minimum": 60, "maximum": 60}


def test_formats_hero_deck_size_ranges_and_sealed(real: Catalog) -> None:
    spec_plus = get_format("spec_plus_playmaker")
    base = sample_decklist(real, spec_plus.but(hero_deck_min=70), seed=3)
    assert validate_decklist(base, real, spec_plus).legal  # 70 is inside 60-70
    over = with_heroes(base, real, [], total=71)
    report = validate_decklist(over, real, spec_plus)
    assert "hero_deck.size" in report.rules()
    (v,) = [v for v in report.violations if v.rule == "hero_deck.size"]
    assert v.citation == "Formats: SPEC+ Playmaker" and v.counts["actual"] == 71
    sealed = get_format("double_blaster_sealed")
    report = validate_decklist(sample_decklist(real, PLAYMAKER, seed=1), real, sealed)
    assert "hero_deck.size" in report.rules()


def power_with(real: Catalog, n: int) -> list[CatalogCard]:
    by_power: dict[int, list[CatalogCard]] = {}
    for v in variants(real, CardKind.HERO):
        by_power.setdefault(v.card.power or 0, []).append(v.card)
    power = min(p for p, cards in by_power.items() if len(cards) >= n)
    return by_power[power][:n]


def test_cr_4_1_1_no_more_than_six_heroes_share_a_power_value(
    real: Catalog, legal: Decklist
) -> None:
    seven = power_with(real, 7)
    report = validate_decklist(with_heroes(legal, real, seven), real, PLAYMAKER)
    only(report.rules(), "hero_deck.power_value")
    (v,) = report.violations
    assert v.citation == "CR 4.1.1"
    assert v.counts["actual"] == 7 and v.counts["power"] == seven[0].power
    assert len(v.cards) == 7
    six = with_heroes(legal, real, seven[:6])
    assert validate_decklist(six, real, PLAYMAKER).legal
    # Sealed formats with no build limits turn the rule off.
    assert (
        "hero_deck.power_value"
        not in validate_decklist(
            with_heroes(legal, real, seven, total=40), real, "double_blaster_sealed"
        ).rules()
    )


def test_cr_4_1_1_one_copy_of_each_hero_variation_parallels_included(
    real: Catalog, legal: Decklist
) -> None:
    (variant,) = real.hero_variants("Action", "Fire", 110)
    paper, foil = variant.printings[0], variant.printings[1]
    decklist = with_heroes(legal, real, [paper], total=59)
    decklist = Decklist((*decklist.entries, DeckEntry(Section.HEROES, foil.id, 1, exact=True)))
    report = validate_decklist(decklist, real, PLAYMAKER)
    only(report.rules(), "hero_deck.one_per_variation")
    (v,) = report.violations
    assert v.counts["actual"] == 2 and set(v.card_ids) == {paper.id, foil.id}
    assert len(set(v.cards)) == 2 and f"Action (Fire 110) {foil.printing_label}" in v.cards
    # Another weapon of the same name is another variation.
    (ice,) = real.hero_variants("Action", "Ice", 110)
    other = with_heroes(legal, real, [paper], total=59)
    other = Decklist((*other.entries, DeckEntry(Section.HEROES, ice.card.id, 1)))
    assert validate_decklist(other, real, PLAYMAKER).legal
    assert (
        "hero_deck.one_per_variation"
        not in validate_decklist(decklist, real, "double_mega_sealed").rules()
    )


def test_summary_deckbuilding_optional_cap_per_hero_name(real: Catalog, legal: Decklist) -> None:
    bojax = [v.card for v in real.variants_named("Bojax")]
    by_power: dict[int | None, CatalogCard] = {}
    for card in bojax:
        by_power.setdefault(card.power, card)
    seven = list(by_power.values())[:7]
    assert len(seven) == 7
    decklist = with_heroes(legal, real, seven)
    assert validate_decklist(decklist, real, PLAYMAKER).legal  # off in the 2026 presets
    capped = PLAYMAKER.but(max_copies_per_hero_name=6)
    report = validate_decklist(decklist, real, capped)
    only(report.rules(), "hero_deck.name_limit")
    (v,) = report.violations
    assert v.citation == "Summary: Deckbuilding" and v.counts == {"actual": 7, "maximum": 6}


def test_formats_spec_playmaker_power_cap(real: Catalog, legal: Decklist) -> None:
    spec = get_format("spec_playmaker")
    above = [c for c in heroes_of(legal, real) if (c.power or 0) > 160]
    assert above
    report = validate_decklist(legal, real, spec)
    only(report.rules(), "hero_deck.power_cap")
    (v,) = report.violations
    assert v.citation == "Formats: SPEC Playmaker"
    assert set(v.card_ids) == {c.id for c in above} and v.counts["actual"] == len(above)


def test_formats_spec_plus_playmaker_limited_slots(real: Catalog) -> None:
    spec_plus = get_format("spec_plus_playmaker")
    base = sample_decklist(real, spec_plus, seed=5)
    assert validate_decklist(base, real, spec_plus).legal
    high = [v.card for v in variants(real, CardKind.HERO) if (v.card.power or 0) > 160]
    chosen = {real.variant(e.card_id).key for e in base.section(Section.HEROES)}
    fresh = [c for c in high if real.variant(c.id).key not in chosen]
    by_power: dict[int | None, CatalogCard] = {}
    for card in fresh:
        by_power.setdefault(card.power, card)
    six = list(by_power.values())[:6]
    # Replace the list's high Heroes with six new ones (one per power).
    decklist = Decklist(
        tuple(e for e in base.entries if (real[e.card_id].power or 0) <= 160)
        + tuple(DeckEntry(Section.HEROES, c.id, 1) for c in six)
    )
    heroes = sum(e.count for e in decklist.section(Section.HEROES))
    assert 60 <= heroes <= 70
    report = validate_decklist(decklist, real, spec_plus)
    only(report.rules(), "hero_deck.limited_slots")
    (v,) = report.violations
    assert v.counts == {"actual": 6, "maximum": 5, "power": 160}


def test_formats_elite_playmaker_total_power(real: Catalog, legal: Decklist) -> None:
    elite = get_format("elite_playmaker")
    total = sum(c.power or 0 for c in heroes_of(legal, real))
    assert total > 8250
    report = validate_decklist(legal, real, elite)
    only(report.rules(), "hero_deck.total_power")
    (v,) = report.violations
    assert v.counts == {"actual": total, "maximum": 8250}
    assert "8,250" in v.message


# -- Playbook, Bonus Plays, Hot Dogs ---------------------------------------------------------
def test_cr_4_3_1_playbook_size(real: Catalog, legal: Decklist) -> None:
    report = validate_decklist(
        with_section(legal, Section.PLAYBOOK, legal.section(Section.PLAYBOOK)[:29]), real, PLAYMAKER
    )
    only(report.rules(), "playbook.size")
    (v,) = report.violations
    assert (v.citation, dict(v.counts)) == ("CR 1.2.3, CR 4.3.1", {"actual": 29, "required": 30})


def test_cr_2_1_2_plays_unique_variants_count_as_the_same_play(
    real: Catalog, legal: Decklist
) -> None:
    base, htd = named(real, "Loan Sharked"), named(real, "Loan Sharked - htd")
    plays = [
        e for e in legal.section(Section.PLAYBOOK) if real[e.card_id].play_name != "Loan Sharked"
    ][:28]
    decklist = with_section(legal, Section.PLAYBOOK, [*plays, *play_entries([base, htd])])
    report = validate_decklist(decklist, real, PLAYMAKER.but(dbs_cap=None))
    only(report.rules(), "playbook.unique")
    (v,) = report.violations
    assert v.citation == "CR 2.1.2, CR 4.3.1"
    assert set(v.cards) == {"Loan Sharked", "Loan Sharked - htd"} and v.counts["actual"] == 2


def test_cr_2_1_3_bonus_plays_unique_across_playbook_and_bonus(
    real: Catalog, legal: Decklist
) -> None:
    copycat = named(real, "Copycat")
    decklist = Decklist((*legal.entries, DeckEntry(Section.BONUS_PLAYS, copycat.id, 2)))
    report = validate_decklist(decklist, real, PLAYMAKER.but(dbs_cap=None))
    only(report.rules(), "bonus_plays.unique")
    assert report.violations[0].citation == "CR 2.1.3"
    one = Decklist((*legal.entries, DeckEntry(Section.BONUS_PLAYS, copycat.id, 1)))
    assert validate_decklist(one, real, PLAYMAKER.but(dbs_cap=None)).legal
    # A Play's variant in Bonus Plays clashes with the Play in the Playbook.
    in_book = real[legal.section(Section.PLAYBOOK)[0].card_id]
    clash = Decklist((*legal.entries, DeckEntry(Section.BONUS_PLAYS, in_book.id, 1)))
    rules = validate_decklist(clash, real, PLAYMAKER.but(dbs_cap=None)).rules()
    assert "bonus_plays.unique" in rules


def test_bonus_plays_not_allowed_or_capped(real: Catalog, legal: Decklist) -> None:
    copycat = named(real, "Copycat")
    decklist = Decklist((*legal.entries, DeckEntry(Section.BONUS_PLAYS, copycat.id, 1)))
    no_bonus = PLAYMAKER.but(bonus_plays_allowed=False, dbs_cap=None)
    only(validate_decklist(decklist, real, no_bonus).rules(), "bonus_plays.not_allowed")
    zero = PLAYMAKER.but(max_bonus_plays=0, dbs_cap=None)
    only(validate_decklist(decklist, real, zero).rules(), "bonus_plays.not_allowed")


def test_formats_double_sealed_playbook_of_twenty_with_duplicates(real: Catalog) -> None:
    sealed = get_format("double_blaster_sealed")
    base = sample_decklist(real, sealed, seed=2)
    first = base.section(Section.PLAYBOOK)[0]
    dupes = with_section(
        base,
        Section.PLAYBOOK,
        [DeckEntry(Section.PLAYBOOK, first.card_id, 2), *base.section(Section.PLAYBOOK)[2:]],
    )
    assert validate_decklist(dupes, real, sealed).legal
    report = validate_decklist(dupes, real, "booster_box_sealed")
    assert {"playbook.unique", "playbook.size", "hero_deck.size"} <= report.rules()


def test_cr_2_1_4_hot_dog_deck_exactly_ten_any_names(real: Catalog, legal: Decklist) -> None:
    brat = named(real, "Brat Wurst")
    mixed = with_section(
        legal,
        Section.HOT_DOGS,
        [DeckEntry(Section.HOT_DOGS, brat.id, 4), DeckEntry(Section.HOT_DOGS, real.hot_dog.id, 6)],
    )
    assert validate_decklist(mixed, real, PLAYMAKER).legal
    nine = with_section(legal, Section.HOT_DOGS, [DeckEntry(Section.HOT_DOGS, brat.id, 9)])
    report = validate_decklist(nine, real, PLAYMAKER)
    only(report.rules(), "hot_dogs.size")
    (v,) = report.violations
    assert v.citation == "CR 2.1.4" and dict(v.counts) == {"actual": 9, "required": 10}
    ten = validate_decklist(with_section(nine, Section.PLAYBOOK, []), real, "apex_madness")
    assert {"hot_dogs.size"} <= ten.rules()
    (v,) = [v for v in ten.violations if v.rule == "hot_dogs.size"]
    assert v.citation == "Formats: Apex Madness" and v.counts["required"] == 4


def test_cr_1_2_sections_a_mode_does_not_use(real: Catalog, legal: Decklist) -> None:
    rookie = validate_decklist(legal, real, "rookie")
    assert rookie.rules() == {"deck.section_not_used"}
    assert sorted(v.counts["actual"] for v in rookie.violations) == [10, 30]
    assert {v.citation for v in rookie.violations} == {"CR 1.2"}
    substitution = validate_decklist(legal, real, "substitution")
    (v,) = substitution.violations
    assert v.rule == "deck.section_not_used" and "Playbook" in v.message
    assert validate_decklist(with_section(legal, Section.PLAYBOOK, []), real, "substitution").legal


def test_formats_dbs_cap(real: Catalog, legal: Decklist) -> None:
    costly = sorted((v.card for v in variants(real, CardKind.PLAY)), key=lambda c: -(c.dbs or 0))
    names: set[str] = set()
    top: list[CatalogCard] = []
    for card in costly:
        if card.play_name not in names and len(top) < 30:
            names.add(card.play_name)
            top.append(card)
    decklist = with_section(legal, Section.PLAYBOOK, play_entries(top))
    total = sum(c.dbs or 0 for c in top)
    report = validate_decklist(decklist, real, PLAYMAKER)
    only(report.rules(), "playbook.dbs")
    (v,) = report.violations
    assert v.citation == "Formats: DBS" and dict(v.counts) == {"actual": total, "maximum": 1000}
    assert validate_decklist(decklist, real, PLAYMAKER.but(dbs_cap=total)).legal
    stats = deck_statistics(decklist, real, PLAYMAKER)
    assert (stats.dbs_total, stats.dbs_cap) == (total, 1000)


def test_formats_dbs_counts_bonus_and_htd_plays(real: Catalog, legal: Decklist) -> None:
    copycat = named(real, "Copycat")
    decklist = Decklist((*legal.entries, DeckEntry(Section.BONUS_PLAYS, copycat.id, 1)))
    before = deck_statistics(legal, real).dbs_total
    assert deck_statistics(decklist, real).dbs_total == before + 25
    report = validate_decklist(decklist, real, PLAYMAKER.but(dbs_cap=before + 24))
    only(report.rules(), "playbook.dbs")


def test_formats_dbs_unknown_dbs_cannot_be_checked(real: Catalog, legal: Decklist) -> None:
    mystery = CatalogCard(id="test:mystery", kind=CardKind.PLAY, name="Mystery Play", set="Test")
    catalog = real.with_cards([mystery])
    plays = [*legal.section(Section.PLAYBOOK)[:29], DeckEntry(Section.PLAYBOOK, mystery.id, 1)]
    decklist = with_section(legal, Section.PLAYBOOK, plays)
    only(validate_decklist(decklist, catalog, PLAYMAKER).rules(), "playbook.dbs_unknown")
    # without a DBS cap (a custom format; Double Blaster / Double Mega Sealed) no DBS is needed
    assert validate_decklist(decklist, catalog, PLAYMAKER.but(dbs_cap=None)).legal


def test_formats_checklist_allow_list(real: Catalog, legal: Decklist) -> None:
    plays = [real[e.card_id] for e in legal.section(Section.PLAYBOOK)]
    checklist = [c.play_name for c in plays[1:]]
    fmt = PLAYMAKER.but(play_checklist=tuple(checklist))
    report = validate_decklist(legal, real, fmt)
    only(report.rules(), "playbook.checklist")
    assert report.violations[0].card_ids == (plays[0].id,)
    everything = PLAYMAKER.but(play_checklist=tuple(c.play_name.upper() for c in plays))
    assert validate_decklist(legal, real, everything).legal


def test_formats_card_pools_by_set(real: Catalog, legal: Decklist) -> None:
    modern = PLAYMAKER.but(card_pool=("Alpha Update", "Alpha Blast", "Griffey Edition"))
    alpha_only = next(v for v in variants(real, CardKind.HERO) if v.sets == {"Alpha Edition"})
    in_both = next(
        v
        for v in variants(real, CardKind.HERO)
        if "Alpha Edition" in v.sets and "Griffey Edition" in v.sets
    )
    base = sample_decklist(real, modern, seed=4)
    assert validate_decklist(base, real, modern).legal
    # A variant reprinted in the pool is fine by name; the Alpha Edition printing named by
    # set and number is not.
    reprint = with_heroes(base, real, [in_both.card])
    assert "card_pool" not in validate_decklist(reprint, real, modern).rules()
    exact = with_heroes(base, real, [in_both.card], exact=True)
    assert "card_pool" in validate_decklist(exact, real, modern).rules()
    outside = with_heroes(base, real, [alpha_only.card])
    report = validate_decklist(outside, real, modern)
    assert "card_pool" in report.rules()
    (v,) = [v for v in report.violations if v.rule == "card_pool"]
    assert v.card_ids == (alpha_only.card.id,) and v.citation == "Formats: card pools"


def test_formats_card_pools_named_pools(real: Catalog) -> None:
    legacy = Format.from_dict(
        {"base": "playmaker", "key": "l", "name": "Legacy", "card_pool": "legacy"}
    )
    assert validate_decklist(sample_decklist(real, PLAYMAKER, seed=9), real, legacy).legal
    trilogy = Format.from_dict(
        {"base": "playmaker", "key": "a", "name": "Alpha", "card_pool": "alpha_trilogy"}
    )
    assert validate_decklist(sample_decklist(real, trilogy, seed=9), real, trilogy).legal


def test_cards_in_the_wrong_section_of_a_stored_list(real: Catalog, legal: Decklist) -> None:
    hero = legal.section(Section.HEROES)[0]
    moved = Decklist(
        (*(e for e in legal.entries if e is not hero), DeckEntry(Section.PLAYBOOK, hero.card_id, 1))
    )
    rules = validate_decklist(moved, real, PLAYMAKER).rules()
    assert {"deck.wrong_section", "hero_deck.size", "playbook.size"} <= rules


def test_stale_ids_are_reported(real: Catalog, legal: Decklist) -> None:
    stale = Decklist((*legal.entries, DeckEntry(Section.HEROES, "deleted-card", 1)))
    report = validate_decklist(stale, real, PLAYMAKER)
    assert report.rules() == {"decklist.unknown_card"}


def test_every_violation_not_just_the_first(real: Catalog) -> None:
    text = """
    Heroes
    Action (Fire 110)
    Action (Fire 110)
    Playbook
    Loan Sharked
    Loan Sharked - htd
    Lone Sharkd
    Hot Dogs
    3 Hot Dog
    """
    report = validate_decklist(text, real, PLAYMAKER)
    assert report.rules() == {
        "decklist.unknown_card",
        "hero_deck.size",
        "hero_deck.one_per_variation",
        "playbook.size",
        "playbook.unique",
        "hot_dogs.size",
    }
    assert [w.code for w in report.warnings] == ["duplicate_line"]


def test_deck_statistics(real: Catalog) -> None:
    decklist = parse_decklist(
        "Action (Fire 110)\nAction (Ice 110)\nAction (Steel 105)\nLoan Sharked\nCopycat\n10 Hot Dog\n",
        real,
    )
    stats = deck_statistics(decklist, real, PLAYMAKER)
    assert stats.hero_power_histogram == {105: 1, 110: 2}
    assert stats.weapon_breakdown == {"Fire": 1, "Ice": 1, "Steel": 1}
    assert stats.total_hero_power == 325 and stats.average_hero_power == pytest.approx(108.3)
    assert stats.play_cost_curve == {2: 1} and stats.plays_with_variable_cost == 1
    assert (stats.dbs_total, stats.dbs_cap) == (35, 1000)
    assert json.loads(json.dumps(stats.to_dict()))["hero_power_histogram"] == {"105": 1, "110": 2}
