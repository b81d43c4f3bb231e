"""The game-plugin contract (engine.games): BoBA's deck rules satisfy `DeckRules`, and what they
return for the deck page are frozen value objects with BoBA's sections and charts; its
`Replayer` gives the replay CLI's JSON."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from engine.games import (
    N_,
    ChartSeries,
    DeckEvaluation,
    DeckRules,
    DeckSection,
    Replayer,
    Text,
    get_game,
)


@pytest.fixture(scope="module")
def rules() -> DeckRules:
    return get_game("boba").deck_rules()


@pytest.fixture(scope="module")
def playmaker(rules: DeckRules) -> tuple[Any, Any, DeckEvaluation]:
    catalog = rules.build_catalog([card.to_dict() for card in rules.demo_cards()])
    fmt = rules.resolve_format("playmaker")
    text = rules.export(rules.sample(catalog, fmt, 7), catalog)
    return catalog, fmt, rules.evaluate(text, catalog, fmt)


def test_boba_deck_rules_satisfy_the_protocol(rules: DeckRules) -> None:
    assert isinstance(rules, DeckRules)
    assert set(rules.detail_fields) == {"cost", "dbs"}


def test_value_objects_are_frozen(playmaker: tuple[Any, Any, DeckEvaluation]) -> None:
    _catalog, _fmt, evaluation = playmaker
    with pytest.raises(dataclasses.FrozenInstanceError):
        evaluation.legal = False  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        evaluation.sections[0].total = 0  # type: ignore[misc]


def test_text_renders_params_through_the_translator() -> None:
    assert N_("Heroes") == "Heroes"
    text = Text.of("DBS %(total)s of %(cap)s", total=755, cap=1000)
    assert text.render() == "DBS 755 of 1000"
    assert text.render(lambda m: m.replace("of", "von")) == "DBS 755 von 1000"
    assert Text.plain("Fire: 2").render(lambda m: "translated") == "Fire: 2"


def test_a_playmaker_evaluation_has_the_sections_in_game_order(
    playmaker: tuple[Any, Any, DeckEvaluation],
) -> None:
    _catalog, _fmt, evaluation = playmaker
    assert evaluation.readable and evaluation.legal and evaluation.report["legal"] is True
    sections = {s.key: s for s in evaluation.sections}
    assert [s.key for s in evaluation.sections] == ["heroes", "playbook", "bonus_plays", "hot_dogs"]
    assert [s.title.render() for s in evaluation.sections] == [
        "Heroes",
        "Playbook",
        "Bonus Plays",
        "Hot Dogs",
    ]
    for key in sections:
        assert sections[key].total == evaluation.statistics[key]
        assert sections[key].total == sum(e.count for e in sections[key].entries)
    assert sections["heroes"].total == 60 and sections["hot_dogs"].total == 10
    assert [c.title.render() for c in sections["heroes"].columns] == ["Weapon", "Power"]
    assert [c.title.render() for c in sections["playbook"].columns] == ["Cost", "DBS"]
    assert sections["hot_dogs"].columns == ()
    powers = [e.values[1] for e in sections["heroes"].entries]
    assert powers == sorted(powers, key=lambda p: -int(p or 0))
    # Plays carry their cost and DBS from the catalog; the DBS add up to the statistics' total.
    plays = sections["playbook"].entries + sections["bonus_plays"].entries
    assert all(len(e.values) == 2 for e in plays)
    assert sum(int(e.values[1] or 0) * e.count for e in plays) == evaluation.statistics["dbs_total"]


def test_sections_from_stored_data_match_the_evaluation(
    rules: DeckRules, playmaker: tuple[Any, Any, DeckEvaluation]
) -> None:
    catalog, _fmt, evaluation = playmaker
    ids = rules.detail_ids(evaluation.data)
    assert ids and all(catalog.get(i).is_play for i in ids)
    details = {i: {"cost": catalog.get(i).cost, "dbs": catalog.get(i).dbs} for i in ids}
    assert rules.sections(evaluation.data, details) == evaluation.sections
    bare = rules.sections(evaluation.data, {})
    assert all(e.values == (None, None) for s in bare if s.key == "playbook" for e in s.entries)


def _chart(charts: tuple[ChartSeries, ...], suffix: str) -> ChartSeries:
    return next(c for c in charts if c.id_suffix == suffix)


def test_the_four_charts_carry_the_statistics(
    rules: DeckRules, playmaker: tuple[Any, Any, DeckEvaluation]
) -> None:
    _catalog, fmt, evaluation = playmaker
    stats = evaluation.statistics
    charts = rules.charts(stats, fmt)
    assert [(c.kind, c.id_suffix) for c in charts] == [
        ("bar", "power"),
        ("hbar", "weapons"),
        ("bar", "cost"),
        ("meter", "dbs"),
    ]
    assert [c.title.render() for c in charts] == [
        "Heroes per Power value",
        "Heroes per weapon type",
        "Play cost curve",
        "Deck Balancing Score",
    ]
    power = _chart(charts, "power")
    histogram = sorted((int(k), v) for k, v in stats["hero_power_histogram"].items())
    assert power.bars == tuple((str(k), v) for k, v in histogram)
    assert power.cap == 6 and power.table_rows == power.bars
    assert power.description[0].render() == (
        f"60 Heroes, average Power {stats['average_hero_power']}."
    )
    assert power.note == power.description
    weapons = _chart(charts, "weapons")
    assert sum(n for _w, n in weapons.bars) == 60
    assert [n for _w, n in weapons.bars] == sorted((n for _w, n in weapons.bars), reverse=True)
    cost = _chart(charts, "cost")
    assert sum(n for _c, n in cost.bars) == 31 - stats["plays_with_variable_cost"]
    assert [int(c) for c, _n in cost.bars] == sorted(int(c) for c, _n in cost.bars)
    dbs = _chart(charts, "dbs")
    assert dbs.value == stats["dbs_total"] and dbs.cap == 1000
    assert dbs.value_label is not None
    assert dbs.value_label.render() == f"DBS {stats['dbs_total']} of 1000"


def test_charts_flag_what_is_over_the_caps(
    rules: DeckRules, playmaker: tuple[Any, Any, DeckEvaluation]
) -> None:
    _catalog, fmt, _evaluation = playmaker
    stats = {
        "heroes": 8,
        "hero_power_histogram": {"100": 7, "110": 1},
        "plays_with_variable_cost": 2,
        "dbs_total": 1200,
    }
    charts = rules.charts(stats, fmt)
    power = _chart(charts, "power")
    assert power.description[-1].render() == "Over the limit at Power 100."
    assert [t.render() for t in _chart(charts, "cost").note] == [
        "2 Plays have a variable cost and are not drawn."
    ]
    assert [t.render() for t in _chart(charts, "dbs").description] == [
        "DBS 1200 of 1000",
        "Over the cap.",
    ]
    # Without a format: no Power cap, and the DBS cap the statistics recorded (if any).
    bare = rules.charts({}, None)
    assert _chart(bare, "power").cap is None and _chart(bare, "dbs").cap is None
    assert _chart(bare, "weapons").description[0].render() == "No Heroes"


def test_deck_section_is_a_plain_value() -> None:
    section = DeckSection("k", Text("K"), (), (), 0)
    assert section == DeckSection("k", Text("K"), (), (), 0)
    assert hash(section) == hash(DeckSection("k", Text("K"), (), (), 0))


GOLDEN = Path(__file__).resolve().parent / "boba" / "golden"


@pytest.mark.parametrize(
    "name",
    [
        "playmaker_full_game_all_seven",
        "playmaker_illegal_second_substitution",
        "malformed_not_json",
        "malformed_short_lineup",
    ],
)
def test_the_replayer_gives_the_cli_json_of_the_golden_records(name: str) -> None:
    replayer = get_game("boba").replayer()
    assert replayer is not None and isinstance(replayer, Replayer)
    text = (GOLDEN / f"{name}.json").read_bytes()
    expected = json.loads((GOLDEN / f"{name}.replay.json").read_text(encoding="utf-8"))
    outcome = replayer.replay_text(text)
    assert {"exit": outcome.exit_status, **outcome.to_json()} == expected
    assert outcome.legal == (expected["exit"] == 0)
    assert outcome.malformed == (expected["exit"] == 2)
    if not name.startswith("malformed_not_json"):
        decoded = replayer.replay(json.loads(text))
        assert decoded == outcome
