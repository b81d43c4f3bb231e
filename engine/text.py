"""Messages for people, as the engine hands them to the site: `Text` (an English message id
and its parameters, translated by the site), `N_` (marks a string for translation), the
parameters that name a player or a score from the reader's side (`PlayerRef`, `Score`) and
`for_reader`, which fills them in.

Pure code at the bottom of the engine: the plugin types (`engine.plugin`, which re-exports
these names), the tiebreaker entries (`engine.tiebreaker_entry`) and the games all use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


def N_(message: str) -> str:
    """Mark an engine string for translation without translating it (no Django here): the
    site renders `Text` with gettext, and `makemessages -k N_` collects these strings."""
    return message


@dataclass(frozen=True, slots=True)
class Text:
    """A message for people: an English message id plus its parameters, translated by the
    site (`gettext(message) % params`). `literal` text (names, numbers) is shown as is."""

    message: str
    params: tuple[tuple[str, object], ...] = ()
    literal: bool = False

    @classmethod
    def of(cls, message: str, **params: object) -> Text:
        return cls(message, tuple(params.items()))

    @classmethod
    def plain(cls, text: str) -> Text:
        return cls(text, (), True)

    def render(self, translate: Callable[[str], str] = lambda m: m) -> str:
        text = self.message if self.literal else translate(self.message)
        return text % dict(self.params) if self.params else text


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A `Text` parameter naming a player by side ("a" or "b"): pages show the name."""

    side: str


@dataclass(frozen=True, slots=True)
class Score:
    """A `Text` parameter: a count of a's and of b's, shown from the reader's side ("2-1")."""

    a: int
    b: int


def for_reader(text: Text, names: Mapping[str, str], reader: str | None) -> Text:
    """`text` with its `PlayerRef` parameters as the players' names (`names`: "a" and "b")
    and its `Score`s from `reader`'s side ("a", "b"; None: a's first)."""
    params: list[tuple[str, object]] = []
    for key, value in text.params:
        if isinstance(value, PlayerRef):
            value = names.get(value.side, value.side)
        elif isinstance(value, Score):
            value = f"{value.b}\u2013{value.a}" if reader == "b" else f"{value.a}\u2013{value.b}"
        params.append((key, value))
    return Text(text.message, tuple(params), text.literal)
