"""What a match result may be: games won and drawn.

Pure code: no Django. The matches service calls :func:`check_result` before anything is saved,
so an impossible result is refused with the field that is wrong and nothing changes.

games
    ``(won by a, won by b, drawn)``. Neither player can win more games than the match structure
    needs (best of 1: one; best of 3: two), not both can reach it, and no more games are played
    than the structure has (best of 1: one game, drawn or not; best of 3: three): a drawn game
    is one of the match's games, not replayed on top of them (event API: "more games than the
    match structure allows" is impossible). ``(0, 0, 0)`` is a match in which no game finished:
    a draw.
per-game details
    What a game records of each game (BoBA's trophies, BOS's bids) is the game's to check:
    its MatchRules (engine.plugin), after the games are checked here.
bracket matches
    Single elimination has no draws: a top-cut result must name a winner (rules README
    decision 6; BoBA games there are played with tiebreakers active, CR 4.4.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeGuard

from engine.errors import BattledeskError

Outcome = Literal["a", "b", "draw"]
Games = tuple[int, int, int]


class ResultError(BattledeskError, ValueError):
    """An impossible result; ``field`` names the part of the request that is wrong."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _counts(values: Sequence[object]) -> list[int] | None:
    """The values as whole numbers >= 0, or None if any is not one."""
    out: list[int] = []
    for value in values:
        if not _count(value):
            return None
        out.append(value)
    return out


@dataclass(frozen=True, slots=True)
class DrawRules:
    """The game's citations for the draw refusals (engine.games.GamePlugin gives them)."""

    bracket_decided: str = ""
    no_drawn_game: str = ""


def _cited(message: str, citation: str) -> str:
    return f"{message} ({citation})" if citation else message


def check_result(
    games: Sequence[object],
    *,
    games_to_win: int,
    draws_allowed: bool = True,
    drawn_games_allowed: bool = True,
    rules: DrawRules | None = None,
) -> Games:
    """Return the games as a plain tuple, or raise :class:`ResultError`. `draws_allowed`
    False: the match cannot end level (a bracket); `drawn_games_allowed` False: no single game
    ends drawn (a game whose rules always produce a winner). `rules` cites the game's rules."""
    rules = rules if rules is not None else DrawRules()
    if not isinstance(games, list | tuple) or len(games) != 3:
        raise ResultError("games", "must be three numbers: games won by a, won by b, drawn")
    counts = _counts(games)
    if counts is None:
        raise ResultError("games", "games must be whole numbers, 0 or more")
    won_a, won_b, drawn = counts
    max_games = 2 * games_to_win - 1
    if won_a > games_to_win or won_b > games_to_win:
        raise ResultError(
            "games",
            f"in a best of {max_games} nobody wins more than {games_to_win} "
            f"game{'s' if games_to_win > 1 else ''}",
        )
    if won_a == games_to_win and won_b == games_to_win:
        raise ResultError("games", "both players cannot win the match")
    if won_a + won_b + drawn > max_games:
        raise ResultError(
            "games",
            f"a best of {max_games} has at most {max_games} game{'s' if max_games > 1 else ''}",
        )
    if not drawn_games_allowed and drawn:
        raise ResultError(
            "games", _cited("a game always has a winner: no game ends drawn", rules.no_drawn_game)
        )
    if not draws_allowed and won_a == won_b:
        raise ResultError(
            "games",
            _cited(
                "a bracket match cannot end drawn: play on until one player wins",
                rules.bracket_decided,
            ),
        )
    return (won_a, won_b, drawn)


def outcome(games: Games) -> Outcome:
    won_a, won_b, _ = games
    if won_a > won_b:
        return "a"
    if won_b > won_a:
        return "b"
    return "draw"


def swapped(games: Games) -> Games:
    """The same result seen from b's side."""
    return (games[1], games[0], games[2])
