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
    A bye whose record gives games (``MatchRecord.games`` not 0-0-0) is worth those instead:
    an event in stages records each bye as its own stage's structure says (1-0 in a best-of-1
    day 1, 2-0 in a best-of-3 day 2), and a carried stage's standings read both.
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
from math import isnan
from operator import (
    add,
    and_,
    attrgetter,
    floordiv,
    itemgetter,
    le,
    mul,
    ne,
    not_,
    rshift,
    setitem,
    sub,
    truediv,
)
from typing import Literal, NamedTuple, Protocol, TypeVar, overload

import tournaments.tiebreakers as tiebreaker_registry
from engine.tiebreaker_entry import Column, TiebreakerEntry

# The input types and the history's validation live in their own modules; their public names
# are this module's too, where callers have always imported them.
from tournaments.standings_history import (
    History,
    MatchKind,
    history_columns,
    only_types,
    validate_columns,
    validate_history,
)
from tournaments.standings_types import (
    MatchRecord,
    Player,
    Result,
    Scoring,
    StateError,
    bye,
)

__all__ = [
    "DEFAULT_TIEBREAKERS",
    "TIEBREAKERS",
    "MatchKind",
    "MatchRecord",
    "OpponentLine",
    "OpponentLines",
    "Player",
    "Result",
    "Scoring",
    "StandingRow",
    "StateError",
    "TiebreakerValues",
    "bye",
    "compute_standings",
    "rank_summary",
    "validate_history",
]

# The tiebreakers are the registry's (tournaments.tiebreakers): these names read it.
TIEBREAKERS: tuple[str, ...] = tiebreaker_registry.keys()
DEFAULT_TIEBREAKERS: tuple[str, ...] = tiebreaker_registry.DEFAULT_ORDER

_T = TypeVar("_T")

# Values are compared after rounding, so that two averages equal in exact arithmetic are equal
# here too (floating-point sums of different fractions can differ in the last bits).
_KEY_DIGITS = 9

_ID = attrgetter("id")
_LATE_ENTRY_LOSSES = attrgetter("late_entry_losses")
_NO_GAMES = (0, 0, 0)  # a bye recording no games of its own: worth Scoring.bye_games


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

    # ``_built`` is left unset until the items are built: one slot fewer to fill per row.
    __slots__ = ("_built", "_player", "_source")

    def __init__(self, items: Iterable[_Item] = ()) -> None:
        self._source: _Source[_Item] | None = None
        self._player = 0
        self._built: tuple[_Item, ...] = tuple(items)

    def _items(self) -> tuple[_Item, ...]:
        source = self._source
        if source is None:
            return self._built
        built = self._built = source.items(self._player)
        self._source = None  # the row no longer needs the columns
        return built

    def __len__(self) -> int:
        source = self._source
        if source is not None:
            return source.count(self._player)
        return len(self._built)

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
    # by slot: the first slot of the opponent met there (his index x n_rounds), or
    # ``no_opponent`` (players x n_rounds, past the last slot) where he met none
    opponents: list[int]
    sides: list[_Side]  # by slot
    counts: dict[str, list[int]]  # by _FIELDS name
    trophies_won: list[int]
    trophies_lost: list[int]
    bye_rounds: dict[int, list[int]]  # by player index, only players with a bye
    late_loss_rounds: dict[int, tuple[int, ...]]  # by player index, only those with some
    battles_recorded: bool  # False: every trophy count is 0

    @property
    def no_opponent(self) -> int:
        return len(self.ids) * self.n_rounds

    def by_first_slot(self, values: Sequence[_T]) -> list[_T | int]:
        """Each player's value at his first slot, 0 at ``no_opponent``: indexed by the
        ``opponents`` column, a list read instead of a dict by id."""
        end = self.no_opponent
        column: list[_T | int] = [0] * (end + 1)
        column[0 : end : self.n_rounds] = values
        return column


def _scatter(target: list[_T], slots: Iterable[int], values: Iterable[_T]) -> None:
    """``target[slot] = value`` for each pair, in C: map drives setitem, an empty deque drains it."""
    deque(map(setitem, repeat(target), slots, values), maxlen=0)


def _per_player(values: Iterable[int], n_rounds: int) -> list[int]:
    """Sums of consecutive runs of ``n_rounds`` slots: one total per player."""
    return list(map(sum, zip(*[iter(values)] * n_rounds, strict=False)))


