"""Typed errors of the BoBA engine.

``RecordError``: the record itself is malformed (bad JSON, a missing or wrongly typed field,
an unknown card id); it names the offending ``field`` (replay exit status 2).
``IllegalActionError``: a well-formed action the rules forbid; it carries a stable snake_case
``code``, the ``rule`` it breaks (``"CR 4.2.2"``) and a ``message`` a player understands
(replay exit status 1). ``needs`` is set when the action lacks an outcome the engine must not
invent (a coin, a die, a drawn card, a choice): the random game generator fills it in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import BattledeskError
from ..errors import RecordError as RecordError  # the family's, shared by every game


@dataclass(frozen=True, slots=True)
class Need:
    """What an action is missing: ``kind`` random/drawn/choice, with details."""

    kind: str
    detail: str = ""
    options: tuple[Any, ...] = ()
    count: int = 1
    player: int | None = None


class IllegalActionError(BattledeskError):
    """An action the rules do not allow at this point: a rules verdict (``field`` None), never
    an engine failure (those are internal errors, reported by the replay with exit status 3)."""

    def __init__(self, code: str, rule: str, message: str, needs: Need | None = None) -> None:
        super().__init__(None, message)
        self.code = code
        self.rule = rule
        self.needs = needs

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "rule": self.rule}
