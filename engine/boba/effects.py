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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

WEAPONS: tuple[str, ...] = (
    "Alt",
    "Brawl",
    "Cyber",
    "Fire",
    "Glow",
    "Gum",
    "Hex",
    "Ice",
    "Steel",
    "Super",
)

WHO = ("own", "opp", "both", "actor")
WHOSE = ("own", "opp", "target", "actor")

# Counts an amount can scale with, and the conditions can compare (see docs/game-record.md).
COUNTS: dict[str, str] = {
    "paid": "hot dogs paid by this Play's pay step",
    "heads": "coins that landed heads during this Play",
    "tails": "coins that landed tails during this Play",
    "die": "the last die rolled during this Play",
    "dice_sum": "the sum of the dice rolled during this Play",
    "rolls_matching": "dice rolled during this Play showing one of `values`",
    "hot_dogs": "available hot dogs (whose)",
    "hot_dogs_discarded": "hot dogs in the discard (whose)",
    "hot_dogs_spent_this_battle": "hot dogs paid this battle, substitution included (whose)",
    "heroes_in_discard": "heroes in the discard pile, optionally of `weapon` (whose)",
    "cards_in_discard": "heroes and plays in the discard pile (whose)",
    "hand_size": "heroes and plays in hand (whose)",
    "hand_heroes": "heroes in hand (whose)",
    "hand_plays": "plays in hand (whose)",
    "plays_this_battle": "plays run this battle, this one included (whose)",
    "plays_last_battle": "plays run in the previous battle (whose)",
    "battles_won": "battles won so far (whose)",
    "battles_lost": "battles lost so far (whose)",
    "battles_remaining": "battles after this one",
    "battle": "the current battle number (1-7)",
    "heroes_revealed": "heroes revealed so far this game, this battle's included (whose)",
    "weapon_types_revealed": "different weapon types revealed this game (both players)",
    "heroes_used_with_weapon": "heroes of `weapon` (or the active hero's) revealed (whose)",
    "power": "current power of the active hero (whose)",
    "starting_power": "printed power of the active hero (whose)",
    "power_margin": "own current power minus the opponent's",
    "extra_power_previous": "power the previous battle's hero had above its printed power (whose)",
    "discarded": "cards discarded by this Play so far",
    "drawn_power": "power of the last hero drawn or revealed by this Play",
    "drawn_cost": "cost of the last play drawn or revealed by this Play",
    "win_streak": "battles won in a row up to this one (whose)",
    "weapon_streak": "previous battles in a row whose hero had the active hero's weapon (whose)",
    "hot_dogs_before_cost": "hot dogs the runner had before paying this Play's cost",
    "shuffled": "cards this Play shuffled back into decks",
    "revealed_power": "power of the last hero this Play revealed or drew for `whose`",
    "max_cost_this_battle": "highest printed cost of the plays `whose` ran this battle (-1: none)",
    "power_change": "current power minus printed power of the active hero (whose)",
}

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


class EffectError(ValueError):
    """An effect that breaks the vocabulary; `field` is the path of the offending part."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class StepKind:
    """One step kind: its main value's checker and the extra fields it accepts."""

    name: str
    doc: str
    fields: tuple[str, ...]


Checker = Callable[[Any, str], None]


def _fail(path: str, message: str) -> None:
    raise EffectError(path, message)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_int(v: Any, path: str) -> None:
    if not _is_int(v):
        _fail(path, "must be an integer")


def check_bool(v: Any, path: str) -> None:
    if not isinstance(v, bool):
        _fail(path, "must be true or false")


def check_text(v: Any, path: str) -> None:
    if not isinstance(v, str) or not v:
        _fail(path, "must be a non-empty string")


def _one_of(options: Sequence[str]) -> Checker:
    def check(v: Any, path: str) -> None:
        if v not in options:
            _fail(path, f"must be one of {', '.join(options)}")

    return check


def check_weapon(v: Any, path: str) -> None:
    if isinstance(v, list):
        if not v:
            _fail(path, "must name at least one weapon")
        for i, w in enumerate(v):
            check_weapon(w, f"{path}[{i}]")
        return
    if v not in WEAPONS and v not in WEAPON_REFS:
        _fail(
            path, f"must be a weapon type ({', '.join(WEAPONS)}) or one of {', '.join(WEAPON_REFS)}"
        )


