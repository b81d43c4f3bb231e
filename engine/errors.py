"""One error family for the engine and the pure cores.

Every error a pure core raises on bad input derives from :class:`BattledeskError`: it names the
offending ``field`` (a path into the input, ``setup.A.battles[3]``, ``rounds[2][0].games``; None
when no single field is at fault) and carries a ``message`` a person understands. The family:

- ``engine.boba.errors.RecordError``: a malformed game record (replay exit status 2);
- ``engine.boba.errors.IllegalActionError``: a rules verdict on a well-formed action (exit
  status 1), with its stable ``code`` and the ``rule`` it breaks; ``field`` is None;
- ``engine.boba.effects.EffectError``: an effect outside the Play vocabulary;
- ``engine.boba.deckbuilding.formats.FormatError``, ``engine.boba.penalties.PenaltyError``;
- ``tournaments.standings.StateError``, ``tournaments.topcut.BracketError``,
  ``tournaments.cutcalc.CutCalcError``, ``tournaments.results.ResultError``,
  ``tournaments.timer.TimerError``.

The input errors also stay ``ValueError`` subclasses, as they always were. An engine bug (a
``KeyError``, a ``TypeError``...) is none of these: the replay reports it as an internal error
(exit status 3, code ``internal_error``), never as a verdict on the record.
"""

from __future__ import annotations

from typing import Any


class BattledeskError(Exception):
    """A pure core refuses its input: ``field`` names what is wrong, ``message`` says why.

    ``str(error)`` is ``"field: message"`` (just the message when ``field`` is None).
    """

    code: str = "invalid_input"

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, Any]:
        """The error as JSON: ``{"code", "field", "message"}``."""
        return {"code": self.code, "field": self.field, "message": self.message}
