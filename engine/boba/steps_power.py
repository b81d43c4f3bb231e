"""Step words about power and hot dogs: a hero's power, hot dogs paid, lost, recovered and
exchanged, and the battle's rules (registered from :mod:`engine.boba.steps`, which says how)."""

from __future__ import annotations

from .checks import (
    WHO,
    check_battles,
    check_bool,
    check_int,
    check_true,
    check_weapon,
    one_of,
)
from .context import _invalid
from .effect_checks import (
    RECOVERY_RULES,
    RULES,
)
from .errors import IllegalActionError
from .resolve import (
    Resolver,
    _who,
)
from .rules import OTHER, PLAYERS, weapon_in
from .vocabulary import (
    Spec,
    check_amount,
    check_amount_or_all,
    check_condition,
    step_word,
)

_WHO = one_of(WHO)
_TARGET = one_of(("own", "opp", "both"))


@step_word(
    "power",
    "change the power of the target hero(es) by the amount",
    check_amount,
    {
        "target": _TARGET,
        "battles": check_battles,
        "weapon": check_weapon,
        "while": check_condition,
    },
)
def do_power(r: Resolver, step: Spec) -> bool:
    battles = step.get("battles", "this")
    if battles != "this" or "while" in step:
        r.ongoing("power", step, r.amount(step["power"]))
        return True
    done = True
    w = step.get("weapon")
    for pi in _who(r.me, step.get("target", "own"), r.actor):
        if w is not None and not weapon_in(r.s.weapon(pi), r.weapon_param(w, pi)):
            continue
        r.target = pi
        done = r.modify(pi, r.amount(step["power"])) and done
    r.target = None
    return done


@step_word("set_power", "set the target hero's power", check_amount, {"target": _TARGET})
def do_set_power(r: Resolver, step: Spec) -> bool:
    done = True
    for pi in _who(r.me, step.get("target", "own"), r.actor):
        r.target = pi
        value = r.amount(step["set_power"])
        done = r.modify(pi, value - r.s.power(pi)) and done
    r.target = None
    return done


@step_word(
    "power_floor",
    "the active hero's power can't drop below what it is now (this battle)",
    one_of(("current",)),
    {"target": _TARGET},
)
def do_power_floor(r: Resolver, step: Spec) -> bool:
    for pi in _who(r.me, step.get("target", "own"), r.actor):
        ps = r.s.p[pi]
        floor = r.s.power(pi)
        if ps.floor is None or ps.floor[1] < floor:
            ps.floor = (r.source, floor)
    return True


@step_word(
    "become_hot_dog",
    "this play becomes one more hot dog for its runner, discarded as a Play when spent",
    check_true,
)
def do_become_hot_dog(r: Resolver, step: Spec) -> bool:
    """The play being run becomes one more hot dog for its runner (Ghost Dog, README
    decision 9): available until spent, then discarded as a Play (PlayerState.spend). A
    copy or a play not being run as a card (already a hot dog or discarded) cannot."""
    ps = r.s.p[r.me]
    cid = r.source
    if r.play is None or r.play.id != cid or cid in ps.ghost or cid in ps.discard:
        return False
    ps.ghost.append(cid)
    ps.hot_dogs += 1
    return True


@step_word(
    "exchange_hot_dogs", "the two players switch their numbers of available hot dogs", check_true
)
def do_exchange_hot_dogs(r: Resolver, step: Spec) -> bool:
    # Each player's 10 hot dogs stay available or discarded (README decision 9): the
    # available counts switch, the discards make up the rest. Neither a loss nor a
    # recovery, so recovery rules (Bun Shortage) do not touch it.
    # Ghost dogs (plays that are hot dogs) stay with their owner, out of the switch.
    a, b = r.s.p[r.me], r.s.p[r.opp]
    ga, gb = len(a.ghost), len(b.ghost)
    pa, pb = a.hot_dogs - ga, b.hot_dogs - gb
    ta, tb = pa + a.hot_dogs_discarded, pb + b.hot_dogs_discarded
    na, nb = min(pb, ta), min(pa, tb)
    a.hot_dogs, a.hot_dogs_discarded = na + ga, ta - na
    b.hot_dogs, b.hot_dogs_discarded = nb + gb, tb - nb
    return True


