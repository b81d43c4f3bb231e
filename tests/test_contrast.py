"""Text colours in the stylesheet meet WCAG AA (4.5:1) on the backgrounds they are used on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parent.parent / "static" / "css" / "battledesk.css").read_text()
VARIABLES = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", CSS))


def colour(name_or_hex: str) -> str:
    return name_or_hex if name_or_hex.startswith("#") else VARIABLES[name_or_hex]


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(fg: str, bg: str) -> float:
    a, b = sorted((luminance(colour(fg)), luminance(colour(bg))), reverse=True)
    return (a + 0.05) / (b + 0.05)


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
