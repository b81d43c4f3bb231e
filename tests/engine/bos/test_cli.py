"""The BOS replay CLI: exit codes 0/1/2 and the --json shape (BoBA's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bos.__main__ import main

from .factory import OPENING, attack, record, start, summon


def _run(
    tmp_path: Path, data: object | str, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status = main(["replay", str(path), *flags])
    return status, capsys.readouterr().out


def test_cli_legal_record_exits_0_with_json_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _run(tmp_path, record(OPENING), capsys, "--json")
    data = json.loads(out)
    assert status == 0
    assert set(data) == {
        "format",
        "legal",
        "turns",
        "life",
        "vim",
        "ether",
        "going_first",  # added with the bidding game (null: the record has no bids)
        "set_by_hand",
        "result",
        "outcome",  # every game's outcome (engine/game_state.py): null while under way
        "error",
        "next",
    }
    assert data["going_first"] is None and data["set_by_hand"] == [] and data["outcome"] is None
    assert data["legal"] is True and data["error"] is None and data["result"] is None
    assert data["next"] == {
        "player": "A",
        "expects": ["summon", "summon_boss", "attack", "cast", "abilities", "end_turn"],
    }
    assert [t["player"] for t in data["turns"]] == ["A", "B", "A"]
    assert data["turns"][0]["at_end"]["A"] == {"life": 30, "vim": 2, "ether": 0}


def test_cli_illegal_action_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = record([start("A"), summon("A", 1, "sprite"), attack("A", 1, {"player": "B"})])
    status, out = _run(tmp_path, bad, capsys, "--json")
    err = json.loads(out)["error"]
    assert status == 1
    assert err == {
        "action": 2,
        "code": "opponent_not_started",
        "rule": "BOS: Player Attack",
        "message": err["message"],
    }  # like BoBA's: no `field` for an illegal action that names no part of the record
    status, text = _run(tmp_path, bad, capsys)
    assert status == 1 and "Error at action 2" in text and "BOS: Player Attack" in text


def test_cli_malformed_record_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _run(tmp_path, "{not json", capsys, "--json")
    assert status == 2 and json.loads(out)["error"]["field"] == "record"
    bad = record([{"type": "fly", "player": "A"}])
    status, out = _run(tmp_path, bad, capsys, "--json")
    assert status == 2 and json.loads(out)["error"]["field"] == "actions[0].type"
    assert main(["replay", str(tmp_path / "missing.json")]) == 2


def test_cli_text_output_names_turns_and_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _run(tmp_path, record(OPENING), capsys)
    assert status == 0
    assert "Turn 3 (A's turn 2)" in out and out.strip().endswith("end_turn.")
