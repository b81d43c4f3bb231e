"""BOS decklists in text: sections `Wizards`, `Summons`, `Spells`, `Boss`, `Reserves` of
`N Name` lines. Unknown cards and unreadable lines are errors naming the line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.bos.cards import BosCard, CardType, Catalog

SECTIONS = ("wizards", "summons", "spells", "boss", "reserves")
MAIN_SECTIONS = ("wizards", "summons", "spells", "boss")
SECTION_TITLES = {
    "wizards": "Wizards",
    "summons": "Summons",
    "spells": "Spells",
    "boss": "Boss",
    "reserves": "Reserves",
}
# The card type a main section holds (Reserves hold summons and spells, BOS: Reserves).
SECTION_TYPE = {
    "wizards": CardType.WIZARD,
    "summons": CardType.SUMMON,
    "spells": CardType.SPELL,
    "boss": CardType.BOSS,
}
_HEADINGS = {
    "wizards": "wizards",
    "wizard": "wizards",
    "summons": "summons",
    "summon": "summons",
    "spells": "spells",
    "spell": "spells",
    "boss": "boss",
    "bosses": "boss",
    "reserves": "reserves",
    "reserve": "reserves",
}
_HEADING = re.compile(r"^[#\[\s]*([A-Za-z]+)\s*\]?\s*(?:\(\s*\d*\s*\))?\s*:?\s*$")
_LINE = re.compile(r"^(?:(\d{1,3})\s*[xX]?\s+)?(\S.*?)$")
MAX_COUNT = 99
MAX_ITEMS_PER_SECTION = 200  # far beyond any legal list; bounds what a JSON body may make us do
MAX_SUGGESTED = 20  # unknown names that get "did you mean" suggestions; the rest do not


@dataclass(frozen=True, slots=True)
class DeckLine:
    count: int
    card_id: str
    name: str


@dataclass(frozen=True, slots=True)
class ParseError:
    line: int
    text: str
    message: str
    # Catalog names close to an unknown card's ("did you mean"), best first.
    suggestions: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "text": self.text, "message": self.message}
        if self.suggestions:
            out["suggestions"] = list(self.suggestions)
        return out


EMPTY_SECTIONS: Mapping[str, tuple[DeckLine, ...]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Decklist:
    # Read-only (given as a dict, kept as a read-only mapping): the site holds lists as read.
    sections: Mapping[str, tuple[DeckLine, ...]] = field(default_factory=lambda: EMPTY_SECTIONS)
    errors: tuple[ParseError, ...] = ()
    title: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "sections", MappingProxyType(dict(self.sections)))

    def lines(self, section: str) -> tuple[DeckLine, ...]:
        return self.sections.get(section, ())


def _strip_comment(line: str) -> str:
    if line.lstrip().startswith("#") and not _HEADING.match(line):
        return ""
    return line.split("//", 1)[0].strip()


def _add(sections: dict[str, dict[str, DeckLine]], section: str, card: BosCard, count: int) -> None:
    lines = sections.setdefault(section, {})
    before = lines.get(card.id)
    total = count + (before.count if before is not None else 0)
    lines[card.id] = DeckLine(total, card.id, card.name)


def parse_decklist(source: str | bytes, catalog: Catalog) -> Decklist:
    """Read a text list. Never raises: what it cannot read is an error with its line number.
    A card before any heading goes to the main section of its type."""
    if isinstance(source, bytes):
        text = source.decode("utf-8-sig", errors="replace")
    else:
        text = source.lstrip("\ufeff")
    sections: dict[str, dict[str, DeckLine]] = {}
    errors: list[ParseError] = []
    current: str | None = None
    title: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if number == 1 and stripped.lower().startswith("title:"):
            title = stripped[6:].strip() or None
            continue
        line = _strip_comment(raw)
        if not line:
            continue
        heading = _HEADING.match(line)
        if heading and heading.group(1).lower() in _HEADINGS:
            current = _HEADINGS[heading.group(1).lower()]
            continue
        match = _LINE.match(line)
        if match is None:  # pragma: no cover - the pattern matches any non-blank line
            errors.append(ParseError(number, raw, "not a card line (expected `N Name`)"))
            continue
        count = int(match.group(1)) if match.group(1) else 1
        name = match.group(2).strip()
        if not 1 <= count <= MAX_COUNT:
            errors.append(ParseError(number, raw, f"line {number}: count must be 1-{MAX_COUNT}"))
            continue
        card = catalog.by_name(name)
        if card is None:
            errors.append(
                ParseError(
                    number,
                    raw,
                    f"line {number}: unknown card {name!r}",
                    catalog.suggest(name) if len(errors) < MAX_SUGGESTED else (),
                )
            )
            continue
        section = current or _type_section(card)
        _add(sections, section, card, count)
    return Decklist(
        sections=_sorted(sections),
        errors=tuple(errors),
        title=title,
    )


def _sorted(sections: Mapping[str, Mapping[str, DeckLine]]) -> dict[str, tuple[DeckLine, ...]]:
    """Sections in game order, lines by name: the canonical list, whatever the input order."""
    return {
        key: tuple(
            sorted(sections[key].values(), key=lambda line: (line.name.casefold(), line.card_id))
        )
        for key in SECTIONS
        if key in sections
    }


def _type_section(card: BosCard) -> str:
    return next(k for k, t in SECTION_TYPE.items() if t is card.type)


def export_decklist(decklist: Decklist, catalog: Catalog, title: str | None = None) -> str:
    """The canonical text: sections in order, lines by name; parses back to the same list."""
    out: list[str] = []
    chosen = title if title is not None else decklist.title
    if chosen:
        out.append(f"Title: {' '.join(chosen.split())}")
    for section in SECTIONS:
        lines = decklist.lines(section)
        if not lines:
            continue
        if out:
            out.append("")
        out.append(f"{SECTION_TITLES[section]} ({sum(line.count for line in lines)})")
        for line in sorted(lines, key=lambda item: item.name.casefold()):
            card = catalog.get(line.card_id)
            out.append(f"{line.count} {card.name if card is not None else line.name}")
    return "\n".join(out) + "\n"


def decklist_to_dict(decklist: Decklist, catalog: Catalog) -> dict[str, Any]:
    """The stored JSON form: per section, `{id, name, count, type, color, vim_cost,
    strength}` items."""
    data: dict[str, Any] = {"title": decklist.title}
    for section in SECTIONS:
        items = []
        for line in decklist.lines(section):
            card = catalog.get(line.card_id)
            item: dict[str, Any] = {"id": line.card_id, "name": line.name, "count": line.count}
            if card is not None:
                item.update(
                    type=card.type.value,
                    color=card.color.value,
                    vim_cost=card.vim_cost,
                    strength=card.strength,
                )
            items.append(item)
        data[section] = items
    return data


def decklist_from_dict(data: Mapping[str, Any] | object, catalog: Catalog) -> Decklist:
    """The JSON form back (by id, else by name); unknown items are errors."""
    sections: dict[str, dict[str, DeckLine]] = {}
    errors: list[ParseError] = []
    position = 0
    if not isinstance(data, Mapping):
        # Any JSON may arrive here from the API: only an object of sections is a list.
        return Decklist({}, (ParseError(0, str(data)[:200], "expected an object of sections"),))
    for section in SECTIONS:
        items = data.get(section) or []
        if not isinstance(items, list | tuple):
            errors.append(ParseError(0, str(section), f"{section}: expected a list"))
            continue
        if len(items) > MAX_ITEMS_PER_SECTION:
            errors.append(
                ParseError(0, str(section), f"{section}: at most {MAX_ITEMS_PER_SECTION} lines")
            )
            continue
        for item in items:
            position += 1
            if not isinstance(item, Mapping):
                errors.append(ParseError(position, str(item)[:200], "expected an object"))
                continue
            card = catalog.get(str(item.get("id"))) or catalog.by_name(str(item.get("name", "")))
            count = item.get("count", 1)
            if card is None:
                unknown = str(item.get("name", ""))[:200]
                hints = catalog.suggest(unknown) if len(errors) < MAX_SUGGESTED else ()
                errors.append(ParseError(position, unknown, "unknown card", hints))
            elif (
                isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT
            ):
                errors.append(ParseError(position, card.name, f"count must be 1-{MAX_COUNT}"))
            else:
                _add(sections, section, card, count)
    title = data.get("title")
    return Decklist(
        sections=_sorted(sections),
        errors=tuple(errors),
        title=str(title) if isinstance(title, str) and title else None,
    )
