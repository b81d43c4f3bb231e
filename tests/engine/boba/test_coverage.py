"""``python -m engine.boba coverage``: which real Play cards the engine runs by itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.boba import coverage as cov
from engine.boba.__main__ import main
from tests.engine.boba.helpers import PLAYS_JSON
from tests.support import missing_shared_data

REPO = Path(__file__).resolve().parents[3]

# Ghost Dog's encoding may hold a judge step; a name no library knows is unknown.
SAMPLE = [
    {"name": "Front Run", "release": "A"},
    {"name": "Victory Dinner", "release": "A"},
    {"name": "Transfer Portal - htd", "release": "HTD"},
    {"name": "Not A Real Play", "release": "HTD"},
    {"name": "Scare Tactics", "release": "G"},
]


@pytest.fixture
def plays_file(tmp_path: Path) -> Path:
    path = tmp_path / "plays.json"
    path.write_text(json.dumps(SAMPLE), encoding="utf-8")
    return path


def test_classify_executable_unknown_and_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    assert cov.classify("Front Run") == cov.EXECUTABLE
    assert cov.classify("front run") == cov.EXECUTABLE
    assert cov.classify("Transfer Portal - htd") == cov.EXECUTABLE  # through its base
    assert cov.classify("Not A Real Play") == cov.UNKNOWN
    judged = cov.lookup_play("Front Run")
    assert judged is not None
    step = {"if": {"honors": "own"}, "then": [{"judge": "something"}]}
    monkeypatch.setattr(cov, "lookup_play", lambda name: judged.__class__(name, name, 1, (step,)))
    assert cov.classify("Anything") == cov.JUDGE


def test_counts_per_release_and_in_total(plays_file: Path) -> None:
    c = cov.coverage(cov.load_plays(plays_file))
    assert c.releases == ("A", "HTD", "G")
    assert c.counts("A") == {"cards": 2, "executable": 2, "judge": 0, "unknown": 0}
    assert c.counts("HTD") == {"cards": 2, "executable": 1, "judge": 0, "unknown": 1}
    assert c.counts() == {"cards": 5, "executable": 4, "judge": 0, "unknown": 1}
    assert c.names(cov.UNKNOWN) == ["Not A Real Play"]


def test_text_lists_unknown_cards_and_ends_with_the_count(
    plays_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coverage", str(plays_file)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == "executable 4 of 5"
    assert "Release HTD: 2 cards, 1 executable, 0 need a judge step, 1 unknown" in out
    assert "  Not A Real Play (HTD)" in out
    i = out.index("Need a judge step (0):")
    assert out[i + 1] == "  none"


def test_json_flag(plays_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", str(plays_file), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == {"cards": 5, "executable": 4, "judge": 0, "unknown": 1}
    assert out["releases"]["G"]["executable"] == 1
    assert out["unknown"] == [{"name": "Not A Real Play", "release": "HTD"}]
    assert (out["executable_count"], out["card_count"]) == (4, 5)


def test_baseline_regression_exits_1_naming_the_card(
    plays_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(
        json.dumps({"executable": ["Front Run", "Not A Real Play", "Gone From The List"]}),
        encoding="utf-8",
    )
    assert main(["coverage", str(plays_file), "--baseline", str(baseline)]) == 1
    out = capsys.readouterr().out
    assert "Not A Real Play (now: unknown)" in out
    assert "Gone From The List" in out  # named as absent, not a failure by itself
    assert out.strip().splitlines()[-1] == "executable 4 of 5"
    assert main(["coverage", str(plays_file), "--baseline", str(baseline), "--json"]) == 1
    got = json.loads(capsys.readouterr().out)["baseline"]
    assert got["regressions"] == [{"name": "Not A Real Play", "status": "unknown"}]


def test_a_card_becoming_executable_passes_with_a_hint(
    plays_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(["Front Run"]), encoding="utf-8")
    assert main(["coverage", str(plays_file), "--baseline", str(baseline)]) == 0
    out = capsys.readouterr().out
    assert "not in the baseline" in out and "--write-baseline" in out


def test_write_baseline_then_check_against_it(
    plays_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "baseline.json"
    assert main(["coverage", str(plays_file), "--write-baseline", str(baseline)]) == 0
    assert cov.load_baseline(baseline) == [
        "Front Run",
        "Scare Tactics",
        "Transfer Portal - htd",
        "Victory Dinner",
    ]
    capsys.readouterr()
    assert main(["coverage", str(plays_file), "--baseline", str(baseline)]) == 0


def test_unreadable_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", str(tmp_path / "missing.json")]) == 2
    assert "Error" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('[{"release": "A"}]', encoding="utf-8")
    assert main(["coverage", str(bad), "--json"]) == 2
    assert "plays[0]" in json.loads(capsys.readouterr().out)["error"]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SAMPLE), encoding="utf-8")
    bad.write_text('{"executable": "Front Run"}', encoding="utf-8")
    assert main(["coverage", str(good), "--baseline", str(bad)]) == 2


# ------------------------------------------------------------------ the real card data


@pytest.fixture
def real_plays_path() -> Path:
    if not PLAYS_JSON.exists():
        missing_shared_data(PLAYS_JSON)
    return PLAYS_JSON


def test_real_data_every_card_is_known_and_the_baseline_holds(real_plays_path: Path) -> None:
    c = cov.coverage(cov.load_plays(real_plays_path))
    total = c.counts()
    assert total["cards"] == len(json.loads(real_plays_path.read_text(encoding="utf-8")))
    assert total["unknown"] == 0
    assert total["judge"] <= 1
    check = cov.check_baseline(c, cov.load_baseline(cov.BASELINE_PATH))
    assert check.regressions == ()
    assert check.absent == ()


def test_real_data_cli_as_ci_runs_it(real_plays_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.boba",
            "coverage",
            str(real_plays_path),
            "--baseline",
            "engine/boba/coverage_baseline.json",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    count = len(json.loads(real_plays_path.read_text(encoding="utf-8")))
    assert last.startswith("executable ") and last.endswith(f" of {count}")
