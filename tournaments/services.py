"""Use cases for events and registrations: the only code that writes to these models.

Every public function takes keyword-only arguments, checks who may act and in what state,
writes inside one transaction holding the event's row lock (so two requests for the last place
queue up instead of both taking it), and appends an AuditEntry for every change.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.player_ids import ALPHABET, normalise_player_id
from accounts.validators import check_name
from config.errors import Conflict, Forbidden, ServiceError
from config.locks import for_update
from config.transactions import atomic
from engine.games import default_game, get_game
from tournaments import permissions, teams
from tournaments import stages as stage_rules
from tournaments.audit import audit
from tournaments.extensions import decklists, player_dropped, registration_checks
from tournaments.lottery_rules import (
    check_lottery_may_change,
    commit_lottery_seed,
    lottery_collects_entries,
    require_lottery_open,
)
from tournaments.models import (
    ACTIVE_STATUSES,
    WAITLIST_ORDER,
    Registration,
    RegistrationStatus,
    Stage,
    Team,
    TeamMember,
    Tournament,
    default_clock_mode,
)
from tournaments.selectors import event_facts, event_facts_without_rounds, registration_counts
from tournaments.status import (
    ON_THE_DAY,
    EventStatus,
    players_refusal,
    registration_refusal,
    transition_refusal,
)

EDITABLE_FIELDS = (
    "name",
    "game",
    "mode",
    "format_key",
    "format_params",
    "match_structure",
    "description",
    "starts_at",
    "time_zone",
    "venue",
    "city",
    "capacity",
    "registration_opens_at",
    "registration_closes_at",
    "decklist_deadline",
    "round_minutes",
    "planned_rounds",
    "top_cut_size",
    "require_legal_decklist",
    "first_round_pairing",
    "late_entry_policy",
    "cut_policy",
    "start_timer_on_publish",
    "auto_confirm_minutes",
    "hide_standings_before_final",
    "judges_may_check_in",
    "clock_mode",
    "clock_minutes",
    "clock_delay_seconds",
    "tiebreaker_order",
    "team",
    "team_rules",
    "registration_mode",
    "lottery_deadline",
    "entry_fee",
    "entry_fee_currency",
)
# Fixed once the lottery is drawn: the draw was made under them.
FIXED_AFTER_DRAW = ("registration_mode", "lottery_deadline")
# What players build their decks for: it may change until the first decklist is in (an
# organiser who opened registration with the wrong mode can still fix it), never once the
# event runs.
FIXED_AFTER_DRAFT = ("game", "mode", "format_key", "format_params", "match_structure")


def _check_format_may_change(tournament: Tournament, field: str) -> None:
    if tournament.status == EventStatus.DRAFT:
        return
    if tournament.status not in (EventStatus.REGISTRATION_OPEN, EventStatus.REGISTRATION_CLOSED):
        raise ServiceError(
            _("%(field)s: cannot change once the event has started.") % {"field": field},
            field=field,
        )
    submitted = tournament.registrations.filter(decklist__isnull=False).count()
    if submitted:
        raise ServiceError(
            ngettext(
                "%(field)s: %(n)d player has already submitted a decklist for this format; it "
                "can no longer change.",
                "%(field)s: %(n)d players have already submitted decklists for this format; it "
                "can no longer change.",
                submitted,
            )
            % {"field": field, "n": submitted},
            field=field,
        )


def event_locked(tournament: Tournament) -> Tournament:
    """Re-read the event under a row lock; every registration write goes through this."""
    return for_update(Tournament.objects).get(pk=tournament.pk)


def _validation_error(exc: ValidationError) -> ServiceError:
    if hasattr(exc, "error_dict"):
        field, errors = next(iter(exc.message_dict.items()))
        return ServiceError(f"{field}: {errors[0]}", field=field)
    return ServiceError("; ".join(exc.messages))


# An event's names people read on every page: one line of visible text (accounts.names).
NAME_FIELDS = ("name", "venue", "city")


def _check_names(fields: dict[str, Any]) -> None:
    for field in NAME_FIELDS:
        if isinstance(fields.get(field), str):
            check_name(field, fields[field])


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "event"
    slug = base
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{base}-{secrets.token_hex(3)}"
    return slug


# --- events ------------------------------------------------------------------------------


# --- stages (event-structures: Stages) ----------------------------------------------------
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
        return stage_rules.parse_stages(data, match_structures=keys)
    except stage_rules.StageError as exc:
        raise ServiceError(f"{exc.field}: {exc.message}", field=exc.field) from None


def stage_rules_of(tournament: Tournament) -> tuple[stage_rules.Stage, ...]:
    """The event's stage definitions, in order (the pure values)."""
    return tuple(row.to_rule() for row in tournament.stages.order_by("number"))


def has_legacy_stages(tournament: Tournament, top_cut_size: int | None) -> bool:
    """Whether the event's stages are the ones made from ``top_cut_size`` (no explicit list)."""
    return stage_rules_of(tournament) == stage_rules.legacy_stages(top_cut_size)


def _write_stages(tournament: Tournament, rules: Sequence[stage_rules.Stage]) -> None:
    tournament.stages.all().delete()
    Stage.objects.bulk_create([Stage.from_rule(tournament, rule) for rule in rules])