def _accumulate(players: Sequence[Player], history: History, scoring: Scoring) -> _Totals:
    ids = list(map(_ID, players))
    columns = history.rounds
    n_rounds = max(len(columns), 1)
    slot_of = dict(zip(ids, range(0, len(ids) * n_rounds, n_rounds), strict=False))

    bye_won, bye_lost = scoring.bye_games
    kinds = history.kinds.values()
    # A bye recording its own games (a stage's structure) is worth those; the rest are worth
    # the scoring's. (A few byes a round: a loop over them.)
    own_bye_games = [g for col in history.rounds for g in col.bye_games if g != _NO_GAMES]
    largest = max(
        chain(
            (1, bye_won, bye_lost),
            chain.from_iterable(own_bye_games),
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
    no_opponent = len(ids) * n_rounds
    opponents = [no_opponent] * no_opponent
    sides = [no_side] * (len(ids) * n_rounds)
    trophies: list[tuple[list[int], list[int], Sequence[tuple[int, int] | None]]] = []

    # Late entries with losses: every finished round before the entry is a round lost, games
    # as a bye reversed, and nobody's opponent.
    late_side = packer.side("loss", (bye_lost, bye_won, 0))
    late_loss_rounds: dict[int, tuple[int, ...]] = {}
    # (a loop over the few players with late-entry losses, not over every player)
    for index in compress(range(len(players)), map(_LATE_ENTRY_LOSSES, players)):
        player = players[index]
        if player.late_entry_round > 1:
            lost = tuple(range(1, min(player.late_entry_round - 1, len(columns)) + 1))
            if lost:
                late_loss_rounds[index] = lost
                for r in lost:
                    sides[index * n_rounds + r - 1] = late_side

    bye_side = packer.side("win", (bye_won, bye_lost, 0))
    own_bye_sides = {g: packer.side("win", g) for g in own_bye_games}
    bye_rounds: dict[int, list[int]] = {}
    for r, col in enumerate(columns):
        for pid, games in zip(col.byes, col.bye_games, strict=True):
            sides[slot_of[pid] + r] = own_bye_sides.get(games, bye_side)
            bye_rounds.setdefault(slot_of[pid] // n_rounds, []).append(r + 1)
        if not col.a:
            continue
        first_a = list(map(slot_of.__getitem__, col.a))
        first_b = list(map(slot_of.__getitem__, col.b))
        slots_a = list(map(add, first_a, repeat(r)))
        slots_b = list(map(add, first_b, repeat(r)))
        _scatter(opponents, slots_a, first_b)
        _scatter(opponents, slots_b, first_a)
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
    # floored MW% and GW% as used in OMW% and OGW%, by first slot (_Totals.by_first_slot)
    match_win_at: list[float | int]
    game_win_at: list[float | int]
    order: list[int]  # player indices in standings order
    ranks: list[int]  # the rank of each place in ``order``


def _compute(
    players: Sequence[Player],
    history: History,
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

    # Per distinct record and per distinct game count, not per player: a few hundred
    # formulas at 4,096 players, each value the same expression gives for every such player.
    records = list(zip(wins, losses, draws, strict=True))
    record_values = {
        (w, lo, d): (win * w + draw * d + loss * lo, w + lo + d) for w, lo, d in set(records)
    }  # points, rounds played (a bye is a win)
    points = list(map(itemgetter(0), map(record_values.__getitem__, records)))
    played = list(map(itemgetter(1), map(record_values.__getitem__, records)))
    # MTR Appendix C: "If this number is lower than 0.33, use 0.33 instead", for the match-win %
    # and the game-win % alike, the player's own GW% tiebreaker included.
    match_win_by_record = {}
    for key, (p, r) in record_values.items():
        m = p / (win * r) if r else 0.0
        match_win_by_record[key] = m if m > floor else floor
    match_win = list(map(match_win_by_record.__getitem__, records))
    game_counts = list(zip(won, lost, drawn, strict=True))
    game_win_by_count = {}
    for w, lo, d in set(game_counts):
        g = (game_win * w + game_draw * d) / (game_win * (w + lo + d)) if w + lo + d else 0.0
        game_win_by_count[w, lo, d] = g if g > floor else floor
    game_win_pct = list(map(game_win_by_count.__getitem__, game_counts))

    # Each match against an opponent is one line of the player's breakdown, in slot order (by
    # player, then round); OMW% and OGW% are means over a player's lines, byes excluded.
    ids = totals.ids
    # read through the slots' opponents: 0 where there is none
    match_win_at = totals.by_first_slot(match_win)
    game_win_at = totals.by_first_slot(game_win_pct)
    # a player's lines: his rounds played but for byes and late-entry losses
    line_counts = played.copy()
    for i, numbers in chain(totals.bye_rounds.items(), totals.late_loss_rounds.items()):
        line_counts[i] -= len(numbers)
    line_ends = list(accumulate(line_counts))
    line_starts = [0, *line_ends[:-1]] if line_ends else []
    # The sum of a player's slots, 0 where he met no opponent, is the sum of his lines in round
    # order: adding 0 changes no sum (nor its type).
    omw = _means(
        map(match_win_at.__getitem__, totals.opponents), totals.n_rounds, line_counts, floor
    )
    ogw = _means(
        map(game_win_at.__getitem__, totals.opponents), totals.n_rounds, line_counts, floor
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
        criteria.append(_ranking_key(column))
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
        match_win_at,
        game_win_at,
        ranked,
        ranks,
    )


# Values further apart than this stay apart when rounded to _KEY_DIGITS digits (below).
_APART = 2e-9


def _ranking_key(column: Sequence[float | int]) -> Sequence[float | int]:
    """The column as the ranking compares it: in the order and with the ties of its values
    rounded to ``_KEY_DIGITS`` digits (whole numbers as they are).

    Rounding a float to 9 digits (``round``) formats it in decimal: 4,096 of them cost more than
    the sort. Only the order and the equalities of the rounded values decide anything, so a
    column of floats between 0 and 1 (the percentages) rounds only the values within
    ``_APART`` of another one and keeps the others as they are. Exact: ``round(x, 9)`` is
    within 0.5e-9 + 2**-53 of x there, so two values more than 2e-9 apart round to two values
    in the same order, never equal, and a value kept as it is orders against any rounded one
    as its rounded self would.
    """
    if only_types(column, int):
        return column
    if not only_types(column, float):
        return list(map(round, column, repeat(_KEY_DIGITS)))
    distinct = sorted(set(column))
    if not distinct or any(map(isnan, distinct)) or not 0.0 <= distinct[0] <= distinct[-1] <= 1.0:
        return list(map(round, column, repeat(_KEY_DIGITS)))
    near = compress(
        range(len(distinct) - 1), map(le, map(sub, distinct[1:], distinct[:-1]), repeat(_APART))
    )
    rounded: dict[float, float] = {}
    for i in near:
        for value in distinct[i : i + 2]:
            rounded[value] = round(value, _KEY_DIGITS)
    return list(map(rounded.get, column, column)) if rounded else column


def _means(
    by_slot: Iterable[float | None], n_rounds: int, sizes: list[int], empty: float
) -> list[float]:
    """Each player's sum of his ``n_rounds`` slots (summed in order, as ``sum`` does) over his
    count in ``sizes``, or ``empty`` for a count of 0."""
    sums = map(sum, zip(*[iter(by_slot)] * n_rounds, strict=False))
    if 0 not in sizes:
        return list(map(truediv, sums, sizes))
    # a count of 0 divides 0 by 1 (its sum is 0), then the value is ``empty``
    means: list[float] = list(map(truediv, sums, [size or 1 for size in sizes]))
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
    y_first = y * totals.n_rounds
    first = x * totals.n_rounds
    for slot in range(first, first + totals.n_rounds):
        if totals.opponents[slot] == y_first:
            result = totals.sides[slot].result
            net += 1 if result == "win" else -1 if result == "loss" else 0
    return net


def _rank(ids: Sequence[str], criteria: Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
    """Player indices in standings order (every criterion descending, then id), and the rank
    of each place: players equal on every criterion share the rank of the first of them."""
    # One stable sort by every criterion at once (the tuple of a player's values): the same
    # order as stable sorts from the last criterion to the first, in one C-level sort.
    keys = list(zip(*criteria, strict=True))
    ranked = sorted(range(len(ids)), key=keys.__getitem__, reverse=True)
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
    history = history_columns(rounds)
    if validate:
        scoring.validate()
        validate_columns(players, rounds, history)
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
                {"_source": repeat(tiebreaker_source), "_player": range(n)},
            ),
            "opponents": _new_rows(
                OpponentLines,
                n,
                {"_source": repeat(source), "_player": range(n)},
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
        "ids",
        "line_ends",
        "line_starts",
        "match_win",
        "n_rounds",
        "no_opponent",
        "opponents",
        "sides",
    )

    def __init__(self, s: _Standings) -> None:
        self.every_line: list[OpponentLine] | None = None
        self.line_starts, self.line_ends = s.line_starts, s.line_ends
        self.n_rounds = s.totals.n_rounds
        self.ids = s.totals.ids
        self.opponents = s.totals.opponents
        self.no_opponent = s.totals.no_opponent
        self.sides = s.totals.sides
        # by player, not by line: a few thousand values for the collector to walk, not ~45,000
        self.match_win = s.match_win_at
        self.game_win = s.game_win_at

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
        met = list(map(ne, self.opponents, repeat(self.no_opponent)))
        met_firsts = list(compress(self.opponents, met))
        sides = list(compress(self.sides, met))
        fields = zip(
            compress(cycle(range(1, self.n_rounds + 1)), met),
            map(self.ids.__getitem__, map(floordiv, met_firsts, repeat(self.n_rounds))),
            map(itemgetter(0), sides),  # _Side.result
            map(itemgetter(1), sides),  # _Side.games
            map(self.match_win.__getitem__, met_firsts),
            map(self.game_win.__getitem__, met_firsts),
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
        s = _compute(players, history_columns(rounds), scoring or Scoring(), order)
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
