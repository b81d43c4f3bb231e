"""Games as plugins: what the site needs to know about a game, looked up by its key.

Django apps call `get_game(event.game)` and use what it returns (modes, formats, match
structures, deck validation, replay); nothing outside engine/ branches on a game's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class GameMode:
    key: str
    label: str


@dataclass(frozen=True, slots=True)
class FormatChoice:
    key: str
    label: str
    mode: str


@dataclass(frozen=True, slots=True)
class MatchStructure:
    key: str
    label: str
    games_to_win: int

    @property
    def max_games(self) -> int:
        return self.games_to_win * 2 - 1


BEST_OF_ONE = MatchStructure("bo1", "Best of 1", 1)
BEST_OF_THREE = MatchStructure("bo3", "Best of 3", 2)


@dataclass(frozen=True, slots=True)
class GamePlugin:
    key: str
    name: str
    modes: tuple[GameMode, ...]
    match_structures: tuple[MatchStructure, ...]
    # Loaded lazily so that importing the registry stays cheap and free of the engines.
    load_formats: Callable[[], tuple[FormatChoice, ...]] = field(repr=False)
    load_deck_rules: Callable[[], Any] = field(repr=False)
    # Swiss tiebreakers after match points, in order (names of tournaments.standings).
    tiebreakers: tuple[str, ...] = ("omw", "gw", "ogw")
    # Trophies per game, when the game records them per battle (BoBA: seven battles).
    battles_per_game: int | None = None

    def formats(self) -> tuple[FormatChoice, ...]:
        return self.load_formats()

    def deck_rules(self) -> Any:
        """The game's deck rules: catalog import, decklist parsing, validation, export."""
        return self.load_deck_rules()

    def format(self, key: str) -> FormatChoice | None:
        return next((f for f in self.formats() if f.key == key), None)

    def mode(self, key: str) -> GameMode | None:
        return next((m for m in self.modes if m.key == key), None)

    def match_structure(self, key: str) -> MatchStructure | None:
        return next((s for s in self.match_structures if s.key == key), None)


def _boba_deck_rules() -> Any:
    from engine.boba.deck_plugin import DECK_RULES

    return DECK_RULES


def _boba_formats() -> tuple[FormatChoice, ...]:
    from engine.boba.deckbuilding.formats import FORMAT_PRESETS

    return tuple(
        FormatChoice(key, fmt.name, fmt.game_mode.value) for key, fmt in FORMAT_PRESETS.items()
    )


BOBA = GamePlugin(
    key="boba",
    name="Bo Jackson Battle Arena",
    modes=(
        GameMode("rookie", "Rookie"),
        GameMode("substitution", "Substitution"),
        GameMode("playmaker", "Playmaker"),
    ),
    match_structures=(BEST_OF_ONE, BEST_OF_THREE),
    load_formats=_boba_formats,
    load_deck_rules=_boba_deck_rules,
    # Battle differential last: trophies are BoBA's own measure of a close game.
    tiebreakers=("omw", "gw", "ogw", "battle_diff"),
    battles_per_game=7,
)

GAMES: dict[str, GamePlugin] = {BOBA.key: BOBA}


class UnknownGame(KeyError):
    pass


def get_game(key: str) -> GamePlugin:
    try:
        return GAMES[key]
    except KeyError:
        raise UnknownGame(f"Unknown game '{key}'. Known games: {', '.join(GAMES)}.") from None


def game_choices() -> list[tuple[str, str]]:
    return [(game.key, game.name) for game in GAMES.values()]