def _replace_stages(
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
    _write_stages(tournament, rules)
    audit(
        tournament=tournament,
        actor=actor,
        action="event.stages",
        target=tournament,
        before=before,
        after=after,
        why=why,
    )


def _regenerate_legacy_stages(tournament: Tournament) -> None:
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
        _write_stages(tournament, stage_rules.legacy_stages(tournament.top_cut_size))
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


@atomic
def event_create(*, actor: Any, **fields: Any) -> Tournament:
    """A new event. ``stages`` (event-structures: Stages), or without it the legacy Swiss and
    top cut of ``top_cut_size``."""
    if not permissions.can_create_events(actor):
        raise Forbidden(_("Only organisers may create events."))
    stages = fields.pop("stages", None)
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        name = sorted(unknown)[0]
        raise ServiceError(_("%(field)s: not a field of an event.") % {"field": name}, field=name)
    _check_names(fields)
    if fields.get("format_params") is None:
        fields["format_params"] = {}
    # The match clock starts as the game recommends: per game when it recommends one.
    if not fields.get("clock_mode"):
        fields["clock_mode"] = default_clock_mode(str(fields.get("game") or default_game()))
    if fields.get("team_rules") is None:
        fields["team_rules"] = {}
    tournament = Tournament(**fields, created_by=actor)
    tournament.slug = _unique_slug(fields.get("name", ""))
    commit_lottery_seed(tournament)
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise _validation_error(exc) from None
    _normalise_team(tournament)
    rules = (
        parse_event_stages(tournament, stages)
        if stages is not None
        else stage_rules.legacy_stages(tournament.top_cut_size)
    )
    tournament.save()
    tournament.organisers.add(actor)
    _write_stages(tournament, rules)
    audit(
        tournament=tournament,
        actor=actor,
        action="event.created",
        target=tournament,
        stages=stage_rules.stages_to_json(rules),
    )
    return tournament


@atomic
def event_update(*, actor: Any, tournament: Tournament, **fields: Any) -> Tournament:
    """Change an event's fields. ``stages`` replaces its stages before it starts (a 409 naming
    ``stages`` after); a new ``top_cut_size`` on an event without explicit stages makes its
    legacy stages again."""
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    stages = fields.pop("stages", None)
    legacy = (
        stages is None
        and "top_cut_size" in fields
        and has_legacy_stages(tournament, tournament.top_cut_size)
    )
    changes: dict[str, Any] = {}
    if "format_params" in fields and fields["format_params"] is None:
        fields["format_params"] = {}
    if "team_rules" in fields and fields["team_rules"] is None:
        fields["team_rules"] = {}
    for name, value in fields.items():
        if name not in EDITABLE_FIELDS:
            raise ServiceError(
                _("%(field)s: not a field of an event.") % {"field": name}, field=name
            )
        _check_names({name: value})
        old = getattr(tournament, name)
        if old == value:
            continue
        if name in FIXED_AFTER_DRAFT:
            _check_format_may_change(tournament, name)
        if name in ("team", "team_rules"):
            _check_team_may_change(tournament, name)
        if name in FIXED_AFTER_DRAW:
            check_lottery_may_change(tournament, name)
        changes[name] = {"from": _plain(old), "to": _plain(value)}
        setattr(tournament, name, value)
    if stages is not None:
        rules = parse_event_stages(tournament, stages)
        _replace_stages(actor, tournament, rules, why="stages")
    elif legacy and "top_cut_size" in changes:
        _regenerate_legacy_stages(tournament)
    if not changes:
        return tournament
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise _validation_error(exc) from None
    _normalise_team(tournament)
    if tournament.capacity is not None and "capacity" in changes:
        registered = tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()
        if tournament.capacity < registered:
            raise ServiceError(
                _(
                    "capacity: %(registered)d players are already registered; remove some "
                    "before lowering the capacity to %(capacity)d."
                )
                % {"registered": registered, "capacity": tournament.capacity},
                field="capacity",
            )
    commit_lottery_seed(tournament)
    tournament.save()
    audit(tournament=tournament, actor=actor, action="event.updated", target=tournament, **changes)
    _promote_waitlist(tournament, actor=actor)
    return tournament


def _normalise_team(tournament: Tournament) -> None:
    """Store a team event's settings as the pure core reads them back: the contract's object
    in full and every rule of the preset (Tournament.clean has checked they read)."""
    rules = tournament.team_rules_value
    if rules is None:
        tournament.team, tournament.team_rules = None, {}
    else:
        tournament.team, tournament.team_rules = rules.team.to_dict(), teams.rules_extras(rules)


def _check_team_may_change(tournament: Tournament, field: str) -> None:
    """Whether an event is played by teams, and how, is settled before the event runs and
    before any team is formed (a roster checked against one configuration stays valid)."""
    if tournament.status not in (
        EventStatus.DRAFT,
        EventStatus.REGISTRATION_OPEN,
        EventStatus.REGISTRATION_CLOSED,
    ):
        raise ServiceError(
            _("%(field)s: cannot change once the event has started.") % {"field": field},
            field=field,
        )
    formed = tournament.teams.count()
    if formed:
        raise ServiceError(
            ngettext(
                "%(field)s: %(n)d team is already formed; delete it before changing this.",
                "%(field)s: %(n)d teams are already formed; delete them before changing this.",
                formed,
            )
            % {"field": field, "n": formed},
            field=field,
        )


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


@atomic
def event_transition(
    *,
    actor: Any,
    tournament: Tournament,
    to: str,
    confirm: bool = False,
    no_shows: str | None = None,
) -> Tournament:
    """Move the event on. Cancelling is final, so it needs ``confirm``; starting (Running)
    with some players checked in and others not needs a decision on the others:
    ``no_shows="drop"`` drops them (each recorded), ``"keep"`` leaves them in."""
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    # The same words the dashboard shows beside a move it does not offer now.
    refusal = transition_refusal(event_facts(tournament), to)
    if refusal is not None:
        raise ServiceError(
            _("status: %(reason)s") % {"reason": refusal.render(_)},
            field="status",
            code=refusal.code,
        )
    target = EventStatus(to)
    if target == EventStatus.CANCELLED and not confirm:
        raise ServiceError(
            _("confirm: %(what)s Confirm to go on.") % {"what": cancel_consequences(tournament)},
            field="confirm",
            code="confirmation_required",
        )
    if target == EventStatus.RUNNING:
        _settle_no_shows(actor, tournament, no_shows)
    previous = tournament.status
    tournament.status = target.value
    tournament.save(update_fields=["status", "updated_at"])
    if target == EventStatus.RUNNING:
        start_first_stages(actor=actor, tournament=tournament)
    elif target == EventStatus.FINISHED:
        finish_running_stages(actor=actor, tournament=tournament)
    audit(
        tournament=tournament,
        actor=actor,
        action="event.status",
        target=tournament,
        **{"from": previous, "to": target.value},
    )
    return tournament


def cancel_consequences(tournament: Tournament) -> str:
    """What cancelling the event loses, in words (the confirmation page and the API say it)."""
    counts = registration_counts(tournament)
    rounds = tournament.rounds.count()
    text = _(
        "Cancelling %(name)s is final: it cannot be reopened, and its %(registered)d registered "
        "players and %(waitlisted)d on the waitlist lose their places."
    ) % {
        "name": tournament.name,
        "registered": counts["registered"],
        "waitlisted": counts["waitlisted"],
    }
    if rounds:
        text += " " + ngettext(
            "Its %(n)d round ends where it is.", "Its %(n)d rounds end where they are.", rounds
        ) % {"n": rounds}
    return text


NO_SHOW_CHOICES = ("drop", "keep")


def no_shows(tournament: Tournament) -> Any:
    """Registered players not checked in (and not dropped): the no-shows at the start."""
    return tournament.registrations.filter(
        status=RegistrationStatus.REGISTERED, checked_in_at__isnull=True, dropped_at__isnull=True
    )


def _settle_no_shows(actor: Any, tournament: Tournament, decision: str | None) -> None:
    if decision is not None and decision not in NO_SHOW_CHOICES:
        raise ServiceError(_("no_shows: one of drop, keep."), field="no_shows")
    missing = no_shows(tournament)
    absent = missing.count()
    if absent == 0:
        return
    anyone_in = tournament.registrations.filter(
        status=RegistrationStatus.REGISTERED, checked_in_at__isnull=False
    ).exists()
    if decision is None:
        if not anyone_in:
            return  # check-in was not used: everyone registered plays
        raise ServiceError(
            ngettext(
                "no_shows: %(n)d registered player is not checked in: drop them (no_shows=drop) "
                "or keep them in the event (no_shows=keep).",
                "no_shows: %(n)d registered players are not checked in: drop them "
                "(no_shows=drop) or keep them in the event (no_shows=keep).",
                absent,
            )
            % {"n": absent},
            field="no_shows",
            code="no_shows_undecided",
        )
    if decision == "keep":
        audit(tournament=tournament, actor=actor, action="event.no_shows_kept", count=absent)
        return
    now = timezone.now()
    # Locked in the site's order (event, then registrations by id) before they change.
    dropped = list(for_update(missing).order_by("id"))
    for registration in dropped:
        registration.dropped_at = now
        registration.drop_round = None
        registration.save(update_fields=["dropped_at", "drop_round", "updated_at"])
        audit(
            tournament=tournament,
            actor=actor,
            action="registration.dropped_no_show",
            registration=registration,
        )
        player_dropped.send(sender=Registration, registration=registration)
    audit(tournament=tournament, actor=actor, action="event.no_shows_dropped", count=len(dropped))


@atomic
def event_set_player_check_in(*, actor: Any, tournament: Tournament, open: bool) -> Tournament:
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    refusal = players_refusal(tournament.status) if open else None
    if refusal is not None:
        raise ServiceError(
            _("player_check_in_open: check-in opens only while the event takes players. %(why)s")
            % {"why": refusal.render(_)},
            field="player_check_in_open",
            code=refusal.code,
        )
    tournament.player_check_in_open = open
    tournament.save(update_fields=["player_check_in_open", "updated_at"])
    audit(tournament=tournament, actor=actor, action="event.player_check_in", open=open)
    return tournament


@atomic
def event_set_judge(
    *, actor: Any, tournament: Tournament, user: Any, assigned: bool, head: bool = False
) -> None:
    """Assign or remove a judge; ``head`` also makes them the head judge (escalated calls
    go to them). Removing the head judge leaves the event without one."""
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    if assigned:
        tournament.judges.add(user)
        if head and tournament.head_judge_id != user.pk:
            tournament.head_judge = user
            tournament.save(update_fields=["head_judge", "updated_at"])
    else:
        tournament.judges.remove(user)
        if tournament.head_judge_id == user.pk:
            tournament.head_judge = None
            tournament.save(update_fields=["head_judge", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="event.judge_assigned" if assigned else "event.judge_removed",
        target=user,
        player_id=user.player_id,
        head=bool(assigned and head),
    )


@atomic
def event_add_organiser(*, actor: Any, tournament: Tournament, user: Any) -> None:
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    tournament.organisers.add(user)
    audit(tournament=tournament, actor=actor, action="event.organiser_added", target=user)


# --- registrations -------------------------------------------------------------------------


def registration_is_open(tournament: Tournament, now: datetime | None = None) -> bool:
    facts = event_facts_without_rounds(tournament)
    return registration_refusal(facts, now or timezone.now()) is None


def _require_registration_open(tournament: Tournament) -> None:
    # The same words the event page shows instead of a Register button.
    refusal = registration_refusal(event_facts_without_rounds(tournament), timezone.now())
    if refusal is not None:
        raise ServiceError(
            _("tournament: registration is not open. %(why)s") % {"why": refusal.render(_)},
            field="tournament",
            code=refusal.code,
        )


def registered_count(tournament: Tournament) -> int:
    return tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()


def has_room(tournament: Tournament) -> bool:
    return tournament.capacity is None or registered_count(tournament) < tournament.capacity


def _enter(registration: Registration, tournament: Tournament) -> None:
    """Register if there is room, else join the end of the waitlist; before a lottery's
    draw, enter the lottery."""
    registration.draw_position = None
    if lottery_collects_entries(tournament):
        registration.status = RegistrationStatus.ENTERED
        registration.queued_at = None
    elif has_room(tournament):
        registration.status = RegistrationStatus.REGISTERED
        registration.queued_at = None
    else:
        registration.status = RegistrationStatus.WAITLISTED
        registration.queued_at = timezone.now()


@atomic
def registration_register(*, actor: Any, tournament: Tournament) -> Registration:
    """Register the acting player; beyond capacity they join the waitlist."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Log in to register."))
    tournament = event_locked(tournament)
    _require_registration_open(tournament)
    require_lottery_open(tournament)
    for check in registration_checks():
        check(tournament, actor)  # an organisation's suspension: a 409 naming it
    registration = (
        for_update(Registration.objects).filter(tournament=tournament, player=actor).first()
    )
    if registration is not None:
        if registration.status in ACTIVE_STATUSES:
            raise ServiceError(
                _("You are already registered for this event."),
                field="tournament",
                code="already_registered",
            )
        if registration.status == RegistrationStatus.REMOVED:
            raise Forbidden(
                _("An organiser removed you from this event; ask them to add you back.")
            )
    else:
        registration = Registration(tournament=tournament, player=actor)
    _enter(registration, tournament)
    try:
        with transaction.atomic():
            registration.save()
    except IntegrityError:
        raise Conflict(
            _("You are already registered for this event."), field="tournament"
        ) from None
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.registered",
        registration=registration,
        status=registration.status,
    )
    return registration


def _locked_registration(registration: Registration) -> tuple[Tournament, Registration]:
    tournament = event_locked(registration.tournament)
    registration = for_update(Registration.objects).get(pk=registration.pk)
    registration.tournament = tournament
    return tournament, registration


@atomic
def registration_withdraw(*, actor: Any, registration: Registration) -> Registration:
    """A player leaves an event before it starts; their place goes to the waitlist."""
    tournament, registration = _locked_registration(registration)
    if not permissions.is_own_registration(actor, registration):
        if permissions.is_organiser_of(actor, tournament):
            return _remove(actor=actor, tournament=tournament, registration=registration)
        raise Forbidden(_("You can only withdraw your own registration."))
    if registration.status not in ACTIVE_STATUSES:
        raise ServiceError(_("You are not registered for this event."), field="registration")
    if tournament.status != EventStatus.REGISTRATION_OPEN:
        raise ServiceError(
            _("Registration has closed: ask an organiser, or drop once the event is running."),
            field="registration",
            code="registration_closed",
        )
    return _leave(
        actor=actor,
        tournament=tournament,
        registration=registration,
        status=RegistrationStatus.WITHDRAWN,
        action="registration.withdrawn",
    )


@atomic
def registration_remove(
    *, actor: Any, registration: Registration, reason: str = "", confirm: bool = False
) -> Registration:
    """An organiser takes a registration out; its place goes to the waitlist at once, so it
    needs ``confirm`` (the message says what is lost)."""
    tournament, registration = _locked_registration(registration)
    permissions.require_organiser(actor, tournament)
    if not confirm:
        raise ServiceError(
            _("confirm: %(what)s Confirm to go on.") % {"what": remove_consequences(registration)},
            field="confirm",
            code="confirmation_required",
        )
    return _remove(actor=actor, tournament=tournament, registration=registration, reason=reason)


def remove_consequences(registration: Registration) -> str:
    """What removing this registration loses, in words."""
    text = _("Removing %(name)s takes them out of %(event)s.") % {
        "name": registration.name,
        "event": registration.tournament.name,
    }
    if registration.status == RegistrationStatus.REGISTERED:
        nxt = (
            registration.tournament.registrations.filter(status=RegistrationStatus.WAITLISTED)
            .order_by(*WAITLIST_ORDER)
            .first()
        )
        if nxt is not None:
            text += " " + _("Their place goes to %(next)s from the waitlist at once.") % {
                "next": nxt.name
            }
        else:
            text += " " + _("Their place is freed.")
    if hasattr(registration, "decklist"):
        text += " " + _("Their decklist is no longer part of the event.")
    if registration.is_walk_in:
        text += " " + _("Their claim code stops working.")
    return text


def _remove(
    *, actor: Any, tournament: Tournament, registration: Registration, reason: str = ""
) -> Registration:
    if registration.status not in ACTIVE_STATUSES:
        raise ServiceError(_("This registration is not active."), field="registration")
    if tournament.status in (EventStatus.RUNNING, EventStatus.TOP_CUT):
        raise ServiceError(
            _("The event is running: drop the player instead, so their results stay."),
            field="registration",
        )
    return _leave(
        actor=actor,
        tournament=tournament,
        registration=registration,
        status=RegistrationStatus.REMOVED,
        action="registration.removed",
        reason=reason,
    )


def _leave(
    *,
    actor: Any,
    tournament: Tournament,
    registration: Registration,
    status: RegistrationStatus,
    action: str,
    **data: Any,
) -> Registration:
    """The registration gives up its place (or waitlist spot); the waitlist moves up."""
    was = registration.status
    registration.status = status
    registration.queued_at = None
    registration.checked_in_at = None
    registration.save()
    audit(
        tournament=tournament,
        actor=actor,
        action=action,
        registration=registration,
        was=was,
        **data,
    )
    _promote_waitlist(tournament, actor=actor)
    return registration


@atomic
def registration_reactivate(*, actor: Any, registration: Registration) -> Registration:
    """An organiser adds back a withdrawn or removed registration (capacity permitting)."""
    tournament, registration = _locked_registration(registration)
    permissions.require_organiser(actor, tournament)
    if registration.status in ACTIVE_STATUSES:
        raise ServiceError(_("This registration is already active."), field="registration")
    _enter(registration, tournament)
    registration.save()
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.reactivated",
        registration=registration,
        status=registration.status,
    )
    return registration


def _promote_waitlist(tournament: Tournament, *, actor: Any) -> list[Registration]:
    """Fill free places from the waitlist, in a lottery's draw order, then first in first
    promoted. Caller holds the lock."""
    if tournament.status not in (EventStatus.REGISTRATION_OPEN, EventStatus.REGISTRATION_CLOSED):
        return []
    promoted = []
    waiting = (
        for_update(Registration.objects)
        .filter(tournament=tournament, status=RegistrationStatus.WAITLISTED)
        .order_by(*WAITLIST_ORDER)
    )
    free = (
        None if tournament.capacity is None else tournament.capacity - registered_count(tournament)
    )
    for registration in waiting:
        if free is not None and free <= 0:
            break
        registration.status = RegistrationStatus.REGISTERED
        registration.queued_at = None
        registration.save(update_fields=["status", "queued_at", "updated_at"])
        audit(
            tournament=tournament,
            actor=actor,
            action="registration.promoted",
            registration=registration,
        )
        promoted.append(registration)
        if free is not None:
            free -= 1
    return promoted


@atomic
def registration_add_walk_in(
    *, actor: Any, tournament: Tournament, name: str, over_capacity: bool = False
) -> Registration:
    """An organiser adds a person who has no account; an account can claim it later."""
    tournament = event_locked(tournament)
    permissions.require_organiser(actor, tournament)
    check_name("name", name)
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("name: a walk-in needs a name."), field="name")
    if len(name) > 80:
        raise ServiceError(_("name: at most 80 characters."), field="name")
    refusal = players_refusal(tournament.status)
    if refusal is not None:
        raise ServiceError(
            _("tournament: walk-ins join only while the event takes players. %(why)s")
            % {"why": refusal.render(_)},
            field="tournament",
            code=refusal.code,
        )
    if not over_capacity and not has_room(tournament):
        raise ServiceError(
            _("capacity: the event is full. Confirm to add the walk-in over capacity."),
            field="capacity",
            code="full",
        )
    registration = Registration.objects.create(
        tournament=tournament,
        walk_in_name=name,
        claim_code=new_claim_code(),
        status=RegistrationStatus.REGISTERED,
    )
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.walk_in_added",
        registration=registration,
        name=name,
        over_capacity=over_capacity,
    )
    return registration


def new_claim_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(8))


@atomic
def registration_claim(*, actor: Any, claim_code: str) -> Registration:
    """A walk-in with an account now links the registration the organiser made for them."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Log in to claim a registration."))
    code = "".join(claim_code.split()).upper()
    unclaimed = Registration.objects.filter(claim_code=code, player__isnull=True)
    found = unclaimed.select_related("tournament").first()
    # The site's lock order: the event first, then the registration, re-read under its lock
    # (another account may have claimed it, or an organiser removed it, meanwhile).
    tournament = event_locked(found.tournament) if found is not None else None
    registration = for_update(unclaimed).filter(pk=found.pk).first() if found else None
    if tournament is None or registration is None:
        raise ServiceError(
            _("claim_code: no unclaimed registration has this code."), field="claim_code"
        )
    registration.tournament = tournament
    if registration.status not in ACTIVE_STATUSES:
        raise Conflict(
            _(
                "claim_code: this registration is no longer in the event (an organiser removed "
                "it); ask an organiser to add it back."
            ),
            field="claim_code",
            code="registration_inactive",
        )
    if permissions.is_judge_of(actor, tournament) and not permissions.is_organiser_of(
        actor, tournament
    ):
        raise Forbidden(
            _("claim_code: a judge of this event cannot claim a walk-in's registration."),
            field="claim_code",
        )
    if Registration.objects.filter(tournament=tournament, player=actor).exists():
        raise ServiceError(
            _("claim_code: you already have a registration for this event."), field="claim_code"
        )
    registration.player = actor
    registration.claim_code = None
    registration.save()
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.claimed",
        registration=registration,
        walk_in_name=registration.walk_in_name,
    )
    return registration


