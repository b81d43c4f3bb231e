"""Deck rules: decklist + catalog + format -> a report naming every violation.

Each rule has an id (`RULES`) and a citation; the report lists every violation, not the first,
with the cards involved and the counts. Reading problems (unknown cards, bad counts) are
violations too, so one report tells a judge everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.boba.deckbuilding.cards import (
    GENERIC_HOT_DOG_ID,
    CardKind,
    Catalog,
    CatalogCard,
    normalise_name,
    variation_key,
)
from engine.boba.deckbuilding.decklist import (
    Decklist,
    DecklistIssue,
    Section,
    decklist_from_dict,
    parse_decklist,
)
from engine.boba.deckbuilding.formats import (
    HERO_DECK_SIZE,
    HOT_DOG_DECK_SIZE,
    MAX_HEROES_PER_POWER,
    PLAYBOOK_SIZE,
    Format,
    GameMode,
    get_format,
)

DECKLIST_CITATION = "Decklist format"

RULES: dict[str, str] = {
    "decklist": "the list must be readable: every line a known card with a count (docs/decklist-format.md)",
    "deck.section_not_used": "a section the game mode does not use must be empty (CR 1.2)",
    "deck.wrong_section": "each card belongs in the section of its kind",
    "hero_deck.size": "Hero deck size (CR 1.2, CR 4.1.1; ranges and sealed sizes: Formats)",
    "hero_deck.power_value": "no more than 6 Heroes sharing one Power value (CR 4.1.1)",
    "hero_deck.one_per_variation": "one copy of each Hero variation (CR 4.1.1, CR 2.1.1)",
    "hero_deck.name_limit": "copies of one Hero name across variations (Summary: Deckbuilding)",
    "hero_deck.power_cap": "no Hero above the format's Power cap (Formats: SPEC Playmaker)",
    "hero_deck.limited_slots": "a limited number of Heroes above a Power (Formats: SPEC+ Playmaker)",
    "hero_deck.total_power": "total Hero Power cap (Formats: Elite Playmaker)",
    "playbook.size": "exactly 30 Plays (CR 1.2.3, CR 4.3.1; sealed sizes: Formats)",
    "playbook.unique": "all Plays unique, variants count as the same Play (CR 2.1.2, CR 4.3.1)",
    "bonus_plays.unique": "one copy of a Play across Playbook and Bonus Plays (CR 2.1.3)",
    "bonus_plays.not_allowed": "the format allows no Bonus Plays, or fewer (Formats)",
    "hot_dogs.size": "exactly 10 Hot Dogs (CR 2.1.4)",
    "playbook.dbs": "Deck Balancing Score total at most the cap (Formats: DBS)",
    "playbook.dbs_unknown": "every Play's DBS must be known to check the cap (Formats: DBS)",
    "playbook.checklist": "Plays only from the event's checklist (Formats: checklist)",
    "card_pool": "cards only from the format's sets (Formats: card pools)",
}
"""Every rule id the report can name, with what it checks and where it comes from."""


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    citation: str
    message: str
    cards: tuple[str, ...] = ()
    card_ids: tuple[str, ...] = ()
    counts: Mapping[str, int] = field(default_factory=dict)
    line: int | None = None
    path: str | None = None
    suggestions: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rule": self.rule,
            "citation": self.citation,
            "message": self.message,
            "cards": list(self.cards),
            "card_ids": list(self.card_ids),
            "counts": dict(self.counts),
        }
        if self.line is not None:
            out["line"] = self.line
        if self.path is not None:
            out["path"] = self.path
        if self.suggestions:
            out["suggestions"] = list(self.suggestions)
        return out


@dataclass(frozen=True, slots=True)
class ValidationReport:
    format_key: str
    violations: tuple[Violation, ...]
    warnings: tuple[DecklistIssue, ...] = ()

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


def _cite(fmt: Format, uses_default: bool, cr: str) -> str:
    return cr if uses_default else f"Formats: {fmt.name}"


def _plural(n: int, word: str) -> str:
    plural = "Heroes" if word == "Hero" else f"{word}s"
    return f"{n:,} {word if n == 1 else plural}"


class _Checker:
    def __init__(self, catalog: Catalog, fmt: Format) -> None:
        self.catalog = catalog
        self.fmt = fmt
        self.violations: list[Violation] = []

    def add(
        self,
        rule: str,
        citation: str,
        message: str,
        cards: Iterable[CatalogCard] = (),
        **counts: int,
    ) -> None:
        listed = list(cards)
        labels = [c.label for c in listed]
        if len(set(labels)) < len(labels):  # two printings of one variant: say which
            labels = [f"{c.label} {c.printing_label}" if c.set else c.label for c in listed]
        self.violations.append(
            Violation(
                rule,
                citation,
                message,
                tuple(labels),
                tuple(c.id for c in listed),
                counts,
            )
        )


def validate_decklist(
    decklist: Decklist | str | bytes | Mapping[str, Any],
    catalog: Catalog,
    fmt: Format | str,
) -> ValidationReport:
    """Check a list against a format; text, bytes and the JSON form are parsed first, and a
    format may be given by preset key. Never raises on a bad list (an unknown preset key
    raises `FormatError`)."""
    if isinstance(fmt, str):
        fmt = get_format(fmt)
    if isinstance(decklist, str | bytes):
        decklist = parse_decklist(decklist, catalog)
    elif not isinstance(decklist, Decklist):
        decklist = decklist_from_dict(decklist, catalog)
    check = _Checker(catalog, fmt)
    for issue in decklist.errors:
        check.violations.append(
            Violation(
                f"decklist.{issue.code}",
                DECKLIST_CITATION,
                (f"line {issue.line}: " if issue.line is not None else "") + issue.message,
                (issue.text,) if issue.text else (),
                line=issue.line,
                path=issue.path,
                suggestions=issue.suggestions,
            )
        )

    sections: dict[Section, list[tuple[CatalogCard, int, bool]]] = {s: [] for s in Section}
    plays_among_bonus: list[CatalogCard] = []
    for entry in decklist.entries:
        card = catalog.get(entry.card_id)
        if card is None:
            check.violations.append(
                Violation(
                    "decklist.unknown_card",
                    DECKLIST_CITATION,
                    f"card id {entry.card_id!r} is not in the catalog",
                    card_ids=(entry.card_id,),
                    line=entry.line,
                )
            )
            continue
        if entry.section is Section.BONUS_PLAYS and card.kind is CardKind.PLAY:
            plays_among_bonus.append(card)  # judged below, once the Playbook is known
        elif card.kind is not entry.section.kind:
            check.add(
                "deck.wrong_section",
                DECKLIST_CITATION,
                f"{card.label} is a {card.kind.value.replace('_', ' ')}, listed under "
                f"{entry.section.heading}",
                [card],
            )
        sections[entry.section].append((card, entry.count, entry.exact))

    _check_plays_among_bonus(check, plays_among_bonus, sections[Section.PLAYBOOK])
    _check_sections_used(check, sections)
    _check_heroes(check, [(c, n) for c, n, _ in sections[Section.HEROES]])
    if fmt.uses_playbook:
        _check_plays(
            check,
            [(c, n) for c, n, _ in sections[Section.PLAYBOOK]],
            [(c, n) for c, n, _ in sections[Section.BONUS_PLAYS]],
        )
    if fmt.uses_hot_dogs:
        total = sum(n for _, n, _ in sections[Section.HOT_DOGS])
        if total != fmt.hot_dog_count:
            check.add(
                "hot_dogs.size",
                _cite(fmt, fmt.hot_dog_count == HOT_DOG_DECK_SIZE, "CR 2.1.4"),
                f"the Hot Dog deck has {total:,}; it must have exactly {fmt.hot_dog_count}",
                actual=total,
                required=fmt.hot_dog_count or 0,
            )
    if fmt.card_pool is not None:
        _check_pool(check, [item for items in sections.values() for item in items])
    return ValidationReport(fmt.key, tuple(check.violations), decklist.warnings)


def _check_plays_among_bonus(
    check: _Checker,
    cards: list[CatalogCard],
    playbook: list[tuple[CatalogCard, int, bool]],
) -> None:
    """A Play entered among the Bonus Plays. If the Playbook holds the same Play (a variant
    included), the one problem is the second copy: `bonus_plays.unique` (CR 2.1.3) reports it.
    Otherwise it is a Play that is not a Bonus Play: it belongs in the Playbook. (A format
    without a Playbook reports the section instead.)"""
    fmt = check.fmt
    if not fmt.uses_playbook:
        return  # the section itself is not used: `deck.section_not_used` says so
    in_book = {normalise_name(c.play_name) for c, _, _ in playbook}
    for card in cards:
        if fmt.unique_plays and normalise_name(card.play_name) in in_book:
            continue
        check.add(
            "deck.wrong_section",
            "CR 2.1.3",
            f"{card.label} is a Play, not a Bonus Play: it belongs in the Playbook",
            [card],
        )


def _check_sections_used(
    check: _Checker, sections: Mapping[Section, list[tuple[CatalogCard, int, bool]]]
) -> None:
    fmt = check.fmt
    unused = []
    if not fmt.uses_playbook:
        unused += [Section.PLAYBOOK, Section.BONUS_PLAYS]
    if not fmt.uses_hot_dogs:
        unused.append(Section.HOT_DOGS)
    mode = fmt.game_mode.value.capitalize()
    for section in unused:
        items = sections[section]
        if items:
            total = sum(n for _, n, _ in items)
            standard = fmt.game_mode is GameMode.ROOKIE or (
                fmt.game_mode is GameMode.SUBSTITUTION and section is not Section.HOT_DOGS
            )
            check.add(
                "deck.section_not_used",
                _cite(fmt, standard, "CR 1.2"),
                f"{fmt.name} ({mode} mode) uses no {section.heading}; the list has {total:,}",
                [c for c, _, _ in items],
                actual=total,
                required=0,
            )
    if fmt.uses_playbook and not fmt.bonus_plays_allowed and sections[Section.BONUS_PLAYS]:
        items = sections[Section.BONUS_PLAYS]
        check.add(
            "bonus_plays.not_allowed",
            f"Formats: {fmt.name}",
            f"{fmt.name} allows no Bonus Plays",
            [c for c, _, _ in items],
            actual=sum(n for _, n, _ in items),
            required=0,
        )


def _check_heroes(check: _Checker, heroes: list[tuple[CatalogCard, int]]) -> None:
    fmt = check.fmt
    total = sum(n for _, n in heroes)
    low, high = fmt.hero_deck_min, fmt.hero_deck_max
    if not low <= total <= high:
        wanted = f"exactly {low}" if low == high else f"{low}-{high}"
        check.add(
            "hero_deck.size",
            _cite(fmt, low == high == HERO_DECK_SIZE, "CR 1.2, CR 4.1.1"),
            f"the Hero deck has {_plural(total, 'Hero')}; it must have {wanted}",
            actual=total,
            minimum=low,
            maximum=high,
        )
    if fmt.max_heroes_per_power is not None:
        by_power: dict[int, list[tuple[CatalogCard, int]]] = {}
        for card, n in heroes:
            by_power.setdefault(card.power or 0, []).append((card, n))
        for power in sorted(by_power):
            group = by_power[power]
            count = sum(n for _, n in group)
            if count > fmt.max_heroes_per_power:
                check.add(
                    "hero_deck.power_value",
                    _cite(fmt, fmt.max_heroes_per_power == MAX_HEROES_PER_POWER, "CR 4.1.1"),
                    f"{count} Heroes have Power {power}; at most {fmt.max_heroes_per_power} may share "
                    "a Power value",
                    [c for c, _ in group],
                    power=power,
                    actual=count,
                    maximum=fmt.max_heroes_per_power,
                )
    if fmt.one_copy_per_variation:
        by_variation: dict[tuple[str, str | None, int | None], list[tuple[CatalogCard, int]]] = {}
        for card, n in heroes:
            by_variation.setdefault(variation_key(card), []).append((card, n))
        for group in by_variation.values():
            count = sum(n for _, n in group)
            if count > 1:
                check.add(
                    "hero_deck.one_per_variation",
                    "CR 4.1.1",
                    f"{count} copies of {group[0][0].label}; only 1 copy of each Hero variation "
                    "(name, weapon and Power; parallels are the same variation)",
                    [c for c, _ in group],
                    actual=count,
                    maximum=1,
                )
    if fmt.max_copies_per_hero_name is not None:
        by_name: dict[str, list[tuple[CatalogCard, int]]] = {}
        for card, n in heroes:
            by_name.setdefault(normalise_name(card.name), []).append((card, n))
        for group in by_name.values():
            count = sum(n for _, n in group)
            if count > fmt.max_copies_per_hero_name:
                check.add(
                    "hero_deck.name_limit",
                    _cite(fmt, fmt.max_copies_per_hero_name == 6, "Summary: Deckbuilding"),
                    f"{count} Heroes named {group[0][0].name}; at most "
                    f"{fmt.max_copies_per_hero_name} across its variations",
                    [c for c, _ in group],
                    actual=count,
                    maximum=fmt.max_copies_per_hero_name,
                )
    if fmt.max_hero_power is not None:
        cap = fmt.max_hero_power
        over = [(c, n) for c, n in heroes if (c.power or 0) > cap]
        if over:
            check.add(
                "hero_deck.power_cap",
                f"Formats: {fmt.name}",
                f"{_plural(sum(n for _, n in over), 'Hero')} above {cap} Power; "
                f"{fmt.name} allows none",
                [c for c, _ in over],
                actual=sum(n for _, n in over),
                maximum=0,
                power_cap=cap,
            )
    if fmt.limited_slots_above_power is not None:
        threshold = fmt.limited_slots_above_power
        above = [(c, n) for c, n in heroes if (c.power or 0) > threshold]
        count = sum(n for _, n in above)
        if count > fmt.limited_slots:
            check.add(
                "hero_deck.limited_slots",
                f"Formats: {fmt.name}",
                f"{_plural(count, 'Hero')} above {threshold} Power; at most {fmt.limited_slots}",
                [c for c, _ in above],
                actual=count,
                maximum=fmt.limited_slots,
                power=threshold,
            )
    if fmt.max_total_hero_power is not None:
        power_total = sum((c.power or 0) * n for c, n in heroes)
        if power_total > fmt.max_total_hero_power:
            check.add(
                "hero_deck.total_power",
                f"Formats: {fmt.name}",
                f"total Hero Power is {power_total:,}; at most {fmt.max_total_hero_power:,}",
                actual=power_total,
                maximum=fmt.max_total_hero_power,
            )


def _check_plays(
    check: _Checker,
    playbook: list[tuple[CatalogCard, int]],
    bonus: list[tuple[CatalogCard, int]],
) -> None:
    fmt = check.fmt
    size = fmt.playbook_size or 0
    total = sum(n for _, n in playbook)
    if total != size:
        check.add(
            "playbook.size",
            _cite(fmt, size == PLAYBOOK_SIZE, "CR 1.2.3, CR 4.3.1"),
            f"the Playbook has {_plural(total, 'Play')}; it must have exactly {size} "
            "(Bonus Plays are counted apart)",
            actual=total,
            required=size,
        )
    if fmt.unique_plays:
        groups: dict[str, list[tuple[CatalogCard, int, bool]]] = {}
        for card, n in playbook:
            groups.setdefault(normalise_name(card.play_name), []).append((card, n, False))
        for card, n in bonus:
            groups.setdefault(normalise_name(card.play_name), []).append((card, n, True))
        for group in groups.values():
            count = sum(n for _, n, _ in group)
            if count <= 1:
                continue
            in_bonus = any(is_bonus for _, _, is_bonus in group)
            name = group[0][0].play_name
            if in_bonus:
                check.add(
                    "bonus_plays.unique",
                    "CR 2.1.3",
                    f"{count} copies of {name} across Playbook and Bonus Plays; only one copy of "
                    "a Play, variants included",
                    [c for c, _, _ in group],
                    actual=count,
                    maximum=1,
                )
            else:
                check.add(
                    "playbook.unique",
                    "CR 2.1.2, CR 4.3.1",
                    f"{count} copies of {name} in the Playbook; all Plays must be unique, "
                    "variants count as the same Play",
                    [c for c, _, _ in group],
                    actual=count,
                    maximum=1,
                )
    bonus_total = sum(n for _, n in bonus)
    if (
        fmt.bonus_plays_allowed
        and fmt.max_bonus_plays is not None
        and bonus_total > fmt.max_bonus_plays
    ):
        check.add(
            "bonus_plays.not_allowed",
            f"Formats: {fmt.name}",
            f"{_plural(bonus_total, 'Bonus Play')}; {fmt.name} allows at most {fmt.max_bonus_plays}",
            [c for c, _ in bonus],
            actual=bonus_total,
            maximum=fmt.max_bonus_plays,
        )
    plays = playbook + bonus
    if fmt.dbs_cap is not None:
        unknown = [c for c, _ in plays if c.dbs is None]
        if unknown:
            check.add(
                "playbook.dbs_unknown",
                "Formats: DBS",
                f"the DBS of {_plural(len(unknown), 'Play')} is not in the catalog, so the DBS "
                "cap cannot be checked",
                unknown,
            )
        dbs_total = sum((c.dbs or 0) * n for c, n in plays)
        if dbs_total > fmt.dbs_cap:
            check.add(
                "playbook.dbs",
                "Formats: DBS",
                f"the Playbook's Deck Balancing Score is {dbs_total:,}; at most {fmt.dbs_cap:,}",
                actual=dbs_total,
                maximum=fmt.dbs_cap,
            )
    if fmt.play_checklist is not None:
        off_list = [c for c, _ in plays if not fmt.play_allowed(c.play_name)]
        if off_list:
            check.add(
                "playbook.checklist",
                "Formats: checklist",
                f"{_plural(len(off_list), 'Play')} not on the event's checklist",
                off_list,
                actual=len(off_list),
            )


def _check_pool(check: _Checker, items: list[tuple[CatalogCard, int, bool]]) -> None:
    fmt = check.fmt
    outside = []
    for card, _n, exact in items:
        if card.id == GENERIC_HOT_DOG_ID:
            continue
        sets = {card.set} if exact else check.catalog.variant(card.id).sets
        if not any(fmt.set_allowed(s) for s in sets):
            outside.append(card)
    if outside:
        pool = ", ".join(fmt.card_pool or ())
        check.add(
            "card_pool",
            "Formats: card pools",
            f"{_plural(len(outside), 'card')} not printed in the format's sets ({pool})",
            outside,
            actual=len(outside),
        )
