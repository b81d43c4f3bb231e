"""Malformed records: exit 2 and the offending field; the CLI's exit codes and output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.boba import record as record_module
from engine.boba.__main__ import main
from engine.boba.record import load_record, parse_record
from engine.boba.replay import replay_text
from engine.boba.resolve import Resolver
from tests.engine.boba.helpers import act, make_record, passes

ROOT = Path(__file__).resolve().parents[3]


def _field(data: Any) -> tuple[int, dict[str, Any]]:
    r = replay_text(json.dumps(data) if not isinstance(data, str | bytes) else data)
    out = r.to_json()
    return r.exit_status, out["error"]


def _mutate(path: str, value: Any) -> dict[str, Any]:
    rec = make_record("playmaker", actions=passes())
    node: Any = rec
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    elif value is _DELETE:
        del node[last]
    else:
        node[last] = value
    return rec


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("mode", "blitz", "mode"),
        ("honors", "C", "honors"),
        ("format", "pgn", "format"),
        ("options", [], "options"),
        ("options.stop_at_four", "yes", "options.stop_at_four"),
        ("setup.A.battles", ["A1", "A2"], "setup.A.battles"),
        ("setup.A.battles.3", "nope", "setup.A.battles[3]"),
        ("setup.B.bench.0", "A1", "setup.B.bench[0]"),
        ("setup.A.hot_dogs", 11, "setup.A.hot_dogs"),
        ("setup.A.hot_dogs", "10", "setup.A.hot_dogs"),
        ("setup.B.playbook_size", -1, "setup.B.playbook_size"),
        ("setup.B.hand", "p1", "setup.B.hand"),
        ("cards.A1.power", "high", "cards.A1.power"),
        ("cards.A1.weapon", "Wood", "cards.A1.weapon"),
        ("cards.A1.kind", "token", "cards.A1.kind"),
        ("actions.0.player", "C", "actions[0].player"),
        ("actions.0.do", "attack", "actions[0].do"),
        ("actions", {}, "actions"),
        ("cards", [], "cards"),
    ],
)
def test_malformed_record_names_the_field(path: str, value: Any, field: str) -> None:
    status, err = _field(_mutate(path, value))
    assert status == 2
    assert err["field"] == field
    assert err["action"] is None
    assert err["code"] == "malformed_record"


def test_missing_optional_fields_take_their_defaults() -> None:
    rec = make_record("playmaker", actions=passes())
    for key in ("options", "players", "direction", "format"):
        del rec[key]
    del rec["setup"]["A"]["playbook_size"]
    del rec["setup"]["A"]["hot_dogs"]
    del rec["actions"][0]["player"]
    status, err = _field(rec)
    assert (status, err["field"]) == (2, "actions[0].player")
    rec["actions"][0]["player"] = "A"
    record = parse_record(rec)
    assert record.setup["A"].playbook_size == 30
    assert record.setup["A"].hot_dogs == 10
    assert record.options.stop_at_four is True


def test_unknown_card_id_in_an_action() -> None:
    rec = make_record("substitution", actions=[act("A", "substitute", "ghost", draw=None)])
    status, err = _field(rec)
    assert (status, err["field"]) == (2, "actions[0].card")


def test_bad_json_is_exit_2() -> None:
    status, err = _field("{not json")
    assert (status, err["field"]) == (2, "record")


def test_deeply_nested_json_does_not_crash() -> None:
    status, err = _field("[" * 100000 + "]" * 100000)
    assert status == 2


def test_ten_megabyte_record_is_exit_2_before_reading_any_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rec = make_record("substitution", actions=passes() * 200000)
    text = json.dumps(rec)
    assert len(text) > 10_000_000
    parsed: list[str] = []
    read_action = record_module.action_from_json

    def counted(raw: Any, path: str, *args: Any) -> Any:
        parsed.append(path)
        return read_action(raw, path, *args)

    monkeypatch.setattr(record_module, "action_from_json", counted)
    status, err = _field(text)
    assert (status, err["field"]) == (2, "actions")
    assert f"more than {record_module.MAX_ACTIONS} actions" in err["message"]
    assert parsed == []  # refused on the count, not after reading 400,000 actions


def test_huge_amounts_do_not_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = make_record("playmaker", playbook_size=0, actions=[*passes()])
    rec["cards"]["p1"] = {
        "kind": "play",
        "name": "Huge",
        "cost": 0,
        "effect": [
            {"draw": 10**9, "deck": "plays"},
            {"draw": 10**9, "deck": "heroes"},
            {"discard": 10**9, "from": "hero_deck_top"},
            {"reveal_top": 10**9, "deck": "heroes"},
            {"repeat": 10**9, "do": [{"power": 1}]},
            {"flip": 10**9},
        ],
    }
    rec["setup"]["A"]["hand"] = ["p1"]
    rec["actions"].append(act("A", "run", "p1"))
    power_changes: list[Any] = []
    modify = Resolver.modify

    def counted(self: Resolver, *args: Any, **kwargs: Any) -> Any:
        power_changes.append(args)
        return modify(self, *args, **kwargs)

    monkeypatch.setattr(Resolver, "modify", counted)
    status, err = _field(rec)
    assert (status, err["code"]) == (1, "missing_random")
    # Every huge amount is bounded: the repeat of 10**9 runs its power step 50 times at most.
    assert 0 < len(power_changes) <= 50


def test_huge_string_names_its_field() -> None:
    rec = make_record("rookie")
    rec["cards"]["A1"]["name"] = "x" * 10_000_000
    status, err = _field(rec)
    assert (status, err["field"]) == (2, "cards.A1.name")


def test_record_json_round_trip() -> None:
    rec = make_record("playmaker", actions=passes())
    parsed = parse_record(rec)
    again = load_record(json.dumps(parsed.to_json()))
    assert again.to_json() == parsed.to_json()


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(make_record("rookie", a=[200] * 7)))
    assert main(["replay", str(good), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "boba-replay/1" and out["legal"] is True
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(make_record("substitution", actions=[act("B", "pass")])))
    assert main(["replay", str(illegal), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["action"] == 0
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["replay", str(bad), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["field"] == "record"
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "Error" in capsys.readouterr().out


def test_cli_upto(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(make_record("substitution", actions=passes())))
    assert main(["replay", str(path), "--json", "--upto", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["next"]["player"] == "B"


def test_cli_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(make_record("substitution", actions=passes())))
    assert main(["replay", str(path), "--json", "--trace"]) == 0
    trace = json.loads(capsys.readouterr().out)["trace"]
    assert [t["action"] for t in trace] == [0, 1]
    assert trace[1]["state"]["battle"] == 2
    assert trace[1]["state"]["players"]["A"]["hot_dogs"] == 10


def test_cli_runs_as_a_module(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(make_record("rookie", a=[200] * 7)))
    proc = subprocess.run(
        [sys.executable, "-m", "engine.boba", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0
    assert "Result: A wins" in proc.stdout
