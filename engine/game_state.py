"""One protocol for every game's state: what a rules engine offers whatever the game.

Notes on terminology
--------------------
state
    One game position of one game (BoBA's ``engine.boba.state.GameState``, BOS's
    ``engine.bos.state.GameState``), built from a game record's start. Both satisfy
    :class:`GameState`; the verbs follow OpenSpiel's (``legal_actions``, ``apply_action``,
    ``is_terminal``, ``returns``, ``clone``).
action
    The game's own value object (``engine.boba.actions.Action``, ``engine.bos.record.Action``):
    the protocol is generic over it.
apply
    Applies one action *in place* (both games always have) and returns None; an action the
    rules forbid raises the game's ``IllegalActionError`` (a ``BattledeskError`` with a stable
    ``code`` and the ``rule`` it breaks). When it raises, the state may be partly changed:
    clone first if the position before is needed (the replays do).
legal actions
    What the rules let the player(s) do now, as actions ``apply`` accepts. A game with hidden
    information leaves an action's hidden outcome empty (BoBA: the next card of a deck, a
    coin, a die, a choice): ``apply`` then refuses it with ``needs`` naming what is missing,
    which the player (or BoBA's generator) supplies. A game may also accept statements that
    no list could enumerate (BOS: an ``abilities`` step with its effects, a ``judge`` step):
    those are left out and ``apply`` checks them on their own.
outcome
    None while the game is under way; once it is over, a frozen :class:`Outcome`: the winner
    (``"A"`` or ``"B"``; None is a drawn game) and how the game ended, a member of the game's
    :class:`Termination` enum, which cites the rule that ends the game that way.

A game adds its own terminations by subclassing :class:`Termination` next to its rules
(``engine.boba.results.BobaTermination``, ``engine.bos.state.BosTermination``): this module
names no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, Self, TypeVar


class Termination(Enum):
    """How a game ended, with the rule that ends it so (``rule``: ``"CR 4.4.1"``).

    This base has no members: each game subclasses it with its own, written
    ``NAME = ("key", "rule")``; ``value`` is the key (stable, for JSON).
    """

    rule: str

    def __new__(cls, key: str, rule: str) -> Self:
        member = object.__new__(cls)
        member._value_ = key
        member.rule = rule
        return member

    @property
    def key(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: ``winner`` "A" or "B", None for a drawn game, and how it ended."""

    winner: str | None
    termination: Termination

    @property
    def draw(self) -> bool:
        return self.winner is None

    @property
    def rule(self) -> str:
        return self.termination.rule

    def to_json(self) -> dict[str, str | None]:
        return {"winner": self.winner, "termination": self.termination.key, "rule": self.rule}


ActionT = TypeVar("ActionT")


class GameState(Protocol[ActionT]):
    """The state of one game, whatever the game (see the module's notes for each verb)."""

    def legal_actions(self) -> Sequence[ActionT]:
        """What the rules allow now; empty once the game is over."""
        ...

    def apply(self, action: ActionT) -> None:
        """Apply ``action`` in place, or raise the game's IllegalActionError."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over (then ``outcome()`` is not None)."""
        ...

    def outcome(self) -> Outcome | None:
        """The finished game's winner and termination; None while it is under way."""
        ...

    def clone(self) -> Self:
        """An independent copy: applying to one never changes the other."""
        ...
