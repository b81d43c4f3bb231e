"""Catalog cards and the in-memory catalog the deck rules read.

Notes on terminology
- A *printing* is one printed card: one row of the community card list, one parallel of one
  card number in one set. Every printing is a `CatalogCard` with its own id.
- A *variant* is what matters for deckbuilding and play: printings that share kind, name,
  weapon, power, cost and DBS are the same variant (a Hero's parallels are one variant, CR 2.1.1
  and shared/data/README.md). A decklist line names a variant, or one printing by set and card
  number; the catalog picks a canonical printing for each variant.
- A Hero *variation* is name + weapon + power (CR 4.1.1 "one copy of each Hero variation").
- A Play's *base name* is the Play it is a variant of: "Loan Sharked - htd" has base name
  "Loan Sharked"; all variants of a Play are the same card for deckbuilding (CR 2.1.2, 2.1.3).

The catalog builds every index once; lookups are dictionary reads.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.boba.effects import WEAPONS as WEAPONS  # the ten Weapon Types (CR 2.1.1), once


class CardKind(StrEnum):
    HERO = "hero"
    PLAY = "play"
    BONUS_PLAY = "bonus_play"
    HOT_DOG = "hot_dog"


_WEAPON_BY_KEY = {w.casefold(): w for w in WEAPONS}

HTD_SUFFIX = " - htd"
"""Suffix naming an HTD variant of a Play ("Loan Sharked - htd")."""

GENERIC_HOT_DOG_ID = "generic:hot-dog"
"""Id of the catalog's generic Hot Dog: Hot Dog names do not matter for deckbuilding (CR 2.1.4)."""

_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
    }
)


