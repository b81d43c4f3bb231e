"""A BoBA game position: the players' zones and counters, the cards and the ongoing effects
in play, and the bookkeeping every part of the engine shares (see :mod:`engine.boba.state`).

:class:`Position` holds the data; :class:`~engine.boba.ongoing.OngoingRules` answers what the
ongoing effects make of it, :class:`~engine.boba.battle_flow.BattleFlow` runs a battle from its
start to its result, and :class:`~engine.boba.state.GameState` applies the players' actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from .cards import Card, Hero
from .errors import IllegalActionError
from .results import BattleResult, Ongoing, Outcome, SuddenDeathRound
from .rules import PLAYERS, Options


class PlayerState:
    """One player's zones and counters. Lists are private to one state (see clone)."""

    __slots__ = (
        "bench",
        "decided",
        "discard",
        "discarded_battle",
        "floor",
        "ghost",
        "hand",
        "hot_dogs",
        "hot_dogs_discarded",
        "lineup",
        "mods",
        "overspent",
        "passed",
        "pending_draws",
        "playbook_size",
        "plays_battle",
        "recovered_battle",
        "results",
        "revealed",
        "spent_battle",
        "substituted",
        "trophies",
        "used",
        "zero_loss",
    )

    def __init__(self) -> None:
        self.lineup: list[str] = []
        self.bench: list[str] = []
        self.hand: list[str] = []
        self.discard: list[str] = []
        self.hot_dogs = 0  # available (CR 2.1.4), ghost dogs included
        # in the discard pile: available + discarded == 10 + ghost dogs (README decision 9)
        self.hot_dogs_discarded = 0
        # Plays that are now hot dogs (Ghost Dog), counted in hot_dogs while available; spent,
        # they go to the discard pile as the Play card they are (not to the hot dog discard).
        self.ghost: list[str] = []
        self.playbook_size = 0
        self.trophies = 0
        self.results: list[str] = []  # per battle: won / lost / draw
        self.used: list[tuple[int, str]] = []  # (battle, play id) of plays run
        self.revealed: list[str] = []
        # instantaneous modifiers on the active hero: (serial, source, amount)
        self.mods: list[tuple[int, str, int]] = []
        # "can't drop below its current power": (source, floor) on the active hero (CR 3.2)
        self.floor: tuple[str, int] | None = None
        self.pending_draws = 0
        self.start_battle()

    def start_battle(self) -> None:
        """What a player's record of the current battle holds, as a battle starts."""
        self.clear_hero()
        self.plays_battle: list[str] = []
        self.spent_battle = 0
        # hot dogs that went to the discard this battle: paid, substitution, forced discards
        self.discarded_battle = 0
        self.recovered_battle = 0
        self.substituted = False
        self.decided = False
        self.passed = False
        self.zero_loss = False  # a rule makes this player lose the battle (Ultimatum Dog)
        self.overspent = 0  # hot dogs spent this battle beyond those available (Student Loan)

    def clear_hero(self) -> None:
        """The active hero leaves the battle zone: its instantaneous effects end (CR 3.2)."""
        self.mods.clear()
        self.floor = None

    def spend(self, n: int, by_opp: bool = False) -> int:
        """Move up to n available hot dogs to the discard; how many moved. Ordinary hot dogs
        go first; a ghost dog (a Play that is a hot dog, Ghost Dog) goes only when none is
        left, to the discard as a Play, and never when the opponent's play removes them
        (``by_opp``: "It can't be removed by your opponent's Plays")."""
        ghosts = len(self.ghost)
        if not ghosts:
            k = min(n, self.hot_dogs)
            self.hot_dogs -= k
            self.hot_dogs_discarded += k
            self.discarded_battle += k
            return k
        plain = self.hot_dogs - ghosts
        k = min(n, plain if by_opp else self.hot_dogs)
        from_plain = min(k, plain)
        self.hot_dogs -= k
        self.discarded_battle += k
        self.hot_dogs_discarded += from_plain
        for _ in range(k - from_plain):
            self.discard.append(self.ghost.pop())
        return k

    def recover(self, n: int) -> int:
        """Move up to n hot dogs from the discard back to available; how many moved."""
        k = min(n, self.hot_dogs_discarded)
        self.hot_dogs_discarded -= k
        self.hot_dogs += k
        return k

    def clone(self) -> PlayerState:
        c = PlayerState.__new__(PlayerState)
        c.lineup = self.lineup[:]
        c.bench = self.bench[:]
        c.hand = self.hand[:]
        c.discard = self.discard[:]
        c.hot_dogs = self.hot_dogs
        c.hot_dogs_discarded = self.hot_dogs_discarded
        c.ghost = self.ghost[:]
        c.playbook_size = self.playbook_size
        c.trophies = self.trophies
        c.results = self.results[:]
        c.used = self.used[:]
        c.plays_battle = self.plays_battle[:]
        c.revealed = self.revealed[:]
        c.mods = self.mods[:]
        c.spent_battle = self.spent_battle
        c.discarded_battle = self.discarded_battle
        c.recovered_battle = self.recovered_battle
        c.substituted = self.substituted
        c.decided = self.decided
        c.passed = self.passed
        c.pending_draws = self.pending_draws
        c.floor = self.floor
        c.zero_loss = self.zero_loss
        c.overspent = self.overspent
        return c


