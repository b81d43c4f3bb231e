"""What each effect step does (CR 5): the resolver behind :mod:`engine.boba.effects`.

A :class:`Context` answers counts and conditions for one player (the play's owner); a
:class:`Resolver` runs a list of steps for one play under the "if able" rule (CR 5.2.1),
reading coins and dice from the action's ``random``, cards from hidden zones from its
``drawn`` and decisions from its ``choices``. Missing outcomes raise IllegalActionError with
``needs`` set (the generator fills them in); outcomes left over are illegal too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import Hero, Play
from .effects import WEAPONS, EffectError, step_kind, validate_effect
from .errors import IllegalActionError, Need
from .play_library import base_name, normalise_name
from .results import Ongoing
from .rules import BATTLES, HOT_DOGS, OTHER, PLAYERS, weapon_in
from .vocabulary import CONDITION_WORDS, COUNT_WORDS, condition_kind

if TYPE_CHECKING:
    from .state import GameState

MAX_DEPTH = 4  # nested runs, copies and triggers
_REST = ("rest", "later")  # durations that run to the end of the game
ALL = 10**6  # "all" cards of a zone


def _who(me: int, who: str, actor: int | None = None) -> tuple[int, ...]:
    if who == "both":
        return (me, OTHER[me])
    if who == "actor":
        return (me if actor is None else actor,)
    return (me,) if who == "own" else (OTHER[me],)


class Cursor:
    """The outcomes an action supplies, consumed in order."""

    __slots__ = ("choices", "di", "drawn", "option_i", "random", "ri")

    def __init__(self, action: Action | None) -> None:
        self.random: tuple[str | int, ...] = action.random if action else ()
        self.drawn: tuple[str, ...] = action.drawn if action else ()
        self.choices: dict[str, Any] = action.choices if action else {}
        self.ri = 0
        self.di = 0
        self.option_i = 0


class Context:
    """Counts and conditions seen from player ``me`` while ``play`` resolves."""

    __slots__ = (
        "actor",
        "before_cost",
        "coin",
        "cur",
        "dice",
        "discarded",
        "discarded_ids",
        "discarded_weapon",
        "drawn_cost",
        "drawn_power",
        "drawn_weapon",
        "heads",
        "last_drawn",
        "me",
        "opp",
        "opp_dice",
        "paid",
        "play",
        "result",
        "revealed_powers",
        "s",
        "shuffled",
        "tails",
        "target",
    )

    def __init__(
        self, s: GameState, me: int, play: Play | None, cursor: Cursor | None = None
    ) -> None:
        self.s = s
        self.me = me
        self.opp = OTHER[me]
        self.play = play
        self.cur = cursor or Cursor(None)
        self.heads = 0
        self.tails = 0
        self.coin: str | None = None
        self.dice: list[int] = []
        self.opp_dice: list[int] = []
        self.paid = 0
        self.discarded = 0
        self.drawn_power = 0
        self.drawn_cost = 0
        self.drawn_weapon: str | None = None
        self.discarded_weapon: str | None = None
        self.discarded_ids: list[str] = []
        self.last_drawn: str | None = None
        self.shuffled = 0
        self.before_cost = 0
        self.target: int | None = None  # the hero an amount or aura is being applied to
        self.actor: int | None = None  # inside triggers: the player who caused the event
        self.result: str | None = None  # inside battle-end triggers: won/lost/draw for me
        self.revealed_powers: dict[int, int] = {}  # player -> last hero revealed/drawn power

    def choice(self, key: str) -> Any:
        """The action's choice for ``key``; a record whose ``choices`` is a bare value (not an
        object) answers every question with it."""
        c = self.cur.choices
        return c[key] if key in c else c.get("*")

    # ---------------------------------------------------------------- amounts

    def amount(self, v: Any) -> int:
        if isinstance(v, int):
            return v
        if v in ("all", "any"):
            return HOT_DOGS
        if "choice" in v:
            base = self.choice(v["choice"])
            if not isinstance(base, int) or isinstance(base, bool):
                raise _invalid(
                    v["choice"], f"choices.{v['choice']} must be a number.", (1, 2, 3, 4, 5, 6)
                )
        else:
            base = self.count(v)
        n: int = base * int(v.get("times", 1)) + int(v.get("plus", 0))
        if "max" in v:
            n = min(n, v["max"])
        if "min" in v:
            n = max(n, v["min"])
        return n

    def weapon_param(self, v: Any, pi: int) -> Any:
        if v == "active":
            return self.s.weapon(self.me)
        if v == "chosen":
            w = self.choice("weapon")
            if w not in WEAPONS:
                raise _invalid("weapon", "choices.weapon must name a weapon type.", WEAPONS)
            return w
        if v == "same":
            return self.s.weapon(OTHER[pi])
        if v == "discarded":
            return self.discarded_weapon
        if v == "drawn":
            return self.drawn_weapon
        return v

    def whose(self, spec: Any) -> int:
        w = spec.get("whose") if isinstance(spec, dict) else None
        if w is None or w == "own":
            return self.me
        if w == "opp":
            return self.opp
        if w == "target":
            return self.me if self.target is None else self.target
        return self.me if self.actor is None else self.actor

    def count(self, spec: Mapping[str, Any]) -> int:
        """The value of the count ``spec`` names (the registry's evaluator)."""
        word = COUNT_WORDS.get(spec["count"])
        if word is None:
            raise IllegalActionError(
                "unknown_count", "CR 5.1.1", f"Unknown count {spec['count']!r}."
            )
        return word.evaluate(self, spec, self.whose(spec))

    # ---------------------------------------------------------------- conditions

    def cond(self, c: Mapping[str, Any]) -> bool:
        """Whether condition ``c`` holds now (the registry's evaluator; unknown: False)."""
        kind = condition_kind(c)
        if kind is None:
            return False
        return CONDITION_WORDS[kind].holds(self, c, self.whose(c))


def _cost(card: Any) -> int:
    return card.cost or 0 if isinstance(card, Play) else 0


def _battles(s: GameState, spec: Any, chosen: Any) -> frozenset[int]:
    b = s.battle
    if spec is None or spec == "this":
        return frozenset((b,))
    if isinstance(spec, dict):
        lo = max(b, spec.get("from", b))
        return frozenset(range(lo, spec.get("to", BATTLES) + 1))
    if spec == "rest":
        return frozenset(range(b, BATTLES + 1))
    if spec == "later":
        return frozenset(range(b + 1, BATTLES + 1))
    if spec == "chosen":
        n = chosen
        if not isinstance(n, int) or isinstance(n, bool) or not b < n <= BATTLES:
            raise IllegalActionError(
                "invalid_choice",
                "CR 3.3",
                f"choices.battle must name a future battle ({b + 1}-{BATTLES}).",
                Need("choice", "battle", tuple(range(b + 1, BATTLES + 1))),
            )
        return frozenset((n,))
    return frozenset(b + k for k in spec if b + k <= BATTLES)


def _invalid(key: str, message: str, options: tuple[Any, ...] = ()) -> IllegalActionError:
    return IllegalActionError(
        "invalid_choice", "CR 5.1.1", message, Need("choice", key, options) if options else None
    )


class Resolver(Context):
    """Runs one play's steps (CR 5.1.2: fully, before the next play)."""

    __slots__ = ("depth", "key", "nullified", "parent", "source")

    def __init__(
        self,
        s: GameState,
        me: int,
        play: Play | None,
        cursor: Cursor,
        source: str,
        depth: int = 0,
    ) -> None:
        super().__init__(s, me, play, cursor)
        self.source = source
        self.key = play.base.lower() if play else source
        self.depth = depth
        self.nullified = False
        self.parent: Resolver | None = None

    # ---------------------------------------------------------------- outcomes

    def next_random(self, kind: str) -> str | int:
        cur = self.cur
        if cur.ri >= len(cur.random):
            raise IllegalActionError(
                "missing_random",
                "CR 2.2.1" if kind == "coin" else "CR 2.2.4",
                f"The play needs a {kind} result that the record does not give (random).",
                Need("random", kind),
            )
        r = cur.random[cur.ri]
        if (kind == "coin") != (r in ("heads", "tails")):
            raise IllegalActionError(
                "invalid_random",
                "CR 2.2.1" if kind == "coin" else "CR 2.2.4",
                f"random[{cur.ri}] is {r!r} but the play needs a {kind} result here.",
            )
        cur.ri += 1
        return r

    def next_drawn(self, kind: str, optional: bool = False, pi: int | None = None) -> str | None:
        cur = self.cur
        if cur.di >= len(cur.drawn):
            if optional and not self.s.probe:
                return None  # the hero deck is empty (its size is not recorded)
            raise IllegalActionError(
                "missing_drawn",
                "CR 5.1.5",
                f"The play takes a {kind} from a hidden zone that the record does not give "
                "(drawn).",
                Need(
                    "drawn",
                    kind,
                    ("optional",) if optional else (),
                    1,
                    self.me if pi is None else pi,
                ),
            )
        cid = cur.drawn[cur.di]
        owner = self.me if pi is None else pi
        try:
            self.s.check_new(cid, kind, owner, "CR 5.1.5")
        except IllegalActionError as exc:
            raise IllegalActionError(
                exc.code, exc.rule, f"drawn[{cur.di}]: {exc.message}"
            ) from None
        cur.di += 1
        self.s.take(cid, owner)
        card = self.s.cards[cid]
        if isinstance(card, Hero):
            self.drawn_power = card.power
            self.drawn_weapon = card.weapon
            self.revealed_powers[owner] = card.power
        elif isinstance(card, Play):
            self.drawn_cost = card.cost or 0
        return cid

    # ---------------------------------------------------------------- running

    def run(self, steps: Any) -> None:
        for step in steps:
            if self.nullified:
                return
            self.step(step)

    def step(self, step: dict[str, Any]) -> None:
        kind = step_kind(step)
        if kind == "then":
            if self.cond(step["if"]):
                self.run(step["then"])
            else:
                self.run(step.get("else", ()))
            return
        if "if" in step and not self.cond(step["if"]):
            if step.get("required"):
                self.nullified = True  # CR 5.2.3 A
            return
        done = getattr(self, "do_" + kind)(step)
        if not done and step.get("required"):
            self.nullified = True  # CR 5.2.3 A: the rest of the effect is nullified

    def ongoing(
        self,
        kind: str,
        step: dict[str, Any],
        amount: int = 0,
        battles: frozenset[int] | None = None,
    ) -> Ongoing:
        o = Ongoing(
            self.s.new_instance(),
            self.me,
            self.source,
            self.key,
            kind,
            self.bind(step),
            battles
            if battles is not None
            else _battles(self.s, step.get("battles"), self.choice("battle")),
            amount,
            self.s.battle,
        )
        self.s.add_ongoing(o)
        return o

    def bind(self, obj: Any, refs: tuple[str, ...] = ("chosen", "discarded", "drawn")) -> Any:
        """Freeze what this resolution decided (choices; the weapon of a hero it discarded or
        drew) into an ongoing step, so it means the same thing in later battles. Inside a
        trigger's ``do`` only choices are frozen: the rest is read when the trigger fires."""
        if isinstance(obj, list):
            return [self.bind(x, refs) for x in obj]
        if not isinstance(obj, dict):
            return obj
        out: dict[str, Any] = {}
        for k, v in obj.items():
            if k == "do":
                out[k] = self.bind(v, ("chosen",))
            elif k in ("weapon", "set_weapon", "drawn_weapon") and v in refs:
                out[k] = self.weapon_param(v, self.me)
            elif (
                isinstance(v, dict)
                and "choice" in v
                and set(v) <= {"choice", "times", "plus", "min", "max"}
            ):
                out[k] = self.amount(v)
            elif isinstance(v, dict) and v.get("count") in ("drawn_cost", "drawn_power"):
                out[k] = self.amount(v)  # what this play revealed, not a later play's
            else:
                out[k] = self.bind(v, refs)
        return out

    def protected(self, pi: int, amount: int) -> bool:
        s = self.s
        if pi != self.me and s.is_prevented("opp_effects", pi):
            return True
        if amount < 0:
            if s.is_prevented("power_loss", pi):
                return True
            if pi != self.me and s.is_prevented("power_loss_from_opp", pi):
                return True
        return False

    def modify(self, pi: int, amount: int) -> bool:
        if amount == 0:
            return True
        if amount < 0 and pi != self.me and self.s.ongoing and _inverted(self.s, pi):
            amount = -amount  # Sweet Relish: the opponent's power cuts become gains
        if self.protected(pi, amount):
            return False
        self.s.p[pi].mods.append((self.s.new_instance(), self.source, amount))
        return True

    # ---------------------------------------------------------------- power

    def do_power(self, step: dict[str, Any]) -> bool:
        battles = step.get("battles", "this")
        if battles != "this" or "while" in step:
            self.ongoing("power", step, self.amount(step["power"]))
            return True
        done = True
        w = step.get("weapon")
        for pi in _who(self.me, step.get("target", "own"), self.actor):
            if w is not None and not weapon_in(self.s.weapon(pi), self.weapon_param(w, pi)):
                continue
            self.target = pi
            done = self.modify(pi, self.amount(step["power"])) and done
        self.target = None
        return done

    def do_set_power(self, step: dict[str, Any]) -> bool:
        done = True
        for pi in _who(self.me, step.get("target", "own"), self.actor):
            self.target = pi
            value = self.amount(step["set_power"])
            done = self.modify(pi, value - self.s.power(pi)) and done
        self.target = None
        return done

    def do_power_floor(self, step: dict[str, Any]) -> bool:
        for pi in _who(self.me, step.get("target", "own"), self.actor):
            ps = self.s.p[pi]
            floor = self.s.power(pi)
            if ps.floor is None or ps.floor[1] < floor:
                ps.floor = (self.source, floor)
        return True

    def do_invert(self, step: dict[str, Any]) -> bool:
        s = self.s
        self.ongoing("invert", step)
        for pi in _who(self.me, step.get("who", "own"), self.actor):
            opp = OTHER[pi]
            ps = s.p[pi]
            # "now raise": the opponent's cuts made earlier this battle turn into gains too
            ps.mods[:] = [
                (n, src, -a if a < 0 and s.owner.get(src) == opp else a) for n, src, a in ps.mods
            ]
        return True

    def do_overspend(self, step: dict[str, Any]) -> bool:
        self.ongoing("overspend", step, self.amount(step["overspend"]))
        return True

    def do_rule(self, step: dict[str, Any]) -> bool:
        self.ongoing("rule", step)
        return True

    def do_recovery(self, step: dict[str, Any]) -> bool:
        self.ongoing("recovery", step)
        return True

    def do_exchange_hot_dogs(self, step: dict[str, Any]) -> bool:
        # Each player's 10 hot dogs stay available or discarded (README decision 9): the
        # available counts switch, the discards make up the rest. Neither a loss nor a
        # recovery, so recovery rules (Bun Shortage) do not touch it.
        # Ghost dogs (plays that are hot dogs) stay with their owner, out of the switch.
        a, b = self.s.p[self.me], self.s.p[self.opp]
        ga, gb = len(a.ghost), len(b.ghost)
        pa, pb = a.hot_dogs - ga, b.hot_dogs - gb
        ta, tb = pa + a.hot_dogs_discarded, pb + b.hot_dogs_discarded
        na, nb = min(pb, ta), min(pa, tb)
        a.hot_dogs, a.hot_dogs_discarded = na + ga, ta - na
        b.hot_dogs, b.hot_dogs_discarded = nb + gb, tb - nb
        return True

    def do_become_hot_dog(self, step: dict[str, Any]) -> bool:
        """The play being run becomes one more hot dog for its runner (Ghost Dog, README
        decision 9): available until spent, then discarded as a Play (PlayerState.spend). A
        copy or a play not being run as a card (already a hot dog or discarded) cannot."""
        ps = self.s.p[self.me]
        cid = self.source
        if self.play is None or self.play.id != cid or cid in ps.ghost or cid in ps.discard:
            return False
        ps.ghost.append(cid)
        ps.hot_dogs += 1
        return True

    def do_swap_power(self, step: dict[str, Any]) -> bool:
        a, b = self.s.power(self.me), self.s.power(self.opp)
        return self.modify(self.me, b - a) & self.modify(self.opp, a - b)

    # ---------------------------------------------------------------- hot dogs

    def do_recover(self, step: dict[str, Any]) -> bool:
        n = self.amount(step["recover"])
        if step.get("up_to") and isinstance(self.choice("recover"), int):
            n = max(0, min(n, self.choice("recover")))
        done = True
        for pi in _who(self.me, step.get("who", "own"), self.actor):
            k = self.s.recover_hot_dogs(pi, n)
            done = done and k >= n
        return done or step["recover"] == "all"

    def do_lose_hot_dogs(self, step: dict[str, Any]) -> bool:
        n = self.amount(step["lose_hot_dogs"])
        done = True
        for pi in _who(self.me, step.get("who", "own"), self.actor):
            ps = self.s.p[pi]
            k = ps.spend(n, by_opp=pi != self.me)
            done = done and k == n
        return done or step["lose_hot_dogs"] == "all"

    def do_pay(self, step: dict[str, Any]) -> bool:
        ps = self.s.p[self.me]
        if step["pay"] == "any":
            n = self.choice("pay")
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise _invalid(
                    "pay",
                    "choices.pay must say how many hot dogs to pay.",
                    tuple(range(self.s.spendable(self.me) + 1)),
                )
        else:
            n = self.amount(step["pay"])
        if n > self.s.spendable(self.me):
            if step["pay"] == "any":
                raise IllegalActionError(
                    "insufficient_hot_dogs",
                    "CR 5.2.2",
                    f"{PLAYERS[self.me]} cannot pay {n} hot dogs with {ps.hot_dogs}.",
                )
            return False
        self.s.pay(self.me, n)
        self.paid += n
        return True

    # ---------------------------------------------------------------- cards

    def draw_play(self, pi: int) -> bool:
        s = self.s
        ps = s.p[pi]
        if ps.playbook_size <= 0 or s.is_prevented("draw_plays", pi):
            return False
        cid = self.next_drawn("play", pi=pi)
        assert cid is not None
        ps.hand.append(cid)
        ps.playbook_size -= 1
        self.last_drawn = cid
        return True

    def draw_hero(self, pi: int) -> bool:
        cid = self.next_drawn("hero", optional=True, pi=pi)
        if cid is None:
            return False
        self.s.p[pi].bench.append(cid)
        return True

    def do_draw(self, step: dict[str, Any]) -> bool:
        n = self.amount(step["draw"])
        deck = step.get("deck", "plays")
        done = True
        for pi in _who(self.me, step.get("who", "own"), self.actor):
            for _ in range(n):
                if deck == "heroes":
                    ok = self.draw_hero(pi)
                elif deck == "plays":
                    ok = self.draw_play(pi)
                else:
                    nxt = self.cur.drawn[self.cur.di] if self.cur.di < len(self.cur.drawn) else None
                    if nxt is not None and self.s.cards[nxt].kind == "hero":
                        ok = self.draw_hero(pi)
                    else:
                        ok = self.draw_play(pi)
                if not ok:
                    done = False  # the deck is empty or drawing is prevented (if able)
                    break
        return done

    def _pick(
        self, key: str, eligible: list[str], k: int, use_drawn: bool, shared: bool = False
    ) -> list[str]:
        """k distinct cards out of eligible: all of them if k covers them, else chosen (from
        ``drawn`` when the pick is random). ``shared``: one choices list serves both players."""
        if k >= len(eligible) and (use_drawn or self.choice(key) is None):
            cur = self.cur
            left = set(eligible) if use_drawn else set()
            while cur.di < len(cur.drawn) and cur.drawn[cur.di] in left:
                left.discard(cur.drawn[cur.di])  # a forced "random" pick may be written down
                cur.di += 1
            return eligible[:]
        if use_drawn:
            picked: list[str] = []
            for _ in range(k):
                cur = self.cur
                if cur.di >= len(cur.drawn):
                    raise IllegalActionError(
                        "missing_drawn",
                        "CR 5.1.5",
                        "The random pick is not in the record (drawn).",
                        Need("pick", key, tuple(x for x in eligible if x not in picked), k),
                    )
                cid = cur.drawn[cur.di]
                if cid not in eligible or cid in picked:
                    raise IllegalActionError(
                        "invalid_drawn",
                        "CR 5.1.5",
                        f"drawn[{cur.di}] {cid} is not one of the cards that could be picked.",
                    )
                cur.di += 1
                picked.append(cid)
            return picked
        chosen = self.choice(key)
        if isinstance(chosen, str):
            chosen = [chosen]
        if isinstance(chosen, list) and shared:
            chosen = [c for c in chosen if c in eligible]  # one list for both players' picks
        if (
            not isinstance(chosen, list)
            or len(chosen) != k
            or len(set(map(str, chosen))) != k
            or not all(c in eligible for c in chosen)
        ):
            raise IllegalActionError(
                "invalid_choice",
                "CR 5.1.1",
                f"choices.{key} must list {k} of: {', '.join(eligible)}.",
                Need("choice", key, tuple(eligible), k),
            )
        return [str(c) for c in chosen]

    def do_discard(self, step: dict[str, Any]) -> bool:
        s = self.s
        zone = step.get("from", "hand_plays")
        n_raw = step["discard"]
        done = True
        players = _who(self.me, step.get("who", "own"), self.actor)
        if step.get("required") and n_raw != "all":
            # CR 5.2.3 A: a discard required to gain the effect is completed in full or not at
            # all; when it cannot be, nothing is discarded and the effect is nullified.
            for pi in players:
                if self._can_discard(pi, zone, step) < self.amount(n_raw):
                    return False
        for pi in players:
            ps = s.p[pi]
            n = ALL if n_raw == "all" else self.amount(n_raw)
            if zone == "hot_dogs":
                k = ps.spend(n, by_opp=pi != self.me)
                done = done and k == n
                continue
            if zone == "last_drawn":
                cid = self.last_drawn
                if cid is None or cid not in ps.hand or pi != self.me:
                    done = False
                    continue
                ps.hand.remove(cid)
                ps.discard.append(cid)
                self.discarded += 1
                self.discarded_ids.append(cid)
                continue
            if zone in ("hero_deck_top", "playbook_top"):
                kind = "hero" if zone == "hero_deck_top" else "play"
                k = n if kind == "hero" else min(n, ps.playbook_size)
                got = 0
                for _ in range(k):
                    cid = self.next_drawn(kind, optional=kind == "hero", pi=pi)
                    if cid is None:
                        break
                    ps.discard.append(cid)
                    self.discarded_ids.append(cid)
                    got += 1
                if kind == "play":
                    ps.playbook_size -= got
                self.discarded += got
                done = done and got == n
                continue
            eligible: list[str] = []
            if zone in ("hand", "hand_heroes"):
                w = step.get("weapon")
                eligible += [
                    c
                    for c in ps.bench
                    if w is None or weapon_in(self._hero(c).weapon, self.weapon_param(w, pi))
                ]
            if zone in ("hand", "hand_plays"):
                eligible += ps.hand
            if step.get("name") == "chosen":
                named = self.choice("name")
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
            picked = self._pick("discard", eligible, k, bool(step.get("random")), shared)
            for cid in picked:
                if cid in ps.bench:
                    ps.bench.remove(cid)
                    self.discarded_weapon = self._hero(cid).weapon
                else:
                    ps.hand.remove(cid)
                ps.discard.append(cid)
            self.discarded += len(picked)
            self.discarded_ids += picked
            done = done and (len(picked) == n or n_raw == "all")
        return done

    def _can_discard(self, pi: int, zone: str, step: dict[str, Any]) -> int:
        """How many cards player pi could discard from ``zone`` for this step (the hero
        deck's size is not recorded: taken as large enough)."""
        ps = self.s.p[pi]
        if zone == "hot_dogs":
            return ps.hot_dogs - (len(ps.ghost) if pi != self.me else 0)
        if zone == "last_drawn":
            return 1 if self.last_drawn in ps.hand else 0
        if zone == "hero_deck_top":
            return ALL
        if zone == "playbook_top":
            return ps.playbook_size
        n = 0
        if zone in ("hand", "hand_heroes"):
            w = step.get("weapon")
            n += sum(
                1
                for c in ps.bench
                if w is None or weapon_in(self._hero(c).weapon, self.weapon_param(w, pi))
            )
        if zone in ("hand", "hand_plays"):
            n += len(ps.hand)
        return n

    def _hero(self, cid: str) -> Hero:
        h = self.s.cards[cid]
        assert isinstance(h, Hero)
        return h

    def do_search(self, step: dict[str, Any]) -> bool:
        s = self.s
        ps = s.p[self.me]
        what = step["search"]
        got = 0
        for _ in range(step.get("count", 1)):
            if what in ("heroes", "plays"):
                kind = "hero" if what == "heroes" else "play"
                if kind == "play" and ps.playbook_size <= 0:
                    break
                cid = self.next_drawn(kind, optional=True)
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
                cid = self._pick("search", eligible, 1, False)[0]
                ps.discard.remove(cid)
                if isinstance(s.cards[cid], Hero):
                    ps.bench.append(cid)
                else:
                    ps.hand.append(cid)
                    _nullify_source(s, cid)  # CR 5.1.7: returned to hand
            got += 1
        return got == int(step.get("count", 1))

    def do_reveal_top(self, step: dict[str, Any]) -> bool:
        s = self.s
        deck = step.get("deck", "heroes")
        kind = "hero" if deck == "heroes" else "play"
        n = self.amount(step["reveal_top"])
        done = True
        for pi in _who(self.me, step.get("who", "own"), self.actor):
            ps = s.p[pi]
            k = n if kind == "hero" else min(n, ps.playbook_size)
            revealed: list[str] = []
            for _ in range(k):
                cid = self.next_drawn(kind, optional=kind == "hero", pi=pi)
                if cid is None:
                    break
                revealed.append(cid)
            keep_n = min(step.get("keep", 0), len(revealed))
            kept = self._pick("keep", revealed, keep_n, False) if keep_n else []
            if kept:
                card = s.cards[kept[-1]]
                self.drawn_cost = _cost(card)
                if isinstance(card, Hero):
                    self.drawn_power, self.drawn_weapon = card.power, card.weapon
                else:
                    self.last_drawn = card.id
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

    # ---------------------------------------------------------------- chance

    def do_flip(self, step: dict[str, Any]) -> bool:
        n = self.amount(step["flip"])
        stop = step.get("stop_on")
        for i in range(n):
            if i and step.get("may_stop") and self.cur.ri >= len(self.cur.random):
                break  # "you may flip again": the record shows the player stopped
            r = self.next_random("coin")
            self.coin = str(r)
            if r == "heads":
                self.heads += 1
            else:
                self.tails += 1
            if self.s.triggers:
                fire(self.s, "coin", self.me, self)
            if r == stop:
                break
        return True

    def do_roll(self, step: dict[str, Any]) -> bool:
        n = self.amount(step["roll"])
        stop = step.get("stop_on")
        for i in range(n):
            if i and step.get("may_stop") and self.cur.ri >= len(self.cur.random):
                break  # "you may roll again": the record shows the player stopped
            for pi in _who(self.me, step.get("who", "own"), self.actor):
                r = self.next_random("die")
                assert isinstance(r, int)
                (self.dice if pi == self.me else self.opp_dice).append(r)
                if self.s.triggers:
                    fire(self.s, "die", pi, self)
            if stop is not None and self.dice and self.dice[-1] in stop:
                break
        return True

    # ---------------------------------------------------------------- control

    def do_choose(self, step: dict[str, Any]) -> bool:
        options = step["choose"]
        chosen = self.choice("option")
        if isinstance(chosen, list):
            i = self.cur.option_i
            self.cur.option_i += 1
            chosen = chosen[i] if i < len(chosen) else None
        if chosen is None:
            # Nothing recorded: when only one option can be done at all, it is the choice.
            able = [name for name, steps in options.items() if self._able(steps)]
            if len(able) == 1:
                chosen = able[0]
        if chosen not in options:
            raise _invalid(
                "option", f"choices.option must be one of {', '.join(options)}.", tuple(options)
            )
        self.run(options[chosen])
        return True

    def _able(self, steps: Any) -> bool:
        """Could these steps be done now (tried on a copy of the game)? An outcome the record
        does not give (a choice, a card, a coin) counts as possible."""
        cur = Cursor(None)
        cur.random, cur.drawn, cur.choices = self.cur.random, self.cur.drawn, self.cur.choices
        cur.ri, cur.di, cur.option_i = self.cur.ri, self.cur.di, self.cur.option_i
        trial = Resolver(self.s.clone(), self.me, self.play, cur, self.source, self.depth)
        trial.actor, trial.result = self.actor, self.result
        try:
            trial.run(steps)
        except IllegalActionError as exc:
            return exc.code in ("invalid_choice", "missing_drawn", "missing_random")
        return not trial.nullified

    def do_repeat(self, step: dict[str, Any]) -> bool:
        for _ in range(min(self.amount(step["repeat"]), 50)):
            self.run(step["do"])
        return True

    # ---------------------------------------------------------------- ongoing

    def do_cost(self, step: dict[str, Any]) -> bool:
        if step.get("card") == "chosen":
            # one play of the runner's hand, revealed (choices.card): only it gets the change
            hand = [c for c in self.s.p[self.me].hand if isinstance(self.s.cards[c], Play)]
            if not hand:
                return False
            cid = self.choice("card")
            if cid not in hand:
                raise _invalid("card", "choices.card must be a play in hand.", tuple(hand))
            self.drawn_cost = _cost(self.s.cards[cid])
            step = {**step, "card": cid}
        o = self.ongoing("cost", step, self.amount(step["cost"]))
        if "plays" in step:
            self.s.uses[o.instance] = step["plays"]
        return True

    def do_sub_cost(self, step: dict[str, Any]) -> bool:
        self.ongoing("sub_cost", step, self.amount(step["sub_cost"]))
        return True

    def do_prevent(self, step: dict[str, Any]) -> bool:
        self.ongoing("prevent", step)
        return True

    def do_max_plays(self, step: dict[str, Any]) -> bool:
        self.ongoing("max_plays", step)
        return True

    def do_set_weapon(self, step: dict[str, Any]) -> bool:
        self.ongoing("set_weapon", step)  # a "chosen" weapon is frozen by bind()
        return True

    def do_on(self, step: dict[str, Any]) -> bool:
        if step.get("hero") == "chosen":
            # "Choose one of your unrevealed Heroes. When that Hero is revealed": the trigger
            # follows that card through moves in the lineup and ends if it leaves (CR 3.2).
            cid = self.chosen_hero()
            if cid is None:
                return False
            rest = frozenset(range(self.s.battle, BATTLES + 1))
            o = self.ongoing("on", {**step, "once": True}, battles=rest)
            o.step["hero"] = cid
        else:
            o = self.ongoing("on", step)
        later = self.choice("trigger")
        if isinstance(later, dict) and step["on"] in _DETACHED_EVENTS:
            o.step["outcomes"] = later  # a fresh dict from bind(): taken when it fires
        return True

    def chosen_hero(self) -> str | None:
        """``choices.hero``: one of the runner's unrevealed heroes (the lineup's future
        battles). A version-1 record without it names a battle (``choices.battle``): the hero
        in that battle when the play is run. None: no unrevealed hero is left (if able)."""
        s = self.s
        ps = s.p[self.me]
        unrevealed = tuple(ps.lineup[s.battle :])
        if "hero" not in self.cur.choices:
            b = self.choice("battle")  # a bare number answers it too
            if isinstance(b, int) and not isinstance(b, bool):
                b = next(iter(_battles(s, "chosen", b)))
                return ps.lineup[b - 1]
        if not unrevealed:
            return None
        pick = self.choice("hero")
        if not isinstance(pick, str) or pick not in unrevealed:
            raise _invalid(
                "hero",
                f"choices.hero must be the card id of one of {PLAYERS[self.me]}'s unrevealed "
                f"heroes (battles {s.battle + 1}-{BATTLES}): {', '.join(unrevealed)}.",
                unrevealed,
            )
        return pick

    def do_cancel(self, step: dict[str, Any]) -> bool:
        s = self.s
        what = step["cancel"]
        if what == "triggering_play":
            if self.parent is None:
                return False
            self.parent.nullified = True  # CR 5.1.7 / Glossary: Cancelled (cost stays paid)
            return True
        if what in ("ongoing", "rest_of_game"):
            owners = _who(self.me, step.get("who", "both"), self.actor)
            if what == "ongoing":
                s.drop(lambda o: o.owner in owners)
            else:
                # "Plays that are affecting the rest of the Game" (Pulling The Plug): only
                # effects lasting to the end of the game, not "this battle and the next".
                s.drop(lambda o: o.owner in owners and o.step.get("battles") in _REST)
            return True
        # opp_plays_this_battle: their effects this battle end (CR 5.1.7, Glossary: Nullify)
        opp_plays = set(s.p[self.opp].plays_battle)
        s.drop(lambda o: o.source in opp_plays)
        for ps in s.p:
            ps.mods[:] = [m for m in ps.mods if m[1] not in opp_plays]
            if ps.floor is not None and ps.floor[0] in opp_plays:
                ps.floor = None
        return True

    def do_copy(self, step: dict[str, Any]) -> bool:
        s = self.s
        last = None
        for _b, cid in reversed(s.p[self.me].used):
            if cid != self.source:
                last = s.cards[cid]
                break
        if not isinstance(last, Play) or self.depth >= MAX_DEPTH:
            return False
        # CR 5.1.6-5.1.7: the copy is that play; its earlier ongoing instance ends.
        _nullify_source(s, last.id)
        sub = Resolver(s, self.me, last, self.cur, last.id, self.depth + 1)
        sub.run(last.effect)
        return not sub.nullified

    def do_run(self, step: dict[str, Any]) -> bool:
        s = self.s
        runner = self.opp if step.get("who") == "opp" else self.me
        ps = s.p[runner]
        where = step["run"]
        nested = self.choice("run")
        nested = nested if isinstance(nested, dict) else {}
        if self.depth >= MAX_DEPTH:
            return False
        if where == "last_drawn":
            cid = self.last_drawn
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
            cid = self.next_drawn("play", pi=runner)
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
            self.cur.random,
            self.cur.drawn,
            self.cur.ri,
            self.cur.di,
        )
        cur.choices = nested.get("choices", {}) if isinstance(nested.get("choices"), dict) else {}
        start_play(s, runner, play)
        sub = Resolver(s, runner, play, cur, cid, self.depth + 1)
        sub.run(play.effect)
        self.cur.ri, self.cur.di = cur.ri, cur.di
        if cid not in ps.ghost:  # a play that became a hot dog stays one (Ghost Dog)
            ps.discard.append(cid)
        return True

    # ---------------------------------------------------------------- heroes

    def _replace_future(self, step: dict[str, Any]) -> bool:
        """Every face-down hero of the future battles is discarded and replaced, in battle
        order, by the top card of the hero deck (ids from `drawn`; if able)."""
        s = self.s
        done = True
        for pi in _who(self.me, step.get("who", "own"), self.actor):
            ps = s.p[pi]
            for slot in range(s.battle, BATTLES):
                new = self.next_drawn("hero", optional=True, pi=pi)
                if new is None:
                    done = False
                    break
                ps.discard.append(ps.lineup[slot])
                if s.triggers:
                    s.hero_left(ps.lineup[slot])  # discarded unrevealed (CR 3.2)
                ps.lineup[slot] = new
        return done

    def do_replace_hero(self, step: dict[str, Any]) -> bool:
        s = self.s
        where = step["replace_hero"]
        if step.get("slots") == "future":
            return self._replace_future(step)
        old_to = step.get("old_to", "discard")
        slot = s.battle - 1
        done = True
        chosen = self.choice("hero")
        if step.get("may") and chosen is False:
            return True  # "you can replace": declined (choices.hero false)
        for pi in _who(self.me, step.get("who", "own"), self.actor):
            ps = s.p[pi]
            w = step.get("weapon")
            new: str | None = None
            if where == "hero_deck_top":
                new = self.next_drawn("hero", optional=True, pi=pi)
            elif where == "future":
                b = self.choice("battle")
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
                    fire(s, "reveal", pi, self, hero_only=True)
                continue
            else:
                zone = ps.bench if where == "hand" else ps.discard
                eligible = [
                    c
                    for c in zone
                    if isinstance(h := s.cards[c], Hero)
                    and (w is None or weapon_in(h.weapon, self.weapon_param(w, pi)))
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
            if s.triggers:
                s.hero_left(old)
            if ps.revealed:
                ps.revealed[-1] = new
            for _ in range(step.get("draw_heroes", 0)):
                if not self.draw_hero(pi):
                    break
        return done

    def do_reorder(self, step: dict[str, Any]) -> bool:
        ps = self.s.p[self.me]
        future = ps.lineup[self.s.battle :]
        order = self.choice("order")
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(future):
            raise _invalid(
                "order",
                "choices.order must list the future heroes in a new order.",
                (future, future[::-1]),
            )
        ps.lineup[self.s.battle :] = [str(x) for x in order]
        return True

    def do_shuffle(self, step: dict[str, Any]) -> bool:
        s = self.s
        what = step["shuffle"]
        for pi in _who(self.me, step.get("who", "own"), self.actor):
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
                    moved = self._pick("shuffle", moved, k, False)
                for c in moved:
                    ps.discard.remove(c)
                    if isinstance(s.cards[c], Play):
                        ps.playbook_size += 1
                        _nullify_source(s, c)  # CR 5.1.7
            for c in moved:
                s.located.discard(c)
            self.shuffled += len(moved)
        return True

    def do_end_battle(self, step: dict[str, Any]) -> bool:
        self.s.play_ended = True
        return True

    def do_honors(self, step: dict[str, Any]) -> bool:
        who = step["honors"]
        if who == "chosen":
            pick = self.choice("honors")
            if pick not in PLAYERS:
                raise _invalid("honors", "choices.honors must be 'A' or 'B'.", PLAYERS)
            self.s.honors_next = PLAYERS.index(pick)
        else:
            self.s.honors_next = self.me if who == "own" else self.opp
        return True

    def do_look(self, step: dict[str, Any]) -> bool:
        return True

    def do_judge(self, step: dict[str, Any]) -> bool:
        ruling = self.choice("judge")
        if ruling is None:
            return True
        try:
            steps = validate_effect(ruling, "choices.judge")
        except EffectError as exc:
            raise IllegalActionError("invalid_choice", "CR 5.1.1", exc.args[0]) from None
        self.run(steps)
        return True


def _nullify_source(s: GameState, source: str) -> None:
    s.drop(lambda o: o.source == source)


def start_play(s: GameState, me: int, play: Play) -> None:
    """Bookkeeping when a play is run: counts, and a new instance ends the old (CR 5.1.7)."""
    ps = s.p[me]
    ps.plays_battle.append(play.id)
    ps.used.append((s.battle, play.id))
    if s.ongoing or s.triggers:
        key = play.base.lower()
        s.drop(lambda o: o.owner == me and o.key == key)


def run_play(s: GameState, me: int, play: Play, action: Action, before_cost: int = 0) -> None:
    """Resolve a play whose cost is paid (CR 5.3.2); the card then goes to the discard."""
    start_play(s, me, play)
    cur = Cursor(action)
    r = Resolver(s, me, play, cur, play.id)
    r.before_cost = before_cost
    if s.triggers:
        fire(s, "play_run", me, r)
    r.run(play.effect)
    ps = s.p[me]
    if play.id not in ps.ghost:  # a play that became a hot dog stays one (Ghost Dog)
        ps.discard.append(play.id)
    if cur.ri < len(cur.random):
        raise IllegalActionError(
            "unexpected_random",
            "CR 2.2.1",
            f"random has {len(cur.random) - cur.ri} result(s) the play did not call for: a coin "
            "is flipped or a die rolled only when a card says so.",
        )
    if cur.di < len(cur.drawn):
        raise IllegalActionError(
            "unexpected_drawn",
            "CR 5.1.5",
            f"drawn has {len(cur.drawn) - cur.di} card(s) the play did not take.",
        )


_DEFAULT_WHO = {"win": "own", "lose": "own", "reveal": "own"}
# Events with no action of their own: battle start and end (and the reveal, which follows
# the substitution decisions by itself).
_DETACHED_EVENTS = ("win", "lose", "draw_battle", "battle_end", "battle_start", "reveal")


def _outcomes(later: Any) -> Cursor:
    """The outcomes a detached trigger takes: ``choices.trigger`` of the action that created
    it (``drawn`` and ``random`` lists; every other key is a choice), or none."""
    cur = Cursor(None)
    if isinstance(later, dict):
        drawn, rnd = later.get("drawn", []), later.get("random", [])
        cur.drawn = tuple(str(x) for x in drawn) if isinstance(drawn, list) else ()
        cur.random = tuple(rnd) if isinstance(rnd, list) else ()
        cur.choices = {k: v for k, v in later.items() if k not in ("drawn", "random")}
    return cur


def _inverted(s: GameState, pi: int) -> bool:
    for o in s.ongoing:
        if o.kind == "invert" and s.battle in o.battles:
            who = o.step.get("who", "own")
            if who == "both" or (pi == o.owner) == (who == "own"):
                return True
    return False


def _play_key(name: str) -> str:
    """A play's base name, normalised: "called shot - HTD" and "Called Shot" match."""
    return normalise_name(base_name(name))


def fire(
    s: GameState, event: str, actor: int | None, parent: Resolver | None, hero_only: bool = False
) -> None:
    """Run the triggers (``on`` effects) listening for ``event`` now. ``actor`` is the player
    the event is about (the winner, the loser, the one who flipped, ran or revealed). A
    trigger bound to a hero (``hero``) fires only on that card's reveal, in whichever battle
    it is; ``hero_only``: only those (a hero swapped into the battle zone mid-battle)."""
    depth = parent.depth + 1 if parent else 0
    if depth > MAX_DEPTH:
        return
    b = s.battle
    for o in tuple(s.triggers):
        if o.step["on"] != event or b not in o.battles:
            continue
        if o not in s.triggers:
            continue  # cancelled by an earlier trigger
        hero = o.step.get("hero")
        if hero is not None:
            if actor is None or s.p[actor].lineup[b - 1] != hero:
                continue
        elif hero_only:
            continue
        who = o.step.get("who", _DEFAULT_WHO.get(event, "both"))
        if actor is not None and who != "both" and (actor == o.owner) != (who == "own"):
            continue
        if o.step.get("once"):
            s.drop(lambda x, o=o: x is o)  # type: ignore[misc]
        play = s.cards.get(o.source)
        cursor = parent.cur if parent is not None else _outcomes(o.step.get("outcomes"))
        r = Resolver(s, o.owner, play if isinstance(play, Play) else None, cursor, o.source, depth)
        r.key = o.key
        r.actor = actor
        r.parent = parent
        results = s.p[o.owner].results
        r.result = results[-1] if results and s.phase == "resolving" else None
        if parent is None:
            _run_detached(r, o.step["do"])
        else:
            r.run(o.step["do"])


def _run_detached(r: Resolver, steps: Any) -> None:
    """Triggers outside any action (battle start/end): play draws become due ``draw``
    actions; outcomes nobody recorded are skipped (if able)."""
    for step in steps:
        if r.nullified:
            return
        kind = step_kind(step)
        if kind == "draw" and step.get("deck", "plays") == "plays":
            if "if" in step and not r.cond(step["if"]):
                continue
            n = r.amount(step["draw"])
            for pi in _who(r.me, step.get("who", "own")):
                ps = r.s.p[pi]
                if not r.s.is_prevented("draw_plays", pi):
                    ps.pending_draws = min(ps.pending_draws + n, ps.playbook_size)
            continue
        if kind == "then":
            branch = step["then"] if r.cond(step["if"]) else step.get("else", [])
            _run_detached(r, branch)
            continue
        try:
            r.step(step)
        except IllegalActionError:
            continue


def aura_amount(s: GameState, o: Ongoing, pi: int) -> int | None:
    """What an ongoing power effect adds to pi's active hero now (None: it doesn't reach)."""
    step = o.step
    target = step.get("target", "own")
    if target != "both" and (pi == o.owner) != (target == "own"):
        return None
    w = step.get("weapon")
    if w is not None and not weapon_in(s.weapon(pi), w):
        return None
    if "while" in step:
        play = s.cards.get(o.source)
        ctx = Context(s, o.owner, play if isinstance(play, Play) else None)
        if not ctx.cond(step["while"]):
            return None
    amount = o.amount
    if pi != o.owner and s.is_prevented("opp_effects", pi):
        return None
    if amount < 0 and pi != o.owner and _inverted(s, pi):
        return -amount  # Sweet Relish
    if amount < 0 and (
        s.is_prevented("power_loss", pi)
        or (pi != o.owner and s.is_prevented("power_loss_from_opp", pi))
    ):
        return None
    return amount
