"""The standings' input (players, finished matches, the scoring) and the error bad input raises.

Pure code, like :mod:`tournaments.standings` (which re-exports every name here); the vocabulary
is that module's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.errors import BattledeskError

Result = Literal["a", "b", "draw"]


class StateError(BattledeskError, ValueError):
    """Bad input. ``field`` is a path into the state, e.g. ``rounds[2][0].games``."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


@dataclass(frozen=True)
class Player:
    """A registered player. ``late_entry_round`` is the first round he can be paired in.

    ``bye_rounds``: rounds for which he was granted a bye at registration (never paired in
    them). ``late_entry_losses``: each round before ``late_entry_round`` counts as a played
    round lost (0 match points, games ``Scoring.bye_games`` reversed), with no opponent;
    False (the default) means a late entry joins at zero, with no rounds before his entry.
    """

    id: str
    dropped: bool = False
    late_entry_round: int = 1
    fixed_table: int | None = None
    seeding: float | None = None
    bye_rounds: tuple[int, ...] = ()
    late_entry_losses: bool = False


@dataclass(frozen=True)
class MatchRecord:
    """One pairing of a finished round, or a bye when ``b`` is None.

    ``games`` are (won by a, won by b, drawn) as played (for a bye: the games it is worth,
    won not below lost, or 0-0-0 for ``Scoring.bye_games``); ``penalty_game_losses`` are games lost
    to penalties by (a, b), counted as games won by the opponent; ``battles`` are the trophies
    won by (a, b) over all games of the match (BoBA), or None when not recorded.
    """

    a: str
    b: str | None = None
    result: Result = "a"
    games: tuple[int, int, int] = (0, 0, 0)
    penalty_game_losses: tuple[int, int] = (0, 0)
    battles: tuple[int, int] | None = None

    @property
    def is_bye(self) -> bool:
        return self.b is None

    def effective_games(self) -> tuple[int, int, int]:
        """Games won by a, won by b, drawn, with penalty game losses included."""
        won_a, won_b, drawn = self.games
        pen_a, pen_b = self.penalty_game_losses
        return won_a + pen_b, won_b + pen_a, drawn


def bye(player_id: str) -> MatchRecord:
    """The match record of a bye."""
    return MatchRecord(a=player_id, b=None, result="a")


@dataclass(frozen=True)
class Scoring:
    """Match points and the values used in percentages."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye_games: tuple[int, int] = (2, 0)
    game_win: int = 3
    game_draw: int = 1
    floor: float = 0.33

    def validate(self, path: str = "scoring") -> None:
        for name in ("win", "draw", "loss", "game_win", "game_draw"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise StateError(f"{path}.{name}", "must be a non-negative integer")
        if self.win <= 0 or not self.win >= self.draw >= self.loss:
            raise StateError(f"{path}.win", "need win > 0 and win >= draw >= loss")
        if self.game_win <= 0:
            raise StateError(f"{path}.game_win", "must be positive")
        check_counts(self.bye_games, 2, f"{path}.bye_games")
        if not 0 <= self.floor <= 1:
            raise StateError(f"{path}.floor", "must be between 0 and 1")


def check_counts(value: object, size: int, path: str) -> None:
    if (
        not isinstance(value, tuple | list)
        or len(value) != size
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise StateError(path, f"must be {size} non-negative integers")
