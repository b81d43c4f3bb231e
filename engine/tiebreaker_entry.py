"""A tiebreaker as data: the type of one entry of the tiebreaker registry.

Pure code. The registry itself, with the game-neutral entries, is `tournaments.tiebreakers`;
a game contributes its own entries through `GamePlugin.load_tiebreakers` (BoBA's battle
differential: `engine.boba.tiebreakers`). The type lives here, below both, so that a game's
entry needs nothing above the engine.

Vocabulary
----------
column
    One number per player, as a list in the standings core's player order. The core keeps its
    figures as columns (`COLUMNS`); an entry either ranks by one of them (`column`) or computes
    its own from them (`compute`, called once per standings, never once per player).
figures
    What a player's explanation needs of his stored standings row (:class:`PlayerFigures`).
revision
    A number bumped whenever what an entry computes changes: the stored standings remember
    the revisions they were computed with and are recomputed when one differs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.text import Text

Column = Sequence[float] | Sequence[int]
Columns = Mapping[str, Column]

# The standings core's columns an entry may read (tournaments.standings builds them).
COLUMNS = (
    "points",
    "rounds_played",
    "wins",
    "losses",
    "draws",
    "games_won",
    "games_lost",
    "games_drawn",
    "match_win",
    "game_win",
    "omw",
    "ogw",
    "trophies_won",
    "trophies_lost",
)

# How a value is shown: a percentage ("61.2%"), a signed whole number ("+3"), as it is, or
# nothing (head-to-head has no per-player value: it shows in the order of the rows).
Display = Literal["percent", "signed", "plain", "none"]


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """A player's numbers a tiebreaker explanation reads (from his stored standings row)."""

    value: float | int | None
    opponents_match_win: tuple[float, ...]  # each opponent's floored MW%, one per match
    opponents_game_win: tuple[float, ...]  # each opponent's floored GW%, one per match
    games: tuple[int, int, int]  # won, lost, drawn, byes included
    trophies: tuple[int, int]  # won, lost
    floor: float  # the percentages' floor (MTR Appendix C: 0.33)
    drawn_games: bool  # whether the event's game allows a drawn game


@dataclass(frozen=True, slots=True)
class TiebreakerEntry:
    """One tiebreaker: its key, its label, how it ranks, how it is shown and explained.

    Exactly one of ``column`` (a name in :data:`COLUMNS`), ``compute`` (a function of the
    columns returning one value per player, in C-level passes) and ``head_to_head`` says how
    it ranks; higher ranks first.
    """

    key: str
    label: Text
    explain: Callable[[PlayerFigures], Text]
    column: str | None = None
    compute: Callable[[Columns], list[float] | list[int]] | None = None
    head_to_head: bool = False
    display: Display = "plain"
    revision: int = 1

    @property
    def has_value(self) -> bool:
        """False for head-to-head: no per-player value to show in a column."""
        return self.display != "none"


def percent_text(value: float | int | None) -> str:
    """0.6123 -> "61.2%"; None -> "—"."""
    if value is None:
        return "—"
    return f"{float(value) * 100:.1f}%"


def floor_text(floor: float) -> str:
    """0.33 -> "33%"."""
    return f"{floor * 100:g}%"
