"""Audit: standings worked out by hand with exact fractions, checked against the Python API and,
digit for digit, against ``python -m tournaments.swiss standings STATE.json``; and the CLI
contract of ``pair`` and ``standings``.

Definitions (the issue, then the Magic Tournament Rules, Appendix C, where the issue is silent):
MW% = match points / (3 x rounds played), a bye a match win, at least 0.33;
GW% = game points / (3 x games played), a game win 3 points, a drawn game 1, a bye 2-0, at
least 0.33; OMW% / OGW% = mean over the matches played (byes are not opponents) of each
opponent's MW% / GW%, each at least 0.33.

Example 1: seven players, three rounds. G enters in round 2; E drops after round 2; F has
the bye in round 2; C-D and A-D are draws. "battles" are trophies (a, b) over the match.

    R1: A beats B 2-1 [9, 7];   C draws D 1-1-1 [10, 10];   E beats F 2-0 [8, 3]
    R2: A beats C 2-0 [8, 2];   D beats E 2-1 [9, 8];       B beats G 2-0 [8, 4];  F bye
    R3: A draws D 1-1 [7, 7];   B beats F 2-1 [10, 9];      C beats G 2-0 [8, 1]   (E dropped)

    player pts record rounds MW%         games W-L-D  GW%              trophies  diff
    A      7   2-0-1  3      7/9         5-2-0        15/21 = 5/7      24-16     +8
    B      6   2-1-0  3      6/9 = 2/3   5-3-0        15/24 = 5/8      25-22     +3
    C      4   1-1-1  3      4/9         3-3-1        10/21            20-19     +1
    D      5   1-0-2  3      5/9         4-3-1        13/24            26-25     +1
    E      3   1-1-0  2      3/6 = 1/2   3-2-0        9/15 = 3/5       16-12     +4
    F      3   1-2-0  3      3/9 = 1/3   3-4-0        9/21 = 3/7       12-18     -6
    G      0   0-2-0  2      0 -> .33    0-4-0        0 -> .33          5-16    -11

    F's 1/3 is above the floor (1/3 > 0.33): it is not raised.

    OMW  A: B, C, D = (2/3 + 4/9 + 5/9) / 3        = 5/9
         B: A, G, F = (7/9 + .33 + 1/3) / 3        = 1297/2700
         C: D, A, G = (5/9 + 7/9 + .33) / 3        = 499/900
         D: C, E, A = (4/9 + 1/2 + 7/9) / 3        = 31/54
         E: F, D    = (1/3 + 5/9) / 2              = 4/9
         F: E, B    = (1/2 + 2/3) / 2              = 7/12   (the bye is no opponent)
         G: B, C    = (2/3 + 4/9) / 2              = 5/9
    OGW  A: (5/8 + 10/21 + 13/24) / 3              = 23/42
         B: (5/7 + .33 + 3/7) / 3                  = 1031/2100
         C: (13/24 + 5/7 + .33) / 3                = 6661/12600
         D: (10/21 + 3/5 + 5/7) / 3                = 188/315
         E: (3/7 + 13/24) / 2                      = 163/336
         F: (3/5 + 5/8) / 2                        = 49/80
         G: (5/8 + 10/21) / 2                      = 185/336

    Default order (OMW, GW, OGW): A 7, B 6, D 5, C 4, then E and F on 3: OMW F 7/12 > E 4/9,
    so F 5th, E 6th; G 7th. With battle differential first: E (+4) before F (-6).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tournaments.standings import MatchRecord, Player, Scoring, compute_standings
from tournaments.swiss import main, pair_round, parse_state
from tournaments.topcut import next_bracket_round, seed_bracket

ROOT = Path(__file__).resolve().parents[2]
F = Fraction
FLOOR = F(33, 100)


def six(x: Fraction) -> float:
    """How the CLI prints a percentage: the exact fraction rounded to 6 digits."""
    return round(float(x), 6)


def approx(x: Fraction) -> Any:
    return pytest.approx(float(x), abs=1e-12)


# -- Example 1 ---------------------------------------------------------------------------------
EXAMPLE_1: dict[str, Any] = {
    "players": [
        {"id": "A"},
        {"id": "B"},
        {"id": "C"},
        {"id": "D"},
        {"id": "E", "dropped": True},
        {"id": "F"},
        {"id": "G", "late_entry_round": 2},
    ],
    "rounds": [
        [
            {"a": "A", "b": "B", "result": "a", "games": [2, 1, 0], "battles": [9, 7]},
            {"a": "C", "b": "D", "result": "draw", "games": [1, 1, 1], "battles": [10, 10]},
            {"a": "E", "b": "F", "result": "a", "games": [2, 0, 0], "battles": [8, 3]},
        ],
        [
            {"a": "A", "b": "C", "result": "a", "games": [2, 0, 0], "battles": [8, 2]},
            {"a": "D", "b": "E", "result": "a", "games": [2, 1, 0], "battles": [9, 8]},
            {"a": "B", "b": "G", "result": "a", "games": [2, 0, 0], "battles": [8, 4]},
            {"a": "F", "bye": True},
        ],
        [
            {"a": "A", "b": "D", "result": "draw", "games": [1, 1, 0], "battles": [7, 7]},
            {"a": "B", "b": "F", "result": "a", "games": [2, 1, 0], "battles": [10, 9]},
            {"a": "C", "b": "G", "result": "a", "games": [2, 0, 0], "battles": [8, 1]},
        ],
    ],
}

# id: (points, record, MW%, GW%, OMW%, OGW%, games, battle differential)
HAND_1: dict[str, tuple[int, str, Fraction, Fraction, Fraction, Fraction, list[int], int]] = {
    "A": (7, "2-0-1", F(7, 9), F(5, 7), F(5, 9), F(23, 42), [5, 2, 0], 8),
    "B": (6, "2-1-0", F(2, 3), F(5, 8), F(1297, 2700), F(1031, 2100), [5, 3, 0], 3),
    "C": (4, "1-1-1", F(4, 9), F(10, 21), F(499, 900), F(6661, 12600), [3, 3, 1], 1),
    "D": (5, "1-0-2", F(5, 9), F(13, 24), F(31, 54), F(188, 315), [4, 3, 1], 1),
    "E": (3, "1-1-0", F(1, 2), F(3, 5), F(4, 9), F(163, 336), [3, 2, 0], 4),
    "F": (3, "1-2-0", F(1, 3), F(3, 7), F(7, 12), F(49, 80), [3, 4, 0], -6),
    "G": (0, "0-2-0", FLOOR, FLOOR, F(5, 9), F(185, 336), [0, 4, 0], -11),
}
ORDER_1 = ["A", "B", "D", "C", "F", "E", "G"]


def api(state: dict[str, Any], tiebreakers: list[str] | None = None) -> list[Any]:
    parsed = parse_state({**state, **({"tiebreakers": tiebreakers} if tiebreakers else {})})
    return compute_standings(parsed.players, parsed.rounds, parsed.scoring, parsed.tiebreakers)


def cli(tmp_path: Path, command: str, state: Any) -> tuple[int, Any, Any]:
    """The real command line, in a subprocess."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.swiss", command, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    out = json.loads(done.stdout) if done.stdout.strip() else None
    err = json.loads(done.stderr) if done.stderr.strip() else None
    return done.returncode, out, err


