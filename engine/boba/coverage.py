"""How many real Play cards the engine can run by itself: ``python -m engine.boba coverage``.

A card of a plays list (the format of ``../shared/data/boba/plays.json``: objects with
``name`` and ``release``) is

- **executable** when the play library encodes it (a variant through its base play, CR
  2.1.2) with no ``judge`` step anywhere in its effect: the engine resolves it alone;
- **judge** when its encoding holds a ``judge`` step (a judge rules what it does);
- **unknown** when the library has no valid encoding for it.

:func:`check_baseline` compares the executable cards with a baseline list (CI keeps
``coverage_baseline.json``): a card of the baseline that is no longer executable is a
regression. Pure: no Django.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .effects import EffectError
from .play_library import lookup_play

EXECUTABLE, JUDGE, UNKNOWN = "executable", "judge", "unknown"
STATUSES = (EXECUTABLE, JUDGE, UNKNOWN)
NO_RELEASE = "?"
BASELINE_PATH = Path(__file__).with_name("coverage_baseline.json")
EXIT_OK, EXIT_REGRESSION, EXIT_BAD_INPUT = 0, 1, 2
_GROUP_TITLES = {JUDGE: "Need a judge step", UNKNOWN: "Unknown (not in the play library)"}


class CoverageInputError(ValueError):
    """The plays list or the baseline cannot be read as expected."""


@dataclass(frozen=True, slots=True)
class CardCoverage:
    """One card of the plays list and what the engine can do with it."""

    name: str
    release: str
    status: str


def _has_judge(value: Any) -> bool:
    if isinstance(value, dict):
        return "judge" in value or any(_has_judge(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_judge(v) for v in value)
    return False


def classify(name: str) -> str:
    """``executable``, ``judge`` or ``unknown`` for a play name."""
    try:
        definition = lookup_play(name)
    except (EffectError, ValueError, TypeError):
        return UNKNOWN  # an encoding the engine rejects cannot be run
    if definition is None:
        return UNKNOWN
    steps = [definition.effect, definition.requires, definition.cost_if]
    return JUDGE if _has_judge(steps) else EXECUTABLE


@dataclass(frozen=True, slots=True)
class Coverage:
    """The coverage of a plays list, card by card in the list's order."""

    cards: tuple[CardCoverage, ...]
    releases: tuple[str, ...] = field(default=())

    def counts(self, release: str | None = None) -> dict[str, int]:
        """Cards per status (and ``cards`` in all), of one release or of every release."""
        chosen = [c for c in self.cards if release is None or c.release == release]
        out = {"cards": len(chosen)}
        for status in STATUSES:
            out[status] = sum(1 for c in chosen if c.status == status)
        return out

    def names(self, status: str) -> list[str]:
        return [c.name for c in self.cards if c.status == status]

    def of(self, status: str) -> list[CardCoverage]:
        return [c for c in self.cards if c.status == status]

    def to_json(self) -> dict[str, Any]:
        total = self.counts()
        return {
            "releases": {r: self.counts(r) for r in self.releases},
            "total": total,
            JUDGE: [{"name": c.name, "release": c.release} for c in self.of(JUDGE)],
            UNKNOWN: [{"name": c.name, "release": c.release} for c in self.of(UNKNOWN)],
            "executable_count": total[EXECUTABLE],
            "card_count": total["cards"],
        }

    def summary_line(self) -> str:
        total = self.counts()
        return f"executable {total[EXECUTABLE]} of {total['cards']}"

    def text(self) -> str:
        """The readable report; its last line is ``executable N of M``."""
        lines: list[str] = []

        def row(label: str, n: dict[str, int]) -> str:
            cards = "card" if n["cards"] == 1 else "cards"
            return (
                f"{label}: {n['cards']} {cards}, {n[EXECUTABLE]} executable, "
                f"{n[JUDGE]} need a judge step, {n[UNKNOWN]} unknown"
            )

        for release in self.releases:
            lines.append(row(f"Release {release}", self.counts(release)))
        lines.append(row("Total", self.counts()))
        for status in (JUDGE, UNKNOWN):
            group = self.of(status)
            lines.append(f"{_GROUP_TITLES[status]} ({len(group)}):")
            lines.extend(f"  {c.name} ({c.release})" for c in group)
            if not group:
                lines.append("  none")
        lines.append(self.summary_line())
        return "\n".join(lines)


def coverage(plays: Iterable[dict[str, Any]]) -> Coverage:
    """The coverage of a plays list (each entry an object with ``name`` and ``release``)."""
    cards: list[CardCoverage] = []
    releases: list[str] = []
    for i, entry in enumerate(plays):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise CoverageInputError(f"plays[{i}]: must be an object with a 'name' string")
        release = entry.get("release")
        release = str(release) if isinstance(release, str | int) and release != "" else NO_RELEASE
        if release not in releases:
            releases.append(release)
        cards.append(CardCoverage(entry["name"], release, classify(entry["name"])))
    return Coverage(tuple(cards), tuple(releases))


