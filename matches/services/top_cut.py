"""The top cut: who makes it, starting its bracket, and the cut calculator before the last Swiss
rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict, NotFound, ServiceError
from matches.models import (
    Round,
    RoundStage,
    RoundStatus,
    TeamMatch,
)
from matches.services import stages, team_stages
from matches.services.history import current_round, scoring
from matches.services.locks import _lock_event
from matches.services.pairing import _write_bracket, round_pair
from matches.services.stage_history import own_round_numbers
from matches.services.stages import cut_notes
from matches.services.standings import standings_snapshot
from matches.services.teams import team_rules
from tournaments import brackets, permissions, swiss, topcut
from tournaments import stages as stage_rules
from tournaments.audit import audit
from tournaments.cutcalc import CutOutlook, PointsOutlook, cut_outlook, points_outlook
from tournaments.models import (
    Stage,
    Tournament,
)
from tournaments.services import stage_rows_written
from tournaments.status import EventStatus
from tournaments.timer import RoundTimer


def top_cut_start(*, actor: Any, tournament: Tournament) -> Round:
    """Cut to the event's top-cut size from the frozen final standings; seed the bracket."""
    with transaction.atomic():
        tournament = _lock_event(tournament)
        permissions.require_organiser(actor, tournament)
        if tournament.status != EventStatus.RUNNING:
            raise Conflict(
                _("The top cut starts from a running event after its Swiss rounds."),
                field="status",
                code="not_running",
            )
        if not tournament.top_cut_size:
            raise ServiceError(
                _("top_cut_size: this event has no top cut; finish it instead."),
                field="top_cut_size",
            )
        last = current_round(tournament)
        if last is None or last.status != RoundStatus.FINISHED:
            raise Conflict(
                _("round: finish the last Swiss round first."),
                field="round",
                code="round_unfinished",
            )
        if tournament.is_team_event:
            return _team_top_cut_start(actor, tournament)
        cut = cut_for(tournament)
        qualified = list(cut.qualified)
        if len(qualified) < 2:
            raise ServiceError(
                _("top_cut_size: too few players for a top cut."), field="top_cut_size"
            )
        stage = _top_cut_stage(tournament)
        # Stage 2 starts through the stages' one service (the Swiss stage finishes with it).
        stages.stage_start(
            actor=actor,
            tournament=tournament,
            number=stage.number,
            admitted=[int(p) for p in qualified],
            close_sources=True,
        )
        bracket = topcut.seed_cut_bracket(qualified)
        round_ = Round.objects.create(
            tournament=tournament,
            number=last.number + 1,
            stage=RoundStage.TOP_CUT,
            stage_number=stage.number,
            name=brackets.single_round_label(2 * len(bracket)).render(),
            status=RoundStatus.PAIRED,
            seed="",
            created_by=actor,
            timer=RoundTimer(timedelta(minutes=tournament.round_minutes)).to_json(),
            pairing_stats={"policy": cut.policy, "notes": cut_notes(tournament, cut)},
        )
        _write_bracket(round_, bracket)
        tournament.status = EventStatus.TOP_CUT
        tournament.save(update_fields=["status", "updated_at"])
        audit(
            tournament=tournament,
            actor=actor,
            action="top_cut.started",
            target=round_,
            size=len(qualified),
            policy=cut.policy,
            qualified=qualified,
        )
    return round_


def _team_top_cut_start(actor: Any, tournament: Tournament) -> Round:
    """A team event's top cut: its second stage started through the stages' one service
    (the cut line drawn on the team standings), then its first round paired as any team
    bracket round (matches.services.team_stages). The caller holds the event's lock."""
    stage = _top_cut_stage(tournament)
    stages.stage_start(actor=actor, tournament=tournament, number=stage.number, close_sources=True)
    return round_pair(actor=actor, tournament=tournament, stage=stage.number)


def cut_for(tournament: Tournament) -> topcut.CutResult:
    """The cut line over the frozen final standings, with the event's policy."""
    snapshot = standings_snapshot(tournament)
    rows = []
    for r in snapshot.rows:
        net: dict[str, int] = {}
        for o in r["opponents"]:
            key = str(o["registration"])
            net[key] = net.get(key, 0) + {"win": 1, "loss": -1}.get(o["result"], 0)
        rows.append(
            topcut.CutRow(
                player_id=str(r["registration"]),
                rank=r["rank"],
                points=r["points"],
                tiebreakers=tuple(r["tiebreakers"].items()),
                dropped=r["dropped"],
                head_to_head=tuple(sorted(net.items())),
            )
        )
    try:
        return topcut.cut_line(rows, tournament.top_cut_size, tournament.cut_policy)
    except topcut.BracketError as exc:
        raise ServiceError(exc.message, field="top_cut_size") from None


