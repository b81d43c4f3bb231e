"""Seeded legal decklists built from any catalog: demo data, tests and benchmarks.

`sample_decklist` picks cards that keep every limit of the format (Heroes per Power value, one
copy per variation, name cap, Power caps, DBS cap, card pool, checklist). It is a builder, not
a search: on a catalog too small for the format the list it returns is simply not legal, and
`validate_decklist` says why.
"""

from __future__ import annotations

import random

from engine.boba.deckbuilding.cards import (
    CardKind,
    Catalog,
    CatalogCard,
    Variant,
    normalise_name,
    variation_key,
)
from engine.boba.deckbuilding.decklist import DeckEntry, Decklist, Section
from engine.boba.deckbuilding.formats import Format


def _canonical(catalog: Catalog, kind: CardKind, fmt: Format) -> list[Variant]:
    return [
        v
        for v in catalog.variants_of(kind)
        if fmt.card_pool is None or any(fmt.set_allowed(s) for s in v.sets)
    ]


def _pool_card(variant: Variant, fmt: Format) -> tuple[CatalogCard, bool]:
    """The canonical printing, or the first in the pool (then named exactly)."""
    if fmt.set_allowed(variant.card.set):
        return variant.card, False
    for printing in variant.printings:
        if fmt.set_allowed(printing.set):
            return printing, True
    return variant.card, False


def _heroes(catalog: Catalog, fmt: Format, rng: random.Random) -> list[DeckEntry]:
    candidates = [
        v
        for v in _canonical(catalog, CardKind.HERO, fmt)
        if fmt.max_hero_power is None or (v.card.power or 0) <= fmt.max_hero_power
    ]
    rng.shuffle(candidates)
    target = fmt.hero_deck_min
    if fmt.max_total_hero_power is not None:
        # Lowest Power first keeps the total under the cap whenever any list can.
        candidates.sort(key=lambda v: v.card.power or 0)
    per_power: dict[int, int] = {}
    per_name: dict[str, int] = {}
    variations: set[object] = set()
    above = 0
    total_power = 0
    chosen: list[DeckEntry] = []
    for variant in candidates:
        if len(chosen) == target:
            break
        card = variant.card
        power = card.power or 0
        name = normalise_name(card.name)
        if (
            fmt.max_heroes_per_power is not None
            and per_power.get(power, 0) >= fmt.max_heroes_per_power
        ):
            continue
        if (
            fmt.max_copies_per_hero_name is not None
            and per_name.get(name, 0) >= fmt.max_copies_per_hero_name
        ):
            continue
        if variation_key(card) in variations:
            continue
        is_above = (
            fmt.limited_slots_above_power is not None and power > fmt.limited_slots_above_power
        )
        if is_above and above >= fmt.limited_slots:
            continue
        if fmt.max_total_hero_power is not None and total_power + power > fmt.max_total_hero_power:
            continue
        printing, exact = _pool_card(variant, fmt)
        chosen.append(DeckEntry(Section.HEROES, printing.id, 1, exact=exact))
        per_power[power] = per_power.get(power, 0) + 1
        per_name[name] = per_name.get(name, 0) + 1
        variations.add(variation_key(card))
        above += is_above
        total_power += power
    return chosen


def _plays(catalog: Catalog, fmt: Format, rng: random.Random) -> list[DeckEntry]:
    size = fmt.playbook_size or 0
    cap = fmt.dbs_cap
    plays = [
        v
        for v in _canonical(catalog, CardKind.PLAY, fmt)
        if fmt.play_allowed(v.card.play_name) and (cap is None or v.card.dbs is not None)
    ]
    rng.shuffle(plays)
    lowest = sorted(v.card.dbs or 0 for v in plays)
    chosen: list[DeckEntry] = []
    names: set[str] = set()
    dbs = 0
    for variant in plays:
        if len(chosen) == size:
            break
        card = variant.card
        name = normalise_name(card.play_name)
        if name in names:
            continue
        if cap is not None:
            # Room for the rest at the cheapest DBS still available.
            rest = sum(lowest[: size - len(chosen) - 1])
            if dbs + (card.dbs or 0) + rest > cap:
                continue
        printing, exact = _pool_card(variant, fmt)
        chosen.append(DeckEntry(Section.PLAYBOOK, printing.id, 1, exact=exact))
        names.add(name)
        dbs += card.dbs or 0
    if fmt.bonus_plays_allowed and fmt.max_bonus_plays != 0:
        for variant in _canonical(catalog, CardKind.BONUS_PLAY, fmt)[: rng.randint(0, 2)]:
            card = variant.card
            name = normalise_name(card.play_name)
            if name in names or (cap is not None and dbs + (card.dbs or 0) > cap):
                continue
            if not fmt.play_allowed(card.play_name) or (cap is not None and card.dbs is None):
                continue
            printing, exact = _pool_card(variant, fmt)
            chosen.append(DeckEntry(Section.BONUS_PLAYS, printing.id, 1, exact=exact))
            names.add(name)
            dbs += card.dbs or 0
    return chosen


def sample_decklist(catalog: Catalog, fmt: Format, seed: int = 0) -> Decklist:
    """A list for `fmt` from `catalog`, the same for the same seed (see module docstring)."""
    rng = random.Random(seed)
    entries = _heroes(catalog, fmt, rng)
    if fmt.uses_playbook:
        entries += _plays(catalog, fmt, rng)
    if fmt.uses_hot_dogs:
        entries.append(DeckEntry(Section.HOT_DOGS, catalog.hot_dog.id, fmt.hot_dog_count or 0))
    return Decklist(tuple(entries))
