"""The match clock as data: a chess clock for the two players of a table, replayed from its
events.

Pure code: no Django, no clock of its own (every operation takes the time it happens at). The
server keeps the events (matches.models.ClockEvent) with its own timestamps; the state is
replayed from them, so a lost connection, a reload or a second phone loses nothing, and a
judge sees the same times as the table. Browsers get the state at the server's ``now`` and
count down themselves.

The clock knows no game: what a game's start carries beyond who goes first (BOS's bids and
their range) comes from the game's ``ClockRules`` (engine.plugin), and the time it starts
with from the event. The rules (BOS: Time Control, the one game that recommends a clock):
each player has some minutes; each turn starts with a delay (a
simple delay: the first ``delay`` seconds of a turn do not count); the clock may be paused
while the opponent acts during a turn; a player whose time runs out loses. The rules do not
say whether the time is per game or per match: the event decides (:class:`ClockSettings`).

Vocabulary:

event
    One press: ``start`` (a game starts; ``payload.first`` goes first; optionally
    ``payload.bids``, ``[bid of a, bid of b]``, the game's deciding bids), ``turn`` (the active
    player ends their turn), ``pause``, ``resume``, ``game_end`` (``payload.winner``),
    ``flag`` (``side`` has run out of time; accepted only when it really has), ``adjust`` (a
    judge adds ``payload.add_ms`` to or sets ``payload.set_ms`` as ``side``'s time, with a
    ``payload.reason``).
phase
    ``ready`` (no game yet), ``running`` (a game in progress; ``paused`` says whether the time
    is frozen), ``between_games``, ``over`` (the match is decided on the clock).
remaining
    A side's time left, never negative. Only the active side's time runs, only while not
    paused, and only once the turn's delay is used up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from engine.errors import BattledeskError
from engine.plugin import DEFAULT_CLOCK_RULES, ClockRules

Side = Literal["a", "b"]
Phase = Literal["ready", "running", "between_games", "over"]
Mode = Literal["per_game", "per_match"]

SIDES: tuple[Side, ...] = ("a", "b")
KINDS = ("start", "turn", "pause", "resume", "game_end", "flag", "adjust")
# A judge's adjustment never leaves a side more than this (a typo of minutes as hours).
MAX_TIME = timedelta(hours=10)
MAX_REASON = 200


class ClockError(BattledeskError, ValueError):
    """The event is malformed (a bad side, winner, amount); ``field`` names what is wrong."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


