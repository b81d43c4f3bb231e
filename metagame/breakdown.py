"""The metagame breakdown: each archetype's share of the field, results and matchups (pure).

Input: the archetype of every counted list (`entrants`: entrant -> archetype name; only
published lists are counted, so other entrants are absent) and the event's final matches.

- *share*: an archetype's lists over all counted lists;
- *match win rate*: matches won over matches played against *other* archetypes (a draw is
  played, not won). Mirror matches are left out (a mirror is always one win and one loss for
  the archetype), and so are byes and matches against a player whose list is not counted;
- *battle win rate* (games with trophies: BoBA): trophies won over trophies played in the same
  matches, where the result carries them;
- the *matrix*: for every ordered pair of different archetypes, the first's wins, losses and
  draws against the second; each archetype's mirror matches are counted apart.

Rates are exact fractions (`Fraction`); `to_json` rounds them to four places, None when there
is nothing to divide.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A final match: its two entrants (b None for a bye), games (a's wins, b's wins, drawn)
    and, when recorded, the trophies of each game ((a, b) per game)."""

    a: int
    b: int | None
    games: tuple[int, int, int]
    trophies: tuple[tuple[int, int], ...] | None = None

    @property
    def winner(self) -> str:
        wins_a, wins_b, _drawn = self.games
        if wins_a > wins_b:
            return "a"
        if wins_b > wins_a:
            return "b"
        return "draw"


@dataclass(slots=True)
class Record:
    won: int = 0
    lost: int = 0
    drawn: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost + self.drawn

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.won, self.played) if self.played else None

    def add(self, outcome: str) -> None:
        if outcome == "won":
            self.won += 1
        elif outcome == "lost":
            self.lost += 1
        else:
            self.drawn += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "won": self.won,
            "lost": self.lost,
            "drawn": self.drawn,
            "win_rate": rate(self.win_rate),
        }


@dataclass(slots=True)
class ArchetypeRow:
    name: str
    players: int
    share: Fraction
    matches: Record = field(default_factory=Record)
    battles_won: int = 0
    battles_played: int = 0
    mirrors: int = 0
    against: dict[str, Record] = field(default_factory=dict)

    @property
    def battle_win_rate(self) -> Fraction | None:
        return Fraction(self.battles_won, self.battles_played) if self.battles_played else None

    def to_json(self) -> dict[str, Any]:
        return {
            "archetype": self.name,
            "players": self.players,
            "share": rate(self.share),
            "matches": self.matches.to_json(),
            "match_win_rate": rate(self.matches.win_rate),
            "battles_won": self.battles_won,
            "battles_played": self.battles_played,
            "battle_win_rate": rate(self.battle_win_rate),
            "mirror_matches": self.mirrors,
            "against": [
                {"archetype": name, **record.to_json()}
                for name, record in sorted(self.against.items())
            ],
        }


@dataclass(frozen=True, slots=True)
class Breakdown:
    lists: int
    rows: tuple[ArchetypeRow, ...]

    def row(self, name: str) -> ArchetypeRow:
        return next(r for r in self.rows if r.name == name)

    def to_json(self) -> dict[str, Any]:
        return {"lists": self.lists, "archetypes": [r.to_json() for r in self.rows]}


def rate(value: Fraction | None) -> float | None:
    return None if value is None else round(float(value), 4)


def _outcome(result: MatchResult, side: str) -> str:
    winner = result.winner
    if winner == "draw":
        return "drawn"
    return "won" if winner == side else "lost"


def breakdown(entrants: Mapping[int, str], results: Iterable[MatchResult]) -> Breakdown:
    """The breakdown of `entrants`' archetypes over `results` (see the module's rules)."""
    counts: dict[str, int] = {}
    for name in entrants.values():
        counts[name] = counts.get(name, 0) + 1
    total = len(entrants)
    rows = {
        name: ArchetypeRow(name, n, Fraction(n, total) if total else Fraction(0))
        for name, n in counts.items()
    }
    for result in results:
        if result.b is None or result.a not in entrants or result.b not in entrants:
            continue
        names = {"a": entrants[result.a], "b": entrants[result.b]}
        if names["a"] == names["b"]:
            rows[names["a"]].mirrors += 1
            continue
        for side, other in (("a", "b"), ("b", "a")):
            row = rows[names[side]]
            outcome = _outcome(result, side)
            row.against.setdefault(names[other], Record()).add(outcome)
            row.matches.add(outcome)
            if result.trophies:
                mine = 0 if side == "a" else 1
                row.battles_won += sum(pair[mine] for pair in result.trophies)
                row.battles_played += sum(pair[0] + pair[1] for pair in result.trophies)
    ordered = sorted(rows.values(), key=lambda r: (-r.players, r.name))
    return Breakdown(total, tuple(ordered))


def merge_entrants(parts: Sequence[Mapping[int, str]]) -> dict[int, str]:
    """Several events' entrants as one (entrant ids are unique across events)."""
    out: dict[int, str] = {}
    for part in parts:
        out.update(part)
    return out
