"""What the ongoing effects in play make of a position (CR 5.1): power and weapons, what is
prevented, hot dogs (what can be spent, paid, recovered), costs and limits on plays.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import Play
from .position import Position, _reaches
from .results import Ongoing
from .rules import OTHER, SUBSTITUTION_COST, weapon_in


class OngoingRules(Position):
    """Queries and hot dog moves under the ongoing effects in play.

    What an ongoing effect amounts to and whether a condition holds are the resolver's
    answers (:mod:`engine.boba.resolve`, which reads this position): the game
    (:class:`~engine.boba.state.GameState`) gives them through :meth:`aura_amount` and
    :meth:`holds`, so this layer stands below the resolver."""

    __slots__ = ()

    def aura_amount(self, o: Ongoing, pi: int) -> int | None:
        """The power an ongoing effect gives player pi's active hero now (None: none)."""
        raise NotImplementedError

    def holds(self, pi: int, play: Play | None, cond: Mapping[str, Any]) -> bool:
        """Whether condition ``cond`` holds now, seen from player pi running ``play``."""
        raise NotImplementedError

    def weapon(self, pi: int, battle: int | None = None) -> str:
        """The active hero's weapon type after weapon-changing effects."""
        b = battle or self.battle
        w = self.hero(pi, b).weapon
        for o in self.ongoing:
            if o.kind == "set_weapon" and b in o.battles and _reaches(o, pi, o.step, "target"):
                if o.owner != pi and self.is_prevented("opp_effects", pi, b):
                    continue  # Immunity: "in any way", its weapon included (CR 5.2.1)
                src = o.step.get("from")
                if src is None or weapon_in(w, src):
                    w = o.step["set_weapon"]
        return w

    def modifiers(self, pi: int) -> list[tuple[str, int]]:
        """Every modifier on player pi's active hero now, in the order they arose: an ongoing
        effect from an earlier battle comes before this battle's plays."""
        mods = self.p[pi].mods
        if not self.ongoing:
            out = [(src, amount) for _n, src, amount in mods]
            return self._floored(pi, out)
        merged = list(mods)
        # CR 5.1.6: a Play's ongoing effect never stacks with itself "in any way", so a hero
        # gets each (play, step) effect once, even when both players ran that Play.
        applied: dict[str, list[dict[str, Any]]] = {}
        for o in self.ongoing:
            if o.kind == "power" and self.battle in o.battles:
                amount = self.aura_amount(o, pi)
                if amount is not None:
                    same_play = applied.setdefault(o.key, [])
                    if o.step in same_play:
                        continue
                    same_play.append(o.step)
                    merged.append((o.instance, o.source, amount))
        merged.sort()
        return self._floored(pi, [(src, amount) for _n, src, amount in merged])

    def _floored(self, pi: int, mods: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """A floor ("can't drop below its current power") tops the hero up to it, listed as
        one last modifier from the play that set it."""
        floor = self.p[pi].floor
        if floor is not None:
            total = self.hero(pi).power + sum(a for _s, a in mods)
            if total < floor[1]:
                mods.append((floor[0], floor[1] - total))
        return mods

    def power(self, pi: int) -> int:
        total = self.hero(pi).power
        for _src, amount in self.modifiers(pi):
            total += amount
        return total

    def is_prevented(self, what: str, pi: int, battle: int | None = None) -> bool:
        b = battle or self.battle
        for o in self.ongoing:
            if o.kind == "prevent" and o.step["prevent"] == what and b in o.battles:
                if not _reaches(o, pi, o.step, "who"):
                    continue
                w = o.step.get("weapon")
                if w is not None and not weapon_in(self.weapon(pi, b), w):
                    continue
                hero = o.step.get("hero")
                if hero is not None and self.p[pi].lineup[b - 1] != hero:
                    continue  # "this Hero": it protects that card only (CR 3.2)
                return True
        return False

    def has_rule(self, what: str, pi: int) -> bool:
        """An ongoing ``rule`` step reaches pi this battle."""
        for o in self.ongoing:
            if (
                o.kind == "rule"
                and o.step["rule"] == what
                and self.battle in o.battles
                and _reaches(o, pi, o.step, "who")
            ):
                return True
        return False

    def spendable(self, pi: int) -> int:
        """Hot dogs pi can spend now: available ones, plus what an overspend effect (Student
        Loan) still allows this battle."""
        ps = self.p[pi]
        if not self.ongoing:
            return ps.hot_dogs
        credit = 0
        for o in self.ongoing:
            if (
                o.kind == "overspend"
                and self.battle in o.battles
                and _reaches(o, pi, o.step, "who")
            ):
                credit = max(credit, o.amount)
        return ps.hot_dogs + max(0, credit - ps.overspent)

    def pay(self, pi: int, n: int) -> None:
        """pi spends n hot dogs (n <= spendable): available ones first, then the overspend."""
        ps = self.p[pi]
        over = n - ps.spend(n)
        ps.overspent += over
        ps.spent_battle += n
        ps.discarded_battle += over  # spent on credit (Student Loan): paid all the same

    def must_substitute(self, pi: int) -> bool:
        """A play forces pi to substitute now and pi is able to (bench, hot dogs, allowed)."""
        if not self.ongoing or not self.is_prevented("skip_substitution", pi):
            return False
        cost, payer = self.substitution_cost(pi)
        return (
            bool(self.p[pi].bench)
            and self.spendable(payer) >= cost
            and not self.is_prevented("substitute", pi)
        )

    def recover_hot_dogs(self, pi: int, n: int) -> int:
        """pi recovers up to n hot dogs under the ongoing recovery rules; how many pi got
        (0 when prevented or redirected). Extra (Bonus Recovery) adds to what pi would
        recover; redirect (Grilled Bandit) gives it to the rule's owner instead; a cap (Snack
        Sanction) limits what each player recovers per battle."""
        if n <= 0:
            return 0
        owner = pi
        if self.ongoing:
            if self.is_prevented("recover", pi):
                return 0
            for o in self.ongoing:
                if o.kind != "recovery" or self.battle not in o.battles:
                    continue
                if o.step["recovery"] == "extra" and _reaches(o, pi, o.step, "who"):
                    n += int(o.step.get("amount", 1))
            for o in self.ongoing:
                if (
                    o.kind == "recovery"
                    and self.battle in o.battles
                    and o.step["recovery"] == "redirect"
                    and o.owner != pi
                    and _reaches(o, pi, o.step, "who")
                ):
                    owner = o.owner
                    break
            if owner != pi:
                # what pi would have recovered (no more than pi's discard holds) goes to owner
                n = min(n, self.p[pi].hot_dogs_discarded)
                if self.is_prevented("recover", owner):
                    return 0
            for o in self.ongoing:
                if (
                    o.kind == "recovery"
                    and self.battle in o.battles
                    and o.step["recovery"] == "cap"
                    and _reaches(o, owner, o.step, "who")
                ):
                    n = min(
                        n, max(0, int(o.step.get("amount", 1)) - self.p[owner].recovered_battle)
                    )
        ps = self.p[owner]
        k = ps.recover(n)
        ps.recovered_battle += k
        return k if owner == pi else 0

    def play_cost(self, pi: int, play: Play, charge: bool = False) -> int:
        """What running ``play`` costs pi now: printed or cost_if, plus cost effects, >= 0."""
        cost = play.cost
        if cost is not None and not play.cost_if and not self.ongoing:
            return cost
        if cost is None:  # copies its cost from the last play its player used (Copycat)
            last = self._last_used(pi)
            cost = last.cost if last is not None and last.cost is not None else 0
        if play.cost_if:
            for entry in play.cost_if:
                if self.holds(pi, play, entry["if"]):
                    cost = entry["cost"]
                    break
        for o in self.ongoing:
            if o.kind == "cost" and self.battle in o.battles and _reaches(o, pi, o.step, "who"):
                if "card" in o.step and o.step["card"] != play.id:
                    continue
                if "while" in o.step and not self.holds(o.owner, None, o.step["while"]):
                    continue
                left = self.uses.get(o.instance)
                if left is not None and left <= 0:
                    continue
                cost += o.amount
                if charge and left is not None:
                    self.uses[o.instance] = left - 1
        return max(0, cost)

    def substitution_cost(self, pi: int) -> tuple[int, int]:
        """(cost, payer) of a substitution by pi now."""
        cost, payer = SUBSTITUTION_COST, pi
        for o in self.ongoing:
            if o.kind == "sub_cost" and self.battle in o.battles and _reaches(o, pi, o.step, "who"):
                cost = max(0, o.amount)
                if o.step.get("payer") == "opp":
                    payer = OTHER[o.owner]
        if payer != pi and self.spendable(payer) < cost:
            # The opponent cannot pay it in full (CR 5.2.2): that part is ignored (CR 5.2.1)
            # and the substitution costs its player as usual (ruling pay-it-for-me-short).
            payer = pi
        return cost, payer

    def max_plays(self, pi: int) -> int | None:
        limit = None
        for o in self.ongoing:
            if (
                o.kind == "max_plays"
                and self.battle in o.battles
                and _reaches(o, pi, o.step, "who")
            ):
                n = o.step["max_plays"]
                limit = n if limit is None else min(limit, n)
        return limit

    def _last_used(self, pi: int) -> Play | None:
        for _b, cid in reversed(self.p[pi].used):
            card = self.cards[cid]
            if isinstance(card, Play):
                return card
        return None

    def can_run(self, pi: int, play: Play) -> str | None:
        """Why pi can't run ``play`` now (an error code), or None if they can."""
        if self.is_prevented("run_plays", pi):
            return "plays_prevented"
        limit = self.max_plays(pi)
        if limit is not None and len(self.p[pi].plays_battle) >= limit:
            return "play_limit_reached"
        if play.requires is not None and not self.holds(pi, play, play.requires):
            return "play_condition_not_met"
        if self.play_cost(pi, play) > self.spendable(pi):
            return "insufficient_hot_dogs"
        return None
