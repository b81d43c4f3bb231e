"""BOS's deck rules as the game plugin exposes them (`engine.plugin.DeckRules`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.bos.cards import (
    CSV_HEADER,
    BosCard,
    CardType,
    Catalog,
    ImportResult,
    Rejection,
    catalog_from_mappings,
    parse_csv,
    parse_rows,
)
from engine.bos.decklist import (
    MAIN_SECTIONS,
    SECTION_TYPE,
    SECTIONS,
    Decklist,
    decklist_from_dict,
    decklist_to_dict,
    export_decklist,
    parse_decklist,
)
from engine.bos.decklist import SECTION_TITLES as DECK_SECTION_TITLES
from engine.bos.demo_catalog import SAMPLE_DECKLIST, demo_cards
from engine.bos.formats import FORMAT_PRESETS, Format
from engine.bos.validation import RULES, validate_decklist
from engine.format_presets import preset_parameters, resolve_preset
from engine.frozen import FrozenMap, freeze_map
from engine.plugin import N_, ChartSeries, DeckColumn, DeckEntry, DeckEvaluation, DeckSection, Text

CARD_FIELDS = ("id", *CSV_HEADER)
DETAIL_FIELDS: tuple[str, ...] = ()
SECTION_TITLES = {
    "wizards": N_("Wizards"),
    "summons": N_("Summons"),
    "spells": N_("Spells"),
    "boss": N_("Boss"),
    "reserves": N_("Reserves"),
}
COLUMNS = (
    DeckColumn("color", Text(N_("Colour"))),
    DeckColumn("vim_cost", Text(N_("Vim cost")), numeric=True),
    DeckColumn("strength", Text(N_("Strength")), numeric=True),
)
TYPE_LABELS = {
    "wizard": N_("Wizards"),
    "summon": N_("Summons"),
    "spell": N_("Spells"),
    "boss": N_("Boss"),
}


def resolve_format(key: str, params: Mapping[str, Any] | None = None) -> Format:
    return resolve_preset(FORMAT_PRESETS, Format.from_dict, key, params)


def format_parameters() -> Mapping[str, FrozenMap]:
    """Each preset's parameters (frozen), by the preset's key."""
    return MappingProxyType(
        {key: freeze_map(params) for key, params in preset_parameters(FORMAT_PRESETS).items()}
    )


def parse_import(
    files: Sequence[tuple[str, bytes]], existing: Iterable[Mapping[str, Any]] = ()
) -> ImportResult:
    """CSV files with the header `CSV_HEADER`; rejections name the file and the column."""
    entries: list[BosCard] = []
    rejections: list[Rejection] = []
    for name, data in files:
        result = parse_csv(data)
        entries.extend(result.entries)
        rejections.extend(
            Rejection(r.row, r.reason, f"{name}:{r.field}" if r.field else name)
            for r in result.rejections
        )
    return ImportResult(tuple(entries), tuple(rejections))


def read_decklist(source: str | bytes | Mapping[str, Any], catalog: Catalog) -> Decklist:
    if isinstance(source, str | bytes):
        return parse_decklist(source, catalog)
    return decklist_from_dict(source, catalog)


@dataclass(frozen=True, slots=True)
class DeckStatistics:
    cards: int
    reserves: int
    by_type: dict[str, int]
    colors: dict[str, int]
    vim_cost_curve: dict[int, int]
    strength_total: int
    average_strength: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": self.cards,
            "reserves": self.reserves,
            "by_type": dict(self.by_type),
            "colors": dict(self.colors),
            "vim_cost_curve": {str(k): v for k, v in sorted(self.vim_cost_curve.items())},
            "strength_total": self.strength_total,
            "average_strength": self.average_strength,
        }


def deck_statistics(decklist: Decklist, catalog: Catalog, fmt: Format | None) -> DeckStatistics:
    """Main-deck figures (reserves counted apart): cards per type and colour, the spells' vim
    cost curve, the summons' strength."""
    by_type: Counter[str] = Counter()
    colors: Counter[str] = Counter()
    curve: Counter[int] = Counter()
    strength = summons = 0
    for section in MAIN_SECTIONS:
        for line in decklist.lines(section):
            card = catalog.get(line.card_id)
            if card is None:
                continue
            by_type[card.type.value] += line.count
            colors[card.color.value] += line.count
            if card.vim_cost is not None:
                curve[card.vim_cost] += line.count
            if card.type is CardType.SUMMON and card.strength is not None:
                strength += card.strength * line.count
                summons += line.count
    reserves = sum(line.count for line in decklist.lines("reserves"))
    return DeckStatistics(
        cards=sum(by_type.values()),
        reserves=reserves,
        by_type={t.value: by_type.get(t.value, 0) for t in CardType},
        colors=dict(sorted(colors.items())),
        vim_cost_curve=dict(curve),
        strength_total=strength,
        average_strength=round(strength / summons, 2) if summons else 0.0,
    )


