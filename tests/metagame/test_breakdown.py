"""The metagame breakdown's arithmetic, worked by hand (metagame.breakdown)."""

from __future__ import annotations

from fractions import Fraction

from metagame.breakdown import MatchResult, breakdown


def test_cr_breakdown_worked_by_hand() -> None:
    # Five counted lists: players 1, 2 Aggro; 3 Control; 4 Ramp; 5 Aggro. Player 6's list is
    # not published (absent), so their matches do not count.
    entrants = {1: "Aggro", 2: "Aggro", 3: "Control", 4: "Ramp", 5: "Aggro"}
    results = [
        # Aggro (1) beats Control (3) 2-1; trophies 4-3, 2-4, 4-1 -> Aggro 10, Control 8.
        MatchResult(1, 3, (2, 1, 0), ((4, 3), (2, 4), (4, 1))),
        # Mirror: Aggro (2) vs Aggro (5); counted apart, not in the win rate.
        MatchResult(2, 5, (2, 0, 0), ((4, 0), (4, 2))),
        # Ramp (4) draws Control (3); trophies 3-3 -> 3 each, 6 played.
        MatchResult(4, 3, (1, 1, 1), ((3, 3),)),
        # Control (3) beats Aggro (5) 2-0, no trophies recorded.
        MatchResult(3, 5, (2, 0, 0)),
        # A bye and a match against an unpublished list: not counted.
        MatchResult(1, None, (2, 0, 0)),
        MatchResult(2, 6, (0, 2, 0), ((0, 4), (1, 4))),
    ]
    found = breakdown(entrants, results)
    assert found.lists == 5
    assert [r.name for r in found.rows] == ["Aggro", "Control", "Ramp"]

    aggro = found.row("Aggro")
    assert (aggro.players, aggro.share) == (3, Fraction(3, 5))
    assert (aggro.matches.won, aggro.matches.lost, aggro.matches.drawn) == (1, 1, 0)
    assert aggro.matches.win_rate == Fraction(1, 2)
    assert (aggro.battles_won, aggro.battles_played) == (10, 18)  # only the match with trophies
    assert aggro.mirrors == 1
    assert aggro.against["Control"].won == 1 and aggro.against["Control"].lost == 1

    control = found.row("Control")
    assert control.share == Fraction(1, 5)
    assert (control.matches.won, control.matches.lost, control.matches.drawn) == (1, 1, 1)
    assert control.matches.win_rate == Fraction(1, 3)
    assert (control.battles_won, control.battles_played) == (8 + 3, 18 + 6)
    assert control.against["Ramp"].drawn == 1

    ramp = found.row("Ramp")
    assert ramp.matches.win_rate == Fraction(0)
    assert ramp.battle_win_rate == Fraction(1, 2)

    as_json = found.to_json()
    first = as_json["archetypes"][0]
    assert first["share"] == 0.6 and first["match_win_rate"] == 0.5
    assert first["battle_win_rate"] == round(10 / 18, 4)
    assert first["mirror_matches"] == 1
    assert first["against"] == [
        {"archetype": "Control", "won": 1, "lost": 1, "drawn": 0, "win_rate": 0.5}
    ]


def test_no_lists_no_rows_and_no_division_by_zero() -> None:
    found = breakdown({}, [MatchResult(1, 2, (1, 0, 0))])
    assert found.to_json() == {"lists": 0, "archetypes": []}
    lonely = breakdown({1: "Solo"}, []).to_json()["archetypes"][0]
    assert lonely["match_win_rate"] is None and lonely["battle_win_rate"] is None
    assert lonely["share"] == 1.0
