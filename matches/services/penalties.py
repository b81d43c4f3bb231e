"""Penalties: the suggested penalty for an infraction, giving one (and what it does to the
match), a player's history and the event's log.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from config.csvfile import csv_text
from config.errors import Conflict, Forbidden, ServiceError
from config.locks import for_update
from engine import penalties as catalogue
from engine.games import get_game
from matches import notices
from matches.models import (
    Match,
    MatchStatus,
    Penalty,
    Round,
    RoundStage,
)
from matches.services.history import stage_games_to_win
from matches.services.locks import _lock_event, _lock_for_result, _match_result
from matches.services.result_checks import _checked, games_text
from matches.services.results import _staff_result
from tournaments import permissions, teams
from tournaments.audit import audit
from tournaments.models import (
    Registration,
    Tournament,
)
from tournaments.services import registration_drop
from tournaments.status import EventStatus

MAX_PENALTY_NOTE = 2000


PENALTY_CSV_COLUMNS = (
    "id",
    "created_at",
    "round",
    "table",
    "registration",
    "player",
    "player_id",
    "category",
    "infraction",
    "infraction_label",
    "penalty",
    "suggested",
    "repeat",
    "applied_to_result",
    "outcome",
    "judge",
    "note",
)


def _penalty_queryset() -> Any:
    return Penalty.objects.select_related(
        "tournament", "match__round", "registration__player", "judge"
    )


def penalty_suggestion(*, registration: Registration, infraction: str) -> Any:
    """The catalogue's suggestion for this infraction to this player in this event (upgraded
    when the same infraction was already given to them here)."""
    earlier = Penalty.objects.filter(
        tournament_id=registration.tournament_id,
        registration_id=registration.pk,
        infraction=infraction,
    ).values_list("penalty", flat=True)
    try:
        return catalogue.suggest(infraction, list(earlier))
    except catalogue.PenaltyError as exc:
        raise ServiceError(f"{exc.field}: {exc.message}", field=exc.field) from None


def _penalty_result(
    *,
    actor: Any,
    tournament: Tournament,
    round_: Round,
    match: Match,
    side: str,
    kind: str,
    label: str,
) -> tuple[bool, str]:
    """Apply a game or match loss to the match's result; (changed, what happened)."""

    if match.b_id is None:
        return False, _("A bye has no result to change.")
    # The match's own structure: its stage's (a best-of-1 Swiss before a best-of-3 top 8),
    # a team event's deciding game one game.
    games_to_win = (
        teams.DECIDER_GAMES_TO_WIN
        if match.is_decider
        else stage_games_to_win(tournament, round_.stage_number)
    )
    final = match.status == MatchStatus.FINAL
    if kind == catalogue.GAME_LOSS:
        if not final:
            return False, _(
                "No final result yet: the players report the result with this game lost."
            )
        new = catalogue.after_game_loss(
            match.games,
            side,
            games_to_win=games_to_win,
            draws_allowed=round_.stage != RoundStage.TOP_CUT,
        )
        rules = get_game(tournament.game).match_rules()
        details = (
            catalogue.details_after(match.game_details, match.games, new, rules.unplayed_game)
            if new
            else None
        )
    else:
        new = catalogue.after_match_loss(
            match.games if final else None, side, games_to_win=games_to_win
        )
        details = None
    if new is None:
        return False, _("The result stands: the player had already lost this match.")
    games = _checked(tournament, round_, list(new))
    before = match.games if final else None
    version = match.result_version
    reason = _("Penalty: %(penalty)s (%(infraction)s)") % {
        "penalty": catalogue.PENALTY_LABELS[kind].lower(),
        "infraction": label,
    }
    _staff_result(actor, tournament, round_, match, games, reason, details)
    if match.result_version == version:
        return False, _("The result already was %(r)s.") % {"r": games_text(games)}
    was = games_text(before) if before else _("no result")
    return True, _("Result %(before)s → %(after)s.") % {
        "before": was,
        "after": games_text(games),
    }


