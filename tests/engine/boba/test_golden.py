"""Golden records: hand-written games with their expected replay JSON, diffed.

Each ``golden/NAME.json`` is a record; ``golden/NAME.replay.json`` is what
``python -m engine.boba replay NAME.json --json`` must print, plus its exit status under
``"exit"``. After an intended change, regenerate with ``BOBA_GOLDEN_UPDATE=1`` and review the
diff by hand: the expected files were checked against the rules when written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.boba.replay import replay_text

GOLDEN = Path(__file__).with_name("golden")
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".replay.json"))


def test_there_are_golden_records() -> None:
    assert len(RECORDS) >= 5


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record(path: Path) -> None:
    result = replay_text(path.read_bytes())
    got = {"exit": result.exit_status, **result.to_json()}
    expected_path = path.with_name(path.stem + ".replay.json")
    if os.environ.get("BOBA_GOLDEN_UPDATE") == "1":
        expected_path.write_text(json.dumps(got, indent=2) + "\n", encoding="utf-8")
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    assert got == expected
