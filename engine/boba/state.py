"""The game state and the sequence of play (CR 4), OpenSpiel style.

Notes on terminology
--------------------
battle
    1-7, in resolution order (the record's ``battles`` lists are already in that order).
phase
    ``substitution`` (Substitution and Playmaker: honors decides first, then the other
    player; CR 4.2.2), ``play`` (Playmaker: the player with honors runs any number of plays,
    passes, then the other player; CR 4.3.2), ``draw`` (after a Playmaker battle: one
    ``draw`` action per play due, in either order), ``sudden_death`` (CR 4.4.3: both players
    reveal, honors first) and ``over``. Reveal and Determine Winner happen by themselves once
    the decisions before them are made; Rookie battles resolve with no action at all.
honors
    The player who decides first. It passes to the winner of the most recent *decided*
    battle; a drawn battle leaves it where it was (CR 4.2.2, README decision 7).
modifiers
    ``(source, amount)`` pairs that make a hero's power: instantaneous ones sit on the active
    hero and are lost when it leaves the battle zone (CR 3.2); ongoing ones (auras) live in
    ``ongoing`` and apply to whichever hero they reach (CR 5.1.1).

API: :meth:`GameState.initial` (from a record), then every game's protocol
(:class:`engine.game_state.GameState`): :meth:`legal_actions`, :meth:`apply`,
:meth:`is_terminal`, :meth:`outcome`, :meth:`clone`; and :meth:`next_expected`.
``apply`` mutates the state and raises :class:`IllegalActionError`; when it raises, the state
may be partly changed, so clone first if you need the position before (``replay`` does).
``outcome()`` is the game-neutral :class:`~engine.game_state.Outcome`; ``result`` keeps
BoBA's own (the battle it was decided after, the sudden-death reveals) for the replay.

:class:`GameState` applies the players' actions (CR 4 decisions); it builds on
:class:`~engine.boba.battle_flow.BattleFlow` (a battle from start to result),
:class:`~engine.boba.ongoing.OngoingRules` (what ongoing effects make of the position, hot
dogs included) and :class:`~engine.boba.position.Position` (the data and its bookkeeping).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine import game_state

from . import resolve
from .actions import Action
from .battle_flow import BattleFlow, _compare
from .cards import Hero, Play
from .context import Context
from .errors import IllegalActionError, Need
from .record import Record
from .resolve import run_play
from .results import Ongoing, Outcome, SuddenDeathRound
from .rules import (
    HOT_DOGS,
    OTHER,
    PLAYERS,
)


def _rule_for_phase(phase: str, mode: str = "substitution") -> str:
    if phase == "substitution" and mode == "playmaker":
        return "CR 4.3.2"
    return {
        "substitution": "CR 4.2.2",
        "play": "CR 4.3.2",
        "draw": "CR 4.3.2",
        "sudden_death": "CR 4.4.3",
        "over": "CR 4.4.1",
    }[phase]


class GameState(BattleFlow):
    """A BoBA game position. Build one with :meth:`initial`."""

    __slots__ = ()

    # ------------------------------------------------------------------ the resolver's answers
    # The layers below ask them of the game (OngoingRules.aura_amount and holds,
    # BattleFlow.fire_triggers): the resolver reads the whole position.

    def aura_amount(self, o: Ongoing, pi: int) -> int | None:
        return resolve.aura_amount(self, o, pi)

    def holds(self, pi: int, play: Play | None, cond: Mapping[str, Any]) -> bool:
        return Context(self, pi, play).cond(cond)

    def fire_triggers(self, event: str, actor: int | None) -> None:
        resolve.fire(self, event, actor, None)

    # ------------------------------------------------------------------ construction

    @classmethod
    def initial(cls, record: Record) -> GameState:
        """The position after setup (CR 4.1.1, 4.2.1, 4.3.1); Rookie battles resolve at once."""
        s = cls(record.cards, record.mode, record.options)
        s.honors = PLAYERS.index(record.honors)
        for i, pid in enumerate(PLAYERS):
            setup = record.setup[pid]
            ps = s.p[i]
            ps.lineup = list(setup.battles)
            ps.bench = list(setup.bench)
            ps.hand = list(setup.hand)
            if record.mode != "rookie":
                ps.hot_dogs = setup.hot_dogs
                ps.hot_dogs_discarded = HOT_DOGS - setup.hot_dogs
            ps.playbook_size = setup.playbook_size
            s.located.update(setup.battles, setup.bench, setup.hand)
            for cid in (*setup.battles, *setup.bench, *setup.hand):
                s.owner[cid] = i
        s._start_battle()
        return s

    # ------------------------------------------------------------------ queries

    def current_player(self) -> str | None:
        """Who decides now ("A"/"B"), None when the game is over (OpenSpiel's current_player)."""
        nxt = self.next_expected()
        return None if nxt is None else str(nxt["player"])

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> game_state.Outcome | None:
        return None if self.result is None else self.result.game_outcome()

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """The actions allowed now. Outcomes from hidden zones are left empty: a substitute's
        ``draw``, a draw's or reveal's ``card`` (None = "the next card of that deck"), and a
        run's ``random``/``drawn``/``choices``, which the player (or the generator) fills in."""
        out: list[Action] = []
        phase = self.phase
        if phase == "over":
            return out
        if phase == "draw":
            for i in (self.honors, OTHER[self.honors]):
                if self.p[i].pending_draws > 0:
                    out.append(Action(PLAYERS[i], "draw", None))
            return out
        pid = PLAYERS[self.turn]
        ps = self.p[self.turn]
        if phase == "sudden_death":
            return [Action(pid, "reveal", None)]
        if not (phase == "substitution" and self.must_substitute(self.turn)):
            out.append(Action(pid, "pass"))
        if phase == "substitution":
            cost, payer = self.substitution_cost(self.turn)
            if self.spendable(payer) >= cost and not self.is_prevented("substitute", self.turn):
                out.extend(Action(pid, "substitute", h) for h in ps.bench)
        elif phase == "play":
            for cid in ps.hand:
                card = self.cards[cid]
                if isinstance(card, Play) and self.can_run(self.turn, card) is None:
                    out.append(Action(pid, "run", cid))
        return out

    def next_expected(self) -> dict[str, Any] | None:
        """Whose decision is due and which kinds of action they may take (spec: ``next``)."""
        if self.phase == "over":
            return None
        acts = self.legal_actions()
        player = acts[0].player
        kinds: list[str] = []
        for a in acts:
            if a.player == player and a.do not in kinds:
                kinds.append(a.do)
        order = ["substitute", "run", "pass", "draw", "reveal"]
        return {"player": player, "expects": sorted(kinds, key=order.index)}

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> None:
        """Apply one action, or raise IllegalActionError (code, CR rule, message)."""
        phase = self.phase
        do = action.do
        # An action the mode does not have is reported as such, whatever the phase (a Rookie
        # game has no decisions but sudden-death reveals, so it is usually over already).
        if do == "substitute" and self.mode == "rookie":
            raise IllegalActionError(
                "not_in_mode", "CR 1.2.1", "There are no substitutions in Rookie mode."
            )
        if do in ("run", "draw") and self.mode != "playmaker":
            what = "Plays are run" if do == "run" else "Plays are drawn"
            raise IllegalActionError("not_in_mode", "CR 1.2.3", f"{what} only in Playmaker mode.")
        if phase == "over":
            raise IllegalActionError(
                "game_over", "CR 4.4.1", "The game is over: no more actions can be taken."
            )
        pi = PLAYERS.index(action.player)
        if action.card is None and do != "pass":
            raise IllegalActionError(
                "missing_card",
                _rule_for_phase(phase, self.mode),
                f"A {do} action must name its card.",
                Need("card", do),
            )
        if do == "substitute":
            self._substitute(pi, action)
        elif do == "pass":
            self._pass(pi)
        elif do == "run":
            self._run(pi, action)
        elif do == "draw":
            self._draw(pi, action)
        else:
            self._reveal(pi, action)

    def _wrong_phase(self, action: str) -> IllegalActionError:
        what = {
            "substitution": f"the substitution phase of battle {self.battle}",
            "play": f"the play phase of battle {self.battle}",
            "draw": f"the end of battle {self.battle - 1}: play draws are due",
            "sudden_death": "sudden death: both players reveal the top hero of their deck",
        }[self.phase]
        return IllegalActionError(
            "wrong_phase",
            _rule_for_phase(self.phase, self.mode),
            f"A {action} is not possible now: it is {what}.",
        )

    def _not_your_turn(self, pi: int) -> IllegalActionError:
        other = PLAYERS[self.turn]
        if self.phase == "substitution":
            why = f"{other} decides first (honors) in the substitution phase"
            if self.turn != self.honors:
                why = f"{other} has not yet decided whether to substitute"
        elif self.phase == "play":
            why = f"{other} has the play opportunity now"
            if self.turn == self.honors:
                why = f"{other} has honors and runs plays first"
        else:
            why = f"{other} reveals first (honors)"
        return IllegalActionError(
            "not_your_turn",
            _rule_for_phase(self.phase, self.mode),
            f"It is not {PLAYERS[pi]}'s turn: {why}.",
        )

    def _sub_rule(self) -> str:
        """Substitution is CR 4.2.2 in Substitution mode and CR 4.3.2 in Playmaker."""
        return "CR 4.3.2" if self.mode == "playmaker" else "CR 4.2.2"

    def _substitute(self, pi: int, action: Action) -> None:
        if self.mode == "rookie":
            raise IllegalActionError(
                "not_in_mode", "CR 1.2.1", "There are no substitutions in Rookie mode."
            )
        if self.phase != "substitution":
            raise self._wrong_phase("substitution")
        ps = self.p[pi]
        if ps.substituted:
            raise IllegalActionError(
                "substitution_already_used",
                self._sub_rule(),
                f"{PLAYERS[pi]} has already substituted in battle {self.battle}: "
                "each player may substitute only once per battle.",
            )
        if ps.decided:
            raise IllegalActionError(
                "substitution_decision_made",
                self._sub_rule(),
                f"{PLAYERS[pi]} passed on substituting in battle {self.battle} and gets no "
                "second chance.",
            )
        if self.turn != pi:
            raise self._not_your_turn(pi)
        if self.is_prevented("substitute", pi):
            raise IllegalActionError(
                "substitution_prevented",
                "CR 5.1.1",
                f"A play prevents {PLAYERS[pi]} from substituting in battle {self.battle}.",
            )
        card = action.card
        assert card is not None
        if card not in ps.bench:
            raise IllegalActionError(
                "card_not_on_bench",
                self._sub_rule(),
                f"{card} is not on {PLAYERS[pi]}'s bench: only a bench hero can be substituted.",
            )
        cost, payer = self.substitution_cost(pi)
        if self.spendable(payer) < cost:
            raise IllegalActionError(
                "insufficient_hot_dogs",
                self._sub_rule(),
                f"A substitution costs {cost} hot dogs; {PLAYERS[payer]} has "
                f"{self.p[payer].hot_dogs}.",
            )
        if action.draw is not None:
            self.check_new(action.draw, "hero", pi, self._sub_rule())
        self.pay(payer, cost)
        slot = self.battle - 1
        old = ps.lineup[slot]
        ps.bench.remove(card)
        ps.lineup[slot] = card
        ps.discard.append(old)  # face-down, not revealed (README decision 8)
        ps.clear_hero()  # CR 3.2
        if self.triggers:
            self.hero_left(old)  # never revealed: effects waiting for its reveal end (CR 3.2)
        if action.draw is not None:
            ps.bench.append(action.draw)
            self.take(action.draw, pi)
        ps.substituted = True
        self._decided(pi)

    def _decided(self, pi: int) -> None:
        self.p[pi].decided = True
        other = OTHER[pi]
        if not self.p[other].decided:
            self.turn = other
        else:
            self._reveal_heroes()

    def _pass(self, pi: int) -> None:
        phase = self.phase
        if phase == "substitution":
            ps = self.p[pi]
            if ps.decided:
                code = "substitution_already_used" if ps.substituted else "already_passed"
                raise IllegalActionError(
                    code,
                    self._sub_rule(),
                    f"{PLAYERS[pi]} has already made the substitution decision for battle "
                    f"{self.battle}.",
                )
            if self.turn != pi:
                raise self._not_your_turn(pi)
            if self.must_substitute(pi):
                raise IllegalActionError(
                    "substitution_required",
                    "CR 5.1.1",
                    f"A play forces {PLAYERS[pi]} to substitute in battle {self.battle}.",
                )
            self._decided(pi)
        elif phase == "play":
            if self.p[pi].passed:
                raise IllegalActionError(
                    "play_opportunity_used",
                    "CR 4.3.2",
                    f"{PLAYERS[pi]} has already passed in battle {self.battle}: each player has "
                    "only one opportunity per battle to run plays.",
                )
            if self.turn != pi:
                raise self._not_your_turn(pi)
            self._end_opportunity(pi)
        else:
            raise self._wrong_phase("pass")

    def _opportunity_over(self, pi: int) -> None:
        """pi's play opportunity (their turn) ends: rules checked then (Ultimatum Dog)."""
        if self.ongoing and not self.p[pi].hot_dogs and self.has_rule("zero_hot_dogs_lose", pi):
            self.p[pi].zero_loss = True

    def _end_opportunity(self, pi: int) -> None:
        self._opportunity_over(pi)
        self.p[pi].passed = True
        other = OTHER[pi]
        if not self.p[other].passed:
            self.turn = other
        else:
            self._fire("play_phase_end", None)
            self._determine()

    def _run(self, pi: int, action: Action) -> None:
        if self.mode != "playmaker":
            raise IllegalActionError(
                "not_in_mode", "CR 1.2.3", "Plays are run only in Playmaker mode."
            )
        if self.phase != "play":
            raise self._wrong_phase("run")
        ps = self.p[pi]
        if ps.passed:
            raise IllegalActionError(
                "play_opportunity_used",
                "CR 4.3.2",
                f"{PLAYERS[pi]} has already passed in battle {self.battle}: each player has "
                "only one opportunity per battle to run plays.",
            )
        if self.turn != pi:
            raise self._not_your_turn(pi)
        cid = action.card
        assert cid is not None
        play = self.cards[cid]
        if not isinstance(play, Play):
            raise IllegalActionError("not_a_play", "CR 2.1.2", f"{cid} is not a play.")
        if cid not in ps.hand:
            raise IllegalActionError(
                "card_not_in_hand",
                "CR 4.3.2",
                f"{cid} ({play.name}) is not in {PLAYERS[pi]}'s hand.",
            )
        why = self.can_run(pi, play)
        if why is not None:
            raise _cannot_run(why, self, pi, play)
        cost = self.play_cost(pi, play, charge=True)
        before = ps.hot_dogs
        self.pay(pi, cost)
        ps.hand.remove(cid)
        run_play(self, pi, play, action, before)
        if self.play_ended and self.phase == "play":
            for i in (0, 1):  # both players' opportunities end here
                if not self.p[i].passed:
                    self._opportunity_over(i)
            self.p[0].passed = self.p[1].passed = True
            self._fire("play_phase_end", None)
            self._determine()

    def _draw(self, pi: int, action: Action) -> None:
        if self.phase != "draw":
            raise self._wrong_phase("draw")
        ps = self.p[pi]
        if ps.pending_draws <= 0:
            raise IllegalActionError(
                "no_draw_due",
                "CR 4.3.2",
                f"{PLAYERS[pi]} has no play draw due now (one per battle while the playbook "
                "is not empty).",
            )
        cid = action.card
        assert cid is not None
        self.check_new(cid, "play", pi, "CR 4.3.2")
        ps.hand.append(cid)
        self.take(cid, pi)
        ps.playbook_size -= 1
        ps.pending_draws -= 1
        if ps.playbook_size <= 0:
            ps.pending_draws = 0
        if self.p[0].pending_draws == 0 and self.p[1].pending_draws == 0:
            self._next_battle()

    def _reveal(self, pi: int, action: Action) -> None:
        if self.phase != "sudden_death":
            raise self._wrong_phase("reveal")
        if self.sd_reveals[pi] is not None:
            raise IllegalActionError(
                "already_revealed",
                "CR 4.4.3",
                f"{PLAYERS[pi]} has already revealed a hero in this sudden-death round.",
            )
        if self.turn != pi:
            raise self._not_your_turn(pi)
        cid = action.card
        assert cid is not None
        self.check_new(cid, "hero", pi, "CR 4.4.3")
        self.take(cid, pi)
        self.sd_reveals[pi] = cid
        other = OTHER[pi]
        if self.sd_reveals[other] is None:
            self.turn = other
            return
        a, b = (self.cards[c] for c in self.sd_reveals)  # type: ignore[index]
        assert isinstance(a, Hero) and isinstance(b, Hero)
        winner, by = _compare(a.power, b.power, a.weapon, b.weapon, True)
        heroes = (self.sd_reveals[0] or "", self.sd_reveals[1] or "")
        self.sd_rounds.append(
            SuddenDeathRound(len(self.sd_rounds) + 1, heroes, (a.power, b.power), winner, by)
        )
        self.sd_reveals = [None, None]
        if winner is not None:
            self.result = Outcome(winner, self.battle, tuple(self.sd_rounds))
            self.phase = "over"
        else:
            self.turn = self.honors

    # ------------------------------------------------------------------ battle flow

    # ------------------------------------------------------------------ effects plumbing


def _cannot_run(why: str, s: GameState, pi: int, play: Play) -> IllegalActionError:
    name = f"{play.id} ({play.name})"
    if why == "plays_prevented":
        return IllegalActionError(
            why, "CR 5.1.1", f"A play prevents {PLAYERS[pi]} from running plays this battle."
        )
    if why == "play_limit_reached":
        return IllegalActionError(
            why, "CR 5.1.1", f"A play limits how many plays {PLAYERS[pi]} may run this battle."
        )
    if why == "play_condition_not_met":
        return IllegalActionError(
            why, "CR 2.1.2", f"{name} cannot be run now: its text restricts when it can be run."
        )
    cost = s.play_cost(pi, play)
    return IllegalActionError(
        why,
        "CR 2.1.2",
        f"{name} costs {cost} hot dogs; {PLAYERS[pi]} has {s.p[pi].hot_dogs}. A play cannot be "
        "run unless its full cost is paid.",
        Need("hot_dogs"),
    )


if TYPE_CHECKING:  # mypy holds the state to every game's protocol

    def _as_game_state(state: GameState) -> game_state.GameState[Action]:
        return state