@atomic
def registration_check_in(
    *, actor: Any, registration: Registration, checked_in: bool = True
) -> Registration:
    """Organisers (and judges, when allowed) check anyone in or out; players check
    themselves in once it is opened."""
    tournament, registration = _locked_registration(registration)
    return _check_in(actor, tournament, registration, checked_in)


def _check_in(
    actor: Any, tournament: Tournament, registration: Registration, checked_in: bool
) -> Registration:
    """The caller holds the event and registration locks."""
    if not permissions.can_run_check_in(actor, tournament):
        if not permissions.is_own_registration(actor, registration):
            raise Forbidden(_("You can only check yourself in."))
        if not tournament.player_check_in_open:
            raise ServiceError(
                _("Check-in from phones is not open yet; see the organiser."),
                field="checked_in",
                code="check_in_closed",
            )
        if not checked_in:
            raise Forbidden(_("Only an organiser can undo a check-in."))
    if registration.status != RegistrationStatus.REGISTERED:
        raise ServiceError(
            _("Only registered players can check in (not waitlisted or withdrawn)."),
            field="registration",
        )
    if tournament.status_enum not in ON_THE_DAY:
        raise ServiceError(_("Check-in is over for this event."), field="checked_in")
    if checked_in == registration.checked_in:
        return registration
    if (
        checked_in
        and tournament.require_legal_decklist
        and not decklists().has_legal_decklist(registration)
    ):
        raise ServiceError(
            _("A legal decklist is needed to check in: submit or fix the list first."),
            field="decklist",
            code="decklist_required",
        )
    registration.checked_in_at = timezone.now() if checked_in else None
    registration.save(update_fields=["checked_in_at", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.checked_in" if checked_in else "registration.check_in_undone",
        registration=registration,
    )
    return registration


MAX_BULK_CHECK_IN = 200


@dataclass(frozen=True)
class BulkCheckIn:
    checked_in: list[Registration]
    skipped: list[tuple[Registration, str]]


@atomic
def registrations_check_in(
    *, actor: Any, tournament: Tournament, registration_ids: Sequence[int]
) -> BulkCheckIn:
    """Check several players in at once (the desk's "check in selected"). Who cannot be
    checked in (waitlisted, no legal decklist, ...) is skipped with the reason; the others
    are checked in, all in one transaction."""
    ids = sorted({int(i) for i in registration_ids})
    if not ids:
        raise ServiceError(_("registrations: choose at least one player."), field="registrations")
    if len(ids) > MAX_BULK_CHECK_IN:
        raise ServiceError(
            _("registrations: at most %(n)d at a time.") % {"n": MAX_BULK_CHECK_IN},
            field="registrations",
        )
    tournament = event_locked(tournament)
    if not permissions.can_run_check_in(actor, tournament):
        raise Forbidden(_("Only this event's organisers (and judges, when allowed) check in."))
    locked = list(
        for_update(tournament.registrations.all())
        .select_related("player")
        .filter(pk__in=ids)
        .order_by("id")
    )
    if len(locked) != len(ids):
        raise ServiceError(
            _("registrations: not all of these are registrations of this event."),
            field="registrations",
        )
    done: list[Registration] = []
    skipped: list[tuple[Registration, str]] = []
    for registration in locked:
        registration.tournament = tournament
        if registration.checked_in:
            continue
        try:
            with transaction.atomic():
                done.append(_check_in(actor, tournament, registration, True))
        except ServiceError as exc:
            skipped.append((registration, exc.message))
    return BulkCheckIn(checked_in=done, skipped=skipped)


def desk_search(tournament: Tournament, query: str) -> QuerySet[Registration]:
    """The check-in desk's search: a name (any part), a player id (as people type it), or a
    table number of the event's latest round."""
    registrations = tournament.registrations.order_by("player__display_name", "walk_in_name", "id")
    query = query.strip()
    if not query:
        return registrations
    match = (
        Q(player__display_name__icontains=query)
        | Q(player__username__icontains=query)
        | Q(walk_in_name__icontains=query)
        | Q(player__player_id=normalise_player_id(query))
    )
    if query.isdigit() and len(query) <= 5:
        latest = tournament.rounds.order_by("-number").values_list("pk", flat=True).first()
        if latest is not None:
            at_table = Q(matches_as_a__round_id=latest, matches_as_a__table=int(query)) | Q(
                matches_as_b__round_id=latest, matches_as_b__table=int(query)
            )
            match |= at_table
    return registrations.filter(match).distinct()


def player_id_candidates(code: str) -> set[str]:
    """The player ids a scanned or typed code may name (as people type them, or inside a QR
    code's text); empty for a blank code."""
    text = (code or "").strip()[:200]
    if not text:
        return set()
    candidates = {normalise_player_id(part) for part in re.split(r"[\s/:=?&#]+", text) if part}
    candidates.add(normalise_player_id(text))
    return candidates


def find_for_check_in(tournament: Tournament, code: str) -> Registration | None:
    """The registration a scanned or typed code names: a player id (as people type it, or
    inside a QR code's text) or a walk-in's claim code; None when it names nobody here."""
    text = (code or "").strip()[:200]
    if not text:
        return None
    candidates = player_id_candidates(text)
    registrations = tournament.registrations.select_related("player")
    found = registrations.filter(player__player_id__in=candidates).first()
    if found is None:
        found = registrations.filter(claim_code__in={text.upper(), text}).first()
    return found


@atomic
def registration_check_in_by_code(*, actor: Any, tournament: Tournament, code: str) -> Registration:
    """The check-in desk's scanner: a player's id or QR code checks them in."""
    registration = find_for_check_in(tournament, code)
    if registration is None:
        if not permissions.can_run_check_in(actor, tournament):
            raise Forbidden(_("Only this event's organisers (and judges, when allowed) check in."))
        raise ServiceError(
            _("code: nobody in this event has the player id or claim code %(code)s.")
            % {"code": (code or "").strip()[:40]},
            field="code",
            code="unknown_code",
        )
    tournament, registration = _locked_registration(registration)
    return _check_in(actor, tournament, registration, True)


@atomic
def registration_drop(
    *, actor: Any, registration: Registration, round_number: int | None = None
) -> Registration:
    """Leave a running event: no more pairings, results so far stay in the standings."""
    tournament, registration = _locked_registration(registration)
    if not (
        permissions.is_own_registration(actor, registration)
        or permissions.is_organiser_of(actor, tournament)
    ):
        raise Forbidden(_("You can only drop yourself."))
    if tournament.status not in (EventStatus.RUNNING, EventStatus.TOP_CUT):
        raise ServiceError(
            _("Players drop only while the event runs; before that, withdraw."),
            field="registration",
        )
    if registration.status != RegistrationStatus.REGISTERED:
        raise ServiceError(_("This player is not in the event."), field="registration")
    if registration.dropped:
        raise ServiceError(_("This player has already dropped."), field="registration")
    registration.dropped_at = timezone.now()
    registration.drop_round = round_number
    registration.save(update_fields=["dropped_at", "drop_round", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.dropped",
        registration=registration,
        round=round_number,
    )
    player_dropped.send(sender=Registration, registration=registration)
    return registration


@atomic
def registration_reinstate(*, actor: Any, registration: Registration) -> Registration:
    tournament, registration = _locked_registration(registration)
    permissions.require_organiser(actor, tournament)
    if not registration.dropped:
        raise ServiceError(_("This player has not dropped."), field="registration")
    registration.dropped_at = None
    registration.drop_round = None
    registration.save(update_fields=["dropped_at", "drop_round", "updated_at"])
    audit(
        tournament=tournament,
        actor=actor,
        action="registration.reinstated",
        registration=registration,
    )
    return registration


# --- teams (docs/teams.md) -----------------------------------------------------------------

TEAM_FORMING_STATUSES = (
    EventStatus.DRAFT,
    EventStatus.REGISTRATION_OPEN,
    EventStatus.REGISTRATION_CLOSED,
)


def _team_rules(tournament: Tournament) -> teams.TeamRules:
    rules = tournament.team_rules_value
    if rules is None:
        raise ServiceError(_("team: this event is not played by teams."), field="team")
    return rules


def _require_teams_forming(tournament: Tournament) -> None:
    if tournament.status not in TEAM_FORMING_STATUSES:
        raise Conflict(
            _("status: teams are formed before the event runs."),
            field="status",
            code="not_forming",
        )


def _ids(value: Any, field: str) -> list[int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) > teams.MAX_ROSTER
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v < 2**63 for v in value)
    ):
        raise ServiceError(
            _("%(field)s: a list of registration ids.") % {"field": field}, field=field
        )
    return list(value)


