"""What a match result may be (tournaments.results), with the rules it follows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.results import DrawRules, ResultError, check_result, outcome

BO1 = {"games_to_win": 1}
BO3 = {"games_to_win": 2}


def test_best_of_three_results_that_can_happen() -> None:
    for games in ([2, 0, 0], [2, 1, 0], [1, 1, 1], [0, 2, 0], [1, 0, 0], [0, 0, 3], [0, 0, 0]):
        assert check_result(games, **BO3) == tuple(games)


@pytest.mark.parametrize(
    "games",
    [[3, 3, 0], [2, 2, 0], [3, 0, 0], [-1, 0, 0], [1, 0], [1.5, 0, 0], [True, 0, 0], [1, 1, 2]],
)
def test_impossible_best_of_three_scores_name_the_games_field(games: list[object]) -> None:
    with pytest.raises(ResultError) as info:
        check_result(games, **BO3)
    assert info.value.field == "games"


def test_cr_4_4_3_a_bracket_match_cannot_end_drawn() -> None:
    for games in ([0, 0, 1], [1, 1, 1], [0, 0, 0]):
        with pytest.raises(ResultError) as info:
            check_result(games, draws_allowed=False, **BO3)
        assert info.value.field == "games"
    assert check_result([2, 1, 0], draws_allowed=False, **BO3) == (2, 1, 0)


def test_a_best_of_one_is_one_game_drawn_or_not() -> None:
    for games in ([1, 0, 1], [0, 1, 1], [0, 0, 2]):
        with pytest.raises(ResultError) as info:
            check_result(games, **BO1)
        assert info.value.field == "games"
    assert check_result([0, 0, 1], **BO1) == (0, 0, 1)


@given(st.integers(0, 2), st.integers(0, 2), st.integers(0, 3), st.sampled_from([True, False]))
def test_every_accepted_result_has_an_outcome_consistent_with_its_games(
    won_a: int, won_b: int, drawn: int, draws_allowed: bool
) -> None:
    try:
        games = check_result([won_a, won_b, drawn], draws_allowed=draws_allowed, **BO3)
    except ResultError:
        too_many = won_a + won_b + drawn > 3
        assert (won_a == won_b == 2) or too_many or (not draws_allowed and won_a == won_b)
        return
    assert won_a + won_b + drawn <= 3
    result = outcome(games)
    assert result == ("a" if won_a > won_b else "b" if won_b > won_a else "draw")
    assert draws_allowed or result != "draw"


@pytest.mark.parametrize("games", [[1, 1, 1], [0, 0, 1], [2, 0, 1], [1, 0, 1]])
def test_a_game_that_always_has_a_winner_refuses_drawn_games(games: list[int]) -> None:
    with pytest.raises(ResultError) as refused:
        check_result(
            games,
            drawn_games_allowed=False,
            rules=DrawRules(no_drawn_game="BOS: Decay"),
            **BO3,
        )
    assert refused.value.field == "games" and "(BOS: Decay)" in refused.value.message


def test_no_drawn_games_still_allows_a_level_swiss_match() -> None:
    """A 1-1 at time in Swiss is a drawn match, not a drawn game."""
    assert check_result([1, 1, 0], drawn_games_allowed=False, **BO3) == (1, 1, 0)


def test_the_bracket_refusal_cites_the_games_own_rule() -> None:
    with pytest.raises(ResultError) as refused:
        check_result(
            [1, 1, 0],
            draws_allowed=False,
            rules=DrawRules(bracket_decided="BOS: Best of 3 Match"),
            **BO3,
        )
    assert refused.value.message.endswith("(BOS: Best of 3 Match)")
