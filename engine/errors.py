"""One error family for the engine and the pure cores.

Every error a pure core raises on bad input derives from :class:`BattledeskError`: it names the
offending ``field`` (a path into the input, ``setup.A.battles[3]``, ``rounds[2][0].games``; None
when no single field is at fault) and carries a ``message`` a person understands. The family:

- :class:`RecordError`: a malformed game record, of any game (replay exit status 2);
- :class:`FormatError`: a bad format key or parameter, of any game's deck rules;
- ``engine.boba.errors.IllegalActionError``: a rules verdict on a well-formed action (exit
  status 1), with its stable ``code`` and the ``rule`` it breaks; ``field`` is None;
- ``engine.boba.effects.EffectError``: an effect outside the Play vocabulary;
- ``engine.penalties.PenaltyError``;
- ``tournaments.standings.StateError``, ``tournaments.topcut.BracketError``,
  ``tournaments.cutcalc.CutCalcError``, ``tournaments.results.ResultError``,
  ``tournaments.timer.TimerError``.

The input errors also stay ``ValueError`` subclasses, as they always were. An engine bug (a
``KeyError``, a ``TypeError``...) is none of these: the replay reports it as an internal error
(exit status 3, code ``internal_error``), never as a verdict on the record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class ReplayError:
    """Why a game's replay stopped (every game's, the same shape): an illegal action
    (``action`` its index), a malformed record (``field`` the offending part, ``action``
    None), or the engine's own failure (code ``internal_error``, with ``engine_version`` and
    the ``exception`` to report)."""

    code: str
    rule: str | None
    message: str
    action: int | None = None
    field: str | None = None
    # For internal errors only: which engine failed, and how (to report the bug).
    engine_version: str | None = None
    exception: str | None = None

    @classmethod
    def malformed(cls, exc: BattledeskError) -> ReplayError:
        """The record is malformed (``exc`` names the part): exit status 2."""
        return cls(exc.code, None, exc.message, None, exc.field)

    @classmethod
    def engine_failure(cls, exc: BaseException, action: int, engine_version: str) -> ReplayError:
        """The engine failed while applying ``action``: a bug to report, not a rules verdict."""
        return cls(
            INTERNAL_ERROR,
            None,
            f"The engine failed on action {action} ({type(exc).__name__}). This is a bug in "
            f"the engine ({engine_version}), not a verdict on the record: please report it "
            "with the record and this message.",
            action,
            engine_version=engine_version,
            exception=f"{type(exc).__name__}: {exc}",
        )

    @property
    def internal(self) -> bool:
        return self.code == INTERNAL_ERROR

    def to_json(self) -> dict[str, Any]:
        """``field`` when a part of the record is named (always for a malformed record);
        ``engine_version`` and ``exception`` for internal errors."""
        out: dict[str, Any] = {
            "action": self.action,
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
        }
        if self.field is not None or self.action is None:
            out["field"] = self.field
        if self.internal:
            out["engine_version"] = self.engine_version
            out["exception"] = self.exception
        return out