@step_word(
    "recovery",
    "an ongoing rule on recovering hot dogs",
    one_of(RECOVERY_RULES),
    {"who": _WHO, "battles": check_battles, "amount": check_int},
)
def do_recovery(r: Resolver, step: Spec) -> bool:
    r.ongoing("recovery", step)
    return True


@step_word(
    "invert",
    "this battle, the opponent's plays that lower the hero's power raise it instead",
    one_of(("opp_power_loss",)),
    {"who": _WHO},
)
def do_invert(r: Resolver, step: Spec) -> bool:
    s = r.s
    r.ongoing("invert", step)
    for pi in _who(r.me, step.get("who", "own"), r.actor):
        opp = OTHER[pi]
        ps = s.p[pi]
        # "now raise": the opponent's cuts made earlier this battle turn into gains too
        ps.mods[:] = [
            (n, src, -a if a < 0 and s.owner.get(src) == opp else a) for n, src, a in ps.mods
        ]
    return True


@step_word(
    "overspend",
    "spend up to that many hot dogs more than are available (a battle's allowance)",
    check_amount,
    {"who": _WHO, "battles": check_battles},
)
def do_overspend(r: Resolver, step: Spec) -> bool:
    r.ongoing("overspend", step, r.amount(step["overspend"]))
    return True


@step_word(
    "rule",
    "an ongoing rule change of the battle's outcome",
    one_of(RULES),
    {"who": _WHO, "battles": check_battles},
)
def do_rule(r: Resolver, step: Spec) -> bool:
    r.ongoing("rule", step)
    return True


@step_word("swap_power", "swap the two active heroes' current power", check_true)
def do_swap_power(r: Resolver, step: Spec) -> bool:
    a, b = r.s.power(r.me), r.s.power(r.opp)
    return r.modify(r.me, b - a) & r.modify(r.opp, a - b)


@step_word(
    "recover",
    "move hot dogs from the discard back to available",
    check_amount_or_all,
    {"who": _WHO, "up_to": check_bool},
)
def do_recover(r: Resolver, step: Spec) -> bool:
    n = r.amount(step["recover"])
    if step.get("up_to") and isinstance(r.choice("recover"), int):
        n = max(0, min(n, r.choice("recover")))
    done = True
    for pi in _who(r.me, step.get("who", "own"), r.actor):
        k = r.s.recover_hot_dogs(pi, n)
        done = done and k >= n
    return done or step["recover"] == "all"


@step_word(
    "lose_hot_dogs", "move available hot dogs to discard", check_amount_or_all, {"who": _WHO}
)
def do_lose_hot_dogs(r: Resolver, step: Spec) -> bool:
    n = r.amount(step["lose_hot_dogs"])
    done = True
    for pi in _who(r.me, step.get("who", "own"), r.actor):
        ps = r.s.p[pi]
        k = ps.spend(n, by_opp=pi != r.me)
        done = done and k == n
    return done or step["lose_hot_dogs"] == "all"


@step_word("pay", "pay more hot dogs now (choices.pay for 'any')", check_amount_or_all)
def do_pay(r: Resolver, step: Spec) -> bool:
    ps = r.s.p[r.me]
    if step["pay"] == "any":
        n = r.choice("pay")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise _invalid(
                "pay",
                "choices.pay must say how many hot dogs to pay.",
                tuple(range(r.s.spendable(r.me) + 1)),
            )
    else:
        n = r.amount(step["pay"])
    if n > r.s.spendable(r.me):
        if step["pay"] == "any":
            raise IllegalActionError(
                "insufficient_hot_dogs",
                "CR 5.2.2",
                f"{PLAYERS[r.me]} cannot pay {n} hot dogs with {ps.hot_dogs}.",
            )
        return False
    r.s.pay(r.me, n)
    r.paid += n
    return True
