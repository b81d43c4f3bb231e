"""Results: player reports and confirmations, staff results and corrections, each a new
ResultVersion with an audit entry; lone reports confirmed after the event's delay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, NotFound, ServiceError
from config.locks import for_update
from engine.games import (
    get_game,
)
from matches import notices
from matches.models import (
    CallKind,
    Match,
    MatchStatus,
    Report,
    ResultChange,
    Round,
    RoundStage,
    RoundStatus,
)
from matches.services import teams as team_services
from matches.services.calls import _open_or_join_call, _settle_result_calls
from matches.services.history import _winner
from matches.services.locks import (
    _lock_for_result,
    _match_result,
    _record_version,
    _round_shown_changed,
)
from matches.services.result_checks import (
    _checked,
    _checked_details,
    acting_side,
    details_input,
    games_text,
)
from matches.services.round_end import _finish_round_if_done
from matches.signals import result_changed
from tournaments import permissions, results
from tournaments.audit import audit
from tournaments.models import (
    Registration,
    Tournament,
)
from tournaments.timer import RoundTimer


def _set_result(
    match: Match, games: results.Games, game_details: list[dict[str, Any]] | None = None
) -> None:
    match.games_a, match.games_b, match.games_drawn = games
    match.game_details = game_details


def match_report(
    *,
    actor: Any,
    match: Match,
    games: Sequence[Any],
    battles: Any = None,
    game_details: Any = None,
    reason: str = "",
    confirm_override: bool = False,
) -> Match:
    """A player reports (the opponent confirms or disputes); staff enter a final result.

    Sending the same report again changes nothing. Staff changing a final result is a
    correction and must say why; it changes standings and later pairings, never a round in
    progress. `game_details` (per game, what the event's game records of it; `battles`: the
    event API's name for BoBA's trophies, mapped through the game) is checked by the game's
    MatchRules; two reports with the same games but different details are a
    dispute. Staff entering a result other than a player's report still waiting for the
    opponent's confirmation must say they mean it (`confirm_override`; else a 409
    `OverridesReport` naming the field). A staff result settles the match's open dispute
    (`_settle_result_calls`).
    """
    with transaction.atomic():
        round_, match = _lock_for_result(match)
        tournament = round_.tournament
        side = acting_side(actor, match)
        if side is None and not permissions.is_staff_of(actor, tournament):
            if permissions.is_authenticated(actor) and round_.is_visible_to_players:
                raise_forbidden = True
            else:
                raise_forbidden = False
            if raise_forbidden:
                raise Forbidden(_("You do not play in this match."))
            raise NotFound(_("match: no such match."), field="match")
        if match.b_id is None:
            raise ServiceError(_("match: a bye has no result to report."), field="match")
        if round_.status in (RoundStatus.PAIRING, RoundStatus.PAIRED):
            if side is not None and not permissions.is_staff_of(actor, tournament):
                raise NotFound(_("match: no such match."), field="match")
            raise Conflict(_("round: publish the round before entering results."), field="round")
        checked_games = _checked(tournament, round_, games, match)
        given = details_input(tournament, battles, game_details)
        details = _checked_details(tournament, match, checked_games, given, side)
        if side is not None:
            updated = _player_report(actor, match, side, checked_games, details)
        else:
            if not confirm_override:
                _refuse_silent_override(match, checked_games, details)
            updated = _staff_result(
                actor, tournament, round_, match, checked_games, reason, details
            )
    return updated


class OverridesReport(Conflict):
    """Staff entered a result other than a player's report that waits for the opponent's
    confirmation: a 409 naming ``confirm_override``, with the pending report, so the page can
    say whose report it is and ask once more."""

    def __init__(self, report: Report, games: results.Games) -> None:
        self.reporter = report.registration.name
        self.reported = tuple(report.games)
        self.entered = tuple(games)
        super().__init__(
            _(
                "confirm_override: %(name)s reported %(theirs)s, still waiting for the "
                "opponent's confirmation; entering %(ours)s overrides that report. Confirm to "
                "enter it anyway."
            )
            % {
                "name": self.reporter,
                "theirs": games_text(self.reported),
                "ours": games_text(self.entered),
            },
            field="confirm_override",
            code="overrides_report",
        )

    def as_dict(self) -> dict[str, object]:
        return {
            **super().as_dict(),
            "pending_report": {"by": self.reporter, "games": list(self.reported)},
        }


def _refuse_silent_override(
    match: Match, games: results.Games, details: list[dict[str, Any]] | None
) -> None:
    """A staff entry may not quietly replace a player's different report that waits for
    confirmation: the player was told it would be confirmed or disputed, not overwritten."""
    if match.status != MatchStatus.REPORTED:
        return
    report = match.reports.select_related("registration__player").first()
    if report is None:
        return
    if tuple(report.games) != tuple(games) or (
        details is not None and report.game_details not in (None, details)
    ):
        raise OverridesReport(report, games)


def _player_report(
    actor: Any,
    match: Match,
    side: str,
    games: results.Games,
    game_details: list[dict[str, Any]] | None = None,
) -> Match:
    round_ = match.round
    # Reports are stored as the match sees them (a's games first), whoever sent them.
    registration_id = match.a_id if side == "a" else match.b_id
    if match.status == MatchStatus.FINAL:
        own = (
            Report.objects.filter(match=match, registration_id=registration_id)
            .values_list("game_details", flat=True)
            .first()
        )
        if match.games == games and game_details in (None, own, match.game_details):
            return match  # the same result again: nothing to do
        raise Conflict(
            _("games: this match's result is final; call a judge to change it."),
            field="games",
            code="result_final",
        )
    if round_.status == RoundStatus.FINISHED:
        raise Conflict(_("round: the round is over; ask a judge."), field="round")
    existing = {r.registration_id: r for r in for_update(match.reports.order_by("id"))}
    mine = existing.get(registration_id)
    if mine is not None and mine.games == games and mine.game_details == game_details:
        return match  # a double tap
    before = _match_result(match)
    if mine is None:
        try:
            with transaction.atomic():
                mine = Report.objects.create(
                    match=match,
                    registration_id=registration_id,
                    games_a=games[0],
                    games_b=games[1],
                    games_drawn=games[2],
                    game_details=game_details,
                )
        except IntegrityError:
            raise Conflict(_("games: you already reported this match."), field="games") from None
    else:
        mine.games_a, mine.games_b, mine.games_drawn = games
        mine.game_details = game_details
        mine.save()
    theirs = next((r for pk, r in existing.items() if pk != registration_id), None)
    agreed = _agreed_details(match, side, game_details, theirs)
    if theirs is None:
        match.status = MatchStatus.REPORTED
        _set_result(match, games, game_details)
        change = ResultChange.REPORTED
    elif theirs.games == games and agreed is not False:
        match.status = MatchStatus.FINAL
        _set_result(match, games, agreed if isinstance(agreed, list) else None)
        change = ResultChange.CONFIRMED
    else:
        match.status = MatchStatus.DISPUTED
        match.games_a = match.games_b = match.games_drawn = None
        match.game_details = None
        change = ResultChange.DISPUTED
        # Disputes join the judges' queue, beside the calls.
        _open_or_join_call(
            match,
            kind=CallKind.DISPUTE,
            actor=actor,
            question=_("The players reported different results."),
        )
    _save_result_change(
        match, change=change, actor=actor, before=before, registration=mine.registration
    )
    notices.notify_result_to_confirm(match)
    return match


def _agreed_details(
    match: Match, side: str, mine: list[dict[str, Any]] | None, theirs: Report | None
) -> list[dict[str, Any]] | bool | None:
    """The match's details from both reports (the game's MatchRules.agree), None when neither
    has any, False when they disagree. Details one side left out are no disagreement: the
    other side's stand; a game whose details cannot dispute (BoBA's trophies) keeps the
    confirming report's."""
    if theirs is None:
        return mine
    other = theirs.game_details
    if mine is None or other is None:
        return mine if mine is not None else other
    rules = get_game(match.round.tournament.game).match_rules()
    if not rules.details_can_dispute:
        return mine  # the confirming report's details stand
    details_a, details_b = (mine, other) if side == "a" else (other, mine)
    agreed = rules.agree(details_a, details_b)
    return agreed.to_json() if agreed is not None else False


