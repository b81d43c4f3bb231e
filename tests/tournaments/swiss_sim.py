"""Seeded random Swiss histories for the pairing tests (no Django, no I/O)."""

from __future__ import annotations

import random

from tournaments.standings import MatchRecord, Player
from tournaments.swiss import pair_round


def random_result(a: str, b: str, rng: random.Random, draw_rate: float = 0.05) -> MatchRecord:
    x = rng.random()
    if x < draw_rate:
        return MatchRecord(a, b, "draw", (1, 1, 0))
    winner = "a" if x < (1 + draw_rate) / 2 else "b"
    loser_games = rng.choice((0, 1))
    games = (2, loser_games, 0) if winner == "a" else (loser_games, 2, 0)
    return MatchRecord(a, b, winner, games)  # type: ignore[arg-type]


def simulate(
    n_players: int,
    n_rounds: int,
    seed: int,
    drop_rate: float = 0.02,
    draw_rate: float = 0.05,
) -> tuple[list[Player], list[list[MatchRecord]]]:
    """Play ``n_rounds`` paired by Battledesk with random results and a few drops."""
    rng = random.Random(seed)
    players = [Player(f"p{i + 1}") for i in range(n_players)]
    rounds: list[list[MatchRecord]] = []
    for _ in range(n_rounds):
        result = pair_round(players, rounds, seed=seed)
        matches = [random_result(p.a, p.b, rng, draw_rate) for p in result.pairings]
        if result.bye is not None:
            matches.append(MatchRecord(result.bye))
        rounds.append(matches)
        players = [
            Player(p.id, dropped=True) if not p.dropped and rng.random() < drop_rate else p
            for p in players
        ]
    return players, rounds