class Position:
    """The data of a game position and its shared bookkeeping."""

    __slots__ = (
        "battle",
        "cards",
        "history",
        "honors",
        "honors_next",
        "located",
        "mode",
        "ongoing",
        "options",
        "owner",
        "p",
        "phase",
        "play_ended",
        "probe",
        "result",
        "sd_reveals",
        "sd_rounds",
        "serial",
        "triggers",
        "turn",
        "uses",
    )

    def __init__(self, cards: dict[str, Card], mode: str, options: Options) -> None:
        self.cards = cards
        self.mode = mode
        self.options = options
        self.p: list[PlayerState] = [PlayerState(), PlayerState()]
        self.battle = 1
        self.phase = "substitution"
        self.turn = 0
        self.honors = 0
        self.honors_next: int | None = None
        self.history: list[BattleResult] = []
        self.ongoing: list[Ongoing] = []  # ongoing effects but triggers
        self.triggers: list[Ongoing] = []  # ongoing effects of kind "on"
        self.uses: dict[int, int] = {}  # ongoing instance -> plays left (cost effects)
        self.located: set[str] = set()  # card ids in a known zone
        self.owner: dict[str, int] = {}  # card id -> the player whose card it is (CR 5.1.5)
        self.sd_rounds: list[SuddenDeathRound] = []
        self.sd_reveals: list[str | None] = [None, None]
        self.result: Outcome | None = None
        self.serial = 0
        self.play_ended = False
        # The generator sets probe: an effect that would find a hero deck empty asks instead.
        self.probe = False

    def clone(self) -> Self:
        c = type(self).__new__(type(self))
        c.cards = self.cards
        c.mode = self.mode
        c.options = self.options
        c.p = [self.p[0].clone(), self.p[1].clone()]
        c.battle = self.battle
        c.phase = self.phase
        c.turn = self.turn
        c.honors = self.honors
        c.honors_next = self.honors_next
        c.history = self.history[:]
        c.ongoing = self.ongoing[:]
        c.triggers = self.triggers[:]
        c.uses = dict(self.uses)
        c.located = set(self.located)
        c.owner = dict(self.owner)
        c.sd_rounds = self.sd_rounds[:]
        c.sd_reveals = self.sd_reveals[:]
        c.result = self.result
        c.serial = self.serial
        c.play_ended = self.play_ended
        c.probe = self.probe
        return c

    def hero(self, pi: int, battle: int | None = None) -> Hero:
        card = self.cards[self.p[pi].lineup[(battle or self.battle) - 1]]
        assert isinstance(card, Hero)
        return card

    def take(self, cid: str, pi: int) -> None:
        """A card comes out of player pi's hidden deck into a known zone."""
        self.located.add(cid)
        self.owner.setdefault(cid, pi)

    def check_new(self, cid: str, kind: str, pi: int, rule: str) -> None:
        """May ``cid`` come from player pi's deck now? (kind, not already known, pi's card)"""
        card = self.cards[cid]
        if card.kind != kind:
            raise IllegalActionError(
                "wrong_card_kind", rule, f"{cid} is a {card.kind}, not a {kind}."
            )
        if cid in self.located:
            raise IllegalActionError(
                "card_already_in_play",
                rule,
                f"{cid} cannot come from a deck: it is already in a known zone.",
            )
        if self.owner.get(cid, pi) != pi:
            raise IllegalActionError(
                "not_your_card",
                "CR 5.1.5",
                f"{cid} belongs to {PLAYERS[self.owner[cid]]}: {PLAYERS[pi]} may only draw from "
                "their own decks.",
            )

    def add_ongoing(self, o: Ongoing) -> None:
        (self.triggers if o.kind == "on" else self.ongoing).append(o)

    def drop(self, gone: Callable[[Ongoing], bool]) -> None:
        """End the ongoing effects (and triggers) for which ``gone`` holds."""
        if self.ongoing:
            self.ongoing = [o for o in self.ongoing if not gone(o)]
        if self.triggers:
            self.triggers = [o for o in self.triggers if not gone(o)]

    def hero_left(self, cid: str) -> None:
        """Hero ``cid`` left the lineup (to the discard, hand or deck): effects that follow it
        (``on`` reveal with a ``hero``, Delayed Recovery) end with it (CR 3.2). Moves within
        the lineup keep them: they follow the card, not a battle."""
        self.drop(lambda o: o.step.get("hero") == cid)

    def new_instance(self) -> int:
        self.serial += 1
        return self.serial

    def snapshot(self) -> dict[str, Any]:
        """A JSON-friendly view of the position (for traces and the judge's form)."""
        players = {}
        for i, pid in enumerate(PLAYERS):
            ps = self.p[i]
            players[pid] = {
                "lineup": ps.lineup[:],
                "bench": ps.bench[:],
                "hand": ps.hand[:],
                "discard": ps.discard[:],
                "hot_dogs": ps.hot_dogs,
                "hot_dogs_discarded": ps.hot_dogs_discarded,
                "ghost_dogs": ps.ghost[:],
                "playbook_size": ps.playbook_size,
                "trophies": ps.trophies,
            }
        return {
            "battle": self.battle,
            "phase": self.phase,
            "honors": PLAYERS[self.honors],
            "players": players,
            "ongoing": [_ongoing_json(o) for o in (*self.ongoing, *self.triggers)],
        }


def _ongoing_json(o: Ongoing) -> dict[str, Any]:
    out: dict[str, Any] = {"source": o.source, "kind": o.kind}
    if "hero" in o.step:
        out["hero"] = o.step["hero"]  # the hero the effect follows (Delayed Recovery)
    return out


def _reaches(o: Ongoing, pi: int, step: dict[str, Any], key: str) -> bool:
    """Does an ongoing effect's who/target (relative to its owner) include player pi?"""
    who = str(step.get(key, "own"))
    if who == "both":
        return True
    return (pi == o.owner) == (who == "own")
