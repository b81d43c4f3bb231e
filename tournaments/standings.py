"""Swiss standings: match points, tiebreakers and each player's breakdown.

Pure code: no Django, no I/O, no randomness. The Django services turn models into the frozen
dataclasses below, call :func:`compute_standings`, and store or show the rows.

Notes on terminology
--------------------
match
    One pairing in one round, between players ``a`` and ``b``, with a ``result`` ("a", "b" or
    "draw") and the games inside it (won by a, won by b, drawn).
bye
    A round in which a player has no opponent. It counts as a match win (``Scoring.win``
    match points) and as ``Scoring.bye_games`` games (2-0 by default) for the player's own
    points and game-win %, but it is *not* an opponent: it never enters anyone's OMW% or OGW%.
match points
    3 for a win (or a bye), 1 for a draw, 0 for a loss, by default (:class:`Scoring`).
score group
    All players on the same number of match points.
rounds played
    The rounds in which a player had a match or a bye. A late entry (a player whose
    ``late_entry_round`` is k) has no rounds before k and is not given losses for them
    ("joining at zero"), unless ``Player.late_entry_losses`` is set: then each finished round
    before k counts as a played round lost (``Scoring.loss`` match points, games
    ``Scoring.bye_games`` reversed, 0-2 by default), with no opponent. A dropped player has no
    rounds after the drop. Percentages are over rounds played.
pre-assigned bye
    ``Player.bye_rounds``: rounds for which the player was granted a bye at registration. The
    pairing leaves him out of those rounds; the finished round records the bye like any other
    (a :class:`MatchRecord` with ``b=None``).
match-win % (MW%)
    match points / (``Scoring.win`` x rounds played), at least the floor; a bye is a match win.
game-win % (GW%)
    game points / (3 x games played), at least the floor; a game win is 3 game points, a drawn
    game 1, a bye 2-0. Games lost to a penalty (``MatchRecord.penalty_game_losses``) count as games
    won by the opponent.
floor
    A player's MW% and GW% are never below ``Scoring.floor`` (0.33): the Magic Tournament Rules,
    Appendix C, define both percentages with "if this number is lower than 0.33, use 0.33
    instead". The issue names the floor for the opponents' numbers and is silent on the
    player's own GW%, so the MTR definition holds there too: two players whose game-win %
    are both below 0.33 tie on GW%.
OMW% / OGW%
    Opponents' match-win % / game-win %: the mean of each opponent's (floored) MW% / GW%, one
    entry per match played (byes excluded). Dropped players stay in the standings and in their
    opponents' OMW% and OGW%. A player with no opponent at all (only byes) gets the floor.
battle differential
    BoBA only: trophies won minus trophies lost over all games, from ``MatchRecord.battles``.
head-to-head
    Applied only to exactly two players still tied when it is reached: the one with the better
    record in their matches against each other ranks higher.
shared rank
    Players tied on points and every tiebreaker share a rank (1, 2, 2, 4).
"""

from __future__ import annotations

import gc
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import accumulate, chain, compress, count, cycle, repeat
from operator import (
    add,
    and_,
    attrgetter,
    is_,
    is_not,
    itemgetter,
    mul,
    ne,
    not_,
    rshift,
    setitem,
    sub,
    truediv,
)
from typing import Any, Literal, NamedTuple, Protocol, TypeVar, overload

import tournaments.tiebreakers as tiebreaker_registry
from engine.errors import BattledeskError
from engine.tiebreaker_entry import Column, TiebreakerEntry

Result = Literal["a", "b", "draw"]

# The tiebreakers are the registry's (tournaments.tiebreakers): these names read it.
TIEBREAKERS: tuple[str, ...] = tiebreaker_registry.keys()
DEFAULT_TIEBREAKERS: tuple[str, ...] = tiebreaker_registry.DEFAULT_ORDER

_T = TypeVar("_T")

# Values are compared after rounding, so that two averages equal in exact arithmetic are equal
# here too (floating-point sums of different fractions can differ in the last bits).
_KEY_DIGITS = 9


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

    ``games`` are (won by a, won by b, drawn) as played; ``penalty_game_losses`` are games lost
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
        _check_counts(self.bye_games, 2, f"{path}.bye_games")
        if not 0 <= self.floor <= 1:
            raise StateError(f"{path}.floor", "must be between 0 and 1")


class OpponentLine(NamedTuple):
    """One match in a player's breakdown, seen from the player's side (a tuple: cheap)."""

    round: int
    opponent: str
    result: Literal["win", "loss", "draw"]
    games: tuple[int, int, int]  # won, lost, drawn (penalties included)
    opponent_match_win_pct: float  # floored, as used in OMW%
    opponent_game_win_pct: float  # floored, as used in OGW%


_Item = TypeVar("_Item", covariant=True)


class _Source(Protocol[_Item]):
    """Where a row's items come from: the standings' shared columns."""

    def items(self, player: int) -> tuple[_Item, ...]: ...

    def count(self, player: int) -> int: ...


