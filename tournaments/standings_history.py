"""The standings' history as columns, and its validation.

Pure code, like :mod:`tournaments.standings` (which re-exports :func:`validate_history`); the
vocabulary is that module's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, compress, count, repeat
from operator import attrgetter, is_, is_not
from typing import Any, NamedTuple, TypeVar

from tournaments.standings_types import MatchRecord, Player, StateError, check_counts

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
_T = TypeVar("_T")


class RoundColumns(NamedTuple):
    """One round's matches as columns; byes apart, with the games each bye records."""

    a: Sequence[str]
    b: Sequence[str]
    results: Sequence[str]
    games: Sequence[tuple[int, int, int]]
    penalties: Sequence[tuple[int, int]]
    battles: Sequence[tuple[int, int] | None]
    kinds: list[int]  # each match's kind, a number into History.kinds
    byes: list[str]
    bye_results: list[str]
    # each bye's own games (won, lost, drawn), (0, 0, 0) when it records none (then it is
    # worth Scoring.bye_games): a stage's byes are worth its own structure's match win
    bye_games: list[tuple[int, int, int]]


class History(NamedTuple):
    rounds: list[RoundColumns]
    kinds: dict[int, MatchKind]  # by number
    # False when some games or penalties were not tuples (lists are valid, but not hashable:
    # their kinds were taken from tuple copies) or not even sequences (kinds left out)
    plain: bool


def history_columns(rounds: Sequence[Sequence[MatchRecord]]) -> History:
    numbering: dict[MatchKind, int] = {}
    numbers = count()
    plain = True
    columns = []
    for matches in rounds:
        byes: list[str] = []
        bye_results: list[str] = []
        bye_games: list[tuple[int, int, int]] = []
        # one pass reading every field, then the fields as columns
        by_field: list[Sequence[Any]] = list(zip(*map(_MATCH_FIELDS, matches), strict=True))
        a, b, results, games, penalties, battles = by_field or [()] * 6
        at = _bye_positions(b)
        if at:
            # The byes (a few a round) taken out of every column by slicing around them.
            byes, bye_results = [a[i] for i in at], [results[i] for i in at]
            bye_games = [games[i] for i in at]
            a, b, results, games, penalties, battles = (_without(column, at) for column in by_field)
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
            RoundColumns(
                a, b, results, games, penalties, battles, kinds, byes, bye_results, bye_games
            )
        )
    return History(columns, {number: kind for kind, number in numbering.items()}, plain)


def _bye_positions(b: Sequence[object]) -> list[int]:
    """Where ``b`` is None: found by the sequence's own scan (a few byes among thousands of
    matches), never a Python call per match."""
    found: list[int] = []
    start = 0
    while True:
        try:
            i = b.index(None, start)
        except ValueError:
            return found
        if b[i] is None:  # (an object merely equal to None is no bye)
            found.append(i)
        start = i + 1


def _without(column: Sequence[_T], positions: list[int]) -> tuple[_T, ...]:
    """The column without the items at ``positions`` (ascending)."""
    parts: list[_T] = []
    start = 0
    for i in positions:
        parts += column[start:i]
        start = i + 1
    parts += column[start:]
    return tuple(parts)


def only_types(values: Iterable[object], *types: type) -> bool:
    """True when every value is exactly of one of ``types`` (no subclass: bool is no int)."""
    return set(map(type, values)).issubset(types)


# --- validation ---------------------------------------------------------------------------------


def validate_history(players: Sequence[Player], rounds: Sequence[Sequence[MatchRecord]]) -> None:
    """Raise :class:`StateError` unless players and rounds are consistent.

    Checks: unique non-empty ids; every match names known players, nobody twice in a round,
    nobody against himself, results and game counts well formed and not contradicting each
    other, and no match before a player's late-entry round.
    """
    validate_columns(players, rounds, history_columns(rounds))


def validate_columns(
    players: Sequence[Player], rounds: Sequence[Sequence[MatchRecord]], history: History
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
    if len(known) != len(ids) or not only_types(ids, str) or "" in known:
        return False
    entry_rounds = list(map(attrgetter("late_entry_round"), players))
    if entry_rounds and (not only_types(entry_rounds, int) or min(entry_rounds) < 1):
        return False
    tables = list(map(attrgetter("fixed_table"), players))
    if not only_types(tables, int, type(None)):
        return False
    tables = list(compress(tables, map(is_not, tables, repeat(None))))
    if tables and min(tables) < 1:
        return False
    if not only_types(map(attrgetter("late_entry_losses"), players), bool):
        return False
    # (a loop over the players with byes granted at registration, not over every player)
    for i in compress(range(len(players)), map(attrgetter("bye_rounds"), players)):
        player = players[i]
        if player.bye_rounds:
            try:
                _check_bye_rounds(player, f"players[{i}].bye_rounds")
            except StateError:
                return False
    return True


def _rounds_plainly_valid(players: Sequence[Player], history: History) -> bool:
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
            or not all(map(_plain_bye_games, col.bye_games))
        ):
            return False
        if late and not present.isdisjoint(pid for entry, pid in late if entry > number):
            return False
    # Types in bulk, value by value: a kind stands for all its matches, but True equals 1
    # and 2.0 equals 2, so only the exact types tell them apart.
    columns = history.rounds
    games = list(chain.from_iterable(c.games for c in columns))
    if not (only_types(games, tuple) and only_types(chain.from_iterable(games), int)):
        return False
    penalties = list(chain.from_iterable(c.penalties for c in columns))
    if not all(map(is_, penalties, repeat(_NO_PENALTIES))) and not (
        only_types(penalties, tuple) and only_types(chain.from_iterable(penalties), int)
    ):
        return False
    all_battles = list(chain.from_iterable(c.battles for c in columns))
    battles: list[tuple[int, int]] = (
        list(compress(all_battles, map(is_not, all_battles, repeat(None))))  # type: ignore[arg-type]
        # (none recorded, as in every game without battles: the list's own count says so)
        if all_battles.count(None) != len(all_battles)
        else []
    )
    if battles and not (
        only_types(battles, tuple)
        and set(map(len, battles)) == {2}
        and only_types(chain.from_iterable(battles), int)
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
                if not _plain_bye_games(match.games):
                    raise StateError(
                        f"rounds[{r}][{m}].games",
                        "a bye's games must be 3 non-negative integers, won not below lost",
                    )
                continue
            path = f"rounds[{r}][{m}]"
            check_counts(match.games, 3, f"{path}.games")
            check_counts(match.penalty_game_losses, 2, f"{path}.penalties")
            if match.battles is not None:
                check_counts(match.battles, 2, f"{path}.battles")
            won_a, won_b, _ = match.effective_games()
            if (
                (result == "a" and won_b > won_a)
                or (result == "b" and won_a > won_b)
                or (result == "draw" and won_a != won_b)
            ):
                raise StateError(f"{path}.games", f"games contradict result {result!r}")


def _plain_bye_games(games: object) -> bool:
    """A bye's games: (0, 0, 0) (worth ``Scoring.bye_games``) or the games it is worth, a
    match win (won not below lost)."""
    return (
        type(games) is tuple
        and len(games) == 3
        and only_types(games, int)
        and min(games) >= 0
        and games[0] >= games[1]
    )


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
