"""Value objects a game produces: ongoing effects, battle results, sudden death, outcome.

NamedTuples (cheap to build on the replay hot path); ``to_json`` gives the spec's shapes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine import game_state

from .rules import PLAYERS


class BobaTermination(game_state.Termination):
    """How a BoBA game ends (CR 4.4 Winning the Game).

    - ``BATTLES_WON``: a player won the majority of the seven battles (CR 4.4.1), whether the
      game stopped at four trophies or all seven were played (README decision 5).
    - ``TIE``: both won the same number of battles and the game allows a tie: a drawn game
      (CR 4.4.2).
    - ``SUDDEN_DEATH``: tied on battles, decided by revealing heroes (CR 4.4.3).
    """

    BATTLES_WON = ("battles_won", "CR 4.4.1")
    TIE = ("tie", "CR 4.4.2")
    SUDDEN_DEATH = ("sudden_death", "CR 4.4.3")


class Ongoing(NamedTuple):
    """An ongoing effect (CR 5.1.1) created by ``source`` (a play id) for ``owner``."""

    instance: int
    owner: int
    source: str
    key: str  # non-stacking identity (CR 5.1.6): the base play's name
    kind: str  # the step kind: power, cost, sub_cost, prevent, max_plays, set_weapon, on
    step: dict[str, Any]
    battles: frozenset[int]
    amount: int = 0
    created: int = 0  # the battle it was created in


class BattleResult(NamedTuple):
    """How one battle ended: the final heroes, their power and why the winner won."""

    battle: int
    heroes: tuple[str, str]
    power: tuple[int, int]
    modifiers: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
    winner: int | None
    decided_by: str  # power, super, draw or rule (a play's rule: Ultimatum Dog)
    honors_next: int

    def to_json(self) -> dict[str, Any]:
        return {
            "battle": self.battle,
            "heroes": {"A": self.heroes[0], "B": self.heroes[1]},
            "power": {"A": self.power[0], "B": self.power[1]},
            "modifiers": {
                p: [{"source": s, "amount": a} for s, a in self.modifiers[i]]
                for i, p in enumerate(PLAYERS)
            },
            "winner": None if self.winner is None else PLAYERS[self.winner],
            "decided_by": self.decided_by,
            "honors_next": PLAYERS[self.honors_next],
        }


class SuddenDeathRound(NamedTuple):
    """One sudden-death reveal (CR 4.4.3)."""

    round: int
    heroes: tuple[str, str]
    power: tuple[int, int]
    winner: int | None
    decided_by: str

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "heroes": {"A": self.heroes[0], "B": self.heroes[1]},
            "power": {"A": self.power[0], "B": self.power[1]},
            "winner": None if self.winner is None else PLAYERS[self.winner],
            "decided_by": self.decided_by,
        }


class Outcome(NamedTuple):
    """The result of a finished game: winner None is a drawn game."""

    winner: int | None
    decided_after_battle: int
    sudden_death: tuple[SuddenDeathRound, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": None if self.winner is None else PLAYERS[self.winner],
            "decided_after_battle": self.decided_after_battle,
            "sudden_death": [r.to_json() for r in self.sudden_death],
        }

    def game_outcome(self) -> game_state.Outcome:
        """This result as every game's :class:`~engine.game_state.Outcome`."""
        if self.sudden_death:
            termination = BobaTermination.SUDDEN_DEATH
        elif self.winner is None:
            termination = BobaTermination.TIE
        else:
            termination = BobaTermination.BATTLES_WON
        winner = None if self.winner is None else PLAYERS[self.winner]
        return game_state.Outcome(winner, termination)
