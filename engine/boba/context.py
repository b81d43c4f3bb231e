"""What a play resolves in: the counts and conditions of the Play-effect vocabulary as a
registry, and the :class:`Context` that evaluates them.

A *count* (what an amount scales with, what a count condition compares) is one
:class:`CountWord`; a *condition* is one :class:`ConditionWord`. The words themselves are
written in :mod:`engine.boba.vocabulary` (each registered here with :func:`count` or
:func:`condition`); a :class:`Context` answers them for one player while a play resolves,
reading the position (:class:`~engine.boba.battle_flow.BattleFlow`) and the outcomes the
action supplies (:class:`Cursor`). :class:`~engine.boba.resolve.Resolver` builds on it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .battle_flow import BattleFlow
from .cards import Play
from .checks import WEAPONS
from .errors import IllegalActionError, Need
from .rules import HOT_DOGS, OTHER

Spec = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class CountWord:
    """A count: ``evaluate(ctx, spec, pi)`` is its value for player ``pi``."""

    name: str
    doc: str
    evaluate: Callable[[Context, Spec, int], int]


@dataclass(frozen=True, slots=True)
class ConditionWord:
    """A condition: ``check(cond, path)`` validates the whole condition object;
    ``holds(ctx, cond, pi)`` says whether it holds for player ``pi``."""

    name: str
    doc: str
    check: Callable[[Spec, str], None]
    holds: Callable[[Context, Spec, int], bool]


COUNT_WORDS: dict[str, CountWord] = {}
CONDITION_WORDS: dict[str, ConditionWord] = {}


def count(name: str, doc: str) -> Callable[[Callable[[Context, Spec, int], int]], CountWord]:
    """Register the decorated evaluator as the count ``name``."""

    def register(evaluate: Callable[[Context, Spec, int], int]) -> CountWord:
        word = CountWord(name, doc, evaluate)
        COUNT_WORDS[name] = word
        return word

    return register


def condition(
    name: str, doc: str, check: Callable[[Spec, str], None]
) -> Callable[[Callable[[Context, Spec, int], bool]], ConditionWord]:
    """Register the decorated evaluator as the condition ``name``, validated by ``check``."""

    def register(holds: Callable[[Context, Spec, int], bool]) -> ConditionWord:
        word = ConditionWord(name, doc, check, holds)
        CONDITION_WORDS[name] = word
        return word

    return register


def condition_kind(c: Spec) -> str | None:
    """The word of a condition object: ``count`` first (a count condition may carry count
    parameters, ``weapon`` among them), else its one registered key."""
    if "count" in c:
        return "count"
    for key in c:
        if key in CONDITION_WORDS:
            return key
    return None


def _invalid(key: str, message: str, options: tuple[Any, ...] = ()) -> IllegalActionError:
    return IllegalActionError(
        "invalid_choice", "CR 5.1.1", message, Need("choice", key, options) if options else None
    )


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
        self, s: BattleFlow, me: int, play: Play | None, cursor: Cursor | None = None
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
