"""Audit: hand-built lists of real cards (../shared/data), each legal or wrong in exactly one way.

Every list here is put together card by card from the real catalog (no sample generator), so
the counts in the assertions are worked out by hand:

- the base Hero deck: for each Power value 90, 95, ..., 160 (15 values) the first 4 Hero
  variations by card id whose names are not used yet: 60 Heroes, 4 per Power value, 60
  different names, total Power 4 x (90 + 95 + ... + 160) = 4 x 1,875 = 7,500;
- the base Playbook: the 30 Plays (no HTD variants) of lowest DBS, one per name;
- the Hot Dogs: 6 Brat Wurst and 4 Frank (names do not matter, CR 2.1.4).

Rules: CR 1.2, 2.1.1-2.1.4, 4.1.1, 4.3.1; Summary: Deckbuilding; shared/rules/formats.md;
shared/rules/README.md product decisions 1 and 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from engine.boba.deckbuilding import (
    CardKind,
    Catalog,
    CatalogCard,
    DeckEntry,
    Decklist,
    Format,
    Section,
    get_format,
    parse_decklist,
    validate_decklist,
)
from engine.boba.deckbuilding.validation import ValidationReport

BASE_POWERS = tuple(range(90, 161, 5))  # 15 Power values


# -- building lists by hand --------------------------------------------------------------------
def hero_variants(cat: Catalog) -> list[CatalogCard]:
    return [v.card for v in cat.variants_of(CardKind.HERO)]


def plain_plays(cat: Catalog) -> list[CatalogCard]:
    """One canonical Play per name, no HTD variants, lowest DBS first (then id)."""
    seen: dict[str, CatalogCard] = {}
    for v in cat.variants_of(CardKind.PLAY):
        card = v.card
        if card.base_name is None and card.dbs is not None:
            seen.setdefault(card.play_name.casefold(), card)
    return sorted(seen.values(), key=lambda c: (c.dbs or 0, c.id))


def base_heroes(
    cat: Catalog, per_power: int = 4, powers: Sequence[int] = BASE_POWERS
) -> list[CatalogCard]:
    names: set[str] = set()
    out: list[CatalogCard] = []
    heroes = hero_variants(cat)
    for power in powers:
        picked = 0
        for card in heroes:
            if card.power == power and card.name.casefold() not in names:
                out.append(card)
                names.add(card.name.casefold())
                picked += 1
                if picked == per_power:
                    break
        assert picked == per_power, power
    return out


def spare_hero(cat: Catalog, power: int, used: Iterable[CatalogCard]) -> CatalogCard:
    """A Hero of this Power whose name is not in `used`."""
    names = {c.name.casefold() for c in used}
    for card in hero_variants(cat):
        if card.power == power and card.name.casefold() not in names:
            return card
    raise AssertionError(power)


def named(cat: Catalog, name: str) -> CatalogCard:
    (variant,) = cat.variants_named(name)
    return variant.card


def hot_dogs(cat: Catalog, n: int = 10) -> list[tuple[CatalogCard, int]]:
    brat, frank = named(cat, "Brat Wurst"), named(cat, "Frank")
    return [(brat, min(n, 6)), (frank, n - 6)] if n > 6 else [(brat, n)]


def deck(
    heroes: Iterable[CatalogCard] = (),
    plays: Iterable[CatalogCard] = (),
    bonus: Iterable[CatalogCard] = (),
    dogs: Iterable[tuple[CatalogCard, int]] = (),
) -> Decklist:
    """One entry per card given (a card given twice is two entries of 1, as two lines)."""
    entries: list[DeckEntry] = []
    for c in heroes:
        entries.append(DeckEntry(Section.HEROES, c.id, 1, exact=True))
    for c in plays:
        entries.append(DeckEntry(Section.PLAYBOOK, c.id, 1, exact=True))
    for c in bonus:
        entries.append(DeckEntry(Section.BONUS_PLAYS, c.id, 1, exact=True))
    for c, n in dogs:
        entries.append(DeckEntry(Section.HOT_DOGS, c.id, n, exact=True))
    return Decklist(tuple(entries))


def one(report: ValidationReport, rule: str, citation: str) -> dict[str, int]:
    """The report has exactly one violation, of `rule` with `citation`; its counts."""
    assert [(v.rule, v.citation) for v in report.violations] == [(rule, citation)], [
        v.to_dict() for v in report.violations
    ]
    return dict(report.violations[0].counts)


def legal(report: ValidationReport) -> None:
    assert report.legal, [v.to_dict() for v in report.violations]


@pytest.fixture(scope="module")
def heroes(real: Catalog) -> list[CatalogCard]:
    out = base_heroes(real)
    assert len(out) == 60 and sum(c.power or 0 for c in out) == 7500
    return out


@pytest.fixture(scope="module")
def plays(real: Catalog) -> list[CatalogCard]:
    out = plain_plays(real)[:30]
    assert len({c.play_name for c in out}) == 30
    assert sum(c.dbs or 0 for c in out) <= 1000
    return out


@pytest.fixture(scope="module")
def dogs(real: Catalog) -> list[tuple[CatalogCard, int]]:
    return hot_dogs(real)


PLAYMAKER = get_format("playmaker")


# -- Playmaker: the base list and one problem at a time ----------------------------------------
def test_base_playmaker_list_is_legal(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    legal(validate_decklist(deck(heroes, plays, (), dogs), real, PLAYMAKER))


@pytest.mark.parametrize("n", [59, 61])
def test_cr_4_1_1_hero_deck_one_off_sixty(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
    n: int,
) -> None:
    hs = heroes[:59] if n == 59 else [*heroes, spare_hero(real, 165, heroes)]
    counts = one(
        validate_decklist(deck(hs, plays, (), dogs), real, PLAYMAKER),
        "hero_deck.size",
        "CR 1.2, CR 4.1.1",
    )
    assert counts == {"actual": n, "minimum": 60, "maximum": 60}


def test_cr_4_1_1_six_per_power_value_is_the_limit(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    # 60 Heroes, Power 100 six times: legal (the 2 extra replace two Heroes of Power 90)
    six = [h for h in heroes if h.power != 90] + [c for c in heroes if c.power == 90][:2]
    extra: list[CatalogCard] = []
    for _ in range(2):
        extra.append(spare_hero(real, 100, [*six, *extra]))
    at_limit = six + extra
    assert len(at_limit) == 60 and sum(h.power == 100 for h in at_limit) == 6
    legal(validate_decklist(deck(at_limit, plays, (), dogs), real, PLAYMAKER))
    # one more at 100 instead of a Power 90 Hero: 7 share Power 100
    over = [h for h in at_limit if h is not next(c for c in at_limit if c.power == 90)]
    over.append(spare_hero(real, 100, over))
    assert len(over) == 60 and sum(h.power == 100 for h in over) == 7
    counts = one(
        validate_decklist(deck(over, plays, (), dogs), real, PLAYMAKER),
        "hero_deck.power_value",
        "CR 4.1.1",
    )
    assert counts == {"power": 100, "actual": 7, "maximum": 6}


def test_cr_4_1_1_two_parallels_of_one_variation_are_a_duplicate(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    action = real.variants_labelled("Action (Fire 110)")[0]
    paper, foil = action.printings[0], action.printings[1]
    assert paper.parallel != foil.parallel and paper.card_number != foil.card_number
    # replace two Power-110 Heroes by the two parallels: still 4 at Power 110
    others = [h for h in heroes if h.power != 110] + [h for h in heroes if h.power == 110][:2]
    others = [h for h in others if h.name != "Action"]
    hs = [*others, paper, foil]
    assert len(hs) == 60
    report = validate_decklist(deck(hs, plays, (), dogs), real, PLAYMAKER)
    counts = one(report, "hero_deck.one_per_variation", "CR 4.1.1")
    assert counts == {"actual": 2, "maximum": 1}
    assert {paper.id, foil.id} == set(report.violations[0].card_ids)


def test_cr_2_1_1_same_name_other_weapon_or_power_is_another_variation(
    real: Catalog, plays: list[CatalogCard], dogs: list[tuple[CatalogCard, int]]
) -> None:
    """Action (Fire 110), Action (Ice 110) and Action (Steel 105): three variations (CR 2.1.1)."""
    actions = [
        real.variants_labelled(x)[0].card
        for x in ("Action (Fire 110)", "Action (Ice 110)", "Action (Steel 105)")
    ]
    base = [h for h in base_heroes(real) if h.name != "Action"]
    assert len(base) == 60
    # they replace two Power-110 Heroes and one Power-105 Hero: still 4 per Power value
    drop = [h for h in base if h.power == 110][:2] + [h for h in base if h.power == 105][:1]
    hs = [*(h for h in base if h not in drop), *actions]
    assert len(hs) == 60
    legal(validate_decklist(deck(hs, plays, (), dogs), real, PLAYMAKER))


@pytest.mark.parametrize("n", [29, 31])
def test_cr_4_3_1_playbook_one_off_thirty(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
    n: int,
) -> None:
    ps = plays[:29] if n == 29 else [*plays, plain_plays(real)[30]]
    counts = one(
        validate_decklist(deck(heroes, ps, (), dogs), real, PLAYMAKER),
        "playbook.size",
        "CR 1.2.3, CR 4.3.1",
    )
    assert counts == {"actual": n, "required": 30}


def test_cr_2_1_2_a_play_and_its_htd_variant_are_a_duplicate(
    real: Catalog, heroes: list[CatalogCard], dogs: list[tuple[CatalogCard, int]]
) -> None:
    base, htd = named(real, "Loan Sharked"), named(real, "Loan Sharked - htd")
    others = [p for p in plain_plays(real) if p.play_name != "Loan Sharked"][:28]
    ps = [*others, base, htd]
    assert sum(p.dbs or 0 for p in ps) <= 1000
    report = validate_decklist(deck(heroes, ps, (), dogs), real, PLAYMAKER)
    counts = one(report, "playbook.unique", "CR 2.1.2, CR 4.3.1")
    assert counts == {"actual": 2, "maximum": 1}
    assert set(report.violations[0].cards) == {"Loan Sharked", "Loan Sharked - htd"}


def test_cr_4_3_1_the_same_play_twice(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    ps = [*plays[:29], plays[0]]
    counts = one(
        validate_decklist(deck(heroes, ps, (), dogs), real, PLAYMAKER),
        "playbook.unique",
        "CR 2.1.2, CR 4.3.1",
    )
    assert counts == {"actual": 2, "maximum": 1}


def test_cr_2_1_3_bonus_plays_beyond_thirty_are_legal(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    bonus = [named(real, "Copycat"), named(real, "Bench Lock")]
    assert sum(p.dbs or 0 for p in [*plays, *bonus]) <= 1000
    legal(validate_decklist(deck(heroes, plays, bonus, dogs), real, PLAYMAKER))


def test_cr_2_1_3_a_bonus_play_twice_is_a_duplicate(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    copycat = named(real, "Copycat")
    counts = one(
        validate_decklist(deck(heroes, plays, [copycat, copycat], dogs), real, PLAYMAKER),
        "bonus_plays.unique",
        "CR 2.1.3",
    )
    assert counts == {"actual": 2, "maximum": 1}


def test_cr_2_1_3_a_bonus_play_duplicating_a_playbook_play(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    """No Bonus Play card shares a name with a Play in the real data, so the duplicate is a
    Play (or its HTD variant) entered among the Bonus Plays: one violation, CR 2.1.3."""
    in_book = plays[3]
    counts = one(
        validate_decklist(deck(heroes, plays, [in_book], dogs), real, PLAYMAKER),
        "bonus_plays.unique",
        "CR 2.1.3",
    )
    assert counts == {"actual": 2, "maximum": 1}
    base, htd = named(real, "Loan Sharked"), named(real, "Loan Sharked - htd")
    ps = [*plays[:29], base]
    counts = one(
        validate_decklist(deck(heroes, ps, [htd], dogs), real, PLAYMAKER),
        "bonus_plays.unique",
        "CR 2.1.3",
    )
    assert counts == {"actual": 2, "maximum": 1}
    # the same in the text format: the Play stays where the list put it
    text = "\n".join(
        [
            "Heroes",
            *(f"{real.variant(h.id).card.label}" for h in heroes),
            "Playbook",
            *(p.name for p in ps),
            "Bonus Plays",
            "Loan Sharked - htd",
            "Hot Dogs",
            "10 Hot Dog",
        ]
    )
    report = validate_decklist(text, real, PLAYMAKER)
    counts = one(report, "bonus_plays.unique", "CR 2.1.3")
    assert counts == {"actual": 2, "maximum": 1}


def test_a_plain_play_among_bonus_plays_is_not_a_bonus_play(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    extra = plain_plays(real)[30]
    report = validate_decklist(deck(heroes, plays, [extra], dogs), real, PLAYMAKER)
    assert report.rules() == {"deck.wrong_section"}


@pytest.mark.parametrize("n", [9, 11])
def test_cr_2_1_4_hot_dogs_one_off_ten(
    real: Catalog, heroes: list[CatalogCard], plays: list[CatalogCard], n: int
) -> None:
    counts = one(
        validate_decklist(deck(heroes, plays, (), hot_dogs(real, n)), real, PLAYMAKER),
        "hot_dogs.size",
        "CR 2.1.4",
    )
    assert counts == {"actual": n, "required": 10}


def test_cr_2_1_4_hot_dogs_may_repeat(
    real: Catalog, heroes: list[CatalogCard], plays: list[CatalogCard]
) -> None:
    legal(validate_decklist(deck(heroes, plays, (), [(named(real, "Frank"), 10)]), real, PLAYMAKER))
    text = "Hot Dogs\n" + "\n".join(["1 Frank"] * 10)
    d = parse_decklist(text, real)
    full = Decklist(tuple(e for e in deck(heroes, plays).entries) + d.entries)
    legal(validate_decklist(full, real, PLAYMAKER))


def dbs_exactly(real: Catalog, target: int) -> list[CatalogCard]:
    """30 distinct Plays whose DBS adds up to exactly `target` (raise the cheapest first)."""
    pool = plain_plays(real)
    chosen = pool[:30]
    rest = pool[30:]
    total = sum(c.dbs or 0 for c in chosen)
    for k in range(30):
        if total == target:
            break
        low = chosen[k]
        room = target - total + (low.dbs or 0)
        fits = [c for c in rest if (c.dbs or 0) <= room]
        if not fits:
            continue
        best = max(fits, key=lambda c: (c.dbs or 0, c.id))
        rest.remove(best)
        rest.append(low)
        chosen[k] = best
        total += (best.dbs or 0) - (low.dbs or 0)
    assert total == target and len({c.play_name for c in chosen}) == 30
    return chosen


def test_formats_dbs_exactly_1000_is_legal_1001_is_not(
    real: Catalog, heroes: list[CatalogCard], dogs: list[tuple[CatalogCard, int]]
) -> None:
    legal(validate_decklist(deck(heroes, dbs_exactly(real, 1000), (), dogs), real, PLAYMAKER))
    counts = one(
        validate_decklist(deck(heroes, dbs_exactly(real, 1001), (), dogs), real, PLAYMAKER),
        "playbook.dbs",
        "Formats: DBS",
    )
    assert counts == {"actual": 1001, "maximum": 1000}


def test_formats_dbs_counts_bonus_and_htd_plays(
    real: Catalog, heroes: list[CatalogCard], dogs: list[tuple[CatalogCard, int]]
) -> None:
    ps = dbs_exactly(real, 1000 - 1)
    cheapest_bonus = min(
        (v.card for v in real.variants_of(CardKind.BONUS_PLAY)), key=lambda c: (c.dbs or 0, c.id)
    )
    assert cheapest_bonus.dbs == 1
    legal(validate_decklist(deck(heroes, ps, [cheapest_bonus], dogs), real, PLAYMAKER))
    two = next(b for b in (v.card for v in real.variants_of(CardKind.BONUS_PLAY)) if b.dbs == 2)
    counts = one(
        validate_decklist(deck(heroes, ps, [two], dogs), real, PLAYMAKER),
        "playbook.dbs",
        "Formats: DBS",
    )
    assert counts == {"actual": 1001, "maximum": 1000}
    htd = named(real, "Loan Sharked - htd")
    base = named(real, "Loan Sharked")
    assert htd.dbs != base.dbs  # an HTD variant carries its own DBS


# -- Rookie and Substitution (CR 1.2) ------------------------------------------------------------
def test_cr_1_2_1_rookie_uses_only_the_hero_deck(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    rookie = get_format("rookie")
    legal(validate_decklist(deck(heroes), real, rookie))
    counts = one(
        validate_decklist(deck(heroes, plays), real, rookie), "deck.section_not_used", "CR 1.2"
    )
    assert counts == {"actual": 30, "required": 0}
    counts = one(
        validate_decklist(deck(heroes, (), (), dogs), real, rookie),
        "deck.section_not_used",
        "CR 1.2",
    )
    assert counts == {"actual": 10, "required": 0}


def test_cr_1_2_2_substitution_adds_hot_dogs_only(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    sub = get_format("substitution")
    legal(validate_decklist(deck(heroes, (), (), dogs), real, sub))
    one(
        validate_decklist(deck(heroes, plays, (), dogs), real, sub),
        "deck.section_not_used",
        "CR 1.2",
    )
    counts = one(validate_decklist(deck(heroes), real, sub), "hot_dogs.size", "CR 2.1.4")
    assert counts == {"actual": 0, "required": 10}
    one(
        validate_decklist(deck(heroes[:59], (), (), dogs), real, sub),
        "hero_deck.size",
        "CR 1.2, CR 4.1.1",
    )


# -- sealed -------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["double_blaster_sealed", "double_mega_sealed"])
def test_formats_double_sealed_forty_and_twenty_without_build_limits(
    real: Catalog, plays: list[CatalogCard], dogs: list[tuple[CatalogCard, int]], key: str
) -> None:
    fmt = get_format(key)
    # 40 Heroes, 8 of them at Power 100 and one variation three times; 20 Plays, one 5 times,
    # DBS far over nothing (no cap in these formats)
    hs = base_heroes(real, per_power=2, powers=BASE_POWERS)[:30]
    hundred = [h for h in hero_variants(real) if h.power == 100][:7]
    hs = [*hs, *hundred, hundred[0], hundred[0], hundred[1]][:40]
    assert len(hs) == 40
    ps = [*plays[:15], *[plays[0]] * 5]
    legal(validate_decklist(deck(hs, ps, (), dogs), real, fmt))
    counts = one(
        validate_decklist(deck([*hs, hs[0]], ps, (), dogs), real, fmt),
        "hero_deck.size",
        f"Formats: {fmt.name}",
    )
    assert counts == {"actual": 41, "minimum": 40, "maximum": 40}
    counts = one(
        validate_decklist(deck(hs, [*ps, plays[1]], (), dogs), real, fmt),
        "playbook.size",
        f"Formats: {fmt.name}",
    )
    assert counts == {"actual": 21, "required": 20}
    counts = one(
        validate_decklist(deck(hs, ps, (), hot_dogs(real, 9)), real, fmt),
        "hot_dogs.size",
        "CR 2.1.4",
    )
    assert counts == {"actual": 9, "required": 10}
    expensive = sorted(plain_plays(real), key=lambda c: -(c.dbs or 0))[:20]
    assert sum(c.dbs or 0 for c in expensive) > 1000
    legal(validate_decklist(deck(hs, expensive, (), dogs), real, fmt))


def test_formats_booster_box_sealed_keeps_normal_build_limits(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    fmt = get_format("booster_box_sealed")
    legal(validate_decklist(deck(heroes, plays, (), dogs), real, fmt))
    one(
        validate_decklist(deck(heroes, [*plays[:29], plays[0]], (), dogs), real, fmt),
        "playbook.unique",
        "CR 2.1.2, CR 4.3.1",
    )
    one(
        validate_decklist(deck(heroes[:59], plays, (), dogs), real, fmt),
        "hero_deck.size",
        "CR 1.2, CR 4.1.1",
    )
    # DBS: a sanctioned Playmaker event unless it says otherwise (Formats: DBS)
    counts = one(
        validate_decklist(deck(heroes, dbs_exactly(real, 1001), (), dogs), real, fmt),
        "playbook.dbs",
        "Formats: DBS",
    )
    assert counts == {"actual": 1001, "maximum": 1000}


# -- SPEC, SPEC+, Elite ---------------------------------------------------------------------------
def test_formats_spec_playmaker_no_hero_above_160(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    spec = get_format("spec_playmaker")
    assert max(h.power or 0 for h in heroes) == 160
    legal(validate_decklist(deck(heroes, plays, (), dogs), real, spec))
    hs = [*heroes[1:], spare_hero(real, 165, heroes)]
    counts = one(
        validate_decklist(deck(hs, plays, (), dogs), real, spec),
        "hero_deck.power_cap",
        "Formats: SPEC Playmaker",
    )
    assert counts == {"actual": 1, "maximum": 0, "power_cap": 160}
    legal(validate_decklist(deck(hs, plays, (), dogs), real, PLAYMAKER))


def test_formats_spec_plus_playmaker_sixty_to_seventy_and_limited_slots(
    real: Catalog, plays: list[CatalogCard], dogs: list[tuple[CatalogCard, int]]
) -> None:
    fmt = get_format("spec_plus_playmaker")
    seventy = base_heroes(real, per_power=5, powers=BASE_POWERS)[:70]
    assert len(seventy) == 70
    legal(validate_decklist(deck(seventy, plays, (), dogs), real, fmt))
    seventy_one = [*seventy, spare_hero(real, 85, seventy)]
    counts = one(
        validate_decklist(deck(seventy_one, plays, (), dogs), real, fmt),
        "hero_deck.size",
        "Formats: SPEC+ Playmaker",
    )
    assert counts == {"actual": 71, "minimum": 60, "maximum": 70}
    base = base_heroes(real)
    high: list[CatalogCard] = []
    for power in (165, 170, 175, 180, 185, 190):
        high.append(spare_hero(real, power, [*base, *high]))
    five = [*base[5:], *high[:5]]
    legal(validate_decklist(deck(five, plays, (), dogs), real, fmt))
    six = [*base[6:], *high]
    counts = one(
        validate_decklist(deck(six, plays, (), dogs), real, fmt),
        "hero_deck.limited_slots",
        "Formats: SPEC+ Playmaker",
    )
    assert counts == {"actual": 6, "maximum": 5, "power": 160}


def test_formats_elite_playmaker_total_power_at_most_8250(
    real: Catalog, plays: list[CatalogCard], dogs: list[tuple[CatalogCard, int]]
) -> None:
    elite = get_format("elite_playmaker")
    # base 7,500; the four 90s become 165s (+300), the four 95s 170s (+300), two 100s 175s
    # (+150): 8,250 exactly, still 4 or fewer per Power value
    base = base_heroes(real)
    drop = [h for h in base if h.power in (90, 95)] + [h for h in base if h.power == 100][:2]
    hs = [h for h in base if h not in drop]
    for power, n in ((165, 4), (170, 4), (175, 2)):
        for _ in range(n):
            hs.append(spare_hero(real, power, hs))
    assert len(hs) == 60 and sum(h.power or 0 for h in hs) == 8_250
    legal(validate_decklist(deck(hs, plays, (), dogs), real, elite))
    # one Power-105 Hero becomes a 110: 8,255
    over = [h for h in hs if h is not next(c for c in hs if c.power == 105)]
    over.append(spare_hero(real, 110, over))
    assert len(over) == 60 and sum(h.power or 0 for h in over) == 8_255
    counts = one(
        validate_decklist(deck(over, plays, (), dogs), real, elite),
        "hero_deck.total_power",
        "Formats: Elite Playmaker",
    )
    assert counts == {"actual": 8_255, "maximum": 8_250}
    legal(validate_decklist(deck(over, plays, (), dogs), real, PLAYMAKER))


# -- team formats -------------------------------------------------------------------------------
def test_formats_apex_madness_build_limits(real: Catalog, plays: list[CatalogCard]) -> None:
    apex = get_format("apex_madness")
    four = hot_dogs(real, 4)
    seventy = base_heroes(real, per_power=5, powers=BASE_POWERS)[:70]
    legal(validate_decklist(deck(base_heroes(real), (), (), four), real, apex))
    legal(validate_decklist(deck(seventy, (), (), four), real, apex))
    counts = one(
        validate_decklist(
            deck([*seventy, spare_hero(real, 85, seventy)], (), (), four), real, apex
        ),
        "hero_deck.size",
        "Formats: Apex Madness",
    )
    assert counts == {"actual": 71, "minimum": 60, "maximum": 70}
    counts = one(
        validate_decklist(deck(seventy, (), (), hot_dogs(real, 10)), real, apex),
        "hot_dogs.size",
        "Formats: Apex Madness",
    )
    assert counts == {"actual": 10, "required": 4}
    seven = [*seventy[:69], spare_hero(real, 90, seventy)]
    assert sum(h.power == 90 for h in seven) == 6
    seven = [h for h in seven if h.power != 95] + [h for h in seven if h.power == 95][:4]
    seven.append(spare_hero(real, 90, seven))
    counts = one(
        validate_decklist(deck(seven, (), (), four), real, apex),
        "hero_deck.power_value",
        "CR 4.1.1",
    )
    assert counts == {"power": 90, "actual": 7, "maximum": 6}
    one(
        validate_decklist(deck(seventy, plays, (), four), real, apex),
        "deck.section_not_used",
        "CR 1.2",
    )


def test_formats_hilo_madness_build_limits(real: Catalog, heroes: list[CatalogCard]) -> None:
    hilo = get_format("hilo_madness")
    four = hot_dogs(real, 4)
    legal(validate_decklist(deck(heroes, (), (), four), real, hilo))
    counts = one(
        validate_decklist(deck([*heroes, spare_hero(real, 85, heroes)], (), (), four), real, hilo),
        "hero_deck.size",
        "CR 1.2, CR 4.1.1",
    )
    assert counts == {"actual": 61, "minimum": 60, "maximum": 60}
    counts = one(
        validate_decklist(deck(heroes, (), (), hot_dogs(real, 5)), real, hilo),
        "hot_dogs.size",
        "Formats: HiLo Madness",
    )
    assert counts == {"actual": 5, "required": 4}


# -- the per-Hero-name cap (Summary: Deckbuilding; off in 2026) -----------------------------------
def bojax_variations(real: Catalog, n: int) -> list[CatalogCard]:
    seen_powers: dict[int, int] = {}
    out = []
    for v in real.variants_named("Bojax"):
        c = v.card
        if c.kind is CardKind.HERO and seen_powers.get(c.power or 0, 0) < 2:
            out.append(c)
            seen_powers[c.power or 0] = seen_powers.get(c.power or 0, 0) + 1
    assert len(out) >= n
    return out[:n]


@pytest.mark.parametrize("n", [6, 7])
def test_summary_deckbuilding_name_cap_is_off_by_default_and_six_when_on(
    real: Catalog, plays: list[CatalogCard], dogs: list[tuple[CatalogCard, int]], n: int
) -> None:
    bojax = bojax_variations(real, n)
    base = [h for h in base_heroes(real) if h.name != "Bojax"]
    # remove one Hero of each Bojax Power where there is room to stay at 4 per value
    hs = list(base)
    for b in bojax:
        same = [h for h in hs if h.power == b.power and h.name != "Bojax"]
        if same:
            hs.remove(same[0])
        else:
            hs.remove(hs[0])
    hs = [*hs, *bojax][:60]
    assert len(hs) == 60
    assert max(sum(h.power == p for h in hs) for p in {h.power for h in hs}) <= 6
    legal(validate_decklist(deck(hs, plays, (), dogs), real, PLAYMAKER))
    capped = PLAYMAKER.but(max_copies_per_hero_name=6)
    report = validate_decklist(deck(hs, plays, (), dogs), real, capped)
    if n == 6:
        legal(report)
    else:
        counts = one(report, "hero_deck.name_limit", "Summary: Deckbuilding")
        assert counts == {"actual": 7, "maximum": 6}


def test_summary_deckbuilding_every_2026_preset_has_no_name_cap() -> None:
    from engine.boba.deckbuilding import FORMAT_PRESETS

    assert all(f.max_copies_per_hero_name is None for f in FORMAT_PRESETS.values())


# -- the text format --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "label", "count"),
    [
        ("2x Loan Sharked", "Loan Sharked", 2),
        ("2X loan sharked", "Loan Sharked", 2),
        ("x2 Loan Sharked", "Loan Sharked", 2),
        ("Loan Sharked x2", "Loan Sharked", 2),
        ("Loan Sharked 2x", "Loan Sharked", 2),
        ("2 x Loan Sharked", "Loan Sharked", 2),
        ("  2   LOAN   SHARKED  ", "Loan Sharked", 2),
        ("1\tLoan Sharked", "Loan Sharked", 1),
        ("Loan Sharked", "Loan Sharked", 1),
        ("1 Loan Sharked // a comment", "Loan Sharked", 1),
        ("Loan Sharked-HTD", "Loan Sharked - htd", 1),
        ("10 Per Play", "10 Per Play", 1),
        ("1 Action (Fire 110)", "Action (Fire 110)", 1),
        ("action (fire, 110)", "Action (Fire 110)", 1),
        ("Action [110 fire]", "Action (Fire 110)", 1),
        ("Action Fire 110", "Action (Fire 110)", 1),
        ("2x Action (Fire 110)", "Action (Fire 110)", 2),
        ("Alpha Edition #BLBF-128", "Action (Fire 110)", 1),
        ("alpha edition #blbf-128", "Action (Fire 110)", 1),
        ("1 Action (Fire 110) [Alpha Edition #BLBF-128]", "Action (Fire 110)", 1),
        ("Alpha Edition BLBF-128", "Action (Fire 110)", 1),
        ("1 Alpha Edition #PL-1", "Front Run", 1),
        ("10 Hot Dog", "Hot Dog", 10),
        ("Hot Dog x10", "Hot Dog", 10),
    ],
)
def test_line_forms(real: Catalog, line: str, label: str, count: int) -> None:
    d = parse_decklist(f"# a comment\n\n{line}\n\n", real)
    assert not d.errors, [i.to_dict() for i in d.errors]
    (entry,) = d.entries
    assert (real[entry.card_id].label, entry.count) == (label, count)


def test_headings_comments_blank_lines_and_repeats(real: Catalog) -> None:
    text = """
    # my deck
    HEROES (60):
    1 Action (Fire 110)

    // a comment line
    ## Playbook
    1 Loan Sharked
    [Bonus Plays]
    copycat
    Hot Dogs (10)
    6 Hot Dog
    4 Frank
    """
    d = parse_decklist(text, real)
    assert not d.issues
    got = [(e.section, real[e.card_id].label, e.count) for e in d.entries]
    assert got == [
        (Section.HEROES, "Action (Fire 110)", 1),
        (Section.PLAYBOOK, "Loan Sharked", 1),
        (Section.BONUS_PLAYS, "Copycat", 1),
        (Section.HOT_DOGS, "Hot Dog", 6),
        (Section.HOT_DOGS, "Frank", 4),
    ]
    twice = parse_decklist("Heroes\n1 Action (Fire 110)\n1 action (fire 110)\n", real)
    assert [i.code for i in twice.issues] == ["duplicate_line"]
    assert twice.entries[0].count == 2
    report = validate_decklist(twice, real, "rookie")
    assert "hero_deck.one_per_variation" in report.rules()


def test_unknown_names_get_suggestions(real: Catalog) -> None:
    report = validate_decklist("Playbook\n1 Lone Sharked\n", real, PLAYMAKER)
    (v,) = [v for v in report.violations if v.rule.startswith("decklist.")]
    assert v.rule == "decklist.unknown_card" and v.citation == "Decklist format"
    assert v.line == 2 and "Loan Sharked" in v.suggestions
    assert "Lone Sharked" in v.message


def test_bad_counts_and_ambiguous_names(real: Catalog) -> None:
    d = parse_decklist("0 Loan Sharked\n1000 Hot Dog\nBojax\n", real)
    assert [i.code for i in d.errors] == ["bad_count", "bad_count", "ambiguous"]
    assert [i.line for i in d.errors] == [1, 2, 3]


def test_custom_format_parameters_are_named_in_citations(
    real: Catalog,
    heroes: list[CatalogCard],
    plays: list[CatalogCard],
    dogs: list[tuple[CatalogCard, int]],
) -> None:
    fmt = Format.from_dict({"base": "playmaker", "key": "casual", "name": "Casual", "dbs_cap": 100})
    counts = one(
        validate_decklist(deck(heroes, plays, (), dogs), real, fmt), "playbook.dbs", "Formats: DBS"
    )
    assert counts["maximum"] == 100
