"""The decklist text format (docs/decklist-format.md), its JSON form, and export.

A `Decklist` is entries (section, catalog card id, count) plus the issues found while reading
it. Parsing never raises on bad input: every problem becomes a `DecklistIssue` with its line
number (text) or path (JSON), and "did you mean" suggestions for unknown names.

Resolution: a line names a *variant* ("Action (Fire 110)", "Loan Sharked - htd", "Hot Dog"),
resolved to the catalog's canonical printing of that variant, or one *printing* by set and card
number ("[Alpha Edition #BF-128]", optionally after the name), kept as that printing
(`exact=True`), which matters for card pools by set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Literal

from engine.boba.deckbuilding.cards import (
    CardKind,
    Catalog,
    CatalogCard,
    Variant,
    canonical_weapon,
    normalise_name,
)


class Section(StrEnum):
    HEROES = "heroes"
    PLAYBOOK = "playbook"
    BONUS_PLAYS = "bonus_plays"
    HOT_DOGS = "hot_dogs"

    @property
    def heading(self) -> str:
        return _TITLES[self]

    @property
    def kind(self) -> CardKind:
        return _SECTION_KIND[self]


_TITLES = {
    Section.HEROES: "Heroes",
    Section.PLAYBOOK: "Playbook",
    Section.BONUS_PLAYS: "Bonus Plays",
    Section.HOT_DOGS: "Hot Dogs",
}
_SECTION_KIND = {
    Section.HEROES: CardKind.HERO,
    Section.PLAYBOOK: CardKind.PLAY,
    Section.BONUS_PLAYS: CardKind.BONUS_PLAY,
    Section.HOT_DOGS: CardKind.HOT_DOG,
}
SECTION_OF_KIND: dict[CardKind, Section] = {kind: s for s, kind in _SECTION_KIND.items()}

_SECTION_ALIASES: dict[str, Section] = {
    **{a: Section.HEROES for a in ("heroes", "hero deck", "heroes deck", "hero cards")},
    **{a: Section.PLAYBOOK for a in ("playbook", "plays", "playbook deck", "play book")},
    **{a: Section.BONUS_PLAYS for a in ("bonus plays", "bonus play", "bonus")},
    **{a: Section.HOT_DOGS for a in ("hot dogs", "hotdogs", "hot dog deck", "hotdog deck")},
}

# Limits that keep a hostile paste cheap to reject and the report readable.
MAX_INPUT_BYTES = 200_000
MAX_LINES = 2_000
MAX_LINE_LENGTH = 300
MAX_COUNT = 999
MAX_ISSUES = 200
MAX_SUGGESTED = 20  # unknown names that get "did you mean" suggestions; the rest do not

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """`count` copies of a catalog card in a section; `exact` if a printing was named."""

    section: Section
    card_id: str
    count: int
    exact: bool = False
    line: int | None = None


@dataclass(frozen=True, slots=True)
class DecklistIssue:
    """A problem found reading a list. Errors make the list illegal; warnings do not."""

    code: str
    message: str
    line: int | None = None
    text: str = ""
    suggestions: tuple[str, ...] = ()
    severity: Severity = "error"
    path: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "line": self.line,
            "path": self.path,
            "text": self.text,
            "suggestions": list(self.suggestions),
        }


@dataclass(frozen=True, slots=True)
class Decklist:
    entries: tuple[DeckEntry, ...] = ()
    issues: tuple[DecklistIssue, ...] = ()

    @property
    def errors(self) -> tuple[DecklistIssue, ...]:
        return tuple(i for i in self.issues if i.severity == "error")

    @property
    def warnings(self) -> tuple[DecklistIssue, ...]:
        return tuple(i for i in self.issues if i.severity == "warning")

    def section(self, section: Section) -> tuple[DeckEntry, ...]:
        return tuple(e for e in self.entries if e.section is section)

    def counts(self) -> dict[tuple[Section, str], int]:
        """Copies per (section, card id): the list's content, whatever its line order."""
        out: dict[tuple[Section, str], int] = {}
        for e in self.entries:
            out[(e.section, e.card_id)] = out.get((e.section, e.card_id), 0) + e.count
        return out