def _team_value(team: Team, members: Sequence[int], head_coach: int | None) -> teams.Team:
    return teams.Team(
        id=str(team.pk) if team.pk else "new",
        name=team.name,
        members=tuple(str(m) for m in members),
        head_coach=str(head_coach) if head_coach is not None else None,
    )


def _check_roster(
    tournament: Tournament,
    rules: teams.TeamRules,
    team: Team,
    members: list[int],
    head_coach: int | None,
) -> None:
    """The roster against the event (the contract's 400 naming `members`): registrations of
    this event, registered, in no other team, `players` to `roster_max` of them, the Head
    Coach one of them."""
    found = {
        r.pk: r
        for r in Registration.objects.filter(pk__in=members).only("pk", "tournament_id", "status")
    }
    for member in members:
        registration = found.get(member)
        if registration is None or registration.tournament_id != tournament.pk:
            raise ServiceError(
                _("members: %(id)d is not a registration of this event.") % {"id": member},
                field="members",
            )
        if registration.status != RegistrationStatus.REGISTERED:
            raise ServiceError(
                _("members: %(id)d is not registered (waitlisted or withdrawn).") % {"id": member},
                field="members",
            )
    taken = (
        TeamMember.objects.filter(registration_id__in=members)
        .exclude(team_id=team.pk)
        .select_related("team")
        .order_by("registration_id")
        .first()
    )
    if taken is not None:
        raise ServiceError(
            _("members: %(id)d is already in team %(team)s.")
            % {"id": taken.registration_id, "team": taken.team.name},
            field="members",
        )
    try:
        teams.validate_team(_team_value(team, members, head_coach), rules.team)
    except teams.TeamError as exc:
        raise ServiceError(str(exc), field=exc.field) from None