def test_example_1_by_hand_api() -> None:
    rows = api(EXAMPLE_1)
    assert [r.player_id for r in rows] == ORDER_1
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    for row in rows:
        pts, record, mw, gw, omw, ogw, games, diff = HAND_1[row.player_id]
        assert (row.points, row.record) == (pts, record)
        assert row.match_win_pct == approx(mw)
        assert row.game_win_pct == approx(gw)
        assert row.opponents_match_win_pct == approx(omw)
        assert row.opponents_game_win_pct == approx(ogw)
        assert list(row.games) == games
        assert row.battle_differential == diff
    by_id = {r.player_id: r for r in rows}
    assert by_id["E"].dropped and by_id["E"].rounds_played == 2
    assert by_id["G"].rounds_played == 2 and by_id["G"].losses == 2  # no loss for round 1
    assert by_id["F"].byes == 1 and by_id["F"].bye_rounds == (2,)
    # F's breakdown: two opponents, the bye is not one
    assert [(o.round, o.opponent, o.result, o.games) for o in by_id["F"].opponents] == [
        (1, "E", "loss", (0, 2, 0)),
        (3, "B", "loss", (1, 2, 0)),
    ]
    # B's breakdown shows G at the floor and F at 1/3, unfloored
    assert [(o.opponent, o.opponent_match_win_pct) for o in by_id["B"].opponents] == [
        ("A", approx(F(7, 9))),
        ("G", approx(FLOOR)),
        ("F", approx(F(1, 3))),
    ]
    assert [o.opponent_game_win_pct for o in by_id["B"].opponents] == [
        approx(F(5, 7)),
        approx(FLOOR),
        approx(F(3, 7)),
    ]


