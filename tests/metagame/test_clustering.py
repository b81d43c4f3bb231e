"""Suggested groups of lists by card overlap (metagame.clustering)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metagame.clustering import (
    ClusteringError,
    core_cards,
    core_rule,
    jaccard,
    suggest_groups,
)
from metagame.rules import DeckCard, matches, parse_rule

card_sets = st.frozensets(st.sampled_from([f"c{i}" for i in range(12)]), max_size=8)
lists = st.dictionaries(st.text("abcdef", min_size=1, max_size=4), card_sets, max_size=14)


def test_jaccard_by_hand() -> None:
    assert jaccard(frozenset("abc"), frozenset("bcd")) == pytest.approx(2 / 4)
    assert jaccard(frozenset(), frozenset()) == 1.0
    assert jaccard(frozenset("a"), frozenset("b")) == 0.0


def test_two_families_of_lists_make_two_groups_with_their_core_cards() -> None:
    aggro = {f"a{i}": frozenset({"Blitz", "Rush", "Jab", f"x{i}"}) for i in range(4)}
    control = {f"c{i}": frozenset({"Wall", "Stall", "Drain", f"y{i}"}) for i in range(3)}
    loner = {"z": frozenset({"Odd", "Weird"})}
    groups = suggest_groups({**aggro, **control, **loner}, threshold=0.4)
    assert [g.members for g in groups] == [("a0", "a1", "a2", "a3"), ("c0", "c1", "c2")]
    assert groups[0].core_cards == ("Blitz", "Jab", "Rush")
    assert groups[1].core_cards == ("Drain", "Stall", "Wall")
    assert groups[0].cohesion == pytest.approx(3 / 5)


@given(lists, st.floats(0.05, 1.0), st.randoms(use_true_random=False))
def test_groups_do_not_depend_on_the_order_lists_come_in(
    found: dict[str, frozenset[str]], threshold: float, rng: random.Random
) -> None:
    items = list(found.items())
    rng.shuffle(items)
    assert suggest_groups(dict(items), threshold=threshold) == suggest_groups(
        found, threshold=threshold
    )


@given(lists, st.floats(0.05, 1.0))
def test_every_list_is_in_one_group_at_most_and_core_cards_are_common(
    found: dict[str, frozenset[str]], threshold: float
) -> None:
    groups = suggest_groups(found, threshold=threshold, core_share=0.8)
    seen = [m for g in groups for m in g.members]
    assert len(seen) == len(set(seen))
    assert set(seen) <= set(found)
    for g in groups:
        assert len(g.members) >= 2
        for card in g.core_cards:
            holding = sum(card in found[m] for m in g.members)
            assert holding >= 0.8 * len(g.members) - 1e-9
        assert g.cohesion >= 0.0


@given(card_sets, st.integers(2, 5), lists)
def test_identical_lists_always_end_in_one_group(
    cards: frozenset[str], copies: int, others: dict[str, frozenset[str]]
) -> None:
    same = {f"same{i}": cards for i in range(copies)}
    groups = suggest_groups({**others, **same}, threshold=1.0)
    holding = [g for g in groups if "same0" in g.members]
    assert len(holding) == 1
    assert set(same) <= set(holding[0].members)


def test_a_named_group_makes_a_rule_its_lists_match() -> None:
    members = [frozenset({"A", "B", "C", "D", "E"}), frozenset({"A", "B", "C", "D", "F"})]
    core = core_cards(members)
    assert core == ("A", "B", "C", "D")
    rule = parse_rule(core_rule(core))
    assert rule_json_at_least(core_rule(core)) == 4  # ceil(0.8 * 4)
    for member in members:
        assert matches(rule, [DeckCard("main", "", n, 1, {}) for n in member])
    assert not matches(rule, [DeckCard("main", "", n, 1, {}) for n in ("A", "B", "Z")])


def rule_json_at_least(rule: dict[str, object]) -> object:
    return rule["at_least"]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"threshold": 0.0}, "threshold"),
        ({"core_share": 1.5}, "core_share"),
        ({"min_size": 0}, "min_size"),
    ],
)
def test_bad_parameters_are_refused_naming_them(kwargs: dict[str, float], field: str) -> None:
    with pytest.raises(ClusteringError) as error:
        suggest_groups({}, **kwargs)  # type: ignore[arg-type]
    assert error.value.field == field
    with pytest.raises(ClusteringError):
        core_rule(())
