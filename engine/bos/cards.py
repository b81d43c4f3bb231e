"""BOS cards and the catalog CSV (`name,type,color,vim_cost,strength,summoning_condition,
ability,set,card_number`); each bad row is a rejection naming its column."""

from __future__ import annotations

import csv
import difflib
import io
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.errors import BattledeskError

CSV_HEADER = (
    "name",
    "type",
    "color",
    "vim_cost",
    "strength",
    "summoning_condition",
    "ability",
    "set",
    "card_number",
)
REQUIRED_COLUMNS = ("name", "type", "color")
MAX_NAME = 200
MAX_TEXT = 2000


class CardType(StrEnum):
    """The four card types (BOS: Cards)."""

    WIZARD = "wizard"
    SUMMON = "summon"
    SPELL = "spell"
    BOSS = "boss"


class Color(StrEnum):
    """A card's colour stone (BOS: Starting Info: red, yellow or blue)."""

    RED = "red"
    YELLOW = "yellow"
    BLUE = "blue"


def normalize_name(name: str) -> str:
    """How names are matched: case, repeated spaces and curly quotes do not matter."""
    text = name.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"')
    text = text.replace("\u201d", '"')
    return " ".join(text.split()).casefold()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


@dataclass(frozen=True, slots=True)
class BosCard:
    """One BOS card printing. `vim_cost` is a spell's cost; `strength` a summon's or a boss's
    (None where the card has none)."""

    id: str
    name: str
    type: CardType
    color: Color
    vim_cost: int | None = None
    strength: int | None = None
    summoning_condition: str = ""
    ability: str = ""
    set: str = ""
    card_number: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type.value,
            "color": self.color.value,
            "vim_cost": self.vim_cost,
            "strength": self.strength,
            "summoning_condition": self.summoning_condition,
            "ability": self.ability,
            "set": self.set,
            "card_number": self.card_number,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BosCard:
        name = str(data.get("name") or "")
        set_name = str(data.get("set") or "")
        number = str(data.get("card_number") or "")
        return cls(
            id=str(data.get("id") or card_id(name, set_name, number)),
            name=name,
            type=CardType(str(data.get("type") or "").strip().lower()),
            color=Color(str(data.get("color") or "").strip().lower()),
            vim_cost=_opt_int(data.get("vim_cost")),
            strength=_opt_int(data.get("strength")),
            summoning_condition=str(data.get("summoning_condition") or ""),
            ability=str(data.get("ability") or ""),
            set=set_name,
            card_number=number,
        )


def _opt_int(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError("not a number")
    if isinstance(value, int):
        return value
    return int(str(value).strip())


def card_id(name: str, set_name: str = "", card_number: str = "") -> str:
    """A printing's id: `bos:SET:NUMBER`, or `bos:name-slug` without a set and number."""
    if set_name and card_number:
        return f"bos:{_slug(set_name)}:{card_number.strip()}"
    return f"bos:{_slug(name)}"


@dataclass(frozen=True, slots=True)
class Rejection:
    """A row that was not imported: its 1-based data row, why, and the column at fault."""

    row: int
    reason: str
    field: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.row, "reason": self.reason, "field": self.field}


@dataclass(frozen=True, slots=True)
class ImportResult:
    entries: tuple[BosCard, ...]
    rejections: tuple[Rejection, ...]


class CsvFileError(BattledeskError, ValueError):
    """The file as a whole cannot be read (no header, not text); `field` is None."""

    def __init__(self, message: str) -> None:
        super().__init__(None, message)


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CsvFileError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _non_negative(row: int, column: str, raw: str) -> tuple[int | None, Rejection | None]:
    text = raw.strip()
    if not text:
        return None, None
    if not re.fullmatch(r"\d{1,6}", text):
        return None, Rejection(
            row, f"{column} must be a whole number 0 or more, not {text!r}", column
        )
    return int(text), None


def card_from_row(row_number: int, row: Mapping[str, str | None]) -> BosCard | Rejection:
    """One CSV row as a card, or the rejection naming the first bad column."""
    values = {k: (row.get(k) or "").strip() for k in CSV_HEADER}
    for column in REQUIRED_COLUMNS:
        if not values[column]:
            return Rejection(row_number, f"{column} is empty", column)
    if "//" in values["name"] or values["name"].startswith("#"):
        return Rejection(row_number, "name may not contain // or start with #", "name")
    if len(values["name"]) > MAX_NAME:
        return Rejection(row_number, f"name is longer than {MAX_NAME} characters", "name")
    try:
        kind = CardType(values["type"].lower())
    except ValueError:
        allowed = ", ".join(t.value for t in CardType)
        return Rejection(row_number, f"type {values['type']!r} is not one of {allowed}", "type")
    try:
        color = Color(values["color"].lower())
    except ValueError:
        allowed = ", ".join(c.value for c in Color)
        return Rejection(row_number, f"color {values['color']!r} is not one of {allowed}", "color")
    numbers: dict[str, int | None] = {}
    for column in ("vim_cost", "strength"):
        number, rejection = _non_negative(row_number, column, values[column])
        if rejection is not None:
            return rejection
        numbers[column] = number
    if kind is CardType.SPELL and numbers["vim_cost"] is None:
        return Rejection(row_number, "a spell needs its vim cost", "vim_cost")
    if kind in (CardType.SUMMON, CardType.BOSS) and numbers["strength"] is None:
        return Rejection(row_number, f"a {kind.value} needs its strength", "strength")
    for column in ("summoning_condition", "ability"):
        if len(values[column]) > MAX_TEXT:
            return Rejection(row_number, f"{column} is longer than {MAX_TEXT} characters", column)
    if bool(values["set"]) != bool(values["card_number"]):
        missing = "card_number" if values["set"] else "set"
        return Rejection(row_number, "give both set and card_number, or neither", missing)
    return BosCard(
        id=card_id(values["name"], values["set"], values["card_number"]),
        name=values["name"],
        type=kind,
        color=color,
        vim_cost=numbers["vim_cost"],
        strength=numbers["strength"],
        summoning_condition=values["summoning_condition"],
        ability=values["ability"],
        set=values["set"],
        card_number=values["card_number"],
    )