def test_example_1_digit_for_digit_on_the_command_line(tmp_path: Path) -> None:
    code, out, err = cli(tmp_path, "standings", EXAMPLE_1)
    assert (code, err) == (0, None)
    rows = out["standings"]
    assert [r["id"] for r in rows] == ORDER_1
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    for r in rows:
        pts, record, mw, gw, omw, ogw, games, diff = HAND_1[r["id"]]
        assert r["points"] == pts and r["record"] == record
        assert r["match_win_pct"] == six(mw)
        assert r["game_win_pct"] == six(gw)
        assert r["tiebreakers"] == {"omw": six(omw), "gw": six(gw), "ogw": six(ogw)}
        assert r["games"] == games and r["battle_differential"] == diff
    by_id = {r["id"]: r for r in rows}
    assert by_id["B"]["tiebreakers"] == {"omw": 0.48037, "gw": 0.625, "ogw": 0.490952}
    assert by_id["C"]["tiebreakers"] == {"omw": 0.554444, "gw": 0.47619, "ogw": 0.528651}
    assert by_id["G"]["match_win_pct"] == 0.33 and by_id["G"]["game_win_pct"] == 0.33
    assert by_id["E"]["dropped"] is True and by_id["F"]["byes"] == 1
    assert by_id["F"]["bye_rounds"] == [2]
    assert by_id["A"]["opponents"] == [
        {"round": 1, "opponent": "B", "result": "win", "games": [2, 1, 0],
         "opponent_match_win_pct": 0.666667, "opponent_game_win_pct": 0.625},
        {"round": 2, "opponent": "C", "result": "win", "games": [2, 0, 0],
         "opponent_match_win_pct": 0.444444, "opponent_game_win_pct": 0.47619},
        {"round": 3, "opponent": "D", "result": "draw", "games": [1, 1, 0],
         "opponent_match_win_pct": 0.555556, "opponent_game_win_pct": 0.541667},
    ]  # fmt: skip


def test_example_1_battle_differential_first(tmp_path: Path) -> None:
    rows = api(EXAMPLE_1, ["battle_diff", "omw"])
    assert [r.player_id for r in rows] == ["A", "B", "D", "C", "E", "F", "G"]
    assert dict(rows[4].tiebreakers) == {"battle_diff": 4, "omw": approx(F(4, 9))}
    code, out, _ = cli(tmp_path, "standings", {**EXAMPLE_1, "tiebreakers": ["battle_diff"]})
    assert code == 0
    assert [(r["id"], r["tiebreakers"]["battle_diff"]) for r in out["standings"]] == [
        ("A", 8), ("B", 3), ("D", 1), ("C", 1), ("E", 4), ("F", -6), ("G", -11),
    ]  # fmt: skip


# -- Example 2: head-to-head between exactly two tied players --------------------------------------
# Four players, a round robin:
#   R1: A beats B 2-0, C beats D 2-0;  R2: A beats C 2-1, B beats D 2-1;  R3: D beats A 2-0,
#   C beats B 2-0.
# A 6 (games 4-3: GW 12/21 = 4/7), C 6 (5-2: 15/21 = 5/7), B 3 (2-5: 6/21 -> .33), D 3 (3-4:
# 9/21 = 3/7). OMW: A = (1/3 + 2/3 + 1/3)/3 = 4/9 = C; B = (2/3 + 1/3 + 2/3)/3 = 5/9 = D.
# A beat C, B beat D. Order OMW, H2H, GW: A, C, B, D. Order OMW, GW, H2H: C, A, D, B.
EXAMPLE_2: dict[str, Any] = {
    "players": [{"id": x} for x in "ABCD"],
    "rounds": [
        [
            {"a": "A", "b": "B", "result": "a", "games": [2, 0, 0]},
            {"a": "C", "b": "D", "result": "a", "games": [2, 0, 0]},
        ],
        [
            {"a": "A", "b": "C", "result": "a", "games": [2, 1, 0]},
            {"a": "B", "b": "D", "result": "a", "games": [2, 1, 0]},
        ],
        [
            {"a": "D", "b": "A", "result": "a", "games": [2, 0, 0]},
            {"a": "C", "b": "B", "result": "a", "games": [2, 0, 0]},
        ],
    ],
}