def _top_cut_stage(tournament: Tournament) -> Stage:
    """The stage the legacy top cut starts: the first elimination stage not started."""
    for row in stage_rows_written(tournament):
        if row.is_elimination and row.started_at is None:
            return row
    raise ServiceError(
        _("top_cut_size: this event has no top cut stage to start."), field="top_cut_size"
    )


def cut_calculator(tournament: Tournament, stage: int | None = None) -> dict[str, Any]:
    """Before the last Swiss rounds: what a win, a draw or a loss does for each player's cut;
    against a points threshold when the next stage admits on points ("what do I need for
    day 2", event-structures: Stages); a team event's for each team (_team_calculator).
    ``stage``: that Swiss stage among those played side by side (flights), else the first."""
    if tournament.is_team_event:
        return _team_calculator(tournament, stage)
    threshold = _points_threshold(tournament, stage)
    if threshold is not None:
        return _points_calculator(tournament, *threshold)
    if not tournament.top_cut_size:
        return {"round": None, "rounds_left": 0, "rows": []}
    snapshot = standings_snapshot(tournament)
    finished = snapshot.round.number
    # The Swiss stage being played plays its own rounds when it names them (a stage list's
    # "rounds": 3), else the event's planned or recommended count, as before stages.
    stage_row = tournament.stages.filter(number=snapshot.round.stage_number).first()
    own_rounds = stage_row.to_rule().rounds if stage_row is not None else None
    planned = (
        own_rounds
        or tournament.planned_rounds
        or swiss.recommended_structure(max(len(snapshot.rows), 2))[0]
    )
    rounds_left = (
        planned
        - tournament.rounds.filter(
            stage=RoundStage.SWISS,
            stage_number=snapshot.round.stage_number,
            number__lte=finished,
        ).count()
    )
    if rounds_left < 1:
        return {"round": finished, "rounds_left": 0, "rows": []}
    points = {str(r["registration"]): r["points"] for r in snapshot.rows}
    dropped = {str(r["registration"]) for r in snapshot.rows if r["dropped"]}
    names = {str(r["registration"]): r["name"] for r in snapshot.rows}
    nxt = tournament.rounds.filter(
        number=finished + 1,
        stage=RoundStage.SWISS,
        status__in=(RoundStatus.PUBLISHED, RoundStatus.PAIRED, RoundStatus.FINISHED),
    ).first()
    pairings = None
    if nxt is not None:
        pairs = [
            (str(a), str(b) if b is not None else None)
            for a, b in nxt.matches.values_list("a_id", "b_id")
        ]
        paired = {p for pair in pairs for p in pair if p is not None}
        # Exact only when the round pairs exactly the players still in contention.
        if paired == set(points) - dropped:
            pairings = pairs
    outlook = cut_outlook(
        points,
        tournament.top_cut_size,
        scoring=scoring(tournament),
        rounds_left=rounds_left,
        pairings=pairings,
        dropped=dropped,
        policy=tournament.cut_policy,
    )
    return {
        "round": finished,
        "rounds_left": rounds_left,
        "pairings_known": pairings is not None,
        "cut_size": tournament.top_cut_size,
        "rows": outlook_rows(outlook, names, "registration"),
    }


def _points_threshold(tournament: Tournament, stage: int | None = None) -> tuple[Stage, int] | None:
    """The Swiss stage being played and the points its next stage admits on, when the next
    stage drawing from it has a ``points`` entry."""
    rows = list(tournament.stages.order_by("number"))
    running = [
        r for r in rows if r.kind == "swiss" and r.status == "running" and stage in (None, r.number)
    ]
    for row in running:
        for later in rows:
            entry = later.to_rule().entry
            if entry is not None and row.number in entry.sources and entry.points is not None:
                return row, entry.points
    return None


def _points_calculator(tournament: Tournament, row: Stage, threshold: int) -> dict[str, Any]:
    try:
        snapshot = standings_snapshot(tournament, stage=row.number)
    except NotFound:
        return {"round": None, "rounds_left": 0, "rows": [], "threshold": threshold}
    played = len(own_round_numbers(tournament, row))
    rounds_left = stages.planned_rounds_of(tournament, row) - played
    if rounds_left < 1:
        return {"round": snapshot.round.number, "rounds_left": 0, "rows": []}
    points = {str(r["registration"]): r["points"] for r in snapshot.rows}
    dropped = {str(r["registration"]) for r in snapshot.rows if r["dropped"]}
    names = {str(r["registration"]): r["name"] for r in snapshot.rows}
    outlook = points_outlook(
        points, threshold, scoring=scoring(tournament), rounds_left=rounds_left, dropped=dropped
    )
    return {
        "round": snapshot.round.number,
        "stage": row.number,
        "rounds_left": rounds_left,
        "pairings_known": False,
        "cut_size": None,
        "threshold": threshold,
        "rows": outlook_rows(outlook, names, "registration"),
    }


