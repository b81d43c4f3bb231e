"""BoBA's trophies as per-game details (engine.boba.trophies): pure, no database."""

from __future__ import annotations

import pytest

from engine.boba.trophies import BATTLES_PER_GAME, MATCH_RULES
from engine.frozen import thaw
from engine.games import BEST_OF_ONE, BEST_OF_THREE, GameDetailsError, ResultContext, get_game
from engine.penalties import details_after


def test_boba_plugin_records_trophies_through_its_match_rules() -> None:
    rules = get_game("boba").match_rules()
    assert rules is MATCH_RULES and rules.api_key == "battles"
    assert [(f.key, f.kind, f.per_side, f.maximum) for f in rules.form_fields()] == [
        ("trophies", "number", True, BATTLES_PER_GAME)
    ]


def test_clean_details_keeps_one_trophy_pair_per_game_played() -> None:
    context = ResultContext((2, 1, 0), BEST_OF_THREE)
    details = MATCH_RULES.from_api([[4, 2], [1, 4], [4, 3]])
    cleaned = MATCH_RULES.clean_details(details, context).to_json()
    assert cleaned == [{"trophies": [4, 2]}, {"trophies": [1, 4]}, {"trophies": [4, 3]}]
    assert MATCH_RULES.to_api(cleaned) == [[4, 2], [1, 4], [4, 3]]


@pytest.mark.parametrize(
    ("battles", "games", "field", "game", "cause"),
    [
        ([[4, 1]], (2, 0, 0), "battles", None, "each of the 2 games"),
        ([[5, 3]], (1, 0, 0), "battles[0]", 0, "a game has only 7 battles"),
        ([[4, 1], [-1, 4]], (1, 1, 0), "battles[1]", 1, "two whole numbers"),
        ([[4, True]], (1, 0, 0), "battles[0]", 0, "two whole numbers"),
        ([[4]], (1, 0, 0), "battles[0]", 0, "two whole numbers"),
        ([7], (1, 0, 0), "battles[0]", 0, "two whole numbers"),
        ("4-2", (1, 0, 0), "battles", None, "each of the 1 games"),
    ],
)
def test_clean_details_refuses_what_cannot_be_trophies_naming_the_api_field(
    battles: object, games: tuple[int, int, int], field: str, game: int | None, cause: str
) -> None:
    with pytest.raises(GameDetailsError) as caught:
        MATCH_RULES.clean_details(
            MATCH_RULES.from_api(battles), ResultContext(games, BEST_OF_THREE)
        )
    assert caught.value.field == field and cause in caught.value.message
    assert caught.value.game == game and caught.value.part == "trophies"


def test_cr_4_4_1_more_than_seven_trophies_cites_the_rule_for_people() -> None:
    with pytest.raises(GameDetailsError) as caught:
        MATCH_RULES.clean_details([{"trophies": [4, 4]}], ResultContext((1, 0, 0), BEST_OF_ONE))
    assert "CR 4.4.1" in caught.value.text.render()


def test_form_values_round_trip_and_empty_games_are_left_out() -> None:
    rows = [{"trophies": ["4", "2"]}, {"trophies": ["", ""]}, {"trophies": [" 0", "4 "]}]
    assert thaw(MATCH_RULES.details_from_form(rows)) == [
        {"trophies": [4, 2]},
        {"trophies": [0, 4]},
    ]
    assert MATCH_RULES.details_from_form([{"trophies": ["", ""]}]) is None
    recorded = [{"trophies": [4, 2]}]
    assert thaw(MATCH_RULES.form_values(recorded)) == [{"trophies": ["4", "2"]}]
    with pytest.raises(GameDetailsError) as caught:
        MATCH_RULES.details_from_form([{"trophies": ["four", "2"]}])
    assert caught.value.game == 0 and caught.value.part == "trophies"


def test_two_reports_agree_only_on_the_same_trophies() -> None:
    same = [{"trophies": [4, 2]}]
    agreed = MATCH_RULES.agree(same, [{"trophies": [4, 2]}])
    assert agreed is not None and agreed.to_json() == same
    assert MATCH_RULES.agree(same, [{"trophies": [4, 1]}]) is None


def test_match_score_is_the_trophy_totals_the_battle_differential_reads() -> None:
    assert MATCH_RULES.match_score([{"trophies": [4, 2]}, {"trophies": [1, 4]}]) == (5, 6)
    assert MATCH_RULES.match_score(None) is None
    assert MATCH_RULES.match_score([{"trophies": "x"}]) is None  # stored JSON read defensively
    assert get_game("bos").match_rules().match_score([{"winner": "a"}]) is None


def test_describe_names_both_players() -> None:
    lines = MATCH_RULES.describe([{"trophies": [4, 2]}], {"a": "Ann", "b": "Bob"})
    assert [t.render() for game in lines for t in game] == ["Game 1: trophies Ann 4, Bob 2."]


def test_a_penalty_game_is_added_without_trophies_and_bos_cannot_add_one() -> None:
    kept = details_after([{"trophies": [4, 2]}], (1, 0, 0), (1, 1, 0), MATCH_RULES.unplayed_game)
    assert kept == [{"trophies": [4, 2]}, {"trophies": [0, 0]}]
    bos = get_game("bos").match_rules()
    assert details_after([{"winner": "a"}], (1, 0, 0), (1, 1, 0), bos.unplayed_game) is None
    assert details_after([{"trophies": [4, 2]}], (1, 0, 0), (1, 0, 0), None) == [
        {"trophies": [4, 2]}
    ]
