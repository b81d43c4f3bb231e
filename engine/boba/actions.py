"""Actions: small value objects with a JSON codec.

``Action(player, do, card, draw, choices, random, drawn)`` mirrors one entry of a record's
``actions`` list (spec: Actions). ``do`` is one of :data:`ACTION_KINDS`. Legality is not
checked here (see :meth:`engine.boba.state.GameState.apply`); :func:`action_from_json` checks
shape and types only and raises :class:`~engine.boba.errors.RecordError` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import RecordError
from .rules import PLAYERS

ACTION_KINDS: tuple[str, ...] = ("substitute", "pass", "run", "draw", "reveal")
MAX_LIST = 200
MAX_TEXT = 200


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one player, in the order it happened."""

    player: str
    do: str
    card: str | None = None
    draw: str | None = None
    choices: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)
    random: tuple[str | int, ...] = ()
    drawn: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "do": self.do}
        if self.card is not None:
            out["card"] = self.card
        if self.do == "substitute":
            out["draw"] = self.draw
        if self.choices:
            bare = list(self.choices) == ["*"]
            out["choices"] = self.choices["*"] if bare else self.choices
        if self.random:
            out["random"] = list(self.random)
        if self.drawn:
            out["drawn"] = list(self.drawn)
        return out

    def __str__(self) -> str:
        text = f"{self.player} {self.do}"
        if self.card is not None:
            text += f" {self.card}"
        if self.do == "substitute":
            text += f" (draws {self.draw})"
        return text


def _text(v: Any, path: str) -> str:
    if not isinstance(v, str) or not v or len(v) > MAX_TEXT:
        raise RecordError(path, f"must be a card id (a string of 1-{MAX_TEXT} characters)")
    return v


def action_from_json(data: Any, path: str, cards: dict[str, Any] | None = None) -> Action:
    """Parse one action; unknown card ids are reported when ``cards`` is given."""
    if not isinstance(data, dict):
        raise RecordError(path, "an action must be an object")
    player = data.get("player")
    if player not in PLAYERS:
        raise RecordError(f"{path}.player", "must be 'A' or 'B'")
    do = data.get("do")
    if do not in ACTION_KINDS:
        raise RecordError(f"{path}.do", f"must be one of {', '.join(ACTION_KINDS)}")

    def known(v: Any, sub: str) -> str:
        cid = _text(v, sub)
        if cards is not None and cid not in cards:
            raise RecordError(sub, f"unknown card id {cid!r}")
        return cid

    card = None
    if do in ("substitute", "run", "draw", "reveal"):
        if "card" not in data:
            raise RecordError(f"{path}.card", f"a {do} action needs a card")
        card = known(data["card"], f"{path}.card")
    elif "card" in data and data["card"] is not None:
        raise RecordError(f"{path}.card", "a pass takes no card")
    draw = None
    if do == "substitute" and data.get("draw") is not None:
        draw = known(data["draw"], f"{path}.draw")
    choices = data.get("choices", {})
    if choices is None:
        choices = {}
    if not isinstance(choices, dict):
        choices = {"*": choices}  # a bare value answers whatever the play asks
    rnd = data.get("random", [])
    if rnd is None:
        rnd = []
    if not isinstance(rnd, list) or len(rnd) > MAX_LIST:
        raise RecordError(f"{path}.random", "must be a list of coin or die results")
    for i, r in enumerate(rnd):
        if r not in ("heads", "tails") and not (
            isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= 6
        ):
            raise RecordError(f"{path}.random[{i}]", "must be 'heads', 'tails' or a die 1-6")
    drawn = data.get("drawn", [])
    if drawn is None:
        drawn = []
    if not isinstance(drawn, list) or len(drawn) > MAX_LIST:
        raise RecordError(f"{path}.drawn", "must be a list of card ids")
    drawn_ids = tuple(known(c, f"{path}.drawn[{i}]") for i, c in enumerate(drawn))
    return Action(player, do, card, draw, choices, tuple(rnd), drawn_ids)
