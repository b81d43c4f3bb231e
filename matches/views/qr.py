"""QR codes as inline SVG for pages."""

from __future__ import annotations

import re

import segno
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def qr_svg(url: str) -> SafeString:
    """The event page's address as a QR code (inline SVG that scales with its box)."""
    svg = segno.make(url, error="m").svg_inline(
        scale=6, border=2, title=_("QR code: the event page, %(url)s") % {"url": url}
    )
    match = re.match(r'<svg width="(\d+)" height="(\d+)"', svg)
    if match:
        w, h = match.groups()
        svg = svg.replace(
            match.group(0), f'<svg role="img" viewBox="0 0 {w} {h}" width="{w}" height="{h}"', 1
        )
    return mark_safe(svg)  # segno escapes the title
