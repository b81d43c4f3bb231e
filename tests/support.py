"""Helpers for tests that need something outside the project: services, shared data, a browser.

Locally a missing service or ../shared skips such a test with the reason; in CI
(REQUIRE_SERVICES=1, where everything is present) it fails, so nothing can pass by skipping.
"""

from __future__ import annotations

import os
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
