"""Row parsers for catalog imports: each row becomes a `CatalogCard` or a `Rejection`.

Pure: rows in, entries and rejections out; the Django import command does the upserts.
Sources:
- the community card list (shared/data/boba/cards.json): one row per printing;
- the community play list (plays.json): cost and Deck Balancing Score per Play, keyed by release
  and card number; HTD variants are named "<Play> - htd" there and carry their own numbering,
  so they are matched to the card list by name;
- CSV with a header row, whose columns are `CatalogCard` fields (the community column names
  "Card ID", "Card Number", ... are accepted too).
Row numbers are 1-based positions in the source (for CSV, the line after the header is row 2).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from engine.boba.deckbuilding.cards import (
    HTD_SUFFIX,
    CardKind,
    CatalogCard,
    base_play_name,
    canonical_weapon,
    loose_key,
    normalise_name,
)

RELEASE_SETS: dict[str, str] = {
    "A": "Alpha Edition",
    "U": "Alpha Update",
    "G": "Griffey Edition",
    "HTD": "Alpha Blast",
}
"""plays.json release codes and the card-list set they were printed in."""

_PREFIX_KIND = {
    "PL": CardKind.PLAY,
    "BPL": CardKind.BONUS_PLAY,
    "HTD": CardKind.PLAY,
    "HD": CardKind.HOT_DOG,
}
_PARALLEL_KIND = {
    "play": CardKind.PLAY,
    "htd play": CardKind.PLAY,
    "bonus play": CardKind.BONUS_PLAY,
    "hotdog": CardKind.HOT_DOG,
    "hot dog": CardKind.HOT_DOG,
}
MAX_NAME_LENGTH = 200
MAX_TEXT_LENGTH = 2000  # a Play's rules text (the longest real one is a few hundred)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Rejection:
    """A row that did not import: its 1-based row number, why, and the field at fault."""

    row: int
    reason: str
    field: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {"row": self.row, "reason": self.reason, "field": self.field}


@dataclass(frozen=True, slots=True)
class PlayStats:
    """One plays.json row: a Play's cost and DBS, before it is matched to a printing."""

    row: int
    source_id: str
    card_number: str
    name: str
    release: str
    cost: int | None  # None: the cost varies (Copycat copies the last Play's cost)
    dbs: int
    ability: str | None = None

    @property
    def is_htd(self) -> bool:
        return self.release == "HTD" or normalise_name(self.name).endswith("htd")


@dataclass(frozen=True, slots=True)
class ImportResult:
    entries: tuple[CatalogCard, ...]
    rejections: tuple[Rejection, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "entries": len(self.entries),
            "rejections": [r.to_dict() for r in self.rejections],
        }


