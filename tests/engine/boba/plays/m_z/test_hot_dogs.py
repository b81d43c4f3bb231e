"""Play cards M-Z about hot dogs: recovering, losing, paying (CR 2.1.4, README decision 9).
Each row: hot dogs at the start (A, B), what the card's text leaves."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.boba.plays.m_z._table import check, named, play, row, scenario

WIN = [150] * 7
LOSE = [150] * 7
ZERO = play("zero", 0)

ROWS = [
    # ------------------------------------------------------------- recover now
    row("Trash Bandit", {"hot_dogs": {"A": 6}}, hot_dogs=(5, 10)),
    row("Trash Bandit", {"hot_dogs": {"A": 10}}, tag="none discarded"),
    row(
        "Make Up Meal",  # two battles lost
        {"hot_dogs": {"A": 7}},
        hot_dogs=(5, 10),
        b=[150, 150, *[100] * 5],
        before=2,
    ),
    row(
        "Rich Get Richer",
        {"hot_dogs": {"A": 7}, "hand": {"A": ["x1"]}},
        hot_dogs=(6, 10),
        run={"drawn": ["x1"]},
    ),
    row(
        "Rich Get Richer", {"hot_dogs": {"A": 5}, "hand": {"A": []}}, tag="5 left", hot_dogs=(5, 10)
    ),
    row(
        "Sacrificed Heroes",
        {
            "hot_dogs": {"A": 6},
            "bench": {"A": ["AB3", "AB4"]},
            "discard_has": {"A": ["AB1", "AB2"]},
        },
        hot_dogs=(5, 10),
        run={"choices": {"discard": ["AB1", "AB2"]}},
    ),
    row(
        "Sacrificed Heroes",  # CR 5.2.3 A: one hero in hand, no discard, no recovery
        {"hot_dogs": {"A": 4}, "bench": {"A": ["AB1"]}},
        tag="one hero",  # three substitutions (6 hot dogs) leave AB1 alone in hand
        sub_a="AB2",
        before_runs=[((), (), "AB3", None), ((), (), "AB4", None)],
    ),
    row(
        "Synergy Snacks",  # battles 1 and 2: Fire and Fire
        {"hot_dogs": {"A": 7}},
        hot_dogs=(5, 10),
        before=2,
    ),
    row(
        "Synergy Snacks",
        {"hot_dogs": {"A": 5}},
        tag="fire then ice",
        hot_dogs=(5, 10),
        a=[100, (100, "Ice"), *[100] * 5],
        before=2,
    ),
    row(
        "The Heroes Favorite Hot Dogs",  # A1 went to the discard by substitution
        {"hot_dogs": {"A": 9}},
        sub_a="AB1",
    ),
    row(
        "The Champion's Lasso",  # the opponent used 3 before it
        {"hot_dogs": {"A": 8}},
        hot_dogs=(5, 10),
        honors="B",
        hand_b={"b1": play("three", 3)},
        b_runs=["b1"],
    ),
    row(
        "The Champion's Lasso",  # B's substitution (2) is hot dogs used this battle
        {"hot_dogs": {"A": 7, "B": 8}},
        tag="substitution",
        hot_dogs=(5, 10),
        sub_b="BB1",
    ),
    row(
        "The Champion's Lasso",  # "or uses": 2 spent after it
        {"hot_dogs": {"A": 7, "B": 8}},
        tag="uses later",
        hot_dogs=(5, 10),
        hand_b={"b1": play("two", 2)},
        b_runs=["b1"],
    ),
    row(
        "Updog",
        {"hot_dogs": {"A": 7, "B": 10}, "hand": {"A": ["x1"], "B": []}},
        hot_dogs=(5, 10),
        run={"drawn": ["x1"]},
    ),
    row(
        "Updog",
        {"hot_dogs": {"A": 10, "B": 7}, "hand": {"A": [], "B": ["x1"]}},
        tag="opponent fewer",
        hot_dogs=(10, 5),
        run={"drawn": ["x1"]},
    ),
    row(
        "Updog",  # neither has fewer: nothing happens
        {"hot_dogs": {"A": 5, "B": 5}, "hand": {"A": [], "B": []}},
        tag="equal",
        hot_dogs=(5, 5),
    ),
    row(
        "Plays Or Dogs?",
        {"hot_dogs": {"A": 7}, "hand": {"A": []}, "discard_has": {"A": ["a2", "a3"]}},
        tag="dogs",
        hot_dogs=(5, 10),
        hand_a={"a2": ZERO, "a3": ZERO},
        run={"choices": {"option": "dogs", "discard": ["a2", "a3"]}},
    ),
    # ------------------------------------------------------------- recover at the end
    row("Make Up Call", {"winner": "B", "hot_dogs": {"A": 6}}, hot_dogs=(5, 10), b=LOSE),
    row("Make Up Call", {"winner": "A", "hot_dogs": {"A": 5}}, tag="won", hot_dogs=(5, 10), a=WIN),
    row(
        "Momentum Meal",  # plays costing 2 and 3 (and this one, 0): recover 2
        {"winner": "A", "hot_dogs": {"A": 7}},
        hot_dogs=(10, 10),
        a=WIN,
        hand_a={"a2": play("two", 2), "a3": play("three", 3)},
        pre_a=["a2", "a3"],
    ),
    row(
        "Momentum Meal",  # four plays costing 2: at most 3 back
        {"winner": "A", "hot_dogs": {"A": 5}},
        tag="max 3",
        a=WIN,
        hand_a={f"a{i}": play("two", 2) for i in range(2, 6)},
        pre_a=["a2", "a3", "a4", "a5"],
    ),
    row(
        "Momentum Meal",
        {"winner": "B", "hot_dogs": {"A": 5}},
        tag="lost",
        b=[200] * 7,
        hand_a={"a2": play("two", 2), "a3": play("three", 3)},
        pre_a=["a2", "a3"],
    ),
    row(
        "Protein Bar",
        {"power": {"A": 115}, "winner": "B", "hot_dogs": {"A": 4}},
        hot_dogs=(5, 10),
        b=LOSE,
    ),
    row("Victory Dinner", {"winner": "A", "hot_dogs": {"A": 7}}, hot_dogs=(5, 10), a=WIN),
    row(
        "Victory Dinner",
        {"winner": "B", "hot_dogs": {"A": 4}},
        tag="lost",
        hot_dogs=(5, 10),
        b=LOSE,
    ),
    row("Win or Weiners", {"winner": "B", "hot_dogs": {"A": 6}}, hot_dogs=(5, 10), b=LOSE),
    row(
        "Win or Weiners",  # the end-of-battle draw and one more
        {"winner": "A", "hot_dogs": {"A": 4}, "hand_n": {"A": 2, "B": 1}},
        tag="won",
        hot_dogs=(5, 10),
        a=WIN,
        draw_after=True,
    ),
    # ------------------------------------------------------------- losing hot dogs
    row("Mutually Assured Dogstruction", {"hot_dogs": {"A": 8, "B": 8}}),
    row(
        "Mutually Assured Dogstruction",
        {"hot_dogs": {"A": 0, "B": 8}},
        tag="1 left",
        hot_dogs=(1, 10),
    ),
    row("Rotten Dogs", {"hot_dogs": {"A": 8, "B": 8}}, after=1),
    row(
        "Too Full To Fight",
        {"power": {"B": 85}, "hot_dogs": {"A": 7, "B": 3}},
        hot_dogs=(10, 5),
    ),
    row(
        "Too Full To Fight",
        {"power": {"B": 100}, "hot_dogs": {"B": 4}},
        tag="4 left",
        hot_dogs=(10, 4),
    ),
    row(
        "Pick Your Poison",  # lost battle 1; B pays at the start of battle 3
        {"hot_dogs": {"A": 10, "B": 9}},
        b=[150, *[100] * 6],
        before=1,
        after=1,
        run={"choices": {"trigger": {"option": "pay"}}},
    ),
    row(
        "Pick Your Poison",
        {"hot_dogs": {"A": 10, "B": 10}},
        tag="drew",
        before=1,
        after=1,
        run={"choices": {"trigger": {"option": "pay"}}},
    ),
    # ------------------------------------------------------------- rules on hot dogs
    row(
        "Snack Sanction",  # Roller Dogs' 3 is capped to 1
        {"hot_dogs": {"A": 4}},
        hot_dogs=(5, 10),
        hand_a={"a2": named("Roller Dogs")},
        post_a=[{"player": "A", "do": "run", "card": "a2", "random": [6]}],
    ),
    row(
        "Snack Sanction",  # Trash Bandit recovers 1; Make Up Meal's 1 is over the cap
        {"hot_dogs": {"A": 5}},
        tag="second recovery",
        hot_dogs=(5, 10),
        b=LOSE,
        before=1,
        hand_a={"a2": named("Trash Bandit"), "a3": named("Make Up Meal")},
        post_a=["a2", "a3"],
    ),
    row(
        "Ultimatum Dog",  # A ends the turn with 0 hot dogs: loses despite 200 against 100
        {"power": {"A": 200}, "winner": "B", "hot_dogs": {"A": 0}},
        a=[200] * 7,
        hot_dogs=(5, 10),
    ),
    row(
        "Snack Sanction",  # for the rest of the game, and for neither player: B next battle
        {"hot_dogs": {"A": 9, "B": 5}},
        tag="opponent, next battle",
        hot_dogs=(10, 5),
        hand_b={"b1": named("Roller Dogs")},
        after=1,
        after_b=[{"player": "B", "do": "run", "card": "b1", "random": [6]}],
    ),
    row(
        "Ultimatum Dog",  # for the rest of the game: A ends battle 2's turn at 0 and loses it
        {"winner": "A", "winner+1": "B", "power+1": {"A": 200}, "hot_dogs": {"A": 0}},
        tag="next battle",
        a=[200] * 7,
        hot_dogs=(6, 10),
        hand_a={"a2": play("one", 1)},
        after=1,
        after_a=["a2"],
    ),
    row(
        "Ultimatum Dog",
        {"power": {"A": 200}, "winner": "A"},
        tag="one left",
        a=[200] * 7,
        hot_dogs=(6, 10),
    ),
    row(
        "Ultimatum Dog",  # both players end their turns with 0: a drawn battle
        {"power": {"A": 200}, "winner": None, "hot_dogs": {"A": 0, "B": 0}},
        tag="both at 0",
        a=[200] * 7,
        hot_dogs=(5, 0),
    ),
    row(
        "Student Loan",  # 1 left next battle pays a 4 with 3 of allowance
        {"hot_dogs": {"A": 0}},
        hot_dogs=(3, 10),
        hand_a={"a2": play("four", 4)},
        after=1,
        after_a=["a2"],
    ),
    row(
        "Student Loan",
        {"error": "insufficient_hot_dogs"},
        tag="4 short",
        hot_dogs=(2, 10),
        hand_a={"a2": play("four", 4)},
        after=1,
        after_a=["a2"],
    ),
]


@pytest.mark.parametrize(("card", "setup", "expect"), ROWS)
def test_hot_dog_card_does_what_its_text_says(
    card: str, setup: dict[str, Any], expect: dict[str, Any]
) -> None:
    check(scenario(card, **setup), expect)
