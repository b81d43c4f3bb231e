"""The round timer as data: a length and a list of start/stop activations.

Pure code: no Django, no clock of its own (every operation takes ``now``). The server keeps
the activations; browsers get an absolute end time (:attr:`RoundTimer.ends_at`) and count down
themselves, so nothing polls the server each second and a lost connection or a reload loses
nothing. Pausing stops the running activation, so the time left is stored, not recomputed
from a wall clock: resuming after a long pause continues from where the round stood.

Vocabulary:

activation
    A period in which the clock ran: ``start`` and ``stop`` (``None`` while running).
length
    The round's length plus any time added to the whole round.
remaining
    ``length`` minus the time the clock has run; negative once the round is in overtime.
extension
    Extra minutes a judge gives one table; its end time is the round's plus the extension.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from engine.errors import BattledeskError

TimerState = Literal["not_started", "running", "paused"]


class TimerError(BattledeskError, ValueError):
    """The operation does not apply to the timer's state; ``field`` names what was wrong."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


@dataclass(frozen=True)
class Activation:
    start: datetime
    stop: datetime | None = None


@dataclass(frozen=True)
class RoundTimer:
    length: timedelta
    activations: tuple[Activation, ...] = ()

    @property
    def state(self) -> TimerState:
        if not self.activations:
            return "not_started"
        return "running" if self.activations[-1].stop is None else "paused"

    def elapsed(self, now: datetime) -> timedelta:
        total = timedelta()
        for activation in self.activations:
            total += (activation.stop or now) - activation.start
        return total

    def remaining(self, now: datetime) -> timedelta:
        """Time left; negative in overtime."""
        return self.length - self.elapsed(now)

    @property
    def ends_at(self) -> datetime | None:
        """When the round ends if the clock keeps running; None unless it is running."""
        if self.state != "running":
            return None
        stopped = self.activations[:-1]
        ran = sum(((a.stop or a.start) - a.start for a in stopped), timedelta())
        return self.activations[-1].start + (self.length - ran)

    def paused_remaining(self) -> timedelta | None:
        """The time left stored by the last pause (None unless paused)."""
        if self.state != "paused":
            return None
        last_stop = self.activations[-1].stop
        assert last_stop is not None
        return self.remaining(last_stop)

    def start(self, now: datetime) -> RoundTimer:
        """Start, or resume after a pause."""
        if self.state == "running":
            raise TimerError("timer", "the timer is already running")
        return replace(self, activations=(*self.activations, Activation(now)))

    def pause(self, now: datetime) -> RoundTimer:
        if self.state != "running":
            raise TimerError("timer", "the timer is not running")
        last = self.activations[-1]
        if now < last.start:
            now = last.start
        return replace(self, activations=(*self.activations[:-1], Activation(last.start, now)))

    def add(self, delta: timedelta) -> RoundTimer:
        """Add (or with a negative delta, take away) time for the whole round."""
        length = self.length + delta
        if length < timedelta():
            raise TimerError("minutes", "the round cannot be shorter than no time at all")
        return replace(self, length=length)

    def to_json(self) -> dict[str, Any]:
        return {
            "length_seconds": int(self.length.total_seconds()),
            "activations": [
                [a.start.isoformat(), a.stop.isoformat() if a.stop else None]
                for a in self.activations
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundTimer:
        raw: Sequence[Sequence[str | None]] = data.get("activations", ())
        activations = tuple(
            Activation(
                datetime.fromisoformat(str(start)),
                datetime.fromisoformat(stop) if stop else None,
            )
            for start, stop in raw
        )
        return cls(timedelta(seconds=int(data.get("length_seconds", 0))), activations)


def table_ends_at(round_ends_at: datetime | None, extension_minutes: int) -> datetime | None:
    """A table's end time: the round's, plus the minutes a judge gave that table."""
    if round_ends_at is None:
        return None
    return round_ends_at + timedelta(minutes=extension_minutes)
