"""Creating and pairing a round: Swiss or bracket, in a Celery task above PAIR_IN_TASK_ABOVE."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from config.locks import for_update
from config.outbox import send_after_commit
from config.transactions import atomic
from matches.models import (
    Match,
    MatchStatus,
    ResultChange,
    ResultVersion,
    Round,
    RoundStage,
    RoundStatus,
)
from matches.services import stages, team_stages
from matches.services.history import (
    _pairable,
    _winner,
    bye_games,
    current_round,
    pairing_candidates,
    scoring,
)
from matches.services.locks import _lock_event, _lock_round, _match_result, _round_shown_changed
from matches.services.stage_history import stage_history
from tournaments import brackets, permissions, swiss, teams, topcut
from tournaments import stages as stage_rules
from tournaments.audit import audit
from tournaments.models import (
    Registration,
    Stage,
    Tournament,
)
from tournaments.services import stage_rows_written, start_first_stages
from tournaments.standings import Player
from tournaments.status import EventStatus
from tournaments.timer import RoundTimer

# Above this many players a round is paired in a Celery task with a progress bar.
PAIR_IN_TASK_ABOVE = 256
# Sent by name (matches.tasks.pair_round_task), since matches.tasks imports these services.
PAIR_ROUND_TASK = "matches.pair_round"


@atomic
def registration_pairing_options(
    *,
    actor: Any,
    registration: Registration,
    bye_rounds: Sequence[int] | None = None,
    seed: float | None = None,
    fixed_table: int | None = None,
) -> Registration:
    """Organisers set what pairing takes from a registration: byes granted for rounds
    (invitations), a seed for round 1, a fixed table (a player who cannot move)."""
    tournament = _lock_event(registration.tournament)
    permissions.require_organiser(actor, tournament)
    registration = for_update(Registration.objects).get(pk=registration.pk)
    rounds = sorted(set(bye_rounds or ()))
    if any(not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= 30 for r in rounds):
        raise ServiceError(_("bye_rounds: round numbers from 1 to 30."), field="bye_rounds")
    paired = set(tournament.rounds.filter(stage=RoundStage.SWISS).values_list("number", flat=True))
    if set(rounds) & paired - set(registration.bye_rounds or ()):
        raise ServiceError(
            _("bye_rounds: round %(n)d is already paired.") % {"n": min(set(rounds) & paired)},
            field="bye_rounds",
        )
    before = {
        "bye_rounds": registration.bye_rounds,
        "seed": registration.seed,
        "fixed_table": registration.fixed_table,
    }
    registration.bye_rounds = rounds
    registration.seed = seed
    registration.fixed_table = fixed_table
    registration.save(update_fields=["bye_rounds", "seed", "fixed_table", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.pairing_options",
        registration=registration,
        before=before,
        after={"bye_rounds": rounds, "seed": seed, "fixed_table": fixed_table},
    )
    return registration


def _pairing_stage(tournament: Tournament, actor: Any, requested: int | None) -> Stage:
    """The running stage the next round belongs to: ``requested`` (the ``stage`` body field),
    else the one running; the first stages start here if the event runs without them yet."""
    start_first_stages(actor=actor, tournament=tournament)
    rows = list(tournament.stages.order_by("number"))
    running = stages.running_stages(tournament, rows)
    if requested is not None:
        row = next((r for r in rows if r.number == requested), None)
        if row is None:
            raise ServiceError(
                _("stage: the event has no stage %(n)d.") % {"n": requested}, field="stage"
            )
        if row not in running:
            raise Conflict(
                _("stage: stage %(n)d is not running.") % {"n": requested},
                field="stage",
                code="stage_not_running",
            )
        return row
    if len(running) > 1:
        raise Conflict(
            _("stage: stages %(numbers)s run side by side; say which one to pair.")
            % {"numbers": ", ".join(str(r.number) for r in running)},
            field="stage",
            code="stage_ambiguous",
        )
    if not running:
        if rows and rows[-1].finished_at is not None and rows[-1].is_elimination:
            raise Conflict(_("The final has been played."), field="round", code="bracket_over")
        pending = next((r for r in rows if r.started_at is None), None)
        if pending is not None:
            raise Conflict(
                _("stage: start stage %(n)d (%(name)s) first.")
                % {"n": pending.number, "name": pending.name},
                field="stage",
                code="stage_not_started",
            )
        raise Conflict(_("stage: every stage has finished."), field="stage", code="stages_over")
    return running[0]


def round_pair(*, actor: Any, tournament: Tournament, stage: int | None = None) -> Round:
    """Pair the next round of the running stage (``stage`` when several run side by side):
    Swiss, the next bracket round of an elimination stage, or a round robin's next round.

    The round is created (status ``pairing``) under the event lock, so two organisers pairing
    at once make one round; the pairing itself runs now, or in a task for large events.
    """
    with transaction.atomic():
        tournament = _lock_event(tournament)
        permissions.require_organiser(actor, tournament)
        if tournament.status not in (EventStatus.RUNNING, EventStatus.TOP_CUT):
            raise Conflict(
                _("The event is not running: move it to Running before pairing."),
                field="status",
                code="not_running",
            )
        row = _pairing_stage(tournament, actor, stage)
        last = tournament.rounds.filter(stage_number=row.number).order_by("-number").first()
        if last is not None and last.status != RoundStatus.FINISHED:
            raise Conflict(
                _("Round %(n)d is not finished: every match needs a final result first.")
                % {"n": last.number},
                field="round",
                code="round_unfinished",
            )
        kind = stages.round_stage_of(row.kind)
        if kind == RoundStage.TOP_CUT:
            if last is not None and stages.is_legacy_bracket(tournament, row):
                if last.matches.count() <= 1:
                    raise Conflict(
                        _("The final has been played."), field="round", code="bracket_over"
                    )
            elif stages.bracket_of(tournament, row).finished:
                raise Conflict(_("The final has been played."), field="round", code="bracket_over")
        elif kind == RoundStage.ROUND_ROBIN:
            played = tournament.rounds.filter(stage_number=row.number).count()
            if played >= stages.planned_rounds_of(tournament, row):
                raise Conflict(
                    _("stage: every round of the round robin has been paired."),
                    field="stage",
                    code="stage_over",
                )
        if not tournament.pairing_seed:
            tournament.pairing_seed = secrets.token_hex(8)
            tournament.save(update_fields=["pairing_seed", "updated_at"])
        newest = current_round(tournament)
        number = (newest.number if newest else 0) + 1
        own = tournament.rounds.filter(stage_number=row.number).count() + 1
        name = f"Round {own}"  # the API's English name (event-structures); brackets rename
        minutes = row.round_minutes or tournament.round_minutes
        try:
            with transaction.atomic():
                round_ = Round.objects.create(
                    tournament=tournament,
                    number=number,
                    stage=kind,
                    stage_number=row.number,
                    name=name,
                    status=RoundStatus.PAIRING,
                    seed=f"{tournament.pairing_seed}:{number}",
                    created_by=actor,
                    timer=RoundTimer(timedelta(minutes=minutes)).to_json(),
                )
        except IntegrityError:
            raise Conflict(_("Another round is being paired."), field="round") from None
        audit(
            tournament=tournament,
            actor=actor,
            action="round.created",
            target=round_,
            round=number,
            stage=kind,
            stage_number=row.number,
        )
        in_task = kind == RoundStage.SWISS and _pairable(tournament).count() > PAIR_IN_TASK_ABOVE
    if in_task:
        send_after_commit(PAIR_ROUND_TASK, round_.pk)
    else:
        round_pairing_run(round_id=round_.pk)
    round_.refresh_from_db()
    return round_


def pairing_progress_key(round_id: int) -> str:
    return f"round:{round_id}:pairing-progress"


def _progress(round_id: int, percent: int) -> None:
    cache.set(pairing_progress_key(round_id), percent, timeout=3600)


def pairing_progress(round_: Round) -> int:
    if round_.status != RoundStatus.PAIRING:
        return 100
    return int(cache.get(pairing_progress_key(round_.pk), 0))


def round_pairing_run(*, round_id: int) -> Round | None:
    """Pair a round created by :func:`round_pair`. Idempotent: a round already paired, or
    gone, is left alone, so a retried or duplicated task never makes a second set of matches."""
    try:
        with transaction.atomic():
            round_ = Round.objects.select_related("tournament").get(pk=round_id)
            tournament = _lock_event(round_.tournament)
            round_ = _lock_round(round_id)
            if round_.status != RoundStatus.PAIRING:
                return round_
            _progress(round_id, 5)
            row = stage_rows_written(tournament)[round_.stage_number - 1]
            if tournament.is_team_event:
                _pair_team_round(tournament, round_, row)
            elif round_.stage == RoundStage.TOP_CUT:
                if stages.is_legacy_bracket(tournament, row):
                    _pair_bracket_round(tournament, round_)
                else:
                    _pair_elimination_round(tournament, round_, row)
            elif round_.stage == RoundStage.ROUND_ROBIN:
                _pair_round_robin(tournament, round_, row)
            else:
                _pair_swiss_round(tournament, round_, row)
            round_.status = RoundStatus.PAIRED
            round_.pairing_error = ""
            round_.save(update_fields=["status", "pairing_error", "pairing_stats", "name"])
            _round_shown_changed(round_)
            _progress(round_id, 100)
            return round_
    except (
        swiss.StateError,
        topcut.BracketError,
        brackets.BracketError,
        ServiceError,
        teams.TeamError,
    ) as exc:
        Round.objects.filter(pk=round_id, status=RoundStatus.PAIRING).update(
            pairing_error=str(exc),
            content_version=F("content_version") + 1,
            changed_at=timezone.now(),
        )
        if isinstance(exc, ServiceError):
            raise
        return None


def _pair_team_round(tournament: Tournament, round_: Round, row: Stage) -> None:
    """A team event's round, by its stage's kind (matches.services.team_stages)."""
    if round_.stage == RoundStage.TOP_CUT:
        team_stages.pair_team_elimination(tournament, round_, row)
    elif round_.stage == RoundStage.ROUND_ROBIN:
        team_stages.pair_team_round_robin(tournament, round_, row)
    else:
        team_stages.pair_team_stage_swiss(tournament, round_, row)


def stage_candidates(tournament: Tournament, row: Stage) -> list[Registration]:
    """Who the stage pairs next: the pairable registrations of its players. The first stage
    also takes late entries (everyone registered but the later flights' players)."""
    rule = row.to_rule()
    if row.number == 1:
        rules = [r.to_rule() for r in tournament.stages.order_by("number")]
        return pairing_candidates(tournament, excluding=stage_rules.later_flight_players(rules))
    if rule.entry is not None and not rule.entry.sources and rule.entry.players:
        return pairing_candidates(tournament, among=rule.entry.players)
    return pairing_candidates(tournament, among=row.players or ())


def _pair_swiss_round(tournament: Tournament, round_: Round, row: Stage) -> None:
    candidates = stage_candidates(tournament, row)
    history = stage_history(tournament, row, extra=candidates, for_pairing=True)
    _progress(round_.pk, 20)
    # The stage's own round number in the history the pairing reads (carried rounds first).
    position = len(history.rounds) + 1
    played = {pid for rnd in history.rounds for m in rnd for pid in (m.a, m.b) if pid}
    late: list[Registration] = []
    if position > 1 and row.number == 1:
        for registration in candidates:
            if str(registration.pk) not in played and registration.late_entry_round is None:
                registration.late_entry_round = position
                late.append(registration)
    if late:
        Registration.objects.bulk_update(late, ["late_entry_round"])
        history = stage_history(tournament, row, extra=candidates, for_pairing=True)
        known = set(row.players or ())
        joined = [r.pk for r in late if r.pk not in known]
        if joined:
            row.players = [*(row.players or ()), *joined]
            row.save(update_fields=["players"])
    pairable = {str(r.pk) for r in candidates}
    # Only the registrations being paired now are active; everyone else in the history is out.
    players = [p if p.id in pairable or p.dropped else _as_dropped(p) for p in history.players]
    result = swiss.pair_round(
        players,
        history.rounds,
        scoring(tournament),
        seed=round_.seed,
        round_number=position,
        tiebreakers=tournament.tiebreakers,
    )
    _progress(round_.pk, 70)
    rows: list[Match] = [
        Match(
            round=round_,
            table=p.table,
            a_id=int(p.a),
            b_id=int(p.b),
            reason=p.reason[:200],
        )
        for p in result.pairings
    ]
    worth = bye_games(tournament, round_.stage_number)
    for pid in result.assigned_byes:
        rows.append(
            _bye(round_, int(pid), _("bye: granted at registration"), assigned=True, games=worth)
        )
    if result.bye is not None:
        rows.append(_bye(round_, int(result.bye), result.bye_reason or _("bye"), games=worth))
    created = Match.objects.bulk_create(rows)
    _versions_for_byes(created)
    round_.pairing_stats = result.to_json()["stats"]


def _as_dropped(player: Player) -> Player:
    return replace(player, dropped=True)


def _bye(
    round_: Round,
    registration_id: int,
    reason: str,
    *,
    assigned: bool = False,
    games: tuple[int, int, int] | None = None,
) -> Match:
    """A bye of the round, worth the games a match win of the round's stage's structure
    needs (rules README decision 11): 2-0 in a best-of-3 stage after a best-of-1 one.
    ``games``: that value, when the caller writing several byes has it already."""
    won, lost, drawn = games or bye_games(round_.tournament, round_.stage_number)
    return Match(
        round=round_,
        table=None,
        a_id=registration_id,
        b_id=None,
        status=MatchStatus.FINAL,
        games_a=won,
        games_b=lost,
        games_drawn=drawn,
        reason=reason[:200],
        assigned_bye=assigned,
        result_version=1,
    )


def _versions_for_byes(matches: Sequence[Match]) -> None:
    ResultVersion.objects.bulk_create(
        [
            ResultVersion(
                match=m,
                number=1,
                change=ResultChange.BYE,
                before={},
                after=_match_result(m),
                reason=m.reason,
            )
            for m in matches
            if m.b_id is None
        ]
    )


def _bracket_matches(round_: Round) -> list[topcut.BracketMatch]:
    return [
        topcut.BracketMatch(
            table=m.table or 0,
            a=str(m.a_id),
            b=str(m.b_id) if m.b_id is not None else None,
            seed_a=m.seed_a or 0,
            seed_b=m.seed_b,
        )
        for m in round_.matches.order_by("table")
    ]


def _pair_bracket_round(tournament: Tournament, round_: Round) -> None:
    previous = tournament.rounds.get(number=round_.number - 1)
    if previous.stage != RoundStage.TOP_CUT:
        raise ServiceError(_("Start the top cut first."), field="round")
    winners = {m.table or 0: _winner(m) for m in previous.matches.all()}
    nxt = topcut.next_bracket_round(_bracket_matches(previous), winners)
    _write_bracket(round_, nxt)


def _pair_elimination_round(tournament: Tournament, round_: Round, row: Stage) -> None:
    """The next round of a single or double elimination stage (tournaments.brackets): its
    matches whose players are known, byes left out (a bye is no match played). Each match's
    bracket reference (``W2-1``, ``GF1``) is kept in the round's ``pairing_stats`` by table."""
    state = stages.bracket_of(tournament, row)
    nxt = state.next_round
    if nxt is None:
        raise ServiceError(_("The final has been played."), field="round")
    rows: list[Match] = []
    refs: dict[str, str] = {}
    for table, match in enumerate(nxt.played, start=1):
        assert match.b is not None
        refs[str(table)] = match.ref.code
        rows.append(
            Match(
                round=round_,
                table=table,
                a_id=int(match.a),
                b_id=int(match.b),
                seed_a=match.seed_a,
                seed_b=match.seed_b,
                reason=(_("seed %(a)d v seed %(b)d") % {"a": match.seed_a, "b": match.seed_b or 0})[
                    :200
                ],
            )
        )
    Match.objects.bulk_create(rows)
    round_.name = nxt.name
    round_.pairing_stats = {
        "bracket": {"kind": row.kind, "side": nxt.side, "number": nxt.number, "refs": refs}
    }


def _pair_round_robin(tournament: Tournament, round_: Round, row: Stage) -> None:
    """Round r of the stage's round robin (Berger tables); the player sitting it out has no
    match (a round-robin bye scores nothing)."""
    schedule = brackets.round_robin([str(p) for p in row.players or ()])
    own = tournament.rounds.filter(stage_number=row.number, number__lt=round_.number).count()
    if own >= len(schedule):
        raise ServiceError(_("stage: the round robin has been played."), field="stage")
    planned = schedule[own]
    gone = set(
        Registration.objects.filter(pk__in=row.players or (), dropped_at__isnull=False).values_list(
            "pk", flat=True
        )
    )
    rows: list[Match] = []
    for match in planned.matches:
        a, b = int(match.a), int(match.b)
        if a in gone and b in gone:
            continue
        if a in gone or b in gone:
            # A dropped player's opponent wins the match without playing (a bye).
            rows.append(
                _bye(
                    round_,
                    b if a in gone else a,
                    _("bye: opponent dropped"),
                    games=bye_games(tournament, row.number),
                )
            )
            continue
        rows.append(Match(round=round_, table=match.table, a_id=a, b_id=b))
    created = Match.objects.bulk_create(rows)
    _versions_for_byes(created)
    round_.name = planned.name
    round_.pairing_stats = {"round_robin": {"round": planned.number, "bye": planned.bye}}


def _write_bracket(round_: Round, bracket: Sequence[topcut.BracketMatch]) -> None:
    rows = []
    worth = bye_games(round_.tournament, round_.stage_number)
    for bm in bracket:
        if bm.b is None:
            bye = _bye(round_, int(bm.a), _("bye: top seed"), games=worth)
            bye.table = bm.table
            bye.seed_a = bm.seed_a
            rows.append(bye)
            continue
        rows.append(
            Match(
                round=round_,
                table=bm.table,
                a_id=int(bm.a),
                b_id=int(bm.b),
                seed_a=bm.seed_a,
                seed_b=bm.seed_b,
                reason=_("seed %(a)d v seed %(b)d") % {"a": bm.seed_a, "b": bm.seed_b or 0},
            )
        )
    created = Match.objects.bulk_create(rows)
    _versions_for_byes(created)
