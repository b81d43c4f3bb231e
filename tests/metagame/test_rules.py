"""The archetype rule language (metagame.rules): parsing, errors naming the part, running."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metagame.rules import (
    OTHER,
    DeckCard,
    RuleError,
    classify,
    deck_cards,
    matches,
    parse_rule,
    rule_to_json,
)

SPEC_EXAMPLE = {
    "all": [
        {"card": "Play X"},
        {"count": {"section": "heroes", "power": {"gte": 130}}, "min": 20},
    ]
}


def hero(name: str, power: int, count: int = 1, weapon: str = "Fire") -> DeckCard:
    return DeckCard("heroes", f"id:{name}", name, count, {"power": power, "weapon": weapon})


def play(name: str, count: int = 1) -> DeckCard:
    return DeckCard("playbook", f"id:{name}", name, count, {})


def test_the_example_contains_play_x_and_20_heroes_of_power_130_or_more() -> None:
    rule = parse_rule(SPEC_EXAMPLE)
    strong = [hero(f"H{i}", 130 + i) for i in range(20)]
    assert matches(rule, [*strong, play("Play X")])
    assert not matches(rule, strong)  # no Play X
    assert not matches(rule, [*strong[:19], hero("Weak", 129), play("play x")])  # 19 of 130+
    assert matches(rule, [hero("Big", 200, count=20), play("PLAY X")])  # copies count, any case


def test_cards_at_least_and_not_and_any() -> None:
    cards = [play("A"), play("B"), hero("C", 100)]
    assert matches(parse_rule({"cards": ["A", "B", "Z"], "at_least": 2}), cards)
    assert not matches(parse_rule({"cards": ["A", "B", "Z"]}), cards)
    assert matches(parse_rule({"not": {"card": "Z"}}), cards)
    assert matches(parse_rule({"any": [{"card": "Z"}, {"card": "C"}]}), cards)
    assert not matches(parse_rule({"card": "A", "min": 2}), cards)
    assert not matches(parse_rule({"card": "A", "max": 0}), cards)
    # A Play has no power: it never compares, whatever the operator.
    assert not matches(parse_rule({"count": {"power": {"lt": 1000}}, "min": 2}), cards)
    assert matches(parse_rule({"count": {"weapon": {"in": ["Ice", "fire"]}}}), cards)
    assert matches(parse_rule({"count": {"section": ["heroes", "x"]}, "min": 1, "max": 1}), cards)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ([], "rule"),
        ({}, "rule"),
        ({"card": "A", "cards": ["A"]}, "rule"),
        ({"all": []}, "rule.all"),
        ({"all": [{"card": ""}]}, "rule.all[0].card"),
        (
            {"all": [{"card": "A"}, {"count": {"power": {"gte": "high"}}}]},
            "rule.all[1].count.power.gte",
        ),
        ({"count": {"power": {"about": 3}}}, "rule.count.power.about"),
        ({"count": {"power": {}}}, "rule.count.power"),
        ({"count": {"power": {"in": []}}}, "rule.count.power.in"),
        ({"count": {"weapon": ["Fire"]}}, "rule.count.weapon"),
        ({"card": "A", "min": -1}, "rule.min"),
        ({"card": "A", "min": 3, "max": 2}, "rule.max"),
        ({"card": "A", "min": True}, "rule.min"),
        ({"card": "A", "colour": 1}, "rule.colour"),
        ({"cards": ["A"], "at_least": 2}, "rule.at_least"),
        ({"cards": ["A", 3]}, "rule.cards[1]"),
        (
            {"not": {"not": {"not": {"not": {"not": {"not": {"not": {"not": {"card": "A"}}}}}}}}},
            "rule.not.not.not.not.not.not.not.not",
        ),
    ],
)
def test_a_bad_rule_is_refused_naming_the_part(raw: Any, field: str) -> None:
    with pytest.raises(RuleError) as error:
        parse_rule(raw)
    assert error.value.field == field


names = st.sampled_from(["Play X", "Blitz", "Iron Slim", "Night Comet"])
conditions = st.dictionaries(
    st.sampled_from(["power", "weapon", "cost"]),
    st.one_of(
        st.integers(0, 300),
        st.sampled_from(["Fire", "Ice"]),
        st.dictionaries(st.sampled_from(["gte", "lt", "ne"]), st.integers(0, 300), min_size=1),
    ),
    max_size=2,
)
leaves = st.one_of(
    st.builds(lambda n, m: {"card": n, "min": m}, names, st.integers(0, 4)),
    st.builds(lambda ns: {"cards": ns, "at_least": 1}, st.lists(names, min_size=1, max_size=3)),
    st.builds(
        lambda c, s, m: {"count": {**c, "section": s}, "min": m},
        conditions,
        st.sampled_from(["heroes", "playbook"]),
        st.integers(0, 30),
    ),
)
rules = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.builds(lambda rs: {"all": rs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda rs: {"any": rs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda r: {"not": r}, inner),
    ),
    max_leaves=6,
)
decks = st.lists(
    st.one_of(
        st.builds(
            hero, names, st.integers(0, 300), st.integers(1, 4), st.sampled_from(["Fire", "Ice"])
        ),
        st.builds(play, names, st.integers(1, 3)),
    ),
    max_size=12,
)


@given(rules, decks)
def test_a_rule_written_back_reads_the_same_and_sorts_lists_the_same(
    raw: Any, cards: list[DeckCard]
) -> None:
    rule = parse_rule(raw)
    again = parse_rule(rule_to_json(rule))
    assert again == rule
    assert matches(again, cards) == matches(rule, cards)
    assert matches(parse_rule({"not": raw}), cards) != matches(rule, cards)


@given(rules, rules, decks)
def test_the_first_matching_archetype_wins(first: Any, second: Any, cards: list[DeckCard]) -> None:
    a, b = parse_rule(first), parse_rule(second)
    name = classify([("A", a), ("B", b)], cards)
    if matches(a, cards):
        assert name == "A"
    elif matches(b, cards):
        assert name == "B"
    else:
        assert name == OTHER


def test_deck_cards_reads_a_boba_and_a_bos_list() -> None:
    boba = {
        "heroes": [
            {"count": 2, "id": "demo:1", "name": "Iron Slim", "weapon": "Ice", "power": 250}
        ],
        "playbook": [{"count": 1, "id": "demo:402", "name": "Broken Blitz"}],
        "issues": [],
    }
    bos = {
        "title": "Mine",
        "main": [{"id": "c1", "name": "Bear", "count": 3, "type": "creature", "strength": 4}],
    }
    assert deck_cards(boba) == (
        DeckCard("heroes", "demo:1", "Iron Slim", 2, {"weapon": "Ice", "power": 250}),
        DeckCard("playbook", "demo:402", "Broken Blitz", 1, {}),
    )
    assert deck_cards(bos) == (
        DeckCard("main", "c1", "Bear", 3, {"type": "creature", "strength": 4}),
    )
    assert deck_cards("junk") == ()
    assert deck_cards({"heroes": [{"count": "2", "name": "X"}, "junk"]}) == ()