class _RowError(Exception):
    def __init__(self, field: str | None, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


# -- field readers ---------------------------------------------------------------------------
def _text(
    row: Mapping[str, Any], key: str, *, required: bool = False, limit: int = MAX_NAME_LENGTH
) -> str | None:
    value = row.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise _RowError(key, f"{key} is missing")
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _RowError(key, f"{key} must be text, not {type(value).__name__}")
    text = " ".join(str(value).split())
    if len(text) > limit:
        raise _RowError(key, f"{key} is longer than {limit} characters")
    return text


def _int(row: Mapping[str, Any], key: str, *, required: bool = False, low: int = 0) -> int | None:
    value = row.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise _RowError(key, f"{key} is missing")
        return None
    if isinstance(value, bool):
        raise _RowError(key, f"{key} must be a whole number")
    if isinstance(value, str):
        stripped = value.strip()
        if not (stripped.isdigit() and len(stripped) <= 9):
            raise _RowError(key, f"{key} must be a whole number, not {value[:20]!r}")
        value = int(stripped)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise _RowError(key, f"{key} must be a whole number")
    if not low <= value <= 100_000:
        raise _RowError(key, f"{key} {value} is out of range")
    return value


def _kind_of(parallel: str | None, card_number: str | None, weapon: str | None) -> CardKind:
    if weapon is not None:
        return CardKind.HERO
    if parallel is not None and normalise_name(parallel) in _PARALLEL_KIND:
        return _PARALLEL_KIND[normalise_name(parallel)]
    if card_number is not None and "-" in card_number:
        prefix = card_number.split("-", 1)[0].upper()
        if prefix in _PREFIX_KIND:
            return _PREFIX_KIND[prefix]
    raise _RowError("Parallel", "cannot tell whether this is a hero, play, bonus play or hot dog")


def _is_htd_number(card_number: str | None) -> bool:
    return card_number is not None and card_number.upper().startswith("HTD-")


# -- community card list ---------------------------------------------------------------------
def _community_card(row: Mapping[str, Any]) -> CatalogCard:
    card_id = _text(row, "Card ID", required=True)
    name = _text(row, "Name", required=True)
    assert card_id is not None and name is not None
    set_name = _text(row, "Set", required=True)
    number = _text(row, "Card Number", required=True)
    parallel = _text(row, "Parallel")
    weapon_text = _text(row, "Weapon")
    power = _int(row, "Power", low=1)
    year = _int(row, "Year", low=1900)
    weapon = None
    if weapon_text is not None:
        weapon = canonical_weapon(weapon_text)
        if weapon is None:
            raise _RowError("Weapon", f"unknown weapon {weapon_text!r}")
        if power is None:
            raise _RowError("Power", "a hero needs a Power")
    elif power is not None:
        raise _RowError("Weapon", "a card with Power needs a Weapon")
    kind = _kind_of(parallel, number, weapon)
    base_name = None
    if kind is not CardKind.HERO and _is_htd_number(number):
        # The card list names HTD variants by their base Play; the project names them
        # "<Play> - htd" (as plays.json does) so a decklist can tell them apart.
        base_name = base_play_name(name)
        name = base_name + HTD_SUFFIX
    return CatalogCard(
        id=card_id,
        kind=kind,
        name=name,
        set=set_name,
        card_number=number,
        parallel=parallel,
        weapon=weapon,
        power=power,
        base_name=base_name,
        year=year,
    )


def _collect(
    rows: Iterable[Any], parse: Callable[[Mapping[str, Any], int], T]
) -> tuple[list[T], list[Rejection]]:
    """Parse each row (1-based row numbers); a `_RowError` becomes that row's rejection."""
    entries: list[T] = []
    rejections: list[Rejection] = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            rejections.append(Rejection(number, "row is not an object", None))
            continue
        try:
            entries.append(parse(row, number))
        except _RowError as error:
            rejections.append(Rejection(number, error.reason, error.field))
    return entries, rejections


def parse_community_cards(
    rows: Iterable[Mapping[str, Any]],
) -> tuple[list[CatalogCard], list[Rejection]]:
    """cards.json rows -> printings (without cost and DBS) and rejections; ids must be unique."""
    seen: set[str] = set()

    def parse(row: Mapping[str, Any], _number: int) -> CatalogCard:
        return _unique(_community_card(row), seen, "Card ID")

    return _collect(rows, parse)


def _unique(card: CatalogCard, seen: set[str], field: str) -> CatalogCard:
    if card.id in seen:
        raise _RowError(field, f"duplicate card id {card.id!r}")
    seen.add(card.id)
    return card


# -- community play list ---------------------------------------------------------------------
def _community_play(row: Mapping[str, Any], number: int) -> PlayStats:
    source_id = _text(row, "id", required=True)
    card_number = _text(row, "card_number", required=True)
    name = _text(row, "name", required=True)
    release = _text(row, "release", required=True)
    cost = _int(row, "hot_dog_cost")
    dbs = _int(row, "dbs", required=True)
    ability = _text(row, "ability", limit=MAX_TEXT_LENGTH)
    assert source_id and card_number and name and release and dbs is not None
    return PlayStats(number, source_id, card_number, name, release, cost, dbs, ability)


def parse_community_plays(
    rows: Iterable[Mapping[str, Any]],
) -> tuple[list[PlayStats], list[Rejection]]:
    """plays.json rows -> cost, DBS and rules-text records, and rejections."""
    return _collect(rows, _community_play)


def apply_play_stats(
    cards: Iterable[CatalogCard], stats: Iterable[PlayStats]
) -> tuple[list[CatalogCard], list[Rejection]]:
    """Give each Play printing its cost and DBS; a record matching no printing becomes its own
    catalog entry (id "plays:<id>"), so every Play in the list imports.

    Matching: release set and card number when the names agree; otherwise the name (HTD
    variants are numbered differently in the two lists). Reprints missing from the play list
    take the stats of the earliest printing with the same name.
    """
    cards = list(cards)
    by_number: dict[tuple[str, str], int] = {}
    by_name: dict[tuple[str, bool], list[int]] = {}
    for index, card in enumerate(cards):
        if not card.is_play:
            continue
        by_number[(normalise_name(card.set or ""), normalise_name(card.card_number or ""))] = index
        htd = _is_htd_number(card.card_number)
        by_name.setdefault((loose_key(card.name), htd), []).append(index)
    matched: set[int] = set()
    extra: list[CatalogCard] = []
    rejections: list[Rejection] = []
    for record in stats:
        set_name = RELEASE_SETS.get(record.release)
        key = (normalise_name(set_name or ""), normalise_name(record.card_number))
        targets: list[int] = []
        hit = by_number.get(key)
        if hit is not None and loose_key(cards[hit].name) == loose_key(_full_name(record)):
            targets = [hit]
        else:
            targets = [
                i
                for i in by_name.get((loose_key(_full_name(record)), record.is_htd), [])
                if i not in matched and (set_name is None or cards[i].set == set_name)
            ]
        if not targets:
            extra.append(_card_from_stats(record, set_name))
            continue
        for i in targets:
            if i in matched:
                rejections.append(
                    Rejection(
                        record.row, f"{record.name!r} matches a play already given stats", "name"
                    )
                )
                continue
            matched.add(i)
            cards[i] = replace(
                cards[i],
                cost=record.cost,
                dbs=record.dbs,
                release=record.release,
                ability=record.ability,
            )
    _reprints_inherit_stats(cards, by_name, matched)
    return cards + extra, rejections


def _reprints_inherit_stats(
    cards: list[CatalogCard], by_name: dict[tuple[str, bool], list[int]], matched: set[int]
) -> None:
    """A reprint the play list does not carry (Griffey Edition reprints older Plays) takes the
    cost and DBS of the earliest printing of the same name: the name defines a Play (CR 2.1.2)."""
    for indexes in by_name.values():
        known = [i for i in indexes if i in matched]
        if not known:
            continue
        source = min((cards[i] for i in known), key=lambda c: (c.year or 9999, c.id))
        for i in indexes:
            if i not in matched:
                cards[i] = replace(
                    cards[i], cost=source.cost, dbs=source.dbs, ability=source.ability
                )


def _full_name(record: PlayStats) -> str:
    if record.is_htd and not normalise_name(record.name).endswith("htd"):
        return record.name + HTD_SUFFIX
    return record.name


def _card_from_stats(record: PlayStats, set_name: str | None) -> CatalogCard:
    name = _full_name(record)
    base = base_play_name(name)
    kind = CardKind.BONUS_PLAY if record.card_number.upper().startswith("BPL-") else CardKind.PLAY
    return CatalogCard(
        id=f"plays:{record.source_id}",
        kind=kind,
        name=name,
        set=set_name,
        card_number=record.card_number,
        cost=record.cost,
        dbs=record.dbs,
        base_name=base if base != name else None,
        release=record.release,
        ability=record.ability,
    )


def parse_community_catalog(
    card_rows: Iterable[Mapping[str, Any]], play_rows: Iterable[Mapping[str, Any]] = ()
) -> ImportResult:
    """Both community lists at once: printings with cost and DBS, and every rejection.

    Rejections from the play list carry their plays.json row number with field prefixed
    "plays." so a report can tell the two sources apart.
    """
    cards, rejected_cards = parse_community_cards(card_rows)
    stats, rejected_plays = parse_community_plays(play_rows)
    entries, unmatched = apply_play_stats(cards, stats)
    play_rejections = [
        replace(r, field=f"plays.{r.field}" if r.field else "plays")
        for r in [*rejected_plays, *unmatched]
    ]
    return ImportResult(tuple(entries), tuple([*rejected_cards, *play_rejections]))


# -- CSV -------------------------------------------------------------------------------------
_CSV_ALIASES = {
    "card id": "id",
    "id": "id",
    "kind": "kind",
    "type": "kind",
    "name": "name",
    "set": "set",
    "card number": "card_number",
    "card_number": "card_number",
    "number": "card_number",
    "parallel": "parallel",
    "weapon": "weapon",
    "power": "power",
    "cost": "cost",
    "hot_dog_cost": "cost",
    "hot dog cost": "cost",
    "dbs": "dbs",
    "ability": "ability",
    "rules text": "ability",
    "text": "ability",
    "base_name": "base_name",
    "base name": "base_name",
    "base play": "base_name",
    "year": "year",
    "release": "release",
}
MAX_CSV_ROWS = 100_000


def csv_row_problem(error: csv.Error) -> str:
    """Why the CSV reader could not read a row, in words an uploader can act on. A cell over
    the reader's limit is the common case (a pasted blob): that row is rejected, the rest is
    read on."""
    if "field larger than field limit" in str(error):
        return f"a cell is longer than the {csv.field_size_limit():,} characters a cell may have"
    return f"unreadable CSV row: {error}"


def parse_csv(text: str | bytes) -> tuple[list[CatalogCard], list[Rejection]]:
    """CSV with a header row -> catalog entries and rejections (never raises on bad input).

    Columns (any order, case-insensitive): id, kind, name, set, card_number, parallel,
    weapon, power, cost, dbs, base_name, year, release. `kind` may be left out when weapon
    or a card-number prefix (PL-, BPL-, HTD-, HD-) tells it; `id` defaults to
    "<set>:<card_number>". A Play whose name ends in " - htd" gets its base name from it.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig", errors="replace")
    text = text.lstrip("\ufeff")
    try:
        reader = csv.reader(io.StringIO(text.replace("\x00", "")))
        header = next(reader, None)
    except csv.Error as error:
        return [], [Rejection(1, f"unreadable CSV: {error}", None)]
    if not header:
        return [], [Rejection(1, "the CSV is empty: a header row is required", None)]
    columns: list[str | None] = []
    for raw in header:
        columns.append(_CSV_ALIASES.get(normalise_name(raw)))
    if "name" not in columns:
        return [], [Rejection(1, "the header row has no name column", "name")]
    entries: list[CatalogCard] = []
    rejections: list[Rejection] = []
    seen: set[str] = set()
    row_number = 1
    while True:
        row_number += 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            # The reader goes on from the next line (each call reads at least one).
            rejections.append(Rejection(row_number, csv_row_problem(error), None))
            continue
        if not any(c.strip() for c in cells):
            continue
        if row_number > MAX_CSV_ROWS + 1:
            rejections.append(
                Rejection(row_number, f"more than {MAX_CSV_ROWS:,} rows; stopped", None)
            )
            break
        if len(cells) > len(columns):
            rejections.append(Rejection(row_number, "more cells than header columns", None))
            continue
        row = {col: cell for col, cell in zip(columns, cells, strict=False) if col is not None}
        try:
            entries.append(_unique(_csv_card(row), seen, "id"))
        except _RowError as error:
            rejections.append(Rejection(row_number, error.reason, error.field))
    return entries, rejections


def _csv_card(row: Mapping[str, Any]) -> CatalogCard:
    name = _text(row, "name", required=True)
    assert name is not None
    set_name = _text(row, "set")
    number = _text(row, "card_number")
    weapon_text = _text(row, "weapon")
    weapon = None
    if weapon_text is not None:
        weapon = canonical_weapon(weapon_text)
        if weapon is None:
            raise _RowError("weapon", f"unknown weapon {weapon_text!r}")
    power = _int(row, "power", low=1)
    kind_text = _text(row, "kind")
    if kind_text is not None:
        try:
            kind = CardKind(normalise_name(kind_text).replace(" ", "_"))
        except ValueError:
            raise _RowError("kind", f"unknown kind {kind_text!r}") from None
    else:
        kind = _kind_of(_text(row, "parallel"), number, weapon)
    if kind is CardKind.HERO and (weapon is None or power is None):
        raise _RowError(
            "weapon" if weapon is None else "power", "a hero needs a weapon and a power"
        )
    if kind is not CardKind.HERO and (weapon is not None or power is not None):
        raise _RowError(
            "weapon" if weapon is not None else "power", f"a {kind.value} has no weapon or power"
        )
    base_name = _text(row, "base_name")
    if kind in (CardKind.PLAY, CardKind.BONUS_PLAY) and base_name is None:
        base = base_play_name(name)
        base_name = base if base != name else None
    card_id = _text(row, "id")
    if card_id is None:
        if set_name is None or number is None:
            raise _RowError("id", "an id, or a set and card number, is required")
        card_id = f"{set_name}:{number}"
    return CatalogCard(
        id=card_id,
        kind=kind,
        name=name,
        set=set_name,
        card_number=number,
        parallel=_text(row, "parallel"),
        weapon=weapon,
        power=power,
        cost=_int(row, "cost"),
        dbs=_int(row, "dbs"),
        base_name=base_name,
        year=_int(row, "year", low=1900),
        release=_text(row, "release"),
        ability=_text(row, "ability", limit=MAX_TEXT_LENGTH),
    )
