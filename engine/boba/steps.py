"""The step words of the Play effect vocabulary: one registered entry per step kind.

Each handler below is registered with :func:`~engine.boba.vocabulary.step_word`, next to its
documentation and its checkers (the main value's, and one per extra field it accepts): adding
a step kind is writing its entry here. :mod:`engine.boba.effects` validates steps with these
entries and :class:`~engine.boba.resolve.Resolver` runs them (each step parsed once, see
:func:`~engine.boba.vocabulary.parsed_steps`). A handler returns whether the step was done
in full, for ``required`` steps (CR 5.2.3 A); ``r`` is the resolver the play resolves in.
"""

from __future__ import annotations

from typing import Any

from .cards import Hero, Play
from .checks import (
    EffectError,
    check_battles,
    check_bool,
    check_int,
    check_int_list,
    check_text,
    check_true,
    check_weapon,
    fail,
    one_of,
)
from .effects import (
    CANCEL_WHAT,
    EVENTS,
    PREVENTS,
    RECOVERY_RULES,
    RULES,
    RUN_FROM,
    SEARCHABLE,
    SHUFFLE_WHAT,
    WHO,
    ZONES_DISCARD_FROM,
    ZONES_HERO_FROM,
    check_steps,
    validate_effect,
)
from .errors import IllegalActionError
from .resolve import (
    _DETACHED_EVENTS,
    _REST,
    ALL,
    MAX_DEPTH,
    Cursor,
    Resolver,
    _cost,
    _invalid,
    _nullify_source,
    _who,
    fire,
    start_play,
)
from .rules import BATTLES, OTHER, PLAYERS, weapon_in
from .vocabulary import (
    Spec,
    check_amount,
    check_amount_or_all,
    check_condition,
    step_word,
)

_one_of = one_of
_check_true = check_true
_WHO = one_of(WHO)
_TARGET = one_of(("own", "opp", "both"))


def _check_options(v: Any, path: str) -> None:
    if not isinstance(v, dict) or not v:
        fail(path, "must be an object of named options, each a list of steps")
    for name, steps in v.items():
        check_steps(steps, f"{path}.{name}")


def _check_event(v: Any, path: str) -> None:
    one_of(EVENTS)(v, path)


def _needs_if(v: Spec, path: str) -> None:
    if "if" not in v:
        fail(path, "a then step needs an if")


def _needs_do(v: Spec, path: str) -> None:
    if "do" not in v:
        fail(path, f"a {'repeat' if 'repeat' in v else 'on'} step needs do")


def _check_on(v: Spec, path: str) -> None:
    _needs_do(v, path)
    if "hero" in v:
        if v["on"] != "reveal":
            fail(f"{path}.hero", "only a reveal trigger can follow a hero")
        if "battles" in v:
            fail(f"{path}.battles", "a trigger that follows a hero has no battles")


def _play_key(name: str) -> str:
    """A play's base name, normalised: "called shot - HTD" and "Called Shot" match."""
    from .play_library import base_name, normalise_name  # imports effects: loaded by then

    return normalise_name(base_name(name))


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
    _one_of(("current",)),
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
    _check_true,
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
    "exchange_hot_dogs", "the two players switch their numbers of available hot dogs", _check_true
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
    _one_of(RECOVERY_RULES),
    {"who": _WHO, "battles": check_battles, "amount": check_int},
)
def do_recovery(r: Resolver, step: Spec) -> bool:
    r.ongoing("recovery", step)
    return True


@step_word(
    "invert",
    "this battle, the opponent's plays that lower the hero's power raise it instead",
    _one_of(("opp_power_loss",)),
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
    _one_of(RULES),
    {"who": _WHO, "battles": check_battles},
)
def do_rule(r: Resolver, step: Spec) -> bool:
    r.ongoing("rule", step)
    return True


@step_word("swap_power", "swap the two active heroes' current power", _check_true)
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


