"""The Play effect vocabulary: one registered entry per count and condition word.

A *count* (what an amount scales with, what a count condition compares) is one
:class:`~engine.boba.context.CountWord`: its documentation and its ``evaluate`` (the number,
seen from a player). A *condition* is one :class:`~engine.boba.context.ConditionWord`: its
documentation, its ``check`` (validation of the condition object, raising
:class:`~engine.boba.checks.EffectError` with the path) and its ``holds`` (whether it holds
now). The registries and their types are :mod:`engine.boba.context`'s, beside the
:class:`~engine.boba.context.Context` that evaluates them; the step kinds' registry is
:mod:`engine.boba.resolve`'s, beside the resolver that runs them. This module re-exports both,
so ``from engine.boba.vocabulary import step_word`` keeps working. Adding a word is writing its
entry here, in one place: :mod:`engine.boba.effects` validates with the entries,
:mod:`engine.boba.resolve` evaluates with them, and ``tests/engine/boba/test_docs.py`` checks
docs/game-record.md documents each.

Evaluators take the :class:`~engine.boba.context.Context` a play resolves in (counts and
conditions seen from its player ``me``), the word's JSON object and ``pi``, the player the word
is about (its ``whose``, default the play's owner).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import Hero, Play
from .checks import (
    WHOSE,
    Checker,
    check_amount_with,
    check_bool,
    check_int,
    check_int_list,
    check_text,
    check_weapon,
    fail,
    is_int,
    one_of,
    only,
)
from .context import CONDITION_WORDS as CONDITION_WORDS
from .context import COUNT_WORDS as COUNT_WORDS
from .context import ConditionWord as ConditionWord
from .context import Context as Context
from .context import CountWord as CountWord
from .context import Spec as Spec
from .context import condition as condition
from .context import condition_kind as condition_kind
from .context import count as count
from .resolve import STEP_WORDS as STEP_WORDS
from .resolve import ParsedStep as ParsedStep
from .resolve import StepWord as StepWord
from .resolve import parse_step as parse_step
from .resolve import parsed_steps as parsed_steps
from .resolve import step_word as step_word
from .rules import BATTLES, weapon_in


def _cost(card: Any) -> int:
    return card.cost or 0 if isinstance(card, Play) else 0


# ================================================================= counts


@count("paid", "hot dogs paid by this Play's pay step")
def _paid(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.paid


@count("heads", "coins that landed heads during this Play")
def _heads(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.heads


@count("tails", "coins that landed tails during this Play")
def _tails(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.tails


@count("die", "the last die rolled during this Play")
def _die(ctx: Context, spec: Spec, pi: int) -> int:
    dice = ctx.opp_dice if pi != ctx.me else ctx.dice
    return dice[-1] if dice else 0


@count("dice_sum", "the sum of the dice rolled during this Play")
def _dice_sum(ctx: Context, spec: Spec, pi: int) -> int:
    return sum(ctx.dice)


@count("rolls_matching", "dice rolled during this Play showing one of `values`")
def _rolls_matching(ctx: Context, spec: Spec, pi: int) -> int:
    values = spec.get("values", [])
    return sum(1 for d in ctx.dice if d in values)


@count("hot_dogs", "available hot dogs (whose)")
def _hot_dogs(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.p[pi].hot_dogs


@count("hot_dogs_discarded", "hot dogs in the discard (whose)")
def _hot_dogs_discarded(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.p[pi].hot_dogs_discarded


@count("hot_dogs_spent_this_battle", "hot dogs paid this battle, substitution included (whose)")
def _hot_dogs_spent_this_battle(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.p[pi].spent_battle


@count(
    "hot_dogs_discarded_this_battle",
    "hot dogs that went to the discard this battle: paid, substitution and forced discards"
    " (whose)",
)
def _hot_dogs_discarded_this_battle(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.p[pi].discarded_battle


@count("heroes_in_discard", "heroes in the discard pile, optionally of `weapon` (whose)")
def _heroes_in_discard(ctx: Context, spec: Spec, pi: int) -> int:
    s = ctx.s
    w = ctx.weapon_param(spec.get("weapon"), pi)
    return sum(
        1
        for c in s.p[pi].discard
        if isinstance(h := s.cards[c], Hero) and (w is None or weapon_in(h.weapon, w))
    )


@count("cards_in_discard", "heroes and plays in the discard pile (whose)")
def _cards_in_discard(ctx: Context, spec: Spec, pi: int) -> int:
    return len(ctx.s.p[pi].discard)


@count("hand_size", "heroes and plays in hand (whose)")
def _hand_size(ctx: Context, spec: Spec, pi: int) -> int:
    ps = ctx.s.p[pi]
    return len(ps.bench) + len(ps.hand)


@count("hand_heroes", "heroes in hand (whose)")
def _hand_heroes(ctx: Context, spec: Spec, pi: int) -> int:
    return len(ctx.s.p[pi].bench)


@count("hand_plays", "plays in hand (whose)")
def _hand_plays(ctx: Context, spec: Spec, pi: int) -> int:
    return len(ctx.s.p[pi].hand)


@count("plays_this_battle", "plays run this battle, this one included (whose)")
def _plays_this_battle(ctx: Context, spec: Spec, pi: int) -> int:
    s = ctx.s
    ps = s.p[pi]
    if "min_cost" in spec:
        return sum(1 for c in ps.plays_battle if _cost(s.cards[c]) >= spec["min_cost"])
    return len(ps.plays_battle)


@count("plays_last_battle", "plays run in the previous battle (whose)")
def _plays_last_battle(ctx: Context, spec: Spec, pi: int) -> int:
    s = ctx.s
    return sum(1 for b, _c in s.p[pi].used if b == s.battle - 1)


@count("battles_won", "battles won so far (whose)")
def _battles_won(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.p[pi].results.count("won")


@count("battles_lost", "battles lost so far (whose)")
def _battles_lost(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.p[pi].results.count("lost")


@count("battles_remaining", "battles after this one")
def _battles_remaining(ctx: Context, spec: Spec, pi: int) -> int:
    return BATTLES - ctx.s.battle


@count("battle", "the current battle number (1-7)")
def _battle(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.battle


@count("heroes_revealed", "heroes revealed so far this game, this battle's included (whose)")
def _heroes_revealed(ctx: Context, spec: Spec, pi: int) -> int:
    return len(ctx.s.p[pi].revealed)


@count("weapon_types_revealed", "different weapon types revealed this game (both players)")
def _weapon_types_revealed(ctx: Context, spec: Spec, pi: int) -> int:
    s = ctx.s
    kinds = set()
    for p in s.p:
        for c in p.revealed:
            h = s.cards[c]
            if isinstance(h, Hero):
                kinds.add(h.weapon)
    return len(kinds)


@count("heroes_used_with_weapon", "heroes of `weapon` (or the active hero's) revealed (whose)")
def _heroes_used_with_weapon(ctx: Context, spec: Spec, pi: int) -> int:
    s = ctx.s
    w = ctx.weapon_param(spec.get("weapon", "active"), pi)
    return sum(
        1 for c in s.p[pi].revealed if isinstance(h := s.cards[c], Hero) and weapon_in(h.weapon, w)
    )


@count("power", "current power of the active hero (whose)")
def _power(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.power(pi)


@count("starting_power", "printed power of the active hero (whose)")
def _starting_power(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.hero(pi).power


@count("power_margin", "own current power minus the opponent's")
def _power_margin(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.power(ctx.me) - ctx.s.power(ctx.opp)


@count(
    "extra_power_previous",
    "power the previous battle's hero had above its printed power (whose)",
)
def _extra_power_previous(ctx: Context, spec: Spec, pi: int) -> int:
    s = ctx.s
    for rec in reversed(s.history):
        if rec.battle == s.battle - 1:
            base = s.cards[rec.heroes[pi]]
            return max(0, rec.power[pi] - (base.power if isinstance(base, Hero) else 0))
    return 0


@count("discarded", "cards discarded by this Play so far")
def _discarded(ctx: Context, spec: Spec, pi: int) -> int:
    if "min_cost" in spec:
        cards = ctx.s.cards
        return sum(1 for c in ctx.discarded_ids if _cost(cards[c]) >= spec["min_cost"])
    return ctx.discarded


@count("drawn_power", "power of the last hero drawn or revealed by this Play")
def _drawn_power(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.drawn_power


@count("drawn_cost", "cost of the last play drawn or revealed by this Play")
def _drawn_cost(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.drawn_cost


@count("win_streak", "battles won in a row up to this one (whose)")
def _win_streak(ctx: Context, spec: Spec, pi: int) -> int:
    n = 0
    for r in reversed(ctx.s.p[pi].results):
        if r != "won":
            break
        n += 1
    return n


@count(
    "weapon_streak",
    "previous battles in a row whose hero had the active hero's weapon (whose)",
)
def _weapon_streak(ctx: Context, spec: Spec, pi: int) -> int:
    s = ctx.s
    w = s.weapon(pi)
    n = 0
    for rec in reversed(s.history):
        h = s.cards[rec.heroes[pi]]
        if not isinstance(h, Hero) or h.weapon != w:
            break
        n += 1
    return n


@count("hot_dogs_before_cost", "hot dogs the runner had before paying this Play's cost")
def _hot_dogs_before_cost(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.before_cost


@count("shuffled", "cards this Play shuffled back into decks")
def _shuffled(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.shuffled


@count("revealed_power", "power of the last hero this Play revealed or drew for `whose`")
def _revealed_power(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.revealed_powers.get(pi, 0)


@count(
    "max_cost_this_battle",
    "highest printed cost of the plays `whose` ran this battle (-1: none)",
)
def _max_cost_this_battle(ctx: Context, spec: Spec, pi: int) -> int:
    s = ctx.s
    return max((_cost(s.cards[c]) for c in s.p[pi].plays_battle), default=-1)


@count("power_change", "current power minus printed power of the active hero (whose)")
def _power_change(ctx: Context, spec: Spec, pi: int) -> int:
    return ctx.s.power(pi) - ctx.s.hero(pi).power


check_amount: Checker = check_amount_with(COUNT_WORDS)


def check_amount_or_all(v: Any, path: str) -> None:
    if v == "all" or v == "any":
        return
    check_amount(v, path)


# ================================================================= conditions

_RESULTS = ("won", "lost", "draw")
COMPARE_OPS = ("<", "<=", "==", "!=", ">=", ">")
_OPS: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}


def check_condition(v: Any, path: str) -> None:
    """Validate a condition object (raises EffectError naming the path)."""
    if not isinstance(v, dict):
        fail(path, "a condition must be an object")
    kinds = ["count"] if "count" in v else [k for k in v if k in CONDITION_WORDS]
    if len(kinds) != 1:
        fail(path, f"a condition needs exactly one of {', '.join(CONDITION_WORDS)}")
    CONDITION_WORDS[kinds[0]].check(v, path)
    if "whose" in v:
        one_of(WHOSE)(v["whose"], f"{path}.whose")


def in_range(v: int, spec: Any) -> bool:
    if isinstance(spec, int):
        return v == spec
    if "eq" in spec and v != spec["eq"]:
        return False
    if "min" in spec and v < spec["min"]:
        return False
    return not ("max" in spec and v > spec["max"])


def _check_range(v: Spec, path: str) -> None:
    for key, val in v.items():
        if key in ("min", "max", "eq"):
            check_int(val, f"{path}.{key}")
        else:
            fail(f"{path}.{key}", "unknown field of a condition")


def _checking(
    kind: str, main: Checker, allowed: tuple[str, ...] = ()
) -> Callable[[Spec, str], None]:
    """A condition checker: ``main`` on the condition's value; the object may carry only
    ``allowed`` keys besides its kind."""
    keys = {kind, *allowed}

    def check(v: Spec, path: str) -> None:
        main(v[kind], f"{path}.{kind}")
        only(v, path, keys)

    return check


def _check_weapon_cond(v: Spec, path: str) -> None:
    check_weapon(v["weapon"], f"{path}.weapon")
    only(v, path, {"weapon", "whose"})


@condition(
    "weapon",
    "the active hero of `whose` (default own) has this weapon (or one of a list)",
    _check_weapon_cond,
)
def _weapon(ctx: Context, c: Spec, pi: int) -> bool:
    return weapon_in(ctx.s.weapon(pi), ctx.weapon_param(c["weapon"], pi))


@condition(
    "same_weapon",
    "true: both active heroes share a weapon type; false: they differ",
    _checking("same_weapon", check_bool),
)
def _same_weapon(ctx: Context, c: Spec, pi: int) -> bool:
    s = ctx.s
    return (s.weapon(ctx.me) == s.weapon(ctx.opp)) == bool(c["same_weapon"])


def _check_battle_value(val: Any, path: str) -> None:
    if is_int(val):
        return
    if isinstance(val, dict):
        _check_range(val, path)
        return
    fail(path, "must be an integer or {min, max}")


@condition(
    "battle",
    "the current battle number: an integer or {min, max}",
    _checking("battle", _check_battle_value),
)
def _battle_cond(ctx: Context, c: Spec, pi: int) -> bool:
    return in_range(ctx.s.battle, c["battle"])


def _check_count_cond(v: Spec, path: str) -> None:
    check_amount({k: x for k, x in v.items() if k not in ("min", "max", "eq")}, path)
    if not set(v) & {"min", "max", "eq"}:
        fail(path, "a count condition needs min, max or eq")
    for key in ("min", "max", "eq"):
        if key in v:
            check_int(v[key], f"{path}.{key}")


@condition(
    "count", "a count compared with min / max / eq (count params allowed)", _check_count_cond
)
def _count_cond(ctx: Context, c: Spec, pi: int) -> bool:
    return in_range(ctx.count(c), c)


def _check_previous(v: Spec, path: str) -> None:
    one_of(_RESULTS)(v["previous"], f"{path}.previous")
    if "battles" in v:
        check_int(v["battles"], f"{path}.battles")
    only(v, path, {"previous", "battles", "whose"})


@condition(
    "previous",
    "won / lost / draw: the result for `whose` of the previous `battles` battles",
    _check_previous,
)
def _previous(ctx: Context, c: Spec, pi: int) -> bool:
    n = c.get("battles", 1)
    res = ctx.s.p[pi].results
    return len(res) >= n and all(r == c["previous"] for r in res[-int(n) :])


def _check_result_of(v: Spec, path: str) -> None:
    check_int(v["result_of"], f"{path}.result_of")
    one_of(_RESULTS)(v.get("is"), f"{path}.is")
    only(v, path, {"result_of", "is", "whose"})


@condition(
    "result_of", "the result (`is`: won/lost/draw) of battle number N for `whose`", _check_result_of
)
def _result_of(ctx: Context, c: Spec, pi: int) -> bool:
    res = ctx.s.p[pi].results
    i = int(c["result_of"]) - 1
    return 0 <= i < len(res) and res[i] == str(c["is"])


@condition(
    "result",
    "won / lost / draw: this battle's result (only inside battle-end triggers)",
    _checking("result", one_of(_RESULTS), ("whose",)),
)
def _result(ctx: Context, c: Spec, pi: int) -> bool:
    mine = ctx.result
    if mine is None:
        return False
    if pi != ctx.me and mine != "draw":
        mine = "lost" if mine == "won" else "won"
    return mine == str(c["result"])


@condition(
    "coin",
    "heads / tails: the last coin flipped by this Play",
    _checking("coin", one_of(("heads", "tails"))),
)
def _coin(ctx: Context, c: Spec, pi: int) -> bool:
    return ctx.coin == str(c["coin"])


@condition(
    "die",
    "the last die rolled by this Play is one of the listed values",
    _checking("die", check_int_list),
)
def _die_cond(ctx: Context, c: Spec, pi: int) -> bool:
    return bool(ctx.dice) and ctx.dice[-1] in c["die"]


@condition(
    "chose",
    "the action's choices.option equals this text",
    _checking("chose", check_text, ("whose",)),
)
def _chose(ctx: Context, c: Spec, pi: int) -> bool:
    return bool(ctx.choice("option") == c["chose"])


def _check_choice_value(val: Any, path: str) -> None:
    if not isinstance(val, dict) or "key" not in val or "eq" not in val:
        fail(path, "must be {key, eq}")


@condition(
    "choice",
    "{key, eq}: the action's choices[key] equals eq",
    _checking("choice", _check_choice_value),
)
def _choice(ctx: Context, c: Spec, pi: int) -> bool:
    return bool(ctx.choice(c["choice"]["key"]) == c["choice"]["eq"])


@condition(
    "hero_name",
    "the active hero of `whose` has this name",
    _checking("hero_name", check_text, ("whose",)),
)
def _hero_name(ctx: Context, c: Spec, pi: int) -> bool:
    return ctx.s.hero(pi).name.lower() == str(c["hero_name"]).lower()


@condition(
    "honors",
    "own / opp: who has honors this battle",
    _checking("honors", one_of(("own", "opp"))),
)
def _honors(ctx: Context, c: Spec, pi: int) -> bool:
    return (ctx.s.honors == ctx.me) == bool(c["honors"] == "own")


@condition(
    "substituted",
    "own / opp: that player substituted this battle",
    _checking("substituted", one_of(("own", "opp"))),
)
def _substituted(ctx: Context, c: Spec, pi: int) -> bool:
    return ctx.s.p[ctx.me if c["substituted"] == "own" else ctx.opp].substituted


@condition(
    "first_play",
    "true: this is the first Play its player runs this battle",
    _checking("first_play", check_bool),
)
def _first_play(ctx: Context, c: Spec, pi: int) -> bool:
    return (len(ctx.s.p[ctx.me].plays_battle) <= 1) == bool(c["first_play"])


def _check_compare_value(val: Any, path: str) -> None:
    if not isinstance(val, dict) or set(val) != {"left", "op", "right"}:
        fail(path, "must be {left, op, right}")
    check_amount(val["left"], f"{path}.left")
    one_of(COMPARE_OPS)(val["op"], f"{path}.op")
    check_amount(val["right"], f"{path}.right")


@condition(
    "compare",
    "{left: AMOUNT, op: < <= == != >= >, right: AMOUNT}",
    _checking("compare", _check_compare_value),
)
def _compare(ctx: Context, c: Spec, pi: int) -> bool:
    cmp = c["compare"]
    return bool(_OPS[cmp["op"]](ctx.amount(cmp["left"]), ctx.amount(cmp["right"])))


@condition(
    "drawn_weapon",
    "the last hero this Play drew or revealed has this weapon",
    _checking("drawn_weapon", check_weapon),
)
def _drawn_weapon(ctx: Context, c: Spec, pi: int) -> bool:
    return ctx.drawn_weapon is not None and weapon_in(
        ctx.drawn_weapon, ctx.weapon_param(c["drawn_weapon"], pi)
    )


@condition(
    "previous_same_weapon",
    "N: the N heroes `whose` revealed before this battle's share a weapon",
    _checking("previous_same_weapon", check_int, ("whose",)),
)
def _previous_same_weapon(ctx: Context, c: Spec, pi: int) -> bool:
    s = ctx.s
    n = int(c["previous_same_weapon"])
    before = s.p[pi].revealed[: s.battle - 1][-n:]
    weapons = {h.weapon for cid in before if isinstance(h := s.cards[cid], Hero)}
    return len(before) == n and len(weapons) == 1


def _check_conditions(val: Any, path: str) -> None:
    if not isinstance(val, list) or not val:
        fail(path, "must be a non-empty list of conditions")
    for i, c in enumerate(val):
        check_condition(c, f"{path}[{i}]")


@condition("all", "every condition in the list holds", _checking("all", _check_conditions))
def _all(ctx: Context, c: Spec, pi: int) -> bool:
    return all(ctx.cond(x) for x in c["all"])


@condition("any", "at least one condition in the list holds", _checking("any", _check_conditions))
def _any(ctx: Context, c: Spec, pi: int) -> bool:
    return any(ctx.cond(x) for x in c["any"])


@condition("not", "the condition does not hold", _checking("not", check_condition))
def _not(ctx: Context, c: Spec, pi: int) -> bool:
    return not ctx.cond(c["not"])