def _save_result_change(
    match: Match,
    *,
    change: str,
    actor: Any,
    before: dict[str, Any],
    reason: str = "",
    registration: Registration | None = None,
) -> None:
    """Keep the new version, save the match, audit it, and finish the round if that was its
    last result. The caller holds the round and match locks."""
    round_ = match.round
    version = _record_version(match, change=change, actor=actor, before=before, reason=reason)
    match.save()
    if match.team_match_id is not None:
        # A board's result moves its team match (and may pair the decider) before the
        # round's "was that the last result?" check below.
        team_services.team_match_refresh(match, actor)
    _round_shown_changed(round_)
    audit(
        tournament=round_.tournament,
        actor=actor,
        action=f"match.{change}",
        target=match,
        registration=registration,
        round=round_.number,
        table=match.table,
        before=version.before,
        after=version.after,
        reason=reason,
    )
    result_changed.send(sender=Match, match=match)
    if match.status == MatchStatus.FINAL:
        _finish_round_if_done(round_)


def _staff_result(
    actor: Any,
    tournament: Tournament,
    round_: Round,
    match: Match,
    games: results.Games,
    reason: str,
    game_details: list[dict[str, Any]] | None = None,
    change: str | None = None,
    settle_calls: bool = True,
) -> Match:
    """Staff make the result final: an entry, a correction (with its reason), a ruling's, a
    penalty's or the match clock's. Every path settles the match's open dispute here
    (`settle_calls`), except a ruling, which resolves its own call."""
    reason = " ".join((reason or "").split())[:500]
    if game_details is None and match.games == games:
        # Not given and the games unchanged: the recorded details still hold.
        game_details = match.game_details
    if (
        match.status == MatchStatus.FINAL
        and match.games == games
        and match.game_details == game_details
    ):
        return match
    correcting = match.status == MatchStatus.FINAL
    if correcting and not reason:
        raise ServiceError(
            _("reason: say why this final result is being corrected."), field="reason"
        )
    if correcting and round_.stage == RoundStage.TOP_CUT:
        old_winner = _winner(match)
        new_winner = str(match.b_id) if results.outcome(games) == "b" else str(match.a_id)
        later = tournament.rounds.filter(number__gt=round_.number).exists()
        if later and old_winner != new_winner:
            raise Conflict(
                _(
                    "games: the next bracket round is already paired with this winner; "
                    "delete it first."
                ),
                field="games",
            )
    before = _match_result(match)
    match.status = MatchStatus.FINAL
    _set_result(match, games, game_details)
    if change is None:
        change = ResultChange.CORRECTED if correcting else ResultChange.ENTERED
    _save_result_change(match, change=change, actor=actor, before=before, reason=reason)
    if settle_calls:
        _settle_result_calls(match, actor, change)
    if correcting:
        _refresh_later_rounds(round_)
    return match


