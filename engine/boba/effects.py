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
    A JSON object whose kind is the one key of :data:`CONDITIONS` it carries, e.g.
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

This module only describes and validates; :mod:`engine.boba.resolve` gives the steps their
meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
from .checks import check_true as _check_true
from .checks import fail as _fail
from .checks import one_of as _one_of
from .vocabulary import (
    COMPARE_OPS,
    CONDITION_WORDS,
    COUNT_WORDS,
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


@dataclass(frozen=True, slots=True)
class StepKind:
    """One step kind: its main value's checker and the extra fields it accepts."""

    name: str
    doc: str
    fields: tuple[str, ...]


# ---------------------------------------------------------------- steps


def check_steps(v: Any, path: str) -> None:
    if not isinstance(v, list):
        _fail(path, "must be a list of steps")
    for i, step in enumerate(v):
        check_step(step, f"{path}[{i}]")


def _check_options(v: Any, path: str) -> None:
    if not isinstance(v, dict) or not v:
        _fail(path, "must be an object of named options, each a list of steps")
    for name, steps in v.items():
        check_steps(steps, f"{path}.{name}")


def _check_event(v: Any, path: str) -> None:
    _one_of(EVENTS)(v, path)


_WHO = _one_of(WHO)
_TARGET = _one_of(("own", "opp", "both"))

# name -> (checker of the main value, {extra field: checker}, doc)
_SPEC: dict[str, tuple[Checker, dict[str, Checker], str]] = {
    "power": (
        check_amount,
        {
            "target": _TARGET,
            "battles": check_battles,
            "weapon": check_weapon,
            "while": check_condition,
        },
        "change the power of the target hero(es) by the amount",
    ),
    "set_power": (check_amount, {"target": _TARGET}, "set the target hero's power"),
    "power_floor": (
        _one_of(("current",)),
        {"target": _TARGET},
        "the active hero's power can't drop below what it is now (this battle)",
    ),
    "become_hot_dog": (
        _check_true,
        {},
        "this play becomes one more hot dog for its runner, discarded as a Play when spent",
    ),
    "exchange_hot_dogs": (
        _check_true,
        {},
        "the two players switch their numbers of available hot dogs",
    ),
    "recovery": (
        _one_of(RECOVERY_RULES),
        {"who": _WHO, "battles": check_battles, "amount": check_int},
        "an ongoing rule on recovering hot dogs",
    ),
    "invert": (
        _one_of(("opp_power_loss",)),
        {"who": _WHO},
        "this battle, the opponent's plays that lower the hero's power raise it instead",
    ),
    "overspend": (
        check_amount,
        {"who": _WHO, "battles": check_battles},
        "spend up to that many hot dogs more than are available (a battle's allowance)",
    ),
    "rule": (
        _one_of(RULES),
        {"who": _WHO, "battles": check_battles},
        "an ongoing rule change of the battle's outcome",
    ),
    "swap_power": (_check_true, {}, "swap the two active heroes' current power"),
    "recover": (
        check_amount_or_all,
        {"who": _WHO, "up_to": check_bool},
        "move hot dogs from the discard back to available",
    ),
    "lose_hot_dogs": (check_amount_or_all, {"who": _WHO}, "move available hot dogs to discard"),
    "pay": (check_amount_or_all, {}, "pay more hot dogs now (choices.pay for 'any')"),
    "draw": (
        check_amount,
        {"deck": _one_of(("plays", "heroes", "either")), "who": _WHO},
        "draw cards (ids from `drawn`)",
    ),
    "discard": (
        check_amount_or_all,
        {
            "from": _one_of(ZONES_DISCARD_FROM),
            "who": _WHO,
            "weapon": check_weapon,
            "random": check_bool,
            "name": _one_of(("chosen",)),
        },
        "discard cards (ids from choices.discard, or `drawn` when random or hidden)",
    ),
    "search": (
        _one_of(SEARCHABLE),
        {"weapon": check_weapon, "max_power": check_int, "count": check_int},
        "take a card from a zone into hand (ids from `drawn` or choices.search)",
    ),
    "reveal_top": (
        check_amount,
        {
            "deck": _one_of(("heroes", "plays")),
            "who": _WHO,
            "keep": check_int,
            "rest": _one_of(("discard", "shuffle", "top", "bottom")),
        },
        "reveal the top cards (ids from `drawn`), keep choices.keep, the rest go to `rest`",
    ),
    "flip": (
        check_amount,
        {"stop_on": _one_of(("heads", "tails")), "may_stop": check_bool},
        "flip coins (from random)",
    ),
    "roll": (
        check_amount,
        {"who": _WHO, "stop_on": check_int_list, "may_stop": check_bool},
        "roll dice (from random)",
    ),
    "then": (check_steps, {"else": check_steps}, "with `if`: steps to run when it holds"),
    "choose": (_check_options, {}, "run the option named by choices.option"),
    "repeat": (check_amount, {"do": check_steps}, "run `do` that many times"),
    "cost": (
        check_amount,
        {
            "who": _WHO,
            "battles": check_battles,
            "plays": check_int,
            "card": _one_of(("chosen",)),
            "while": check_condition,
        },
        "change the cost of plays (never below zero)",
    ),
    "sub_cost": (
        check_amount,
        {"who": _WHO, "battles": check_battles, "payer": _one_of(("own", "opp"))},
        "set the substitution cost, or who pays it",
    ),
    "prevent": (
        _one_of(PREVENTS),
        {
            "who": _WHO,
            "battles": check_battles,
            "weapon": check_weapon,
            "until": _one_of(("win",)),
        },
        "forbid something for a time",
    ),
    "max_plays": (check_int, {"who": _WHO, "battles": check_battles}, "limit plays per battle"),
    "replace_hero": (
        _one_of(ZONES_HERO_FROM),
        {
            "who": _WHO,
            "weapon": check_weapon,
            "old_to": _one_of(("discard", "hand", "future")),
            "draw_heroes": check_int,
            "slots": _one_of(("this", "future")),
            "may": check_bool,
        },
        "replace the active hero (new one from choices.hero or `drawn`)",
    ),
    "set_weapon": (
        check_weapon,
        {"target": _TARGET, "from": check_weapon, "battles": check_battles},
        "change heroes' weapon type",
    ),
    "on": (
        _check_event,
        {
            "who": _WHO,
            "battles": check_battles,
            "do": check_steps,
            "once": check_bool,
            "hero": _one_of(("chosen",)),
        },
        "a trigger: run `do` whenever the event happens (hero: when choices.hero is revealed)",
    ),
    "cancel": (_one_of(CANCEL_WHAT), {"who": _WHO}, "nullify ongoing effects (CR 5.1.7)"),
    "copy": (_one_of(("last_own_play",)), {}, "run the last play its player used, as it"),
    "run": (
        _one_of(RUN_FROM),
        {"free": check_bool, "who": _one_of(("own", "opp"))},
        "run another play (card from `drawn`/choices.run.card; nested choices.run)",
    ),
    "shuffle": (
        _one_of(SHUFFLE_WHAT),
        {"who": _WHO, "count": check_int},
        "shuffle a zone (or `count` cards of it, choices.shuffle) back into its deck",
    ),
    "reorder": (_one_of(("future",)), {"who": _WHO}, "reorder face-down heroes (choices.order)"),
    "end_battle": (_check_true, {}, "end the play phase now; the winner is decided"),
    "honors": (_one_of(("own", "opp", "chosen")), {}, "who has honors next battle"),
    "look": (check_text, {}, "look at hidden cards: no change to the game state"),
    "judge": (check_text, {}, "a judge's call; outcome steps from choices.judge"),
}

STEP_KINDS: dict[str, StepKind] = {
    name: StepKind(name, doc, tuple(fields)) for name, (_c, fields, doc) in _SPEC.items()
}


def check_step(v: Any, path: str) -> None:
    if not isinstance(v, dict):
        _fail(path, "a step must be an object")
    kinds = [k for k in v if k in _SPEC]
    if len(kinds) != 1:
        _fail(path, f"a step needs exactly one kind key, one of {', '.join(_SPEC)}")
    kind = kinds[0]
    checker, extras, _doc = _SPEC[kind]
    checker(v[kind], f"{path}.{kind}")
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
    if kind == "then" and "if" not in v:
        _fail(path, "a then step needs an if")
    if kind in ("repeat", "on") and "do" not in v:
        _fail(path, f"a {kind} step needs do")
    if kind == "on" and "hero" in v:
        if v["on"] != "reveal":
            _fail(f"{path}.hero", "only a reveal trigger can follow a hero")
        if "battles" in v:
            _fail(f"{path}.battles", "a trigger that follows a hero has no battles")


def validate_effect(effect: Any, path: str = "effect") -> tuple[dict[str, Any], ...]:
    """Check an effect against the vocabulary; return its steps or raise EffectError."""
    check_steps(effect, path)
    return tuple(effect)


def step_kind(step: Mapping[str, Any]) -> str:
    """The kind of a validated step."""
    for key in step:
        if key in _SPEC:
            return key
    raise EffectError("step", "no kind")


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