@step_word(
    "draw",
    "draw cards (ids from `drawn`)",
    check_amount,
    {"deck": _one_of(("plays", "heroes", "either")), "who": _WHO},
)
def do_draw(r: Resolver, step: Spec) -> bool:
    n = r.amount(step["draw"])
    deck = step.get("deck", "plays")
    done = True
    for pi in _who(r.me, step.get("who", "own"), r.actor):
        for _ in range(n):
            if deck == "heroes":
                ok = r.draw_hero(pi)
            elif deck == "plays":
                ok = r.draw_play(pi)
            else:
                nxt = r.cur.drawn[r.cur.di] if r.cur.di < len(r.cur.drawn) else None
                if nxt is not None and r.s.cards[nxt].kind == "hero":
                    ok = r.draw_hero(pi)
                else:
                    ok = r.draw_play(pi)
            if not ok:
                done = False  # the deck is empty or drawing is prevented (if able)
                break
    return done


@step_word(
    "discard",
    "discard cards (ids from choices.discard, or `drawn` when random or hidden)",
    check_amount_or_all,
    {
        "from": _one_of(ZONES_DISCARD_FROM),
        "who": _WHO,
        "weapon": check_weapon,
        "random": check_bool,
        "name": _one_of(("chosen",)),
    },
)
def do_discard(r: Resolver, step: Spec) -> bool:
    s = r.s
    zone = step.get("from", "hand_plays")
    n_raw = step["discard"]
    done = True
    players = _who(r.me, step.get("who", "own"), r.actor)
    if step.get("required") and n_raw != "all":
        # CR 5.2.3 A: a discard required to gain the effect is completed in full or not at
        # all; when it cannot be, nothing is discarded and the effect is nullified.
        for pi in players:
            if r._can_discard(pi, zone, step) < r.amount(n_raw):
                return False
    for pi in players:
        ps = s.p[pi]
        n = ALL if n_raw == "all" else r.amount(n_raw)
        if zone == "hot_dogs":
            k = ps.spend(n, by_opp=pi != r.me)
            done = done and k == n
            continue
        if zone == "last_drawn":
            cid = r.last_drawn
            if cid is None or cid not in ps.hand or pi != r.me:
                done = False
                continue
            ps.hand.remove(cid)
            ps.discard.append(cid)
            r.discarded += 1
            r.discarded_ids.append(cid)
            continue
        if zone in ("hero_deck_top", "playbook_top"):
            kind = "hero" if zone == "hero_deck_top" else "play"
            k = n if kind == "hero" else min(n, ps.playbook_size)
            got = 0
            for _ in range(k):
                cid = r.next_drawn(kind, optional=kind == "hero", pi=pi)
                if cid is None:
                    break
                ps.discard.append(cid)
                r.discarded_ids.append(cid)
                got += 1
            if kind == "play":
                ps.playbook_size -= got
            r.discarded += got
            done = done and got == n
            continue
        eligible: list[str] = []
        if zone in ("hand", "hand_heroes"):
            w = step.get("weapon")
            eligible += [
                c
                for c in ps.bench
                if w is None or weapon_in(r._hero(c).weapon, r.weapon_param(w, pi))
            ]
        if zone in ("hand", "hand_plays"):
            eligible += ps.hand
        if step.get("name") == "chosen":
            named = r.choice("name")
            if not isinstance(named, str) or not named.strip():
                names = tuple(p.name for c in eligible if isinstance(p := s.cards[c], Play))
                raise _invalid("name", "choices.name must name a play.", names or ("-",))
            want = _play_key(named)
            eligible = [
                c
                for c in eligible
                if isinstance(p := s.cards[c], Play) and _play_key(p.base) == want
            ]
        k = min(n, len(eligible))
        shared = step.get("who") == "both"
        picked = r._pick("discard", eligible, k, bool(step.get("random")), shared)
        for cid in picked:
            if cid in ps.bench:
                ps.bench.remove(cid)
                r.discarded_weapon = r._hero(cid).weapon
            else:
                ps.hand.remove(cid)
            ps.discard.append(cid)
        r.discarded += len(picked)
        r.discarded_ids += picked
        done = done and (len(picked) == n or n_raw == "all")
    return done