def test_head_to_head_decides_between_exactly_two() -> None:
    rows = api(EXAMPLE_2, ["omw", "h2h", "gw"])
    assert [(r.rank, r.player_id) for r in rows] == [(1, "A"), (2, "C"), (3, "B"), (4, "D")]
    assert [r.opponents_match_win_pct for r in rows] == [
        approx(F(4, 9)), approx(F(4, 9)), approx(F(5, 9)), approx(F(5, 9))
    ]  # fmt: skip
    assert dict(rows[0].tiebreakers)["h2h"] is None
    rows = api(EXAMPLE_2, ["omw", "gw", "h2h"])
    assert [(r.rank, r.player_id) for r in rows] == [(1, "C"), (2, "A"), (3, "D"), (4, "B")]
    gw = {r.player_id: r.game_win_pct for r in rows}
    assert gw == {"A": approx(F(4, 7)), "C": approx(F(5, 7)), "B": approx(FLOOR),
                  "D": approx(F(3, 7))}  # fmt: skip


# -- Example 3: a three-way full tie shares a rank; head-to-head does not apply to three ---------
# A cycle of three with byes: A beats B 2-0 (C bye), B beats C 2-0 (A bye), C beats A 2-0 (B bye).
# Each: 6 points (a win and a bye), 2-1, games 4-2 with the bye -> GW 12/18 = 2/3;
# MW 6/9 = 2/3; OMW = (2/3 + 2/3)/2 = 2/3; OGW the same. Equal on everything: rank 1, 1, 1.
EXAMPLE_3: dict[str, Any] = {
    "players": [{"id": "A"}, {"id": "B"}, {"id": "C"}],
    "rounds": [
        [{"a": "A", "b": "B", "result": "a", "games": [2, 0, 0]}, {"a": "C", "bye": True}],
        [{"a": "B", "b": "C", "result": "a", "games": [2, 0, 0]}, {"a": "A", "bye": True}],
        [{"a": "C", "b": "A", "result": "a", "games": [2, 0, 0]}, {"a": "B", "bye": True}],
    ],
}


@pytest.mark.parametrize(
    "tiebreakers",
    [["omw", "gw", "ogw"], ["h2h", "omw", "gw", "ogw", "battle_diff"], ["omw", "h2h"]],
)
def test_three_way_full_tie_shares_rank_one(tiebreakers: list[str], tmp_path: Path) -> None:
    rows = api(EXAMPLE_3, tiebreakers)
    assert [(r.rank, r.player_id, r.points, r.record) for r in rows] == [
        (1, "A", 6, "2-1-0"), (1, "B", 6, "2-1-0"), (1, "C", 6, "2-1-0"),
    ]  # fmt: skip
    for r in rows:
        assert r.match_win_pct == approx(F(2, 3))
        assert r.game_win_pct == approx(F(2, 3))  # 4-2 in games, the bye 2-0
        assert r.opponents_match_win_pct == approx(F(2, 3))
        assert r.opponents_game_win_pct == approx(F(2, 3))
        assert len(r.opponents) == 2
    code, out, _ = cli(tmp_path, "standings", {**EXAMPLE_3, "tiebreakers": tiebreakers})
    assert code == 0 and [r["rank"] for r in out["standings"]] == [1, 1, 1]


def test_shared_rank_then_skips() -> None:
    """Two players tied on everything chosen share a rank."""
    state = {
        "players": [{"id": x} for x in "ABCD"],
        "rounds": [
            [
                {"a": "A", "b": "B", "result": "a", "games": [2, 0, 0]},
                {"a": "C", "b": "D", "result": "a", "games": [2, 0, 0]},
            ],
            [
                {"a": "A", "b": "C", "result": "a", "games": [2, 0, 0]},
                {"a": "B", "b": "D", "result": "draw", "games": [1, 1, 0]},
            ],
        ],
    }
    # A 6, C 3, B 1, D 1. B and D drew each other, so head-to-head alone leaves them tied:
    # ranks 1, 2, 3, 3.
    rows = api(state, ["h2h"])
    # with only head-to-head: B and D drew, tie on everything chosen: ranks 1, 2, 3, 3
    assert [(r.rank, r.player_id) for r in rows] == [(1, "A"), (2, "C"), (3, "B"), (3, "D")]


