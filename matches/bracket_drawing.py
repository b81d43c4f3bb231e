"""The top-cut bracket drawn as an inline SVG: one column of boxes per bracket round, lines
to the next round, the champion's box. No request, no query: matches in, markup out.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from matches.models import Match, MatchStatus, Round

BOX_W, BOX_H, SLOT_H, COL_GAP, ROW_GAP, PAD = 210, 52, 26, 36, 16, 8


@dataclass
class Slot:
    seed: int | None
    name: str
    games: int | None = None
    winner: bool = False
    bye: bool = False


@dataclass
class BracketBox:
    table: int | None
    top: Slot
    bottom: Slot
    final: bool = False


def bracket_columns(rounds: list[tuple[Round, list[Match]]]) -> list[list[BracketBox]]:
    """One column per bracket round (the rounds to come as empty boxes)."""
    columns: list[list[BracketBox]] = []
    for _round, matches in rounds:
        column = []
        for m in sorted(matches, key=lambda m: (m.table or 0, m.pk)):
            final = m.status == MatchStatus.FINAL
            games = m.games if final else None
            a_wins = bool(final and games and (m.b_id is None or games[0] > games[1]))
            b_wins = bool(final and games and m.b_id is not None and games[1] > games[0])
            top = Slot(m.seed_a, m.a.name, games[0] if games and m.b else None, a_wins)
            if m.b is None:
                bottom = Slot(None, _("bye"), bye=True)
            else:
                bottom = Slot(m.seed_b, m.b.name, games[1] if games else None, b_wins)
            column.append(BracketBox(m.table, top, bottom, final))
        columns.append(column)
    if columns:
        size = len(columns[-1])
        while size > 1:
            size //= 2
            columns.append([BracketBox(None, Slot(None, ""), Slot(None, "")) for _ in range(size)])
    return columns


def bracket_svg(columns: list[list[BracketBox]], champion: str | None) -> SafeString:
    """The bracket as an inline SVG: boxes with seed and name, lines to the next round."""
    if not columns:
        return mark_safe("")
    first = len(columns[0])
    height = PAD * 2 + first * BOX_H + (first - 1) * ROW_GAP
    width = PAD * 2 + (len(columns) + 1) * (BOX_W + COL_GAP)
    centres: list[list[float]] = []
    parts: list[str] = []
    for c, column in enumerate(columns):
        x = PAD + c * (BOX_W + COL_GAP)
        if c == 0:
            ys = [PAD + i * (BOX_H + ROW_GAP) + BOX_H / 2 for i in range(len(column))]
        else:
            prev = centres[-1]
            ys = [
                (prev[2 * i] + prev[2 * i + 1]) / 2 if 2 * i + 1 < len(prev) else prev[2 * i]
                for i in range(len(column))
            ]
            for i, y in enumerate(ys):
                for j in (2 * i, 2 * i + 1):
                    if j < len(prev):
                        px = x - COL_GAP
                        mid = px + COL_GAP / 2
                        parts.append(
                            f'<path class="bracket-line" d="M{px:.0f} {prev[j]:.0f} '
                            f'H{mid:.0f} V{y:.0f} H{x:.0f}"/>'
                        )
        centres.append(ys)
        for box, y in zip(column, ys, strict=False):
            top = y - BOX_H / 2
            parts.append(
                f'<rect class="bracket-box" x="{x}" y="{top:.0f}" width="{BOX_W}" '
                f'height="{BOX_H}" rx="4"/>'
                f'<line class="bracket-divider" x1="{x}" y1="{y:.0f}" x2="{x + BOX_W}" '
                f'y2="{y:.0f}"/>'
            )
            for k, slot in enumerate((box.top, box.bottom)):
                ty = top + SLOT_H * k + SLOT_H * 0.68
                weight = ' font-weight="700"' if slot.winner else ""
                seed = f"{slot.seed}" if slot.seed else ""
                name = slot.name or "—"
                if len(name) > 22:
                    name = name[:21] + "…"
                cls = "bracket-name bracket-bye" if slot.bye else "bracket-name"
                parts.append(
                    f'<text class="bracket-seed" x="{x + 6}" y="{ty:.0f}">{escape(seed)}</text>'
                    f'<text class="{cls}" x="{x + 28}" y="{ty:.0f}"{weight}>'
                    f"{escape(name)}</text>"
                )
                if slot.games is not None:
                    parts.append(
                        f'<text class="bracket-games" x="{x + BOX_W - 8}" y="{ty:.0f}" '
                        f'text-anchor="end"{weight}>{slot.games}</text>'
                    )
    # the champion box, joined to the final
    x = PAD + len(columns) * (BOX_W + COL_GAP)
    y = centres[-1][0]
    parts.append(
        f'<path class="bracket-line" d="M{x - COL_GAP} {y:.0f} H{x}"/>'
        f'<rect class="bracket-box bracket-champion" x="{x}" y="{y - SLOT_H:.0f}" '
        f'width="{BOX_W}" height="{SLOT_H * 2}" rx="4"/>'
        f'<text class="bracket-seed" x="{x + 8}" y="{y - 6:.0f}">{escape(_("Champion"))}</text>'
        f'<text class="bracket-name" x="{x + 8}" y="{y + 16:.0f}" font-weight="700">'
        f"{escape(champion or '—')}</text>"
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket-svg" viewBox="0 0 {width} '
        f'{height + SLOT_H}" width="{width}" height="{height + SLOT_H}" role="img" '
        f'aria-labelledby="bracket-svg-title"><title id="bracket-svg-title">'
        f"{escape(_('The top-cut bracket; the same bracket is listed as a table below.'))}"
        f"</title>{''.join(parts)}</svg>"
    )
    return mark_safe(svg)  # every text above is escaped


COLUMN_HEAD = 22


def side_svg(
    title: str, columns: list[tuple[str, list[BracketBox]]], champion: str | None = None
) -> SafeString:
    """One side of a bracket (the winners' side, the losers' side, the grand final) as an
    inline SVG: a column of boxes per round under the round's name, the boxes of a column
    spread over the height of the tallest. Double elimination draws three of these."""
    columns = [(name, boxes) for name, boxes in columns if boxes]
    if not columns:
        return mark_safe("")
    tallest = max(len(boxes) for _name, boxes in columns)
    inner = tallest * BOX_H + (tallest - 1) * ROW_GAP
    height = PAD * 2 + COLUMN_HEAD + inner
    extra = 1 if champion is not None else 0
    width = PAD * 2 + (len(columns) + extra) * (BOX_W + COL_GAP)
    parts: list[str] = []
    for c, (name, boxes) in enumerate(columns):
        x = PAD + c * (BOX_W + COL_GAP)
        parts.append(
            f'<text class="bracket-seed" x="{x}" y="{PAD + 14}" font-weight="700">'
            f"{escape(name)}</text>"
        )
        step = inner / len(boxes)
        for i, box in enumerate(boxes):
            y = PAD + COLUMN_HEAD + step * i + step / 2
            top = y - BOX_H / 2
            parts.append(
                f'<rect class="bracket-box" x="{x}" y="{top:.0f}" width="{BOX_W}" '
                f'height="{BOX_H}" rx="4"/>'
                f'<line class="bracket-divider" x1="{x}" y1="{y:.0f}" x2="{x + BOX_W}" '
                f'y2="{y:.0f}"/>'
            )
            for k, slot in enumerate((box.top, box.bottom)):
                ty = top + SLOT_H * k + SLOT_H * 0.68
                weight = ' font-weight="700"' if slot.winner else ""
                label = slot.name or "—"
                if len(label) > 22:
                    label = label[:21] + "…"
                parts.append(
                    f'<text class="bracket-seed" x="{x + 6}" y="{ty:.0f}">'
                    f"{escape(str(slot.seed or ''))}</text>"
                    f'<text class="bracket-name" x="{x + 28}" y="{ty:.0f}"{weight}>'
                    f"{escape(label)}</text>"
                )
                if slot.games is not None:
                    parts.append(
                        f'<text class="bracket-games" x="{x + BOX_W - 8}" y="{ty:.0f}" '
                        f'text-anchor="end"{weight}>{slot.games}</text>'
                    )
    if champion is not None:
        x = PAD + len(columns) * (BOX_W + COL_GAP)
        y = PAD + COLUMN_HEAD + inner / 2
        parts.append(
            f'<rect class="bracket-box bracket-champion" x="{x}" y="{y - SLOT_H:.0f}" '
            f'width="{BOX_W}" height="{SLOT_H * 2}" rx="4"/>'
            f'<text class="bracket-seed" x="{x + 8}" y="{y - 6:.0f}">{escape(_("Champion"))}'
            f'</text><text class="bracket-name" x="{x + 8}" y="{y + 16:.0f}" '
            f'font-weight="700">{escape(champion or "—")}</text>'
        )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket-svg" viewBox="0 0 {width} '
        f'{height}" width="{width}" height="{height}" role="img"><title>{escape(title)}</title>'
        f"{''.join(parts)}</svg>"
    )
    return mark_safe(svg)  # every text above is escaped
