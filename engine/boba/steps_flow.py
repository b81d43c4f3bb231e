"""Step words that run other steps or change the course of play: conditions, options,
repeats, costs, prevention, triggers, cancelling, copying and running plays, replacing a hero
or a weapon, shuffling and reordering a zone, the battle's end, honors, looks and a judge's
call (registered from :mod:`engine.boba.steps`, which says how)."""

from __future__ import annotations

from typing import Any

from .cards import Hero, Play
from .checks import (
    WHO,
    EffectError,
    check_battles,
    check_bool,
    check_int,
    check_text,
    check_true,
    check_weapon,
    fail,
    one_of,
)
from .context import Cursor, _invalid
from .effect_checks import (
    CANCEL_WHAT,
    EVENTS,
    PREVENTS,
    RUN_FROM,
    SHUFFLE_WHAT,
    ZONES_HERO_FROM,
    check_steps,
    validate_effect,
)
from .errors import IllegalActionError
from .resolve import (
    _DETACHED_EVENTS,
    _REST,
    MAX_DEPTH,
    Resolver,
    _cost,
    _nullify_source,
    _who,
    fire,
    start_play,
)
from .rules import BATTLES, PLAYERS, weapon_in
from .vocabulary import (
    Spec,
    check_amount,
    check_condition,
    step_word,
)

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
        "card": one_of(("chosen",)),
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
    {"who": _WHO, "battles": check_battles, "payer": one_of(("own", "opp"))},
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
    one_of(PREVENTS),
    {
        "who": _WHO,
        "battles": check_battles,
        "weapon": check_weapon,
        "until": one_of(("win",)),
        "hero": one_of(("active",)),
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
    one_of(ZONES_HERO_FROM),
    {
        "who": _WHO,
        "weapon": check_weapon,
        "old_to": one_of(("discard", "hand", "future")),
        "draw_heroes": check_int,
        "slots": one_of(("this", "future")),
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
        "hero": one_of(("chosen",)),
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


@step_word("cancel", "nullify ongoing effects (CR 5.1.7)", one_of(CANCEL_WHAT), {"who": _WHO})
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


@step_word("copy", "run the last play its player used, as it", one_of(("last_own_play",)))
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
    one_of(RUN_FROM),
    {"free": check_bool, "who": one_of(("own", "opp"))},
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
    one_of(SHUFFLE_WHAT),
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
    "reorder", "reorder face-down heroes (choices.order)", one_of(("future",)), {"who": _WHO}
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


@step_word("end_battle", "end the play phase now; the winner is decided", check_true)
def do_end_battle(r: Resolver, step: Spec) -> bool:
    r.s.play_ended = True
    return True


@step_word("honors", "who has honors next battle", one_of(("own", "opp", "chosen")))
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
