"""The rules engines stay pure Python: nothing under engine/ imports Django (AST scan)."""

from __future__ import annotations

from pathlib import Path

from tests.support import NOT_IN_PURE_CODE, imported_names

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_engine_imports_no_django() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "engine/ has no Python files"
    offenders = [
        f"{path.relative_to(ENGINE.parent)}: {name}"
        for path in files
        for name in imported_names(path)
        if name.split(".")[0] in NOT_IN_PURE_CODE
    ]
    assert offenders == []


def test_scan_catches_a_django_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom django.db import models\n", encoding="utf-8")
    assert "django.db" in imported_names(bad)


PURE_MODULES = (
    "tournaments/swiss.py",
    "tournaments/swiss_graph.py",
    "tournaments/standings.py",
    "tournaments/standings_types.py",
    "tournaments/standings_history.py",
    "tournaments/tiebreakers.py",
    "tournaments/teams.py",
    "tournaments/stages.py",
    "tournaments/placings.py",
    "tournaments/series.py",
    "tournaments/brackets.py",
    "tournaments/topcut.py",
    "tournaments/status.py",
    "tournaments/cutcalc.py",
    "tournaments/timer.py",
    "tournaments/results.py",
    "tournaments/roster_csv.py",
    "tournaments/lottery.py",
    "accounts/names.py",
    "metagame/rules.py",
    "metagame/clustering.py",
    "metagame/breakdown.py",
)


def test_pairing_standings_and_status_modules_import_no_django() -> None:
    root = ENGINE.parent
    offenders = [
        f"{module}: {name}"
        for module in PURE_MODULES
        for name in imported_names(root / module)
        if name.split(".")[0] in NOT_IN_PURE_CODE
        or (
            name.split(".")[0] in {"tournaments", "decks", "matches", "accounts", "config"}
            and not name.startswith(
                (
                    "tournaments.swiss",
                    "tournaments.standings",
                    "tournaments.standings_types",
                    "tournaments.standings_history",
                    "tournaments.tiebreakers",
                    "tournaments.topcut",
                    "tournaments.status",
                    "tournaments.cutcalc",
                    "tournaments.timer",
                    "tournaments.results",
                    "tournaments.stages",
                    "tournaments.brackets",
                    "tournaments.teams",
                )
            )
        )
    ]
    assert offenders == []


def test_purity_check_detects_a_django_import(tmp_path: Path) -> None:
    impure = tmp_path / "impure.py"
    impure.write_text("from django.db import models\n")
    assert "django.db" in imported_names(impure)
