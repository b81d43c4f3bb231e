"""A row's opponent lines and tiebreaker values (OpponentLines, TiebreakerValues: built when
first read) behave like the tuples they replace: the reference core builds those tuples, and
every caller reads the rows the same way."""

from __future__ import annotations

import pickle
from dataclasses import replace

from tests.tournaments import standings_reference as reference
from tests.tournaments.swiss_sim import simulate
from tournaments import standings
from tournaments.standings import OpponentLine, OpponentLines, StandingRow, TiebreakerValues


def _rows() -> tuple[list[StandingRow], list[StandingRow]]:
    players, rounds = simulate(60, 5, seed=7)
    return standings.compute_standings(players, rounds), reference.compute_standings(
        players, rounds
    )


def test_lines_equal_the_reference_tuple_both_ways_with_its_hash_and_repr() -> None:
    fast, slow = _rows()
    for row, expected in zip(fast, slow, strict=True):
        lines = row.opponents
        assert isinstance(lines, OpponentLines)
        assert type(expected.opponents) is tuple
        assert len(lines) == len(expected.opponents)  # known before the lines are built
        assert lines == expected.opponents
        assert expected.opponents == lines
        assert hash(lines) == hash(expected.opponents)
        assert repr(lines) == repr(expected.opponents)
        values = row.tiebreakers
        assert isinstance(values, TiebreakerValues)
        assert type(expected.tiebreakers) is tuple
        assert len(values) == len(expected.tiebreakers) == 3  # omw, gw, ogw
        assert values == expected.tiebreakers and expected.tiebreakers == values
        assert hash(values) == hash(expected.tiebreakers)
        assert repr(values) == repr(expected.tiebreakers)
        assert dict(values) == dict(expected.tiebreakers)
        assert row == expected and hash(row) == hash(expected)


def test_lines_read_like_a_tuple() -> None:
    fast, slow = _rows()
    row = next(r for r in fast if len(r.opponents) >= 3)
    expected = next(r for r in slow if r.player_id == row.player_id).opponents
    assert list(row.opponents) == list(expected)
    assert row.opponents[0] == expected[0] and row.opponents[-1] == expected[-1]
    assert row.opponents[1:] == expected[1:]
    assert expected[2] in row.opponents
    assert row.opponents.index(expected[1]) == 1
    assert row.opponents != expected[1:]
    assert row.opponents != list(expected)  # a tuple is never equal to a list either


def test_lines_of_different_players_differ() -> None:
    fast, _ = _rows()
    assert fast[0].opponents != fast[1].opponents
    assert fast[0].tiebreakers != fast[1].tiebreakers
    assert fast[0].opponents == OpponentLines(tuple(fast[0].opponents))
    assert fast[0].tiebreakers == TiebreakerValues(tuple(fast[0].tiebreakers))


def test_no_tiebreakers_is_an_empty_tuple() -> None:
    players, rounds = simulate(12, 3, seed=5)
    rows = standings.compute_standings(players, rounds, tiebreakers=())
    assert all(row.tiebreakers == () and len(row.tiebreakers) == 0 for row in rows)
    assert repr(rows) == repr(reference.compute_standings(players, rounds, tiebreakers=()))


def test_a_pickled_row_carries_its_own_lines_only() -> None:
    fast, _ = _rows()
    row = fast[0]
    again = pickle.loads(pickle.dumps(row))
    assert again == row and repr(again) == repr(row)
    assert isinstance(again.opponents, OpponentLines)
    assert isinstance(again.tiebreakers, TiebreakerValues)
    # the shared columns (every player's slots) stay behind: the row pickles about as small
    # as the same row holding a tuple of its lines
    as_tuple = pickle.dumps(
        replace(row, opponents=tuple(row.opponents), tiebreakers=tuple(row.tiebreakers))
    )
    assert len(pickle.dumps(row)) < 1.5 * len(as_tuple)


def test_rows_can_be_replaced_and_built_by_hand() -> None:
    fast, _ = _rows()
    row = replace(fast[0], rank=99)
    assert row.rank == 99 and row.opponents == fast[0].opponents
    line = OpponentLine(1, "x", "win", (2, 0, 0), 0.5, 0.5)
    by_hand = replace(fast[0], opponents=(line,))
    assert by_hand.opponents == (line,) and by_hand != fast[0]
