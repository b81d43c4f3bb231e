"""The rules engines stay pure Python: nothing under engine/ imports Django (AST scan)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("django", "rest_framework")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.append(str(node.args[0].value))
    return names


def test_engine_imports_no_django() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "engine/ has no Python files"
    offenders = [
        f"{path.relative_to(ENGINE.parent)}: {name}"
        for path in files
        for name in _imports(path)
        if name.split(".")[0] in FORBIDDEN
    ]
    assert offenders == []


def test_scan_catches_a_django_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom django.db import models\n", encoding="utf-8")
    assert "django.db" in _imports(bad)


PURE_MODULES = (
    "tournaments/swiss.py",
    "tournaments/standings.py",
    "tournaments/tiebreakers.py",
    "tournaments/topcut.py",
    "tournaments/status.py",
    "tournaments/cutcalc.py",
    "tournaments/timer.py",
    "tournaments/results.py",
    "tournaments/roster_csv.py",
    "accounts/names.py",
)


def test_pairing_standings_and_status_modules_import_no_django() -> None:
    root = ENGINE.parent
    offenders = [
        f"{module}: {name}"
        for module in PURE_MODULES
        for name in _imports(root / module)
        if name.split(".")[0] in FORBIDDEN
        or (
            name.split(".")[0] in {"tournaments", "decks", "matches", "accounts", "config"}
            and not name.startswith(
                (
                    "tournaments.swiss",
                    "tournaments.standings",
                    "tournaments.tiebreakers",
                    "tournaments.topcut",
                    "tournaments.status",
                    "tournaments.cutcalc",
                    "tournaments.timer",
                    "tournaments.results",
                )
            )
        )
    ]
    assert offenders == []


def test_purity_check_detects_a_django_import(tmp_path: Path) -> None:
    impure = tmp_path / "impure.py"
    impure.write_text("from django.db import models\n")
    assert "django.db" in _imports(impure)
