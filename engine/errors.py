"""One error family for the engine and the pure cores.

Every error a pure core raises on bad input derives from :class:`BattledeskError`: it names the
offending ``field`` (a path into the input, ``setup.A.battles[3]``, ``rounds[2][0].games``; None
when no single field is at fault) and carries a ``message`` a person understands. The family:

- :class:`RecordError`: a malformed game record, of any game (replay exit status 2);
- :class:`FormatError`: a bad format key or parameter, of any game's deck rules;
- ``engine.boba.errors.IllegalActionError``: a rules verdict on a well-formed action (exit
  status 1), with its stable ``code`` and the ``rule`` it breaks; ``field`` is None;
- ``engine.boba.effects.EffectError``: an effect outside the Play vocabulary;
- ``engine.boba.penalties.PenaltyError``;
- ``tournaments.standings.StateError``, ``tournaments.topcut.BracketError``,
  ``tournaments.cutcalc.CutCalcError``, ``tournaments.results.ResultError``,
  ``tournaments.timer.TimerError``.

The input errors also stay ``ValueError`` subclasses, as they always were. An engine bug (a
``KeyError``, a ``TypeError``...) is none of these: the replay reports it as an internal error
(exit status 3, code ``internal_error``), never as a verdict on the record.
"""

from __future__ import annotations

import json
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


class RecordError(BattledeskError, ValueError):
    """A malformed game record: ``field`` names the offending part (``setup.A.battles``)."""

    code = "malformed_record"

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


class FormatError(BattledeskError, ValueError):
    """A bad format key or parameter; ``field`` names it (as in ``Format.from_dict`` input)."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


# Every game's replay CLI answers with these (docs/game-record.md: Replay).
EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED, EXIT_INTERNAL = 0, 1, 2, 3
INTERNAL_ERROR = "internal_error"  # the engine failed (a bug): not a verdict on the record


def replay_exit_status(code: str | None, action: int | None) -> int:
    """The exit status of a replay that stopped with error ``code`` at ``action`` (None:
    before any action, a malformed record); ``code`` None: it ran to the end."""
    if code is None:
        return EXIT_OK
    if code == INTERNAL_ERROR:
        return EXIT_INTERNAL
    return EXIT_MALFORMED if action is None else EXIT_ILLEGAL


def decode_record_json(text: str | bytes, max_bytes: int) -> Any:
    """A record file's JSON, decoded: RecordError (field ``record``) when it is larger than
    ``max_bytes`` or not JSON."""
    if len(text) > max_bytes:
        raise RecordError("record", f"is larger than {max_bytes // (1024 * 1024)} MB")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError("record", f"is not valid JSON ({exc})") from None
