"""The cut calculator against a points threshold (a day 2 of "at least P points",
event-structures: Stages): each verdict is exactly what playing the rounds out can give."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.cutcalc import CutCalcError, MatchPoints, points_outlook

SCORES = (3, 1, 0)


@given(
    points=st.integers(min_value=0, max_value=30),
    threshold=st.integers(min_value=0, max_value=40),
    rounds_left=st.integers(min_value=1, max_value=4),
)
def test_points_outlook_verdicts_match_every_way_the_rounds_can_go(
    points: int, threshold: int, rounds_left: int
) -> None:
    (row,) = points_outlook({"p": points}, threshold, rounds_left=rounds_left)
    for k, outcome in enumerate(("win", "draw", "loss")):
        finals = {
            points + SCORES[k] + sum(later)
            for later in itertools.product(SCORES, repeat=rounds_left - 1)
        }
        reached = {total >= threshold for total in finals}
        expected = (
            "certain" if reached == {True} else "impossible" if reached == {False} else "possible"
        )
        assert getattr(row, outcome) == expected
        assert row.explain(outcome)
    assert row.in_contention == any(
        getattr(row, o) != "impossible" for o in ("win", "draw", "loss")
    )


def test_points_outlook_leaves_dropped_players_out_and_orders_by_points() -> None:
    rows = points_outlook({"a": 3, "b": 6, "c": 9}, 9, dropped={"c"}, scoring=MatchPoints())
    assert [r.player_id for r in rows] == ["b", "a"]
    assert (rows[0].win, rows[0].loss) == ("certain", "impossible")
    assert "below the 9 needed" in rows[0].explain("loss")


@pytest.mark.parametrize(("threshold", "rounds_left"), [(-1, 1), (6, 0)])
def test_points_outlook_refuses_a_bad_threshold_or_rounds_left(
    threshold: int, rounds_left: int
) -> None:
    with pytest.raises(CutCalcError):
        points_outlook({"a": 3}, threshold, rounds_left=rounds_left)