# -- Example 4: the floor on the player's own game-win % (MTR Appendix C) ----------------------------
# R1: P beats R 2-0, Q beats S 2-1;  R2: P beats S 2-0, Q beats R 2-0.
# R: 0-4 in games, GW 0 -> .33; S: 1-4, GW 3/15 = 1/5 -> .33: a tie on GW.
# OGW R = (P 1 + Q 12/15) / 2 = 9/10 = OGW S. OMW R = (1 + 1)/2 = 1 = OMW S: a full tie.
EXAMPLE_4: dict[str, Any] = {
    "players": [{"id": x} for x in "PQRS"],
    "rounds": [
        [
            {"a": "P", "b": "R", "result": "a", "games": [2, 0, 0]},
            {"a": "Q", "b": "S", "result": "a", "games": [2, 1, 0]},
        ],
        [
            {"a": "P", "b": "S", "result": "a", "games": [2, 0, 0]},
            {"a": "Q", "b": "R", "result": "a", "games": [2, 0, 0]},
        ],
    ],
}


def test_own_game_win_pct_is_floored_as_in_the_mtr(tmp_path: Path) -> None:
    rows = api(EXAMPLE_4, ["gw", "ogw", "omw"])
    assert [(r.rank, r.player_id) for r in rows] == [(1, "P"), (2, "Q"), (3, "R"), (3, "S")]
    gw = {r.player_id: r.game_win_pct for r in rows}
    assert gw == {"P": approx(F(1)), "Q": approx(F(4, 5)), "R": approx(FLOOR),
                  "S": approx(FLOOR)}  # fmt: skip
    assert rows[2].opponents_game_win_pct == approx(F(9, 10))
    code, out, _ = cli(tmp_path, "standings", {**EXAMPLE_4, "tiebreakers": ["gw", "ogw"]})
    assert code == 0
    assert [(r["rank"], r["id"], r["tiebreakers"]["gw"]) for r in out["standings"]] == [
        (1, "P", 1.0), (2, "Q", 0.8), (3, "R", 0.33), (3, "S", 0.33),
    ]  # fmt: skip


def test_drawn_games_count_a_third() -> None:
    """A 1-1-1 draw: 3 + 1 = 4 game points of 9: GW 4/9 for both (MTR: a drawn game is 1 of 3)."""
    rows = compute_standings(
        [Player("x"), Player("y")], [[MatchRecord("x", "y", "draw", (1, 1, 1))]], Scoring()
    )
    assert [r.game_win_pct for r in rows] == [approx(F(4, 9)), approx(F(4, 9))]
    assert [r.points for r in rows] == [1, 1]
    assert [r.match_win_pct for r in rows] == [approx(F(1, 3)), approx(F(1, 3))]


def test_a_bye_is_a_two_nil_match_win_for_the_player_only() -> None:
    rows = {r.player_id: r for r in api(EXAMPLE_1)}
    f = rows["F"]
    assert f.points == 3 and f.wins == 1 and f.games == (3, 4, 0)
    assert len(f.opponents) == 2  # the bye is not an opponent


# -- pair: the CLI contract -----------------------------------------------------------------------
def test_pair_contract_after_example_1(tmp_path: Path) -> None:
    code, out, err = cli(tmp_path, "pair", EXAMPLE_1)
    assert (code, err) == (0, None)
    assert set(out) == {"round", "pairings", "bye", "bye_reason", "assigned_byes", "stats"}
    assert out["assigned_byes"] == []
    assert out["round"] == 4
    paired = [x for p in out["pairings"] for x in (p["a"], p["b"])]
    # E dropped: never paired; six active players: no bye
    assert sorted(paired) == ["A", "B", "C", "D", "F", "G"] and out["bye"] is None
    for p in out["pairings"]:
        assert set(p) == {"table", "a", "b", "reason"}
    assert [p["table"] for p in out["pairings"]] == [1, 2, 3]
    assert out["stats"]["rematches"] == 0
    # a is the higher ranked of each pair; tables from the top of the standings
    rank = {x: i for i, x in enumerate(ORDER_1)}
    assert all(rank[p["a"]] < rank[p["b"]] for p in out["pairings"])
    assert [rank[p["a"]] for p in out["pairings"]] == sorted(rank[p["a"]] for p in out["pairings"])
    again = cli(tmp_path, "pair", EXAMPLE_1)
    assert again[1] == out  # same input and seed, same pairings


def test_pair_fixed_tables_and_the_rest_from_the_top(tmp_path: Path) -> None:
    state = {**EXAMPLE_1, "players": [
        {**p, "fixed_table": 1} if p["id"] == "G" else p for p in EXAMPLE_1["players"]
    ]}  # fmt: skip
    code, out, _ = cli(tmp_path, "pair", state)
    assert code == 0
    tables = {t["table"]: (t["a"], t["b"]) for t in out["pairings"]}
    assert "G" in tables[1]
    rank = {x: i for i, x in enumerate(ORDER_1)}
    rest = sorted((t for t in out["pairings"] if "G" not in (t["a"], t["b"])),
                  key=lambda t: rank[t["a"]])  # fmt: skip
    assert [t["table"] for t in rest] == [2, 3]