@step_word(
    "search",
    "take a card from a zone into hand (ids from `drawn` or choices.search)",
    _one_of(SEARCHABLE),
    {"weapon": check_weapon, "max_power": check_int, "count": check_int},
)
def do_search(r: Resolver, step: Spec) -> bool:
    s = r.s
    ps = s.p[r.me]
    what = step["search"]
    got = 0
    for _ in range(step.get("count", 1)):
        if what in ("heroes", "plays"):
            kind = "hero" if what == "heroes" else "play"
            if kind == "play" and ps.playbook_size <= 0:
                break
            cid = r.next_drawn(kind, optional=True)
            if cid is None:
                break
            card = s.cards[cid]
            if isinstance(card, Hero):
                if card.power > step.get("max_power", 10**6) or (
                    "weapon" in step and not weapon_in(card.weapon, step["weapon"])
                ):
                    raise IllegalActionError(
                        "invalid_drawn", "CR 5.1.1", f"{cid} does not fit the search."
                    )
                ps.bench.append(cid)
            else:
                ps.hand.append(cid)
                ps.playbook_size -= 1
        else:
            if what == "discard_heroes":
                eligible = [
                    c
                    for c in ps.discard
                    if isinstance(h := s.cards[c], Hero)
                    and ("weapon" not in step or weapon_in(h.weapon, step["weapon"]))
                ]
            else:
                done_before = {c for b, c in ps.used if b < s.battle}
                eligible = [c for c in ps.discard if c in done_before]
            if not eligible:
                break
            cid = r._pick("search", eligible, 1, False)[0]
            ps.discard.remove(cid)
            if isinstance(s.cards[cid], Hero):
                ps.bench.append(cid)
            else:
                ps.hand.append(cid)
                _nullify_source(s, cid)  # CR 5.1.7: returned to hand
        got += 1
    return got == int(step.get("count", 1))


@step_word(
    "reveal_top",
    "reveal the top cards (ids from `drawn`), keep choices.keep, the rest go to `rest`",
    check_amount,
    {
        "deck": _one_of(("heroes", "plays")),
        "who": _WHO,
        "keep": check_int,
        "rest": _one_of(("discard", "shuffle", "top", "bottom")),
    },
)
def do_reveal_top(r: Resolver, step: Spec) -> bool:
    s = r.s
    deck = step.get("deck", "heroes")
    kind = "hero" if deck == "heroes" else "play"
    n = r.amount(step["reveal_top"])
    done = True
    for pi in _who(r.me, step.get("who", "own"), r.actor):
        ps = s.p[pi]
        k = n if kind == "hero" else min(n, ps.playbook_size)
        revealed: list[str] = []
        for _ in range(k):
            cid = r.next_drawn(kind, optional=kind == "hero", pi=pi)
            if cid is None:
                break
            revealed.append(cid)
        keep_n = min(step.get("keep", 0), len(revealed))
        kept = r._pick("keep", revealed, keep_n, False) if keep_n else []
        if kept:
            card = s.cards[kept[-1]]
            r.drawn_cost = _cost(card)
            if isinstance(card, Hero):
                r.drawn_power, r.drawn_weapon = card.power, card.weapon
            else:
                r.last_drawn = card.id
        for cid in revealed:
            if cid in kept:
                (ps.bench if kind == "hero" else ps.hand).append(cid)
            elif step.get("rest", "discard") == "discard":
                ps.discard.append(cid)
            else:
                s.located.discard(cid)
        if kind == "play":
            ps.playbook_size -= len(kept)
            if step.get("rest", "discard") == "discard":
                ps.playbook_size -= len(revealed) - len(kept)
        done = done and len(revealed) == n
    return done


@step_word(
    "flip",
    "flip coins (from random)",
    check_amount,
    {"stop_on": _one_of(("heads", "tails")), "may_stop": check_bool},
)
def do_flip(r: Resolver, step: Spec) -> bool:
    n = r.amount(step["flip"])
    stop = step.get("stop_on")
    for i in range(n):
        if i and step.get("may_stop") and r.cur.ri >= len(r.cur.random):
            break  # "you may flip again": the record shows the player stopped
        face = r.next_random("coin")
        r.coin = str(face)
        if face == "heads":
            r.heads += 1
        else:
            r.tails += 1
        if r.s.triggers:
            fire(r.s, "coin", r.me, r)
        if face == stop:
            break
    return True


def _check_pick(v: Any, path: str) -> None:
    if (
        not isinstance(v, list)
        or not v
        or not all(isinstance(k, str) and k.isidentifier() for k in v)
        or len(set(v)) != len(v)
    ):
        fail(path, "must list the names of the choices that pick a die face")


_DIE_FACES = (1, 2, 3, 4, 5, 6)


