"""Benchmark: Battledesk Swiss pairing against the npm package tournament-organizer.

    .venv/bin/python bench/pairing.py [--sizes 64,512,2048,4096] [--peer-timeout 120]
                                      [--no-peer] [--full-graph-up-to 0]

For each size: a seeded random 5-round history (players paired by Battledesk, random results
with 5% draws, about 2% of the field dropping after each round), then round 6 is paired by
Battledesk (best of 3 runs) and, on the same players and history, by tournament-organizer
(installed with npm into bench/.peer, git-ignored, and driven by
bench/peer_tournament_organizer.mjs, whose time covers its nextRound(): its standings and its
pairing). Both pairings are scored by the same code: rematches, second byes, pair-downs and
their total size in match points. Then the standings of 4,096 players after 12 rounds are timed.

"Optimal" says whether Battledesk's pairing meets the lower bound on pair-downs (no pairing of
the field, even on the complete graph, can have smaller ones) or was computed on the complete
graph; --full-graph-up-to N also pairs sizes up to N on the complete graph and compares.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.standings import MatchRecord, Player, compute_standings  # noqa: E402
from tournaments.swiss import pair_round  # noqa: E402

PEER_DIR = ROOT / "bench" / ".peer"
PEER_SCRIPT = ROOT / "bench" / "peer_tournament_organizer.mjs"


def random_match(a: str, b: str, rng: random.Random) -> MatchRecord:
    x = rng.random()
    if x < 0.05:
        return MatchRecord(a, b, "draw", (1, 1, 0))
    lost = rng.choice((0, 1))
    if x < 0.525:
        return MatchRecord(a, b, "a", (2, lost, 0))
    return MatchRecord(a, b, "b", (lost, 2, 0))


def history(n: int, n_rounds: int, seed: int) -> tuple[list[Player], list[list[MatchRecord]]]:
    rng = random.Random(seed)
    players = [Player(f"p{i + 1}") for i in range(n)]
    rounds: list[list[MatchRecord]] = []
    for _ in range(n_rounds):
        result = pair_round(players, rounds, seed=seed)
        matches = [random_match(p.a, p.b, rng) for p in result.pairings]
        if result.bye is not None:
            matches.append(MatchRecord(result.bye))
        rounds.append(matches)
        players = [
            Player(p.id, dropped=True) if not p.dropped and rng.random() < 0.02 else p
            for p in players
        ]
    return players, rounds


def to_state(players: list[Player], rounds: list[list[MatchRecord]], seed: int) -> dict[str, Any]:
    return {
        "players": [{"id": p.id, "dropped": p.dropped} for p in players],
        "rounds": [
            [
                {"a": m.a, "bye": True}
                if m.b is None
                else {"a": m.a, "b": m.b, "result": m.result, "games": list(m.games)}
                for m in rnd
            ]
            for rnd in rounds
        ],
        "seed": seed,
    }


def score(
    players: list[Player],
    rounds: list[list[MatchRecord]],
    pairs: list[tuple[str, str]],
    byes: list[str],
) -> dict[str, Any]:
    """The same yardstick for both engines."""
    rows = {r.player_id: r for r in compute_standings(players, rounds)}
    met = {frozenset((m.a, m.b)) for rnd in rounds for m in rnd if m.b is not None}
    active = {p.id for p in players if not p.dropped}
    seen = [x for pair in pairs for x in pair] + byes
    sizes = [abs(rows[a].points - rows[b].points) for a, b in pairs]
    return {
        "valid": sorted(seen) == sorted(active),
        "rematches": sum(frozenset(p) in met for p in pairs),
        "second_byes": sum(rows[b].byes > 0 for b in byes),
        "byes": len(byes),
        "pair_downs": sum(1 for s in sizes if s),
        "pair_down_total": sum(sizes),
        "max_pair_down": max(sizes, default=0),
    }


def ensure_peer() -> str | None:
    """Install tournament-organizer into bench/.peer if needed; its version, or None."""
    package = PEER_DIR / "node_modules" / "tournament-organizer" / "package.json"
    if not package.exists():
        if shutil.which("npm") is None:
            return None
        subprocess.run(
            ["npm", "install", "--prefix", str(PEER_DIR), "tournament-organizer"],
            check=True,
            capture_output=True,
        )
    if shutil.which("node") is None:
        return None
    return str(json.loads(package.read_text())["version"])


def run_peer(state: dict[str, Any], timeout: float) -> dict[str, Any] | str:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(state, fh)
        path = fh.name
    try:
        proc = subprocess.run(
            ["node", "--max-old-space-size=4096", str(PEER_SCRIPT), path],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return f"timeout > {timeout:.0f} s"
    finally:
        Path(path).unlink(missing_ok=True)
    if proc.returncode != 0:
        return "error: " + (proc.stderr.strip().splitlines() or ["?"])[-1][:60]
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="64,512,2048,4096")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--peer-timeout", type=float, default=120.0)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--full-graph-up-to", type=int, default=0)
    parser.add_argument("--standings-players", type=int, default=4096)
    parser.add_argument("--standings-rounds", type=int, default=12)
    args = parser.parse_args()

    peer_version = None if args.no_peer else ensure_peer()
    print(
        f"Swiss pairing of round {args.rounds + 1} after {args.rounds} seeded random rounds "
        f"(seed {args.seed}); peer: "
        + (f"tournament-organizer {peer_version}" if peer_version else "not run")
    )
    header = (
        f"{'players':>7} | {'engine':<10} | {'time':>10} | {'rematch':>7} | {'2nd bye':>7} | "
        f"{'pair-downs':>10} | {'total size':>10} | {'max':>3} | note"
    )
    print(header)
    print("-" * len(header))
    ratios: list[str] = []
    for n in (int(s) for s in args.sizes.split(",")):
        players, rounds = history(n, args.rounds, args.seed + n)
        times = []
        for _ in range(3):
            started = time.perf_counter()
            ours = pair_round(players, rounds, seed=args.seed)
            times.append(time.perf_counter() - started)
        ours_time = min(times)
        ours_score = score(
            players,
            rounds,
            [(p.a, p.b) for p in ours.pairings],
            [ours.bye] if ours.bye else [],
        )
        note = f"{ours.stats.graph} graph, {ours.stats.edges} edges; " + (
            "optimal (meets lower bound)" if ours.stats.proven_optimal else "not proven"
        )
        if ours.stats.graph == "complete":
            note = f"complete graph, {ours.stats.edges} edges; optimal"
        print(_row(n, "Battledesk", ours_time, ours_score, note))
        if n <= args.full_graph_up_to:
            started = time.perf_counter()
            full = pair_round(players, rounds, seed=args.seed, full_graph_limit=10**9)
            full_time = time.perf_counter() - started
            full_score = score(
                players, rounds, [(p.a, p.b) for p in full.pairings], [full.bye] if full.bye else []
            )
            print(_row(n, "full graph", full_time, full_score, "Battledesk on the complete graph"))
        if peer_version:
            peer = run_peer(to_state(players, rounds, args.seed), args.peer_timeout)
            if isinstance(peer, str):
                print(f"{n:>7} | {'peer':<10} | {peer}")
                ratios.append(f"{n}: peer {peer}, Battledesk {fmt_time(ours_time)}")
            else:
                peer_score = score(
                    players, rounds, [tuple(p) for p in peer["pairings"]], peer["byes"]
                )
                peer_time = peer["ms"] / 1000
                print(_row(n, "peer", peer_time, peer_score, "tournament-organizer nextRound()"))
                ratios.append(
                    f"{n}: Battledesk {peer_time / ours_time:.1f}x faster "
                    f"({fmt_time(ours_time)} v {fmt_time(peer_time)})"
                )
    if ratios:
        print("\nTime ratio (peer / Battledesk):")
        for line in ratios:
            print("  " + line)

    n, r = args.standings_players, args.standings_rounds
    players, rounds = history(n, r, args.seed)
    times = []
    for _ in range(3):
        started = time.perf_counter()
        rows = compute_standings(players, rounds)
        times.append(time.perf_counter() - started)
    print(
        f"\nStandings: {n} players after {r} rounds ({sum(len(x) for x in rounds)} matches): "
        f"{fmt_time(min(times))} (best of 3); leader {rows[0].player_id} on {rows[0].points} pts"
    )
    return 0


def _row(n: int, engine: str, seconds: float, s: dict[str, Any], note: str) -> str:
    if not s["valid"]:
        note = "INVALID pairing; " + note
    return (
        f"{n:>7} | {engine:<10} | {fmt_time(seconds):>10} | {s['rematches']:>7} | "
        f"{s['second_byes']:>7} | {s['pair_downs']:>10} | {s['pair_down_total']:>10} | "
        f"{s['max_pair_down']:>3} | {note}"
    )


if __name__ == "__main__":
    sys.exit(main())
