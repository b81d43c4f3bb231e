"""The BOS demo's lists and results: every seeded sample list is legal (BOS: Starting Info,
BOS: Reserves) and seeds vary them; the invented per-game details are what the match rules
accept (BOS: Going First, BOS: Best of 3 Match)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bos.cards import Catalog
from engine.bos.deck_plugin import DECK_RULES
from engine.bos.demo_catalog import SAMPLE_DECKLIST, demo_game_details
from engine.bos.formats import COMPETITIVE
from engine.bos.match import clean_game_details
from engine.games import get_game

CATALOG = Catalog(DECK_RULES.demo_cards())


@settings(max_examples=200)
@given(st.integers(min_value=0, max_value=2**31))
def test_bos_every_seeded_sample_list_is_legal(seed: int) -> None:
    decklist = DECK_RULES.sample(CATALOG, COMPETITIVE, seed)
    report = DECK_RULES.validate(decklist, CATALOG, COMPETITIVE)
    assert not decklist.errors
    assert report.legal, report.to_dict()["violations"]


def test_bos_seed_0_is_the_sample_decklist_and_other_seeds_vary() -> None:
    zero = DECK_RULES.export(DECK_RULES.sample(CATALOG, COMPETITIVE, 0), CATALOG)
    assert zero == DECK_RULES.export(DECK_RULES.read_decklist(SAMPLE_DECKLIST, CATALOG), CATALOG)
    lists = {
        DECK_RULES.export(DECK_RULES.sample(CATALOG, COMPETITIVE, seed), CATALOG, title="")
        for seed in range(1, 9)
    }
    assert len(lists) == 8
    wizard_sets = {
        frozenset(
            line.name for line in DECK_RULES.sample(CATALOG, COMPETITIVE, seed).lines("wizards")
        )
        for seed in range(1, 17)
    }
    assert len(wizard_sets) >= 2


def test_bos_a_catalog_without_enough_cards_falls_back_to_the_sample() -> None:
    blue_only = Catalog(c for c in DECK_RULES.demo_cards() if c.color.value != "red")
    decklist = DECK_RULES.sample(blue_only, COMPETITIVE, 5)
    # The sample's red cards are not in this catalog: the list names unknown cards.
    assert decklist.errors


# Every finished best of 3, game by game (the match ends on the second win).
BEST_OF_3_ORDERS = [
    ["a", "a"],
    ["b", "b"],
    ["a", "b", "a"],
    ["b", "a", "a"],
    ["a", "b", "b"],
    ["b", "a", "b"],
]


@settings(max_examples=200)
@given(st.integers(min_value=0, max_value=2**31), st.sampled_from(BEST_OF_3_ORDERS))
def test_bos_going_first_demo_details_are_accepted_by_the_match_rules(
    seed: int, winners: list[str]
) -> None:
    a, b = winners.count("a"), winners.count("b")
    details = demo_game_details(winners, seed)
    records = clean_game_details(details, games=(a, b, 0), games_to_win=2)
    assert [r.winner for r in records] == winners
    for game in details:
        low, high = sorted(game["bids"])
        assert low != high
        higher = "a" if game["bids"][0] > game["bids"][1] else "b"
        assert game["chose_first"] == higher
        assert sorted(game["ether"]) == [0, low]


def test_bos_the_plugin_hands_out_demo_details_and_the_default_game_none() -> None:
    assert get_game("bos").demo_details(["a", "a"], 1) == demo_game_details(["a", "a"], 1)
    assert get_game("boba").demo_details(["a"], 1) is None


def test_bos_starting_info_an_unknown_card_gets_did_you_mean_suggestions() -> None:
    report = DECK_RULES.evaluate(
        "Wizards\n1 Cinder Scrib\n1 Qqqq\n", CATALOG, COMPETITIVE
    ).report_json()
    unknown = [v for v in report["violations"] if v["rule"] == "decklist_unreadable"]
    assert unknown[0]["suggestions"] == ["Cinder Scribe"] and unknown[0]["line"] == 2
    assert "suggestions" not in unknown[1]  # nothing close
    data = {"summons": [{"name": "Spark Pupp", "count": 2}]}
    from_json = DECK_RULES.evaluate(data, CATALOG, COMPETITIVE).report_json()["violations"][0]
    assert from_json["suggestions"][0] == "Spark Pup"
