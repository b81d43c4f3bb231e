"""Running an event's stages (event-structures: Stages): starting one from the frozen final
standings of the stages it draws from, each stage's own (or carried) history and standings,
pairing its rounds by its kind, and finishing it (and the event after its last stage).

The rules are pure (tournaments.stages, tournaments.brackets); this module reads the rows into
their values and writes back what they answer. An event created without ``stages`` runs its
legacy stages exactly as before: the Swiss stage finishes when the top cut starts (or the
event is finished by hand), the top cut when its final is final.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, NotFound, ServiceError
from matches.models import Match, Round, RoundStage, RoundStatus
from matches.services import team_stages
from matches.services.history import _winner
from matches.services.locks import _lock_event
from matches.services.stage_history import own_round_numbers
from matches.services.standings import stage_standings_rows
from tournaments import brackets, permissions, topcut
from tournaments import stages as stage_rules
from tournaments.audit import audit
from tournaments.models import Registration, Stage, StageKind, Tournament
from tournaments.services import stage_rows_written, start_first_stages
from tournaments.status import EventStatus


def round_stage_of(kind: str) -> str:
    """The round's ``stage`` field for a stage of this kind (event-structures: Stages)."""
    if kind == StageKind.SWISS:
        return RoundStage.SWISS
    if kind == StageKind.ROUND_ROBIN:
        return RoundStage.ROUND_ROBIN
    return RoundStage.TOP_CUT


def is_legacy(tournament: Tournament, rows: Sequence[Stage]) -> bool:
    """Whether the event runs the legacy Swiss and top cut (created without ``stages``): the
    shape ``legacy_stages`` makes, whatever the top cut's size (the event's ``top_cut_size``
    may have been set since without the services)."""
    rules = tuple(row.to_rule() for row in rows)
    entry = rules[1].entry if len(rules) == 2 else None
    size = entry.top if entry is not None and entry.top is not None else 0
    if len(rules) == 2 and not size:
        return False
    return rules == stage_rules.legacy_stages(size)


def stage_row(tournament: Tournament, number: int) -> Stage:
    row = tournament.stages.filter(number=number).first()
    if row is None:
        raise NotFound(_("stage: the event has no stage %(n)d.") % {"n": number}, field="stage")
    return row


def _rules(rows: Sequence[Stage]) -> list[stage_rules.Stage]:
    return [row.to_rule() for row in rows]


def planned_rounds_of(tournament: Tournament, row: Stage) -> int:
    """Rounds a Swiss or round-robin stage plays: its own count, the event's planned Swiss
    rounds for a stage 1 without one, else the pure rule for its players."""
    rule = row.to_rule()
    legacy_count = rule.rounds is None and rule.number == 1 and rule.kind == "swiss"
    if legacy_count and tournament.planned_rounds:
        return int(tournament.planned_rounds)
    return stage_rules.planned_rounds(rule, max(len(row.players or ()), 2))


# -- brackets -------------------------------------------------------------------------------------
def _bracket_winners(tournament: Tournament, row: Stage) -> dict[str, str]:
    winners: dict[str, str] = {}
    rounds = tournament.rounds.filter(stage_number=row.number, stage=RoundStage.TOP_CUT)
    refs_of = {r.pk: (r.pairing_stats or {}).get("bracket", {}).get("refs", {}) for r in rounds}
    matches = Match.objects.filter(round__in=rounds, status="final", b__isnull=False)
    for match in matches:
        code = refs_of.get(match.round_id, {}).get(str(match.table))
        if code:
            winners[code] = _winner(match)
    return winners


def bracket_of(tournament: Tournament, row: Stage) -> brackets.BracketState:
    """The stage's bracket with its final results so far (tournaments.brackets); a team
    event's bracket is of teams (team_stages)."""
    if tournament.is_team_event:
        return team_stages.team_bracket_of(tournament, row)
    try:
        return brackets.bracket_state(
            row.kind,
            [str(p) for p in row.players or ()],
            _bracket_winners(tournament, row),
        )
    except brackets.BracketError as exc:
        raise ServiceError(exc.message, field="stage") from None


