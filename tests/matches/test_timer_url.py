"""The round timer's API URL, which every page with a timer writes, is kept per process for
what `reverse` answers with (matches.views.common._timer_url): the same URL as `reverse`, under
whatever script prefix is in force."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import get_script_prefix, reverse, set_script_prefix

from matches.views.common import _timer_url


@pytest.fixture
def prefix_restored() -> Iterator[None]:
    before = get_script_prefix()
    yield
    set_script_prefix(before)


def test_the_timer_url_is_reverses_under_each_script_prefix(prefix_restored: None) -> None:
    for prefix in ("/", "/battledesk/", "/"):
        set_script_prefix(prefix)
        for slug, number in (("open-2026", 1), ("open-2026", 12), ("other", 1)):
            expected = reverse("api-round-timer", kwargs={"slug": slug, "number": number})
            assert _timer_url(slug, number) == expected
            assert expected.startswith(f"{prefix}api/events/{slug}/")