def _may_form_team(actor: Any, tournament: Tournament, members: Sequence[int]) -> None:
    """Organisers, or a registered player of the event naming themselves among the members
    (the captain)."""
    if permissions.is_organiser_of(actor, tournament):
        return
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Sign in to form a team."))
    own = Registration.objects.filter(
        tournament=tournament, player=actor, status=RegistrationStatus.REGISTERED
    ).values_list("pk", flat=True)
    if not set(own) & set(members):
        raise Forbidden(_("Name yourself among the members, or ask an organiser."))


def _save_roster(team: Team, members: list[int]) -> None:
    TeamMember.objects.filter(team=team).exclude(registration_id__in=members).delete()
    present = set(TeamMember.objects.filter(team=team).values_list("registration_id", flat=True))
    try:
        with transaction.atomic():
            TeamMember.objects.bulk_create(
                [TeamMember(team=team, registration_id=m) for m in members if m not in present]
            )
    except IntegrityError:
        # Another team took one of them at the same moment (the unique constraint).
        raise ServiceError(
            _("members: one of them has just joined another team."), field="members"
        ) from None


def team_create(
    *,
    actor: Any,
    tournament: Tournament,
    name: str,
    members: Any,
    head_coach: int | None = None,
) -> Team:
    """Form a team (event-structures: Teams): organisers, or a registered player naming
    themselves among the members (the captain). Before the event runs; the roster checked
    against the event's team configuration (400 naming `members` or `head_coach`)."""
    with transaction.atomic():
        tournament = event_locked(tournament)
        member_ids = _ids(members, "members")
        _may_form_team(actor, tournament, member_ids)
        rules = _team_rules(tournament)
        _require_teams_forming(tournament)
        name = " ".join(str(name or "").split())
        check_name("name", name)
        if not name or len(name) > 80:
            raise ServiceError(_("name: a team name of 1 to 80 characters."), field="name")
        if tournament.teams.filter(name__iexact=name).exists():
            raise ServiceError(_("name: a team of this event already has this name."), field="name")
        team = Team(tournament=tournament, name=name, head_coach_id=head_coach, created_by=None)
        _check_roster(tournament, rules, team, member_ids, head_coach)
        team.created_by = actor if permissions.is_authenticated(actor) else None
        team.save()
        _save_roster(team, member_ids)
        audit(
            tournament=tournament,
            actor=actor,
            action="team.created",
            target=team,
            name=name,
            members=member_ids,
            head_coach=head_coach,
        )
        return team


