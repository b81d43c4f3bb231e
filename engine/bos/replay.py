"""Replay a BOS game record (docs/bos-game-record.md): the same shape as BoBA's replay.

:func:`replay` runs every action through :class:`~engine.bos.state.GameState` and stops at the
first illegal one. On the way it flags every value set by hand (:mod:`engine.bos.start`): a
starting life, vim or ether other than the rules' (BOS: Starting Info, BOS: Going First), and
each value a ``judge`` step sets. Nothing here raises: a malformed record (exit status 2) and
an illegal action (exit status 1) come back as an ``error``; an engine failure is an internal
error (code ``internal_error``, exit status 3), never a verdict on the record.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from ..errors import ReplayError, replay_exit_status
from ..game_state import Outcome, Termination
from . import ENGINE_VERSION
from .record import PLAYERS, Action, Record, RecordError, load_record, parse_record
from .start import SetByHand, ether_for, rules_start, set_by_hand_at_start
from .state import BosTermination, GameState, IllegalActionError

REPLAY_FORMAT = "bos-replay/1"
_log = logging.getLogger(__name__)


@dataclass(slots=True)
class Replay:
    record: Record | None
    state: GameState | None
    states: list[GameState] = field(default_factory=list)
    error: ReplayError | None = None
    set_by_hand: list[SetByHand] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return self.error is None

    @property
    def exit_status(self) -> int:
        error = self.error
        return replay_exit_status(error.code if error else None, error.action if error else None)

    @property
    def result(self) -> dict[str, Any] | None:
        if self.error is not None or self.state is None or self.state.winner is None:
            return None
        return {"winner": self.state.winner, "reason": "life", "turn": self.state.turn}

    @property
    def outcome(self) -> Outcome | None:
        """Every game's view of ``result``: the winner and what took the loser's life to 0
        (engine.bos.state.BosTermination), with the rule it cites."""
        if self.error is not None or self.state is None:
            return None
        return self.state.outcome()

    def going_first(self) -> dict[str, Any] | None:
        """The bidding game as the record states it, with the ether the bids give."""
        rec = self.record
        if rec is None or rec.going_first is None:
            return None
        bids = rec.going_first.bids
        ether = ether_for((bids["A"], bids["B"]))
        return {
            **rec.going_first.to_json(),
            "first": rec.first,
            "ether": {p: ether[i] for i, p in enumerate(PLAYERS)},
        }

    def to_json(self) -> dict[str, Any]:
        s = self.state
        out: dict[str, Any] = {
            "format": REPLAY_FORMAT,
            "legal": self.legal,
            "turns": list(s.turns) if s else [],
            "life": {p: s.sides[p].life for p in PLAYERS} if s else None,
            "vim": {p: s.sides[p].vim for p in PLAYERS} if s else None,
            "ether": {p: s.sides[p].ether for p in PLAYERS} if s else None,
            "going_first": self.going_first(),
            "set_by_hand": [v.to_json() for v in self.set_by_hand],
            "result": self.result,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "error": self.error.to_json() if self.error else None,
        }
        if s is not None and self.error is None and s.winner is None:
            out["next"] = s.next_expected()
        return out


def _malformed(exc: RecordError) -> Replay:
    return Replay(None, None, error=ReplayError.malformed(exc))


def replay(record: Record | Any, keep_states: bool = True) -> Replay:
    """Replay ``record`` (a Record or decoded JSON); ``states[i]`` follows action i."""
    if not isinstance(record, Record):
        try:
            record = parse_record(record)
        except RecordError as exc:
            return _malformed(exc)
        except RecursionError:
            return _malformed(RecordError("record", "is nested too deeply"))
    state = GameState.initial(record)
    out = Replay(record, state)
    bids = record.going_first.bids if record.going_first else None
    out.set_by_hand.extend(
        set_by_hand_at_start(record.starting_values(), rules_start(PLAYERS, bids), record.note)
    )
    for i, action in enumerate(record.actions):
        # The position before an illegal action is rebuilt only then (the rare path), so a
        # long game is not copied once per action.
        before = state.clone() if keep_states else None
        judged = _judged(state, action, i)
        try:
            state.apply(action)
        except IllegalActionError as exc:
            out.state = before if before is not None else _position(record, i)
            out.error = ReplayError(exc.code, exc.rule, exc.message, i)
            return out
        except Exception as exc:  # the engine's own bug: not a verdict on the record
            _log.exception("BOS engine failure on action %d (%s)", i, ENGINE_VERSION)
            out.state = before if before is not None else _position(record, i)
            out.error = ReplayError.engine_failure(exc, i, ENGINE_VERSION)
            return out
        out.set_by_hand.extend(judged)
        if keep_states:
            out.states.append(state.clone())
    return out


def _judged(state: GameState, action: Action, index: int) -> list[SetByHand]:
    """The values a ``judge`` step sets, each with the value it replaces."""
    if action.type != "judge":
        return []
    note = str(action.data["note"])
    return [
        SetByHand(index, p, key, n, getattr(state.sides[p], key), note=note)
        for p, values in action.data["adjust"].items()
        for key, n in values.items()
    ]


def _position(record: Record, upto: int) -> GameState | None:
    """The position after the first ``upto`` actions (they were legal), or None if replaying
    them fails again (an engine failure: no position to show)."""
    state = GameState.initial(record)
    try:
        for action in record.actions[:upto]:
            state.apply(action)
    except Exception:
        return None
    return state


def replay_text(text: str | bytes, keep_states: bool = False) -> Replay:
    """Load JSON text and replay it (malformed input comes back as an error, exit 2)."""
    try:
        record = load_record(text)
    except RecordError as exc:
        return _malformed(exc)
    except RecursionError:
        return _malformed(RecordError("record", "is nested too deeply"))
    return replay(record, keep_states=keep_states)


def describe(r: Replay) -> str:
    """A readable account of a replay (the CLI without --json)."""
    lines: list[str] = []
    if r.record is not None:
        rec = r.record
        lines.append(
            f"BOS game: A {rec.players['A']} vs B {rec.players['B']}; {rec.first} goes first."
        )
        going_first = r.going_first()
        if going_first is not None:
            bids, ether = going_first["bids"], going_first["ether"]
            low = "A" if bids["A"] < bids["B"] else "B"
            lines.append(
                f"Going first: bids A {bids['A']}, B {bids['B']}; "
                f"{going_first['chose_first']} chose, {rec.first} goes first; {low} receives "
                f"{ether[low]} ether (BOS: Going First)."
            )
    lines.extend(v.describe() for v in r.set_by_hand if v.action is None)
    if r.state is not None:
        for t in r.state.turns:
            after = t["after_startup"][t["player"]]
            decay = f", decayed {t['decay']}x" if t["decay"] else ""
            end = t.get("at_end")
            tail = (
                "; at end: "
                + ", ".join(f"{p} life {end[p]['life']} vim {end[p]['vim']}" for p in PLAYERS)
                if end
                else ""
            )
            lines.append(
                f"Turn {t['turn']} ({t['player']}'s turn {t['player_turn']}): after startup "
                f"life {after['life']}, vim {after['vim']}{decay}{tail}."
            )
        lines.extend(v.describe() for v in r.set_by_hand if v.action is not None)
        s = r.state
        lines.append(
            "Life: "
            + ", ".join(f"{p} {s.sides[p].life}" for p in PLAYERS)
            + ". Vim: "
            + ", ".join(f"{p} {s.sides[p].vim}" for p in PLAYERS)
            + ". Ether: "
            + ", ".join(f"{p} {s.sides[p].ether}" for p in PLAYERS)
            + "."
        )
    res, outcome = r.result, r.outcome
    if res is not None and outcome is not None:
        ways: dict[Termination, str] = {
            BosTermination.DECAY: " by decay (BOS: Decay)",
            BosTermination.JUDGE: ": a judge step set a life to 0",
        }
        how = ways.get(outcome.termination, "")
        lines.append(f"Result: {res['winner']} wins on turn {res['turn']}{how}.")
    if r.error is not None:
        e = r.error
        where = f"action {e.action}" if e.action is not None else f"field {e.field}"
        lines.append(f"Error at {where}: {e.message} ({e.code}, {e.rule or 'record format'})")
    elif r.state is not None:
        nxt = r.state.next_expected()
        if nxt:
            lines.append(f"Next: {nxt['player']} to {' or '.join(nxt['expects'])}.")
    return "\n".join(lines)


def dumps(r: Replay) -> str:
    return json.dumps(r.to_json(), indent=2)
