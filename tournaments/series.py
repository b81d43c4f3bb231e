"""Series (leagues, seasons, circuits): points tables and the leaderboard.

Pure code: no Django. The contract is ../shared/spec/event-structures.md, section Series
(cited as ``event-structures: Series``): a series gathers events and ranks players by points
earned from their final placings, summed by player id over the events whose placings are final,
"rank order, ties sharing a rank".

Notes on terminology
--------------------
points table
    The contract's ``"points": {"1": 10, "2": 8, "3-4": 6, "5-8": 4, "played": 1}``
    (:class:`PointsTable`): a key is a place or an inclusive range of places; ``played`` is what
    every other player who played gets (0 when absent).
league table
    The other way a series can count (issue 22: "league-style"): points per match won, per match
    drawn and per event played (:class:`LeagueTable`), for stores whose leagues reward showing up.
ranks
    Standard competition ranking: players level on points share a rank and the next rank skips
    (10, 10, 8 rank 1, 1, 3). Level players are listed by player id so the order is stable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from engine.errors import BattledeskError

CITE_SERIES: Final = "event-structures: Series"
MAX_PLACE: Final = 100_000
MAX_POINTS: Final = 100_000
MAX_KEYS: Final = 64
PLAYED: Final = "played"
_PLACE_KEY = re.compile(r"^([1-9][0-9]{0,5})(?:-([1-9][0-9]{0,5}))?$")


class SeriesError(BattledeskError, ValueError):
    """A refused points table: ``field`` names the key, e.g. ``points["3-4"]``."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


@dataclass(frozen=True)
class PlaceBand:
    """Places ``first`` to ``last`` (inclusive) earn ``points`` each."""

    first: int
    last: int
    points: int

    @property
    def key(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass(frozen=True)
class PointsTable:
    """Points by final place; bands sorted and never overlapping (:func:`parse_points_table`)."""

    bands: tuple[PlaceBand, ...]
    played: int = 0

    def points_for(self, place: int) -> int:
        for band in self.bands:
            if band.first <= place <= band.last:
                return band.points
        return self.played

    def to_json(self) -> dict[str, int]:
        out = {band.key: band.points for band in self.bands}
        if self.played:
            out[PLAYED] = self.played
        return out


@dataclass(frozen=True)
class LeagueTable:
    """League-style points: per match won, per match drawn, per event played."""

    win: int = 3
    draw: int = 1
    played: int = 0

    def points_for(self, wins: int, draws: int) -> int:
        return self.win * wins + self.draw * draws + self.played

    def to_json(self) -> dict[str, int]:
        return {"win": self.win, "draw": self.draw, PLAYED: self.played}


def _points_value(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise SeriesError(field, f"{field}: whole points from 0 to {MAX_POINTS}.")
    return value


def parse_points_table(value: object, path: str = "points") -> PointsTable:
    """Check the contract's points table; refuse bad keys, values and overlapping ranges."""
    if not isinstance(value, Mapping) or not value:
        raise SeriesError(path, f'{path}: an object of places and points, e.g. {{"1": 10}}.')
    if len(value) > MAX_KEYS:
        raise SeriesError(path, f"{path}: at most {MAX_KEYS} keys.")
    bands: list[PlaceBand] = []
    played = 0
    for key, points in value.items():
        field = f'{path}["{key}"]'
        if key == PLAYED:
            played = _points_value(points, field)
            continue
        match = _PLACE_KEY.match(key) if isinstance(key, str) else None
        if match is None:
            raise SeriesError(field, f'{field}: a place ("3") or a range of places ("5-8").')
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if last < first or last > MAX_PLACE:
            raise SeriesError(field, f"{field}: a range runs from a place up to {MAX_PLACE}.")
        bands.append(PlaceBand(first, last, _points_value(points, field)))
    if not bands:
        raise SeriesError(path, f"{path}: name at least one place.")
    bands.sort(key=lambda band: band.first)
    for before, after in pairwise(bands):
        if after.first <= before.last:
            field = f'{path}["{after.key}"]'
            raise SeriesError(field, f"{field}: overlaps places {before.key}.")
    return PointsTable(tuple(bands), played)


def parse_league_table(value: object, path: str = "league") -> LeagueTable:
    """``{"win": 3, "draw": 1, "played": 1}``; every key optional, no other key."""
    if not isinstance(value, Mapping):
        raise SeriesError(path, f'{path}: an object like {{"win": 3, "draw": 1, "played": 0}}.')
    unknown = sorted(set(value) - {"win", "draw", PLAYED})
    if unknown:
        raise SeriesError(f"{path}.{unknown[0]}", f"{path}.{unknown[0]}: unknown key.")
    defaults = LeagueTable()
    return LeagueTable(
        win=_points_value(value.get("win", defaults.win), f"{path}.win"),
        draw=_points_value(value.get("draw", defaults.draw), f"{path}.draw"),
        played=_points_value(value.get(PLAYED, defaults.played), f"{path}.{PLAYED}"),
    )


@dataclass(frozen=True)
class EventResult:
    """One player's final outcome in one event of the series.

    ``place`` comes from the event's final placings; ``wins`` and ``draws`` count its matches
    (for a league table). ``name`` is the name the player had in that event.
    """

    event: str
    player_id: str
    name: str
    place: int
    wins: int = 0
    draws: int = 0


@dataclass(frozen=True)
class EventPoints:
    event: str
    place: int
    points: int


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    player_id: str
    name: str
    points: int
    events: tuple[EventPoints, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "player_id": self.player_id,
            "name": self.name,
            "points": self.points,
            "events": len(self.events),
        }


def leaderboard(
    table: PointsTable | LeagueTable, results: Iterable[EventResult]
) -> tuple[LeaderboardRow, ...]:
    """Each player's points summed over the events given, by player id, in rank order.

    ``results`` lists the events in series order; a player's name is the one of their latest
    event. A player listed twice in one event is an error (placings give one row each).
    """
    totals: dict[str, int] = {}
    names: dict[str, str] = {}
    per_event: dict[str, list[EventPoints]] = {}
    seen: set[tuple[str, str]] = set()
    for result in results:
        if (result.event, result.player_id) in seen:
            raise SeriesError(
                "events", f"events: player {result.player_id} twice in event {result.event}."
            )
        seen.add((result.event, result.player_id))
        if isinstance(table, PointsTable):
            points = table.points_for(result.place)
        else:
            points = table.points_for(result.wins, result.draws)
        totals[result.player_id] = totals.get(result.player_id, 0) + points
        names[result.player_id] = result.name
        per_event.setdefault(result.player_id, []).append(
            EventPoints(result.event, result.place, points)
        )
    order = sorted(totals, key=lambda player: (-totals[player], player))
    rows: list[LeaderboardRow] = []
    for index, player in enumerate(order):
        tied = rows and rows[-1].points == totals[player]
        rank = rows[-1].rank if tied else index + 1
        rows.append(
            LeaderboardRow(rank, player, names[player], totals[player], tuple(per_event[player]))
        )
    return tuple(rows)
