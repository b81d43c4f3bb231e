"""Every command the README names exists and answers: the README is true from a fresh clone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _table_commands(prefix: str) -> list[str]:
    return sorted(set(re.findall(r"^\| `" + re.escape(prefix) + r"([^`]+)`", README, re.M)))


def test_every_manage_py_command_in_the_readme_exists() -> None:
    from django.core.management import get_commands

    named = {c.split()[0] for c in _table_commands(".venv/bin/python manage.py ")}
    assert named >= {"import_cards", "validate_deck", "load_demo", "swiss_state", "celery_ping"}
    assert named - set(get_commands()) == set()


@pytest.mark.parametrize(
    "module", sorted({c.split()[0] for c in _table_commands(".venv/bin/python -m ")})
)
def test_every_python_module_in_the_readme_answers_help(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "usage" in result.stdout.lower()


def test_every_benchmark_in_the_readme_exists_and_make_bench_runs_it() -> None:
    makefile = (ROOT / "Makefile").read_text()
    benches = _table_commands("bench/")
    assert {"checkin.py", "judge_queue.py", "publish_spike.py"} <= set(benches)
    for bench in benches:
        assert (ROOT / "bench" / bench).is_file(), bench
        assert f"bench/{bench}" in makefile, bench


@pytest.mark.parametrize("bench", _table_commands("bench/"))
def test_every_benchmark_in_the_readme_answers_help(bench: str) -> None:
    """Each script parses its options and imports what it shares (bench/harness.py) without a
    database: a change to the harness that breaks one of them fails here, not in a long run."""
    result = subprocess.run(
        [sys.executable, f"bench/{bench}", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "usage" in result.stdout.lower()


def test_the_publish_spike_benchmark_offers_the_large_event_and_a_short_run() -> None:
    result = subprocess.run(
        [sys.executable, "bench/publish_spike.py", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    for option in ("--players", "--spread", "--poll-minutes", "--rounds-before", "--profile"):
        assert option in result.stdout, option


def test_the_make_targets_the_readme_names_exist() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for target in set(re.findall(r"`make (\w+)`", README)):
        assert re.search(rf"^{target}:", makefile, re.M), target
