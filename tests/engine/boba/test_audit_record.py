"""Rules audit, the record and the CLI: hand-worked scenarios, one per rule, expectations worked
out from the documents (../shared/spec/boba-game-record.md, ../shared/rules: CR, Summary, README
product decisions) before the engine was run. Malformed records name their field; the CLI's JSON
field names and exit codes.

Helper lineups (tests/engine/boba/helpers.py): battle heroes A1..A7 / B1..B7 (Fire unless a
(power, weapon) pair is given), bench AB1..AB4 / BB1..BB4 (200, Ice), spare deck heroes
AD1..AD9 / BD1..BD9 (100 + 10 * (n - 1), Steel).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.engine.boba.helpers import act, make_record, passes, run_json

ROOT = Path(__file__).resolve().parents[3]
SUB = "substitution"
PM = "playmaker"


# ---------------------------------------------------------------------------- malformed


def _pm_record() -> dict[str, Any]:
    return make_record(PM, plays={"qa1": {"name": "Buff Up 15"}}, hands={"A": ["qa1"]})


def _set(rec: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    parts = path.split(".")
    obj = rec
    for p in parts[:-1]:
        obj = obj[p]
    if value is _DELETE:
        del obj[parts[-1]]
    else:
        obj[parts[-1]] = value
    return rec


_DELETE = object()


@pytest.mark.parametrize(
    ("mode", "path", "value", "field"),
    [
        (PM, "honors", _DELETE, "honors"),
        (PM, "mode", _DELETE, "mode"),
        (PM, "cards", _DELETE, "cards"),
        (PM, "setup", _DELETE, "setup"),
        (PM, "setup.B", _DELETE, "setup.B"),
        (PM, "setup.A.battles", _DELETE, "setup.A.battles"),
        (PM, "setup.A.bench", _DELETE, "setup.A.bench"),
        (PM, "setup.A.hand", _DELETE, "setup.A.hand"),
        (PM, "setup.A.hot_dogs", "ten", "setup.A.hot_dogs"),
        (PM, "setup.A.playbook_size", "26", "setup.A.playbook_size"),
        (PM, "options", {"stop_at_four": "yes"}, "options.stop_at_four"),
        (PM, "setup.A.battles", ["A1", "A2", "A3", "A4", "A5", "A6"], "setup.A.battles"),
        (PM, "setup.B.bench", ["BB1", "BB2", "BB3"], "setup.B.bench"),
        (PM, "setup.A.battles", ["A1", "A2", "Z9", "A4", "A5", "A6", "A7"], "setup.A.battles[2]"),
        (PM, "setup.A.bench", ["AB1", "AB2", "A3", "AB4"], "setup.A.bench[2]"),
        (PM, "setup.B.bench", ["BB1", "AB2", "BB3", "BB4"], "setup.B.bench[1]"),
        (PM, "setup.A.hand", ["A7"], "setup.A.hand[0]"),
        ("rookie", "setup.A.bench", ["AB1", "AB2", "AB3", "AB4"], "setup.A.bench"),
        ("rookie", "setup.B.hot_dogs", 10, "setup.B.hot_dogs"),
        ("rookie", "setup.A.hand", [], "setup.A.hand"),
        (SUB, "setup.A.hand", [], "setup.A.hand"),
        (SUB, "setup.B.playbook_size", 26, "setup.B.playbook_size"),
    ],
)
def test_spec_malformed_record_names_the_field(
    mode: str, path: str, value: Any, field: str
) -> None:
    rec = _pm_record() if mode == PM else make_record(mode)
    out = run_json(_set(rec, path, value))
    assert out["legal"] is False
    assert out["battles"] == []
    assert out["result"] is None
    err = out["error"]
    assert err["code"] == "malformed_record"
    assert err["action"] is None
    assert err["field"] == field, err


def test_spec_malformed_unknown_card_in_an_action() -> None:
    rec = make_record(SUB, actions=[act("A", "pass"), act("B", "substitute", "BB1", draw="ZZ")])
    err = run_json(rec)["error"]
    assert (err["action"], err["field"], err["code"]) == (
        None,
        "actions[1].draw",
        "malformed_record",
    )
    rec = make_record(SUB, actions=[act("A", "substitute", "nope", draw=None)])
    assert run_json(rec)["error"]["field"] == "actions[0].card"


# ---------------------------------------------------------------------------- CLI contract


def _cli(tmp_path: Path, text: str) -> tuple[int, dict[str, Any]]:
    f = tmp_path / "record.json"
    f.write_text(text)
    proc = subprocess.run(
        [sys.executable, "-m", "engine.boba", "replay", str(f), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, json.loads(proc.stdout)


def test_spec_cli_json_field_names_and_exit_codes(tmp_path: Path) -> None:
    plays = {"qa1": {"name": "Buff Up 15"}}
    actions = [*passes("A"), act("A", "run", "qa1"), *passes("A")]
    rec = make_record(
        PM,
        a=[140, 100, 100, 100, 100, 100, 100],
        plays=plays,
        hands={"A": ["qa1"]},
        actions=actions,
    )
    code, out = _cli(tmp_path, json.dumps(rec))
    assert code == 0
    assert set(out) == {
        "format",
        "legal",
        "battles",
        "trophies",
        "hot_dogs",
        "result",
        "error",
        "next",
        "rulings",  # added: the rulings on the cards run (docs/game-record.md)
    }
    assert out["format"] == "boba-replay/1"
    assert out["battles"] == [
        {
            "battle": 1,
            "heroes": {"A": "A1", "B": "B1"},
            "power": {"A": 155, "B": 100},
            "modifiers": {"A": [{"source": "qa1", "amount": 15}], "B": []},
            "winner": "A",
            "decided_by": "power",
            "honors_next": "A",
        }
    ]
    assert out["trophies"] == {"A": 1, "B": 0}
    assert out["hot_dogs"] == {"A": 8, "B": 10}
    assert out["result"] is None and out["error"] is None
    assert out["next"] == {"player": "A", "expects": ["draw"]}

    # finished game: result object
    code, out = _cli(tmp_path, json.dumps(make_record("rookie", a=[110] * 7)))
    assert code == 0
    assert out["result"] == {"winner": "A", "decided_after_battle": 4, "sudden_death": []}
    assert "next" not in out or out["next"] is None

    # illegal action: exit 1
    bad = make_record(SUB, actions=[act("B", "pass")])
    code, out = _cli(tmp_path, json.dumps(bad))
    assert code == 1
    assert out["legal"] is False and out["result"] is None
    assert {k: out["error"][k] for k in ("action", "code", "rule")} == {
        "action": 0,
        "code": "not_your_turn",
        "rule": "CR 4.2.2",
    }
    assert isinstance(out["error"]["message"], str)

    # malformed: exit 2
    code, out = _cli(tmp_path, "{not json")
    assert code == 2
    assert out["error"]["action"] is None and out["error"]["field"] == "record"
    assert out["legal"] is False and out["result"] is None
    broken = make_record("rookie")
    broken["setup"]["A"]["battles"] = broken["setup"]["A"]["battles"][:5]
    code, out = _cli(tmp_path, json.dumps(broken))
    assert code == 2
    assert out["error"]["field"] == "setup.A.battles"