class ClockStateError(ClockError):
    """A well-formed event that does not apply to the clock now (a turn while paused, a
    start while a game runs, a flag for a side with time left)."""

    code = "clock_state"


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Minutes per player, the delay each turn, per game or per match, and how many games
    win the match (a per-match flag gives the opponent that many)."""

    time: timedelta
    delay: timedelta
    mode: Mode = "per_game"
    games_to_win: int = 1

    def __post_init__(self) -> None:
        if self.time <= timedelta() or self.time > MAX_TIME:
            raise ClockError("clock_minutes", "the clock needs some time, at most 10 hours")
        if self.delay < timedelta() or self.delay > timedelta(hours=1):
            raise ClockError("clock_delay_seconds", "a delay from 0 seconds to an hour")
        if self.mode not in ("per_game", "per_match"):
            raise ClockError("clock_mode", "per_game or per_match")
        if self.games_to_win < 1:
            raise ClockError("games_to_win", "at least one game wins the match")

    def to_json(self) -> dict[str, Any]:
        return {
            "time_ms": _ms(self.time),
            "delay_ms": _ms(self.delay),
            "mode": self.mode,
            "games_to_win": self.games_to_win,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClockSettings:
        mode = data.get("mode")
        return cls(
            time=timedelta(milliseconds=int(data["time_ms"])),
            delay=timedelta(milliseconds=int(data["delay_ms"])),
            mode="per_match" if mode == "per_match" else "per_game",
            games_to_win=int(data.get("games_to_win", 1)),
        )


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """One press as the server recorded it: ``at`` is the server's time."""

    kind: str
    at: datetime
    side: str = ""
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game as the clock saw it: its number, who won, whether the loser ran out of time,
    the bids given with its start (None: none given) and who went first."""

    winner: Side
    on_time: bool
    number: int = 0
    bids: tuple[int, int] | None = None
    first: Side | None = None

    @property
    def end(self) -> str:
        return "time" if self.on_time else "played"

    @property
    def loser(self) -> Side:
        return other(self.winner)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            "end": self.end,
            "on_time": self.on_time,
            "bids": list(self.bids) if self.bids is not None else None,
            "first": self.first,
        }


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock as of ``since`` (the last event): :meth:`at` projects it to a later time."""

    settings: ClockSettings
    since: datetime
    phase: Phase = "ready"
    game: int = 0  # the game in progress or the last one played; 0 before the first
    active: Side | None = None
    paused: bool = False
    remaining_a: timedelta = timedelta()
    remaining_b: timedelta = timedelta()
    delay_left: timedelta = timedelta()
    games: tuple[GameOutcome, ...] = ()
    first: Side | None = None  # who went first in the game in progress (or the last one)
    bids: tuple[int, int] | None = None  # the bids given with that game's start
    flagged: Side | None = None  # who lost the last game (or the match) on time
    match_winner: Side | None = None  # set once the clock decides the match
    # The game's rules for what the clock takes with a start (its bid range).
    rules: ClockRules = field(default=DEFAULT_CLOCK_RULES, repr=False)

    @classmethod
    def new(
        cls, settings: ClockSettings, since: datetime, rules: ClockRules = DEFAULT_CLOCK_RULES
    ) -> ClockState:
        return cls(
            settings, since, remaining_a=settings.time, remaining_b=settings.time, rules=rules
        )

    def remaining(self, side: Side) -> timedelta:
        return self.remaining_a if side == "a" else self.remaining_b

    @property
    def ticking(self) -> bool:
        """Whether time passes for the active side (a game runs and is not paused)."""
        return self.phase == "running" and not self.paused

    def wins(self, side: Side) -> int:
        return sum(1 for g in self.games if g.winner == side)

    def at(self, now: datetime) -> ClockState:
        """The clock at ``now`` (never before ``since``): the delay runs first, then the
        active side's time, down to 0 and no further."""
        if now <= self.since:
            return self
        if not self.ticking or self.active is None:
            return replace(self, since=now)
        elapsed = now - self.since
        used_delay = min(elapsed, self.delay_left)
        spent = elapsed - used_delay
        left = max(self.remaining(self.active) - spent, timedelta())
        state = replace(self, since=now, delay_left=self.delay_left - used_delay)
        return _with_remaining(state, self.active, left)

    @property
    def out_of_time(self) -> Side | None:
        """The side whose time is at 0 in a game in progress (it may be flagged)."""
        if self.phase != "running":
            return None
        for side in SIDES:
            if self.remaining(side) <= timedelta():
                return side
        return None

    def to_json(self) -> dict[str, Any]:
        """The state as JSON (milliseconds), as of ``since``."""
        return {
            "mode": self.settings.mode,
            "time_ms": _ms(self.settings.time),
            "delay_ms": _ms(self.settings.delay),
            "games_to_win": self.settings.games_to_win,
            "phase": self.phase,
            "game": self.game,
            "active": self.active,
            "paused": self.paused,
            "running": self.ticking,
            "remaining_ms": {"a": _ms(self.remaining_a), "b": _ms(self.remaining_b)},
            "delay_left_ms": _ms(self.delay_left),
            "out_of_time": self.out_of_time,
            "flagged": self.flagged,
            "games": [g.to_json() for g in self.games],
            "bids": list(self.bids) if self.bids is not None and self.phase == "running" else None,
            "wins": {"a": self.wins("a"), "b": self.wins("b")},
            "match_winner": self.match_winner,
        }


