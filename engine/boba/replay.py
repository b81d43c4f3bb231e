"""Replay a game record: the trace a judge reads (spec: Replay).

:func:`replay` runs every action through :class:`~engine.boba.state.GameState` and stops at
the first illegal one; :func:`what_if` replaces action k and carries on with the rest;
:func:`replay_text` is the CLI's entry (JSON text in, exit status and output out). Nothing
here raises on bad input: malformed records and illegal actions come back as an ``error``.
Nor on the engine's own failure (a ``KeyError``, a ``TypeError``... while applying an action):
that is an internal error (code ``internal_error``, exit status 3), never a rules verdict; the
replay keeps the record and the positions before the failing action.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from ..errors import ReplayError, replay_exit_status
from . import ENGINE_VERSION
from .actions import Action
from .effects import EffectError
from .errors import IllegalActionError, RecordError
from .record import Record, load_record, parse_record
from .results import BattleResult, Outcome
from .rules import PLAYERS
from .rulings import rulings_in_game
from .state import GameState

REPLAY_FORMAT = "boba-replay/1"

_log = logging.getLogger(__name__)


@dataclass(slots=True)
class Replay:
    """The trace of a replayed game."""

    record: Record | None
    state: GameState | None
    states: list[GameState] = field(default_factory=list)
    error: ReplayError | None = None
    failure: BaseException | None = None  # an internal error's exception (to log; not JSON)

    @property
    def legal(self) -> bool:
        return self.error is None

    @property
    def exit_status(self) -> int:
        error = self.error
        return replay_exit_status(error.code if error else None, error.action if error else None)

    @property
    def battles(self) -> list[BattleResult]:
        return self.state.history if self.state else []

    @property
    def result(self) -> Outcome | None:
        if self.error is not None or self.state is None:
            return None
        return self.state.result

    def to_json(self) -> dict[str, Any]:
        s = self.state
        out: dict[str, Any] = {
            "format": REPLAY_FORMAT,
            "legal": self.legal,
            "battles": [b.to_json() for b in self.battles],
            "trophies": {p: s.p[i].trophies for i, p in enumerate(PLAYERS)} if s else None,
            "hot_dogs": {p: s.p[i].hot_dogs for i, p in enumerate(PLAYERS)} if s else None,
            "result": self.result.to_json() if self.result else None,
            "error": self.error.to_json() if self.error else None,
            "rulings": rulings_in_game(self.record, s),
        }
        if s is not None and self.error is None and s.result is None:
            out["next"] = s.next_expected()
        return out


def replay(record: Record | Any, upto: int | None = None, keep_states: bool = True) -> Replay:
    """Replay ``record`` (a Record or decoded JSON). ``upto=k`` replays the first k actions.
    ``states[i]`` is the position after action i (when ``keep_states``)."""
    if not isinstance(record, Record):
        try:
            record = parse_record(record)
        except RecordError as exc:
            return Replay(None, None, error=ReplayError.malformed(exc))
    actions = record.actions if upto is None else record.actions[: max(0, upto)]
    return _run(record, actions, keep_states)


def _run(record: Record, actions: tuple[Action, ...], keep_states: bool) -> Replay:
    state = GameState.initial(record)
    out = Replay(record, state)
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalActionError as exc:
            error = ReplayError(exc.code, exc.rule, exc.message, i)
        except (RecursionError, RecordError, EffectError) as exc:
            # The record asks for more than the engine follows (effects nested too deep, an
            # effect outside the vocabulary): reported against the action, never a crash.
            error = ReplayError(
                "unresolvable_action", "CR 5.2.1", f"The action cannot be resolved: {exc!r}", i
            )
        except Exception as exc:  # any other failure is the engine's own bug
            error = ReplayError.engine_failure(exc, i, ENGINE_VERSION)
            out.failure = exc
            _log.exception("BoBA engine failure on action %d (%s)", i, ENGINE_VERSION)
        else:
            if keep_states:
                out.states.append(state.clone())
            continue
        # apply may have changed part of the state before it failed: report the position
        # before the illegal action (rebuilt only on this, the rare path).
        out.state = out.states[-1] if out.states else _position(record, actions[:i])
        out.error = error
        return out
    if keep_states and out.states:
        out.state = out.states[-1]
    return out


def _position(record: Record, actions: tuple[Action, ...]) -> GameState:
    state = GameState.initial(record)
    for action in actions:
        state.apply(action)
    return state


def what_if(record: Record, k: int, action: Action | None) -> Replay:
    """Replace action k by ``action`` (None: drop it) and replay the rest after it."""
    acts = list(record.actions)
    if action is None:
        del acts[k : k + 1]
    elif k >= len(acts):
        acts.append(action)
    else:
        acts[k] = action
    return _run(record, tuple(acts), True)


def replay_text(text: str | bytes, upto: int | None = None, keep_states: bool = False) -> Replay:
    """Load JSON text and replay it (malformed input comes back as an error, exit 2)."""
    try:
        record = load_record(text)
    except RecordError as exc:
        return Replay(None, None, error=ReplayError.malformed(exc))
    return replay(record, upto=upto, keep_states=keep_states)


def describe(r: Replay) -> str:
    """A readable account of a replay (the CLI without --json)."""
    lines: list[str] = []
    rec = r.record

    def card(card_id: str) -> str:
        """A card as a judge reads it: its printed name, with the record's id to find it."""
        known = rec.cards.get(card_id) if rec is not None else None
        name = getattr(known, "name", None)
        return f"{name} ({card_id})" if name else card_id

    if rec is not None:
        lines.append(
            f"{rec.mode.capitalize()} game: A {rec.players['A']} vs B {rec.players['B']}; "
            f"{rec.honors} has honors in battle 1."
        )
    for b in r.battles:
        pa, pb = b.power
        mods = []
        for i, p in enumerate(PLAYERS):
            for src, amt in b.modifiers[i]:
                mods.append(f"{p} {amt:+d} from {card(src)}")
        why = {
            "power": "higher power",
            "super": "Super tie breaker (CR 4.3.2)",
            "draw": "a draw",
            "rule": "a play's rule",
        }
        winner = "nobody" if b.winner is None else PLAYERS[b.winner]
        lines.append(
            f"Battle {b.battle}: A {card(b.heroes[0])} {pa} vs B {card(b.heroes[1])} {pb}"
            + (f" [{'; '.join(mods)}]" if mods else "")
            + f": {winner} wins by {why[b.decided_by]}; honors next: {PLAYERS[b.honors_next]}."
        )
    s = r.state
    if s is not None:
        lines.append(
            f"Trophies: A {s.p[0].trophies}, B {s.p[1].trophies}. "
            f"Hot dogs: A {s.p[0].hot_dogs}, B {s.p[1].hot_dogs}."
        )
    res = r.result
    if res is not None:
        for rd in res.sudden_death:
            w = "nobody" if rd.winner is None else PLAYERS[rd.winner]
            lines.append(
                f"Sudden death {rd.round}: A {card(rd.heroes[0])} {rd.power[0]} "
                f"vs B {card(rd.heroes[1])} "
                f"{rd.power[1]}: {w} ({rd.decided_by})."
            )
        who = "a draw" if res.winner is None else f"{PLAYERS[res.winner]} wins"
        lines.append(f"Result: {who}, decided after battle {res.decided_after_battle}.")
    if r.error is not None and r.error.internal:
        e = r.error
        lines.append(
            f"Internal error at action {e.action}: the engine failed ({e.exception}). This is a "
            f"bug in the engine ({e.engine_version}), not a verdict on the record: please "
            "report it with the record and this message."
        )
    elif r.error is not None:
        e = r.error
        where = f"action {e.action}" if e.action is not None else f"field {e.field}"
        lines.append(f"Error at {where}: {e.message} ({e.code}, {e.rule or 'record format'})")
    elif s is not None and s.result is None:
        nxt = s.next_expected()
        if nxt:
            lines.append(f"Next: {nxt['player']} to {' or '.join(nxt['expects'])}.")
    return "\n".join(lines)


def dumps(r: Replay, trace: bool = False) -> str:
    """The replay as JSON text; ``trace`` adds each action with the position after it."""
    out = r.to_json()
    if trace and r.record is not None:
        out["trace"] = [
            {"action": i, **r.record.actions[i].to_json(), "state": st.snapshot()}
            for i, st in enumerate(r.states)
        ]
    return json.dumps(out, indent=2)