def normalise_name(text: str) -> str:
    """Case-, width- and spacing-insensitive key for a card name, set name or card number."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    return " ".join(text.casefold().split())


def loose_key(text: str) -> str:
    """Letters and digits only: "Loan Sharked-HTD" and "loan sharked - htd" meet here."""
    return "".join(ch for ch in normalise_name(text) if ch.isalnum())


def canonical_weapon(text: str) -> str | None:
    """The Weapon Type spelled as in CR 2.1.1, or None if `text` is not one."""
    return _WEAPON_BY_KEY.get(text.strip().casefold())


def base_play_name(name: str) -> str:
    """The Play a variant is based on: strips the HTD suffix in any case or spacing."""
    stripped = name.rstrip()
    norm = normalise_name(stripped)
    if norm.endswith("htd"):
        head = stripped[: len(stripped) - 3].rstrip()
        if head.endswith("-"):
            return head[:-1].rstrip()
    return stripped


@dataclass(frozen=True, slots=True)
class CatalogCard:
    """One printed card. Optional fields are None where they do not apply to the kind."""

    id: str
    kind: CardKind
    name: str
    set: str | None = None
    card_number: str | None = None
    parallel: str | None = None
    weapon: str | None = None
    power: int | None = None
    cost: int | None = None
    dbs: int | None = None
    base_name: str | None = None
    year: int | None = None
    release: str | None = None
    # A Play's rules text (plays.json `ability`): read by people searching cards, never by
    # the deck rules or the engine, which runs the Play's own definition.
    ability: str | None = None

    @property
    def is_play(self) -> bool:
        return self.kind in (CardKind.PLAY, CardKind.BONUS_PLAY)

    @property
    def play_name(self) -> str:
        """The name that defines a Play for deckbuilding (its base Play's name)."""
        return self.base_name or self.name

    @property
    def label(self) -> str:
        """How a decklist names the variant: "Action (Fire 110)" for Heroes, the name otherwise."""
        if self.kind is CardKind.HERO and self.weapon is not None and self.power is not None:
            return f"{self.name} ({self.weapon} {self.power})"
        return self.name

    @property
    def printing_label(self) -> str:
        """The printing reference of a decklist line: "[Alpha Edition #BF-128]"."""
        return f"[{self.set or ''} #{self.card_number or ''}]"

    @classmethod
    def from_dict(cls, row: Mapping[str, Any]) -> CatalogCard:
        """The inverse of `to_dict` (missing optional fields are None). Trusted input: rows
        from the project's own storage; imports go through the row parsers instead."""

        def opt_str(key: str) -> str | None:
            value = row.get(key)
            return None if value is None else str(value)

        def opt_int(key: str) -> int | None:
            value = row.get(key)
            return None if value is None else int(value)

        return cls(
            id=str(row["id"]),
            kind=CardKind(row["kind"]),
            name=str(row["name"]),
            set=opt_str("set"),
            card_number=opt_str("card_number"),
            parallel=opt_str("parallel"),
            weapon=opt_str("weapon"),
            power=opt_int("power"),
            cost=opt_int("cost"),
            dbs=opt_int("dbs"),
            base_name=opt_str("base_name"),
            year=opt_int("year"),
            release=opt_str("release"),
            ability=opt_str("ability"),
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "kind": self.kind.value,
            "name": self.name,
            "set": self.set,
            "card_number": self.card_number,
            "parallel": self.parallel,
            "weapon": self.weapon,
            "power": self.power,
            "cost": self.cost,
            "dbs": self.dbs,
            "base_name": self.base_name,
            "year": self.year,
            "release": self.release,
            "ability": self.ability,
        }


VariantKey = tuple[str, str, str | None, int | None, int | None, int | None, str]
"""(kind, normalised name, weapon, power, cost, dbs, normalised base name)."""


def variant_key(card: CatalogCard) -> VariantKey:
    return (
        card.kind.value,
        normalise_name(card.name),
        card.weapon,
        card.power,
        card.cost,
        card.dbs,
        normalise_name(card.play_name) if card.is_play else "",
    )


def variation_key(card: CatalogCard) -> tuple[str, str | None, int | None]:
    """A Hero variation (CR 4.1.1): name, weapon and power."""
    return (normalise_name(card.name), card.weapon, card.power)


def _printing_order(card: CatalogCard) -> tuple[int, str, int, str]:
    # Canonical printing of a variant: the earliest year, then set, then a plain card number
    # (paper) before a parallel's prefixed number, then id, so the choice is stable.
    number = card.card_number or ""
    return (card.year or 9999, card.set or "\uffff", 0 if number.isdigit() else 1, card.id)


GENERIC_HOT_DOG = CatalogCard(id=GENERIC_HOT_DOG_ID, kind=CardKind.HOT_DOG, name="Hot Dog")


@dataclass(frozen=True, slots=True)
class Variant:
    """Printings that are the same card for deckbuilding and play, canonical one first."""

    key: VariantKey
    printings: tuple[CatalogCard, ...]

    @property
    def card(self) -> CatalogCard:
        return self.printings[0]

    @property
    def sets(self) -> frozenset[str]:
        return frozenset(p.set for p in self.printings if p.set is not None)


class Catalog:
    """Every printing, indexed once: by id, by name, by (set, card number), by variant.

    A generic "Hot Dog" is always present (CR 2.1.4: Hot Dog names are not used for
    deckbuilding), so a list may simply say "10 Hot Dog".
    """

    def __init__(self, cards: Iterable[CatalogCard]) -> None:
        by_id: dict[str, CatalogCard] = {}
        for card in cards:
            by_id[card.id] = card
        named = [
            c
            for c in by_id.values()
            if c.kind is CardKind.HOT_DOG and normalise_name(c.name) == "hot dog"
        ]
        self.hot_dog: CatalogCard = (
            named[0] if named else by_id.setdefault(GENERIC_HOT_DOG_ID, GENERIC_HOT_DOG)
        )
        """The card a list's "Hot Dog" line names: any Hot Dog will do (CR 2.1.4)."""
        self._by_id = by_id

        groups: dict[VariantKey, list[CatalogCard]] = {}
        for card in by_id.values():
            groups.setdefault(variant_key(card), []).append(card)
        self._variants: dict[VariantKey, Variant] = {
            key: Variant(key, tuple(sorted(group, key=_printing_order)))
            for key, group in groups.items()
        }
        self._variant_of: dict[str, Variant] = {
            card.id: variant for variant in self._variants.values() for card in variant.printings
        }

        by_name: dict[str, list[Variant]] = {}
        by_loose: dict[str, list[Variant]] = {}
        by_number: dict[tuple[str, str], list[CatalogCard]] = {}
        for variant in sorted(self._variants.values(), key=lambda v: _printing_order(v.card)):
            card = variant.card
            by_name.setdefault(normalise_name(card.name), []).append(variant)
            by_loose.setdefault(loose_key(card.name), []).append(variant)
        for card in by_id.values():
            if card.card_number is not None:
                key = (normalise_name(card.set or ""), normalise_name(card.card_number))
                by_number.setdefault(key, []).append(card)
        self._by_name = {k: tuple(v) for k, v in by_name.items()}
        by_label: dict[str, list[Variant]] = {}
        by_kind: dict[CardKind, list[Variant]] = {}
        for variant in sorted(self._variants.values(), key=lambda v: _printing_order(v.card)):
            by_label.setdefault(normalise_name(variant.card.label), []).append(variant)
            by_kind.setdefault(variant.card.kind, []).append(variant)
        self._by_label = {k: tuple(v) for k, v in by_label.items()}
        self._by_kind = {k: tuple(sorted(v, key=lambda v: v.card.id)) for k, v in by_kind.items()}
        by_variation: dict[tuple[str, str | None, int | None], list[Variant]] = {}
        for name_key, name_variants in self._by_name.items():
            for variant in name_variants:
                if variant.card.kind is CardKind.HERO:
                    key3 = (name_key, variant.card.weapon, variant.card.power)
                    by_variation.setdefault(key3, []).append(variant)
        self._by_variation = {k: tuple(v) for k, v in by_variation.items()}
        self._by_loose = {k: tuple(v) for k, v in by_loose.items()}
        self._by_number = {k: tuple(sorted(v, key=_printing_order)) for k, v in by_number.items()}
        self._set_names = {normalise_name(c.set): c.set for c in by_id.values() if c.set}
        self._suggest_names = sorted(
            {normalise_name(c.name): c.name for c in by_id.values()}.items()
        )
        self._suggest_keys = [k for k, _ in self._suggest_names]
        self._suggest_loose = [(loose_key(k), k) for k in self._suggest_keys]

    # -- reading -----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def __iter__(self) -> Iterator[CatalogCard]:
        return iter(self._by_id.values())

    def cards(self) -> Sequence[CatalogCard]:
        return tuple(self._by_id.values())

    def get(self, card_id: str) -> CatalogCard | None:
        return self._by_id.get(card_id)

    def __getitem__(self, card_id: str) -> CatalogCard:
        return self._by_id[card_id]

    def variant(self, card_id: str) -> Variant:
        """The variant a printing belongs to. KeyError for an unknown id."""
        return self._variant_of[card_id]

    def is_canonical(self, card_id: str) -> bool:
        return self._variant_of[card_id].card.id == card_id

    def variants_named(self, name: str) -> tuple[Variant, ...]:
        """Variants whose name matches exactly (normalised), else loosely (letters and digits)."""
        found = self._by_name.get(normalise_name(name))
        if found:
            return found
        loose = loose_key(name)
        return self._by_loose.get(loose, ()) if loose else ()

    def variants_labelled(self, label: str) -> tuple[Variant, ...]:
        """Variants whose decklist label ("Action (Fire 110)", "Loan Sharked") matches."""
        return self._by_label.get(normalise_name(label), ())

    def variants_of(self, kind: CardKind) -> tuple[Variant, ...]:
        """Every variant of a kind, ordered by canonical card id."""
        return self._by_kind.get(kind, ())

    def hero_variants(self, name: str, weapon: str, power: int) -> tuple[Variant, ...]:
        """Hero variants by name, weapon and Power (one, unless stats differ between printings)."""
        found = self._by_variation.get((normalise_name(name), weapon, power))
        if found is not None:
            return found
        return tuple(
            v
            for v in self.variants_named(name)
            if v.card.kind is CardKind.HERO and v.card.weapon == weapon and v.card.power == power
        )

    def by_number(self, set_name: str, card_number: str) -> tuple[CatalogCard, ...]:
        """Printings with this card number in this set (normally one; the data has a few clashes)."""
        return self._by_number.get((normalise_name(set_name), normalise_name(card_number)), ())

    def set_name(self, text: str) -> str | None:
        """The catalog's spelling of a set name, or None if no printing is in that set."""
        return self._set_names.get(normalise_name(text))

    def set_names(self) -> tuple[str, ...]:
        return tuple(sorted(self._set_names.values()))

    def suggest(self, name: str, *, limit: int = 3) -> tuple[str, ...]:
        """Catalog names close to `name`, best first ("did you mean")."""
        key = normalise_name(name)[:200]
        if not key:
            return ()
        matches = difflib.get_close_matches(key, self._suggest_keys, n=limit, cutoff=0.6)
        if not matches:
            loose = loose_key(key)
            matches = [k for lk, k in self._suggest_loose if loose and loose in lk][:limit]
        names = dict(self._suggest_names)
        return tuple(names[m] for m in matches)

    def with_cards(self, cards: Iterable[CatalogCard]) -> Catalog:
        """A new catalog with these cards added or replaced by id."""
        merged = dict(self._by_id)
        for card in cards:
            merged[card.id] = card
        return Catalog(merged.values())


def catalog_from_mappings(rows: Iterable[Mapping[str, Any]]) -> Catalog:
    """Build a catalog from `CatalogCard.to_dict()` shaped mappings (for example model rows)."""
    return Catalog(CatalogCard.from_dict(row) for row in rows)
