"""Every game's state keeps one contract (engine.game_state.GameState): BoBA's and BOS's.

Random legal play from a start position (hypothesis draws the seed) always reaches a terminal
state within a bound, through actions each listed by ``legal_actions`` and accepted by
``apply``; a finished game has an Outcome whose termination cites a rule; a clone is
independent of the state it was cloned from. Each game gets a driver: how to start, how to
pick a legal action (BoBA completes the hidden outcomes, BOS is luckless) and what to compare.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import game_state
from engine.boba.generator import deal
from engine.boba.results import BobaTermination
from engine.boba.state import GameState as BobaState
from engine.bos.record import parse_record
from engine.bos.state import BosTermination
from engine.bos.state import GameState as BosState

from .bos.factory import record as bos_record

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class Driver:
    """What the shared tests need to know of one game."""

    name: str
    start: Callable[[int], tuple[Any, Callable[[Any, random.Random], Any]]]
    listed: Callable[[Any, Sequence[Any]], bool]  # the applied action is one the list offered
    fingerprint: Callable[[Any], Any]  # the whole position, to compare two states
    bound: int  # actions within which every game ends
    terminations: type[game_state.Termination]


def _boba_start(seed: int) -> tuple[BobaState, Callable[[BobaState, random.Random], Any]]:
    game = deal(seed, ("rookie", "substitution", "playmaker")[seed % 3])

    def choose(state: BobaState, rng: random.Random) -> Any:
        done = game.choose(state)
        assert done is not None, "a BoBA game under way always has an action to take"
        return done[1]

    return game.state, choose


def _boba_listed(action: Any, legal: Sequence[Any]) -> bool:
    # The list leaves hidden outcomes empty (a draw's or reveal's card): compare the rest.
    offered = {(a.player, a.do, a.card) for a in legal}
    return (action.player, action.do, action.card) in offered or (
        action.player,
        action.do,
        None,
    ) in offered


def _bos_start(seed: int) -> tuple[BosState, Callable[[BosState, random.Random], Any]]:
    rng = random.Random(seed)
    data = bos_record([], ether={"A": rng.randrange(4), "B": rng.randrange(4)})
    data["first"] = rng.choice(["A", "B"])

    def choose(state: BosState, rng: random.Random) -> Any:
        return rng.choice(state.legal_actions())

    return BosState.initial(parse_record(data)), choose


def _bos_fingerprint(state: BosState) -> str:
    return repr(state)  # the dataclasses' repr: every field, nested


DRIVERS = [
    Driver(
        "boba",
        _boba_start,
        _boba_listed,
        lambda s: (s.snapshot(), s.result),
        bound=600,
        terminations=BobaTermination,
    ),
    # Decay (BOS: Decay) takes any life to 0 by a player's 13th turn: at most 26 turns of a
    # few summons, attacks and spells each.
    Driver("bos", _bos_start, lambda a, legal: a in legal, _bos_fingerprint, 1_000, BosTermination),
]
GAMES = pytest.mark.parametrize("driver", DRIVERS, ids=[d.name for d in DRIVERS])


def _play(driver: Driver, seed: int, limit: int | None = None) -> tuple[Any, Any, random.Random]:
    """Random legal play from the start: to the end, or ``limit`` actions (the state, the
    driver's chooser and its generator, to go on)."""
    state, choose = driver.start(seed)
    rng = random.Random(seed)
    for _ in range(driver.bound if limit is None else limit):
        if state.is_terminal():
            break
        assert state.outcome() is None
        legal = state.legal_actions()
        assert legal, "a game under way offers at least one action"
        action = choose(state, rng)
        assert driver.listed(action, legal), f"{action} was not among the legal actions"
        state.apply(action)  # raises the game's IllegalActionError if the list lied
    return state, choose, rng


@GAMES
@FAST
@given(seed=SEEDS)
def test_random_legal_play_reaches_the_end_within_the_bound(driver: Driver, seed: int) -> None:
    state, _, _ = _play(driver, seed)
    assert state.is_terminal(), f"{driver.name} seed {seed}: no end within {driver.bound}"
    assert list(state.legal_actions()) == []
    outcome = state.outcome()
    assert isinstance(outcome, game_state.Outcome)
    assert outcome.winner in ("A", "B", None)
    assert isinstance(outcome.termination, driver.terminations)
    assert outcome.rule == outcome.termination.rule and outcome.rule
    assert outcome.draw == (outcome.winner is None)


@GAMES
@FAST
@given(seed=SEEDS, at=st.integers(min_value=0, max_value=120))
def test_a_clone_is_independent_of_its_state(driver: Driver, seed: int, at: int) -> None:
    state, choose, rng = _play(driver, seed, at)
    copy = state.clone()
    before = driver.fingerprint(copy)
    assert before == driver.fingerprint(state)
    if state.is_terminal():
        assert copy.is_terminal() and copy.outcome() == state.outcome()
        return
    action = choose(state, rng)
    state.apply(action)
    assert driver.fingerprint(copy) == before  # the original moved on, the copy did not
    copy.apply(action)
    assert driver.fingerprint(copy) == driver.fingerprint(state)  # and the same action there


@GAMES
def test_the_outcome_is_frozen(driver: Driver) -> None:
    state, _, _ = _play(driver, 1)
    outcome = state.outcome()
    assert outcome is not None
    with pytest.raises(AttributeError):
        outcome.winner = "A"


def test_each_termination_cites_its_rule() -> None:
    assert {t.key: t.rule for t in BobaTermination} == {
        "battles_won": "CR 4.4.1",
        "tie": "CR 4.4.2",
        "sudden_death": "CR 4.4.3",
    }
    assert {t.key: t.rule for t in BosTermination} == {
        "life": "BOS: Starting Info",
        "decay": "BOS: Decay",
        "judge": "BOS: Starting Info",
    }
