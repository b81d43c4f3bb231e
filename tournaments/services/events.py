"""Use cases for an event itself: create it, change its fields, move it through its statuses,
open player check-in, assign judges and organisers. Each takes the event's row lock and
records an AuditEntry for every change."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.validators import check_name
from config.errors import Forbidden, ServiceError
from config.locks import for_update
from config.transactions import atomic
from engine.games import default_game
from tournaments import permissions, teams
from tournaments import stages as stage_rules
from tournaments.audit import audit
from tournaments.extensions import player_dropped
from tournaments.lottery_rules import check_lottery_may_change, commit_lottery_seed
from tournaments.models import Registration, RegistrationStatus, Tournament, default_clock_mode
from tournaments.selectors import event_facts, registration_counts
from tournaments.services.locks import event_locked
from tournaments.services.registrations import promote_waitlist
from tournaments.services.stages import (
    finish_running_stages,
    has_legacy_stages,
    parse_event_stages,
    regenerate_legacy_stages,
    replace_stages,
    start_first_stages,
    write_stages,
)
from tournaments.status import EventStatus, players_refusal, transition_refusal

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
    write_stages(tournament, rules)
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
        replace_stages(actor, tournament, rules, why="stages")
    elif legacy and "top_cut_size" in changes:
        regenerate_legacy_stages(tournament)
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
    promote_waitlist(tournament, actor=actor)
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
