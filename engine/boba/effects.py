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
in :mod:`engine.boba.steps`. :mod:`engine.boba.effect_checks` validates effects with those
entries (and keeps the value sets the step kinds accept); :mod:`engine.boba.resolve` resolves
them. This module is the vocabulary's face: it re-exports the names other modules import and
loads the step kinds, so whatever validates or resolves through it finds them.
"""

from __future__ import annotations

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
from .effect_checks import CANCEL_WHAT as CANCEL_WHAT
from .effect_checks import EVENTS as EVENTS
from .effect_checks import PREVENTS as PREVENTS
from .effect_checks import RECOVERY_RULES as RECOVERY_RULES
from .effect_checks import RULES as RULES
from .effect_checks import RUN_FROM as RUN_FROM
from .effect_checks import SEARCHABLE as SEARCHABLE
from .effect_checks import SHUFFLE_WHAT as SHUFFLE_WHAT
from .effect_checks import ZONES_DISCARD_FROM as ZONES_DISCARD_FROM
from .effect_checks import ZONES_HERO_FROM as ZONES_HERO_FROM
from .effect_checks import check_play_extras as check_play_extras
from .effect_checks import check_step as check_step
from .effect_checks import check_steps as check_steps
from .effect_checks import step_kind as step_kind
from .effect_checks import validate_effect as validate_effect
from .vocabulary import (
    COMPARE_OPS,
    CONDITION_WORDS,
    COUNT_WORDS,
    STEP_WORDS,
    StepWord,
    check_amount,
    check_amount_or_all,
    check_condition,
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


# One step kind's entry (name, doc, fields, checkers, handler): the registry's StepWord.
StepKind = StepWord

# The step kinds, registered by engine/boba/steps.py (loaded at the end of this module).
STEP_KINDS: dict[str, StepWord] = STEP_WORDS


# The step kinds register from engine/boba/steps.py (they stand above the validator and the
# resolver): loaded here, so that any use of this module finds them.
from . import steps as _steps  # noqa: E402, F401