def _check_picks(r: Resolver, keys: list[str]) -> None:
    """Numbers picked before a die roll (choices named by ``pick``): each a face of the die,
    1-6, and each different from the ones picked before it (Crystal Ball: "your opponent
    picks a different number")."""
    taken: list[int] = []
    for key in keys:
        n = r.choice(key)
        options = tuple(f for f in _DIE_FACES if f not in taken)
        if not isinstance(n, int) or isinstance(n, bool) or n not in options:
            other = ", ".join(f"choices.{k} ({t})" for k, t in zip(keys, taken, strict=False))
            raise _invalid(
                key,
                f"choices.{key} must be a number from 1 to 6"
                + (f" other than {other}." if taken else "."),
                options,
            )
        taken.append(n)


@step_word(
    "roll",
    "roll dice (from random); `pick`: the choices naming a face first (1-6, all different)",
    check_amount,
    {"who": _WHO, "stop_on": check_int_list, "may_stop": check_bool, "pick": _check_pick},
)
def do_roll(r: Resolver, step: Spec) -> bool:
    if "pick" in step:
        _check_picks(r, step["pick"])
    n = r.amount(step["roll"])
    stop = step.get("stop_on")
    for i in range(n):
        if i and step.get("may_stop") and r.cur.ri >= len(r.cur.random):
            break  # "you may roll again": the record shows the player stopped
        for pi in _who(r.me, step.get("who", "own"), r.actor):
            face = r.next_random("die")
            assert isinstance(face, int)
            (r.dice if pi == r.me else r.opp_dice).append(face)
            if r.s.triggers:
                fire(r.s, "die", pi, r)
        if stop is not None and r.dice and r.dice[-1] in stop:
            break
    return True


@step_word(
    "then",
    "with `if`: steps to run when it holds",
    check_steps,
    {"else": check_steps},
    whole=_needs_if,
)
def do_then(r: Resolver, step: Spec) -> bool:
    # its own `if` decides which branch runs (parse_step leaves it to the handler)
    r.run(step["then"] if r.cond(step["if"]) else step.get("else", ()))
    return True


@step_word("choose", "run the option named by choices.option", _check_options)
def do_choose(r: Resolver, step: Spec) -> bool:
    options = step["choose"]
    chosen = r.choice("option")
    if isinstance(chosen, list):
        i = r.cur.option_i
        r.cur.option_i += 1
        chosen = chosen[i] if i < len(chosen) else None
    if chosen is None:
        # Nothing recorded: when only one option can be done at all, it is the choice.
        able = [name for name, steps in options.items() if r._able(steps)]
        if len(able) == 1:
            chosen = able[0]
    if chosen not in options:
        raise _invalid(
            "option", f"choices.option must be one of {', '.join(options)}.", tuple(options)
        )
    r.run(options[chosen])
    return True


@step_word("repeat", "run `do` that many times", check_amount, {"do": check_steps}, whole=_needs_do)
def do_repeat(r: Resolver, step: Spec) -> bool:
    for _ in range(min(r.amount(step["repeat"]), 50)):
        r.run(step["do"])
    return True


@step_word(
    "cost",
    "change the cost of plays (never below zero)",
    check_amount,
    {
        "who": _WHO,
        "battles": check_battles,
        "plays": check_int,
        "card": _one_of(("chosen",)),
        "while": check_condition,
    },
)
def do_cost(r: Resolver, step: Spec) -> bool:
    if step.get("card") == "chosen":
        # one play of the runner's hand, revealed (choices.card): only it gets the change
        hand = [c for c in r.s.p[r.me].hand if isinstance(r.s.cards[c], Play)]
        if not hand:
            return False
        cid = r.choice("card")
        if cid not in hand:
            raise _invalid("card", "choices.card must be a play in hand.", tuple(hand))
        r.drawn_cost = _cost(r.s.cards[cid])
        step = {**step, "card": cid}
    o = r.ongoing("cost", step, r.amount(step["cost"]))
    if "plays" in step:
        r.s.uses[o.instance] = step["plays"]
    return True


@step_word(
    "sub_cost",
    "set the substitution cost, or who pays it",
    check_amount,
    {"who": _WHO, "battles": check_battles, "payer": _one_of(("own", "opp"))},
)
def do_sub_cost(r: Resolver, step: Spec) -> bool:
    r.ongoing("sub_cost", step, r.amount(step["sub_cost"]))
    return True