def is_legacy_bracket(tournament: Tournament, row: Stage) -> bool:
    """A top cut started by the legacy ``POST .../top-cut/`` (paired by tournaments.topcut)."""
    first = (
        tournament.rounds.filter(stage_number=row.number, stage=RoundStage.TOP_CUT)
        .exclude(status=RoundStatus.PAIRING)
        .order_by("number")
        .first()
    )
    return first is not None and "bracket" not in (first.pairing_stats or {})


# -- finals and entry -----------------------------------------------------------------------------
def stage_final_rows(tournament: Tournament, row: Stage) -> list[stage_rules.FinalRow]:
    """The stage's frozen final standings as an entry rule reads them (teams in a team
    event)."""
    if tournament.is_team_event:
        return team_stages.team_final_rows(tournament, row)
    if row.is_elimination:
        placings = bracket_of(tournament, row).placings()
        return [stage_rules.FinalRow(int(p.player), p.place, 0) for p in placings]
    return [
        stage_rules.FinalRow(
            registration=r["registration"],
            rank=r["rank"],
            points=r["points"],
            tiebreakers=tuple(r["tiebreakers"].items()),
            dropped=r["dropped"],
        )
        for r in stage_standings_rows(tournament, row)
    ]


def cut_notes(tournament: Tournament, cut: topcut.CutResult) -> list[str]:
    """The cut line's notes (decision 13) with the players' (a team event: the teams') names."""
    if tournament.is_team_event:
        team_names = {str(pk): name for pk, name in tournament.teams.values_list("pk", "name")}
        return cut.notes(team_names)
    names = {
        str(r.pk): r.name
        for r in Registration.objects.filter(
            pk__in=[int(p) for p in cut.qualified]
            + ([int(cut.line.below_id)] if cut.line else [])
            + [int(p) for p in cut.skipped_dropped]
        ).select_related("player")
    }
    return cut.notes(names)


def running_stages(tournament: Tournament, rows: Sequence[Stage]) -> list[Stage]:
    return [r for r in rows if r.started_at is not None and r.finished_at is None]


def finish_stage(actor: Any, tournament: Tournament, row: Stage) -> None:
    row.finished_at = timezone.now()
    row.save(update_fields=["finished_at"])
    audit(tournament=tournament, actor=actor, action="stage.finished", target=row, stage=row.number)


