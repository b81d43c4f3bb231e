"""BOS deck rules (engine/bos): each rule is a named violation citing `BOS: Starting Info` or
`BOS: Reserves`; the CSV import names the bad column; the text format reads and round-trips."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bos.cards import CSV_HEADER, Catalog, CsvFileError, parse_csv
from engine.bos.deck_plugin import DECK_RULES
from engine.bos.decklist import export_decklist, parse_decklist
from engine.bos.demo_catalog import SAMPLE_DECKLIST, demo_cards
from engine.bos.formats import FORMAT_PRESETS, Format, FormatError
from engine.bos.validation import RULES, ValidationReport, validate_decklist
from engine.games import ChartSeries, DeckRules, DeckSection

CATALOG = Catalog(demo_cards())
STARTING_INFO = "BOS: Starting Info"
RESERVES = "BOS: Reserves"


def check(text: str) -> ValidationReport:
    decklist = parse_decklist(text, CATALOG)
    return validate_decklist(decklist, CATALOG, "competitive")


def only(report: ValidationReport, rule: str) -> dict[str, Any]:
    """The report breaks exactly `rule`; its violation as JSON."""
    assert report.rules() == {rule}, report.to_dict()
    (violation,) = [v for v in report.to_dict()["violations"] if v["rule"] == rule]
    return violation


def edit(old: str, new: str, text: str = SAMPLE_DECKLIST) -> str:
    assert old in text
    return text.replace(old, new, 1)


# --- a legal list ----------------------------------------------------------------------------


def test_bos_sample_list_is_legal() -> None:
    report = check(SAMPLE_DECKLIST)
    assert report.legal, report.to_dict()
    assert report.to_dict() == {
        "legal": True,
        "format": "competitive",
        "violations": [],
        "warnings": [],
    }


def test_bos_competitive_is_the_only_format() -> None:
    assert list(FORMAT_PRESETS) == ["competitive"]
    fmt = FORMAT_PRESETS["competitive"]
    assert (fmt.deck_size, fmt.wizards, fmt.summons, fmt.spells, fmt.bosses) == (24, 3, 10, 10, 1)
    assert (fmt.max_copies, fmt.reserves_max) == (3, 10)


# --- one test per rule -----------------------------------------------------------------------


def test_bos_starting_info_24_cards() -> None:
    # 25 cards: a third Spark Pup in the summons is also 11 summons; use a spell-free way:
    text = edit("2 Kindle", "1 Kindle")
    report = check(text)
    assert report.rules() == {"deck_size", "spell_count"}
    size = next(v for v in report.violations if v.rule == "deck_size")
    assert size.citation == STARTING_INFO
    assert "24" in size.message and "23" in size.message


def test_bos_starting_info_3_wizards() -> None:
    text = edit("1 Ash Warden", "1 Ash Warden\n1 Kiln Mystic")
    report = check(text)
    assert report.rules() == {"deck_size", "wizard_count"}
    wizards = next(v for v in report.violations if v.rule == "wizard_count")
    assert wizards.citation == STARTING_INFO
    assert "exactly 3 wizards" in wizards.message and "4" in wizards.message


def test_bos_starting_info_3_different_wizards() -> None:
    text = edit("1 Ash Warden", "1 Cinder Scribe")
    violation = only(check(text), "different_wizards")
    assert violation["citation"] == STARTING_INFO
    assert violation["cards"] == ["Cinder Scribe"]


def test_bos_starting_info_10_summons() -> None:
    text = edit("2 Smoke Imp", "1 Smoke Imp")
    text = edit("2 Kindle", "3 Kindle", text)
    violations = check(text)
    assert violations.rules() == {"summon_count", "spell_count"}
    summons = next(v for v in violations.violations if v.rule == "summon_count")
    assert summons.citation == STARTING_INFO
    assert "exactly 10 summons" in summons.message and "it has 9" in summons.message


def test_bos_starting_info_10_spells() -> None:
    text = edit("2 Kindle", "1 Kindle")
    text = edit("2 Smoke Imp", "3 Smoke Imp", text)
    report = check(text)
    assert report.rules() == {"summon_count", "spell_count"}
    spells = next(v for v in report.violations if v.rule == "spell_count")
    assert spells.citation == STARTING_INFO
    assert "it has 9" in spells.message


def test_bos_starting_info_1_boss() -> None:
    text = edit("1 Furnace Tyrant", "1 Furnace Tyrant\n1 Slag Colossus")
    report = check(text)
    assert report.rules() == {"deck_size", "boss_count"}
    boss = next(v for v in report.violations if v.rule == "boss_count")
    assert boss.citation == STARTING_INFO


def test_bos_starting_info_one_colour() -> None:
    text = edit("2 Smoke Imp", "1 Smoke Imp\n1 Brook Sprite")
    violation = only(check(text), "one_color")
    assert violation["citation"] == STARTING_INFO
    assert violation["cards"] == ["Brook Sprite"]


def test_bos_reserves_share_the_deck_colour() -> None:
    text = edit("1 Spark Pup\n", "1 Mist Veil\n")
    violation = only(check(text), "one_color")
    assert violation["cards"] == ["Mist Veil"]
    # An off-colour reserve breaks the rule through the reserves: both sections are cited.
    assert violation["citation"] == "BOS: Starting Info; BOS: Reserves"


def test_bos_starting_info_at_most_3_copies() -> None:
    text = edit("2 Spark Pup\n", "4 Spark Pup\n")
    text = edit("2 Coal Golem", "1 Coal Golem", text)
    text = edit("2 Flare Hound", "1 Flare Hound", text)
    text = edit("1 Spark Pup\n", "", text)
    violation = only(check(text), "max_copies")
    assert violation["citation"] == f"{STARTING_INFO}; {RESERVES}"
    assert violation["cards"] == ["Spark Pup"]


def test_bos_reserves_copies_count_the_reserves() -> None:
    # 2 Spark Pup in the deck and 1 in the reserves is legal; 2 in the reserves is not.
    text = edit("1 Spark Pup\n", "2 Spark Pup\n")
    violation = only(check(text), "max_copies")
    assert "Spark Pup (4)" in violation["message"]


def test_bos_reserves_at_most_10() -> None:
    text = edit(
        "1 Spark Pup\n", "1 Spark Pup\n1 Magma Crawler\n1 Smoke Imp\n1 Kindle\n1 Blaze Pact\n"
    )
    violation = only(check(text), "reserves_size")
    assert violation["citation"] == RESERVES
    assert "11" in violation["message"]


def test_bos_reserves_only_summons_and_spells() -> None:
    text = edit("1 Spark Pup\n", "1 Slag Colossus\n1 Kiln Mystic\n")
    violation = only(check(text), "reserves_types")
    assert violation["citation"] == RESERVES
    assert violation["cards"] == ["Kiln Mystic", "Slag Colossus"]


def test_bos_starting_info_cards_in_their_type_section() -> None:
    text = edit("2 Kindle", "1 Kindle")
    text = edit("2 Smoke Imp", "2 Smoke Imp\n1 Heat Wave", text)
    report = check(text)
    # The counts go by card type (still 10 and 10); the section is what is wrong.
    assert report.rules() == {"wrong_section"}
    wrong = next(v for v in report.violations if v.rule == "wrong_section")
    assert wrong.cards == ("Heat Wave",)


def test_bos_unknown_card_is_an_error_naming_the_line() -> None:
    text = edit("2 Fire Lash", "2 Fire Lassh")
    decklist = parse_decklist(text, CATALOG)
    assert len(decklist.errors) == 1
    error = decklist.errors[0]
    assert error.line == text.splitlines().index("2 Fire Lassh") + 1
    assert f"line {error.line}" in error.message and "Fire Lassh" in error.message
    report = validate_decklist(decklist, CATALOG, "competitive")
    assert "decklist_unreadable" in report.rules()
    assert report.violations[0].line == error.line


def test_bos_every_rule_has_a_bos_citation() -> None:
    assert set(RULES) >= {
        "deck_size",
        "wizard_count",
        "different_wizards",
        "summon_count",
        "spell_count",
        "boss_count",
        "one_color",
        "max_copies",
        "reserves_size",
        "reserves_types",
    }
    for citation in RULES.values():
        assert citation.startswith("BOS: ")


def test_bos_cards_before_a_heading_go_to_their_type() -> None:
    decklist = parse_decklist("2 Heat Wave\n1 Ember Tutor\nWizards:\n1 Ash Warden\n", CATALOG)
    assert decklist.errors == ()
    assert [line.name for line in decklist.lines("spells")] == ["Heat Wave"]
    assert [line.name for line in decklist.lines("wizards")] == ["Ash Warden", "Ember Tutor"]


# --- CSV import ------------------------------------------------------------------------------

HEADER = ",".join(CSV_HEADER)


def test_bos_csv_import_reads_the_documented_header() -> None:
    data = f"{HEADER}\nTest Wyrm,summon,Blue,,7,Conduct a summon with any blue wizard.,,T1,1\n"
    result = parse_csv(data.encode())
    assert result.rejections == ()
    (card,) = result.entries
    assert (card.name, card.type.value, card.color.value, card.strength) == (
        "Test Wyrm",
        "summon",
        "blue",
        7,
    )
    assert card.id == "bos:t1:1"


@pytest.mark.parametrize(
    ("row", "column"),
    [
        (",summon,red,,3,,,S,1", "name"),
        ("Bad,creature,red,,3,,,S,1", "type"),
        ("Bad,summon,green,,3,,,S,1", "color"),
        ("Bad,spell,red,cheap,,,,S,1", "vim_cost"),
        ("Bad,spell,red,,,,,S,1", "vim_cost"),
        ("Bad,summon,red,,-2,,,S,1", "strength"),
        ("Bad,boss,red,,,,,S,1", "strength"),
        ("Bad,summon,red,,3,,,S,", "card_number"),
    ],
)
def test_bos_csv_rejections_name_the_column(row: str, column: str) -> None:
    result = parse_csv(f"{HEADER}\nGood,wizard,red,,,,,S,9\n{row}\n")
    assert [c.name for c in result.entries] == ["Good"]
    (rejection,) = result.rejections
    assert rejection.row == 2
    assert rejection.field == column
    assert rejection.to_dict()["field"] == column


def test_bos_csv_same_name_must_keep_type_and_colour() -> None:
    result = parse_csv(f"{HEADER}\nTwin,wizard,red,,,,,S,1\nTwin,wizard,blue,,,,,S,2\n")
    assert [r.field for r in result.rejections] == ["color"]


def test_bos_csv_without_the_header_is_a_file_error() -> None:
    with pytest.raises(CsvFileError):
        parse_csv(b"just,some,columns\n1,2,3\n")


def test_bos_plugin_import_names_file_and_column() -> None:
    result = DECK_RULES.parse_import([("bos.csv", f"{HEADER}\nX,spell,red,,,,,S,1\n".encode())])
    assert result.entries == ()
    assert [r.to_dict()["field"] for r in result.rejections] == ["bos.csv:vim_cost"]


# --- the plugin ------------------------------------------------------------------------------


def test_bos_deck_rules_satisfy_the_protocol() -> None:
    assert isinstance(DECK_RULES, DeckRules)


def test_bos_plugin_evaluates_the_sample() -> None:
    catalog = DECK_RULES.build_catalog([c.to_dict() for c in DECK_RULES.demo_cards()])
    fmt = DECK_RULES.resolve_format("competitive")
    evaluation = DECK_RULES.evaluate(SAMPLE_DECKLIST, catalog, fmt)
    assert evaluation.legal and evaluation.readable
    assert [s.key for s in evaluation.sections] == [
        "wizards",
        "summons",
        "spells",
        "boss",
        "reserves",
    ]
    assert all(isinstance(s, DeckSection) for s in evaluation.sections)
    assert [s.total for s in evaluation.sections] == [3, 10, 10, 1, 7]
    assert [c.key for c in evaluation.sections[0].columns] == ["color", "vim_cost", "strength"]
    stats = evaluation.statistics
    assert stats["cards"] == 24 and stats["reserves"] == 7
    assert stats["by_type"] == {"wizard": 3, "summon": 10, "spell": 10, "boss": 1}
    assert stats["vim_cost_curve"] == {"0": 2, "1": 2, "2": 2, "3": 2, "4": 2}
    charts = DECK_RULES.charts(stats, fmt)
    assert all(isinstance(c, ChartSeries) for c in charts)
    assert [c.id_suffix for c in charts] == ["vim", "types", "reserves"]
    assert charts[2].value == 7 and charts[2].cap == 10
    # The canonical text reads back to the same list.
    again = DECK_RULES.evaluate(evaluation.text, catalog, fmt)
    assert again.data == evaluation.data
    # And the stored JSON form does too.
    assert DECK_RULES.evaluate(evaluation.data, catalog, fmt).data == evaluation.data


def test_bos_custom_format_parameters() -> None:
    fmt = DECK_RULES.resolve_format("competitive", {"reserves_max": 5})
    assert isinstance(fmt, Format) and fmt.reserves_max == 5 and fmt.key == "competitive+custom"
    report = validate_decklist(parse_decklist(SAMPLE_DECKLIST, CATALOG), CATALOG, fmt)
    assert report.rules() == {"reserves_size"}
    with pytest.raises(FormatError):
        DECK_RULES.resolve_format("competitive", {"colours": 2})
    with pytest.raises(FormatError):
        DECK_RULES.resolve_format("casual")


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=200)
@given(st.text(max_size=400))
def test_bos_decklist_parser_never_raises(text: str) -> None:
    decklist = parse_decklist(text, CATALOG)
    report = validate_decklist(decklist, CATALOG, "competitive")
    assert isinstance(report.legal, bool)
    for error in decklist.errors:
        assert 1 <= error.line <= max(1, len(text.splitlines()))


@settings(max_examples=100)
@given(st.binary(max_size=300))
def test_bos_decklist_parser_never_raises_on_bytes(data: bytes) -> None:
    parse_decklist(data, CATALOG)


@settings(max_examples=100)
@given(st.permutations(SAMPLE_DECKLIST.splitlines()[1:]))
def test_bos_legal_list_round_trips_through_export(lines: list[str]) -> None:
    original = parse_decklist(SAMPLE_DECKLIST, CATALOG)
    exported = export_decklist(original, CATALOG)
    again = parse_decklist(exported, CATALOG)
    assert again == original
    assert export_decklist(again, CATALOG) == exported
    # Shuffled lines (headings included) read without errors and export canonically.
    shuffled = parse_decklist("\n".join(lines), CATALOG)
    assert shuffled.errors == ()
    assert export_decklist(
        parse_decklist(export_decklist(shuffled, CATALOG), CATALOG), CATALOG
    ) == (export_decklist(shuffled, CATALOG))


def test_bos_vim_curve_shows_empty_costs_and_types_by_their_names() -> None:
    from engine.bos.deck_plugin import deck_charts

    cost, types, _reserves = deck_charts(
        {"vim_cost_curve": {"0": 2, "2": 3, "4": 1}, "by_type": {"wizard": 3, "spell": 10}},
        None,
    )
    assert cost.bars == (("0", 2), ("1", 0), ("2", 3), ("3", 0), ("4", 1))
    assert dict(types.bars) == {"Wizards": 3, "Spells": 10}