def _check_prevent(v: Spec, path: str) -> None:
    if "hero" in v and v.get("who", "own") == "both":
        fail(f"{path}.hero", "a prevention that follows a hero protects one player's hero")


@step_word(
    "prevent",
    "forbid something for a time (hero: only while that active hero stays, CR 3.2)",
    _one_of(PREVENTS),
    {
        "who": _WHO,
        "battles": check_battles,
        "weapon": check_weapon,
        "until": _one_of(("win",)),
        "hero": _one_of(("active",)),
    },
    whole=_check_prevent,
)
def do_prevent(r: Resolver, step: Spec) -> bool:
    o = r.ongoing("prevent", step)
    if step.get("hero") == "active":
        # "This Hero can't ...": the protection follows the active hero and ends when it
        # leaves the battle zone (CR 3.2); a hero replacing it is not protected.
        (pi,) = _who(r.me, step.get("who", "own"), r.actor)
        o.step["hero"] = r.s.p[pi].lineup[r.s.battle - 1]
    return True


@step_word(
    "max_plays", "limit plays per battle", check_int, {"who": _WHO, "battles": check_battles}
)
def do_max_plays(r: Resolver, step: Spec) -> bool:
    r.ongoing("max_plays", step)
    return True


@step_word(
    "replace_hero",
    "replace the active hero (new one from choices.hero or `drawn`)",
    _one_of(ZONES_HERO_FROM),
    {
        "who": _WHO,
        "weapon": check_weapon,
        "old_to": _one_of(("discard", "hand", "future")),
        "draw_heroes": check_int,
        "slots": _one_of(("this", "future")),
        "may": check_bool,
    },
)
def do_replace_hero(r: Resolver, step: Spec) -> bool:
    s = r.s
    where = step["replace_hero"]
    if step.get("slots") == "future":
        return r._replace_future(step)
    old_to = step.get("old_to", "discard")
    slot = s.battle - 1
    done = True
    chosen = r.choice("hero")
    if step.get("may") and chosen is False:
        return True  # "you can replace": declined (choices.hero false)
    for pi in _who(r.me, step.get("who", "own"), r.actor):
        if pi != r.me and s.ongoing and s.is_prevented("opp_effects", pi):
            done = False  # Immunity: the opponent's play can't move this hero (if able)
            continue
        ps = s.p[pi]
        w = step.get("weapon")
        new: str | None = None
        if where == "hero_deck_top":
            new = r.next_drawn("hero", optional=True, pi=pi)
        elif where == "future":
            b = r.choice("battle")
            if not isinstance(b, int) or not s.battle < b <= BATTLES:
                raise _invalid(
                    "battle",
                    "choices.battle must name a future battle.",
                    tuple(range(s.battle + 1, BATTLES + 1)),
                )
            new = ps.lineup[b - 1]
            ps.lineup[b - 1] = ps.lineup[slot]
            ps.lineup[slot] = new
            ps.clear_hero()
            ps.revealed[-1:] = [new]
            if s.triggers:
                # the hero swapped in is revealed now: effects following it fire
                fire(s, "reveal", pi, r, hero_only=True)
            continue
        else:
            zone = ps.bench if where == "hand" else ps.discard
            eligible = [
                c
                for c in zone
                if isinstance(h := s.cards[c], Hero)
                and (w is None or weapon_in(h.weapon, r.weapon_param(w, pi)))
            ]
            if not eligible:
                done = False
                continue
            pick = chosen.get(PLAYERS[pi]) if isinstance(chosen, dict) else chosen
            if len(eligible) == 1 and pick is None:
                pick = eligible[0]
            if pick not in eligible:
                raise _invalid(
                    "hero",
                    f"choices.hero must be one of: {', '.join(eligible)}.",
                    tuple(eligible),
                )
            new = str(pick)
            zone.remove(new)
        if new is None:
            done = False
            continue
        old = ps.lineup[slot]
        ps.lineup[slot] = new
        if old_to == "hand":
            ps.bench.append(old)
        else:
            ps.discard.append(old)
        ps.clear_hero()  # CR 3.2: the old hero's effects end; the new one starts fresh
        if s.triggers or s.ongoing:
            s.hero_left(old)
        if ps.revealed:
            ps.revealed[-1] = new
        for _ in range(step.get("draw_heroes", 0)):
            if not r.draw_hero(pi):
                break
    return done


