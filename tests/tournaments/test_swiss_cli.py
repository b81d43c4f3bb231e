"""The JSON command line: python -m tournaments.swiss {pair,standings} STATE.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.swiss_sim import simulate
from tournaments.swiss import main

ROOT = Path(__file__).resolve().parents[2]

STATE: dict[str, Any] = {
    "players": [
        {"id": "p1"},
        {"id": "p2", "dropped": False, "fixed_table": None},
        {"id": "p3"},
        {"id": "p4", "dropped": True},
        {"id": "p5", "fixed_table": 9},
    ],
    "rounds": [
        [
            {"a": "p1", "b": "p2", "result": "a", "games": [2, 1, 0]},
            {"a": "p3", "b": "p4", "result": "draw", "games": [1, 1, 1], "battles": [10, 10]},
            {"a": "p5", "bye": True},
        ]
    ],
    "scoring": {"win": 3, "draw": 1, "loss": 0},
    "seed": 7,
}


def run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, state: Any
) -> tuple[int, Any, Any]:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    code = main([command, str(path)])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else None, json.loads(err) if err else None


def test_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(tmp_path, capsys, "pair", STATE)
    assert code == 0
    assert out["round"] == 2
    assert out["bye"] is None
    pairs = {frozenset((p["a"], p["b"])): p for p in out["pairings"]}
    assert set(pairs) == {frozenset(("p1", "p5")), frozenset(("p2", "p3"))}
    assert pairs[frozenset(("p1", "p5"))] == {
        "table": 9,
        "a": pairs[frozenset(("p1", "p5"))]["a"],
        "b": pairs[frozenset(("p1", "p5"))]["b"],
        "reason": "same score group (3 pts)",
    }
    assert pairs[frozenset(("p2", "p3"))]["table"] == 1
    assert pairs[frozenset(("p2", "p3"))]["reason"] == "paired down from 1 to 0 pts"


def test_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(tmp_path, capsys, "standings", STATE)
    assert code == 0
    rows = out["standings"]
    assert [(r["rank"], r["id"], r["points"]) for r in rows] == [
        (1, "p5", 3),  # OMW both at the floor (p2 0%, p5 no opponent), GW 100% v 67%
        (2, "p1", 3),
        (3, "p3", 1),
        (3, "p4", 1),
        (5, "p2", 0),
    ]
    p5 = rows[0]
    assert p5["tiebreakers"] == {"omw": 0.33, "gw": 1.0, "ogw": 0.33}
    assert p5["bye_rounds"] == [1] and p5["opponents"] == []
    assert rows[1]["opponents"] == [
        {
            "round": 1,
            "opponent": "p2",
            "result": "win",
            "games": [2, 1, 0],
            "opponent_match_win_pct": 0.33,
            "opponent_game_win_pct": 0.333333,
        }
    ]
    assert rows[3]["dropped"] is True


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda s: s.pop("players"), "players"),
        (lambda s: s["players"].append({"id": "p1"}), "players[5].id"),
        (lambda s: s["players"][0].update(dropped="yes"), "players[0].dropped"),
        (lambda s: s["rounds"][0][0].update(result="win"), "rounds[0][0].result"),
        (lambda s: s["rounds"][0][0].update(games=[2, 1]), "rounds[0][0].games"),
        (lambda s: s["rounds"][0][0].update(games=[2, -1, 0]), "rounds[0][0].games[1]"),
        (lambda s: s["rounds"][0][0].update(b="nobody"), "rounds[0][0].b"),
        (lambda s: s["rounds"][0][0].update(b="p1"), "rounds[0][0].b"),
        (lambda s: s["rounds"][0].append({"a": "p1", "bye": True}), "rounds[0][3].a"),
        (lambda s: s["scoring"].update(win="three"), "scoring.win"),
        (lambda s: s["scoring"].update(bonus=1), "scoring.bonus"),
        (lambda s: s.update(seed=1.5), "seed"),
        (lambda s: s.update(tiebreakers=["omw", "luck"]), "tiebreakers[1]"),
        (lambda s: s["players"][0].update(bye_rounds=3), "players[0].bye_rounds"),
        (lambda s: s["players"][0].update(bye_rounds=[2, 0]), "players[0].bye_rounds[1]"),
        (lambda s: s["players"][0].update(bye_rounds=[2, 2]), "players[0].bye_rounds[1]"),
        (lambda s: s["players"][0].update(late_entry_losses=1), "players[0].late_entry_losses"),
    ],
)
def test_bad_input_exits_2_with_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mutate: Any, field: str
) -> None:
    state = json.loads(json.dumps(STATE))
    mutate(state)
    for command in ("pair", "standings"):
        code, out, err = run(tmp_path, capsys, command, state)
        assert code == 2 and out is None
        assert err["field"] == field


def test_pre_assigned_byes_and_late_entry_losses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = json.loads(json.dumps(STATE))
    state["players"][0]["bye_rounds"] = [2]
    state["players"].append({"id": "p6", "late_entry_round": 2, "late_entry_losses": True})
    state["players"].append({"id": "p7", "late_entry_round": 2})
    code, out, _ = run(tmp_path, capsys, "pair", state)
    assert code == 0
    assert out["assigned_byes"] == ["p1"]
    paired = [x for p in out["pairings"] for x in (p["a"], p["b"])]
    assert sorted([*paired, out["bye"]]) == ["p2", "p3", "p5", "p6", "p7"]
    # p6 (a lost round 1) and p7 (joining at zero) tie at the bottom, below p2 on OMW%
    assert out["bye"] in ("p6", "p7") and out["bye_reason"] == "bye: lowest ranked without a bye"
    code, out, _ = run(tmp_path, capsys, "standings", state)
    p6 = next(r for r in out["standings"] if r["id"] == "p6")
    assert (p6["record"], p6["games"], p6["late_entry_loss_rounds"]) == ("0-1-0", [0, 2, 0], [1])
    assert p6["opponents"] == [] and p6["bye_rounds"] == []


def test_not_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "state.json"
    path.write_text("{")
    assert main(["pair", str(path)]) == 2
    assert json.loads(capsys.readouterr().err)["field"] == "$"


def test_same_output_whatever_the_hash_seed(tmp_path: Path) -> None:
    players, rounds = simulate(240, 5, seed=9)
    state = {
        "players": [{"id": p.id, "dropped": p.dropped} for p in players],
        "rounds": [
            [
                {"a": m.a, "bye": True}
                if m.b is None
                else {"a": m.a, "b": m.b, "result": m.result, "games": list(m.games)}
                for m in rnd
            ]
            for rnd in rounds
        ],
        "seed": 9,
    }
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-m", "tournaments.swiss", "pair", str(path)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["stats"]["rematches"] == 0
