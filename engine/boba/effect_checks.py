"""The Play effect vocabulary's value sets and its validator: an effect checked step by step
against the registered words (each step's kind, its fields, its ``if`` condition), the extra
fields of a play definition (``requires``, ``cost_if``), and the names the step kinds accept
(:data:`EVENTS`, :data:`PREVENTS`, ...).

The step kinds' own modules (:mod:`engine.boba.steps_power`, ``steps_cards``, ``steps_flow``)
use these, so this module stands below them; :mod:`engine.boba.effects` re-exports every name
and loads the step kinds, so a validation through it always finds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import check_bool, check_int
from .checks import fail as _fail
from .resolve import STEP_WORDS, parse_step
from .vocabulary import check_condition

EVENTS = (
    "win",  # the battle ends and `who` won it
    "lose",  # the battle ends and `who` lost it
    "draw_battle",  # the battle ends in a draw
    "battle_end",  # the battle ends, whatever the result
    "battle_start",  # a battle (within `battles`) starts, before substitution
    "reveal",  # the hero of `who` is revealed in a battle within `battles`
    "coin",  # a coin is flipped (by anyone)
    "die",  # a die is rolled (by anyone)
    "play_run",  # `who` runs a Play
    "play_phase_end",  # both players have passed in the play phase
)

PREVENTS = (
    "substitute",
    "run_plays",
    "draw_plays",
    "recover",
    "power_loss",  # the hero can't lose power
    "power_loss_from_opp",  # the hero can't have power reduced by an opponent's Play
    "opp_effects",  # the hero can't be affected in any way by the opponent's Plays
    "skip_substitution",  # the player must substitute when able (pass is illegal)
)

# Ongoing rules on hot dog recovery (the `recovery` step): redirect (what `who` would recover
# goes to the runner instead), cap (at most `amount` per player per battle), extra (`amount`
# more each time a player recovers any).
RECOVERY_RULES = ("redirect", "cap", "extra")

ZONES_DISCARD_FROM = (
    "last_drawn",
    "hand",
    "hand_heroes",
    "hand_plays",
    "hero_deck_top",
    "playbook_top",
    "hot_dogs",
)
ZONES_HERO_FROM = ("hand", "discard", "hero_deck_top", "future")
SEARCHABLE = ("heroes", "plays", "discard_heroes", "used_plays")
SHUFFLE_WHAT = ("hand_plays", "hand_heroes", "used_plays", "discard", "discard_heroes")
RULES = ("zero_hot_dogs_lose",)
CANCEL_WHAT = ("ongoing", "rest_of_game", "opp_plays_this_battle", "triggering_play")
RUN_FROM = ("playbook_top", "playbook", "hand", "last_drawn")


def check_steps(v: Any, path: str) -> None:
    if not isinstance(v, list):
        _fail(path, "must be a list of steps")
    for i, step in enumerate(v):
        check_step(step, f"{path}[{i}]")


def check_step(v: Any, path: str) -> None:
    """Validate one step against its registered word (raises EffectError naming the path)."""
    if not isinstance(v, dict):
        _fail(path, "a step must be an object")
    kinds = [k for k in v if k in STEP_WORDS]
    if len(kinds) != 1:
        _fail(path, f"a step needs exactly one kind key, one of {', '.join(STEP_WORDS)}")
    kind = kinds[0]
    word = STEP_WORDS[kind]
    word.check(v[kind], f"{path}.{kind}")
    extras = word.field_checks
    for key, val in v.items():
        if key == kind:
            continue
        sub = f"{path}.{key}"
        if key == "if":
            check_condition(val, sub)
        elif key == "required":
            check_bool(val, sub)
        elif key in extras:
            extras[key](val, sub)
        else:
            _fail(sub, f"unknown field of a {kind} step")
    if word.whole is not None:
        word.whole(v, path)


def validate_effect(effect: Any, path: str = "effect") -> tuple[dict[str, Any], ...]:
    """Check an effect against the vocabulary; return its steps or raise EffectError."""
    check_steps(effect, path)
    return tuple(effect)


def step_kind(step: Mapping[str, Any]) -> str:
    """The kind of a validated step."""
    return parse_step(step).kind


def check_play_extras(data: Mapping[str, Any], path: str) -> None:
    """Validate `requires` and `cost_if` on a play definition."""
    if "requires" in data:
        check_condition(data["requires"], f"{path}.requires")
    if "cost_if" in data:
        entries = data["cost_if"]
        if not isinstance(entries, list):
            _fail(f"{path}.cost_if", "must be a list of {if, cost}")
        for i, e in enumerate(entries):
            sub = f"{path}.cost_if[{i}]"
            if not isinstance(e, dict):
                _fail(sub, "must be {if, cost}")
            check_condition(e.get("if"), f"{sub}.if")
            check_int(e.get("cost"), f"{sub}.cost")
