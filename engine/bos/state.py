"""The BOS game state and its legal-action checks (rules: BOS starter guide, Competitive Rules).

:meth:`GameState.apply` checks one action and applies it in place, or raises
:class:`IllegalActionError` with a stable code and the rule it breaks (``BOS: Main Phase``).
Only the core rules are checked; anything else a record states through a ``judge`` step.

The state is every game's (:class:`engine.game_state.GameState`): :meth:`legal_actions` lists
the core-rule actions allowed now (starting and ending turns, summons, the boss, attacks with
every block the defender may choose, spells with every split of vim and ether); an
``abilities`` or ``judge`` step is the record's statement, checked by ``apply`` alone and never
listed. :meth:`outcome` says how the game ended (:class:`BosTermination`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import game_state
from engine.errors import BattledeskError

from .record import PLAYERS, Action, Record

R_STARTUP = "BOS: Startup Phase"
R_SUMMONING = "BOS: Summoning Phase"
R_MAIN = "BOS: Main Phase"
R_ATTACK = "BOS: Attack"
R_PLAYER_ATTACK = "BOS: Player Attack"
R_BOSS = "BOS: Summon Your Boss"
R_SPELL = "BOS: Cast a Spell"
R_ETHER = "BOS: Going First"
R_ABILITIES = "BOS: Abilities"
R_DECAY = "BOS: Decay"
R_GAMEPLAY = "BOS: Gameplay"
R_START = "BOS: Starting Info"

DECAY_AFTER = 10  # decay once for each turn started after the 10th (BOS: Decay)


class BosTermination(game_state.Termination):
    """How a BOS game ends: a player's life reaches 0 (BOS: Starting Info, "Bring your
    opponent's life down to 0 to win!"), by one of three causes.

    - ``LIFE``: an attack or an ability took it to 0 (BOS: Starting Info).
    - ``DECAY``: the player's own decay halved it to 0 at the end of their startup phase
      (BOS: Decay, "a mechanic to ensure a winner is declared every game").
    - ``JUDGE``: a ``judge`` step set it to 0, a value set by hand (BOS: Starting Info is still
      the rule that ends the game; the replay flags the judge's value).

    A game lost on time (BOS: Time Control) is not in a game record: the match's result
    records it (``"end": "time"``, docs/bos-matches.md).
    """

    LIFE = ("life", R_START)
    DECAY = ("decay", R_DECAY)
    JUDGE = ("judge", R_START)


class IllegalActionError(BattledeskError):
    """An action the BOS rules do not allow here: a rules verdict (``field`` None)."""

    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(None, message)
        self.code = code
        self.rule = rule

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "rule": self.rule}


@dataclass(slots=True)
class Unit:
    """A summon or a face-up boss on the battlefield."""

    card: str
    strength: int
    acted: bool = False


@dataclass(slots=True)
class Side:
    life: int
    vim: int
    ether: int
    wizards: list[str]  # card ids, column 0..2
    wizard_state: list[str]  # "face_down", "ready" or "acted"
    boss: str
    boss_unit: Unit | None = None  # None while face-down (or defeated)
    boss_defeated: bool = False
    summons: list[Unit | None] = field(default_factory=lambda: [None, None, None])
    castle: list[str] = field(default_factory=list)
    spellbook: list[str] = field(default_factory=list)
    graveyard: list[str] = field(default_factory=list)
    turns_started: int = 0

    def battlefield_empty(self) -> bool:
        return self.boss_unit is None and all(u is None for u in self.summons)


def _other(p: str) -> str:
    return "B" if p == "A" else "A"


def _action(kind: str, player: str, **fields: Any) -> Action:
    """An action as :func:`engine.bos.record.parse_record` makes it from a record."""
    return Action(kind, player, {"type": kind, "player": player, **fields})


@dataclass(slots=True)
class GameState:
    sides: dict[str, Side]
    first: str
    cards: dict[str, Any]
    active: str | None = None  # whose turn; None before the first turn
    phase: str = "before"  # before, summoning, main, ended
    turn: int = 0  # turns started in the game
    winner: str | None = None
    termination: BosTermination | None = None  # set with the winner
    turns: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def initial(cls, record: Record) -> GameState:
        sides = {}
        for p in PLAYERS:
            deck = record.decks[p]
            sides[p] = Side(
                life=record.life,
                vim=record.vim,
                ether=record.ether[p],
                wizards=list(deck.wizards),
                wizard_state=["face_down"] * 3,
                boss=deck.boss,
                castle=list(deck.castle),
                spellbook=list(deck.spellbook),
            )
        return cls(sides, record.first, dict(record.cards))

    def clone(self) -> GameState:
        # The card definitions never change during a game: share them, copy the rest.
        return copy.deepcopy(self, {id(self.cards): self.cards})

    # ------------------------------------------------------------------ the protocol

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> game_state.Outcome | None:
        if self.winner is None or self.termination is None:
            return None
        return game_state.Outcome(self.winner, self.termination)

    def legal_actions(self) -> list[Action]:
        """The core-rule actions ``apply`` accepts now (see the module's notes)."""
        if self.winner is not None:
            return []
        if self.active is None or self.phase == "ended":
            nxt = self.first if self.active is None else _other(self.active)
            return [_action("start_turn", nxt)]
        p = self.active
        side = self.sides[p]
        out: list[Action] = []
        if self.phase == "summoning":
            for col in range(3):
                if side.wizard_state[col] != "ready" or side.summons[col] is not None:
                    continue
                wizard = self.cards[side.wizards[col]]
                for card_id in dict.fromkeys(side.castle):
                    card = self.cards[card_id]
                    if card.condition_wizard not in (None, wizard.id):
                        continue
                    if card.condition_colour not in (None, wizard.colour):
                        continue
                    out.append(_action("summon", p, wizard=col, card=card_id))
        if side.boss_unit is None and not side.boss_defeated:
            out.append(_action("summon_boss", p))
        out.extend(self._legal_attacks(p))
        for card_id in dict.fromkeys(side.spellbook):
            cost = int(self.cards[card_id].vim_cost)
            for ether in range(min(cost, side.ether) + 1):
                if cost - ether <= side.vim:
                    out.append(_action("cast", p, card=card_id, vim=cost - ether, ether=ether))
        out.append(_action("end_turn", p))
        return out

    def _units(self, p: str) -> list[tuple[str | int, Unit]]:
        side = self.sides[p]
        units: list[tuple[str | int, Unit]] = [
            (col, u) for col, u in enumerate(side.summons) if u is not None
        ]
        if side.boss_unit is not None:
            units.append(("boss", side.boss_unit))
        return units

    def _legal_attacks(self, p: str) -> list[Action]:
        out: list[Action] = []
        for slot, attacker in self._units(p):
            if attacker.acted:
                continue
            for tp in PLAYERS:
                for target_slot, _ in self._units(tp):
                    if not (tp == p and target_slot == slot):
                        target = {"player": tp, "slot": target_slot}
                        out.append(_action("attack", p, attacker=slot, target=target, blocker=None))
            for tp in PLAYERS:
                if not self._player_attack_open(p, slot, attacker, tp):
                    continue
                blockers: list[str | int | None] = [None]
                if tp != p:
                    blockers.extend(
                        b
                        for b, _ in self._units(tp)
                        if b == "boss" or (slot != "boss" and abs(int(b) - int(slot)) == 1)
                    )
                for blocker in blockers:
                    target = {"player": tp}
                    out.append(_action("attack", p, attacker=slot, target=target, blocker=blocker))
        return out

    def _player_attack_open(self, p: str, slot: str | int, attacker: Unit, tp: str) -> bool:
        """Whether ``attacker`` may attack player ``tp`` (BOS: Player Attack, BOS: Summon Your
        Boss): the same conditions ``_do_attack`` checks."""
        opp = self.sides[tp]
        if opp.turns_started == 0:
            return False
        if slot == "boss":
            return tp == p or opp.battlefield_empty()
        front = opp.summons[int(slot)]
        return front is None or front is attacker

    # ------------------------------------------------------------------ checks

    def _expect_active(self, a: Action) -> Side:
        if self.winner is not None:
            raise IllegalActionError("game_over", R_GAMEPLAY, f"{self.winner} has already won.")
        if self.active is None or self.phase == "ended":
            raise IllegalActionError(
                "turn_not_started", R_GAMEPLAY, "No turn is under way: start_turn comes first."
            )
        if a.player != self.active:
            raise IllegalActionError(
                "not_your_turn", R_GAMEPLAY, f"It is {self.active}'s turn, not {a.player}'s."
            )
        return self.sides[a.player]

    def _main(self, a: Action) -> Side:
        side = self._expect_active(a)
        self.phase = "main"  # the summoning phase is over once a main-phase action is taken
        return side

    def _unit(self, p: str, slot: str | int, what: str) -> Unit:
        side = self.sides[p]
        unit = side.boss_unit if slot == "boss" else side.summons[int(slot)]
        if unit is None:
            where = "face-up boss" if slot == "boss" else f"summon in column {slot}"
            raise IllegalActionError(
                "no_such_card", R_ATTACK, f"{what}: {p} has no {where} on the battlefield."
            )
        return unit

    # ------------------------------------------------------------------ apply

    def apply(self, a: Action) -> None:
        getattr(self, f"_do_{a.type}")(a)

    def _do_start_turn(self, a: Action) -> None:
        if self.winner is not None:
            raise IllegalActionError("game_over", R_GAMEPLAY, f"{self.winner} has already won.")
        expected = self.first if self.active is None else _other(self.active)
        if self.active is not None and self.phase != "ended":
            raise IllegalActionError(
                "turn_not_ended", R_GAMEPLAY, f"{self.active}'s turn has not ended."
            )
        if a.player != expected:
            raise IllegalActionError(
                "wrong_player", R_GAMEPLAY, f"It is {expected}'s turn to start, not {a.player}'s."
            )
        side = self.sides[a.player]
        self.active, self.phase = a.player, "summoning"
        self.turn += 1
        side.turns_started += 1
        # Startup: ready face-down wizards and acted cards, double vim (BOS: Startup Phase).
        side.wizard_state = ["ready"] * 3
        for u in [*side.summons, side.boss_unit]:
            if u is not None:
                u.acted = False
        side.vim *= 2
        # Decay at the end of the startup phase (BOS: Decay).
        times = max(0, side.turns_started - DECAY_AFTER)
        for _ in range(times):
            side.life //= 2
            side.vim //= 2
        self.turns.append(
            {"turn": self.turn, "player": a.player, "player_turn": side.turns_started}
            | {"decay": times, "after_startup": self.snapshot_players()}
        )
        self._check_end(BosTermination.DECAY)

    def _do_summon(self, a: Action) -> None:
        side = self._expect_active(a)
        if self.phase != "summoning":
            raise IllegalActionError(
                "not_summoning_phase", R_SUMMONING, "Summons are conducted in the summoning phase."
            )
        col = int(a.data["wizard"])
        card_id = str(a.data["card"])
        if side.wizard_state[col] != "ready":
            raise IllegalActionError(
                "wizard_not_ready",
                R_SUMMONING,
                f"The wizard in column {col} is face-down or has acted: it cannot conduct.",
            )
        if card_id not in side.castle:
            raise IllegalActionError(
                "not_in_castle", R_SUMMONING, f"{card_id} is not in {a.player}'s castle."
            )
        if side.summons[col] is not None:
            raise IllegalActionError(
                "column_occupied", R_SUMMONING, f"Column {col} already holds a summon."
            )
        card = self.cards[card_id]
        wizard = self.cards[side.wizards[col]]
        if card.condition_wizard is not None and card.condition_wizard != wizard.id:
            raise IllegalActionError(
                "condition_not_met",
                R_SUMMONING,
                f"{card_id} must be conducted with {card.condition_wizard}, not {wizard.id}.",
            )
        if card.condition_colour is not None and card.condition_colour != wizard.colour:
            raise IllegalActionError(
                "condition_not_met",
                R_SUMMONING,
                f"{card_id} needs a {card.condition_colour} wizard; {wizard.id} is "
                f"{wizard.colour}.",
            )
        side.wizard_state[col] = "face_down"
        side.castle.remove(card_id)
        side.summons[col] = Unit(card_id, int(card.strength))

    def _do_summon_boss(self, a: Action) -> None:
        side = self._main(a)
        if side.boss_unit is not None or side.boss_defeated:
            raise IllegalActionError("boss_not_face_down", R_BOSS, "The boss is not face-down.")
        # Its summoning condition is the record's (a judge's) statement: not checked here.
        side.boss_unit = Unit(side.boss, int(self.cards[side.boss].strength))

    def _do_attack(self, a: Action) -> None:
        self._main(a)
        slot = a.data["attacker"]
        attacker = self._unit(a.player, slot, "attacker")
        if attacker.acted:
            raise IllegalActionError(
                "already_acted", R_ATTACK, "The attacker has acted: attacking costs its action."
            )
        target = a.data["target"]
        tp = str(target["player"])
        blocker_slot = a.data["blocker"]
        if "slot" in target:
            if blocker_slot is not None:
                raise IllegalActionError(
                    "block_not_allowed", R_PLAYER_ATTACK, "Only a player attack can be blocked."
                )
            if tp == a.player and target["slot"] == slot:
                raise IllegalActionError(
                    "attacks_itself", R_ATTACK, "A summon attacks any *other* summon."
                )
            self._unit(tp, target["slot"], "target")
            attacker.acted = True
            self._battle(a.player, slot, tp, target["slot"])
            return
        # Player attack.
        opp = self.sides[tp]
        if opp.turns_started == 0:
            raise IllegalActionError(
                "opponent_not_started",
                R_PLAYER_ATTACK,
                f"{tp} has not started a first turn and cannot be attacked.",
            )
        if slot == "boss":
            if tp != a.player and not opp.battlefield_empty():
                raise IllegalActionError(
                    "boss_attack_blocked",
                    R_BOSS,
                    f"A boss attacks a player only when {tp}'s battlefield is empty.",
                )
        else:
            front = opp.summons[int(slot)]
            if front is not None and front is not attacker:
                raise IllegalActionError(
                    "column_not_open",
                    R_PLAYER_ATTACK,
                    f"{tp} has a summon in column {slot}: no player attack from that column.",
                )
        if blocker_slot is not None and tp == a.player:
            # Only an opponent defends ("Your opponent ... may choose to defend"); a block of
            # one's own attack would also move the blocker onto the attacker's column.
            raise IllegalActionError(
                "block_not_allowed",
                R_PLAYER_ATTACK,
                "Only an opponent blocks a player attack: an attack on yourself is not blocked.",
            )
        attacker.acted = True
        if blocker_slot is None:
            opp.life = max(0, opp.life - attacker.strength)
            self._check_end(BosTermination.LIFE)
            return
        defender = self._unit(tp, blocker_slot, "blocker")
        if defender is attacker:
            raise IllegalActionError("attacks_itself", R_ATTACK, "A summon cannot block itself.")
        if blocker_slot != "boss":
            if slot == "boss" or abs(int(blocker_slot) - int(slot)) != 1:
                raise IllegalActionError(
                    "blocker_not_adjacent",
                    R_PLAYER_ATTACK,
                    "A summon blocks only from a column adjacent to the attack.",
                )
            # The blocker moves over to the attacked column (a boss does not move).
            opp.summons[int(slot)], opp.summons[int(blocker_slot)] = defender, None
            blocker_slot = int(slot)
        self._battle(a.player, slot, tp, blocker_slot)

    def _battle(self, p1: str, s1: str | int, p2: str, s2: str | int) -> None:
        """Both deal damage equal to their strength; each takes at most its strength."""
        u1, u2 = self._unit(p1, s1, "battler"), self._unit(p2, s2, "battler")
        d1, d2 = min(u2.strength, u1.strength), min(u1.strength, u2.strength)
        u1.strength -= d1
        u2.strength -= d2
        self._defeat(p1, s1)
        self._defeat(p2, s2)

    def _defeat(self, p: str, slot: str | int) -> None:
        side = self.sides[p]
        unit = side.boss_unit if slot == "boss" else side.summons[int(slot)]
        if unit is None or unit.strength > 0:
            return
        side.graveyard.append(unit.card)
        if slot == "boss":
            side.boss_unit, side.boss_defeated = None, True
        else:
            side.summons[int(slot)] = None

    def _do_cast(self, a: Action) -> None:
        side = self._main(a)
        card_id = str(a.data["card"])
        if card_id not in side.spellbook:
            raise IllegalActionError(
                "not_in_spellbook", R_SPELL, f"{card_id} is not in {a.player}'s spellbook."
            )
        cost = int(self.cards[card_id].vim_cost)
        vim, ether = int(a.data["vim"]), int(a.data["ether"])
        if vim + ether != cost:
            raise IllegalActionError(
                "wrong_payment", R_SPELL, f"{card_id} costs {cost}; {vim} vim + {ether} ether paid."
            )
        if vim > side.vim:
            raise IllegalActionError(
                "not_enough_vim", R_SPELL, f"{a.player} has {side.vim} vim, not {vim}."
            )
        if ether > side.ether:
            raise IllegalActionError(
                "not_enough_ether", R_ETHER, f"{a.player} has {side.ether} ether, not {ether}."
            )
        side.vim -= vim
        side.ether -= ether
        side.spellbook.remove(card_id)
        side.graveyard.append(card_id)

    def _do_abilities(self, a: Action) -> None:
        self._expect_active(a)
        effects: list[dict[str, Any]] = a.data["effects"]
        seen_optional = False
        for e in effects:
            if e["mandatory"] and seen_optional:
                raise IllegalActionError(
                    "mandatory_first",
                    R_ABILITIES,
                    "The active player orders simultaneous abilities, mandatory ones first.",
                )
            seen_optional = seen_optional or not e["mandatory"]
        for e in effects:
            self._effect(e)
            if self.winner is not None:
                return

    def _effect(self, e: dict[str, Any]) -> None:
        target = e["target"]
        tp = str(target["player"])
        side = self.sides[tp]
        amount = int(e["amount"])
        if "slot" not in target:
            if side.turns_started == 0 and tp != self.active:
                return  # an ability that would affect a player not yet started does not
            if e["kind"] == "damage":
                side.life = max(0, side.life - amount)
            elif e["kind"] == "vim":
                side.vim = max(0, side.vim + amount)
            else:
                side.ether = max(0, side.ether + amount)
            self._check_end(BosTermination.LIFE)
            return
        slot = target["slot"]
        if (slot == "boss") != (e["affects"] == "boss"):
            raise IllegalActionError(
                "boss_is_not_summon",
                R_BOSS,
                "Bosses are not summons for abilities: an ability on a summon does not reach "
                "a boss, nor one on a boss a summon.",
            )
        unit = self._unit(tp, slot, "ability target")
        if e["kind"] == "damage":
            unit.strength -= min(amount, unit.strength)
        else:
            unit.strength = max(0, unit.strength + amount)
        self._defeat(tp, slot)

    def _do_end_turn(self, a: Action) -> None:
        self._expect_active(a)
        self.phase = "ended"
        if self.turns:
            self.turns[-1]["at_end"] = self.snapshot_players()

    def _do_judge(self, a: Action) -> None:
        if self.winner is not None:
            raise IllegalActionError("game_over", R_GAMEPLAY, f"{self.winner} has already won.")
        for p, vals in a.data["adjust"].items():
            for key, n in vals.items():
                setattr(self.sides[p], key, int(n))
        self._check_end(BosTermination.JUDGE)

    def _check_end(self, cause: BosTermination) -> None:
        """A player at 0 life loses (BOS: Starting Info); ``cause`` is what took it there."""
        if self.winner is not None:
            return
        if self.active is not None and self.sides[self.active].life == 0:
            # The active player's own loss of life (decay, attacking itself) is checked first.
            self.winner, self.termination = _other(self.active), cause
            return
        for p in PLAYERS:
            if self.sides[p].life == 0:
                self.winner, self.termination = _other(p), cause
                return

    # ------------------------------------------------------------------ reports

    def snapshot_players(self) -> dict[str, dict[str, int]]:
        return {p: {"life": s.life, "vim": s.vim, "ether": s.ether} for p, s in self.sides.items()}

    def snapshot(self) -> dict[str, Any]:
        def unit(u: Unit | None) -> dict[str, Any] | None:
            return None if u is None else {"card": u.card, "strength": u.strength, "acted": u.acted}

        return {
            "active": self.active,
            "phase": self.phase,
            "players": {
                p: {
                    "life": s.life,
                    "vim": s.vim,
                    "ether": s.ether,
                    "wizards": list(s.wizard_state),
                    "summons": [unit(u) for u in s.summons],
                    "boss": unit(s.boss_unit),
                    "graveyard": list(s.graveyard),
                }
                for p, s in self.sides.items()
            },
        }

    def next_expected(self) -> dict[str, Any] | None:
        if self.winner is not None:
            return None
        if self.active is None:
            return {"player": self.first, "expects": ["start_turn"]}
        if self.phase == "ended":
            return {"player": _other(self.active), "expects": ["start_turn"]}
        main = ["summon_boss", "attack", "cast", "abilities", "end_turn"]
        if self.phase == "summoning":
            return {"player": self.active, "expects": ["summon", *main]}
        return {"player": self.active, "expects": main}


if TYPE_CHECKING:  # mypy holds the state to every game's protocol

    def _as_game_state(state: GameState) -> game_state.GameState[Action]:
        return state