# Weapon references resolved when the step resolves (and frozen into ongoing effects):
# chosen = choices.weapon, active = the runner's active hero's, same = the other active hero's
# (seen from the player the condition or count is about), discarded = the last hero this Play
# discarded, drawn = the last hero this Play drew or revealed.
WEAPON_REFS = ("chosen", "active", "same", "discarded", "drawn")


def check_int_list(v: Any, path: str) -> None:
    if not isinstance(v, list) or not v or not all(_is_int(x) for x in v):
        _fail(path, "must be a non-empty list of integers")


def check_battles(v: Any, path: str) -> None:
    if v in ("this", "rest", "later", "chosen"):
        return
    if isinstance(v, list) and v and all(_is_int(x) and 0 <= x <= 6 for x in v):
        return
    if isinstance(v, dict) and set(v) <= {"from", "to"} and v:
        for key, val in v.items():
            if not _is_int(val) or not 1 <= val <= 7:
                _fail(f"{path}.{key}", "must be a battle number 1-7")
        return
    _fail(
        path,
        "must be 'this', 'rest', 'later', 'chosen', a list of offsets 0-6 or "
        "{from, to} battle numbers",
    )


COUNT_PARAMS = {"whose", "weapon", "values", "min_cost"}


def check_amount(v: Any, path: str) -> None:
    if _is_int(v):
        return
    if not isinstance(v, dict):
        _fail(path, "must be an integer, a {'count': ...} or a {'choice': key} object")
    if "choice" in v:
        check_text(v["choice"], f"{path}.choice")
        for key, val in v.items():
            if key in ("times", "plus", "min", "max"):
                check_int(val, f"{path}.{key}")
            elif key != "choice":
                _fail(f"{path}.{key}", "unknown field of an amount")
        return
    if v.get("count") not in COUNTS:
        _fail(f"{path}.count", f"must be one of {', '.join(COUNTS)}")
    for key, val in v.items():
        sub = f"{path}.{key}"
        if key == "count":
            continue
        if key in ("times", "plus", "min", "max", "min_cost"):
            check_int(val, sub)
        elif key == "whose":
            _one_of(WHOSE)(val, sub)
        elif key == "weapon":
            check_weapon(val, sub)
        elif key == "values":
            check_int_list(val, sub)
        else:
            _fail(sub, "unknown field of an amount")


def check_amount_or_all(v: Any, path: str) -> None:
    if v == "all" or v == "any":
        return
    check_amount(v, path)


# ---------------------------------------------------------------- conditions

COND_KINDS: dict[str, str] = {
    "weapon": "the active hero of `whose` (default own) has this weapon (or one of a list)",
    "same_weapon": "true: both active heroes share a weapon type; false: they differ",
    "battle": "the current battle number: an integer or {min, max}",
    "count": "a count compared with min / max / eq (count params allowed)",
    "previous": "won / lost / draw: the result for `whose` of the previous `battles` battles",
    "result_of": "the result (`is`: won/lost/draw) of battle number N for `whose`",
    "result": "won / lost / draw: this battle's result (only inside battle-end triggers)",
    "coin": "heads / tails: the last coin flipped by this Play",
    "die": "the last die rolled by this Play is one of the listed values",
    "chose": "the action's choices.option equals this text",
    "choice": "{key, eq}: the action's choices[key] equals eq",
    "hero_name": "the active hero of `whose` has this name",
    "honors": "own / opp: who has honors this battle",
    "substituted": "own / opp: that player substituted this battle",
    "first_play": "true: this is the first Play its player runs this battle",
    "compare": "{left: AMOUNT, op: < <= == != >= >, right: AMOUNT}",
    "drawn_weapon": "the last hero this Play drew or revealed has this weapon",
    "previous_same_weapon": "N: the N heroes `whose` revealed before this battle's share a weapon",
    "all": "every condition in the list holds",
    "any": "at least one condition in the list holds",
    "not": "the condition does not hold",
}

_RESULTS = ("won", "lost", "draw")
COMPARE_OPS = ("<", "<=", "==", "!=", ">=", ">")


