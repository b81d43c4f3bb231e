"""A stage's history (event-structures: Stages): its own finished rounds, after the carried
rounds of the stages it draws from when it carries ``points``, as the pure cores take it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from config.errors import ServiceError
from matches.models import RoundStage, RoundStatus
from matches.services.history import SwissHistory, swiss_history
from tournaments import stages as stage_rules
from tournaments.models import Stage, Tournament
from tournaments.standings import Player

OWN_KINDS = (RoundStage.SWISS, RoundStage.ROUND_ROBIN)


def own_round_numbers(tournament: Tournament, row: Stage, upto: int | None = None) -> list[int]:
    """The event's numbers of the stage's finished Swiss or round-robin rounds, in order."""
    qs = tournament.rounds.filter(
        stage_number=row.number, stage__in=OWN_KINDS, status=RoundStatus.FINISHED
    )
    if upto is not None:
        qs = qs.filter(number__lte=upto)
    return list(qs.order_by("number").values_list("number", flat=True))


def _own_history(
    tournament: Tournament,
    row: Stage,
    *,
    upto: int | None = None,
    extra: Sequence[Any] = (),
    for_pairing: bool = False,
) -> SwissHistory:
    history = swiss_history(
        tournament,
        upto=upto,
        extra=extra,
        for_pairing=for_pairing,
        round_numbers=own_round_numbers(tournament, row, upto),
    )
    if not row.to_rule().sources and row.number == 1:
        return history
    # A stage entered from earlier ones starts everyone on its round 1: the registration's
    # late entry and byes count the first stage's rounds. (Most players have neither: they
    # are kept as they are, which is the same player and saves thousands of copies.)
    players = tuple(
        p
        if p.late_entry_round == 1 and not p.bye_rounds and p.seeding is None
        else replace(p, late_entry_round=1, bye_rounds=(), seeding=None)
        for p in history.players
    )
    return SwissHistory(players, history.rounds, history.registrations)


def stage_history(
    tournament: Tournament,
    row: Stage,
    *,
    upto: int | None = None,
    extra: Sequence[Any] = (),
    for_pairing: bool = False,
) -> SwissHistory:
    """The history the stage's pairing and standings read: its own rounds, after the carried
    rounds of the stages it draws from when it carries ``points`` (tournaments.stages:
    carried_history; nobody renumbered, no rematch of an earlier stage)."""
    rule = row.to_rule()
    if rule.carry != "points":
        return _own_history(tournament, row, upto=upto, extra=extra, for_pairing=for_pairing)
    rows = list(tournament.stages.order_by("number"))
    rules = [r.to_rule() for r in rows]
    by_number = {r.number: r for r in rows}
    histories: dict[int, stage_rules.StageHistory] = {}
    registrations: dict[int, Any] = {}
    # Who has dropped, by player id: every history's player carries his registration's
    # drop (history._player_of), so no registration needs reading again for it.
    gone: set[str] = set()
    for source in stage_rules.stages_feeding(rules, row.number):
        # Pairing reads the players as plain values (no account): 8,192 of them load fast.
        own = _own_history(tournament, by_number[source], for_pairing=for_pairing)
        registrations.update(own.registrations)
        gone.update(p.id for p in own.players if p.dropped)
        histories[source] = stage_rules.StageHistory(source, own.players, own.rounds)
    admitted = [str(p) for p in row.players or ()]
    try:
        carried = stage_rules.carried_history(rules, row.number, histories, admitted)
    except stage_rules.StageError as exc:
        raise ServiceError(f"{exc.field}: {exc.message}", field="stage") from None
    own = _own_history(tournament, row, upto=upto, extra=extra, for_pairing=for_pairing)
    registrations.update(own.registrations)
    gone.update(p.id for p in own.players if p.dropped)
    players: dict[str, Player] = {p.id: p for p in carried.players}
    for p in own.players:
        if p.id not in players:
            players[p.id] = replace(p, late_entry_round=carried.next_round)
    out = [
        replace(player, dropped=True) if not player.dropped and pid in gone else player
        for pid, player in players.items()
    ]
    return SwissHistory(
        tuple(sorted(out, key=lambda p: int(p.id))),
        (*carried.rounds, *own.rounds),
        registrations,
    )
