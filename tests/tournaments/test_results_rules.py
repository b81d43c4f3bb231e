"""What a match result may be (tournaments.results), with the rules it follows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.results import DrawRules, ResultError, check_result, outcome, trophy_totals

BO1 = {"games_to_win": 1, "battles_per_game": 7}
BO3 = {"games_to_win": 2, "battles_per_game": 7}


def test_best_of_three_results_that_can_happen() -> None:
    for games in ([2, 0, 0], [2, 1, 0], [1, 1, 1], [0, 2, 0], [1, 0, 0], [0, 0, 3], [0, 0, 0]):
        assert check_result(games, None, **BO3)[0] == tuple(games)


@pytest.mark.parametrize(
    "games",
    [[3, 3, 0], [2, 2, 0], [3, 0, 0], [-1, 0, 0], [1, 0], [1.5, 0, 0], [True, 0, 0], [1, 1, 2]],
)
def test_impossible_best_of_three_scores_name_the_games_field(games: list[object]) -> None:
    with pytest.raises(ResultError) as info:
        check_result(games, None, **BO3)
    assert info.value.field == "games"


def test_cr_4_4_1_a_game_has_seven_battles_so_at_most_seven_trophies() -> None:
    with pytest.raises(ResultError) as info:
        check_result([1, 0, 0], [[4, 4]], **BO1)
    assert info.value.field == "battles[0]"
    assert check_result([1, 0, 0], [[4, 3]], **BO1)[1] == ((4, 3),)


def test_trophies_are_given_for_every_game_played() -> None:
    with pytest.raises(ResultError) as info:
        check_result([2, 1, 0], [[4, 0], [0, 4]], **BO3)
    assert info.value.field == "battles"


def test_cr_4_4_3_a_bracket_match_cannot_end_drawn() -> None:
    for games in ([0, 0, 1], [1, 1, 1], [0, 0, 0]):
        with pytest.raises(ResultError) as info:
            check_result(games, None, draws_allowed=False, **BO3)
        assert info.value.field == "games"
    assert check_result([2, 1, 0], None, draws_allowed=False, **BO3)[0] == (2, 1, 0)


def test_a_best_of_one_is_one_game_drawn_or_not() -> None:
    for games in ([1, 0, 1], [0, 1, 1], [0, 0, 2]):
        with pytest.raises(ResultError) as info:
            check_result(games, None, **BO1)
        assert info.value.field == "games"
    assert check_result([0, 0, 1], [[3, 3]], **BO1)[0] == (0, 0, 1)


def test_a_game_without_battles_refuses_trophies() -> None:
    with pytest.raises(ResultError):
        check_result([1, 0, 0], [[1, 0]], games_to_win=1, battles_per_game=None)


@given(st.integers(0, 2), st.integers(0, 2), st.integers(0, 3), st.sampled_from([True, False]))
def test_every_accepted_result_has_an_outcome_consistent_with_its_games(
    won_a: int, won_b: int, drawn: int, draws_allowed: bool
) -> None:
    try:
        games, _ = check_result([won_a, won_b, drawn], None, draws_allowed=draws_allowed, **BO3)
    except ResultError:
        too_many = won_a + won_b + drawn > 3
        assert (won_a == won_b == 2) or too_many or (not draws_allowed and won_a == won_b)
        return
    assert won_a + won_b + drawn <= 3
    result = outcome(games)
    assert result == ("a" if won_a > won_b else "b" if won_b > won_a else "draw")
    assert draws_allowed or result != "draw"


def test_trophy_totals_feed_the_battle_differential() -> None:
    assert trophy_totals([[4, 2], [1, 4], [4, 0]]) == (9, 6)
    assert trophy_totals(None) is None


@pytest.mark.parametrize("games", [[1, 1, 1], [0, 0, 1], [2, 0, 1], [1, 0, 1]])
def test_a_game_that_always_has_a_winner_refuses_drawn_games(games: list[int]) -> None:
    with pytest.raises(ResultError) as refused:
        check_result(
            games,
            None,
            drawn_games_allowed=False,
            rules=DrawRules(no_drawn_game="BOS: Decay"),
            **BO3,
        )
    assert refused.value.field == "games" and "(BOS: Decay)" in refused.value.message


def test_no_drawn_games_still_allows_a_level_swiss_match() -> None:
    """A 1-1 at time in Swiss is a drawn match, not a drawn game."""
    assert check_result([1, 1, 0], None, drawn_games_allowed=False, **BO3)[0] == (1, 1, 0)


def test_the_bracket_refusal_cites_the_games_own_rule() -> None:
    with pytest.raises(ResultError) as refused:
        check_result(
            [1, 1, 0],
            None,
            draws_allowed=False,
            rules=DrawRules(bracket_decided="BOS: Best of 3 Match"),
            **BO3,
        )
    assert refused.value.message.endswith("(BOS: Best of 3 Match)")