# -- building --------------------------------------------------------------------------------
class _Builder:
    """Collects entries (merging repeats of one card in one section) and capped issues."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.entries: list[DeckEntry] = []
        self.index: dict[tuple[Section, str], int] = {}
        self.origin: dict[tuple[Section, str], str] = {}
        self.issues: list[DecklistIssue] = []
        self.suggested = 0
        self.dropped = 0

    def issue(self, issue: DecklistIssue) -> None:
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(issue)
        else:
            self.dropped += 1

    def suggest(self, name: str) -> tuple[str, ...]:
        if self.suggested >= MAX_SUGGESTED:
            return ()
        self.suggested += 1
        return self.catalog.suggest(name)

    def add(self, entry: DeckEntry, *, path: str | None, text: str) -> None:
        """Add an entry; a card already in the section adds its count (and a warning)."""
        key = (entry.section, entry.card_id)
        where = f"line {entry.line}" if entry.line is not None else (path or "")
        if key not in self.index:
            self.index[key] = len(self.entries)
            self.origin[key] = where
            self.entries.append(entry)
            return
        i = self.index[key]
        first = self.entries[i]
        self.entries[i] = replace(
            first, count=first.count + entry.count, exact=first.exact or entry.exact
        )
        self.issue(
            DecklistIssue(
                "duplicate_line",
                f"{self.catalog[entry.card_id].label} is listed again (first at "
                f"{self.origin[key]}); the counts are added together",
                line=entry.line,
                path=path,
                text=text,
                severity="warning",
            )
        )

    def build(self) -> Decklist:
        issues = list(self.issues)
        if self.dropped:
            issues.append(
                DecklistIssue("too_many_issues", f"{self.dropped} more problems not shown")
            )
        return Decklist(tuple(self.entries), tuple(issues))


# -- resolving one card reference ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Query:
    name: str = ""
    weapon: str | None = None
    power: int | None = None
    set: str | None = None
    card_number: str | None = None
    card_id: str | None = None
    exact: bool = False


@dataclass(frozen=True, slots=True)
class _Resolved:
    card: CatalogCard | None
    exact: bool = False
    code: str = ""
    message: str = ""
    unknown_name: str = ""  # for "did you mean", computed only for the problem reported


def _variant_options(variants: Sequence[Variant], limit: int = 30) -> str:
    """The choices, highest Power first, as a decklist would name them."""
    ordered = sorted(variants, key=lambda v: (-(v.card.power or 0), v.card.weapon or "", v.card.id))
    labels = [v.card.label for v in ordered[:limit]]
    if len(set(labels)) < len(labels):
        labels = [f"{v.card.label} {v.card.printing_label}" for v in ordered[:limit]]
    more = f" and {len(variants) - limit} more" if len(variants) > limit else ""
    return "; ".join(labels) + more


def _resolve(query: _Query, section: Section | None, builder: _Builder) -> _Resolved:
    catalog = builder.catalog
    if query.card_id is not None:
        card = catalog.get(query.card_id)
        if card is None:
            return _Resolved(
                None, code="unknown_card", message=f"no card with id {query.card_id!r}"
            )
        return _Resolved(card, exact=query.exact or not catalog.is_canonical(card.id))
    if query.card_number is not None:
        return _resolve_printing(query, builder)
    return _resolve_name(query, section, builder)


def _resolve_printing(query: _Query, builder: _Builder) -> _Resolved:
    catalog = builder.catalog
    set_text = query.set or ""
    printings = catalog.by_number(set_text, query.card_number or "")
    if not printings:
        if catalog.set_name(set_text) is None:
            known = ", ".join(catalog.set_names())
            return _Resolved(
                None, code="unknown_set", message=f"unknown set {set_text!r}; sets: {known}"
            )
        return _Resolved(
            None,
            code="unknown_card",
            message=f"no card numbered {query.card_number!r} in {catalog.set_name(set_text)}",
        )
    if query.name:
        wanted = normalise_name(query.name)
        named = [
            p for p in printings if wanted in (normalise_name(p.name), normalise_name(p.label))
        ]
        if not named:
            found = "; ".join(p.label for p in printings)
            return _Resolved(
                None,
                code="name_mismatch",
                message=f"{query.set} #{query.card_number} is {found}, not {query.name!r}",
            )
        printings = tuple(named)
    if len(printings) > 1:
        options = "; ".join(p.label for p in printings)
        return _Resolved(
            None,
            code="ambiguous",
            message=f"{query.set} #{query.card_number} is more than one card ({options}): add the name",
        )
    return _Resolved(printings[0], exact=True)


def _resolve_name(query: _Query, section: Section | None, builder: _Builder) -> _Resolved:
    catalog = builder.catalog
    if query.weapon is not None and query.power is not None:
        exact_variants = catalog.hero_variants(query.name, query.weapon, query.power)
        if len(exact_variants) == 1:
            return _Resolved(exact_variants[0].card)
    named = catalog.variants_named(query.name)
    if not named:
        return _Resolved(
            None,
            code="unknown_card",
            message=f"unknown card {query.name!r}",
            unknown_name=query.name,
        )
    variants = named
    if query.weapon is not None or query.power is not None:
        variants = tuple(
            v
            for v in variants
            if v.card.kind is CardKind.HERO
            and (query.weapon is None or v.card.weapon == query.weapon)
            and (query.power is None or v.card.power == query.power)
        )
        if not variants:
            wanted = " ".join(str(x) for x in (query.weapon, query.power) if x is not None)
            return _Resolved(
                None,
                code="unknown_variant",
                message=f"no {named[0].card.name} with {wanted}; variations: {_variant_options(named)}",
            )
    if section is not None:
        in_section = tuple(v for v in variants if v.card.kind is section.kind)
        if in_section:
            variants = in_section
    if len(variants) > 1:
        return _Resolved(
            None,
            code="ambiguous",
            message=f"{query.name!r} matches {len(variants)} cards: {_variant_options(variants)}",
        )
    return _Resolved(variants[0].card)


# -- text format -----------------------------------------------------------------------------
_COUNT_PREFIX = re.compile(r"^([+-]?\d+)\s*([x\u00d7]?)\s+(.*)$", re.IGNORECASE)
_COUNT_X_PREFIX = re.compile(r"^[x\u00d7]\s*(\d+)\s+(.*)$", re.IGNORECASE)
_COUNT_SUFFIX = re.compile(r"^(.*?\S)\s+[x\u00d7]\s*([+-]?\d+)$", re.IGNORECASE)
_COUNT_SUFFIX_X = re.compile(r"^(.*?\S)\s+([+-]?\d+)\s*[x\u00d7]$", re.IGNORECASE)
_PRINTING_BRACKET = re.compile(r"^(.*?)\s*\[\s*([^\[\]#]*?)\s*#\s*([^\[\]#]+?)\s*\]$")
_PRINTING_BARE = re.compile(r"^([^\[\]#]+?)\s*#\s*([^\s\[\]#]+)$")
_PRINTING_NO_HASH = re.compile(r"^([^\[\]#()]+?)\s+([A-Za-z]*-?\d+)$")
_VARIANT_PARENS = re.compile(r"^(.*?)\s*[(\[]\s*([^()\[\]]*?)\s*[)\]]$")
_VARIANT_TAIL = re.compile(r"^(.*?\S)\s+([A-Za-z]+|\d+)(?:\s*[,/|]\s*|\s+)([A-Za-z]+|\d+)$")


def _variant_tokens(text: str) -> tuple[str, int] | None:
    """("Fire", 110) from "Fire 110", "110, fire", "Fire / 110"; None otherwise."""
    tokens = [
        t for t in re.split(r"[\s,;/|:]+", text) if t and t.casefold() not in ("power", "pwr")
    ]
    if len(tokens) != 2:
        return None
    weapon = next((canonical_weapon(t) for t in tokens if canonical_weapon(t)), None)
    digits = [t for t in tokens if t.isdigit() and len(t) <= 4]
    if weapon is None or len(digits) != 1:
        return None
    return weapon, int(digits[0])


def _query_from_text(text: str, catalog: Catalog) -> Iterator[_Query]:
    """Readings of a card reference, most specific first (the caller takes the first that
    resolves): a printing reference, a Hero variant in brackets or at the end, the bare name."""
    if "#" in text:
        m = _PRINTING_BRACKET.match(text)
        if m:
            name = m.group(1)
            v = _VARIANT_PARENS.match(name)
            if v and _variant_tokens(v.group(2)):
                name = v.group(1)
            yield _Query(name=name.strip(), set=m.group(2), card_number=m.group(3))
            return
        m = _PRINTING_BARE.match(text)
        if m and catalog.set_name(m.group(1)) is not None:
            yield _Query(set=m.group(1), card_number=m.group(2))
            return
    else:
        # "Alpha Edition BF-128": a set name and a card number without the "#"
        m = _PRINTING_NO_HASH.match(text)
        if m and catalog.set_name(m.group(1)) is not None:
            yield _Query(set=m.group(1), card_number=m.group(2))
    if text.endswith((")", "]")):
        m = _VARIANT_PARENS.match(text)
        parsed = _variant_tokens(m.group(2)) if m else None
        if m and parsed:
            yield _Query(name=m.group(1).strip(), weapon=parsed[0], power=parsed[1])
    else:
        m = _VARIANT_TAIL.match(text)
        parsed = _variant_tokens(f"{m.group(2)} {m.group(3)}") if m else None
        if m and parsed:
            yield _Query(name=m.group(1).strip(), weapon=parsed[0], power=parsed[1])
    yield _Query(name=text)


def _section_header(line: str) -> Section | None:
    text = line.strip().strip("#*=[]:-_ \t")
    text = re.sub(r"\(\s*\d*\s*\)\s*:?$", "", text).strip().rstrip(":").strip()
    return _SECTION_ALIASES.get(normalise_name(text))


def _split_count(text: str) -> tuple[str, str | None]:
    """(reference, count text or None); the count may lead ("2x", "2", "x2") or trail ("x2",
    "2x")."""
    m = _COUNT_PREFIX.match(text)
    if m:
        return m.group(3).strip(), m.group(1)
    m = _COUNT_X_PREFIX.match(text)
    if m:
        return m.group(2).strip(), m.group(1)
    m = _COUNT_SUFFIX.match(text) or _COUNT_SUFFIX_X.match(text)
    if m:
        return m.group(1).strip(), m.group(2)
    return text, None


def _count_value(count_text: str | None) -> int | None:
    """The count, or None when it is outside 1..MAX_COUNT (huge numbers are never converted)."""
    if count_text is None:
        return 1
    digits = count_text.lstrip("+-")
    if not digits.isdigit() or len(digits) > 6:
        return None
    value = int(count_text)
    return value if 1 <= value <= MAX_COUNT else None


def _decode(data: str | bytes, builder: _Builder) -> str | None:
    if isinstance(data, bytes):
        if len(data) > MAX_INPUT_BYTES:
            builder.issue(_too_large(len(data)))
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            builder.issue(
                DecklistIssue(
                    "not_utf8",
                    "the list is not valid UTF-8; undecodable bytes were replaced (first on "
                    f"line {line})",
                    line=line,
                    severity="warning",
                )
            )
            text = data.decode("utf-8", errors="replace")
    else:
        text = data
        if len(text) > MAX_INPUT_BYTES:
            builder.issue(_too_large(len(text.encode("utf-8", errors="replace"))))
            return None
    return text.lstrip("\ufeff").replace("\x00", "")


def _too_large(size: int) -> DecklistIssue:
    return DecklistIssue(
        "too_large",
        f"the list is {size:,} bytes; the limit is {MAX_INPUT_BYTES:,} (a full deck is about 5 KB)",
    )


def parse_decklist(data: str | bytes, catalog: Catalog) -> Decklist:
    """Read the text format; never raises on bad input (see module docstring)."""
    builder = _Builder(catalog)
    if not isinstance(data, str | bytes):
        builder.issue(DecklistIssue("bad_input", "a decklist must be text"))
        return builder.build()
    text = _decode(data, builder)
    if text is None:
        return builder.build()
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        builder.issue(
            DecklistIssue(
                "too_large", f"the list has {len(lines):,} lines; the limit is {MAX_LINES:,}"
            )
        )
        return builder.build()
    section: Section | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        header = None if line[0].isdigit() else _section_header(line)
        if header is not None:
            section = header
            continue
        if line.startswith("#"):
            continue
        if len(line) > MAX_LINE_LENGTH:
            builder.issue(
                DecklistIssue(
                    "line_too_long",
                    f"line is longer than {MAX_LINE_LENGTH} characters",
                    line=number,
                    text=line[:80],
                )
            )
            continue
        _read_line(line, section, builder, number=number)
    return builder.build()


def _read_line(
    line: str,
    section: Section | None,
    builder: _Builder,
    *,
    number: int | None = None,
    path: str | None = None,
) -> None:
    """Read one text line (of the text format, or a JSON item) into an entry or an issue."""
    reference, count_text = _split_count(line)
    # Fast path: the line is a variant's label as export writes it ("1 Action (Fire 110)").
    labelled = builder.catalog.variants_labelled(reference)
    if section is not None and len(labelled) > 1:
        labelled = tuple(v for v in labelled if v.card.kind is section.kind) or labelled
    if len(labelled) == 1:
        resolved = _Resolved(labelled[0].card)
        _place(resolved, count_text, section, builder, line=number, path=path, text=line)
        return
    attempts: list[tuple[str, str | None]] = [(reference, count_text)]
    if count_text is not None:
        attempts.append((line, None))  # names that start with a number: "10 Per Play"
    first: _Resolved | None = None
    for ref, count_text_try in attempts:
        for query in _query_from_text(ref, builder.catalog):
            resolved = _resolve(query, section, builder)
            if resolved.card is not None:
                _place(
                    resolved, count_text_try, section, builder, line=number, path=path, text=line
                )
                return
            if first is None or (first.code == "unknown_card" and resolved.code != "unknown_card"):
                first = resolved
    assert first is not None
    _report(first, builder, line=number, path=path, text=line)


def _report(
    resolved: _Resolved, builder: _Builder, *, line: int | None, path: str | None, text: str
) -> None:
    suggestions = builder.suggest(resolved.unknown_name) if resolved.unknown_name else ()
    builder.issue(
        DecklistIssue(
            resolved.code,
            resolved.message,
            line=line,
            path=path,
            text=text[:80],
            suggestions=suggestions,
        )
    )


def _place(
    resolved: _Resolved,
    count_text: str | None,
    section: Section | None,
    builder: _Builder,
    *,
    line: int | None,
    path: str | None,
    text: str,
) -> None:
    card = resolved.card
    assert card is not None
    count = _count_value(count_text)
    if count is None:
        builder.issue(
            DecklistIssue(
                "bad_count",
                f"count {(count_text or '')[:20]} for {card.label} must be between 1 and {MAX_COUNT}",
                line=line,
                path=path,
                text=text[:80],
            )
        )
        return
    home = SECTION_OF_KIND[card.kind]
    if section is Section.BONUS_PLAYS and card.kind is CardKind.PLAY:
        # A Play the list enters among its Bonus Plays stays there: the deck rules then say
        # what is wrong with it (one copy across Playbook and Bonus Plays, CR 2.1.3, or a Play
        # that is not a Bonus Play), instead of a Playbook one Play too long.
        home = section
    if section is not None and section is not home:
        builder.issue(
            DecklistIssue(
                "wrong_section",
                f"{card.label} is a {card.kind.value.replace('_', ' ')}: counted under "
                f"{home.heading}, not {section.heading}",
                line=line,
                path=path,
                text=text[:80],
                severity="warning",
            )
        )
    builder.add(
        DeckEntry(home, card.id, count, exact=resolved.exact, line=line), path=path, text=text[:80]
    )


# -- JSON form -------------------------------------------------------------------------------
_JSON_SECTIONS: dict[str, Section] = {
    "heroes": Section.HEROES,
    "playbook": Section.PLAYBOOK,
    "plays": Section.PLAYBOOK,
    "bonus_plays": Section.BONUS_PLAYS,
    "hot_dogs": Section.HOT_DOGS,
}


def decklist_from_dict(data: Any, catalog: Catalog) -> Decklist:
    """Read the JSON form: `{"heroes": [...], "playbook": [...], "bonus_plays": [...],
    "hot_dogs": [...]}`; each item is a text line ("2x Hot Dog") or an object with `count` and
    `id`, or `set` + `card_number`, or `name` (+ `weapon` and `power` for Heroes).
    Issues carry a `path` such as "heroes[3]". Never raises on bad input."""
    builder = _Builder(catalog)
    if not isinstance(data, Mapping):
        builder.issue(DecklistIssue("bad_input", "a decklist must be a JSON object", path="$"))
        return builder.build()
    for key, items in data.items():
        if key == "issues":
            continue
        section = _JSON_SECTIONS.get(str(key))
        if section is None:
            known = ", ".join(s.value for s in Section)
            builder.issue(
                DecklistIssue(
                    "bad_input",
                    f"unknown section {str(key)[:40]!r}; sections: {known}",
                    path=str(key)[:40],
                )
            )
            continue
        if not isinstance(items, list | tuple):
            builder.issue(
                DecklistIssue("bad_input", "a section must be a list", path=section.value)
            )
            continue
        if len(items) > MAX_LINES:
            builder.issue(
                DecklistIssue("too_large", f"more than {MAX_LINES} items", path=section.value)
            )
            continue
        for i, item in enumerate(items):
            _read_item(item, f"{section.value}[{i}]", section, builder)
    return builder.build()


def _read_item(item: Any, path: str, section: Section, builder: _Builder) -> None:
    if isinstance(item, str):
        if len(item) > MAX_LINE_LENGTH:
            builder.issue(DecklistIssue("line_too_long", "item text is too long", path=path))
            return
        _read_line(item.strip(), section, builder, path=path)
        return
    if not isinstance(item, Mapping):
        builder.issue(
            DecklistIssue("bad_input", "an item must be an object or a text line", path=path)
        )
        return
    count_value = item.get("count", 1)
    if isinstance(count_value, bool) or not isinstance(count_value, int):
        builder.issue(
            DecklistIssue("bad_count", "count must be a whole number", path=f"{path}.count")
        )
        return
    parsed_query = _item_query(item)
    if isinstance(parsed_query, DecklistIssue):
        builder.issue(
            replace(parsed_query, path=f"{path}.{parsed_query.path}" if parsed_query.path else path)
        )
        return
    resolved = _resolve(parsed_query, section, builder)
    if parsed_query.card_id is not None:
        text = parsed_query.card_id
    elif parsed_query.card_number is not None:
        text = f"{parsed_query.name} [{parsed_query.set} #{parsed_query.card_number}]".strip()
    else:
        text = parsed_query.name
    if resolved.card is None:
        _report(resolved, builder, line=None, path=path, text=text)
        return
    count_text = str(count_value) if abs(count_value) < 10**6 else "a huge number"
    _place(resolved, count_text, section, builder, line=None, path=path, text=text)


def _item_query(item: Mapping[str, Any]) -> _Query | DecklistIssue:
    def text(key: str) -> str | None:
        value = item.get(key)
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool) and key == "card_number":
            return str(value)
        if not isinstance(value, str) or len(value) > MAX_LINE_LENGTH:
            raise ValueError(key)
        return value

    try:
        card_id, name, set_name, number, weapon_text = (
            text(k) for k in ("id", "name", "set", "card_number", "weapon")
        )
    except ValueError as error:
        return DecklistIssue("bad_input", f"{error} must be text", path=str(error))
    power = item.get("power")
    if power is not None and (isinstance(power, bool) or not isinstance(power, int)):
        return DecklistIssue("bad_input", "power must be a whole number", path="power")
    weapon = None
    if weapon_text is not None:
        weapon = canonical_weapon(weapon_text)
        if weapon is None:
            return DecklistIssue("bad_input", f"unknown weapon {weapon_text[:20]!r}", path="weapon")
    if card_id is not None:
        return _Query(card_id=card_id, exact=number is not None)
    if number is not None:
        return _Query(name=name or "", set=set_name or "", card_number=number)
    if name is None:
        return DecklistIssue("bad_input", "an item needs an id, a set and card_number, or a name")
    return _Query(name=name, weapon=weapon, power=power)


def decklist_to_dict(decklist: Decklist, catalog: Catalog) -> dict[str, Any]:
    """The JSON form of a list (sections in order, then "issues"); `decklist_from_dict` reads
    it back to the same entries."""
    out: dict[str, Any] = {}
    for section in Section:
        items = []
        for entry in _export_order(decklist.section(section), catalog):
            card = catalog[entry.card_id]
            item: dict[str, Any] = {"count": entry.count, "id": card.id, "name": card.name}
            if card.kind is CardKind.HERO:
                item["weapon"] = card.weapon
                item["power"] = card.power
            if entry.exact and card.set is not None and card.card_number is not None:
                item["set"] = card.set
                item["card_number"] = card.card_number
            items.append(item)
        if items:
            out[section.value] = items
    out["issues"] = [i.to_dict() for i in decklist.issues]
    return out


# -- export ----------------------------------------------------------------------------------
def _export_order(entries: Sequence[DeckEntry], catalog: Catalog) -> list[DeckEntry]:
    def key(entry: DeckEntry) -> tuple[int, str, str, str]:
        card = catalog[entry.card_id]
        return (-(card.power or 0), normalise_name(card.name), card.weapon or "", card.id)

    return sorted((e for e in entries if e.card_id in catalog), key=key)


def export_line(entry: DeckEntry, catalog: Catalog) -> str:
    """One entry as a text line: "1 Action (Fire 110)", with "[Set #Number]" when the entry
    names a printing or the label alone would be ambiguous."""
    card = catalog[entry.card_id]
    text = card.label
    has_number = card.set is not None and card.card_number is not None
    if has_number and (entry.exact or len(_label_matches(card, catalog)) != 1):
        text = f"{text} {card.printing_label}"
    return f"{entry.count} {text}"


def _label_matches(card: CatalogCard, catalog: Catalog) -> tuple[Variant, ...]:
    variants = catalog.variants_named(card.name)
    return tuple(
        v
        for v in variants
        if v.card.kind is card.kind and v.card.weapon == card.weapon and v.card.power == card.power
    )


def export_decklist(decklist: Decklist, catalog: Catalog, *, title: str | None = None) -> str:
    """The list in the text format, sections in order, each headed with its card count.
    Entries whose card is not in the catalog are left out."""
    lines: list[str] = []
    if title:
        lines.append(f"# {' '.join(title.split())}")
    for section in Section:
        entries = _export_order(decklist.section(section), catalog)
        if not entries:
            continue
        if lines:
            lines.append("")
        lines.append(f"{section.heading} ({sum(e.count for e in entries)})")
        lines.extend(export_line(e, catalog) for e in entries)
    return "\n".join(lines) + "\n"
