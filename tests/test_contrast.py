"""Text colours in the stylesheet meet WCAG AA (4.5:1) on the backgrounds they are used on."""

from __future__ import annotations

import pytest

from tests.support import contrast

# (text, background) pairs as the stylesheet uses them.
PAIRS = [
    ("ink", "paper"),
    ("muted", "paper"),
    ("muted", "soft"),
    ("accent", "paper"),
    ("brand-ink", "brand"),
    ("brand", "paper"),
    ("bad", "paper"),
    ("bad", "soft"),
    ("brand-ink", "bad"),
    ("ok", "#e3f1e6"),
    ("#084a8c", "#e4eefa"),
    ("bad", "#fbe9e9"),
    ("warn", "#fdf1e0"),
    ("ok", "soft"),
    ("warn", "soft"),
]


@pytest.mark.parametrize(("fg", "bg"), PAIRS)
def test_text_contrast_is_at_least_4_5(fg: str, bg: str) -> None:
    assert contrast(fg, bg) >= 4.5, f"{fg} on {bg}: {contrast(fg, bg):.2f}:1"


def test_the_check_itself_fails_low_contrast() -> None:
    assert contrast("#777777", "#ffffff") < 4.5
