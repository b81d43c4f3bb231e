"""An event's stages (event-structures: Stages): parsed for its game, written, replaced
before it starts, and started or finished with the event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from engine.games import get_game
from tournaments import stages as stage_rules
from tournaments.audit import audit
from tournaments.models import RegistrationStatus, Stage, Tournament
from tournaments.status import EventStatus

# Before these the stages may still be replaced; from Running on they are what ran.
STAGES_EDITABLE = (
    EventStatus.DRAFT,
    EventStatus.REGISTRATION_OPEN,
    EventStatus.REGISTRATION_CLOSED,
)


def parse_event_stages(tournament: Tournament, data: Any) -> tuple[stage_rules.Stage, ...]:
    """The contract's ``stages`` list checked for ``tournament``'s game: a 400 naming the
    path (``stages[1].entry.top``) when it is wrong."""
    keys = [structure.key for structure in get_game(tournament.game).match_structures]
    try:
        rules = stage_rules.parse_stages(data, match_structures=keys)
    except stage_rules.StageError as exc:
        raise ServiceError(f"{exc.field}: {exc.message}", field=exc.field) from None
    check_team_lists(tournament, rules)
    return rules


def check_team_lists(tournament: Tournament, rules: Sequence[stage_rules.Stage]) -> None:
    """A team event's stages are played by teams, so a stage listing its entrants by hand
    (``entry.players``: a flight, or a hand-picked stage) lists team ids of the event's teams
    (event-structures: Teams; the stage's ``players`` are team ids too). Checked when the
    stages are set (teams are formed first: a new event has none yet) and again when the
    event starts (a team may have been deleted since): a 400 naming the id's path."""
    if not tournament.is_team_event:
        return
    teams = (
        set(tournament.teams.values_list("pk", flat=True)) if tournament.pk is not None else set()
    )
    for k, rule in enumerate(rules):
        listed = rule.entry.players if rule.entry is not None else None
        for i, pid in enumerate(listed or ()):
            if pid not in teams:
                field = f"stages[{k}].entry.players[{i}]"
                raise ServiceError(
                    _(
                        "%(field)s: %(id)d is not a team of this event. A team event's stage "
                        "lists its teams by hand (team ids): form the teams first."
                    )
                    % {"field": field, "id": pid},
                    field=field,
                )


def stage_rules_of(tournament: Tournament) -> tuple[stage_rules.Stage, ...]:
    """The event's stage definitions, in order (the pure values)."""
    return tuple(row.to_rule() for row in tournament.stages.order_by("number"))


def has_legacy_stages(tournament: Tournament, top_cut_size: int | None) -> bool:
    """Whether the event's stages are the ones made from ``top_cut_size`` (no explicit list)."""
    return stage_rules_of(tournament) == stage_rules.legacy_stages(top_cut_size)


def write_stages(tournament: Tournament, rules: Sequence[stage_rules.Stage]) -> None:
    tournament.stages.all().delete()
    Stage.objects.bulk_create([Stage.from_rule(tournament, rule) for rule in rules])


def replace_stages(
    actor: Any, tournament: Tournament, rules: Sequence[stage_rules.Stage], *, why: str
) -> None:
    if (
        tournament.status not in STAGES_EDITABLE
        or tournament.stages.filter(started_at__isnull=False).exists()
    ):
        raise Conflict(
            _("stages: the event has started; its stages can no longer change."),
            field="stages",
            code="stages_started",
        )
    before = [row.to_rule().to_json() for row in tournament.stages.order_by("number")]
    after = stage_rules.stages_to_json(rules)
    if before == after:
        return
    write_stages(tournament, rules)
    audit(
        tournament=tournament,
        actor=actor,
        action="event.stages",
        target=tournament,
        before=before,
        after=after,
        why=why,
    )


def regenerate_legacy_stages(tournament: Tournament) -> None:
    """The legacy stages for the event's new ``top_cut_size``: the stages not started yet are
    made again (the top cut's size may change until the cut, as before stages existed)."""
    rules = stage_rules.legacy_stages(tournament.top_cut_size)
    tournament.stages.filter(started_at__isnull=True).delete()
    kept = set(tournament.stages.values_list("number", flat=True))
    Stage.objects.bulk_create(
        [Stage.from_rule(tournament, rule) for rule in rules if rule.number not in kept]
    )


def stage_rows_written(tournament: Tournament) -> list[Stage]:
    """The event's stage rows in order, written first (legacy) when it has none yet (an event
    made without the services). The caller holds the event's lock."""
    rows = list(tournament.stages.order_by("number"))
    if not rows:
        write_stages(tournament, stage_rules.legacy_stages(tournament.top_cut_size))
        rows = list(tournament.stages.order_by("number"))
    return rows


def _active_registration_ids(tournament: Tournament) -> list[int]:
    """The registered players still in, in seed order (higher seeds first, then by id)."""
    rows = tournament.registrations.filter(
        status=RegistrationStatus.REGISTERED, dropped_at__isnull=True
    ).values_list("pk", "seed")
    return [pk for pk, _seed in sorted(rows, key=lambda r: (r[1] is None, -(r[1] or 0), r[0]))]


def start_first_stages(*, actor: Any, tournament: Tournament) -> list[Stage]:
    """Start the stages that draw from no earlier stage (stage 1, and later flights listing
    their players by hand) with the registered players still in (first_stage_players). Done
    when the event starts running; the caller holds the event's lock. Returns those started."""
    rows = stage_rows_written(tournament)
    rules = [row.to_rule() for row in rows]
    check_team_lists(tournament, rules)
    # A team event's stages are played by its teams (event-structures: Teams): team ids.
    registered = (
        list(tournament.teams.order_by("id").values_list("pk", flat=True))
        if tournament.is_team_event
        else _active_registration_ids(tournament)
    )
    known = set(registered)
    now = timezone.now()
    started = []
    for row, rule in zip(rows, rules, strict=True):
        if row.started_at is not None:
            continue
        if rule.number == 1:
            players = list(stage_rules.first_stage_players(rules, registered))
        elif rule.entry is not None and not rule.entry.sources and rule.entry.players:
            players = [p for p in rule.entry.players if p in known]
        else:
            continue
        row.players = players
        row.started_at = now
        row.save(update_fields=["players", "started_at"])
        audit(
            tournament=tournament,
            actor=actor,
            action="stage.started",
            target=row,
            stage=row.number,
            players=players,
        )
        started.append(row)
    return started


def finish_running_stages(*, actor: Any, tournament: Tournament) -> None:
    """The event is finished: the stages still running are too (a Swiss ended by hand)."""
    now = timezone.now()
    for row in tournament.stages.filter(started_at__isnull=False, finished_at__isnull=True):
        row.finished_at = now
        row.save(update_fields=["finished_at"])
        audit(
            tournament=tournament,
            actor=actor,
            action="stage.finished",
            target=row,
            stage=row.number,
        )
