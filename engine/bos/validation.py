"""BOS deck rules, each a named violation with its citation (BOS: Starting Info, BOS: Reserves).

Decision: the reserves follow the deck's colour too, since any of them may be swapped into the
deck between games (BOS: Reserves) and the deck must share one colour (BOS: Starting Info).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.bos.cards import BosCard, CardType, Catalog
from engine.bos.decklist import MAIN_SECTIONS, SECTION_TITLES, SECTION_TYPE, Decklist
from engine.bos.formats import FORMAT_PRESETS, Format, FormatError

STARTING_INFO = "BOS: Starting Info"
RESERVES = "BOS: Reserves"

# Every rule the validator can report, with its citation.
RULES: dict[str, str] = {
    "decklist_unreadable": STARTING_INFO,
    "deck_size": STARTING_INFO,
    "wizard_count": STARTING_INFO,
    "different_wizards": STARTING_INFO,
    "summon_count": STARTING_INFO,
    "spell_count": STARTING_INFO,
    "boss_count": STARTING_INFO,
    "wrong_section": STARTING_INFO,
    "one_color": STARTING_INFO,
    "max_copies": f"{STARTING_INFO}; {RESERVES}",
    "reserves_size": RESERVES,
    "reserves_types": RESERVES,
}


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    citation: str
    message: str
    cards: tuple[str, ...] = ()
    line: int | None = None
    # For an unknown card: catalog names close to it ("did you mean"), best first.
    suggestions: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rule": self.rule,
            "citation": self.citation,
            "message": self.message,
            "cards": list(self.cards),
        }
        if self.line is not None:
            out["line"] = self.line
        if self.suggestions:
            out["suggestions"] = list(self.suggestions)
        return out


@dataclass(frozen=True, slots=True)
class ValidationReport:
    format_key: str
    violations: tuple[Violation, ...] = ()
    warnings: tuple[Violation, ...] = field(default_factory=tuple)

    @property
    def legal(self) -> bool:
        return not self.violations

    def rules(self) -> set[str]:
        return {v.rule for v in self.violations}

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "format": self.format_key,
            "violations": [v.to_dict() for v in self.violations],
            "warnings": [w.to_dict() for w in self.warnings],
        }


def _v(rule: str, message: str, cards: tuple[str, ...] = (), line: int | None = None) -> Violation:
    return Violation(rule, RULES[rule], message, cards, line)


def _resolve(fmt: Format | str) -> Format:
    if isinstance(fmt, Format):
        return fmt
    if fmt not in FORMAT_PRESETS:
        raise FormatError("format_key", f"unknown format {fmt!r}")
    return FORMAT_PRESETS[fmt]


def _entries(
    decklist: Decklist, catalog: Catalog, sections: tuple[str, ...]
) -> list[tuple[str, BosCard, int]]:
    out = []
    for section in sections:
        for line in decklist.lines(section):
            card = catalog.get(line.card_id)
            if card is not None:
                out.append((section, card, line.count))
    return out


def _count_rule(
    rule: str, word: str, have: Counter[CardType], kind: CardType, need: int
) -> list[Violation]:
    n = have.get(kind, 0)
    if n == need:
        return []
    return [_v(rule, f"The deck needs exactly {need} {word}; it has {n}.")]


def validate_decklist(
    decklist: Decklist, catalog: Catalog, fmt: Format | str = "competitive"
) -> ValidationReport:
    """Every broken rule, in a stable order (unreadable lines first)."""
    rules = _resolve(fmt)
    violations: list[Violation] = [
        Violation(
            "decklist_unreadable",
            RULES["decklist_unreadable"],
            e.message,
            line=e.line,
            suggestions=e.suggestions,
        )
        for e in decklist.errors
    ]
    main = _entries(decklist, catalog, MAIN_SECTIONS)
    reserves = _entries(decklist, catalog, ("reserves",))

    size = sum(n for _, _, n in main)
    if size != rules.deck_size:
        violations.append(
            _v("deck_size", f"A deck has exactly {rules.deck_size} cards; this one has {size}.")
        )
    types: Counter[CardType] = Counter()
    for _, card, n in main:
        types[card.type] += n
    violations += _count_rule("wizard_count", "wizards", types, CardType.WIZARD, rules.wizards)
    wizards = Counter({c.name: n for _, c, n in main if c.type is CardType.WIZARD})
    repeated = tuple(sorted(name for name, n in wizards.items() if n > 1))
    if repeated:
        violations.append(
            _v(
                "different_wizards",
                f"The {rules.wizards} wizards must all be different; repeated: "
                + ", ".join(repeated)
                + ".",
                repeated,
            )
        )
    violations += _count_rule("summon_count", "summons", types, CardType.SUMMON, rules.summons)
    violations += _count_rule("spell_count", "spells", types, CardType.SPELL, rules.spells)
    violations += _count_rule("boss_count", "boss cards", types, CardType.BOSS, rules.bosses)
    misplaced = tuple(sorted({c.name for s, c, _ in main if SECTION_TYPE[s] is not c.type}))
    if misplaced:
        violations.append(
            _v(
                "wrong_section",
                "Cards listed in another type's section: " + ", ".join(misplaced) + ".",
                misplaced,
            )
        )
    colors = Counter(c.color.value for _, c, n in main + reserves for _ in range(n))
    if len(colors) > 1:
        major = colors.most_common(1)[0][0]
        off = tuple(sorted({c.name for _, c, _ in main + reserves if c.color.value != major}))
        one_colour = _v(
            "one_color",
            "All cards share one colour; this list has "
            + ", ".join(f"{k} {v}" for k, v in sorted(colors.items()))
            + ".",
            off,
        )
        if any(c.color.value != major for _, c, _ in reserves):
            # The reserves share the colour because they may be swapped in (the decision
            # above): cite that rule too.
            one_colour = replace(one_colour, citation=f"{STARTING_INFO}; {RESERVES}")
        violations.append(one_colour)
    copies: Counter[str] = Counter()
    for _, card, n in main + reserves:
        copies[card.name] += n
    over = tuple(sorted(name for name, n in copies.items() if n > rules.max_copies))
    if over:
        violations.append(
            _v(
                "max_copies",
                f"At most {rules.max_copies} copies of a card, reserves included: "
                + ", ".join(f"{name} ({copies[name]})" for name in over)
                + ".",
                over,
            )
        )
    reserve_size = sum(n for _, _, n in reserves)
    if reserve_size > rules.reserves_max:
        violations.append(
            _v(
                "reserves_size",
                f"Reserves hold at most {rules.reserves_max} cards; these hold {reserve_size}.",
            )
        )
    wrong = tuple(
        sorted({c.name for _, c, _ in reserves if c.type not in (CardType.SUMMON, CardType.SPELL)})
    )
    if wrong:
        violations.append(
            _v(
                "reserves_types",
                "Reserves hold only summons and spells: " + ", ".join(wrong) + ".",
                wrong,
            )
        )
    return ValidationReport(rules.key, tuple(violations))


def section_title(section: str) -> str:
    return SECTION_TITLES[section]


def rule_citations() -> Mapping[str, str]:
    return dict(RULES)
