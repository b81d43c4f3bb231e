"""The fast standings core against the reference (the core as it was before issue 19).

Random histories, valid and broken: the same rows to the last bit and type (compared through
``repr``, so 0 and 0.0 differ), the same ranking for the pairing, the same error on the same
field. Histories are small, so ties, rematches (head-to-head), byes, drops, late entries,
penalties and BoBA battles all come up often.
"""

from __future__ import annotations

import pickle
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments import standings_reference as reference
from tests.tournaments.swiss_sim import simulate
from tournaments import standings
from tournaments.standings import TIEBREAKERS, MatchRecord, Player, Scoring, StateError

History = tuple[list[Player], list[list[MatchRecord]]]


@st.composite
def scorings(draw: st.DrawFn) -> Scoring:
    win = draw(st.integers(1, 3))
    points = sorted(draw(st.lists(st.integers(0, win), min_size=2, max_size=2)), reverse=True)
    return Scoring(
        win=win,
        draw=points[0],
        loss=points[1],
        bye_games=draw(st.sampled_from([(2, 0), (1, 0), (2, 1), (0, 0)])),
        game_win=draw(st.integers(1, 3)),
        game_draw=draw(st.integers(0, 2)),
        floor=draw(st.sampled_from([0.33, 0.0, 0, 0.5, 1.0])),
    )


@st.composite
def match_records(draw: st.DrawFn, a: str, b: str) -> MatchRecord:
    """A well-formed match: games agree with the result, penalties included."""
    best_of_one = draw(st.booleans())
    most = 1 if best_of_one else 2
    pen_a, pen_b = draw(st.sampled_from([(0, 0), (0, 0), (0, 0), (1, 0), (0, 1)]))
    won_a, won_b = draw(st.integers(0, most)), draw(st.integers(0, most))
    drawn = draw(st.integers(0, 1))
    eff_a, eff_b = won_a + pen_b, won_b + pen_a
    result = "a" if eff_a > eff_b else "b" if eff_b > eff_a else "draw"
    battles = draw(st.none() | st.tuples(st.integers(0, 9), st.integers(0, 9)))
    penalties = standings.MatchRecord("-").penalty_game_losses  # the shared default
    if (pen_a, pen_b) != (0, 0):
        penalties = (pen_a, pen_b)
    return MatchRecord(a, b, result, (won_a, won_b, drawn), penalties, battles)  # type: ignore[arg-type]


@st.composite
def histories(draw: st.DrawFn) -> History:
    n = draw(st.integers(0, 10))
    n_rounds = draw(st.integers(0, 6))
    names = draw(st.permutations([f"p{i}" for i in range(n)]))  # listed in any order
    players = []
    for pid in names:
        late = draw(st.sampled_from([1, 1, 1, 2, 3]))
        byes = draw(st.sets(st.integers(late, late + 3), max_size=2))
        players.append(
            Player(
                pid,
                dropped=draw(st.booleans()),
                late_entry_round=late,
                bye_rounds=tuple(sorted(byes)),
                late_entry_losses=late > 1 and draw(st.booleans()),
                fixed_table=draw(st.none() | st.integers(1, 5)),
            )
        )
    rounds: list[list[MatchRecord]] = []
    for number in range(1, n_rounds + 1):
        entered = [p.id for p in players if p.late_entry_round <= number]
        here = draw(st.permutations(entered))
        here = here[: draw(st.integers(0, len(here)))]  # some sit the round out
        matches: list[MatchRecord] = []
        i = 0
        while i < len(here):
            if i + 1 == len(here) or draw(st.integers(0, 5)) == 0:
                # a bye, now and then recording its own games (a stage's structure)
                own = draw(st.sampled_from([(0, 0, 0), (0, 0, 0), (1, 0, 0), (2, 0, 0)]))
                matches.append(MatchRecord(here[i], games=own))
                i += 1
            else:
                matches.append(draw(match_records(here[i], here[i + 1])))
                i += 2
        rounds.append(matches)
    return players, rounds


def tiebreaker_orders() -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(TIEBREAKERS), unique=True, max_size=len(TIEBREAKERS))


def outcome(call: Any, *args: Any, **kwargs: Any) -> str:
    """What a call gives, as text: the repr of its result, or the StateError it raised."""
    try:
        return repr(call(*args, **kwargs))
    except StateError as exc:
        return f"StateError({exc.field!r}, {exc.message!r})"