def _team_target(
    tournament: Tournament, stage: int | None = None
) -> tuple[Stage, int | None, int | None] | None:
    """A team event's Swiss stage being played and what its next stage admits on: (the
    stage, top N or None, points P or None); None when no Swiss stage is running or none
    after it draws from it alone (flights' top N is drawn on their merged standings)."""
    rows = list(tournament.stages.order_by("number"))
    for row in rows:
        if row.kind != "swiss" or row.status != "running" or stage not in (None, row.number):
            continue
        for later in rows:
            entry = later.to_rule().entry
            if entry is None or row.number not in entry.sources:
                continue
            if entry.points is not None:
                return row, None, entry.points
            if entry.top is not None and entry.sources == (row.number,):
                return row, entry.top, None
    return None


def _team_calculator(tournament: Tournament, stage: int | None = None) -> dict[str, Any]:
    """The cut calculator of a team event: each team's outlook on the team standings of the
    Swiss stage being played (team-match points 3 / 1 / 0), against the next stage's top N
    or points; rows name ``team`` instead of ``registration`` (as placings do)."""
    empty: dict[str, Any] = {"round": None, "rounds_left": 0, "rows": [], "team": True}
    target = _team_target(tournament, stage)
    if target is None:
        return empty
    row, top, threshold = target
    last, standings = team_stages.team_stage_standings(tournament, row)
    if not last:
        return {**empty, "stage": row.number}
    rule = row.to_rule()
    teams_in = team_stages.stage_teams(tournament, row)
    planned = (
        rule.rounds
        or (tournament.planned_rounds if rule.number == 1 else None)
        or stage_rules.planned_rounds(rule, max(len(teams_in), 2))
    )
    rounds_left = planned - len(own_round_numbers(tournament, row))
    base = {"round": last, "stage": row.number, "team": True}
    if rounds_left < 1:
        return {**base, "rounds_left": 0, "rows": []}
    points = {str(r["team"]): r["points"] for r in standings}
    dropped = {str(r["team"]) for r in standings if r["dropped"]}
    names = {str(r["team"]): r["name"] for r in standings}
    team_scoring = team_rules(tournament).team.scoring()
    pairings = None
    if top is not None:
        nxt = (
            tournament.rounds.filter(
                stage_number=row.number,
                number__gt=last,
                status__in=(RoundStatus.PUBLISHED, RoundStatus.PAIRED, RoundStatus.FINISHED),
            )
            .order_by("number")
            .first()
        )
        if nxt is not None:
            pairs = [
                (str(a), str(b) if b is not None else None)
                for a, b in TeamMatch.objects.filter(round=nxt).values_list(
                    "team_a_id", "team_b_id"
                )
            ]
            paired = {t for pair in pairs for t in pair if t is not None}
            if paired == set(points) - dropped:
                pairings = pairs
        outlook: Sequence[CutOutlook | PointsOutlook] = cut_outlook(
            points,
            top,
            scoring=team_scoring,
            rounds_left=rounds_left,
            pairings=pairings,
            dropped=dropped,
            policy=tournament.cut_policy,
        )
        extra: dict[str, Any] = {"cut_size": top}
    else:
        assert threshold is not None
        outlook = points_outlook(
            points, threshold, scoring=team_scoring, rounds_left=rounds_left, dropped=dropped
        )
        extra = {"cut_size": None, "threshold": threshold}
    return {
        **base,
        "rounds_left": rounds_left,
        "pairings_known": pairings is not None,
        **extra,
        "rows": outlook_rows(outlook, names, "team"),
    }


def outlook_rows(
    outlook: Sequence[CutOutlook | PointsOutlook], names: dict[str, str], key: str
) -> list[dict[str, Any]]:
    """The cut calculator's rows as the API gives them: `key` names the entrant (a
    registration, or a team in a team event); only a top-N outlook knows about byes."""
    return [
        {
            key: int(o.player_id),
            "name": names.get(o.player_id, ""),
            "points": o.points,
            "win": o.win,
            "draw": o.draw,
            "loss": o.loss,
            "in_contention": o.in_contention,
            "has_bye": isinstance(o, CutOutlook) and o.has_bye,
            "explanations": {k: o.explain(k) for k in ("win", "draw", "loss")},
        }
        for o in outlook
    ]
