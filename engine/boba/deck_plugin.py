"""BoBA's deck rules as the game plugin exposes them to the decks app.

The decks app speaks only this interface (see `engine.plugin.DeckRules`): it stores catalog
cards as flat dicts (`CatalogCard.to_dict()` keys), asks the plugin to read import files, to
build a catalog, and to parse, validate, describe and export decklists for a format given as a
preset key plus optional parameter overrides.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine.boba.deckbuilding import (
    FORMAT_PRESETS,
    RULES,
    Catalog,
    CatalogCard,
    Decklist,
    Format,
    ImportResult,
    Rejection,
    catalog_from_mappings,
    deck_statistics,
    decklist_from_dict,
    decklist_to_dict,
    demo_cards,
    export_decklist,
    parse_community_catalog,
    parse_community_plays,
    parse_csv,
    parse_decklist,
    sample_decklist,
    validate_decklist,
)
from engine.boba.deckbuilding.importers import apply_play_stats, parse_community_cards
from engine.format_presets import preset_parameters, resolve_preset
from engine.frozen import FrozenMap, freeze_map
from engine.plugin import N_, ChartSeries, DeckColumn, DeckEntry, DeckEvaluation, DeckSection, Text

CARD_FIELDS = (
    "id",
    "kind",
    "name",
    "set",
    "card_number",
    "parallel",
    "weapon",
    "power",
    "cost",
    "dbs",
    "base_name",
    "year",
    "release",
    "ability",
)
SECTION_ORDER = ("heroes", "playbook", "bonus_plays", "hot_dogs")
SECTION_TITLES = {
    "heroes": N_("Heroes"),
    "playbook": N_("Playbook"),
    "bonus_plays": N_("Bonus Plays"),
    "hot_dogs": N_("Hot Dogs"),
}
PLAY_SECTIONS = ("playbook", "bonus_plays")
# What a Play line shows from the catalog beside the stored list (Hot Dog cost and DBS).
DETAIL_FIELDS = ("cost", "dbs")
HERO_COLUMNS = (
    DeckColumn("weapon", Text(N_("Weapon"))),
    DeckColumn("power", Text(N_("Power")), numeric=True),
)
PLAY_COLUMNS = (
    DeckColumn("cost", Text(N_("Cost")), numeric=True),
    DeckColumn("dbs", Text(N_("DBS")), numeric=True),
)


class ImportFileError(ValueError):
    """A whole file could not be read (not a row: rows are rejected one by one)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


card_from_fields = CatalogCard.from_dict
build_catalog = catalog_from_mappings


def resolve_format(key: str, params: Mapping[str, Any] | None = None) -> Format:
    return resolve_preset(FORMAT_PRESETS, Format.from_dict, key, params)


def format_parameters() -> Mapping[str, FrozenMap]:
    """Each preset's parameters (frozen), by the preset's key."""
    return MappingProxyType(
        {key: freeze_map(params) for key, params in preset_parameters(FORMAT_PRESETS).items()}
    )


def _json_rows(name: str, data: bytes) -> list[Any]:
    try:
        rows = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportFileError(name, f"not valid JSON ({exc})") from None
    if not isinstance(rows, list):
        raise ImportFileError(name, "expected a JSON array of cards")
    return rows


def _file_kind(name: str, data: bytes) -> str:
    lowered = name.lower()
    if lowered.endswith(".csv"):
        return "csv"
    head = data[:4000].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"["):
        if b'"Card ID"' in head:
            return "community_cards"
        if b'"hot_dog_cost"' in head or b'"dbs"' in head:
            return "community_plays"
        raise ImportFileError(
            name, "a JSON array, but neither the community card list nor the play list"
        )
    if b"," in head.split(b"\n", 1)[0]:
        return "csv"
    raise ImportFileError(
        name, "unrecognised file: expected cards.json, plays.json or a CSV with a header row"
    )


def parse_import(
    files: Sequence[tuple[str, bytes]], existing: Iterable[Mapping[str, Any]] = ()
) -> ImportResult:
    """Read import files (community cards.json / plays.json, or CSV) into catalog entries.

    A plays.json given without cards.json applies its costs and DBS to the Play printings
    already in the catalog (`existing`). Rejections name the file in their field.
    """
    card_rows: list[Any] = []
    play_rows: list[Any] = []
    csv_cards: list[CatalogCard] = []
    rejections: list[Rejection] = []
    for name, data in files:
        kind = _file_kind(name, data)
        if kind == "community_cards":
            card_rows.extend(_json_rows(name, data))
        elif kind == "community_plays":
            play_rows.extend(_json_rows(name, data))
        else:
            cards, rejected = parse_csv(data)
            csv_cards.extend(cards)
            rejections.extend(_named(r, name) for r in rejected)
    entries: list[CatalogCard] = []
    if card_rows:
        result = parse_community_catalog(card_rows, play_rows)
        entries.extend(result.entries)
        rejections.extend(result.rejections)
    elif play_rows:
        stats, rejected = parse_community_plays(play_rows)
        rejections.extend(rejected)
        current = [card_from_fields(row) for row in existing]
        plays = [c for c in current if c.is_play]
        updated, unmatched = apply_play_stats(plays, stats)
        entries.extend(updated)
        rejections.extend(unmatched)
    entries.extend(csv_cards)
    return ImportResult(tuple(entries), tuple(rejections))


