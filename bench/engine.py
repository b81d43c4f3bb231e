"""Benchmark the BoBA rules engine: replay random legal games on one core.

Usage: ``python bench/engine.py [--games N] [--seed S]``. Prints games per second for each
mode and microseconds per action. Records are generated first (not timed), parsed once (not
timed), then replayed without keeping per-action states, as a tournament server would;
the time is CPU time of this process (one core), so other load on the machine matters less.
Goal (issue 3): >= 2,000 Playmaker games/s and >= 20,000 Rookie games/s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.boba.generator import random_game
from engine.boba.record import Record, parse_record
from engine.boba.replay import replay


def bench(mode: str, games: int, seed: int) -> tuple[float, float, int]:
    records: list[Record] = [parse_record(random_game(seed + i, mode)) for i in range(games)]
    actions = sum(len(r.actions) for r in records)
    rounds = max(1, 2000 // games) if mode == "rookie" else 1
    start = time.process_time()
    for _ in range(rounds):
        for rec in records:
            out = replay(rec, keep_states=False)
            if out.error is not None:
                raise SystemExit(f"{mode}: generated game is illegal: {out.error}")
    elapsed = time.process_time() - start
    n = games * rounds
    per_action = elapsed / (actions * rounds) * 1e6 if actions else 0.0
    return n / elapsed, per_action, actions // games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for mode in ("rookie", "substitution", "playmaker"):
        gps, us, avg = bench(mode, args.games, args.seed)
        per_action = f"{us:7.1f} us/action" if avg else "  (no actions)  "
        print(
            f"{mode:12s} {gps:10,.0f} games/s  {1e6 / gps:8.1f} us/game  {per_action}"
            f"  ({avg} actions/game)"
        )


if __name__ == "__main__":
    main()