def _ms(value: timedelta) -> int:
    return int(value // timedelta(milliseconds=1))


def _with_remaining(state: ClockState, side: Side, value: timedelta) -> ClockState:
    return replace(state, remaining_a=value) if side == "a" else replace(state, remaining_b=value)


def other(side: Side) -> Side:
    return "b" if side == "a" else "a"


def as_side(value: object, field_name: str) -> Side:
    if value == "a":
        return "a"
    if value == "b":
        return "b"
    raise ClockError(field_name, "'a' or 'b'")


def _millis(payload: Mapping[str, Any], key: str) -> timedelta:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClockError(f"payload.{key}", "a whole number of milliseconds")
    if abs(value) > _ms(MAX_TIME):
        raise ClockError(f"payload.{key}", "at most 10 hours")
    return timedelta(milliseconds=value)


def _bids(payload: Mapping[str, Any], rules: ClockRules) -> tuple[int, int] | None:
    """``payload.bids`` of a start: None when left out, else two whole numbers in the game's
    bid range (different ones unless the game takes ties: BOS bids again on a tie,
    docs/bos-matches.md)."""
    value = payload.get("bids")
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ClockError("payload.bids", "[bid of a, bid of b]: two whole numbers")
    top = rules.bids.maximum
    for bid in value:
        if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= top:
            raise ClockError("payload.bids", f"each bid a whole number from 0 to {top}")
    if value[0] == value[1] and not rules.bids.ties:
        raise ClockError(
            "payload.bids",
            "equal bids decide nothing: the players bid again; give the deciding bids",
        )
    return int(value[0]), int(value[1])


def _end_game(state: ClockState, winner: Side, *, on_time: bool) -> ClockState:
    outcome = GameOutcome(winner, on_time, state.game, state.bids, state.first)
    games = (*state.games, outcome)
    state = replace(
        state,
        games=games,
        active=None,
        paused=False,
        delay_left=timedelta(),
        flagged=other(winner) if on_time else None,
    )
    if state.wins(winner) >= state.settings.games_to_win:
        return replace(state, phase="over", match_winner=winner)
    return replace(state, phase="between_games")


def apply(state: ClockState, event: ClockEvent) -> ClockState:
    """The clock after ``event``; raises :class:`ClockError` (and leaves ``state`` as it
    was) when the event is malformed or does not apply now."""
    if event.kind not in KINDS:
        raise ClockError("kind", f"one of {', '.join(KINDS)}")
    if not isinstance(event.payload, Mapping):
        raise ClockError("payload", "an object")
    state = state.at(event.at)
    kind, payload = event.kind, event.payload
    if state.phase == "over":
        raise ClockStateError("kind", "the match is over on the clock")
    if kind == "adjust":
        return _adjust(state, event)
    if kind == "start":
        if state.phase == "running":
            raise ClockStateError("kind", "a game is already running; end it first")
        first = as_side(payload.get("first"), "payload.first")
        bids = _bids(payload, state.rules)
        time = state.settings.time
        if state.settings.mode == "per_match" and state.phase != "ready":
            base = state
        else:
            base = replace(state, remaining_a=time, remaining_b=time)
        return replace(
            base,
            phase="running",
            game=state.game + 1,
            active=first,
            first=first,
            bids=bids,
            paused=False,
            delay_left=state.settings.delay,
            flagged=None,
        )
    if state.phase != "running" or state.active is None:
        raise ClockStateError("kind", "no game is running; start one first")
    active: Side = state.active
    if kind == "flag":
        side = as_side(event.side, "side")
        if state.remaining(side) > timedelta():
            raise ClockStateError("side", f"{side} still has time on the clock")
        if state.settings.mode == "per_match":
            # Running out loses the match: the opponent is given the games that win it (this
            # game, lost on time, is one of them).
            outcome = GameOutcome(other(side), True, state.game, state.bids, state.first)
            state = replace(
                state,
                games=(*state.games, outcome),
                active=None,
                paused=False,
                delay_left=timedelta(),
            )
            return replace(state, phase="over", flagged=side, match_winner=other(side))
        return _end_game(state, other(side), on_time=True)
    out = state.out_of_time
    if out is not None:
        raise ClockStateError("kind", f"{out}'s time has run out: flag it")
    if kind == "game_end":
        return _end_game(state, as_side(payload.get("winner"), "payload.winner"), on_time=False)
    if kind == "turn":
        if event.side and event.side != active:
            as_side(event.side, "side")
            raise ClockStateError("side", f"it is {active}'s turn, not {event.side}'s")
        if state.paused:
            raise ClockStateError("kind", "the clock is paused; resume it first")
        return replace(state, active=other(active), delay_left=state.settings.delay)
    if kind == "pause":
        if state.paused:
            raise ClockStateError("kind", "the clock is already paused")
        return replace(state, paused=True)
    # resume: the turn goes on with the delay it had left.
    if not state.paused:
        raise ClockStateError("kind", "the clock is not paused")
    return replace(state, paused=False)


def _adjust(state: ClockState, event: ClockEvent) -> ClockState:
    side = as_side(event.side, "side")
    payload = event.payload
    reason = payload.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise ClockError("payload.reason", "say why the time is adjusted")
    if len(reason) > MAX_REASON:
        raise ClockError("payload.reason", f"at most {MAX_REASON} characters")
    if ("add_ms" in payload) == ("set_ms" in payload):
        raise ClockError("payload", "either add_ms or set_ms")
    if state.settings.mode == "per_game" and state.phase != "running":
        raise ClockStateError("kind", "each game starts with full time: adjust once it runs")
    if "set_ms" in payload:
        value = _millis(payload, "set_ms")
        key = "payload.set_ms"
    else:
        value = state.remaining(side) + _millis(payload, "add_ms")
        key = "payload.add_ms"
    if value < timedelta():
        raise ClockError(key, "a side's time cannot go below 0")
    if value > MAX_TIME:
        raise ClockError(key, "a side's time is at most 10 hours")
    return _with_remaining(state, side, value)


def settings_of(events: Sequence[ClockEvent], fallback: ClockSettings | None) -> ClockSettings:
    """The settings the clock was started with (the first event carries them as
    ``payload.settings``), or ``fallback``: an organiser changing the event's clock later
    never changes a clock already running."""
    if events:
        stored = events[0].payload.get("settings")
        if isinstance(stored, Mapping):
            return ClockSettings.from_json(stored)
    if fallback is None:
        raise ClockError("clock_minutes", "this event has no match clock settings")
    return fallback


def replay(
    settings: ClockSettings,
    events: Sequence[ClockEvent],
    now: datetime | None = None,
    rules: ClockRules = DEFAULT_CLOCK_RULES,
) -> ClockState:
    """The clock after ``events`` (in order), projected to ``now`` when given, under the
    game's clock ``rules``."""
    start = events[0].at if events else now
    if start is None:
        raise ClockError("now", "a clock without events needs a time")
    state = ClockState.new(settings, start, rules)
    for event in events:
        state = apply(state, event)
    return state.at(now) if now is not None else state


def match_games(state: ClockState) -> tuple[int, int] | None:
    """The games (won by a, won by b) once the clock decided the match, else None: a
    per-match flag gives the opponent the games that win it and the loser keeps theirs."""
    if state.match_winner is None:
        return None
    need = state.settings.games_to_win
    wins = {side: state.wins(side) for side in SIDES}
    wins[state.match_winner] = max(wins[state.match_winner], need)
    return wins["a"], wins["b"]


def recorded_games(state: ClockState) -> tuple[GameOutcome, ...] | None:
    """The games the clock saw, when they are every game of the result it decided (a
    per-match flag in game 1 of a best of three gives the opponent a game never played):
    else None."""
    games = match_games(state)
    if games is None or sum(games) != len(state.games):
        return None
    return state.games
