"""The infraction catalogue, the upgrade rule and what a penalty does to a result
(engine/penalties.py, pure)."""

from __future__ import annotations

import pytest

from engine import penalties as p


def test_the_catalogue_groups_infractions_as_the_guidelines_do() -> None:
    groups = {key: [i.key for i in items] for key, _label, items in p.by_category()}
    assert list(groups) == ["conduct", "gameplay", "tournament"]
    assert all(groups.values())
    keys = [i.key for i in p.CATALOGUE]
    assert len(keys) == len(set(keys))
    for item in p.CATALOGUE:
        assert item.default in p.PENALTIES
        assert item.label and item.category in p.CATEGORIES
        assert item.to_json()["default_label"] == p.PENALTY_LABELS[item.default]


@pytest.mark.parametrize(
    ("key", "default"),
    [
        ("game_rule_violation", "warning"),
        ("looking_at_extra_cards", "warning"),
        ("drawing_extra_cards", "game_loss"),
        ("unsporting_conduct_minor", "warning"),
        ("unsporting_conduct_major", "match_loss"),
        ("cheating", "disqualification"),
        ("tardiness", "game_loss"),
        ("outside_assistance", "match_loss"),
        ("slow_play", "warning"),
        ("decklist_problem", "game_loss"),
    ],
)
def test_the_documented_defaults(key: str, default: str) -> None:
    assert p.infraction(key).default == default
    assert p.suggest(key) == p.Suggestion(default, default, False, 0)


def test_unknown_infractions_and_penalties_name_the_field() -> None:
    with pytest.raises(p.PenaltyError) as unknown:
        p.infraction("napping")
    assert unknown.value.field == "infraction"
    with pytest.raises(p.PenaltyError) as bad:
        p.check_penalty("yellow_card")
    assert bad.value.field == "penalty"
    with pytest.raises(p.PenaltyError):
        p.suggest("slow_play", ["yellow_card"])


def test_a_repeated_infraction_suggests_the_next_penalty_up() -> None:
    assert p.suggest("slow_play", ["warning"]) == p.Suggestion("game_loss", "warning", True, 1)
    # From the heaviest one given so far.
    assert p.suggest("slow_play", ["warning", "game_loss"]).penalty == "match_loss"
    # A judge who gave less than the default: still at least one step above the default.
    assert p.suggest("tardiness", ["caution"]).penalty == "match_loss"
    assert p.suggest("failure_to_maintain_game_state", ["caution"]).penalty == "warning"


def test_repetition_alone_never_suggests_a_disqualification() -> None:
    assert p.suggest("outside_assistance", ["match_loss"]) == p.Suggestion(
        "match_loss", "match_loss", False, 1
    )
    assert p.suggest("slow_play", ["match_loss", "match_loss"]).penalty == "match_loss"
    assert p.suggest("cheating", ["disqualification"]).penalty == "disqualification"


def test_next_up_and_rank() -> None:
    assert [p.next_up(x) for x in p.PENALTIES] == [
        "warning",
        "game_loss",
        "match_loss",
        "disqualification",
        "disqualification",
    ]
    assert [p.rank(x) for x in p.PENALTIES] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("games", "side", "to_win", "expected"),
    [
        # Best of 1: a game loss makes the opponent win 1-0.
        ((1, 0, 0), "a", 1, (0, 1, 0)),
        ((0, 1, 0), "b", 1, (1, 0, 0)),
        ((0, 0, 1), "a", 1, (0, 1, 0)),
        ((0, 0, 0), "b", 1, (1, 0, 0)),
        ((0, 1, 0), "a", 1, None),  # already lost
        # Best of 3.
        ((2, 0, 0), "a", 2, (2, 1, 0)),
        ((2, 1, 0), "a", 2, (1, 2, 0)),
        ((1, 1, 0), "a", 2, (1, 2, 0)),
        ((1, 1, 1), "b", 2, (2, 1, 0)),
        ((1, 0, 0), "a", 2, (1, 1, 0)),
        ((0, 2, 0), "a", 2, None),
        ((1, 2, 0), "a", 2, None),
    ],
)
def test_a_game_loss_within_the_match_structure(
    games: tuple[int, int, int], side: str, to_win: int, expected: tuple[int, int, int] | None
) -> None:
    assert p.after_game_loss(games, side, games_to_win=to_win) == expected


def test_a_game_loss_never_ends_a_bracket_match_drawn() -> None:
    assert p.after_game_loss((1, 0, 0), "a", games_to_win=2, draws_allowed=False) is None
    assert p.after_game_loss((2, 1, 0), "a", games_to_win=2, draws_allowed=False) == (1, 2, 0)


def test_every_game_loss_result_is_a_legal_result() -> None:
    for to_win in (1, 2, 3):
        for a in range(to_win + 1):
            for b in range(to_win + 1):
                for d in range(2 * to_win):
                    if (a == to_win and b == to_win) or a + b + d > 2 * to_win - 1:
                        continue
                    for side in ("a", "b"):
                        new = p.after_game_loss((a, b, d), side, games_to_win=to_win)
                        if new is None:
                            continue
                        na, nb, nd = new
                        assert max(na, nb) <= to_win and not (na == nb == to_win)
                        assert na + nb + nd <= 2 * to_win - 1
                        mine, theirs = (na, nb) if side == "a" else (nb, na)
                        was_mine, was_theirs = (a, b) if side == "a" else (b, a)
                        assert theirs == was_theirs + 1 and mine <= was_mine


def test_a_match_loss_gives_the_opponent_the_match() -> None:
    assert p.after_match_loss((2, 1, 0), "a", games_to_win=2) == (0, 2, 0)
    assert p.after_match_loss(None, "b", games_to_win=1) == (1, 0, 0)
    assert p.after_match_loss((0, 2, 0), "a", games_to_win=2) is None
    assert p.after_match_loss((1, 1, 1), "b", games_to_win=2) == (2, 0, 0)
    with pytest.raises(p.PenaltyError):
        p.after_match_loss(None, "c", games_to_win=1)


def test_battles_are_kept_when_games_are_not_added_and_padded_when_one_is() -> None:
    assert p.battles_after([[3, 1]], (1, 0, 0), (0, 1, 0)) == [[3, 1]]
    assert p.battles_after([[3, 1], [4, 0]], (2, 0, 0), (2, 1, 0)) == [[3, 1], [4, 0], [0, 0]]
    assert p.battles_after(None, (1, 0, 0), (0, 1, 0)) is None
    assert p.battles_after([[3, 1]], (2, 0, 0), (2, 1, 0)) is None  # did not match the games
