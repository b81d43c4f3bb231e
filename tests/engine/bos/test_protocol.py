"""BOS's state as every game's (engine.game_state.GameState): its legal actions and outcome.

legal_actions says exactly what apply accepts, for every core-rule action: random legal play
reaches a position (hypothesis draws the seed); there any core action, legal or not, is
accepted by ``apply`` if and only if ``legal_actions`` lists it. ``abilities`` and ``judge``
steps are the record's statements: never listed (engine/bos/state.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bos.record import PLAYERS, Action, parse_record
from engine.bos.replay import replay
from engine.bos.state import GameState, IllegalActionError

from .factory import CARDS, OPENING, attack, end, record, start

SUMMONS = [c for c, d in CARDS.items() if d["type"] == "summon"]
SPELLS = [c for c, d in CARDS.items() if d["type"] == "spell"]
SLOTS: list[str | int] = [0, 1, 2, "boss"]


def _any_core_action(rng: random.Random) -> Action:
    """A core action of any shape the record allows, legal or not."""
    p = rng.choice(PLAYERS)
    kind = rng.choice(["start_turn", "end_turn", "summon", "summon_boss", "attack", "cast"])
    data: dict[str, Any] = {"type": kind, "player": p}
    if kind == "summon":
        data |= {"wizard": rng.randrange(3), "card": rng.choice(SUMMONS)}
    elif kind == "attack":
        target: dict[str, Any] = {"player": rng.choice(PLAYERS)}
        if rng.random() < 0.5:
            target["slot"] = rng.choice(SLOTS)
        blocker = rng.choice([None, None, *SLOTS])
        data |= {"attacker": rng.choice(SLOTS), "target": target, "blocker": blocker}
    elif kind == "cast":
        data |= {"card": rng.choice(SPELLS), "vim": rng.randrange(5), "ether": rng.randrange(5)}
    return Action(kind, p, data)


def _accepts(state: GameState, action: Action) -> bool:
    trial = state.clone()
    try:
        trial.apply(action)
    except IllegalActionError:
        return False
    return True


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), steps=st.integers(0, 150))
def test_bos_legal_actions_are_exactly_the_core_actions_apply_accepts(
    seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    data = record([], ether={"A": rng.randrange(4), "B": rng.randrange(4)})
    # A summon whose colour no wizard of its owner has: never summoned, but always tried.
    data["decks"]["A"]["castle"].append("imp")
    data["decks"]["B"]["castle"].append("sprite")
    state = GameState.initial(parse_record(data))
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    for action in legal:
        assert _accepts(state, action), action
    for _ in range(60):
        action = _any_core_action(rng)
        assert _accepts(state, action) == (action in legal), action


def test_bos_player_attack_only_an_opponent_blocks() -> None:
    """BOS: Player Attack: "Your opponent ... may choose to defend the attack"; attacking
    yourself is allowed, but nobody blocks it (a block would move the blocker onto the
    attacker's own column)."""
    opening = [start("A"), {"type": "summon", "player": "A", "wizard": 1, "card": "sprite"}]
    opening += [{"type": "summon", "player": "A", "wizard": 0, "card": "essence"}]
    r = replay(record([*opening, attack("A", 1, {"player": "A"}, 0)]))
    assert r.error is not None and r.error.code == "block_not_allowed"
    assert r.error.rule == "BOS: Player Attack"
    r = replay(record([*opening, attack("A", 1, {"player": "A"})]))
    assert r.legal and r.state is not None and r.state.sides["A"].life == 25


def test_bos_legal_actions_start_with_the_first_player_and_end_empty() -> None:
    state = GameState.initial(parse_record(record([])))
    assert [(a.type, a.player) for a in state.legal_actions()] == [("start_turn", "A")]
    r = replay(record([*OPENING, end("A")]))
    assert r.state is not None
    assert [(a.type, a.player) for a in r.state.legal_actions()] == [("start_turn", "B")]
    r = replay(record([*OPENING, attack("A", 1, {"player": "B"})], life=5))
    assert r.state is not None and r.state.is_terminal() and r.state.legal_actions() == []


def _decayed_to_zero() -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    for _ in range(12):
        turns += [start("A"), end("A"), start("B"), end("B")]
    return [*turns, start("A")]  # A's 13th turn: three decays, 3 -> 1 -> 0 -> 0


@pytest.mark.parametrize(
    ("actions", "termination", "rule"),
    [
        ([*OPENING, attack("A", 1, {"player": "B"})], "life", "BOS: Starting Info"),
        (_decayed_to_zero(), "decay", "BOS: Decay"),
        (
            [*OPENING, {"type": "judge", "player": "A", "note": "n", "adjust": {"B": {"life": 0}}}],
            "judge",
            "BOS: Starting Info",
        ),
    ],
    ids=["life", "decay", "judge"],
)
def test_bos_starting_info_life_zero_ends_the_game_with_its_termination(
    actions: list[dict[str, Any]], termination: str, rule: str
) -> None:
    r = replay(record(actions, life=5 if termination == "life" else 30))
    assert r.legal and r.state is not None and r.state.is_terminal()
    outcome = r.state.outcome()
    assert outcome is not None and outcome.termination.key == termination
    assert outcome.rule == rule and not outcome.draw  # BOS: Decay: every game has a winner
    assert r.to_json()["outcome"] == {
        "winner": outcome.winner,
        "termination": termination,
        "rule": rule,
    }