def _refresh_later_rounds(round_: Round) -> None:
    """A correction changes the records the later rounds' pairings show (each player's record
    going into the round): their cached copies are keyed by round version, so the later
    rounds get a new one. After commit and in a statement of its own, so no round row is
    locked after the match rows this transaction holds (the lock order of
    config/locks.py)."""
    tournament_id, number = round_.tournament_id, round_.number

    def bump() -> None:
        Round.objects.filter(tournament_id=tournament_id, number__gt=number).update(
            version=F("version") + 1,
            content_version=F("content_version") + 1,
            changed_at=timezone.now(),
        )

    transaction.on_commit(bump)


def match_result_record(
    *,
    actor: Any,
    match: Match,
    game_details: Any = None,
    games: Sequence[Any] | None = None,
    battles: Any = None,
    reason: str = "",
    on_time: bool = False,
) -> Match:
    """Record a final result with its per-game details, as staff or as the match clock.

    `games` default to the winners counted in `game_details` (`[won by a, won by b, 0]`).
    Staff (on_time False): an entry, or a correction with its reason, as `match_report` by
    staff. The match clock (on_time True): a loss on time (ResultChange.TIME) decided by the
    clock's event log; the caller (matches.clock_services) has checked that a player's time
    ran out, so no staff check is made here; when every game was started on the clock with its
    bids, it passes `game_details` built from the clock, the game lost on time with
    `"end": "time"` (else the games alone; docs/match-clock.md).
    Every change is a ResultVersion and an audit entry, as every result change."""
    if games is None:
        winners = (
            [g.get("winner") for g in game_details if isinstance(g, Mapping)]
            if isinstance(game_details, list | tuple)
            else []
        )
        games = [winners.count("a"), winners.count("b"), 0]
    with transaction.atomic():
        round_, match = _lock_for_result(match)
        tournament = round_.tournament
        if not on_time:
            permissions.require_staff(actor, tournament)
        if match.b_id is None:
            raise ServiceError(_("match: a bye has no result to report."), field="match")
        if round_.status in (RoundStatus.PAIRING, RoundStatus.PAIRED):
            raise Conflict(_("round: publish the round before entering results."), field="round")
        checked_games = _checked(tournament, round_, games, match)
        given = details_input(tournament, battles, game_details)
        details = _checked_details(tournament, match, checked_games, given)
        return _staff_result(
            actor,
            tournament,
            round_,
            match,
            checked_games,
            reason or (_("loss on time") if on_time else ""),
            details,
            change=ResultChange.TIME if on_time else None,
        )


