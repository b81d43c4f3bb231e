"""Server-side SVG charts for the deck page: pure functions from numbers to markup strings.

Vocabulary: a *bar chart* has one vertical bar per key (Hero Power, Play cost) and may carry a
*cap*, a dashed line at the highest count allowed per bar (bars above it are drawn in the
warning colour and flagged with "!", so colour is never the only cue); *horizontal bars* list
named counts (weapon types); a *meter* shows one total against its cap (DBS).

Every chart is an `<svg role="img">` labelled by its own `<title>` and `<desc>`
(aria-labelledby), and `data_table` gives the same numbers as a visually hidden table for
screen readers and for anyone who cannot see the picture. Every label is escaped here; the
callers pass already translated text. No Django imports: the functions are plain Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

INK = "#1a1a1a"
MUTED = "#4a4a4a"
BAR = "#1b3a6b"
OVER = "#a11a1a"
CAP = "#8a4b00"
OK = "#1d6b2f"
TRACK = "#f2f4f7"
TRACK_LINE = "#767676"
FONT = 'font-family="system-ui, sans-serif"'
# A chart shrinks with its container down to this share of its drawn size, then the page
# scrolls it sideways instead, so its 11px labels never become unreadably small on a phone.
MIN_SCALE = 0.7


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _open(chart_id: str, width: int, height: int, title: str, desc: str, kind: str) -> str:
    cid = _e(chart_id)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-{_e(kind)}" id="{cid}" '
        f'role="img" aria-labelledby="{cid}-title {cid}-desc" viewBox="0 0 {width} {height}" '
        f'width="100%" preserveAspectRatio="xMinYMin meet" '
        f'style="min-width:{int(width * MIN_SCALE)}px;max-width:{width}px" {FONT}>'
        f'<title id="{cid}-title">{_e(title)}</title><desc id="{cid}-desc">{_e(desc)}</desc>'
    )


def _empty(chart_id: str, title: str, desc: str, empty_text: str, kind: str) -> str:
    return (
        _open(chart_id, 320, 60, title, desc, kind)
        + f'<text x="160" y="35" text-anchor="middle" font-size="14" fill="{MUTED}">'
        f"{_e(empty_text)}</text></svg>"
    )


def _nice_max(value: int) -> int:
    """A round axis maximum at least `value` (1, 2, 5, 10, 20, 50, ...)."""
    value = max(value, 1)
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= value:
                return step * factor
        step *= 10


def bar_chart(
    *,
    chart_id: str,
    title: str,
    desc: str,
    bars: Sequence[tuple[str, int]],
    cap: int | None = None,
    cap_label: str = "",
    x_label: str = "",
    empty_text: str = "No data",
) -> str:
    """Vertical bars, one per (label, count), with an optional dashed cap line and its label."""
    if not bars:
        return _empty(chart_id, title, desc, empty_text, "bars")
    slot, left, right, top, bottom = 24, 34, 12, 28, 44
    plot_h = 150
    width = max(320, left + right + slot * len(bars))
    height = top + plot_h + bottom
    highest = max(count for _, count in bars)
    y_max = _nice_max(max(highest, cap or 0))

    def y(v: float) -> float:
        return top + plot_h - plot_h * v / y_max

    out = [_open(chart_id, width, height, title, desc, "bars")]
    base = y(0)
    out.append(
        f'<line x1="{left}" y1="{base:.1f}" x2="{width - right}" y2="{base:.1f}" '
        f'stroke="{TRACK_LINE}" stroke-width="1"/>'
    )
    for tick in sorted({0, y_max // 2, y_max}):
        out.append(
            f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="{MUTED}">{tick}</text>'
        )
    for i, (label, count) in enumerate(bars):
        x = left + i * slot + 3
        over = cap is not None and count > cap
        bar_h = base - y(count)
        colour = OVER if over else BAR
        flag = ' data-over-cap="true"' if over else ""
        out.append(
            f'<rect x="{x}" y="{y(count):.1f}" width="{slot - 6}" height="{bar_h:.1f}" '
            f'fill="{colour}"{flag}/>'
        )
        mark = "!" if over else ""
        out.append(
            f'<text x="{x + (slot - 6) / 2:.1f}" y="{y(count) - 4:.1f}" text-anchor="middle" '
            f'font-size="11" fill="{OVER if over else INK}">{count}{mark}</text>'
        )
        out.append(
            f'<text x="{x + (slot - 6) / 2:.1f}" y="{base + 15:.1f}" text-anchor="middle" '
            f'font-size="11" fill="{INK}">{_e(label)}</text>'
        )
    if x_label:
        out.append(
            f'<text x="{(left + width - right) / 2:.1f}" y="{height - 6}" text-anchor="middle" '
            f'font-size="12" fill="{MUTED}">{_e(x_label)}</text>'
        )
    if cap is not None:
        cy = y(cap)
        out.append(
            f'<line class="cap-line" data-cap="{int(cap)}" x1="{left}" y1="{cy:.1f}" '
            f'x2="{width - right}" y2="{cy:.1f}" stroke="{CAP}" stroke-width="2" '
            f'stroke-dasharray="6 4"/>'
        )
        # The label sits in a legend above the plot, where no bar or count can cover it and
        # a phone shows it without scrolling the chart sideways.
        out.append(
            f'<line x1="{left}" y1="10" x2="{left + 24}" y2="10" stroke="{CAP}" '
            f'stroke-width="2" stroke-dasharray="6 4"/>'
            f'<text class="cap-label" x="{left + 30}" y="14" font-size="12" font-weight="600" '
            f'fill="{CAP}">{_e(cap_label or cap)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def hbar_chart(
    *,
    chart_id: str,
    title: str,
    desc: str,
    bars: Sequence[tuple[str, int]],
    empty_text: str = "No data",
) -> str:
    """Horizontal bars, one row per (label, count), longest scaled to the full width."""
    if not bars:
        return _empty(chart_id, title, desc, empty_text, "hbars")
    row, label_w, bar_w, pad = 24, 96, 200, 8
    width = label_w + bar_w + 48
    height = pad * 2 + row * len(bars)
    highest = max(max(count for _, count in bars), 1)
    out = [_open(chart_id, width, height, title, desc, "hbars")]
    for i, (label, count) in enumerate(bars):
        top = pad + i * row
        length = bar_w * count / highest
        out.append(
            f'<text x="{label_w - 8}" y="{top + 16}" text-anchor="end" font-size="12" '
            f'fill="{INK}">{_e(label)}</text>'
        )
        out.append(
            f'<rect x="{label_w}" y="{top + 4}" width="{length:.1f}" height="{row - 8}" '
            f'fill="{BAR}"/>'
        )
        out.append(
            f'<text x="{label_w + length + 6:.1f}" y="{top + 16}" font-size="12" '
            f'fill="{INK}">{count}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def meter(
    *,
    chart_id: str,
    title: str,
    desc: str,
    value: int,
    cap: int | None,
    value_label: str = "",
    cap_label: str = "",
) -> str:
    """One total on a track; with a cap, the cap is marked and a total above it turns red."""
    width, height, left, track_w, track_y, track_h = 360, 70, 8, 344, 26, 20
    scale = max(value, cap or 0, 1)
    over = cap is not None and value > cap
    fill_w = track_w * max(value, 0) / scale
    out = [_open(chart_id, width, height, title, desc, "meter")]
    out.append(
        f'<text x="{left}" y="18" font-size="13" font-weight="600" '
        f'fill="{OVER if over else INK}">{_e(value_label or value)}{" !" if over else ""}</text>'
    )
    out.append(
        f'<rect x="{left}" y="{track_y}" width="{track_w}" height="{track_h}" fill="{TRACK}" '
        f'stroke="{TRACK_LINE}"/>'
    )
    out.append(
        f'<rect class="meter-fill" x="{left}" y="{track_y}" width="{fill_w:.1f}" '
        f'height="{track_h}" fill="{OVER if over else OK}"/>'
    )
    if cap is not None:
        cx = left + track_w * cap / scale
        out.append(
            f'<line class="cap-line" data-cap="{int(cap)}" x1="{cx:.1f}" y1="{track_y - 4}" '
            f'x2="{cx:.1f}" y2="{track_y + track_h + 4}" stroke="{CAP}" stroke-width="3"/>'
        )
        anchor = "end" if cx > width / 2 else "start"
        out.append(
            f'<text class="cap-label" x="{cx:.1f}" y="{track_y + track_h + 18}" '
            f'text-anchor="{anchor}" font-size="12" font-weight="600" fill="{CAP}">'
            f"{_e(cap_label or cap)}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def data_table(
    *, caption: str, headers: tuple[str, str], rows: Sequence[tuple[object, object]]
) -> str:
    """The chart's numbers as a visually hidden table (screen readers, no-image fallback)."""
    body = "".join(f'<tr><th scope="row">{_e(a)}</th><td>{_e(b)}</td></tr>' for a, b in rows)
    return (
        f'<table class="visually-hidden"><caption>{_e(caption)}</caption>'
        f'<thead><tr><th scope="col">{_e(headers[0])}</th><th scope="col">{_e(headers[1])}'
        f"</th></tr></thead><tbody>{body}</tbody></table>"
    )