def _named(rejection: Rejection, file_name: str) -> Rejection:
    field = f"{file_name}:{rejection.field}" if rejection.field else file_name
    return Rejection(rejection.row, rejection.reason, field)


def read_decklist(source: str | bytes | Mapping[str, Any], catalog: Catalog) -> Decklist:
    if isinstance(source, str | bytes):
        return parse_decklist(source, catalog)
    return decklist_from_dict(source, catalog)


def _items(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    return [item for item in data.get(key) or [] if isinstance(item, Mapping)]


def detail_ids(data: Mapping[str, Any]) -> frozenset[str]:
    """The Plays whose catalog details (`DETAIL_FIELDS`) the sections show."""
    return frozenset(str(item.get("id")) for key in PLAY_SECTIONS for item in _items(data, key))


def deck_sections(
    data: Mapping[str, Any], details: Mapping[str, Mapping[str, Any]]
) -> tuple[DeckSection, ...]:
    """A stored list (`to_data`) as sections in game order: Heroes by Power (highest first)
    then name, other sections by name; Plays show their cost and DBS from `details`."""
    out = []
    for key in SECTION_ORDER:
        items = _items(data, key)
        if not items:
            continue
        if key == "heroes":
            items.sort(key=lambda i: (-(i.get("power") or 0), str(i.get("name")), i.get("weapon")))
            columns: tuple[DeckColumn, ...] = HERO_COLUMNS
        else:
            items.sort(key=lambda i: str(i.get("name")).casefold())
            columns = PLAY_COLUMNS if key in PLAY_SECTIONS else ()
        entries = []
        for item in items:
            extra = details.get(str(item.get("id")), {})
            printing = ""
            if item.get("set") and item.get("card_number"):
                printing = f"{item['set']} #{item['card_number']}"
            values: tuple[str | int | None, ...] = ()
            if key == "heroes":
                values = (item.get("weapon") or None, item.get("power"))
            elif key in PLAY_SECTIONS:
                values = (extra.get("cost"), extra.get("dbs"))
            entries.append(
                DeckEntry(
                    count=item.get("count", 1),
                    name=str(item.get("name", "")),
                    printing=printing,
                    values=values,
                )
            )
        out.append(
            DeckSection(
                key=key,
                title=Text(SECTION_TITLES[key]),
                columns=columns,
                entries=tuple(entries),
                total=sum(int(e.count or 0) for e in entries),
            )
        )
    return tuple(out)


def _int_keyed(counts: Mapping[str, Any] | None) -> tuple[tuple[str, int], ...]:
    rows = []
    for key, value in (counts or {}).items():
        try:
            rows.append((int(key), int(value)))
        except (TypeError, ValueError):
            continue
    return tuple((str(k), v) for k, v in sorted(rows))


def deck_charts(statistics: Mapping[str, Any], fmt: Format | None) -> tuple[ChartSeries, ...]:
    """The deck page's four charts (Power, weapons, cost curve, DBS) from stored statistics."""
    stats = statistics or {}
    power_cap = fmt.max_heroes_per_power if fmt is not None else None
    dbs_cap = fmt.dbs_cap if fmt is not None else stats.get("dbs_cap")
    no_heroes = Text(N_("No Heroes"))

    powers = _int_keyed(stats.get("hero_power_histogram"))
    over = [p for p, n in powers if power_cap is not None and n > power_cap]
    power_desc = [
        Text.of(
            N_("%(heroes)s Heroes, average Power %(avg)s."),
            heroes=stats.get("heroes", 0),
            avg=stats.get("average_hero_power", 0),
        )
    ]
    if power_cap is not None:
        power_desc.append(
            Text.of(N_("At most %(cap)s Heroes may share a Power value."), cap=power_cap)
        )
        if over:
            power_desc.append(
                Text.of(N_("Over the limit at Power %(powers)s."), powers=", ".join(over))
            )
    power_title = Text(N_("Heroes per Power value"))
    power = ChartSeries(
        kind="bar",
        id_suffix="power",
        title=power_title,
        description=tuple(power_desc),
        bars=powers,
        cap=power_cap,
        cap_label=Text.of(N_("max %(cap)s per Power"), cap=power_cap) if power_cap else None,
        x_label=Text(N_("Hero Power")),
        empty_text=no_heroes,
        table_headers=(Text(N_("Power")), Text(N_("Heroes"))),
        table_rows=powers,
        note=tuple(power_desc),
    )

    weapons = tuple(
        sorted(
            ((str(k), int(v)) for k, v in (stats.get("weapon_breakdown") or {}).items()),
            key=lambda kv: (-kv[1], kv[0]),
        )
    )
    weapons_desc = Text.plain(", ".join(f"{k}: {v}" for k, v in weapons)) if weapons else no_heroes
    weapon_chart = ChartSeries(
        kind="hbar",
        id_suffix="weapons",
        title=Text(N_("Heroes per weapon type")),
        description=(weapons_desc,),
        bars=weapons,
        empty_text=no_heroes,
        table_headers=(Text(N_("Weapon")), Text(N_("Heroes"))),
        table_rows=weapons,
    )

    curve = _int_keyed(stats.get("play_cost_curve"))
    variable = int(stats.get("plays_with_variable_cost") or 0)
    cost_desc = [Text(N_("Plays per Hot Dog cost, Playbook and Bonus Plays."))]
    note: tuple[Text, ...] = ()
    if variable:
        note = (Text.of(N_("%(n)s Plays have a variable cost and are not drawn."), n=variable),)
        cost_desc.extend(note)
    cost = ChartSeries(
        kind="bar",
        id_suffix="cost",
        title=Text(N_("Play cost curve")),
        description=tuple(cost_desc),
        bars=curve,
        x_label=Text(N_("Hot Dog cost")),
        empty_text=Text(N_("No Plays")),
        table_headers=(Text(N_("Cost")), Text(N_("Plays"))),
        table_rows=curve,
        note=note,
    )

    total = int(stats.get("dbs_total") or 0)
    if dbs_cap is not None:
        value_label = Text.of(N_("DBS %(total)s of %(cap)s"), total=total, cap=dbs_cap)
        dbs_desc = [value_label]
        if total > dbs_cap:
            dbs_desc.append(Text(N_("Over the cap.")))
    else:
        value_label = Text.of(N_("DBS %(total)s (no cap in this format)"), total=total)
        dbs_desc = [value_label]
    rows: list[tuple[Text | str | int, Text | str | int]] = [(Text(N_("Total")), total)]
    if dbs_cap is not None:
        rows.append((Text(N_("Cap")), dbs_cap))
    dbs = ChartSeries(
        kind="meter",
        id_suffix="dbs",
        title=Text(N_("Deck Balancing Score")),
        description=tuple(dbs_desc),
        value=total,
        cap=dbs_cap,
        value_label=value_label,
        cap_label=Text.of(N_("cap %(cap)s"), cap=dbs_cap) if dbs_cap is not None else None,
        table_headers=(Text(N_("Figure")), Text(N_("Value"))),
        table_rows=tuple(rows),
    )
    return (power, weapon_chart, cost, dbs)


def evaluate(
    source: str | bytes | Mapping[str, Any], catalog: Catalog, fmt: Format
) -> DeckEvaluation:
    """Read, validate and describe a list (nothing saved)."""
    decklist = read_decklist(source, catalog)
    report = validate_decklist(decklist, catalog, fmt)
    stats = deck_statistics(decklist, catalog, fmt)
    readable = not decklist.errors
    data = decklist_to_dict(decklist, catalog) if readable else {}
    details: dict[str, Mapping[str, Any]] = {}
    for card_id in detail_ids(data):
        card = catalog.get(card_id)
        if card is not None:
            fields = card.to_dict()
            details[card_id] = {name: fields.get(name) for name in DETAIL_FIELDS}
    return DeckEvaluation(
        decklist=decklist,
        readable=readable,
        legal=report.legal,
        report=report.to_dict(),
        statistics=stats.to_dict(),
        sections=deck_sections(data, details),
        text=export_decklist(decklist, catalog) if readable else "",
        data=data,
    )


class BobaDeckRules:
    """What the decks app needs from BoBA, bound to the pure functions above."""

    card_fields: tuple[str, ...] = CARD_FIELDS
    kind_field: str = "kind"
    rules: Mapping[str, object] = MappingProxyType(RULES)
    build_catalog = staticmethod(build_catalog)
    card_from_fields = staticmethod(card_from_fields)
    resolve_format = staticmethod(resolve_format)
    format_parameters = staticmethod(format_parameters)
    parse_import = staticmethod(parse_import)
    read_decklist = staticmethod(read_decklist)
    detail_fields: tuple[str, ...] = DETAIL_FIELDS
    decklist_help: Text = Text(
        N_(
            "One card per line with its count, under the section headings Heroes, Playbook, "
            "Bonus Plays and Hot Dogs, e.g. “1 Action (Fire 110)” or “10 Hot Dog”."
        )
    )
    detail_ids = staticmethod(detail_ids)
    sections = staticmethod(deck_sections)
    charts = staticmethod(deck_charts)
    evaluate = staticmethod(evaluate)
    validate = staticmethod(validate_decklist)
    statistics = staticmethod(deck_statistics)
    to_data = staticmethod(decklist_to_dict)

    @staticmethod
    def export(decklist: Decklist, catalog: Catalog, title: str | None = None) -> str:
        return export_decklist(decklist, catalog, title=title)

    @staticmethod
    def demo_cards() -> list[CatalogCard]:
        return list(demo_cards())

    @staticmethod
    def sample(catalog: Catalog, fmt: Format, seed: int = 0) -> Decklist:
        return sample_decklist(catalog, fmt, seed)

    @staticmethod
    def community_cards(
        rows: Iterable[Mapping[str, Any]],
    ) -> tuple[list[CatalogCard], list[Rejection]]:
        return parse_community_cards(rows)


DECK_RULES = BobaDeckRules()
