"""BOS's deck rules as the game plugin exposes them (`engine.games.DeckRules`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
    SECTIONS,
    Decklist,
    decklist_from_dict,
    decklist_to_dict,
    export_decklist,
    parse_decklist,
)
from engine.bos.demo_catalog import SAMPLE_DECKLIST, demo_cards
from engine.bos.formats import FORMAT_PRESETS, Format, FormatError
from engine.bos.validation import RULES, validate_decklist
from engine.games import N_, ChartSeries, DeckColumn, DeckEntry, DeckEvaluation, DeckSection, Text

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
    if key not in FORMAT_PRESETS:
        raise FormatError("format_key", f"unknown format {key!r}")
    if not params:
        return FORMAT_PRESETS[key]
    base = FORMAT_PRESETS[key]
    return Format.from_dict(
        {"base": key, "key": f"{key}+custom", "name": f"{base.name} (custom)", **params}
    )


def format_parameters() -> dict[str, dict[str, Any]]:
    return {key: fmt.to_dict() for key, fmt in FORMAT_PRESETS.items()}


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


def detail_ids(data: Mapping[str, Any]) -> set[str]:
    return set()  # the stored list already carries colour, vim cost and strength


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
    curve = tuple((str(k), v) for k, v in sorted(curve_rows))
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
            Text.plain(", ".join(f"{k}: {v}" for k, v in types)) if types else Text(N_("No cards")),
        ),
        bars=types,
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


def _build_catalog(rows: Iterable[Mapping[str, Any]]) -> Catalog:
    return catalog_from_mappings(rows)


def _card_from_fields(fields: Mapping[str, Any]) -> BosCard:
    return BosCard.from_dict(fields)


class BosDeckRules:
    """What the decks app needs from BOS, bound to the pure functions above."""

    card_fields: tuple[str, ...] = CARD_FIELDS
    rules: Mapping[str, object] = RULES
    detail_fields: tuple[str, ...] = DETAIL_FIELDS
    build_catalog = staticmethod(_build_catalog)
    card_from_fields = staticmethod(_card_from_fields)
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

    @staticmethod
    def sample(catalog: Catalog, fmt: Format, seed: int = 0) -> Decklist:
        return parse_decklist(SAMPLE_DECKLIST, catalog)

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
