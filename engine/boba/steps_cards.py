"""Step words about cards and dice: drawing, discarding, searching, revealing and flipping
cards, and rolling dice (registered from :mod:`engine.boba.steps`, which says how)."""

from __future__ import annotations

from typing import Any

from .cards import Hero, Play
from .checks import (
    WHO,
    check_bool,
    check_int,
    check_int_list,
    check_weapon,
    fail,
    one_of,
)
from .context import _invalid
from .effect_checks import (
    SEARCHABLE,
    ZONES_DISCARD_FROM,
)
from .errors import IllegalActionError
from .play_names import base_name, normalise_name
from .resolve import (
    ALL,
    Resolver,
    _cost,
    _nullify_source,
    _who,
    fire,
)
from .rules import weapon_in
from .vocabulary import (
    Spec,
    check_amount,
    check_amount_or_all,
    step_word,
)

_WHO = one_of(WHO)


def _play_key(name: str) -> str:
    """A play's base name, normalised: "called shot - HTD" and "Called Shot" match."""
    return normalise_name(base_name(name))


@step_word(
    "draw",
    "draw cards (ids from `drawn`)",
    check_amount,
    {"deck": one_of(("plays", "heroes", "either")), "who": _WHO},
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
        "from": one_of(ZONES_DISCARD_FROM),
        "who": _WHO,
        "weapon": check_weapon,
        "random": check_bool,
        "name": one_of(("chosen",)),
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
    one_of(SEARCHABLE),
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
        "deck": one_of(("heroes", "plays")),
        "who": _WHO,
        "keep": check_int,
        "rest": one_of(("discard", "shuffle", "top", "bottom")),
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
    {"stop_on": one_of(("heads", "tails")), "may_stop": check_bool},
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