def _locked_team(team: Team) -> tuple[Tournament, Team]:
    tournament = event_locked(team.tournament)
    return tournament, for_update(Team.objects).get(pk=team.pk)


def is_team_member(actor: Any, team: Team) -> bool:
    return (
        permissions.is_authenticated(actor)
        and TeamMember.objects.filter(team=team, registration__player=actor).exists()
    )


def team_update(
    *,
    actor: Any,
    team: Team,
    name: str | None = None,
    members: Any = None,
    head_coach: int | None = None,
) -> Team:
    """Edit a team before the event runs: its organisers or a member (the captain) change its
    name, roster or Head Coach; the roster is checked as on creation."""
    with transaction.atomic():
        tournament, team = _locked_team(team)
        if not (permissions.is_organiser_of(actor, tournament) or is_team_member(actor, team)):
            raise Forbidden(_("Only the team's members and the organisers may change it."))
        rules = _team_rules(tournament)
        _require_teams_forming(tournament)
        before = {
            "name": team.name,
            "members": sorted(team.members.values_list("registration_id", flat=True)),
            "head_coach": team.head_coach_id,
        }
        if name is not None:
            name = " ".join(str(name).split())
            check_name("name", name)
            if not name or len(name) > 80:
                raise ServiceError(_("name: a team name of 1 to 80 characters."), field="name")
            if tournament.teams.filter(name__iexact=name).exclude(pk=team.pk).exists():
                raise ServiceError(
                    _("name: a team of this event already has this name."), field="name"
                )
            team.name = name
        member_ids = _ids(members, "members") if members is not None else before["members"]
        coach = head_coach if head_coach is not None else team.head_coach_id
        if coach not in member_ids:
            coach = None if not rules.team.head_coach else coach
        _check_roster(tournament, rules, team, member_ids, coach)
        team.head_coach_id = coach
        team.save()
        _save_roster(team, member_ids)
        audit(
            tournament=tournament,
            actor=actor,
            action="team.updated",
            target=team,
            before=before,
            after={"name": team.name, "members": sorted(member_ids), "head_coach": coach},
        )
        return team


def team_delete(*, actor: Any, team: Team) -> None:
    """Organisers dissolve a team before the event runs."""
    with transaction.atomic():
        tournament, team = _locked_team(team)
        permissions.require_organiser(actor, tournament)
        _require_teams_forming(tournament)
        audit(tournament=tournament, actor=actor, action="team.deleted", name=team.name)
        team.delete()


def team_role_format(registration: Registration) -> str:
    """The format a registration's deck is checked against: its role's in a team event (the
    Head Coach's may differ, tournaments.teams.RoleFormats), the event's otherwise."""
    tournament = registration.tournament
    rules = tournament.team_rules_value if tournament.team is not None else None
    if rules is None:
        return tournament.format_key
    coach = Team.objects.filter(tournament=tournament, head_coach=registration).exists()
    return rules.formats.format_for("head_coach" if coach else "player")
