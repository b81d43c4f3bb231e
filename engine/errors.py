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
import math
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


# The deepest real record is about a dozen levels (a play's inline effect of nested steps);
# a pasted record far deeper, or holding NUL characters, is refused before any code walks it
# (Python's recursion, PostgreSQL's jsonb, which stores no NUL).
MAX_RECORD_DEPTH = 32
PATH_SEGMENTS = 6  # a deep path is named by its first segments


def _path(parent: str, key: object) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else str(key)


def json_problem(
    value: Any, max_depth: int = MAX_RECORD_DEPTH, *, finite_floats: bool = False
) -> tuple[str, str] | None:
    """(code, path) of the first problem in decoded JSON, without recursion: ``nul`` (a NUL
    character in a string or key), ``too_deep`` (arrays and objects nested more than
    ``max_depth`` levels) or, with ``finite_floats``, ``out_of_range`` (a number too large
    for a float, read as infinity, or NaN); the path (``players.A``, ``cards.p1.effect[0]``;
    "" for the value itself) names where, cut to its first segments. None: no problem."""
    scalars: tuple[type, ...] = (dict, list, str, float) if finite_floats else (dict, list, str)
    stack: list[tuple[Any, int, str, int]] = [(value, 1, "", 0)]
    while stack:
        item, depth, path, segments = stack.pop()
        if isinstance(item, float):
            if finite_floats and not math.isfinite(item):
                return "out_of_range", path
            continue
        if isinstance(item, str):
            if "\x00" in item:
                return "nul", path
            continue
        if isinstance(item, dict):
            for key in item:
                if "\x00" in str(key):
                    return "nul", path
            children: Any = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:
            continue
        if depth > max_depth:
            return "too_deep", path
        for key, child in children:
            if isinstance(child, scalars):
                deeper = segments < PATH_SEGMENTS
                stack.append(
                    (child, depth + 1, _path(path, key) if deeper else path, segments + deeper)
                )
    return None


def _nested_deeper(value: Any, max_depth: int) -> bool:
    """Whether arrays and objects nest more than ``max_depth`` levels: a walk level by level
    over the containers only, several times quicker than json_problem on a large record."""
    level = [value] if isinstance(value, dict | list) else []
    depth = 1
    while level:
        if depth > max_depth:
            return True
        below: list[Any] = []
        for item in level:
            values = item.values() if isinstance(item, dict) else item
            below.extend([v for v in values if isinstance(v, dict | list)])
        level = below
        depth += 1
    return False


def record_json_problem(
    text: str | bytes, data: Any, max_depth: int = MAX_RECORD_DEPTH
) -> tuple[str, str] | None:
    """json_problem for ``data`` decoded from ``text``, quick on a large record: a NUL in a
    string or key is written ``\\u0000`` in the text (JSON refuses the raw character there),
    so only a text holding that, or a record nested too deep, is walked for the path."""
    escaped_nul = "\\u0000" in text if isinstance(text, str) else b"\\u0000" in text
    if not escaped_nul and not _nested_deeper(data, max_depth):
        return None
    return json_problem(data, max_depth)


def record_error(problem: tuple[str, str], max_depth: int = MAX_RECORD_DEPTH) -> RecordError:
    """The RecordError for a json_problem: the field its path ("record" for the whole)."""
    code, path = problem
    if code == "nul":
        return RecordError(path or "record", "contains a NUL character (\\u0000)")
    return RecordError(path or "record", f"is nested more than {max_depth} levels deep")


def decode_record_json(text: str | bytes, max_bytes: int) -> Any:
    """A record file's JSON, decoded: RecordError (field ``record``) when it is larger than
    ``max_bytes`` or not JSON; naming the field when it holds a NUL character or is nested
    more than MAX_RECORD_DEPTH levels deep (record_json_problem)."""
    if len(text) > max_bytes:
        raise RecordError("record", f"is larger than {max_bytes // (1024 * 1024)} MB")
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordError("record", f"is nested more than {MAX_RECORD_DEPTH} levels deep") from None
    except ValueError as exc:
        raise RecordError("record", f"is not valid JSON ({exc})") from None
    problem = record_json_problem(text, data)
    if problem is not None:
        raise record_error(problem)
    return data


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