@step_word(
    "set_weapon",
    "change heroes' weapon type",
    check_weapon,
    {"target": _TARGET, "from": check_weapon, "battles": check_battles},
)
def do_set_weapon(r: Resolver, step: Spec) -> bool:
    r.ongoing("set_weapon", step)  # a "chosen" weapon is frozen by bind()
    return True


@step_word(
    "on",
    "a trigger: run `do` whenever the event happens (hero: when choices.hero is revealed)",
    _check_event,
    {
        "who": _WHO,
        "battles": check_battles,
        "do": check_steps,
        "once": check_bool,
        "hero": _one_of(("chosen",)),
    },
    whole=_check_on,
)
def do_on(r: Resolver, step: Spec) -> bool:
    if step.get("hero") == "chosen":
        # "Choose one of your unrevealed Heroes. When that Hero is revealed": the trigger
        # follows that card through moves in the lineup and ends if it leaves (CR 3.2).
        cid = r.chosen_hero()
        if cid is None:
            return False
        rest = frozenset(range(r.s.battle, BATTLES + 1))
        o = r.ongoing("on", {**step, "once": True}, battles=rest)
        o.step["hero"] = cid
    else:
        o = r.ongoing("on", step)
    later = r.choice("trigger")
    if isinstance(later, dict) and step["on"] in _DETACHED_EVENTS:
        o.step["outcomes"] = later  # a fresh dict from bind(): taken when it fires
    return True


@step_word("cancel", "nullify ongoing effects (CR 5.1.7)", _one_of(CANCEL_WHAT), {"who": _WHO})
def do_cancel(r: Resolver, step: Spec) -> bool:
    s = r.s
    what = step["cancel"]
    if what == "triggering_play":
        if r.parent is None:
            return False
        r.parent.nullified = True  # CR 5.1.7 / Glossary: Cancelled (cost stays paid)
        return True
    if what in ("ongoing", "rest_of_game"):
        owners = _who(r.me, step.get("who", "both"), r.actor)
        if what == "ongoing":
            s.drop(lambda o: o.owner in owners)
        else:
            # "Plays that are affecting the rest of the Game" (Pulling The Plug): only
            # effects lasting to the end of the game, not "this battle and the next".
            s.drop(lambda o: o.owner in owners and o.step.get("battles") in _REST)
        return True
    # opp_plays_this_battle: their effects this battle end (CR 5.1.7, Glossary: Nullify)
    opp_plays = set(s.p[r.opp].plays_battle)
    s.drop(lambda o: o.source in opp_plays)
    for ps in s.p:
        ps.mods[:] = [m for m in ps.mods if m[1] not in opp_plays]
        if ps.floor is not None and ps.floor[0] in opp_plays:
            ps.floor = None
    return True


@step_word("copy", "run the last play its player used, as it", _one_of(("last_own_play",)))
def do_copy(r: Resolver, step: Spec) -> bool:
    s = r.s
    last = None
    for _b, cid in reversed(s.p[r.me].used):
        if cid != r.source:
            last = s.cards[cid]
            break
    if not isinstance(last, Play) or r.depth >= MAX_DEPTH:
        return False
    # CR 5.1.6-5.1.7: the copy is that play; its earlier ongoing instance ends.
    _nullify_source(s, last.id)
    sub = Resolver(s, r.me, last, r.cur, last.id, r.depth + 1)
    sub.run(last.effect)
    return not sub.nullified