def match_confirm(*, actor: Any, match: Match, expected_version: int | None = None) -> Match:
    """The opponent of the player who reported agrees: the result is final. Staff may accept
    a lone report the same way (the round panel's one tap); `expected_version` (the match's
    `result_version` the person saw) refuses to confirm a report changed since."""
    with transaction.atomic():
        round_, match = _lock_for_result(match)
        if expected_version is not None and match.result_version != expected_version:
            raise Conflict(
                _("match: the result changed since you looked at it; check it again."),
                field="match",
                code="result_changed",
            )
        side = acting_side(actor, match)
        if side is None:
            if permissions.is_staff_of(actor, round_.tournament) and match.status in (
                MatchStatus.REPORTED,
                MatchStatus.FINAL,
            ):
                side = "staff"
            elif permissions.is_authenticated(actor) and round_.is_visible_to_players:
                raise Forbidden(_("You do not play in this match."))
            else:
                raise NotFound(_("match: no such match."), field="match")
        if not round_.is_visible_to_players:
            raise NotFound(_("match: no such match."), field="match")
        if match.status == MatchStatus.FINAL:
            return match  # confirming twice changes nothing
        if match.status != MatchStatus.REPORTED:
            raise ServiceError(
                _("match: there is no single report to confirm (status %(s)s).")
                % {"s": match.status},
                field="match",
                code="nothing_to_confirm",
            )
        report = match.reports.select_related("registration").get()
        own_id = match.a_id if side == "a" else match.b_id if side == "b" else None
        if report.registration_id == own_id:
            raise ServiceError(
                _("match: your opponent confirms your report, not you."),
                field="match",
                code="own_report",
            )
        if side in ("a", "b"):
            _player_report(actor, match, side, report.games, report.game_details)
        else:
            _confirm_lone_report(match, report, actor, ResultChange.CONFIRMED)
    match.refresh_from_db()
    return match


def _confirm_lone_report(match: Match, report: Report, actor: Any, change: str) -> None:
    before = _match_result(match)
    match.status = MatchStatus.FINAL
    _set_result(match, report.games, report.game_details)
    if actor is None:
        reason = _("the opponent did not answer in time")
    else:
        reason = _("staff accepted the report of %(name)s") % {"name": report.registration.name}
    _save_result_change(match, change=change, actor=actor, before=before, reason=reason)


def auto_confirm_due(now: datetime | None = None) -> int:
    """Confirm lone reports in rounds that ended at least the event's N minutes ago."""
    now = now or timezone.now()
    confirmed = 0
    rounds = Round.objects.filter(
        status=RoundStatus.PUBLISHED, tournament__auto_confirm_minutes__isnull=False
    ).select_related("tournament")
    for round_ in rounds:
        ends_at = RoundTimer.from_json(round_.timer).ends_at
        minutes = round_.tournament.auto_confirm_minutes or 0
        if ends_at is None or now < ends_at + timedelta(minutes=minutes):
            continue
        for match_id in round_.matches.filter(status=MatchStatus.REPORTED).values_list(
            "pk", flat=True
        ):
            with transaction.atomic():
                _round, match = _lock_for_result(
                    Match.objects.select_related("round").get(pk=match_id)
                )
                table_end = ends_at + timedelta(minutes=minutes + match.extension_minutes)
                if match.status != MatchStatus.REPORTED or now < table_end:
                    continue
                report = match.reports.get()
                _confirm_lone_report(match, report, None, ResultChange.AUTO_CONFIRMED)
                confirmed += 1
    return confirmed
