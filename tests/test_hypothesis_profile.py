"""The hypothesis profile (tests/conftest.py): chosen by HYPOTHESIS_PROFILE, never a deadline."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def test_the_profile_named_by_the_environment_is_loaded_and_never_fails_on_time() -> None:
    profile = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
    assert settings.default.max_examples == profile.max_examples
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    assert settings.get_profile("ci").max_examples > settings.get_profile("dev").max_examples