def test_pair_odd_field_bye_to_lowest_without_one(tmp_path: Path) -> None:
    # Example 1 with E back in: seven active players. F had the round-2 bye, G is last.
    state = {**EXAMPLE_1, "players": [{"id": p["id"], **({"late_entry_round": 2} if p["id"] == "G"
                                       else {})} for p in EXAMPLE_1["players"]]}  # fmt: skip
    code, out, _ = cli(tmp_path, "pair", state)
    assert code == 0 and out["bye"] == "G" and out["stats"]["second_byes"] == 0
    assert out["bye_reason"] == "bye: lowest ranked without a bye"
    result = pair_round(*_players_rounds(state), seed=0)
    assert result.bye == "G"


def _players_rounds(state: dict[str, Any]) -> tuple[Any, Any]:
    parsed = parse_state(state)
    return parsed.players, parsed.rounds


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"players": "x"}, "players"),
        ({"players": [{"id": ""}]}, "players[0].id"),
        ({"players": [{"id": "A"}, {"id": "A"}]}, "players[1].id"),
        ({"players": [{"id": "A", "dropped": "yes"}]}, "players[0].dropped"),
        ({"players": [{"id": "A", "fixed_table": 0}]}, "players[0].fixed_table"),
        ({"players": [{"id": "A", "late_entry_round": 0}]}, "players[0].late_entry_round"),
        ({"rounds": [[{"a": "A", "b": "Z", "result": "a"}]]}, "rounds[0][0].b"),
        ({"rounds": [[{"a": "A", "b": "B", "result": "win"}]]}, "rounds[0][0].result"),
        (
            {"rounds": [[{"a": "A", "b": "B", "result": "a", "games": [0, 2, 0]}]]},
            "rounds[0][0].games",
        ),
        (
            {"rounds": [[{"a": "A", "b": "B", "result": "draw", "games": [2, 1, 0]}]]},
            "rounds[0][0].games",
        ),
        (
            {"rounds": [[{"a": "A", "b": "B", "result": "a"}, {"a": "A", "bye": True}]]},
            "rounds[0][1].a",
        ),
        ({"rounds": [[{"a": "G", "b": "B", "result": "a"}]]}, "rounds[0][0].a"),
        ({"tiebreakers": ["omw", "sos"]}, "tiebreakers[1]"),
        ({"tiebreakers": ["omw", "omw"]}, "tiebreakers[1]"),
        ({"scoring": {"win": "3"}}, "scoring.win"),
        ({"scoring": {"bonus": 1}}, "scoring.bonus"),
        ({"scoring": []}, "scoring"),
        ({"seed": 1.5}, "seed"),
    ],
)
def test_bad_input_exits_2_naming_the_field(
    patch: dict[str, Any], field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = {**EXAMPLE_1, **patch}
    for command in ("pair", "standings"):
        path = tmp_path / "state.json"
        path.write_text(json.dumps(state))
        assert main([command, str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert json.loads(err)["field"] == field


def test_missing_players_names_the_field(tmp_path: Path) -> None:
    code, out, err = cli(tmp_path, "pair", {"rounds": []})
    assert code == 2 and out is None and err["field"] == "players"


def test_bad_input_on_the_real_command_line(tmp_path: Path) -> None:
    code, out, err = cli(tmp_path, "standings", {**EXAMPLE_1, "seed": [1]})
    assert code == 2 and out is None and err["field"] == "seed"


# -- top cut --------------------------------------------------------------------------------------
def test_top_eight_bracket() -> None:
    ids = [f"s{k}" for k in range(1, 9)]
    first = seed_bracket(ids, 8)
    assert [(m.table, m.seed_a, m.seed_b) for m in first] == [
        (1, 1, 8), (2, 4, 5), (3, 2, 7), (4, 3, 6),
    ]  # fmt: skip
    semis = next_bracket_round(first, ["s8", "s4", "s2", "s6"])
    assert [(m.a, m.b) for m in semis] == [("s4", "s8"), ("s2", "s6")]
    final = next_bracket_round(semis, ["s8", "s2"])
    assert [(m.a, m.b) for m in final] == [("s2", "s8")]