def same_standings(history: History, scoring: Scoring | None, order: list[str]) -> None:
    players, rounds = history
    fast = outcome(standings.compute_standings, players, rounds, scoring, order)
    assert fast == outcome(reference.compute_standings, players, rounds, scoring, order)
    assert not fast.startswith("StateError")
    assert outcome(standings.rank_summary, players, rounds, scoring, order) == outcome(
        reference.rank_summary, players, rounds, scoring, order
    )
    unvalidated = outcome(
        standings.compute_standings, players, rounds, scoring, order, validate=False
    )
    assert unvalidated == fast


@settings(max_examples=400)
@given(histories(), st.none() | scorings(), tiebreaker_orders())
def test_same_rows_as_the_reference(history: History, scoring: Scoring, order: list[str]) -> None:
    same_standings(history, scoring, order)


@settings(max_examples=300)
@given(st.integers(3, 5), st.integers(1, 5), st.data())
def test_rematch_heavy_histories_rank_head_to_head_alike(n: int, n_rounds: int, data: Any) -> None:
    """A few players meeting again and again: ties on points decided by head-to-head."""
    players = [Player(f"p{i}") for i in range(n)]
    rounds = []
    for _ in range(n_rounds):
        ids = data.draw(st.permutations([p.id for p in players]))
        rounds.append([data.draw(match_records(ids[i], ids[i + 1])) for i in (0, 2)[: n // 2]])
    order = data.draw(tiebreaker_orders())
    same_standings((players, rounds), None, order)
    same_standings((players, rounds), None, ["h2h", *[t for t in order if t != "h2h"]])


# --- broken input: the same error, on the same field --------------------------------------------


def _break(history: History, how: str, where: int) -> History:
    players, rounds = list(history[0]), [list(r) for r in history[1]]
    matches = [(r, m) for r, rnd in enumerate(rounds) for m, x in enumerate(rnd) if x.b]
    byes = [(r, m) for r, rnd in enumerate(rounds) for m, x in enumerate(rnd) if x.b is None]
    if how.startswith("player.") and players:
        i = where % len(players)
        field, value = {
            "player.empty_id": ("id", ""),
            "player.duplicate": ("id", players[0].id),
            "player.late_zero": ("late_entry_round", 0),
            "player.late_bool": ("late_entry_round", True),
            "player.table_zero": ("fixed_table", 0),
            "player.table_bool": ("fixed_table", True),
            "player.bye_rounds_dup": ("bye_rounds", (4, 4)),
            "player.bye_rounds_bool": ("bye_rounds", (True,)),
            "player.losses_int": ("late_entry_losses", 1),
        }[how]
        if how == "player.duplicate" and i == 0:
            i = len(players) - 1
        players[i] = replace(players[i], **{field: value})
    elif how.startswith("bye.") and byes:
        r, m = byes[where % len(byes)]
        bye_change: dict[str, dict[str, Any]] = {
            "bye.result": {"result": "b"},
            "bye.odd": {"result": "x"},
            "bye.games_lost": {"games": (0, 1, 0)},
            "bye.games_list": {"games": [2, 0, 0]},
            "bye.games_negative": {"games": (1, 0, -1)},
        }
        rounds[r][m] = replace(rounds[r][m], **bye_change[how])
    elif matches:
        r, m = matches[where % len(matches)]
        match = rounds[r][m]
        changes: dict[str, Any] = {
            "match.unknown": {"b": "nobody"},
            "match.self": {"b": match.a},
            "match.result": {"result": "win"},
            "match.contradict": {"result": "b" if match.result == "a" else "a"},
            "match.games_bool": {"games": (True, *match.games[1:])},
            "match.games_float": {"games": (float(match.games[0]), *match.games[1:])},
            "match.games_list": {"games": list(match.games)},
            "match.games_short": {"games": match.games[:2]},
            "match.games_negative": {"games": (-1, *match.games[1:])},
            "match.games_none": {"games": None},
            "match.penalties_bool": {"penalty_game_losses": (False, False)},
            "match.penalties_list": {"penalty_game_losses": [0, 0]},
            "match.battles_bool": {"battles": (True, 0)},
            "match.battles_negative": {"battles": (0, -2)},
            "match.battles_long": {"battles": (1, 2, 3)},
        }
        if how == "match.twice":
            rounds[r].append(MatchRecord(match.a))
        elif how == "match.early" and players:
            late = next((p for p in players if p.id == match.a), None)
            if late is not None:
                i = players.index(late)
                players[i] = replace(late, late_entry_round=r + 2, bye_rounds=())
        elif how in changes:
            rounds[r][m] = replace(match, **changes[how])
    return players, rounds


BREAKS = [
    "player.empty_id",
    "player.duplicate",
    "player.late_zero",
    "player.late_bool",
    "player.table_zero",
    "player.table_bool",
    "player.bye_rounds_dup",
    "player.bye_rounds_bool",
    "player.losses_int",
    "bye.result",
    "bye.odd",
    "bye.games_lost",
    "bye.games_list",
    "bye.games_negative",
    "match.unknown",
    "match.self",
    "match.result",
    "match.contradict",
    "match.games_bool",
    "match.games_float",
    "match.games_list",
    "match.games_short",
    "match.games_negative",
    "match.games_none",
    "match.penalties_bool",
    "match.penalties_list",
    "match.battles_bool",
    "match.battles_negative",
    "match.battles_long",
    "match.twice",
    "match.early",
]


@settings(max_examples=600)
@given(histories(), st.sampled_from(BREAKS), st.integers(0, 100), tiebreaker_orders())
def test_broken_histories_fail_alike(
    history: History, how: str, where: int, order: list[str]
) -> None:
    players, rounds = _break(history, how, where)
    fast = outcome(standings.compute_standings, players, rounds, None, order)
    assert fast == outcome(reference.compute_standings, players, rounds, None, order)
    assert outcome(standings.validate_history, players, rounds) == outcome(
        reference.validate_history, players, rounds
    )


@pytest.mark.parametrize("order", [("omw", "gw", "ogw"), ("h2h", "battle_diff", "ogw"), ()])
def test_a_paired_event_of_300_players_gives_the_same_rows(order: tuple[str, ...]) -> None:
    players, rounds = simulate(300, 9, seed=19)
    assert repr(standings.compute_standings(players, rounds, tiebreakers=order)) == repr(
        reference.compute_standings(players, rounds, tiebreakers=order)
    )


def test_rows_survive_pickling() -> None:
    """Rows are stored and sent between processes: they pickle and come back equal."""
    rows = standings.compute_standings(*simulate(40, 4, seed=3))
    assert pickle.loads(pickle.dumps(rows)) == rows


def _near_floats() -> st.SearchStrategy[float]:
    """Percent-like values, often a rounding step or a few ulps from a 9-digit decimal or
    from each other: where rounding to 9 digits decides a tie."""
    offsets = st.sampled_from(
        [0.0, 1e-17, -1e-17, 5e-10, -5e-10, 4.9e-10, 5.1e-10, 1e-9, 1.9e-9, 2e-9, 2.1e-9, 3e-9]
    )
    decimal = st.integers(0, 10**9).map(lambda n: n / 10**9)
    fractions = st.tuples(st.integers(0, 36), st.integers(1, 36)).map(
        lambda t: min(t[0], t[1]) / t[1]
    )
    return st.tuples(decimal | fractions, offsets).map(lambda t: min(max(t[0] + t[1], 0.0), 1.0))


@settings(max_examples=500)
@given(st.lists(_near_floats() | st.floats(0, 1), max_size=40))
def test_the_ranking_compares_floats_as_rounded_to_nine_digits(values: list[float]) -> None:
    """The ranking's key of a column (only the values near another one rounded) orders and
    ties its values exactly as the values rounded to 9 digits do."""
    key = standings._ranking_key(values)
    rounded = [round(v, 9) for v in values]
    for i, x in enumerate(key):
        for j, y in enumerate(key):
            assert (x < y) == (rounded[i] < rounded[j])
            assert (x == y) == (rounded[i] == rounded[j])


def test_the_ranking_key_rounds_floats_outside_zero_to_one_and_keeps_whole_numbers() -> None:
    assert standings._ranking_key([1, 2, 2]) == [1, 2, 2]
    assert standings._ranking_key([1.5000000001, 2.0]) == [1.5, 2.0]
    assert standings._ranking_key([0.25, 0.25 + 1e-12, 0.5]) == [0.25, 0.25, 0.5]
