"""Use cases of the match clock: pressing it and reading it (docs/match-clock.md).

A second services module of the matches app, on purpose: the clock's writes stay apart from
the rounds and results in matches/services/, and reuse their result helpers for the one thing
a clock writes into a result, a loss on time.

The clock is a log of presses (matches.models.ClockEvent) with the server's times; its state
is replayed by the pure core (matches.clock). A press names the sequence number it expects to
follow (``expected_seq``: the last one the client saw); anything else is a 409 carrying the
current state, so two phones at one table, or a request retried on venue wifi, never press
twice. Presses lock the match row (config/locks.py: a flag, which may write the result,
locks what a result change locks: the event for a bracket match, the round, then the match).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, NotFound, ServiceError
from config.locks import for_update
from engine.frozen import thaw
from engine.games import ClockGame, get_game
from matches import clock
from matches import services as match_services
from matches.models import ClockEvent, Match, MatchStatus, RoundStatus
from tournaments import permissions
from tournaments.audit import audit
from tournaments.models import ClockMode, Tournament

# What each kind of press may carry in its payload (anything else is a 400 naming it).
PAYLOAD_KEYS: dict[str, frozenset[str]] = {
    "start": frozenset({"first", "bids"}),
    "turn": frozenset(),
    "pause": frozenset(),
    "resume": frozenset(),
    "game_end": frozenset({"winner"}),
    "flag": frozenset(),
    "adjust": frozenset({"add_ms", "set_ms", "reason"}),
}
STAFF_ONLY = frozenset({"adjust"})
SIDE_REQUIRED = frozenset({"flag", "adjust"})


def clock_settings(
    tournament: Tournament, stage_number: int | None = None
) -> clock.ClockSettings | None:
    """The event's clock: its minutes and delay, or the game's recommendation for what it
    leaves blank; None when the event runs no clock (or has no minutes to give). A match's
    games to win are its stage's structure's (``stage_number``; without it, the event's)."""
    if tournament.clock_mode not in (ClockMode.PER_GAME, ClockMode.PER_MATCH):
        return None
    defaults = get_game(tournament.game).clock
    minutes = tournament.clock_minutes or (defaults.minutes_per_player if defaults else None)
    if not minutes:
        return None
    delay = tournament.clock_delay_seconds
    if delay is None:
        delay = defaults.delay_seconds if defaults else 0
    structure = (
        tournament.structure
        if stage_number is None
        else match_services.stage_structure(tournament, stage_number)
    )
    return clock.ClockSettings(
        time=timedelta(minutes=minutes),
        delay=timedelta(seconds=delay),
        mode="per_match" if tournament.clock_mode == ClockMode.PER_MATCH else "per_game",
        games_to_win=structure.games_to_win if structure is not None else 1,
    )


def _pure(row: ClockEvent) -> clock.ClockEvent:
    payload = row.payload if isinstance(row.payload, Mapping) else {}
    return clock.ClockEvent(row.kind, row.at, row.side, payload)


@dataclass(frozen=True)
class ClockView:
    """What the API and the pages show: the state at the server's ``now``."""

    match: Match
    mode: str
    state: clock.ClockState | None
    seq: int
    events: int
    server_now: datetime
    pressed_by: Mapping[int, str] = field(default_factory=dict)  # game -> who pressed its end

    @property
    def enabled(self) -> bool:
        return self.mode != ClockMode.OFF and self.state is not None

    def to_json(self) -> dict[str, Any]:
        match = self.match
        out: dict[str, Any] = {
            "match": match.pk,
            "clock_mode": self.mode,
            "enabled": self.enabled,
            "seq": self.seq,
            "events": self.events,
            "server_now": self.server_now.isoformat(),
            "players": {
                "a": match.a.name,
                "b": match.b.name if match.b is not None else None,
            },
            "match_status": match.status,
        }
        if self.state is None:
            out.update(
                {
                    "mode": None,
                    "phase": None,
                    "remaining_ms": None,
                    "active": None,
                    "paused": False,
                    "running": False,
                    "delay_left_ms": 0,
                    "game": 0,
                    "flagged": None,
                }
            )
        else:
            out.update(self.state.to_json())
            for game in out["games"]:
                game["pressed_by"] = (
                    None if game["on_time"] else self.pressed_by.get(game["number"])
                )
        return out


def _view(match: Match, rows: list[ClockEvent], now: datetime) -> ClockView:
    tournament = match.round.tournament
    events = [_pure(r) for r in rows]
    fallback = clock_settings(tournament, match.round.stage_number)
    state: clock.ClockState | None = None
    if events or fallback is not None:
        cfg = clock.settings_of(events, fallback)
        state = clock.replay(cfg, events, now, get_game(tournament.game).clock_rules())
    return ClockView(
        match=match,
        mode=tournament.clock_mode,
        state=state,
        seq=rows[-1].seq if rows else 0,
        events=len(rows),
        server_now=now,
        pressed_by={r.game: _presser(match, r) for r in rows if r.kind == "game_end"},
    )


def _require_table_or_staff(actor: Any, match: Match) -> str | None:
    """The actor's side ('a'/'b'), None for staff; 403/404 for anyone else."""
    tournament = match.round.tournament
    side = match_services.acting_side(actor, match)
    if side is not None:
        return side
    if permissions.is_staff_of(actor, tournament):
        return None
    if permissions.is_authenticated(actor) and match.round.is_visible_to_players:
        raise Forbidden(_("Only the players of this match and the event's staff see its clock."))
    raise NotFound(_("match: no such match."), field="match")


def clock_view(*, actor: Any, match: Match) -> ClockView:
    """The clock of a match, for its players and the event's staff."""
    _require_table_or_staff(actor, match)
    rows = list(match.clock_events.select_related("actor").order_by("seq"))
    return _view(match, rows, timezone.now())


def clock_view_for_staff(match: Match) -> ClockView:
    """The clock for a page whose view already checked that its reader is staff."""
    rows = list(match.clock_events.select_related("actor").order_by("seq"))
    return _view(match, rows, timezone.now())


class StaleClock(Conflict):
    """The press was meant for another state of the clock: the body carries the current one."""

    def __init__(self, view: ClockView) -> None:
        super().__init__(
            _("expected_seq: the clock has moved on (now at %(seq)d); look again.")
            % {"seq": view.seq},
            field="expected_seq",
            code="stale_seq",
        )
        self.view = view

    def as_dict(self) -> dict[str, object]:
        body = super().as_dict()
        body["clock"] = self.view.to_json()
        return body


def _check_payload(kind: str, side: str, payload: Any) -> dict[str, Any]:
    if kind not in PAYLOAD_KEYS:
        raise ServiceError(
            _("kind: one of %(kinds)s.") % {"kinds": ", ".join(PAYLOAD_KEYS)}, field="kind"
        )
    if payload is None:
        payload = {}
    if not isinstance(payload, Mapping):
        raise ServiceError(_("payload: an object."), field="payload")
    for key in payload:
        if key not in PAYLOAD_KEYS[kind]:
            raise ServiceError(
                _("payload.%(key)s: a %(kind)s press carries no %(key)s.")
                % {"key": str(key)[:40], "kind": kind},
                field=f"payload.{str(key)[:40]}",
            )
    if side not in ("", "a", "b"):
        raise ServiceError(_("side: 'a' or 'b'."), field="side")
    if kind in SIDE_REQUIRED and not side:
        raise ServiceError(_("side: say whose clock this is ('a' or 'b')."), field="side")
    return dict(payload)


def press(
    *,
    actor: Any,
    match: Match,
    kind: str,
    expected_seq: int,
    side: str = "",
    payload: Any = None,
) -> ClockView:
    """Press the clock of a match: a player of the match or the event's staff (an adjustment:
    staff only). A flag that decides the match enters its result, final, as a loss on time."""
    clean_payload = _check_payload(kind, side, payload)
    with transaction.atomic():
        if kind == "flag":
            _round, match = match_services._lock_for_result(match)
        else:
            match = for_update(Match.objects).select_related("round__tournament").get(pk=match.pk)
        round_ = match.round
        tournament = round_.tournament
        player_side = _require_table_or_staff(actor, match)
        if kind in STAFF_ONLY and player_side is not None:
            raise Forbidden(_("Only this event's judges and organisers adjust a clock."))
        if match.b_id is None:
            raise ServiceError(_("match: a bye has no clock."), field="match")
        if match.status == MatchStatus.FINAL:
            raise Conflict(
                _("match: this match's result is final; its clock has stopped."),
                field="match",
                code="result_final",
            )
        if round_.status != RoundStatus.PUBLISHED:
            raise Conflict(_("round: the clock runs only in a published round."), field="round")
        rows = list(match.clock_events.select_related("actor").order_by("seq"))
        now = timezone.now()
        view = _view(match, rows, now)
        if not view.enabled:
            raise Conflict(_("clock: this event runs no match clock."), field="clock", code="off")
        if expected_seq != view.seq:
            raise StaleClock(view)
        events = [_pure(r) for r in rows]
        cfg = clock.settings_of(events, clock_settings(tournament, round_.stage_number))
        state = clock.replay(cfg, events, now, get_game(tournament.game).clock_rules())
        try:
            new_state = clock.apply(state, clock.ClockEvent(kind, now, side, clean_payload))
        except clock.ClockStateError as exc:
            raise Conflict(exc.message, field=exc.field, code="clock_state") from None
        except clock.ClockError as exc:
            raise ServiceError(exc.message, field=exc.field, code="clock") from None
        stored = dict(clean_payload)
        if not rows:
            # The clock keeps the settings it started with (a later change to the event's
            # clock never changes a running one).
            stored["settings"] = cfg.to_json()
        try:
            with transaction.atomic():
                row = ClockEvent.objects.create(
                    match=match,
                    seq=view.seq + 1,
                    kind=kind,
                    side=side,
                    game=max(new_state.game, 1),
                    at=now,
                    actor=actor if permissions.is_authenticated(actor) else None,
                    payload=stored,
                )
        except IntegrityError:
            raise StaleClock(_view(match, rows, now)) from None
        if kind == "adjust":
            audit(
                tournament=tournament,
                actor=actor,
                action="match.clock_adjust",
                target=match,
                round=round_.number,
                table=match.table,
                side=side,
                before_ms=_ms(state.at(now).remaining(clock.as_side(side, "side"))),
                after_ms=_ms(new_state.remaining(clock.as_side(side, "side"))),
                reason=str(clean_payload.get("reason", "")),
            )
        if kind == "flag":
            _record_time_loss(actor, match, new_state, [*rows, row])
        return _view(match, [*rows, row], now)


def _ms(value: timedelta) -> int:
    return int(value // timedelta(milliseconds=1))


def _name(match: Match, side: str) -> str:
    registration = match.a if side == "a" else match.b
    return registration.name if registration is not None else side


def _presser(match: Match, row: ClockEvent | None) -> str:
    """Who pressed a clock button, as the result's reason names them: a player of the match
    by their name in the event, anyone else (a judge) by their account."""
    if row is None or row.actor_id is None:
        return _("unknown")
    for registration in (match.a, match.b):
        if registration is not None and registration.player_id == row.actor_id:
            return str(registration.name)
    user = row.actor
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return str(full or user.get_username())


def game_lines(
    match: Match, games: Sequence[clock.GameOutcome], rows: Sequence[ClockEvent]
) -> list[str]:
    """Each game the clock saw and how it was decided, for people: "game 1: A won (clock,
    pressed by NAME)", "game 2: B lost on time"."""
    ends = {row.game: row for row in rows if row.kind == "game_end"}
    lines = []
    for outcome in games:
        if outcome.on_time:
            lines.append(
                _("game %(n)d: %(name)s lost on time")
                % {"n": outcome.number, "name": _name(match, outcome.loser)}
            )
        else:
            lines.append(
                _("game %(n)d: %(name)s won (clock, pressed by %(who)s)")
                % {
                    "n": outcome.number,
                    "name": _name(match, outcome.winner),
                    "who": _presser(match, ends.get(outcome.number)),
                }
            )
    return lines


def clock_games(games: Sequence[clock.GameOutcome]) -> list[ClockGame]:
    """The clock's games as the game's MatchRules reads them (`details_from_clock`)."""
    return [ClockGame(g.winner, g.on_time, g.bids, g.first) for g in games]


def _record_time_loss(
    actor: Any, match: Match, state: clock.ClockState, rows: Sequence[ClockEvent]
) -> None:
    """A flag that decides the match: the result is entered final as a loss on time through
    matches.services.match_result_record (a ResultVersion with ResultChange.TIME and an audit
    entry, as every result change). A per-game flag that does not decide the match only ends
    that game on the clock (the players report it; their form is filled in from the clock).

    When the game records per-game details (its MatchRules) and every game the result counts
    was started on the clock with its bids, the result carries them: winner, bids, who went
    first, and ``"end": "time"`` for the game lost on time, checked by the game's MatchRules
    like any other details. Otherwise (a game without bids, a per-match flag that gives the
    opponent a game never played, details the game refuses) the games count alone. The reason
    names every game and how it was decided."""
    games = clock.match_games(state)
    if games is None or state.flagged is None:
        return
    reason = _("loss on time: %(name)s ran out of time in game %(game)d") % {
        "name": _name(match, state.flagged),
        "game": state.game,
    }
    reason = "; ".join([reason, *game_lines(match, state.games, rows)])
    counted = [games[0], games[1], 0]
    seen = clock.recorded_games(state)
    rules = get_game(match.round.tournament.game).match_rules()
    clocked = rules.details_from_clock(clock_games(seen)) if seen is not None else None
    details = thaw(clocked) if clocked is not None else None
    if details is not None:
        try:
            match_services.match_result_record(
                actor=actor,
                match=match,
                game_details=details,
                games=counted,
                reason=reason,
                on_time=True,
            )
            return
        except ServiceError as exc:
            # The game refuses the clock's details (it checks more than the clock can): the
            # result stands on the games, and the reason says why the details are missing.
            reason = "; ".join(
                [reason, _("per-game details not recorded: %(why)s") % {"why": exc.message}]
            )
    match_services.match_result_record(
        actor=actor, match=match, games=counted, reason=reason, on_time=True
    )


def table_games(match: Match) -> list[dict[str, Any]]:
    """The games the match's clock saw (``ClockView.to_json()["games"]``: number, winner,
    end, bids, first, pressed_by), for the report form; none when the event runs no clock or
    nobody started it. A read: who may see the match was checked by the caller."""
    if match.b_id is None or match.round.tournament.clock_mode == ClockMode.OFF:
        return []
    rows = list(match.clock_events.select_related("actor").order_by("seq"))
    if not rows:
        return []
    games: list[dict[str, Any]] = _view(match, rows, timezone.now()).to_json().get("games", [])
    return games


def form_prefill(match: Match, games: Sequence[Mapping[str, Any]]) -> list[dict[str, object]]:
    """The clock's games (`table_games`) as the report form's per-game values, in the terms
    `MatchRules.form_values` gives them; none when the game cannot tell enough from the clock
    (a game started without its bids would be refused, so a half-filled form would be a
    trap)."""
    rules = get_game(match.round.tournament.game).match_rules()
    seen = [
        ClockGame(
            str(g["winner"]),
            g.get("end") == "time",
            (int(g["bids"][0]), int(g["bids"][1])) if g.get("bids") else None,
            g.get("first") or None,
        )
        for g in games
    ]
    details = rules.details_from_clock(seen) if seen else None
    return [thaw(values) for values in rules.form_values(details)] if details is not None else []