def parse_rows(rows: Iterable[Mapping[str, str | None]]) -> ImportResult:
    """Rows (header keys) as cards; a later row with the same id or a name already given
    another type or colour is rejected (every card with a name has the same text)."""
    entries: dict[str, BosCard] = {}
    by_name: dict[str, BosCard] = {}
    rejections: list[Rejection] = []
    for number, row in enumerate(rows, start=1):
        if isinstance(row, UnreadableRow):
            rejections.append(Rejection(number, row.reason))
            continue
        result = card_from_row(number, row)
        if isinstance(result, Rejection):
            rejections.append(result)
            continue
        if result.id in entries:
            rejections.append(
                Rejection(
                    number, f"the same card as row {_row_of(entries, result.id)}", "card_number"
                )
            )
            continue
        first = by_name.get(normalize_name(result.name))
        if first is not None and (first.type, first.color) != (result.type, result.color):
            column = "type" if first.type != result.type else "color"
            rejections.append(
                Rejection(
                    number, f"{result.name!r} is already a {first.color} {first.type}", column
                )
            )
            continue
        entries[result.id] = result
        by_name.setdefault(normalize_name(result.name), result)
    return ImportResult(tuple(entries.values()), tuple(rejections))


def _row_of(entries: Mapping[str, BosCard], key: str) -> int:
    return list(entries).index(key) + 1


def parse_csv(data: bytes | str) -> ImportResult:
    """A CSV with the header `CSV_HEADER` (column order free; extra columns ignored)."""
    text = _decode(data)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if not header or missing:
        raise CsvFileError(
            "expected the header row "
            + ",".join(CSV_HEADER)
            + (f" (missing {', '.join(missing)})" if header else "")
        )
    return parse_rows(_read_rows(reader))


class UnreadableRow(dict[str, str | None]):
    """A row the CSV reader could not read (a cell over its limit): parse_rows rejects it."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


def _read_rows(reader: csv.DictReader[str]) -> Iterator[Mapping[str, str | None]]:
    """The reader's rows with lower-case keys; a row it cannot read is an UnreadableRow and
    reading goes on from the next line (one over-long cell never stops the file)."""
    # Each call reads at least one more line of the text, so the loop ends.
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield UnreadableRow(csv_row_problem(error))
            continue
        yield {str(k).strip().lower(): v for k, v in row.items() if k is not None}


def csv_row_problem(error: csv.Error) -> str:
    if "field larger than field limit" in str(error):
        return f"a cell is longer than the {csv.field_size_limit():,} characters a cell may have"
    return f"unreadable CSV row: {error}"


class Catalog:
    """The cards a decklist can name, by id and by name (a name's first printing)."""

    def __init__(self, cards: Iterable[BosCard]) -> None:
        self._by_id: dict[str, BosCard] = {}
        self._by_name: dict[str, BosCard] = {}
        for card in cards:
            self._by_id.setdefault(card.id, card)
            self._by_name.setdefault(normalize_name(card.name), card)

    def get(self, card_id: str) -> BosCard | None:
        return self._by_id.get(card_id)

    def by_name(self, name: str) -> BosCard | None:
        return self._by_name.get(normalize_name(name))

    def cards(self) -> Sequence[BosCard]:
        return tuple(self._by_id.values())

    def suggest(self, name: str, *, limit: int = 3) -> tuple[str, ...]:
        """Card names close to `name`, best first (a "did you mean" for an unknown card)."""
        key = normalize_name(name)
        if not key:
            return ()
        close = difflib.get_close_matches(key, list(self._by_name), n=limit, cutoff=0.6)
        if not close:
            close = [k for k in self._by_name if key in k][:limit]
        return tuple(self._by_name[k].name for k in close)

    def __len__(self) -> int:
        return len(self._by_id)


def catalog_from_mappings(rows: Iterable[Mapping[str, Any]]) -> Catalog:
    """A catalog from stored card dicts (`BosCard.to_dict()` keys); unreadable rows skipped."""
    cards = []
    for row in rows:
        try:
            cards.append(BosCard.from_dict(row))
        except (ValueError, TypeError):
            continue
    return Catalog(cards)