def stage_start(
    *,
    actor: Any,
    tournament: Tournament,
    number: int,
    admitted: Sequence[int] | None = None,
    close_sources: bool = False,
) -> Stage:
    """Start stage ``number``: its entry rule on the frozen final standings of the finished
    stages it draws from (flights merged, the event's cut policy at a top N's line).

    ``409`` while a source is unfinished or the stage has started; ``400`` naming ``entry``
    when the rule admits too few. The caller holds the event's lock. ``admitted``: the
    players already chosen (the legacy top cut's own cut line); ``close_sources``: a source
    whose rounds are all finished is finished now (the legacy Swiss ends when the cut starts).
    """
    permissions.require_organiser(actor, tournament)
    if tournament.status not in (EventStatus.RUNNING, EventStatus.TOP_CUT):
        raise Conflict(
            _("status: a stage starts while the event runs."), field="status", code="not_running"
        )
    rows = stage_rows_written(tournament)
    start_first_stages(actor=actor, tournament=tournament)
    rows = list(tournament.stages.order_by("number"))
    row = next((r for r in rows if r.number == number), None)
    if row is None:
        raise NotFound(_("stage: the event has no stage %(n)d.") % {"n": number}, field="stage")
    if row.started_at is not None:
        raise Conflict(
            _("stage: stage %(n)d has already started.") % {"n": number},
            field="stage",
            code="stage_started",
        )
    rule = row.to_rule()
    assert rule.entry is not None  # only source-less stages have none, and they start first
    if tournament.is_team_event and row.is_elimination:
        team_stages.check_team_bracket(tournament)
    by_number = {r.number: r for r in rows}
    for source in rule.entry.sources:
        src = by_number[source]
        if src.finished_at is None and close_sources and src.started_at is not None:
            unfinished = tournament.rounds.filter(stage_number=source).exclude(
                status=RoundStatus.FINISHED
            )
            if not unfinished.exists():
                finish_stage(actor, tournament, src)
        if src.finished_at is None:
            raise Conflict(
                _("stage: stage %(source)d (%(name)s) has not finished.")
                % {"source": source, "name": src.name},
                field="stage",
                code="source_unfinished",
            )
    notes: list[str] = []
    if admitted is None:
        finals = {s: stage_final_rows(tournament, by_number[s]) for s in rule.entry.sources}
        registered = (
            set(team_stages.team_ids(tournament))
            if tournament.is_team_event
            else set(
                tournament.registrations.filter(status="registered").values_list("pk", flat=True)
            )
        )
        try:
            admission = stage_rules.apply_entry(
                rule, finals, cut_policy=tournament.cut_policy, registered=registered
            )
        except stage_rules.EntryError as exc:
            raise ServiceError(f"entry: {exc.message}", field="entry") from None
        admitted = admission.players
        if admission.cut is not None:
            notes = cut_notes(tournament, admission.cut)
    row.players = list(admitted)
    row.started_at = timezone.now()
    row.save(update_fields=["players", "started_at"])
    if row.is_elimination and row.number == rows[-1].number:
        tournament.status = EventStatus.TOP_CUT
        tournament.save(update_fields=["status", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="stage.started",
        target=row,
        stage=row.number,
        players=row.players,
        notes=notes,
    )
    return row


def stage_start_service(*, actor: Any, tournament: Tournament, number: int) -> Stage:
    """``POST /api/events/{slug}/stages/{n}/start/`` (organisers), in one transaction."""
    with transaction.atomic():
        tournament = _lock_event(tournament)
        return stage_start(actor=actor, tournament=tournament, number=number)


# -- after a round --------------------------------------------------------------------------------
def after_round_finished(round_: Round) -> None:
    """A round of an event run in explicit stages finished: its stage finishes with its last
    planned round (an elimination stage with its champion), and the event after its last
    stage. Legacy events keep their own ends (round_end). The caller holds the round's lock
    and, for any round but a stage 1 Swiss round, the event's."""
    tournament = round_.tournament
    rows = list(tournament.stages.order_by("number"))
    # A legacy event's top cut ends with its final (round_end); a team event's legacy top cut
    # is a bracket of teams, run as any stage (its Swiss keeps the legacy end).
    team_bracket = tournament.is_team_event and round_.stage == RoundStage.TOP_CUT
    if not rows or (is_legacy(tournament, rows) and not team_bracket):
        return
    row = next((r for r in rows if r.number == round_.stage_number), None)
    if row is None or row.finished_at is not None or row.started_at is None:
        return
    if row.is_elimination:
        done = bracket_of(tournament, row).finished
    else:
        done = len(own_round_numbers(tournament, row)) >= planned_rounds_of(tournament, row)
    if not done:
        return
    finish_stage(None, tournament, row)
    last = rows[-1]
    if row.number != last.number or (row.number == 1 and row.kind == StageKind.SWISS):
        return
    if tournament.status in (EventStatus.RUNNING, EventStatus.TOP_CUT):
        previous = tournament.status
        tournament.status = EventStatus.FINISHED
        tournament.save(update_fields=["status", "updated_at"])
        audit(
            tournament=tournament,
            actor=None,
            action="event.status",
            target=tournament,
            **{"from": previous, "to": EventStatus.FINISHED.value},
        )
        champion = None
        if row.is_elimination:
            champion = bracket_of(tournament, row).champion
        audit(
            tournament=tournament,
            actor=None,
            action="event.finished",
            target=tournament,
            champion=int(champion) if champion else None,
        )
