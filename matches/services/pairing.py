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
from matches.services import teams as team_services
from matches.services.history import (
    _pairable,
    _winner,
    bye_games,
    current_round,
    pairing_candidates,
    scoring,
    swiss_history,
)
from matches.services.locks import _lock_event, _lock_round, _match_result, _round_shown_changed
from tournaments import brackets, permissions, swiss, teams, topcut
from tournaments.audit import audit
from tournaments.models import (
    Registration,
    Tournament,
)
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


def round_pair(*, actor: Any, tournament: Tournament) -> Round:
    """Pair the next round: Swiss while the event runs, the next bracket round in the top cut.

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
        last = current_round(tournament)
        if last is not None and last.status != RoundStatus.FINISHED:
            raise Conflict(
                _("Round %(n)d is not finished: every match needs a final result first.")
                % {"n": last.number},
                field="round",
                code="round_unfinished",
            )
        stage = RoundStage.TOP_CUT if tournament.status == EventStatus.TOP_CUT else RoundStage.SWISS
        if stage == RoundStage.TOP_CUT and last is not None and last.matches.count() <= 1:
            raise Conflict(_("The final has been played."), field="round", code="bracket_over")
        if not tournament.pairing_seed:
            tournament.pairing_seed = secrets.token_hex(8)
            tournament.save(update_fields=["pairing_seed", "updated_at"])
        number = (last.number if last else 0) + 1
        stage_number, name = _legacy_round_place(tournament, stage, last)
        try:
            with transaction.atomic():
                round_ = Round.objects.create(
                    tournament=tournament,
                    number=number,
                    stage=stage,
                    stage_number=stage_number,
                    name=name,
                    status=RoundStatus.PAIRING,
                    seed=f"{tournament.pairing_seed}:{number}",
                    created_by=actor,
                    timer=RoundTimer(timedelta(minutes=tournament.round_minutes)).to_json(),
                )
        except IntegrityError:
            raise Conflict(_("Another round is being paired."), field="round") from None
        audit(
            tournament=tournament,
            actor=actor,
            action="round.created",
            target=round_,
            round=number,
            stage=stage,
        )
        in_task = stage == RoundStage.SWISS and _pairable(tournament).count() > PAIR_IN_TASK_ABOVE
    if in_task:
        send_after_commit(PAIR_ROUND_TASK, round_.pk)
    else:
        round_pairing_run(round_id=round_.pk)
    round_.refresh_from_db()
    return round_


def _legacy_round_place(tournament: Tournament, stage: str, last: Round | None) -> tuple[int, str]:
    """The stage number and name of the next round of the Swiss-then-top-cut run."""
    if stage == RoundStage.TOP_CUT:
        places = last.matches.count() if last is not None else 2
        number = last.stage_number if last is not None else 2
        return number, brackets.single_round_label(max(places, 2)).render()
    swiss_rounds = tournament.rounds.filter(stage=RoundStage.SWISS).count()
    return 1, f"Round {swiss_rounds + 1}"  # the API's English name (event-structures)


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
            if round_.stage == RoundStage.TOP_CUT:
                _pair_bracket_round(tournament, round_)
            elif tournament.is_team_event:
                team_services.pair_team_swiss(tournament, round_)
            else:
                _pair_swiss_round(tournament, round_)
            round_.status = RoundStatus.PAIRED
            round_.pairing_error = ""
            round_.save(update_fields=["status", "pairing_error", "pairing_stats"])
            _round_shown_changed(round_)
            _progress(round_id, 100)
            return round_
    except (swiss.StateError, topcut.BracketError, ServiceError, teams.TeamError) as exc:
        Round.objects.filter(pk=round_id, status=RoundStatus.PAIRING).update(
            pairing_error=str(exc),
            content_version=F("content_version") + 1,
            changed_at=timezone.now(),
        )
        if isinstance(exc, ServiceError):
            raise
        return None


def _pair_swiss_round(tournament: Tournament, round_: Round) -> None:
    candidates = pairing_candidates(tournament)
    history = swiss_history(tournament, extra=candidates, for_pairing=True)
    _progress(round_.pk, 20)
    played = {pid for rnd in history.rounds for m in rnd for pid in (m.a, m.b) if pid}
    late: list[Registration] = []
    if round_.number > 1:
        for registration in candidates:
            if str(registration.pk) not in played and registration.late_entry_round is None:
                registration.late_entry_round = round_.number
                late.append(registration)
    if late:
        Registration.objects.bulk_update(late, ["late_entry_round"])
        history = swiss_history(tournament, extra=candidates, for_pairing=True)
    pairable = {str(r.pk) for r in candidates}
    # Only the registrations being paired now are active; everyone else in the history is out.
    players = [p if p.id in pairable else _as_dropped(p) for p in history.players]
    result = swiss.pair_round(
        players,
        history.rounds,
        scoring(tournament),
        seed=round_.seed,
        round_number=round_.number,
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
    for pid in result.assigned_byes:
        rows.append(_bye(round_, int(pid), _("bye: granted at registration"), assigned=True))
    if result.bye is not None:
        rows.append(_bye(round_, int(result.bye), result.bye_reason or _("bye")))
    created = Match.objects.bulk_create(rows)
    _versions_for_byes(created)
    round_.pairing_stats = result.to_json()["stats"]


def _as_dropped(player: Player) -> Player:
    return replace(player, dropped=True)


def _bye(round_: Round, registration_id: int, reason: str, *, assigned: bool = False) -> Match:
    won, lost, drawn = bye_games(round_.tournament)
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


def _write_bracket(round_: Round, bracket: Sequence[topcut.BracketMatch]) -> None:
    rows = []
    for bm in bracket:
        if bm.b is None:
            bye = _bye(round_, int(bm.a), _("bye: top seed"))
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
