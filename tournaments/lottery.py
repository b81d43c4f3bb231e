"""The registration lottery for a sold-out event: a pure draw anyone can re-run.

Entries are collected until the lottery deadline; the organiser's draw then orders them with
a seed whose SHA-256 commitment was published on the event page before the draw (so the seed
could not be picked after seeing the entries), and the seed itself is published after it.

The draw is deliberately simple enough to re-run in any language: each entry's key is
``sha256(f"{seed}:{entry_id}")`` (hexadecimal), the entries are ordered by key (then by id,
which cannot tie: ids are unique), the first ``places`` win and the rest form the waitlist in
that order. No pseudo-random generator is involved, so no library version can change it.

    python -m tournaments.lottery draw.json     # {"entries": [ids], "seed": ..., "places": N}

prints the winners, the waitlist and the seed's commitment as JSON; with ``"commitment"`` in
the file it also checks that the seed matches the one published.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import BattledeskError

SEED_MAX_LENGTH = 128


class LotteryError(BattledeskError, ValueError):
    """A draw's input is wrong: ``field`` names it (``entries[3]``, ``seed``, ``places``)."""

    code = "invalid_lottery"


@dataclass(frozen=True)
class Draw:
    """The outcome: every entry in draw order, the winners and the waitlist (in order)."""

    order: tuple[int, ...]
    places: int

    @property
    def winners(self) -> tuple[int, ...]:
        return self.order[: self.places]

    @property
    def waitlist(self) -> tuple[int, ...]:
        return self.order[self.places :]

    def to_json(self, seed: str) -> dict[str, Any]:
        return {
            "seed": seed,
            "commitment": commitment(seed),
            "places": self.places,
            "order": list(self.order),
            "winners": list(self.winners),
            "waitlist": list(self.waitlist),
        }


def new_seed() -> str:
    """A fresh secret seed (128 bits, hexadecimal), chosen when the lottery is."""
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The seed's SHA-256 (hexadecimal), published before the draw."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def entry_key(seed: str, entry: int) -> str:
    """One entry's place in the draw: smaller keys are drawn first."""
    return hashlib.sha256(f"{seed}:{entry}".encode()).hexdigest()


def check_seed(seed: object) -> str:
    if not isinstance(seed, str) or not seed:
        raise LotteryError("seed", "a non-empty text")
    if len(seed) > SEED_MAX_LENGTH or not seed.isascii() or not seed.isprintable():
        raise LotteryError("seed", f"printable ASCII, at most {SEED_MAX_LENGTH} characters")
    return seed


def check_entries(entries: object) -> tuple[int, ...]:
    if not isinstance(entries, list | tuple):
        raise LotteryError("entries", "a list of entry ids, sorted")
    out: list[int] = []
    for index, entry in enumerate(entries):
        if isinstance(entry, bool) or not isinstance(entry, int) or entry < 0:
            raise LotteryError(f"entries[{index}]", "a non-negative whole number")
        if out and entry <= out[-1]:
            raise LotteryError(f"entries[{index}]", "entries must be sorted by id, each once")
        out.append(entry)
    return tuple(out)


def check_places(places: object) -> int:
    if isinstance(places, bool) or not isinstance(places, int) or places < 0:
        raise LotteryError("places", "a non-negative whole number")
    return places


def draw(entries: Sequence[int], seed: str, places: int) -> Draw:
    """Draw ``places`` winners among ``entries`` (ids sorted ascending) with ``seed``."""
    ids = check_entries(entries)
    seed = check_seed(seed)
    places = check_places(places)
    order = tuple(sorted(ids, key=lambda entry: (entry_key(seed, entry), entry)))
    return Draw(order=order, places=min(places, len(order)))


def rerun(data: object) -> dict[str, Any]:
    """The CLI's work on a parsed JSON file: the draw, checked against its commitment."""
    if not isinstance(data, dict):
        raise LotteryError("$", "a JSON object with entries, seed and places")
    for name in ("entries", "seed", "places"):
        if name not in data:
            raise LotteryError(name, "missing")
    seed = check_seed(data["seed"])
    expected = data.get("commitment")
    if expected is not None and expected != commitment(seed):
        raise LotteryError("commitment", "the seed does not match the published commitment")
    return draw(data["entries"], seed, data["places"]).to_json(seed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.lottery",
        description="Re-run an event's registration lottery from its published JSON "
        '({"entries": [ids sorted], "seed": "...", "places": N, "commitment": optional}).',
    )
    parser.add_argument("file", help="the draw's JSON file ('-' reads standard input)")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as fh:
                data = json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        print(json.dumps({"error": str(exc), "field": "$"}), file=sys.stderr)
        return 2
    try:
        out = rerun(data)
    except LotteryError as exc:
        print(json.dumps({"error": exc.message, "field": exc.field}), file=sys.stderr)
        return 2
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