def load_plays(path: str | Path) -> list[dict[str, Any]]:
    """Read a plays list (a JSON array, or an object holding one under ``plays``)."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CoverageInputError(f"{path}: cannot be read as JSON ({exc})") from None
    if isinstance(raw, dict):
        raw = raw.get("plays")
    if not isinstance(raw, list):
        raise CoverageInputError(f"{path}: expected a JSON array of plays")
    return raw


def load_baseline(path: str | Path) -> list[str]:
    """The executable card names of a baseline file (``{"executable": [...]}`` or a list)."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CoverageInputError(f"{path}: cannot be read as JSON ({exc})") from None
    names = raw.get("executable") if isinstance(raw, dict) else raw
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise CoverageInputError(f"{path}: expected a list of card names under 'executable'")
    return names


def baseline_json(cov: Coverage) -> dict[str, Any]:
    """The baseline file's content for this coverage (executable names, sorted)."""
    return {
        "about": (
            "Play cards the engine runs without a judge step (engine/boba/coverage.py). "
            "CI fails when one of them stops being executable. Regenerate with "
            "python -m engine.boba coverage PLAYS.json --write-baseline "
            "engine/boba/coverage_baseline.json"
        ),
        "executable": sorted(set(cov.names(EXECUTABLE))),
    }


@dataclass(frozen=True, slots=True)
class BaselineCheck:
    """Baseline cards no longer executable (``regressions``: each with its status now),
    cards executable now but not in the baseline (``new``), and baseline cards the plays
    list does not hold (``absent``: not checked)."""

    regressions: tuple[tuple[str, str], ...]
    new: tuple[str, ...]
    absent: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.regressions

    def to_json(self) -> dict[str, Any]:
        return {
            "regressions": [{"name": n, "status": s} for n, s in self.regressions],
            "new_executable": list(self.new),
            "absent": list(self.absent),
        }

    def text(self) -> list[str]:
        lines: list[str] = []
        if self.regressions:
            lines.append(f"Coverage regression: {len(self.regressions)} card(s) of the baseline")
            lines.append("are no longer executable:")
            lines.extend(f"  {name} (now: {status})" for name, status in self.regressions)
        if self.new:
            lines.append(
                f"{len(self.new)} card(s) executable now but not in the baseline: "
                + ", ".join(self.new)
            )
            lines.append(
                "Hint: update the baseline with python -m engine.boba coverage PLAYS.json "
                "--write-baseline engine/boba/coverage_baseline.json"
            )
        if self.absent:
            lines.append(
                f"{len(self.absent)} card(s) of the baseline are not in the plays list "
                "(not checked): " + ", ".join(self.absent)
            )
        return lines


def check_baseline(cov: Coverage, baseline: Sequence[str]) -> BaselineCheck:
    """Compare the executable cards with a baseline list of names."""
    status = {c.name: c.status for c in cov.cards}
    listed = set(baseline)
    regressions = tuple(
        (name, status[name])
        for name in sorted(listed)
        if name in status and status[name] != EXECUTABLE
    )
    absent = tuple(sorted(name for name in listed if name not in status))
    new = tuple(sorted({n for n in cov.names(EXECUTABLE) if n not in listed}))
    return BaselineCheck(regressions, new, absent)


def run(
    plays_path: str,
    as_json: bool = False,
    baseline: str | None = None,
    write_baseline: str | None = None,
) -> tuple[int, str]:
    """The CLI's work: (exit status, text to print). Exit 0, 1 on a baseline regression,
    2 when the plays list or the baseline cannot be read."""
    try:
        cov = coverage(load_plays(plays_path))
        names = load_baseline(baseline) if baseline is not None else None
    except CoverageInputError as exc:
        if as_json:
            return EXIT_BAD_INPUT, json.dumps({"error": str(exc)}, indent=2)
        return EXIT_BAD_INPUT, f"Error: {exc}"
    check = check_baseline(cov, names) if names is not None else None
    if write_baseline is not None:
        Path(write_baseline).write_text(
            json.dumps(baseline_json(cov), indent=2) + "\n", encoding="utf-8"
        )
    status = EXIT_OK if check is None or check.ok else EXIT_REGRESSION
    if as_json:
        out = cov.to_json()
        if check is not None:
            out["baseline"] = check.to_json()
        return status, json.dumps(out, indent=2)
    lines = cov.text().splitlines()
    if check is not None:
        lines[-1:-1] = check.text()
    if write_baseline is not None:
        lines.insert(-1, f"Baseline written to {write_baseline}.")
    return status, "\n".join(lines)
