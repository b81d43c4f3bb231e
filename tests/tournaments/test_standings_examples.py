"""Hand-worked standings, checked digit for digit against exact fractions.

Example 1 (default scoring 3/1/0, tiebreakers OMW, GW, OGW), five players, E drops after
round 2:

    round 1: A beats B 2-0; C draws D 1-1; E bye
    round 2: A beats C 2-1; E beats B 2-0; D bye
    round 3: D beats A 2-1; B beats C 2-0          (E dropped)

    player  points  MW%          games W-L-D  GW%
    A       6       6/9          5-3-0        15/24
    B       3       3/9          2-4-0        6/18
    C       1       1/9 -> .33   2-5-0        6/21 -> .33 (floored, MTR Appendix C)
    D       7       7/9          5-2-0        15/21  (bye = 2-0)
    E       6       6/6          4-0-0        12/12  (bye = 2-0)

    OMW  A = (1/3 + .33 + 7/9) / 3 = 1297/2700      OGW  A = (1/3 + .33 + 5/7) / 3 = 2893/6300
         B = (2/3 + 1 + .33) / 3 = 599/900               B = (5/8 + 1 + .33) / 3 = 1.955/3
         C = (7/9 + 2/3 + 1/3) / 3 = 16/27               C = (5/7 + 5/8 + 1/3) / 3 = 281/504
         D = (.33 + 2/3) / 2 = 299/600  (bye is no opponent)
                                                         D = (.33 + 5/8) / 2 = .4775
         E = 1/3                                         E = 1/3

    ranking: D 7, A 6 (OMW .4804), E 6 (OMW .3333), B 3, C 1
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.standings import (
    MatchRecord,
    Player,
    Scoring,
    StateError,
    compute_standings,
)

F = Fraction
FLOOR = F(33, 100)


def approx(x: Fraction) -> object:
    return pytest.approx(float(x), abs=1e-12)


def example_one() -> tuple[list[Player], list[list[MatchRecord]]]:
    players = [Player("A"), Player("B"), Player("C"), Player("D"), Player("E", dropped=True)]
    rounds = [
        [
            MatchRecord("A", "B", "a", (2, 0, 0)),
            MatchRecord("C", "D", "draw", (1, 1, 0)),
            MatchRecord("E"),
        ],
        [
            MatchRecord("A", "C", "a", (2, 1, 0)),
            MatchRecord("E", "B", "a", (2, 0, 0)),
            MatchRecord("D"),
        ],
        [MatchRecord("D", "A", "a", (2, 1, 0)), MatchRecord("B", "C", "a", (2, 0, 0))],
    ]
    return players, rounds


def test_example_one_order_points_and_records() -> None:
    rows = compute_standings(*example_one())
    assert [(r.rank, r.player_id, r.points, r.record) for r in rows] == [
        (1, "D", 7, "2-0-1"),
        (2, "A", 6, "2-1-0"),
        (3, "E", 6, "2-0-0"),
        (4, "B", 3, "1-2-0"),
        (5, "C", 1, "0-2-1"),
    ]


@pytest.mark.parametrize(
    ("pid", "mw", "gw", "omw", "ogw"),
    [
        ("A", F(6, 9), F(15, 24), F(1297, 2700), F(2893, 6300)),
        ("B", F(3, 9), F(6, 18), F(599, 900), (F(5, 8) + 1 + FLOOR) / 3),
        # C's own MW% 1/9 and GW% 6/21 are below 0.33: MTR Appendix C uses 0.33 instead
        ("C", FLOOR, FLOOR, F(16, 27), F(281, 504)),
        ("D", F(7, 9), F(15, 21), F(299, 600), (FLOOR + F(5, 8)) / 2),
        ("E", F(1), F(1), F(1, 3), F(1, 3)),
    ],
)
def test_example_one_percentages(
    pid: str, mw: Fraction, gw: Fraction, omw: Fraction, ogw: Fraction
) -> None:
    row = {r.player_id: r for r in compute_standings(*example_one())}[pid]
    assert row.match_win_pct == approx(mw)
    assert row.game_win_pct == approx(gw)
    assert row.opponents_match_win_pct == approx(omw)
    assert row.opponents_game_win_pct == approx(ogw)
    assert dict(row.tiebreakers) == {"omw": approx(omw), "gw": approx(gw), "ogw": approx(ogw)}


def test_example_one_printed_digits() -> None:
    rows = {r.player_id: r for r in compute_standings(*example_one())}
    assert f"{rows['A'].opponents_match_win_pct:.4f}" == "0.4804"
    assert f"{rows['B'].opponents_match_win_pct:.4f}" == "0.6656"
    assert f"{rows['D'].opponents_match_win_pct:.4f}" == "0.4983"
    assert f"{rows['C'].opponents_game_win_pct:.4f}" == "0.5575"
    assert f"{rows['D'].opponents_game_win_pct:.4f}" == "0.4775"


def test_breakdown_lists_every_opponent_with_floored_numbers() -> None:
    rows = {r.player_id: r for r in compute_standings(*example_one())}
    a = rows["A"]
    assert [(o.round, o.opponent, o.result, o.games) for o in a.opponents] == [
        (1, "B", "win", (2, 0, 0)),
        (2, "C", "win", (2, 1, 0)),
        (3, "D", "loss", (1, 2, 0)),
    ]
    assert [o.opponent_match_win_pct for o in a.opponents] == [
        approx(F(1, 3)),
        approx(FLOOR),
        approx(F(7, 9)),
    ]
    assert a.opponents[1].opponent_game_win_pct == approx(FLOOR)
    d = rows["D"]
    assert d.bye_rounds == (2,) and d.byes == 1 and len(d.opponents) == 2
    assert d.games == (5, 2, 0)
    e = rows["E"]
    assert e.dropped and e.rounds_played == 2


def test_dropped_player_stays_in_opponents_tiebreakers() -> None:
    rows = {r.player_id: r for r in compute_standings(*example_one())}
    # B's OMW includes the dropped E at 100%
    assert [o.opponent for o in rows["B"].opponents] == ["A", "E", "C"]
    assert rows["B"].opponents[1].opponent_match_win_pct == 1.0


def example_two() -> tuple[list[Player], list[list[MatchRecord]]]:
    """Four players all on 3 points; battles and a penalty game loss.

    round 1: P beats Q 2-1 (trophies 9-6); R beats S 2-0 (8-2)
    round 2: Q beats R 2-0 (8-3); S beats P: games 1-1 played plus a game loss to P from a
             penalty, so 2-1 for S (trophies P 5, S 6)
    battle differential: P 14-12 = +2, Q 14-12 = +2, R 11-10 = +1, S 8-13 = -5
    """
    players = [Player("P"), Player("Q"), Player("R"), Player("S")]
    rounds = [
        [
            MatchRecord("P", "Q", "a", (2, 1, 0), battles=(9, 6)),
            MatchRecord("R", "S", "a", (2, 0, 0), battles=(8, 2)),
        ],
        [
            MatchRecord("Q", "R", "a", (2, 0, 0), battles=(8, 3)),
            MatchRecord("P", "S", "b", (1, 1, 0), penalty_game_losses=(1, 0), battles=(5, 6)),
        ],
    ]
    return players, rounds


def test_battle_differential_then_head_to_head() -> None:
    rows = compute_standings(*example_two(), tiebreakers=["battle_diff", "h2h"])
    assert [(r.rank, r.player_id, r.battle_differential) for r in rows] == [
        (1, "P", 2),
        (2, "Q", 2),
        (3, "R", 1),
        (4, "S", -5),
    ]


def test_head_to_head_needs_exactly_two_tied_players() -> None:
    rows = compute_standings(*example_two(), tiebreakers=["h2h"])
    assert [r.rank for r in rows] == [1, 1, 1, 1]  # four tied: head-to-head does not apply
    assert [r.player_id for r in rows] == ["P", "Q", "R", "S"]


def test_penalty_game_loss_counts_as_a_game_for_the_opponent() -> None:
    rows = {r.player_id: r for r in compute_standings(*example_two())}
    assert rows["P"].games == (3, 3, 0)
    assert rows["P"].game_win_pct == approx(F(9, 18))
    assert rows["S"].games == (2, 3, 0)
    assert rows["S"].game_win_pct == approx(F(6, 15))


def test_shared_ranks_for_full_ties() -> None:
    players = [Player("x"), Player("y"), Player("z"), Player("w")]
    rounds = [[MatchRecord("x", "y", "a", (2, 0, 0)), MatchRecord("z", "w", "a", (2, 0, 0))]]
    rows = compute_standings(players, rounds)
    assert [(r.rank, r.player_id) for r in rows] == [(1, "x"), (1, "z"), (3, "w"), (3, "y")]


def test_late_entry_has_no_fake_losses() -> None:
    players = [Player("a"), Player("b"), Player("c", late_entry_round=2), Player("d")]
    rounds = [
        [MatchRecord("a", "b", "a", (2, 0, 0)), MatchRecord("d")],
        [MatchRecord("a", "c", "b", (0, 2, 0)), MatchRecord("b", "d", "draw", (1, 1, 1))],
    ]
    rows = {r.player_id: r for r in compute_standings(players, rounds)}
    assert rows["c"].rounds_played == 1
    assert rows["c"].match_win_pct == 1.0
    assert rows["c"].opponents_match_win_pct == approx(F(3, 6))
    assert rows["d"].match_win_pct == approx(F(4, 6))
    assert rows["d"].game_win_pct == approx(F(6 + 3 + 1, 6 + 9))


def test_late_entry_losses_count_each_earlier_round_as_a_loss() -> None:
    # c enters in round 3 with late_entry_losses: rounds 1 and 2 are played rounds lost, 0-2 in
    # games each, against nobody; round 3 he beats a 2-1.
    players = [
        Player("a"),
        Player("b"),
        Player("c", late_entry_round=3, late_entry_losses=True),
        Player("d"),
    ]
    rounds = [
        [MatchRecord("a", "b", "a", (2, 0, 0)), MatchRecord("d")],
        [MatchRecord("a", "d", "a", (2, 0, 0)), MatchRecord("b")],
        [MatchRecord("c", "a", "a", (2, 1, 0)), MatchRecord("b", "d", "a", (2, 0, 0))],
    ]
    rows = {r.player_id: r for r in compute_standings(players, rounds)}
    c = rows["c"]
    assert (c.points, c.record, c.rounds_played, c.byes) == (3, "1-2-0", 3, 0)
    assert c.late_entry_loss_rounds == (1, 2) and c.bye_rounds == ()
    assert c.match_win_pct == approx(F(3, 9))
    assert c.games == (2, 5, 0)
    assert c.game_win_pct == approx(FLOOR)  # 6/21 of the game points, floored at 0.33
    assert [o.opponent for o in c.opponents] == ["a"]  # the lost rounds are nobody's opponent
    assert [o.opponent for o in rows["a"].opponents] == ["b", "d", "c"]
    # without the flag: joining at zero, one round played
    plain = [Player(p.id, late_entry_round=p.late_entry_round) for p in players]
    zero = {r.player_id: r for r in compute_standings(plain, rounds)}["c"]
    assert (zero.record, zero.rounds_played, zero.late_entry_loss_rounds) == ("1-0-0", 1, ())


def test_late_entry_losses_use_the_scoring() -> None:
    players = [Player("a"), Player("b"), Player("c", late_entry_round=2, late_entry_losses=True)]
    rounds = [[MatchRecord("a", "b", "a", (2, 0, 0))]]
    scoring = Scoring(win=2, draw=1, loss=0, bye_games=(3, 0))
    c = {r.player_id: r for r in compute_standings(players, rounds, scoring)}["c"]
    assert (c.points, c.losses, c.games, c.rounds_played) == (0, 1, (0, 3, 0), 1)


def test_draw_scoring_and_custom_points() -> None:
    players = [Player("a"), Player("b")]
    rounds = [[MatchRecord("a", "b", "draw", (0, 0, 3))]]
    rows = compute_standings(players, rounds, Scoring(win=2, draw=1, loss=0))
    assert [(r.points, r.match_win_pct, r.game_win_pct) for r in rows] == [
        (1, 0.5, approx(F(1, 3))),
        (1, 0.5, approx(F(1, 3))),
    ]


@pytest.mark.parametrize(
    ("rounds", "field"),
    [
        ([[MatchRecord("a", "zz", "a")]], "rounds[0][0].b"),
        ([[MatchRecord("a", "b", "a"), MatchRecord("a")]], "rounds[0][1].a"),
        ([[MatchRecord("a", "b", "a", (0, 2, 0))]], "rounds[0][0].games"),
        ([[MatchRecord("a", "b", "draw", (2, 0, 0))]], "rounds[0][0].games"),
        ([[MatchRecord("a", "b", "a", (2, -1, 0))]], "rounds[0][0].games"),  # type: ignore[arg-type]
        ([[MatchRecord("a", "b", "x")]], "rounds[0][0].result"),  # type: ignore[arg-type]
        ([[], [MatchRecord("late", "a", "a")]], "rounds[1][0].a"),
    ],
)
def test_bad_history_names_the_field(rounds: list[list[MatchRecord]], field: str) -> None:
    players = [Player("a"), Player("b"), Player("late", late_entry_round=3)]
    with pytest.raises(StateError) as info:
        compute_standings(players, rounds)
    assert info.value.field == field


def test_unknown_tiebreaker() -> None:
    with pytest.raises(StateError) as info:
        compute_standings([Player("a")], [], tiebreakers=["omw", "coin"])
    assert info.value.field == "tiebreakers[1]"