class _BuiltOnRead(Sequence[_Item]):
    """A row's tuple of items, built from the standings' shared columns when first read.

    It behaves like the tuple of the same items: equal to it (and to an equal one of its
    kind), the same hash and repr, and it pickles as its items alone, never the columns it
    reads from. :func:`compute_standings` fills the slots itself (``_new_rows``): a source and
    a player, nothing built yet.
    """

    __slots__ = ("_built", "_player", "_source")

    def __init__(self, items: Iterable[_Item] = ()) -> None:
        self._source: _Source[_Item] | None = None
        self._player = 0
        self._built: tuple[_Item, ...] | None = tuple(items)

    def _items(self) -> tuple[_Item, ...]:
        built = self._built
        if built is None:
            assert self._source is not None
            built = self._built = self._source.items(self._player)
            self._source = None  # the row no longer needs the columns
        return built

    def __len__(self) -> int:
        if self._built is None and self._source is not None:
            return self._source.count(self._player)
        return len(self._items())

    @overload
    def __getitem__(self, index: int) -> _Item: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[_Item, ...]: ...
    def __getitem__(self, index: int | slice) -> _Item | tuple[_Item, ...]:
        return self._items()[index]

    def __iter__(self) -> Iterator[_Item]:
        return iter(self._items())

    def __contains__(self, value: object) -> bool:
        return value in self._items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _BuiltOnRead) and type(other) is type(self):
            return self._items() == other._items()
        if isinstance(other, tuple):
            return self._items() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._items())

    def __repr__(self) -> str:
        return repr(self._items())

    def __reduce__(self) -> tuple[type[_BuiltOnRead[_Item]], tuple[tuple[_Item, ...]]]:
        return (type(self), (self._items(),))


class OpponentLines(_BuiltOnRead[OpponentLine]):
    """A player's breakdown lines, as a tuple of :class:`OpponentLine` built when first read.

    :func:`compute_standings` makes one per row instead of a tuple of lines: at 4,096 players
    the ~45,000 lines were a third of the call's objects, and most rows' lines are never read
    (a page shows one player's; the stored snapshot reads them all, once).
    """

    __slots__ = ()


class TiebreakerValues(_BuiltOnRead[tuple[str, float | int | None]]):
    """A player's (tiebreaker, value) pairs in the event's order, built when first read."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's line in the standings, with everything needed to explain it."""

    rank: int
    player_id: str
    points: int
    wins: int
    losses: int
    draws: int
    byes: int
    rounds_played: int
    dropped: bool
    match_win_pct: float
    game_win_pct: float
    opponents_match_win_pct: float
    opponents_game_win_pct: float
    battle_differential: int
    games: tuple[int, int, int]  # won, lost, drawn, byes and penalties included
    trophies: tuple[int, int]  # won, lost
    # a tuple, or the equal TiebreakerValues that compute_standings gives
    tiebreakers: Sequence[tuple[str, float | int | None]]
    # a tuple, or the equal OpponentLines that compute_standings gives (built when first read)
    opponents: Sequence[OpponentLine]
    bye_rounds: tuple[int, ...] = field(default=())
    # rounds before a late entry counted as losses (``Player.late_entry_losses``)
    late_entry_loss_rounds: tuple[int, ...] = field(default=())

    @property
    def record(self) -> str:
        """Wins-losses-draws, byes counted as wins."""
        return f"{self.wins}-{self.losses}-{self.draws}"


