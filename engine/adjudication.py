"""The judge-desk page's request flow, the same for every game (see `engine.plugin.Adjudicator`).

One form holds everything: the record (always visible and editable, or uploaded), the step
shown and the game's builder. Each submit button names an ``op``; the page is re-rendered
from what was posted (no sessions). :class:`AdjudicationPage` runs one request: it reads the
op and the step asked for, starts a record from the game's form (its ``start_op``) or decodes
the record posted, appends the action the judge built (op ``append``) and has the game
analyse the record; the game fills in its own steps (its form values, how a record starts,
how an action is added, what the page shows of a replay, and the rest of its context).
:func:`replay_steps` is what every game's replay shows step by step. Pure: no Django.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from engine.errors import ReplayError
from engine.frozen import freeze_shown
from engine.plugin import AdjudicationInput, AdjudicationInputError, AdjudicationView

InputError = AdjudicationInputError
PANEL_LIMIT = 400  # steps pre-rendered for the slider; longer records show one step at a time

R = TypeVar("R")
A = TypeVar("A")


def int_or_none(text: str | None) -> int | None:
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def dump(data: Any) -> str:
    """A record as the page's text box shows it."""
    return json.dumps(data, indent=1, ensure_ascii=False)


def copy_record(data: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a decoded record (JSON values only), to change without touching it."""
    copy: dict[str, Any] = json.loads(json.dumps(data))
    return copy


def append_action(data: dict[str, Any], action: dict[str, Any]) -> None:
    """Add ``action`` at the end of the record's actions (a list, made if missing)."""
    actions = data.get("actions")
    if not isinstance(actions, list):
        actions = data["actions"] = []
    actions.append(action)


class GameReplay(Protocol):
    """A game's replay trace, as the page reads it."""

    @property
    def record(self) -> object | None: ...

    @property
    def error(self) -> ReplayError | None: ...

    def to_json(self) -> dict[str, Any]: ...


def replay_analysis(rep: GameReplay) -> dict[str, Any]:
    """The start of every game's analysis: the replay and its JSON, and for a malformed
    record (no ``record``) the error as ``malformed``."""
    out: dict[str, Any] = {"replay": rep, "replay_json": rep.to_json()}
    if rep.record is None:
        out["malformed"] = rep.error
    return out


def replay_steps(
    record: R,
    actions: Sequence[A],
    error: ReplayError | None,
    step: int | None,
    last: int,
    board: Callable[[int], dict[str, Any]],
    describe: Callable[[R, A], str],
) -> dict[str, Any]:
    """What the page shows of a replayed record step by step (step 0: before any action;
    ``last`` the last step the replay reached; ``step`` the one asked for, None: the last):
    a panel per step with the game's ``board`` after it (every step up to PANEL_LIMIT, else
    only the step shown), the actions in words with the illegal one marked, and the error."""
    step = last if step is None else max(0, min(step, last))
    shown = range(0, last + 1) if last <= PANEL_LIMIT else [step]
    return {
        "record": record,
        "step": step,
        "last_step": last,
        "prev_step": max(0, step - 1),
        "next_step": min(last, step + 1),
        "panels": [
            {
                "step": n,
                "board": board(n),
                "action": describe(record, actions[n - 1]) if n > 0 else "",
                "current": n == step,
            }
            for n in shown
        ],
        "actions": [
            {
                "index": i,
                "label": describe(record, a),
                "illegal": error is not None and error.action == i,
            }
            for i, a in enumerate(actions)
        ],
        "error": error,
        "error_action": (
            describe(record, actions[error.action])
            if error is not None and error.action is not None
            else ""
        ),
    }


# The game's working values in an analysis: the replay trace and the decoded record (the game
# reads them through PageState to build its own part of the page). The page shows what the
# analysis made of them (panels, actions, result, errors, the replay's JSON), never them.
WORKING_VALUES = ("replay", "record")


def shown_analysis(analysis: Mapping[str, Any]) -> Mapping[str, Any]:
    """The analysis as the page shows it, frozen all through (`engine.frozen.freeze_shown`):
    the game's working values (WORKING_VALUES) left out."""
    shown: Mapping[str, Any] = freeze_shown(
        {key: value for key, value in analysis.items() if key not in WORKING_VALUES}
    )
    return shown


@dataclass(frozen=True, slots=True)
class PageState:
    """What the request flow made of a request, for the game's part of the context: the op,
    the form's values, the record (None: none or unreadable), its analysis and the errors."""

    op: str
    values: dict[str, str]
    data: dict[str, Any] | None
    analysis: dict[str, Any] | None
    errors: list[InputError]


class AdjudicationPage(ABC):
    """One rendering of a game's adjudication page: the request and its translation.

    The game says which op starts a record from its form (``start_op``) and supplies the
    steps: :meth:`values` (the form's values), :meth:`start` (a record from them),
    :meth:`append` (the record with the judge's action added), :meth:`analyse` (what the
    page shows of a record) and :meth:`page_context` (the rest of the template's context).
    """

    start_op: ClassVar[str]

    def __init__(self, req: AdjudicationInput) -> None:
        self.req = req
        self.post = req.post
        self._: Callable[[str], str] = req.gettext

    def op(self) -> str:
        """What the submit button asked for ("" on a GET)."""
        return self.post.get("op", "") if self.post is not None else ""

    def requested_step(self, op: str) -> int | None:
        """The step to show: the query's on a GET; a Previous/Next button's (``goto``), else
        the slider's on "show"; None: the last step."""
        post = self.post
        if post is None:
            return int_or_none(self.req.query.get("step"))
        step = int_or_none(post.get("goto")) if post.get("goto") else None
        if step is None and op == "show":
            step = int_or_none(post.get("step"))
        return step

    @abstractmethod
    def values(self) -> dict[str, str]:
        """The game's form values, as posted (or their defaults)."""

    @abstractmethod
    def start(self, values: dict[str, str]) -> dict[str, Any]:
        """A record started from the form (op ``start_op``); InputError naming the field."""

    @abstractmethod
    def append(
        self, data: dict[str, Any], values: dict[str, str], errors: list[InputError], text: str
    ) -> tuple[dict[str, Any], str]:
        """The record and its text with the judge's action added; on an error, added to
        ``errors``, the record and text unchanged."""

    @abstractmethod
    def analyse(self, data: dict[str, Any], step: int | None) -> dict[str, Any]:
        """What the page shows of a record at ``step`` (None: the last)."""

    @abstractmethod
    def page_context(self, done: PageState) -> dict[str, Any]:
        """The game's own part of the page (its errors added to ``done.errors``)."""

    def view(self) -> AdjudicationView:
        """The page: the game's part, the record text, ``analysis`` (None without a
        record), ``errors`` and ``op``."""
        op = self.op()
        errors = list(self.req.errors)
        values = self.values()
        text = self.req.record_text
        step = self.requested_step(op)
        data: dict[str, Any] | None = None
        if op == self.start_op:
            try:
                data = self.start(values)
                text = dump(data)
            except InputError as exc:
                errors.append(exc)
        elif text.strip() and not errors:
            try:
                data = self.req.decode(text)
            except InputError as exc:
                errors.append(exc)
        if data is not None and op == "append":
            data, text = self.append(data, values, errors, text)
            step = None
        analysis = self.analyse(data, step) if data is not None else None
        details = self.page_context(PageState(op, values, data, analysis, errors))
        return AdjudicationView(
            record_text=text,
            analysis=shown_analysis(analysis) if analysis is not None else None,
            errors=tuple(errors),
            op=op,
            details=freeze_shown(details),
        )


@dataclass(frozen=True, slots=True)
class PageAdjudicator:
    """`engine.plugin.Adjudicator` for a game: its record format and its page."""

    record_format: str
    page_type: Callable[[AdjudicationInput], AdjudicationPage]

    def page(self, request: AdjudicationInput) -> AdjudicationView:
        return self.page_type(request).view()
