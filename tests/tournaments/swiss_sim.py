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


def random_history(
    seed: int, n_players: int, n_rounds: int, extras: bool = False
) -> tuple[list[Player], list[list[MatchRecord]]]:
    rng = random.Random(seed)
    late = {f"p{i}": rng.choice((1, 1, 1, 2, n_rounds + 1)) for i in range(n_players)}
    drop_after = {f"p{i}": rng.choice((99, 99, 99, 1, 2, 3)) for i in range(n_players)}
    byes: dict[str, tuple[int, ...]] = {p: () for p in late}
    losses = dict.fromkeys(late, False)
    if extras:
        for p in late:
            if rng.random() < 0.25:
                later = range(late[p], n_rounds + 2)
                byes[p] = tuple(sorted(rng.sample(later, min(len(later), rng.randint(1, 2)))))
            losses[p] = late[p] > 1 and rng.random() < 0.5
    rounds: list[list[MatchRecord]] = []
    for r in range(1, n_rounds + 1):
        here = [p for p in late if late[p] <= r and drop_after[p] >= r]
        matches: list[MatchRecord] = [MatchRecord(p) for p in here if r in byes[p]]
        here = [p for p in here if r not in byes[p]]
        rng.shuffle(here)
        if len(here) % 2:
            matches.append(MatchRecord(here.pop()))
        for k in range(0, len(here), 2):
            result = rng.choice(("a", "b", "a", "b", "draw"))
            games = {"a": (2, rng.randint(0, 1), 0), "b": (rng.randint(0, 1), 2, 0)}.get(
                result, (1, 1, 0)
            )
            matches.append(MatchRecord(here[k], here[k + 1], result, games))  # type: ignore[arg-type]
        rounds.append(matches)
    players = [
        Player(
            p,
            dropped=drop_after[p] <= n_rounds,
            late_entry_round=late[p],
            bye_rounds=byes[p],
            late_entry_losses=losses[p],
        )
        for p in late
    ]
    return players, rounds