def _check_counts(value: object, size: int, path: str) -> None:
    if (
        not isinstance(value, tuple | list)
        or len(value) != size
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise StateError(path, f"must be {size} non-negative integers")


# --- the history as columns ---------------------------------------------------------------------
#
# The core reads the history a round at a time as columns (every match's a, b, result, ...) and
# does the per-match work with C-level builtins (map, zip, set, compress, sum) instead of a
# Python loop per match: at 4,096 players and 12 rounds that halves the time and the
# instructions of the loop-per-match core it replaced (issue 19; docs/swiss.md has the figures),
# with the same numbers. A match's "kind" is its
# (result, games, penalties): real events have a handful of kinds (2-0, 2-1, 1-1 draws...), so
# what follows from them is worked out once per kind, not once per match.

_ID = attrgetter("id")
_A = attrgetter("a")
_B = attrgetter("b")
_RESULT = attrgetter("result")
_MATCH_FIELDS = attrgetter("a", "b", "result", "games", "penalty_game_losses", "battles")
_VALID_RESULTS = frozenset(("a", "b", "draw"))
# MatchRecord's default penalties: one object, shared by every record that has none.
_NO_PENALTIES = MatchRecord("-").penalty_game_losses

MatchKind = tuple[str, tuple[int, int, int], tuple[int, int]]


class _RoundColumns(NamedTuple):
    """One round's matches as columns; byes apart (their games are never read)."""

    a: Sequence[str]
    b: Sequence[str]
    results: Sequence[str]
    games: Sequence[tuple[int, int, int]]
    penalties: Sequence[tuple[int, int]]
    battles: Sequence[tuple[int, int] | None]
    kinds: list[int]  # each match's kind, a number into _History.kinds
    byes: list[str]
    bye_results: list[str]


class _History(NamedTuple):
    rounds: list[_RoundColumns]
    kinds: dict[int, MatchKind]  # by number
    # False when some games or penalties were not tuples (lists are valid, but not hashable:
    # their kinds were taken from tuple copies) or not even sequences (kinds left out)
    plain: bool


def _columns(rounds: Sequence[Sequence[MatchRecord]]) -> _History:
    numbering: dict[MatchKind, int] = {}
    numbers = count()
    plain = True
    columns = []
    for matches in rounds:
        byes: list[str] = []
        bye_results: list[str] = []
        b_column = list(map(_B, matches))
        if None in b_column:
            is_bye = list(map(is_, b_column, repeat(None)))
            bye_records = list(compress(matches, is_bye))
            byes, bye_results = list(map(_A, bye_records)), list(map(_RESULT, bye_records))
            matches = list(compress(matches, map(not_, is_bye)))
        # one pass reading every field, then the fields as columns
        by_field: list[tuple[Any, ...]] = list(zip(*map(_MATCH_FIELDS, matches), strict=True))
        a, b, results, games, penalties, battles = by_field or [()] * 6
        try:
            kinds = list(
                map(numbering.setdefault, zip(results, games, penalties, strict=False), numbers)
            )
        except TypeError:
            plain = False
            try:
                copies = (
                    (r, tuple(g), tuple(p))
                    for r, g, p in zip(results, games, penalties, strict=False)
                )
                kinds = list(map(numbering.setdefault, copies, numbers))
            except TypeError:  # not even sequences: validation names the field
                kinds = []
        columns.append(
            _RoundColumns(a, b, results, games, penalties, battles, kinds, byes, bye_results)
        )
    return _History(columns, {number: kind for kind, number in numbering.items()}, plain)


def _only(values: Iterable[object], *types: type) -> bool:
    """True when every value is exactly of one of ``types`` (no subclass: bool is no int)."""
    return set(map(type, values)).issubset(types)


# --- validation ---------------------------------------------------------------------------------


def validate_history(players: Sequence[Player], rounds: Sequence[Sequence[MatchRecord]]) -> None:
    """Raise :class:`StateError` unless players and rounds are consistent.

    Checks: unique non-empty ids; every match names known players, nobody twice in a round,
    nobody against himself, results and game counts well formed and not contradicting each
    other, and no match before a player's late-entry round.
    """
    _validate(players, rounds, _columns(rounds))


def _validate(
    players: Sequence[Player], rounds: Sequence[Sequence[MatchRecord]], history: _History
) -> None:
    # A check of the whole history in bulk answers for nearly every real one; only when it
    # doubts does the match-by-match walk run, to name the first bad field (or clear it).
    if not (_players_plainly_valid(players) and _rounds_plainly_valid(players, history)):
        _validate_in_detail(players, rounds)


def _players_plainly_valid(players: Sequence[Player]) -> bool:
    """True only if :func:`_validate_in_detail` accepts the players (False may be wrong the
    other way: then the detailed walk decides)."""
    ids = list(map(_ID, players))
    known = set(ids)
    if len(known) != len(ids) or not _only(ids, str) or "" in known:
        return False
    entry_rounds = list(map(attrgetter("late_entry_round"), players))
    if entry_rounds and (not _only(entry_rounds, int) or min(entry_rounds) < 1):
        return False
    tables = list(map(attrgetter("fixed_table"), players))
    if not _only(tables, int, type(None)):
        return False
    tables = list(compress(tables, map(is_not, tables, repeat(None))))
    if tables and min(tables) < 1:
        return False
    if not _only(map(attrgetter("late_entry_losses"), players), bool):
        return False
    for i, player in enumerate(players):
        if player.bye_rounds:
            try:
                _check_bye_rounds(player, f"players[{i}].bye_rounds")
            except StateError:
                return False
    return True


def _rounds_plainly_valid(players: Sequence[Player], history: _History) -> bool:
    """True only if :func:`_validate_in_detail` accepts the rounds, the players being valid."""
    if not history.plain:
        return False
    known = set(map(_ID, players))
    late = [(p.late_entry_round, p.id) for p in players if p.late_entry_round > 1]
    for number, col in enumerate(history.rounds, start=1):
        present = set(col.a)
        present.update(col.b)
        present.update(col.byes)
        if (
            len(present) != len(col.a) + len(col.b) + len(col.byes)  # nobody twice
            or not known.issuperset(present)
            or not set(col.bye_results).issubset(("a",))
        ):
            return False
        if late and not present.isdisjoint(pid for entry, pid in late if entry > number):
            return False
    # Types in bulk, value by value: a kind stands for all its matches, but True equals 1
    # and 2.0 equals 2, so only the exact types tell them apart.
    columns = history.rounds
    games = list(chain.from_iterable(c.games for c in columns))
    if not (_only(games, tuple) and _only(chain.from_iterable(games), int)):
        return False
    penalties = list(chain.from_iterable(c.penalties for c in columns))
    if not all(map(is_, penalties, repeat(_NO_PENALTIES))) and not (
        _only(penalties, tuple) and _only(chain.from_iterable(penalties), int)
    ):
        return False
    all_battles = list(chain.from_iterable(c.battles for c in columns))
    battles: list[tuple[int, int]] = list(
        compress(all_battles, map(is_not, all_battles, repeat(None)))  # type: ignore[arg-type]
    )
    if battles and not (
        _only(battles, tuple)
        and set(map(len, battles)) == {2}
        and _only(chain.from_iterable(battles), int)
        and min(chain.from_iterable(battles)) >= 0
    ):
        return False
    for result, games_, penalties_ in history.kinds.values():
        if result not in _VALID_RESULTS or len(games_) != 3 or len(penalties_) != 2:
            return False
        if min(games_) < 0 or min(penalties_) < 0:
            return False
        won_a, won_b = games_[0] + penalties_[1], games_[1] + penalties_[0]
        if (
            (result == "a" and won_b > won_a)
            or (result == "b" and won_a > won_b)
            or (result == "draw" and won_a != won_b)
        ):
            return False
    return True


def _validate_in_detail(players: Sequence[Player], rounds: Sequence[Sequence[MatchRecord]]) -> None:
    """Walk the history match by match and raise on the first bad field."""
    known: dict[str, Player] = {}
    for i, player in enumerate(players):
        if not isinstance(player.id, str) or not player.id:
            raise StateError(f"players[{i}].id", "must be a non-empty string")
        if player.id in known:
            raise StateError(f"players[{i}].id", f"duplicate id {player.id!r}")
        if not isinstance(player.late_entry_round, int) or player.late_entry_round < 1:
            raise StateError(f"players[{i}].late_entry_round", "must be an integer >= 1")
        if player.fixed_table is not None and (
            not isinstance(player.fixed_table, int)
            or isinstance(player.fixed_table, bool)
            or player.fixed_table < 1
        ):
            raise StateError(f"players[{i}].fixed_table", "must be a positive integer or null")
        if player.bye_rounds:
            _check_bye_rounds(player, f"players[{i}].bye_rounds")
        if not isinstance(player.late_entry_losses, bool):
            raise StateError(f"players[{i}].late_entry_losses", "must be true or false")
        known[player.id] = player
    for r, matches in enumerate(rounds):
        seen: set[str] = set()
        for m, match in enumerate(matches):
            for side, pid in (("a", match.a), ("b", match.b)):
                if pid is None and side == "b":
                    continue
                entrant = known.get(pid)  # type: ignore[arg-type]
                if entrant is None or pid in seen or entrant.late_entry_round > r + 1:
                    path = f"rounds[{r}][{m}].{side}"
                    if entrant is None:
                        raise StateError(path, f"unknown player {pid!r}")
                    if pid in seen:
                        raise StateError(path, f"player {pid!r} is twice in round {r + 1}")
                    raise StateError(
                        path, f"player {pid!r} entered in round {entrant.late_entry_round}"
                    )
                seen.add(pid)  # type: ignore[arg-type]
            result = match.result
            if result not in ("a", "b", "draw") or (match.b is None and result != "a"):
                raise StateError(f"rounds[{r}][{m}].result", 'must be "a", "b" or "draw"')
            if match.b is None:
                continue
            path = f"rounds[{r}][{m}]"
            _check_counts(match.games, 3, f"{path}.games")
            _check_counts(match.penalty_game_losses, 2, f"{path}.penalties")
            if match.battles is not None:
                _check_counts(match.battles, 2, f"{path}.battles")
            won_a, won_b, _ = match.effective_games()
            if (
                (result == "a" and won_b > won_a)
                or (result == "b" and won_a > won_b)
                or (result == "draw" and won_a != won_b)
            ):
                raise StateError(f"{path}.games", f"games contradict result {result!r}")


def _check_bye_rounds(player: Player, path: str) -> None:
    rounds = player.bye_rounds
    if not isinstance(rounds, tuple | list):
        raise StateError(path, "must be a list of round numbers")
    for k, r in enumerate(rounds):
        if not isinstance(r, int) or isinstance(r, bool) or r < 1:
            raise StateError(f"{path}[{k}]", "must be a round number >= 1")
        if r in rounds[:k]:
            raise StateError(f"{path}[{k}]", f"duplicate round {r}")
        if r < player.late_entry_round:
            raise StateError(
                f"{path}[{k}]",
                f"round {r} is before the late-entry round {player.late_entry_round}",
            )


# --- totals -------------------------------------------------------------------------------------
#
# Every player has one slot per round in flat, player-major lists (slot = player index x rounds
# + round - 1): the opponent met there, and the "side" (the result and games seen from the
# player). A side also carries its counts (wins, losses, draws, games won, lost, drawn) packed
# into one integer, ``width`` bits a field: the sum of a player's sides is then his packed
# totals, one C-level ``sum`` per player. The width holds the largest total any field can reach
# (the largest count of one side times the rounds), so no field ever carries into the next.

_FIELDS = ("wins", "losses", "draws", "games_won", "games_lost", "games_drawn")


class _Side(NamedTuple):
    result: Literal["win", "loss", "draw"] | None  # None: no match that round
    games: tuple[int, int, int]  # won, lost, drawn, penalties included
    packed: int  # the _FIELDS counts, packed


_PACKED = itemgetter(2)  # _Side.packed, read as a tuple item (faster than the property)


class _Packer:
    """Packs a side's counts into one integer, and a player's summed sides back into counts."""

    def __init__(self, largest: int, n_rounds: int) -> None:
        self.width = (largest * n_rounds).bit_length() + 1
        self.shifts = [self.width * k for k in range(len(_FIELDS))]

    def side(
        self,
        result: Literal["win", "loss", "draw"] | None,
        games: tuple[int, int, int],
    ) -> _Side:
        counts = (result == "win", result == "loss", result == "draw", *games)
        return _Side(
            result, games, sum(int(c) << s for c, s in zip(counts, self.shifts, strict=False))
        )

    def unpack(self, packed: list[int]) -> dict[str, list[int]]:
        mask = (1 << self.width) - 1
        return {
            name: list(map(and_, map(rshift, packed, repeat(shift)), repeat(mask)))
            for name, shift in zip(_FIELDS, self.shifts, strict=False)
        }


def _kind_sides(packer: _Packer, kind: MatchKind) -> tuple[_Side, _Side]:
    """Both sides of a match of this kind (result, games, penalties): a's and b's."""
    result, games, penalties = kind
    won_a, won_b, drawn = games[0] + penalties[1], games[1] + penalties[0], games[2]
    if result == "a":
        return packer.side("win", (won_a, won_b, drawn)), packer.side("loss", (won_b, won_a, drawn))
    if result == "b":
        return packer.side("loss", (won_a, won_b, drawn)), packer.side("win", (won_b, won_a, drawn))
    return packer.side("draw", (won_a, won_b, drawn)), packer.side("draw", (won_b, won_a, drawn))


class _Totals(NamedTuple):
    """Every player's totals, as columns in ``players`` order, and the slots behind them."""

    ids: list[str]
    n_rounds: int  # slots per player
    opponents: list[str | None]  # by slot
    sides: list[_Side]  # by slot
    counts: dict[str, list[int]]  # by _FIELDS name
    trophies_won: list[int]
    trophies_lost: list[int]
    bye_rounds: dict[int, list[int]]  # by player index, only players with a bye
    late_loss_rounds: dict[int, tuple[int, ...]]  # by player index, only those with some
    battles_recorded: bool  # False: every trophy count is 0


def _scatter(target: list[_T], slots: Iterable[int], values: Iterable[_T]) -> None:
    """``target[slot] = value`` for each pair, in C: map drives setitem, an empty deque drains it."""
    deque(map(setitem, repeat(target), slots, values), maxlen=0)


def _per_player(values: Iterable[int], n_rounds: int) -> list[int]:
    """Sums of consecutive runs of ``n_rounds`` slots: one total per player."""
    return list(map(sum, zip(*[iter(values)] * n_rounds, strict=False)))


def _accumulate(players: Sequence[Player], history: _History, scoring: Scoring) -> _Totals:
    ids = list(map(_ID, players))
    columns = history.rounds
    n_rounds = max(len(columns), 1)
    slot_of = dict(zip(ids, range(0, len(ids) * n_rounds, n_rounds), strict=False))

    bye_won, bye_lost = scoring.bye_games
    kinds = history.kinds.values()
    largest = max(
        chain(
            (1, bye_won, bye_lost),
            (g[0] + p[1] for _, g, p in kinds),
            (g[1] + p[0] for _, g, p in kinds),
            (g[2] for _, g, _ in kinds),
        )
    )
    packer = _Packer(largest, n_rounds)
    side_a: dict[int, _Side] = {}
    side_b: dict[int, _Side] = {}
    for number, kind in history.kinds.items():
        side_a[number], side_b[number] = _kind_sides(packer, kind)

    no_side = packer.side(None, (0, 0, 0))
    opponents: list[str | None] = [None] * (len(ids) * n_rounds)
    sides = [no_side] * (len(ids) * n_rounds)
    trophies: list[tuple[list[int], list[int], Sequence[tuple[int, int] | None]]] = []

    # Late entries with losses: every finished round before the entry is a round lost, games
    # as a bye reversed, and nobody's opponent.
    late_side = packer.side("loss", (bye_lost, bye_won, 0))
    late_loss_rounds: dict[int, tuple[int, ...]] = {}
    for index, player in enumerate(players):
        if player.late_entry_losses and player.late_entry_round > 1:
            lost = tuple(range(1, min(player.late_entry_round - 1, len(columns)) + 1))
            if lost:
                late_loss_rounds[index] = lost
                for r in lost:
                    sides[index * n_rounds + r - 1] = late_side

    bye_side = packer.side("win", (bye_won, bye_lost, 0))
    bye_rounds: dict[int, list[int]] = {}
    for r, col in enumerate(columns):
        for pid in col.byes:
            sides[slot_of[pid] + r] = bye_side
            bye_rounds.setdefault(slot_of[pid] // n_rounds, []).append(r + 1)
        if not col.a:
            continue
        slots_a = list(map(add, map(slot_of.__getitem__, col.a), repeat(r)))
        slots_b = list(map(add, map(slot_of.__getitem__, col.b), repeat(r)))
        _scatter(opponents, slots_a, col.b)
        _scatter(opponents, slots_b, col.a)
        _scatter(sides, slots_a, map(side_a.__getitem__, col.kinds))
        _scatter(sides, slots_b, map(side_b.__getitem__, col.kinds))
        if col.battles.count(None) != len(col.battles):
            trophies.append((slots_a, slots_b, col.battles))

    packed = _per_player(map(_PACKED, sides), n_rounds)
    trophies_won = trophies_lost = [0] * len(ids)
    if trophies:
        won_by_slot = [0] * len(sides)
        lost_by_slot = [0] * len(sides)
        for slots_a, slots_b, battles in trophies:
            recorded = [(0, 0) if t is None else t for t in battles]
            by_a = list(map(itemgetter(0), recorded))
            by_b = list(map(itemgetter(1), recorded))
            _scatter(won_by_slot, slots_a, by_a)
            _scatter(lost_by_slot, slots_a, by_b)
            _scatter(won_by_slot, slots_b, by_b)
            _scatter(lost_by_slot, slots_b, by_a)
        trophies_won = _per_player(won_by_slot, n_rounds)
        trophies_lost = _per_player(lost_by_slot, n_rounds)
    return _Totals(
        ids,
        n_rounds,
        opponents,
        sides,
        packer.unpack(packed),
        trophies_won,
        trophies_lost,
        bye_rounds,
        late_loss_rounds,
        bool(trophies),
    )


# --- percentages, ranking and rows ---------------------------------------------------------------


class _Standings(NamedTuple):
    """Totals, percentages and tiebreakers as columns in ``players`` order, and the order."""

    totals: _Totals
    points: list[int]
    rounds_played: list[int]
    match_win: list[float]  # floored, as shown and as used in OMW%
    game_win: list[float]  # floored
    omw: list[float]
    ogw: list[float]
    battle_diff: list[int]
    # each tiebreaker's values in the event's order (None for head-to-head: no value)
    tiebreaker_values: list[Sequence[float | int | None]]
    line_starts: list[int]  # each player's first line among the lines below
    line_ends: list[int]  # each player's end of lines
    match_win_of: dict[str | None, float]  # floored MW% by player id, as used in OMW%
    game_win_of: dict[str | None, float]  # floored GW% by player id
    order: list[int]  # player indices in standings order
    ranks: list[int]  # the rank of each place in ``order``


def _compute(
    players: Sequence[Player],
    history: _History,
    scoring: Scoring,
    order: Sequence[TiebreakerEntry],
) -> _Standings:
    totals = _accumulate(players, history, scoring)
    counts = totals.counts
    floor = scoring.floor
    win, draw, loss = scoring.win, scoring.draw, scoring.loss
    game_win, game_draw = scoring.game_win, scoring.game_draw
    wins, losses, draws = counts["wins"], counts["losses"], counts["draws"]
    won, lost, drawn = counts["games_won"], counts["games_lost"], counts["games_drawn"]

    points = [win * w + draw * d + loss * lo for w, d, lo in zip(wins, draws, losses, strict=False)]
    played = [w + lo + d for w, lo, d in zip(wins, losses, draws, strict=False)]  # a bye is a win
    # MTR Appendix C: "If this number is lower than 0.33, use 0.33 instead", for the match-win %
    # and the game-win % alike, the player's own GW% tiebreaker included.
    match_win = [
        m if m > floor else floor
        for m in (p / (win * r) if r else 0.0 for p, r in zip(points, played, strict=False))
    ]
    game_win_pct = [
        g if g > floor else floor
        for g in (
            (game_win * w + game_draw * d) / (game_win * (w + lo + d)) if w + lo + d else 0.0
            for w, lo, d in zip(won, lost, drawn, strict=False)
        )
    ]

    # Each match against an opponent is one line of the player's breakdown, in slot order (by
    # player, then round); OMW% and OGW% are means over a player's lines, byes excluded.
    ids = totals.ids
    # keyed by the slots' opponents: an id, or None where there is none (never a key)
    match_win_of: dict[str | None, float] = dict(zip(ids, match_win, strict=False))
    game_win_of: dict[str | None, float] = dict(zip(ids, game_win_pct, strict=False))
    # a player's lines: his rounds played but for byes and late-entry losses
    line_counts = played.copy()
    for i, numbers in chain(totals.bye_rounds.items(), totals.late_loss_rounds.items()):
        line_counts[i] -= len(numbers)
    line_ends = list(accumulate(line_counts))
    line_starts = [0, *line_ends[:-1]] if line_ends else []
    # The sum of a player's slots, 0 where he met no opponent, is the sum of his lines in round
    # order: adding 0 changes no sum (nor its type).
    omw = _means(
        map(match_win_of.get, totals.opponents, repeat(0)), totals.n_rounds, line_counts, floor
    )
    ogw = _means(
        map(game_win_of.get, totals.opponents, repeat(0)), totals.n_rounds, line_counts, floor
    )
    # the row's trophy balance (StandingRow.battle_differential), whatever the tiebreakers
    battle_diff = list(map(sub, totals.trophies_won, totals.trophies_lost))

    # The columns a registered tiebreaker ranks by or computes from (engine.tiebreaker_entry).
    columns: dict[str, Column] = {
        "points": points,
        "rounds_played": played,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "games_won": won,
        "games_lost": lost,
        "games_drawn": drawn,
        "match_win": match_win,
        "game_win": game_win_pct,
        "omw": omw,
        "ogw": ogw,
        "trophies_won": totals.trophies_won,
        "trophies_lost": totals.trophies_lost,
    }
    # Values are compared after rounding (see _KEY_DIGITS); whole numbers as they are.
    criteria: list[Sequence[float]] = [points]
    tiebreaker_values: list[Sequence[float | int | None]] = []
    for entry in order:
        if entry.head_to_head:
            criteria.append(_head_to_head_column(totals, criteria))
            tiebreaker_values.append([None] * len(ids))
            continue
        if entry.column is not None:
            column = columns[entry.column]
        else:
            assert entry.compute is not None
            column = entry.compute(columns)
        tiebreaker_values.append(column)
        criteria.append(
            column if _only(column, int) else list(map(round, column, repeat(_KEY_DIGITS)))
        )
    ranked, ranks = _rank(ids, criteria)
    return _Standings(
        totals,
        points,
        played,
        match_win,
        game_win_pct,
        omw,
        ogw,
        battle_diff,
        tiebreaker_values,
        line_starts,
        line_ends,
        match_win_of,
        game_win_of,
        ranked,
        ranks,
    )


def _means(
    by_slot: Iterable[float | None], n_rounds: int, sizes: list[int], empty: float
) -> list[float]:
    """Each player's sum of his ``n_rounds`` slots (summed in order, as ``sum`` does) over his
    count in ``sizes``, or ``empty`` for a count of 0."""
    sums = map(sum, zip(*[iter(by_slot)] * n_rounds, strict=False))
    means: list[float] = list(map(truediv, sums, map(max, sizes, repeat(1))))
    if 0 in sizes:
        for i in compress(range(len(sizes)), map(not_, sizes)):
            means[i] = empty
    return means


def _head_to_head_column(totals: _Totals, before: Sequence[Sequence[float]]) -> list[int]:
    """Head-to-head as a criterion: among exactly two players tied on every criterion before
    it, 1 for the one with the better record against the other; 0 for everyone else."""
    tied_on = list(zip(*before, strict=False))
    sizes = Counter(tied_on)
    pairs: dict[tuple[float, ...], list[int]] = {}
    for index, key in enumerate(tied_on):
        if sizes[key] == 2:
            pairs.setdefault(key, []).append(index)
    column = [0] * len(tied_on)
    for x, y in pairs.values():
        net = _head_to_head(totals, x, y)
        if net:
            column[x if net > 0 else y] = 1
    return column


def _head_to_head(totals: _Totals, x: int, y: int) -> int:
    """Net match result of player x against player y: > 0 if x did better."""
    net = 0
    y_id = totals.ids[y]
    first = x * totals.n_rounds
    for slot in range(first, first + totals.n_rounds):
        if totals.opponents[slot] == y_id:
            result = totals.sides[slot].result
            net += 1 if result == "win" else -1 if result == "loss" else 0
    return net


def _rank(ids: Sequence[str], criteria: Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
    """Player indices in standings order (every criterion descending, then id), and the rank
    of each place: players equal on every criterion share the rank of the first of them."""
    # Stable sorts from the last criterion to the first: one C-level sort per criterion.
    ranked = list(range(len(ids)))
    for values in reversed(criteria):
        ranked.sort(key=values.__getitem__, reverse=True)
    keys = list(zip(*criteria, strict=True))
    in_order = list(map(keys.__getitem__, ranked))
    # a place starts a new rank when its key differs from the place before; the others share
    # the rank of the run's first place (the running maximum of the places that start one)
    starts = list(map(ne, in_order, [None, *in_order[:-1]]))
    ranks: list[int] = list(accumulate(map(mul, starts, count(1)), max))
    # Full ties are listed by id: sort each run of a shared rank (few, and short).
    tied = list(compress(range(len(starts)), map(not_, starts)))
    i = 0
    while i < len(tied):
        end = i
        while end + 1 < len(tied) and tied[end + 1] == tied[end] + 1:
            end += 1
        first, last = tied[i] - 1, tied[end] + 1
        ranked[first:last] = sorted(ranked[first:last], key=ids.__getitem__)
        i = end + 1
    return ranked, ranks


def compute_standings(
    players: Sequence[Player],
    rounds: Sequence[Sequence[MatchRecord]],
    scoring: Scoring | None = None,
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
    *,
    validate: bool = True,
) -> list[StandingRow]:
    """Rank every player (dropped ones included) by match points, then ``tiebreakers`` in order.

    ``tiebreakers`` is any order of the registered tiebreakers' keys (tournaments.tiebreakers:
    "omw", "gw", "ogw", "h2h", and the games' own, such as BoBA's "battle_diff"). Players tied
    on everything share a rank and are listed by id.
    """
    with _collector_paused():
        return _standings(players, rounds, scoring or Scoring(), tiebreakers, validate)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Hold the cyclic garbage collector off while the standings are built.

    The collector runs after every 700 new container objects and walks every young one. The
    call makes lists of the whole history on the way (tens of thousands of objects at 4,096
    players) that reference counting frees anyway: paused, no collection walks them. What
    stays is the output, about 13,000 objects at 4,096 players (a row, its lazy opponent
    lines and tiebreaker values, and a few hundred shared game counts), walked once at the
    next collection. Nothing here makes a reference cycle, so nothing waits for the
    collector. It is switched back on only if it was on: a caller that turned it off keeps
    it off.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _standings(
    players: Sequence[Player],
    rounds: Sequence[Sequence[MatchRecord]],
    scoring: Scoring,
    tiebreakers: Sequence[str],
    validate: bool,
) -> list[StandingRow]:
    history = _columns(rounds)
    if validate:
        scoring.validate()
        _validate(players, rounds, history)
    order = _check_tiebreakers(tiebreakers)
    s = _compute(players, history, scoring, order)
    totals, counts = s.totals, s.totals.counts

    tiebreaker_source = _TiebreakerSource([e.key for e in order], s.tiebreaker_values)
    n = len(players)
    source = _LineSource(s)
    byes = [0] * n
    bye_rounds: list[tuple[int, ...]] = [()] * n
    for i, numbers in totals.bye_rounds.items():
        byes[i], bye_rounds[i] = len(numbers), tuple(numbers)
    late_loss_rounds: list[tuple[int, ...]] = [()] * n
    for i, lost in totals.late_loss_rounds.items():
        late_loss_rounds[i] = lost
    # by player, in ``players`` order; the rank is set once the rows are in standings order
    rows = _new_rows(
        StandingRow,
        n,
        {
            "player_id": totals.ids,
            "points": s.points,
            "wins": counts["wins"],
            "losses": counts["losses"],
            "draws": counts["draws"],
            "byes": byes,
            "rounds_played": s.rounds_played,
            "dropped": map(_DROPPED, players),
            "match_win_pct": s.match_win,
            "game_win_pct": s.game_win,
            "opponents_match_win_pct": s.omw,
            "opponents_game_win_pct": s.ogw,
            "battle_differential": s.battle_diff,
            "games": _shared(
                zip(counts["games_won"], counts["games_lost"], counts["games_drawn"], strict=True)
            ),
            "trophies": (
                zip(totals.trophies_won, totals.trophies_lost, strict=True)
                if totals.battles_recorded
                else repeat((0, 0))
            ),
            "tiebreakers": _new_rows(
                TiebreakerValues,
                n,
                {"_source": repeat(tiebreaker_source), "_player": range(n), "_built": repeat(None)},
            ),
            "opponents": _new_rows(
                OpponentLines,
                n,
                {"_source": repeat(source), "_player": range(n), "_built": repeat(None)},
            ),
            "bye_rounds": bye_rounds,
            "late_entry_loss_rounds": late_loss_rounds,
        },
    )
    ranked = list(map(rows.__getitem__, s.order))
    _set_column(ranked, StandingRow, "rank", s.ranks)
    return ranked


_DROPPED = attrgetter("dropped")


def _shared(values: Iterable[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The values, equal ones as one object: a few hundred game counts, not a tuple per row,
    for the collector to walk. Only for whole numbers (2.0 would become 2: a different repr)."""
    column = list(values)
    first_of: dict[tuple[int, ...], tuple[int, ...]] = {}
    return list(map(first_of.setdefault, column, column))


_R = TypeVar("_R")


def _new_rows(cls: type[_R], n: int, columns: Mapping[str, Iterable[object]]) -> list[_R]:
    """``n`` new instances of ``cls`` (a class with ``__slots__``), each slot filled from its
    column: one C-level pass per column instead of an ``__init__`` call per instance.

    A frozen dataclass's ``__init__`` sets its 20 fields one ``object.__setattr__`` at a time,
    2 µs a row; the slots' own descriptors write the same values with no Python code run per
    row, and give the same rows (equal, same repr, pickled alike). Nothing runs in either
    ``__init__`` besides the assignments.
    """
    instances: list[_R] = list(map(object.__new__, repeat(cls, n)))
    for name, column in columns.items():
        _set_column(instances, cls, name, column)
    return instances


def _set_column(instances: list[_R], cls: type[_R], name: str, column: Iterable[object]) -> None:
    """``instance.name = value`` for each pair, through the slot's descriptor (frozen or not)."""
    slot = next(vars(k)[name] for k in cls.__mro__ if name in vars(k))
    deque(map(slot.__set__, instances, column), maxlen=0)


class _LineSource:
    """The columns every row's :class:`OpponentLines` reads its lines from, when first read."""

    __slots__ = (
        "every_line",
        "game_win",
        "line_ends",
        "line_starts",
        "match_win",
        "n_rounds",
        "opponents",
        "sides",
    )

    def __init__(self, s: _Standings) -> None:
        self.every_line: list[OpponentLine] | None = None
        self.line_starts, self.line_ends = s.line_starts, s.line_ends
        self.n_rounds = s.totals.n_rounds
        self.opponents = s.totals.opponents
        self.sides = s.totals.sides
        # by player, not by line: a few thousand values for the collector to walk, not ~45,000
        self.match_win = s.match_win_of
        self.game_win = s.game_win_of

    def count(self, player: int) -> int:
        return self.line_ends[player] - self.line_starts[player]

    def items(self, player: int) -> tuple[OpponentLine, ...]:
        """The player's lines (by index in ``players``), one per match against an opponent."""
        return tuple(self._every_line()[self.line_starts[player] : self.line_ends[player]])

    def _every_line(self) -> list[OpponentLine]:
        """Every player's lines, by player then round, built in one pass when the first row's
        are read: whoever reads one player's usually reads them all (the stored snapshot)."""
        if self.every_line is None:
            with _collector_paused():  # ~45,000 new tuples at 4,096 players: see there
                self.every_line = self._build_every_line()
        return self.every_line

    def _build_every_line(self) -> list[OpponentLine]:
        met = list(map(is_not, self.opponents, repeat(None)))
        met_ids: list[str] = list(compress(self.opponents, met))  # type: ignore[arg-type]
        sides = list(compress(self.sides, met))
        fields = zip(
            compress(cycle(range(1, self.n_rounds + 1)), met),
            met_ids,
            map(itemgetter(0), sides),  # _Side.result
            map(itemgetter(1), sides),  # _Side.games
            map(self.match_win.__getitem__, met_ids),
            map(self.game_win.__getitem__, met_ids),
            strict=False,  # the rounds cycle: they end with the others
        )
        # tuple.__new__ builds each NamedTuple from its fields in C, without a Python call
        return list(map(tuple.__new__, repeat(OpponentLine), fields))


class _TiebreakerSource:
    """The columns every row's :class:`TiebreakerValues` reads its pairs from; like the lines,
    every player's pairs are built in one pass when the first row's are read."""

    __slots__ = ("columns", "every_row", "names")

    def __init__(self, names: Sequence[str], columns: Sequence[Sequence[float | int | None]]):
        self.names = tuple(names)
        self.columns = columns
        self.every_row: list[tuple[tuple[str, float | int | None], ...]] | None = None

    def count(self, player: int) -> int:
        return len(self.names)

    def items(self, player: int) -> tuple[tuple[str, float | int | None], ...]:
        if self.every_row is None:
            pairs = [
                zip(repeat(name), column, strict=False)  # the name repeats for every player
                for name, column in zip(self.names, self.columns, strict=True)
            ]
            with _collector_paused():
                self.every_row = list(zip(*pairs, strict=False)) if pairs else []
        return self.every_row[player] if self.names else ()


def rank_summary(
    players: Sequence[Player],
    rounds: Sequence[Sequence[MatchRecord]],
    scoring: Scoring | None = None,
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
) -> list[tuple[int, str, int, int]]:
    """(rank, player id, match points, byes) in standings order, without the breakdowns.

    The same ranking as :func:`compute_standings`, for the pairing; input not validated.
    """
    order = _check_tiebreakers(tiebreakers)
    with _collector_paused():
        s = _compute(players, _columns(rounds), scoring or Scoring(), order)
    ids, bye_rounds = s.totals.ids, s.totals.bye_rounds
    return [
        (rank, ids[i], s.points[i], len(bye_rounds.get(i, ())))
        for rank, i in zip(s.ranks, s.order, strict=True)
    ]


def _check_tiebreakers(tiebreakers: Sequence[str]) -> tuple[TiebreakerEntry, ...]:
    try:
        return tiebreaker_registry.resolve(tiebreakers)
    except tiebreaker_registry.TiebreakerOrderError as exc:
        raise StateError(f"tiebreakers[{exc.index}]", exc.reason.render()) from None
