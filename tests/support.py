"""Helpers for tests that need something outside the project: services, shared data, a browser.

Locally a missing service or ../shared skips such a test with the reason; in CI
(REQUIRE_SERVICES=1, where everything is present) it fails, so nothing can pass by skipping.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"
# A phone-sized browser context (Playwright's new_context arguments) for the browser tests.
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 3,
}


def missing_service(reason: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"{reason} (REQUIRE_SERVICES=1, so this fails instead of skipping)")
    pytest.skip(reason)  # only without REQUIRE_SERVICES: see the module docstring


def missing_shared_data(path: Path) -> None:
    missing_service(f"real card data not found at {path} (../shared is absent)")


def fresh_manage(database: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """`manage.py` as an organiser runs it: a fresh process on its own SQLite database (empty
    until the test runs `migrate`), so commands are tested as shipped, not in-process."""
    env = {"DATABASE_URL": f"sqlite:///{database}", "PATH": "/usr/bin:/bin"}

    def manage(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    return manage
