"""A battle from its start to its result (CR 4.2-4.4): reveal, Determine Winner (the Super
tie breaker, CR 4.3.2), honors, trophies, the draws due after it, the end of the game.
"""

from __future__ import annotations

from .cards import Hero
from .ongoing import OngoingRules
from .position import _reaches
from .results import BattleResult, Outcome
from .rules import BATTLES, OTHER, TROPHIES_TO_WIN, super_tie_breaker_applies


class BattleFlow(OngoingRules):
    """Battle flow: the steps that follow by themselves once the decisions are made.

    The triggered abilities an event sets off are the resolver's to run: the game
    (:class:`~engine.boba.state.GameState`) runs them through :meth:`fire_triggers`."""

    __slots__ = ()

    def fire_triggers(self, event: str, actor: int | None) -> None:
        """Run the triggered abilities that ``event`` (caused by ``actor``) sets off."""
        raise NotImplementedError

    def _start_battle(self) -> None:
        for ps in self.p:
            ps.start_battle()
        self.play_ended = False
        b = self.battle
        if self.ongoing or self.triggers:
            self.drop(lambda o: max(o.battles, default=0) < b)
            self.fire_triggers("battle_start", None)
        if self.mode == "rookie":
            self._reveal_heroes()
        else:
            self.phase = "substitution"
            self.turn = self.honors

    def _reveal_heroes(self) -> None:
        slot = self.battle - 1
        for ps in self.p:
            ps.revealed.append(ps.lineup[slot])
        if self.triggers:
            for pi in (self.honors, OTHER[self.honors]):
                self.fire_triggers("reveal", pi)
        if self.mode == "playmaker":
            self.phase = "play"
            self.turn = self.honors
        else:
            self._determine()

    def _determine(self) -> None:
        b = self.battle
        cards = self.cards
        slot = b - 1
        h0 = cards[self.p[0].lineup[slot]]
        h1 = cards[self.p[1].lineup[slot]]
        assert isinstance(h0, Hero) and isinstance(h1, Hero)
        if (
            self.ongoing
            or self.p[0].mods
            or self.p[1].mods
            or self.p[0].floor is not None
            or self.p[1].floor is not None
        ):
            mods = (tuple(self.modifiers(0)), tuple(self.modifiers(1)))
            p0 = h0.power + sum(a for _s, a in mods[0])
            p1 = h1.power + sum(a for _s, a in mods[1])
        else:
            mods = ((), ())
            p0, p1 = h0.power, h1.power
        if p0 > p1:
            winner: int | None = 0
            by = "power"
        elif p1 > p0:
            winner, by = 1, "power"
        else:
            winner, by = _compare(
                p0, p1, self.weapon(0), self.weapon(1), super_tie_breaker_applies(self.mode, False)
            )
        if self.p[0].zero_loss or self.p[1].zero_loss:
            # A rule (Ultimatum Dog) makes a player lose whatever the power; both: a draw.
            if self.p[0].zero_loss and self.p[1].zero_loss:
                winner, by = None, "draw"
            else:
                winner, by = (1 if self.p[0].zero_loss else 0), "rule"
        r0, r1 = self.p[0].results, self.p[1].results
        if winner is None:
            r0.append("draw")
            r1.append("draw")
        else:
            self.p[winner].trophies += 1
            r0.append("won" if winner == 0 else "lost")
            r1.append("won" if winner == 1 else "lost")
        if self.triggers:
            self.phase = "resolving"
            if winner is None:
                self.fire_triggers("draw_battle", None)
            else:
                self.fire_triggers("win", winner)
                self.fire_triggers("lose", OTHER[winner])
            self.fire_triggers("battle_end", None)
        if winner is not None and (self.ongoing or self.triggers):
            self._end_until(winner)
        if self.honors_next is not None:
            self.honors = self.honors_next
            self.honors_next = None
        elif winner is not None:
            self.honors = winner
        self.history.append(
            BattleResult(b, (h0.id, h1.id), (p0, p1), mods, winner, by, self.honors)
        )
        self._after_battle()

    def _end_until(self, winner: int | None) -> None:
        if winner is None:
            return
        self.drop(lambda o: o.step.get("until") == "win" and _reaches(o, winner, o.step, "who"))

    def _after_battle(self) -> None:
        b = self.battle
        t = (self.p[0].trophies, self.p[1].trophies)
        if self.options.stop_at_four and max(t) >= TROPHIES_TO_WIN:
            self._finish(0 if t[0] > t[1] else 1, b)
            return
        if b >= BATTLES:
            if t[0] != t[1]:
                w = 0 if t[0] > t[1] else 1
                self._finish(w, self._decided_at(w))
            elif self.options.tiebreakers:
                self.phase = "sudden_death"
                self.turn = self.honors
            else:
                self._finish(None, b)
            return
        decided = max(t) >= TROPHIES_TO_WIN
        if self.mode == "playmaker" and not decided:
            # Spec: no draws follow the battle that decides the game. With stop_at_four off the
            # remaining battles are still played (README decision 5) but the game is already
            # decided, so no battle after the deciding one is followed by draws.
            for i in (0, 1):
                ps = self.p[i]
                if ps.playbook_size > 0 and not self.is_prevented("draw_plays", i):
                    ps.pending_draws += 1
                if ps.pending_draws > ps.playbook_size:
                    ps.pending_draws = ps.playbook_size
            if self.p[0].pending_draws or self.p[1].pending_draws:
                self.phase = "draw"
                return
        self._next_battle()

    def _decided_at(self, w: int) -> int:
        count = 0
        for r in self.history:
            if r.winner == w:
                count += 1
                if count >= TROPHIES_TO_WIN:
                    return r.battle
        return self.battle

    def _finish(self, winner: int | None, after: int) -> None:
        self.result = Outcome(winner, after)
        self.phase = "over"
        for ps in self.p:
            ps.pending_draws = 0

    def _next_battle(self) -> None:
        self.battle += 1
        self._start_battle()

    def _fire(self, event: str, actor: int | None) -> None:
        if self.triggers:
            self.fire_triggers(event, actor)


def _compare(pa: int, pb: int, wa: str, wb: str, use_super: bool) -> tuple[int | None, str]:
    """Winner index and decided_by (CR 4.3.2 Determine Winner / Super Tie Breaker)."""
    if pa > pb:
        return 0, "power"
    if pb > pa:
        return 1, "power"
    if use_super and (wa == "Super") != (wb == "Super"):
        return (0 if wa == "Super" else 1), "super"
    return None, "draw"