def _check_range(v: Any, path: str, extra: Sequence[str] = ()) -> None:
    for key, val in v.items():
        if key in ("min", "max", "eq"):
            check_int(val, f"{path}.{key}")
        elif key not in extra:
            _fail(f"{path}.{key}", "unknown field of a condition")


def check_condition(v: Any, path: str) -> None:
    if not isinstance(v, dict):
        _fail(path, "a condition must be an object")
    # A count condition may carry count parameters, `weapon` among them: `count` decides.
    kinds = ["count"] if "count" in v else [k for k in v if k in COND_KINDS]
    if len(kinds) != 1:
        _fail(path, f"a condition needs exactly one of {', '.join(COND_KINDS)}")
    kind = kinds[0]
    val = v[kind]
    sub = f"{path}.{kind}"
    extra = set(v) - {kind}
    if kind == "weapon":
        check_weapon(val, sub)
        _only(v, path, {kind, "whose"})
    elif kind == "same_weapon":
        check_bool(val, sub)
        _only(v, path, {kind})
    elif kind == "battle":
        if _is_int(val):
            pass
        elif isinstance(val, dict):
            _check_range(val, sub)
        else:
            _fail(sub, "must be an integer or {min, max}")
        _only(v, path, {kind})
    elif kind == "count":
        check_amount({k: x for k, x in v.items() if k not in ("min", "max", "eq")}, path)
        if not extra & {"min", "max", "eq"}:
            _fail(path, "a count condition needs min, max or eq")
        for key in ("min", "max", "eq"):
            if key in v:
                check_int(v[key], f"{path}.{key}")
    elif kind == "previous":
        _one_of(_RESULTS)(val, sub)
        if "battles" in v:
            check_int(v["battles"], f"{path}.battles")
        _only(v, path, {kind, "battles", "whose"})
    elif kind == "result_of":
        check_int(val, sub)
        _one_of(_RESULTS)(v.get("is"), f"{path}.is")
        _only(v, path, {kind, "is", "whose"})
    elif kind == "result":
        _one_of(_RESULTS)(val, sub)
        _only(v, path, {kind, "whose"})
    elif kind == "coin":
        _one_of(("heads", "tails"))(val, sub)
        _only(v, path, {kind})
    elif kind == "die":
        check_int_list(val, sub)
        _only(v, path, {kind})
    elif kind in ("chose", "hero_name"):
        check_text(val, sub)
        _only(v, path, {kind, "whose"})
    elif kind == "choice":
        if not isinstance(val, dict) or "key" not in val or "eq" not in val:
            _fail(sub, "must be {key, eq}")
        _only(v, path, {kind})
    elif kind in ("honors", "substituted"):
        _one_of(("own", "opp"))(val, sub)
        _only(v, path, {kind})
    elif kind == "first_play":
        check_bool(val, sub)
        _only(v, path, {kind})
    elif kind == "compare":
        if not isinstance(val, dict) or set(val) != {"left", "op", "right"}:
            _fail(sub, "must be {left, op, right}")
        check_amount(val["left"], f"{sub}.left")
        _one_of(COMPARE_OPS)(val["op"], f"{sub}.op")
        check_amount(val["right"], f"{sub}.right")
        _only(v, path, {kind})
    elif kind == "drawn_weapon":
        check_weapon(val, sub)
        _only(v, path, {kind})
    elif kind == "previous_same_weapon":
        check_int(val, sub)
        _only(v, path, {kind, "whose"})
    elif kind in ("all", "any"):
        if not isinstance(val, list) or not val:
            _fail(sub, "must be a non-empty list of conditions")
        for i, c in enumerate(val):
            check_condition(c, f"{sub}[{i}]")
        _only(v, path, {kind})
    elif kind == "not":
        check_condition(val, sub)
        _only(v, path, {kind})
    if "whose" in v:
        _one_of(WHOSE)(v["whose"], f"{path}.whose")


def _only(v: Mapping[str, Any], path: str, allowed: set[str]) -> None:
    for key in v:
        if key not in allowed:
            _fail(f"{path}.{key}", "unknown field here")


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


def _check_true(v: Any, path: str) -> None:
    if v is not True:
        _fail(path, "must be true")


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
