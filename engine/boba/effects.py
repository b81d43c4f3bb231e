"""The Play effect vocabulary: steps as data, and their validator.

Notes on terminology
--------------------
effect
    A JSON list of *steps* resolved in order under the "if able" rule (CR 5.2.1): a step
    that cannot be done is skipped and the rest still resolves.
step
    A JSON object whose *kind* is the one key of :data:`STEP_KINDS` it carries, e.g.
    ``{"power": 20, "target": "own"}`` (kind ``power``) or ``{"judge": "text"}``. Any step may
    also carry ``"if": COND`` (do it only when the condition holds) and ``"required": true``
    (CR 5.2.3 A: a discard, payment or other step that is a prerequisite: if it cannot be done
    in full, the rest of the Play's effect is nullified; the cost stays paid, CR 5.2.2).
amount
    An integer, or ``{"count": NAME, "times": k, "plus": c, "min": m, "max": m, ...}`` that
    scales with a count of the game state (:data:`COUNTS`). Counts take optional parameters
    (``"whose"``, ``"weapon"``, ``"values"``).
condition (COND)
    A JSON object whose kind is the one key of :data:`COND_KINDS` it carries, e.g.
    ``{"weapon": "Fire"}``, ``{"count": "hot_dogs", "max": 1}``, ``{"all": [COND, ...]}``.
whose / who / target
    Seen from the player who runs the Play: ``own``, ``opp`` or ``both``.
battles
    Which battles a power, cost or prevention step reaches: ``"this"`` (the default, an
    instantaneous change to the active Hero), a list of offsets from the current battle
    (``[1]`` the next battle, ``[0, 1]`` this and the next), ``"rest"`` (this battle and the
    rest of the game), ``"later"`` (the rest of the game after this battle) or ``"chosen"``
    (the battle number in the action's ``choices.battle``). Anything but ``"this"`` makes the
    step an *ongoing* effect (CR 5.1.1), which never stacks with itself (CR 5.1.6) and ends
    when its Play is nullified (CR 5.1.7).

Random outcomes (coins, dice, shuffled-in reveals) are never rolled by the engine: they come,
in order, from the action's ``random`` list (README decision 10); cards drawn, searched or
revealed from hidden zones come from the action's ``drawn`` list; decisions come from the
action's ``choices`` object under the keys documented per step.

Each word (step kind, condition, count) is one registry entry holding its documentation, its
checker and its handler: counts and conditions in :mod:`engine.boba.vocabulary`, step kinds
in :mod:`engine.boba.steps`. This module validates effects with those entries (and keeps the
value sets and the names other modules import); :mod:`engine.boba.resolve` resolves them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import (
    COUNT_PARAMS,
    WEAPON_REFS,
    WEAPONS,
    WHO,
    WHOSE,
    Checker,
    EffectError,
    check_battles,
    check_bool,
    check_int,
    check_int_list,
    check_text,
    check_weapon,
)
from .checks import fail as _fail
from .vocabulary import (
    COMPARE_OPS,
    CONDITION_WORDS,
    COUNT_WORDS,
    STEP_WORDS,
    StepWord,
    check_amount,
    check_amount_or_all,
    check_condition,
    parse_step,
)

__all__ = [
    "CANCEL_WHAT",
    "COMPARE_OPS",
    "COND_KINDS",
    "COUNTS",
    "COUNT_PARAMS",
    "EVENTS",
    "PREVENTS",
    "RECOVERY_RULES",
    "RULES",
    "RUN_FROM",
    "SEARCHABLE",
    "SHUFFLE_WHAT",
    "STEP_KINDS",
    "WEAPONS",
    "WEAPON_REFS",
    "WHO",
    "WHOSE",
    "ZONES_DISCARD_FROM",
    "ZONES_HERO_FROM",
    "Checker",
    "EffectError",
    "StepKind",
    "check_amount",
    "check_amount_or_all",
    "check_battles",
    "check_bool",
    "check_condition",
    "check_int",
    "check_int_list",
    "check_play_extras",
    "check_step",
    "check_steps",
    "check_text",
    "check_weapon",
    "step_kind",
    "validate_effect",
]

# The counts an amount can scale with and the conditions can compare, and the condition kinds,
# with their documentation: views of the registry (engine/boba/vocabulary.py).
COUNTS: dict[str, str] = {name: word.doc for name, word in COUNT_WORDS.items()}
COND_KINDS: dict[str, str] = {name: word.doc for name, word in CONDITION_WORDS.items()}

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


# One step kind's entry (name, doc, fields, checkers, handler): the registry's StepWord.
StepKind = StepWord

# The step kinds, registered by engine/boba/steps.py (loaded at the end of this module).
STEP_KINDS: dict[str, StepWord] = STEP_WORDS


# ---------------------------------------------------------------- steps


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


# The step kinds register from engine/boba/steps.py (their handlers need the resolver, which
# needs this module's constants): loaded last, so that any use of this module finds them.
from . import steps as _steps  # noqa: E402, F401