def _items(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    return [item for item in data.get(key) or [] if isinstance(item, Mapping)]


def detail_ids(data: Mapping[str, Any]) -> frozenset[str]:
    return frozenset()  # the stored list already carries colour, vim cost and strength


def deck_sections(
    data: Mapping[str, Any], details: Mapping[str, Mapping[str, Any]]
) -> tuple[DeckSection, ...]:
    out = []
    for key in SECTIONS:
        items = sorted(_items(data, key), key=lambda i: str(i.get("name")).casefold())
        if not items:
            continue
        entries = tuple(
            DeckEntry(
                count=int(item.get("count") or 1),
                name=str(item.get("name", "")),
                values=(item.get("color"), item.get("vim_cost"), item.get("strength")),
            )
            for item in items
        )
        out.append(
            DeckSection(
                key=key,
                title=Text(SECTION_TITLES[key]),
                columns=COLUMNS,
                entries=entries,
                total=sum(e.count for e in entries),
            )
        )
    return tuple(out)


def deck_charts(statistics: Mapping[str, Any], fmt: Format | None) -> tuple[ChartSeries, ...]:
    """Three charts: the spells' vim cost curve, cards per type, reserves against their cap."""
    stats = statistics or {}
    curve_rows = []
    for key, value in (stats.get("vim_cost_curve") or {}).items():
        try:
            curve_rows.append((int(key), int(value)))
        except (TypeError, ValueError):
            continue
    counts = dict(curve_rows)
    # Every cost from the cheapest to the dearest gets a bar, empty ones too, so a gap in the
    # curve shows as a gap and not as two neighbouring bars.
    costs = range(min(counts), max(counts) + 1) if counts else range(0)
    curve = tuple((str(k), counts.get(k, 0)) for k in costs)
    cost = ChartSeries(
        kind="bar",
        id_suffix="vim",
        title=Text(N_("Vim cost curve")),
        description=(
            Text(
                N_("Cards per vim cost in the deck (spells)."),
            ),
        ),
        bars=curve,
        x_label=Text(N_("Vim cost")),
        empty_text=Text(N_("No spells")),
        table_headers=(Text(N_("Vim cost")), Text(N_("Cards"))),
        table_rows=curve,
    )
    by_type = stats.get("by_type") or {}
    types = tuple(
        (t.value, int(by_type.get(t.value) or 0)) for t in CardType if by_type.get(t.value)
    )
    type_chart = ChartSeries(
        kind="hbar",
        id_suffix="types",
        title=Text(N_("Cards per type")),
        description=(
            Text.plain(", ".join(f"{TYPE_LABELS[k]}: {v}" for k, v in types))
            if types
            else Text(N_("No cards")),
        ),
        bars=tuple((TYPE_LABELS[k], v) for k, v in types),
        empty_text=Text(N_("No cards")),
        table_headers=(Text(N_("Type")), Text(N_("Cards"))),
        table_rows=tuple((Text(TYPE_LABELS[k]), v) for k, v in types),
    )
    reserves = int(stats.get("reserves") or 0)
    cap = fmt.reserves_max if fmt is not None else 10
    label = Text.of(N_("%(n)s of %(cap)s reserves"), n=reserves, cap=cap)
    reserve_chart = ChartSeries(
        kind="meter",
        id_suffix="reserves",
        title=Text(N_("Reserves")),
        description=(label,),
        value=reserves,
        cap=cap,
        value_label=label,
        cap_label=Text.of(N_("cap %(cap)s"), cap=cap),
        table_headers=(Text(N_("Figure")), Text(N_("Value"))),
        table_rows=((Text(N_("Reserves")), reserves), (Text(N_("Cap")), cap)),
    )
    return (cost, type_chart, reserve_chart)


def evaluate(
    source: str | bytes | Mapping[str, Any], catalog: Catalog, fmt: Format
) -> DeckEvaluation:
    decklist = read_decklist(source, catalog)
    report = validate_decklist(decklist, catalog, fmt)
    stats = deck_statistics(decklist, catalog, fmt)
    readable = not decklist.errors
    data = decklist_to_dict(decklist, catalog) if readable else {}
    return DeckEvaluation(
        decklist=decklist,
        readable=readable,
        legal=report.legal,
        report=report.to_dict(),
        statistics=stats.to_dict(),
        sections=deck_sections(data, {}),
        text=export_decklist(decklist, catalog) if readable else "",
        data=data,
    )


def sample_decklist(catalog: Catalog, fmt: Format, seed: int = 0) -> Decklist:
    """A legal list over the catalog's cards (the demo's players), varied by `seed`: seed 0 is
    SAMPLE_DECKLIST; another seed picks a colour that has enough cards, its wizards and boss,
    its summons and spells in a seeded order (at most `max_copies` each) and some of the
    copies left over as reserves. Falls back to SAMPLE_DECKLIST when no colour has enough."""
    if seed:
        text = _varied_sample(catalog, fmt, random.Random(seed))
        if text is not None:
            return parse_decklist(text, catalog)
    return parse_decklist(SAMPLE_DECKLIST, catalog)


def _varied_sample(catalog: Catalog, fmt: Format, rng: random.Random) -> str | None:
    pool: dict[tuple[str, CardType], list[BosCard]] = {}
    for card in sorted(catalog.cards(), key=lambda c: c.id):
        pool.setdefault((card.color.value, card.type), []).append(card)
    need = {
        CardType.WIZARD: fmt.wizards,
        CardType.BOSS: fmt.bosses,
        CardType.SUMMON: fmt.summons,
        CardType.SPELL: fmt.spells,
    }
    single = (CardType.WIZARD, CardType.BOSS)  # different cards, one copy each

    def enough(color: str) -> bool:
        return all(
            len(pool.get((color, kind), ())) * (1 if kind in single else fmt.max_copies) >= n
            for kind, n in need.items()
        )

    colors = sorted({color for color, _kind in pool if enough(color)})
    if not colors or fmt.max_copies < 1:
        return None
    color = rng.choice(colors)
    main: dict[str, dict[str, int]] = {}
    for kind, n in need.items():
        cards = rng.sample(pool.get((color, kind), []), len(pool.get((color, kind), [])))
        counts: dict[str, int] = {}
        cap = 1 if kind in single else fmt.max_copies
        left = n
        for card in cards:
            if left <= 0:
                break
            k = min(left, rng.randint(1, cap))
            counts[card.name] = k
            left -= k
        for card in cards:
            while left > 0 and counts.get(card.name, 0) < cap:
                counts[card.name] = counts.get(card.name, 0) + 1
                left -= 1
        main[next(k for k, t in SECTION_TYPE.items() if t is kind)] = counts
    room = [
        (name, fmt.max_copies - count)
        for key in ("summons", "spells")
        for name, count in sorted(main.get(key, {}).items())
        if count < fmt.max_copies
    ] + [
        (card.name, fmt.max_copies)
        for kind in (CardType.SUMMON, CardType.SPELL)
        for card in pool.get((color, kind), [])
        if all(card.name not in counts for counts in main.values())
    ]
    reserves: dict[str, int] = {}
    left = rng.randint(0, fmt.reserves_max)
    for name, free in rng.sample(room, len(room)):
        if left <= 0:
            break
        k = min(left, rng.randint(1, free))
        reserves[name] = k
        left -= k
    main["reserves"] = reserves
    out = [f"Title: Demo {color.title()} {rng.randint(100, 999)}"]
    for key in SECTIONS:
        counts = main.get(key) or {}
        if not counts:
            continue
        out += ["", f"{DECK_SECTION_TITLES[key]} ({sum(counts.values())})"]
        out += [f"{n} {name}" for name, n in sorted(counts.items())]
    return "\n".join(out) + "\n"


class BosDeckRules:
    """What the decks app needs from BOS, bound to the pure functions above."""

    card_fields: tuple[str, ...] = CARD_FIELDS
    kind_field: str = "type"
    rules: Mapping[str, object] = MappingProxyType(RULES)
    detail_fields: tuple[str, ...] = DETAIL_FIELDS
    decklist_help: Text = Text(
        N_(
            "One card per line with its count, under the section headings Wizards, Summons, "
            "Spells, Boss and Reserves, e.g. “1 Ember Tutor” or “2 Heat Wave”."
        )
    )
    build_catalog = staticmethod(catalog_from_mappings)
    card_from_fields = staticmethod(BosCard.from_dict)
    resolve_format = staticmethod(resolve_format)
    format_parameters = staticmethod(format_parameters)
    parse_import = staticmethod(parse_import)
    read_decklist = staticmethod(read_decklist)
    detail_ids = staticmethod(detail_ids)
    sections = staticmethod(deck_sections)
    charts = staticmethod(deck_charts)
    evaluate = staticmethod(evaluate)
    validate = staticmethod(validate_decklist)
    statistics = staticmethod(deck_statistics)
    export = staticmethod(export_decklist)
    to_data = staticmethod(decklist_to_dict)

    @staticmethod
    def demo_cards() -> list[BosCard]:
        return list(demo_cards())

    sample = staticmethod(sample_decklist)

    @staticmethod
    def community_cards(
        rows: Iterable[Mapping[str, Any]],
    ) -> tuple[list[BosCard], list[Rejection]]:
        """BOS has no community list; rows with the CSV columns are read like CSV rows."""
        result = parse_rows(
            {k: None if v is None else str(v) for k, v in row.items()} for row in rows
        )
        return list(result.entries), list(result.rejections)


DECK_RULES = BosDeckRules()