def penalty_give(
    *,
    actor: Any,
    match: Match,
    registration: Registration | int,
    infraction: str,
    penalty: str | None = None,
    note: str = "",
) -> Any:
    """A judge or organiser of the event penalises a player of this match.

    One transaction, locks in the site's order (event, registration, round, match). The
    penalty defaults to the catalogue's suggestion (upgraded when the infraction repeats in
    this event). A game or match loss changes the result (see the section comment), a
    disqualification also drops the player; everything is audited.
    """
    try:
        found = catalogue.infraction(infraction)
        if penalty not in (None, ""):
            catalogue.check_penalty(penalty)
    except catalogue.PenaltyError as exc:
        raise ServiceError(f"{exc.field}: {exc.message}", field=exc.field) from None
    note = (note or "").strip()
    if len(note) > MAX_PENALTY_NOTE:
        raise ServiceError(
            _("note: at most %(n)d characters.") % {"n": MAX_PENALTY_NOTE}, field="note"
        )
    registration_id = registration if isinstance(registration, int) else registration.pk
    with transaction.atomic():
        tournament = _lock_event(match.round.tournament_id)
        permissions.require_staff(actor, tournament)
        locked_registration = (
            for_update(Registration.objects)
            .filter(pk=registration_id, tournament=tournament)
            .first()
        )
        round_, match = _lock_for_result(match)
        round_.tournament = tournament
        if locked_registration is None or match.side_of(locked_registration.pk) is None:
            raise ServiceError(
                _("registration: this player does not play in this match."),
                field="registration",
            )
        if not round_.is_visible_to_players:
            raise Conflict(_("round: publish the round before giving penalties."), field="round")
        suggestion = penalty_suggestion(registration=locked_registration, infraction=found.key)
        kind = penalty or suggestion.penalty
        if kind == catalogue.DISQUALIFICATION and not permissions.is_organiser_of(
            actor, tournament
        ):
            raise Forbidden(_("Only this event's organisers may disqualify a player."))
        side = match.side_of(locked_registration.pk)
        assert side is not None
        before = _match_result(match)
        applied, outcome = False, ""
        if kind in catalogue.RESULT_PENALTIES:
            applied, outcome = _penalty_result(
                actor=actor,
                tournament=tournament,
                round_=round_,
                match=match,
                side=side,
                kind=catalogue.MATCH_LOSS if kind == catalogue.DISQUALIFICATION else kind,
                label=found.label,
            )
        dropped = False
        if kind == catalogue.DISQUALIFICATION:
            if locked_registration.dropped:
                outcome = f"{outcome} {_('The player had already dropped.')}".strip()
            elif tournament.status not in (EventStatus.RUNNING, EventStatus.TOP_CUT):
                outcome = f"{outcome} {_('Not dropped: the event is not running.')}".strip()
            else:
                registration_drop(
                    actor=actor, registration=locked_registration, round_number=round_.number
                )
                dropped = True
                outcome = f"{outcome} {_('The player is dropped from the event.')}".strip()
        given = Penalty.objects.create(
            tournament=tournament,
            match=match,
            registration=locked_registration,
            infraction=found.key,
            category=found.category,
            penalty=kind,
            suggested=suggestion.penalty,
            repeat=suggestion.repeats,
            note=note,
            judge=actor if permissions.is_authenticated(actor) else None,
            applied_to_result=applied,
            outcome=outcome[:300],
        )
        notices.notify_player_disqualified(given)
        audit(
            tournament=tournament,
            actor=actor,
            action="penalty.given",
            target=given,
            registration=locked_registration,
            round=round_.number,
            table=match.table,
            match=match.pk,
            infraction=found.key,
            category=found.category,
            penalty=kind,
            suggested=suggestion.penalty,
            repeat=suggestion.repeats,
            note=note,
            applied_to_result=applied,
            dropped=dropped,
            before=before,
            after=_match_result(match),
            outcome=given.outcome,
        )
    return given


def penalties_of_event(tournament: Tournament) -> Any:
    """The event's penalty log, oldest first."""
    return _penalty_queryset().filter(tournament=tournament).order_by("created_at", "id")


def penalty_history(registration: Registration, viewer: Any = None) -> Any:
    """This player's penalties across events, newest first: by their account when the
    registration has one, else (a walk-in) this registration's own. With ``viewer``, only the
    events the viewer judges or organises (a site administrator: every event): a judge sees a
    player's history across the events they judge in, and nothing more."""
    qs = _penalty_queryset()
    if registration.player_id is not None:
        qs = qs.filter(registration__player_id=registration.player_id)
    else:
        qs = qs.filter(registration_id=registration.pk)
    if viewer is not None and not getattr(viewer, "is_superuser", False):
        judged = Tournament.judges.through.objects.filter(user_id=viewer.pk)
        organised = Tournament.organisers.through.objects.filter(user_id=viewer.pk)
        qs = qs.filter(
            Q(tournament_id__in=judged.values("tournament_id"))
            | Q(tournament_id__in=organised.values("tournament_id"))
        )
    return qs.order_by("-created_at", "-id")


def repeated_infractions(registration: Registration) -> dict[str, Any]:
    """For each infraction this player already received in this event, what a repeat would
    be suggested: {key: Suggestion} (only infractions given before, so each is an upgrade)."""
    keys = (
        Penalty.objects.filter(
            tournament_id=registration.tournament_id, registration_id=registration.pk
        )
        .values_list("infraction", flat=True)
        .distinct()
    )
    out: dict[str, Any] = {}
    for key in sorted(set(keys)):
        try:
            out[key] = penalty_suggestion(registration=registration, infraction=key)
        except ServiceError:
            continue  # a key no longer in the catalogue
    return out


def penalty_log_csv(tournament: Tournament) -> str:
    """The event's penalty log as CSV (one header line, one line per penalty)."""
    rows = []
    for p in penalties_of_event(tournament):
        player = p.registration.player
        rows.append(
            (
                p.pk,
                p.created_at.isoformat(),
                p.match.round.number,
                p.match.table,
                p.registration_id,
                p.registration.name,
                player.player_id if player is not None else "",
                p.category,
                p.infraction,
                p.infraction_label,
                p.penalty,
                p.suggested,
                p.repeat,
                "yes" if p.applied_to_result else "no",
                p.outcome,
                p.judge.public_name if p.judge_id else "",
                p.note,
            )
        )
    return csv_text(PENALTY_CSV_COLUMNS, rows)