@step_word(
    "run",
    "run another play (card from `drawn`/choices.run.card; nested choices.run)",
    _one_of(RUN_FROM),
    {"free": check_bool, "who": _one_of(("own", "opp"))},
)
def do_run(r: Resolver, step: Spec) -> bool:
    s = r.s
    runner = r.opp if step.get("who") == "opp" else r.me
    ps = s.p[runner]
    where = step["run"]
    nested = r.choice("run")
    nested = nested if isinstance(nested, dict) else {}
    if r.depth >= MAX_DEPTH:
        return False
    if where == "last_drawn":
        cid = r.last_drawn
        if cid is None or cid not in ps.hand:
            return False
        ps.hand.remove(cid)
    elif where == "hand":
        cid = nested.get("card")
        if cid not in ps.hand:
            if not ps.hand:
                return False
            raise _invalid("run", "choices.run.card must be a play in hand.", tuple(ps.hand))
        ps.hand.remove(cid)
    else:
        if ps.playbook_size <= 0:
            return False
        cid = r.next_drawn("play", pi=runner)
        ps.playbook_size -= 1
    assert isinstance(cid, str)
    play = s.cards[cid]
    assert isinstance(play, Play)
    if not step.get("free"):
        cost = s.play_cost(runner, play, charge=True)
        if cost > s.spendable(runner):
            ps.discard.append(cid)
            return False
        s.pay(runner, cost)
    cur = Cursor(None)
    cur.random, cur.drawn, cur.ri, cur.di = (
        r.cur.random,
        r.cur.drawn,
        r.cur.ri,
        r.cur.di,
    )
    cur.choices = nested.get("choices", {}) if isinstance(nested.get("choices"), dict) else {}
    start_play(s, runner, play)
    sub = Resolver(s, runner, play, cur, cid, r.depth + 1)
    sub.run(play.effect)
    r.cur.ri, r.cur.di = cur.ri, cur.di
    if cid not in ps.ghost:  # a play that became a hot dog stays one (Ghost Dog)
        ps.discard.append(cid)
    return True


@step_word(
    "shuffle",
    "shuffle a zone (or `count` cards of it, choices.shuffle) back into its deck",
    _one_of(SHUFFLE_WHAT),
    {"who": _WHO, "count": check_int},
)
def do_shuffle(r: Resolver, step: Spec) -> bool:
    s = r.s
    what = step["shuffle"]
    for pi in _who(r.me, step.get("who", "own"), r.actor):
        ps = s.p[pi]
        if what == "hand_plays":
            moved = ps.hand[:]
            ps.hand.clear()
            ps.playbook_size += len(moved)
        elif what == "hand_heroes":
            moved = ps.bench[:]
            ps.bench.clear()
        else:
            prev = {c for b, c in ps.used if b < s.battle}
            moved = [
                c
                for c in ps.discard
                if (what == "discard")
                or (what == "discard_heroes" and isinstance(s.cards[c], Hero))
                or (what == "used_plays" and c in prev)
            ]
            if "count" in step:  # the player picks that many (choices.shuffle)
                k = int(step["count"])
                if len(moved) < k:
                    return False
                moved = r._pick("shuffle", moved, k, False)
            for c in moved:
                ps.discard.remove(c)
                if isinstance(s.cards[c], Play):
                    ps.playbook_size += 1
                    _nullify_source(s, c)  # CR 5.1.7
        for c in moved:
            s.located.discard(c)
        r.shuffled += len(moved)
    return True


@step_word(
    "reorder", "reorder face-down heroes (choices.order)", _one_of(("future",)), {"who": _WHO}
)
def do_reorder(r: Resolver, step: Spec) -> bool:
    ps = r.s.p[r.me]
    future = ps.lineup[r.s.battle :]
    order = r.choice("order")
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(future):
        raise _invalid(
            "order",
            "choices.order must list the future heroes in a new order.",
            (future, future[::-1]),
        )
    ps.lineup[r.s.battle :] = [str(x) for x in order]
    return True


@step_word("end_battle", "end the play phase now; the winner is decided", _check_true)
def do_end_battle(r: Resolver, step: Spec) -> bool:
    r.s.play_ended = True
    return True


@step_word("honors", "who has honors next battle", _one_of(("own", "opp", "chosen")))
def do_honors(r: Resolver, step: Spec) -> bool:
    who = step["honors"]
    if who == "chosen":
        pick = r.choice("honors")
        if pick not in PLAYERS:
            raise _invalid("honors", "choices.honors must be 'A' or 'B'.", PLAYERS)
        r.s.honors_next = PLAYERS.index(pick)
    else:
        r.s.honors_next = r.me if who == "own" else r.opp
    return True


@step_word("look", "look at hidden cards: no change to the game state", check_text)
def do_look(r: Resolver, step: Spec) -> bool:
    return True


@step_word("judge", "a judge's call; outcome steps from choices.judge", check_text)
def do_judge(r: Resolver, step: Spec) -> bool:
    ruling = r.choice("judge")
    if ruling is None:
        return True
    try:
        steps = validate_effect(ruling, "choices.judge")
    except EffectError as exc:
        raise IllegalActionError("invalid_choice", "CR 5.1.1", exc.args[0]) from None
    r.run(steps)
    return True
