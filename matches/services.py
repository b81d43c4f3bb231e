"""Use cases for running the rounds: pairing, review, publishing, the timer, results, top cut.

The only code that writes rounds, matches, reports and result versions. Each public function
takes keyword-only arguments, checks who may act and in what state, runs in one transaction,
calls the pure cores (tournaments.swiss, standings, topcut, results, timer) and appends an
AuditEntry for every change.

Row locks are always taken in this order (docs/architecture.md), so two requests never wait on
each other in a cycle: event, then registration, then round, then match. Result reports lock
only their round and match: the round lock serialises the "was that the last result?" check,
so a round finishes exactly once.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, NotFound, ServiceError
from config.locks import for_update
from config.transactions import atomic
from engine import penalties as catalogue
from engine.games import Replayer, get_game
from matches import notices
from matches.models import (
    OPEN_CALL_STATUSES,
    CallKind,
    CallStatus,
    JudgeCall,
    Match,
    MatchStatus,
    Report,
    ResultChange,
    ResultVersion,
    Round,
    RoundStage,
    RoundStatus,
    Ruling,
    RulingDecision,
    StandingsSnapshot,
)
from tournaments import permissions, results, swiss, topcut
from tournaments.audit import audit
from tournaments.models import (
    FirstRoundPairing,
    LateEntryPolicy,
    Registration,
    RegistrationStatus,
    Tournament,
)
from tournaments.standings import MatchRecord, Player, compute_standings
from tournaments.status import EventStatus
from tournaments.tasks import schedule_round_archive
from tournaments.timer import RoundTimer, TimerError

# Above this many players a round is paired in a Celery task with a progress bar.
PAIR_IN_TASK_ABOVE = 256
MAX_EXTENSION_MINUTES = 60
MAX_ADDED_MINUTES = 240


# --- locks and small helpers ----------------------------------------------------------------


def _lock_event(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return for_update(Tournament.objects).get(pk=pk)


def _lock_round(round_: Round | int) -> Round:
    pk = round_ if isinstance(round_, int) else round_.pk
    try:
        return for_update(Round.objects).select_related("tournament").get(pk=pk)
    except Round.DoesNotExist:
        raise NotFound(_("round: this round no longer exists."), field="round") from None


def _lock_for_result(match: Match) -> tuple[Round, Match]:
    """Lock what a result change may write, in the site's order: the event too when the
    result can finish a bracket (and so the event), then the round, then the match."""
    if match.round.stage == RoundStage.TOP_CUT:
        _lock_event(match.round.tournament_id)
    round_ = _lock_round(match.round_id)
    locked = _lock_match(match.pk)
    locked.round = round_
    return round_, locked


def _lock_match(match: Match | int) -> Match:
    pk = match if isinstance(match, int) else match.pk
    return for_update(Match.objects).select_related("round__tournament").get(pk=pk)


def _bump_round(round_: Round) -> None:
    """Who sits where changed: a new cache key for the round's rendered pairings (and a new
    version of everything that shows the round)."""
    Round.objects.filter(pk=round_.pk).update(
        version=F("version") + 1,
        content_version=F("content_version") + 1,
        changed_at=timezone.now(),
    )
    round_.refresh_from_db(fields=["version", "content_version", "changed_at"])


def _round_shown_changed(round_: Round | int) -> None:
    """What the round shows changed (a result, an extension, its timer or status): a new
    version of its published copies (config.published). The caller holds the round's lock
    (the counter is in the round's row, so this adds no lock and no waiting)."""
    pk = round_ if isinstance(round_, int) else round_.pk
    Round.objects.filter(pk=pk).update(
        content_version=F("content_version") + 1, changed_at=timezone.now()
    )


def _structure_games_to_win(tournament: Tournament) -> int:
    structure = tournament.structure
    return structure.games_to_win if structure is not None else 1


def _result_dict(
    games: Sequence[int] | None, battles: Any = None, game_details: Any = None
) -> dict[str, Any]:
    if games is None:
        return {}
    out: dict[str, Any] = {"games": list(games)}
    if battles is not None:
        out["battles"] = [list(g) for g in battles]
    if game_details is not None:
        out["game_details"] = game_details
    return out


def _match_result(match: Match) -> dict[str, Any]:
    out = _result_dict(match.games, match.battles, match.game_details)
    if out:
        out["status"] = match.status
    return out or {"status": match.status}


def _record_version(
    match: Match, *, change: str, actor: Any, before: dict[str, Any], reason: str = ""
) -> ResultVersion:
    match.result_version += 1
    return ResultVersion.objects.create(
        match=match,
        number=match.result_version,
        change=change,
        actor=actor if permissions.is_authenticated(actor) else None,
        before=before,
        after=_match_result(match),
        reason=reason,
    )


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


# --- the bridge to the pure cores ------------------------------------------------------------


@dataclass(frozen=True)
class SwissHistory:
    """An event's Swiss rounds as the pure cores take them, ids as strings."""

    players: tuple[Player, ...]
    rounds: tuple[tuple[MatchRecord, ...], ...]
    registrations: dict[int, Registration]


def _record(a: int, b: int | None, games: tuple[int, int, int] | None, battles: Any) -> MatchRecord:
    """A final match as the pure cores take it (a bye when ``b`` is None)."""
    if b is None:
        return MatchRecord(a=str(a), b=None, result="a")
    games = games or (0, 0, 0)
    return MatchRecord(
        a=str(a),
        b=str(b),
        result=results.outcome(games),
        games=games,
        battles=results.trophy_totals(battles),
    )


def _player(registration: Registration, tournament: Tournament) -> Player:
    return Player(
        id=str(registration.pk),
        dropped=registration.dropped,
        late_entry_round=registration.late_entry_round or 1,
        fixed_table=registration.fixed_table,
        # Round 1 top half against bottom half only when the event pairs it by seed.
        seeding=registration.seed
        if tournament.first_round_pairing == FirstRoundPairing.SEEDED
        else None,
        bye_rounds=tuple(int(r) for r in registration.bye_rounds or ()),
        late_entry_losses=tournament.late_entry_policy == LateEntryPolicy.LOSS
        and (registration.late_entry_round or 1) > 1,
    )


# What pairing reads of a registration (_player; the event, which a related manager sets on
# what it loads): the rest, and the account, only cost time when 8,192 of them are loaded.
_PAIRING_FIELDS = (
    "id",
    "tournament",
    "dropped_at",
    "late_entry_round",
    "fixed_table",
    "seed",
    "bye_rounds",
)


def swiss_history(
    tournament: Tournament,
    *,
    upto: int | None = None,
    extra: Sequence[Registration] = (),
    for_pairing: bool = False,
) -> SwissHistory:
    """The finished Swiss rounds (up to round ``upto``) and everyone who played in them.

    ``extra`` registrations (those about to be paired) join the players. One query for the
    matches, one for the registrations. ``for_pairing``: ``extra`` are the
    :func:`pairing_candidates`, and the registrations carry only what pairing reads (no
    account, so no names): the same players, loaded faster.
    """
    rounds_qs = tournament.rounds.filter(stage=RoundStage.SWISS, status=RoundStatus.FINISHED)
    if upto is not None:
        rounds_qs = rounds_qs.filter(number__lte=upto)
    numbers = list(rounds_qs.order_by("number").values_list("number", flat=True))
    # Plain tuples, not model instances: 8,000 matches of a large event load in milliseconds.
    rows = (
        Match.objects.filter(round__tournament=tournament, round__number__in=numbers)
        .order_by("round__number", "table", "id")
        .values_list(
            "round__number", "a_id", "b_id", "games_a", "games_b", "games_drawn", "battles"
        )
    )
    by_round: dict[int, list[MatchRecord]] = {n: [] for n in numbers}
    ids: set[int] = {r.pk for r in extra}
    for number, a, b, games_a, games_b, drawn, battles in rows:
        games = (games_a, games_b, drawn or 0) if games_a is not None else None
        by_round[number].append(_record(a, b, games, battles))
        ids.add(a)
        if b is not None:
            ids.add(b)
    if for_pairing:
        # The players about to be paired were just loaded (pairing_candidates), with what
        # pairing reads: only those who played before and are not paired now are missing.
        registrations = {r.pk: r for r in extra}
        missing = ids - registrations.keys()
        if missing:
            people = Registration.objects.filter(pk__in=missing).only(*_PAIRING_FIELDS)
            registrations.update((r.pk, r) for r in people)
    else:
        people = Registration.objects.filter(pk__in=ids).select_related("player")
        registrations = {r.pk: r for r in people}
    players = tuple(_player(registrations[pk], tournament) for pk in sorted(registrations))
    return SwissHistory(players, tuple(tuple(by_round[n]) for n in numbers), registrations)


def _pairable(tournament: Tournament) -> QuerySet[Registration]:
    qs = tournament.registrations.filter(
        status=RegistrationStatus.REGISTERED, dropped_at__isnull=True
    )
    if qs.filter(checked_in_at__isnull=False).exists():
        qs = qs.filter(checked_in_at__isnull=False)
    return qs


def pairable_registrations(tournament: Tournament) -> list[Registration]:
    """Who is paired next: registered, not dropped; once anyone checked in, only those."""
    return list(_pairable(tournament).select_related("player"))


def pairing_candidates(tournament: Tournament) -> list[Registration]:
    """:func:`pairable_registrations` with only what pairing reads of them (no account)."""
    return list(_pairable(tournament).only(*_PAIRING_FIELDS))


def bye_games(tournament: Tournament) -> results.Games:
    """A bye is worth the games a match win of the event's structure needs: 1-0 in best of
    1, 2-0 in best of 3 (rules README decision 11), so it never inflates game-win %."""
    return (_structure_games_to_win(tournament), 0, 0)


def scoring(tournament: Tournament) -> swiss.Scoring:
    """The event's scoring: standard match points, a bye worth its structure's match win."""
    won, lost, _drawn = bye_games(tournament)
    return swiss.Scoring(bye_games=(won, lost))


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


# --- pairing a round ------------------------------------------------------------------------


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
        try:
            with transaction.atomic():
                round_ = Round.objects.create(
                    tournament=tournament,
                    number=number,
                    stage=stage,
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
        from config.outbox import send_after_commit
        from matches.tasks import pair_round_task

        send_after_commit(pair_round_task, round_.pk)
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
            if round_.stage == RoundStage.TOP_CUT:
                _pair_bracket_round(tournament, round_)
            else:
                _pair_swiss_round(tournament, round_)
            round_.status = RoundStatus.PAIRED
            round_.pairing_error = ""
            round_.save(update_fields=["status", "pairing_error", "pairing_stats"])
            _round_shown_changed(round_)
            _progress(round_id, 100)
            return round_
    except (swiss.StateError, topcut.BracketError, ServiceError) as exc:
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
    from dataclasses import replace

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


def _winner(match: Match) -> str:
    games = match.games or (0, 0, 0)
    return str(match.b_id) if results.outcome(games) == "b" else str(match.a_id)


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


# --- review before publishing ---------------------------------------------------------------


def _require_unpublished(round_: Round) -> None:
    if round_.status != RoundStatus.PAIRED:
        raise Conflict(
            _("Round %(n)d is %(status)s: only a paired, unpublished round can be changed.")
            % {"n": round_.number, "status": round_.get_status_display()},
            field="round",
            code="round_published",
        )


@dataclass(frozen=True)
class RoundCheck:
    ok: bool
    name: str
    detail: str


def round_checks(round_: Round) -> list[RoundCheck]:
    """What the organiser checks before publishing: nobody twice, nobody dropped, byes
    honoured, rematches."""
    matches = list(round_.matches.select_related("a", "b"))
    seen: dict[int, int] = {}
    twice = []
    dropped = []
    for m in matches:
        for reg in (m.a, m.b):
            if reg is None:
                continue
            if reg.pk in seen:
                twice.append(reg.name)
            seen[reg.pk] = m.pk
            if reg.dropped:
                dropped.append(reg.name)
    granted = [
        r
        for r in round_.tournament.registrations.filter(
            status=RegistrationStatus.REGISTERED, dropped_at__isnull=True
        )
        if round_.number in (r.bye_rounds or [])
    ]
    unhonoured = [
        r.name for r in granted if not any(m.a_id == r.pk and m.b_id is None for m in matches)
    ]
    rematches = [m for m in matches if "rematch:" in m.reason]
    checks = [
        RoundCheck(not twice, _("Nobody twice"), ", ".join(twice) or _("every player once")),
        RoundCheck(not dropped, _("Nobody dropped"), ", ".join(dropped) or _("no dropped player")),
        RoundCheck(
            not unhonoured,
            _("Byes honoured"),
            ", ".join(unhonoured)
            or (
                _("%(n)d granted byes given") % {"n": len(granted)}
                if granted
                else _("none granted")
            ),
        ),
    ]
    if round_.stage == RoundStage.SWISS:
        checks.append(
            RoundCheck(
                not rematches,
                _("No rematches"),
                ", ".join(f"{m.a.name} v {m.b.name if m.b else '-'}" for m in rematches)
                or _("no rematch"),
            )
        )
    return checks


@atomic
def round_swap(*, actor: Any, round_: Round, first: int, second: int) -> Round:
    """Swap two players' seats in an unpublished round (a bye moves with its seat)."""
    tournament = _lock_event(round_.tournament)
    permissions.require_organiser(actor, tournament)
    round_ = _lock_round(round_)
    _require_unpublished(round_)
    if first == second:
        raise ServiceError(_("second: choose two different players."), field="second")
    seats: dict[int, tuple[Match, str]] = {}
    for m in for_update(round_.matches.all()).order_by("id"):
        for side in ("a", "b"):
            reg_id = getattr(m, f"{side}_id")
            if reg_id in (first, second):
                seats[reg_id] = (m, side)
    for field, reg_id in (("first", first), ("second", second)):
        if reg_id not in seats:
            raise ServiceError(
                _("%(field)s: this player is not in round %(n)d.")
                % {"field": field, "n": round_.number},
                field=field,
            )
    (m1, s1), (m2, s2) = seats[first], seats[second]
    if m1.pk == m2.pk:
        raise ServiceError(_("second: these two already play each other."), field="second")
    # Move both out of the way first: (round, a) and (round, b) are unique.
    Match.objects.filter(pk__in=[m1.pk, m2.pk]).delete()
    setattr(m1, f"{s1}_id", second)
    setattr(m2, f"{s2}_id", first)
    for m in (m1, m2):
        m.pk = None
        m.reason = _("swapped by an organiser")
        if m.b_id is None:
            m.result_version = 0
        m.save()
        if m.b_id is None:
            _versions_for_byes([m])
    _bump_round(round_)
    audit(
        tournament=tournament,
        actor=actor,
        action="round.swapped",
        target=round_,
        round=round_.number,
        first=first,
        second=second,
    )
    return round_


@atomic
def round_set_table(*, actor: Any, match: Match, table: int) -> Match:
    """Move a match to a table; the match already there takes this one's table."""
    round_ = match.round
    tournament = _lock_event(round_.tournament)
    permissions.require_organiser(actor, tournament)
    round_ = _lock_round(round_)
    _require_unpublished(round_)
    if table < 1 or table > 100_000:
        raise ServiceError(_("table: a table number from 1."), field="table")
    match = _lock_match(match)
    if match.b_id is None:
        raise ServiceError(_("table: a bye has no table."), field="table")
    other = for_update(round_.matches.filter(table=table)).exclude(pk=match.pk).first()
    old = match.table
    if other is not None:
        other.table = None
        other.save(update_fields=["table"])
    match.table = table
    match.save(update_fields=["table"])
    if other is not None:
        other.table = old
        other.save(update_fields=["table"])
    _bump_round(round_)
    audit(
        tournament=tournament,
        actor=actor,
        action="round.table_set",
        target=match,
        round=round_.number,
        table=table,
        was=old,
    )
    return match


def round_repair(*, actor: Any, round_: Round) -> Round:
    """Throw away an unpublished round's pairings and pair it again with a fresh draw."""
    with transaction.atomic():
        tournament = _lock_event(round_.tournament)
        permissions.require_organiser(actor, tournament)
        round_ = _lock_round(round_)
        if round_.status not in (RoundStatus.PAIRED, RoundStatus.PAIRING):
            _require_unpublished(round_)
        round_.matches.all().delete()
        round_.status = RoundStatus.PAIRING
        round_.seed = f"{tournament.pairing_seed}:{round_.number}:{secrets.token_hex(4)}"
        round_.save(update_fields=["status", "seed"])
        audit(
            tournament=tournament,
            actor=actor,
            action="round.repaired",
            target=round_,
            round=round_.number,
        )
    round_pairing_run(round_id=round_.pk)
    _bump_round(round_)
    round_.refresh_from_db()
    return round_


@atomic
def round_delete(*, actor: Any, round_: Round, confirm: bool = False) -> None:
    """Delete an unpublished round (its pairings are lost). Needs an explicit confirmation."""
    tournament = _lock_event(round_.tournament)
    permissions.require_organiser(actor, tournament)
    round_ = _lock_round(round_)
    if round_.status not in (RoundStatus.PAIRED, RoundStatus.PAIRING):
        _require_unpublished(round_)
    if not confirm:
        raise ServiceError(
            _("confirm: deleting round %(n)d throws away its %(count)d pairings; confirm to go on.")
            % {"n": round_.number, "count": round_.matches.count()},
            field="confirm",
            code="confirmation_required",
        )
    number = round_.number
    count = round_.matches.count()
    round_.delete()
    if (
        round_.stage == RoundStage.TOP_CUT
        and not tournament.rounds.filter(stage=RoundStage.TOP_CUT).exists()
    ):
        # The whole bracket is gone: back to the Swiss part.
        tournament.status = EventStatus.RUNNING
        tournament.save(update_fields=["status", "updated_at"])
    audit(tournament=tournament, actor=actor, action="round.deleted", round=number, matches=count)


@atomic
def round_publish(*, actor: Any, round_: Round) -> Round:
    tournament = _lock_event(round_.tournament)
    permissions.require_organiser(actor, tournament)
    round_ = _lock_round(round_)
    if round_.status in (RoundStatus.PUBLISHED, RoundStatus.FINISHED):
        return round_  # publishing twice changes nothing
    if round_.status != RoundStatus.PAIRED:
        raise Conflict(_("round: the round is still being paired."), field="round")
    now = timezone.now()
    round_.status = RoundStatus.PUBLISHED
    round_.published_at = now
    fields = ["status", "published_at"]
    if tournament.start_timer_on_publish:
        timer = RoundTimer.from_json(round_.timer)
        if timer.state == "not_started":
            round_.timer = timer.start(now).to_json()
            fields.append("timer")
    round_.save(update_fields=fields)
    _bump_round(round_)
    audit(
        tournament=tournament,
        actor=actor,
        action="round.published",
        target=round_,
        round=round_.number,
    )
    notices.notify_pairings_published(round_)
    _finish_round_if_done(round_)
    return round_


# --- the round timer ------------------------------------------------------------------------


TIMER_ACTIONS = ("start", "pause", "resume", "add")


@atomic
def round_timer(*, actor: Any, round_: Round, action: str, minutes: int = 0) -> Round:
    """Start, pause, resume, or add minutes to the whole round (staff)."""
    round_ = _lock_round(round_)
    permissions.require_staff(actor, round_.tournament)
    if action not in TIMER_ACTIONS:
        raise ServiceError(
            _("action: one of %(actions)s.") % {"actions": ", ".join(TIMER_ACTIONS)},
            field="action",
        )
    if round_.status not in (RoundStatus.PUBLISHED, RoundStatus.PAIRED):
        raise Conflict(_("round: only a current round has a running timer."), field="round")
    timer = RoundTimer.from_json(round_.timer)
    now = timezone.now()
    try:
        if action in ("start", "resume"):
            timer = timer.start(now)
        elif action == "pause":
            timer = timer.pause(now)
        else:
            if not -MAX_ADDED_MINUTES <= minutes <= MAX_ADDED_MINUTES or minutes == 0:
                raise ServiceError(
                    _("minutes: between -%(max)d and %(max)d, not 0.") % {"max": MAX_ADDED_MINUTES},
                    field="minutes",
                )
            timer = timer.add(timedelta(minutes=minutes))
    except TimerError as exc:
        raise ServiceError(
            exc.message, field=exc.field if exc.field != "timer" else "action", code="timer"
        ) from None
    round_.timer = timer.to_json()
    round_.save(update_fields=["timer"])
    _round_shown_changed(round_)
    audit(
        tournament=round_.tournament,
        actor=actor,
        action=f"round.timer_{action}",
        target=round_,
        round=round_.number,
        minutes=minutes,
    )
    return round_


@atomic
def match_extend(*, actor: Any, match: Match, minutes: int) -> Match:
    """A judge gives one table extra time (replaces its extension)."""
    round_ = _lock_round(match.round)
    permissions.require_staff(actor, round_.tournament)
    if not 0 <= minutes <= MAX_EXTENSION_MINUTES:
        raise ServiceError(
            _("minutes: from 0 to %(max)d.") % {"max": MAX_EXTENSION_MINUTES}, field="minutes"
        )
    match = _lock_match(match)
    was = match.extension_minutes
    match.extension_minutes = minutes
    match.save(update_fields=["extension_minutes", "updated_at"])
    _round_shown_changed(round_)
    audit(
        tournament=round_.tournament,
        actor=actor,
        action="match.extension",
        target=match,
        round=round_.number,
        table=match.table,
        minutes=minutes,
        was=was,
    )
    return match


# --- results --------------------------------------------------------------------------------


def _checked(
    tournament: Tournament, round_: Round, games: Any, battles: Any
) -> tuple[results.Games, results.Battles | None]:
    from engine.games import get_game

    game = get_game(tournament.game)
    try:
        return results.check_result(
            games,
            battles,
            games_to_win=_structure_games_to_win(tournament),
            battles_per_game=game.battles_per_game,
            draws_allowed=round_.stage != RoundStage.TOP_CUT,
            drawn_games_allowed=game.drawn_games,
            rules=results.DrawRules(game.bracket_decided_rule, game.no_drawn_game_rule),
        )
    except results.ResultError as exc:
        raise ServiceError(exc.message, field=exc.field) from None


def checked_result(
    tournament: Tournament, round_: Round, games: Any, battles: Any
) -> tuple[results.Games, results.Battles | None]:
    """A result as every report, staff entry and archive import checks it: possible in the
    event's match structure and game, in a bracket never level; ServiceError naming the field."""
    return _checked(tournament, round_, games, battles)


def tournament_battles_per_game(tournament: Tournament) -> int | None:
    from engine.games import get_game

    return get_game(tournament.game).battles_per_game


def _registered_deck(tournament: Tournament, registration: Registration | None) -> Any:
    """The player's registered (latest) list with the event's catalog and format, as the
    game's MatchRules reads it (engine.games.RegisteredDeck); None without a list."""
    from decks.catalog import catalog_for_event
    from decks.services import active_version, event_format
    from engine.games import RegisteredDeck

    version = active_version(registration) if registration is not None else None
    if version is None:
        return None
    return RegisteredDeck(version.data, catalog_for_event(tournament), event_format(tournament))


def _checked_details(
    tournament: Tournament,
    match: Match,
    games: results.Games,
    game_details: Any,
    reporter: str | None = None,
) -> list[dict[str, Any]] | None:
    """The per-game details of a result as the game's MatchRules cleans them (None: none
    given); a refusal is a 400 naming the field (`game_details[1].swaps.a[0]`). `reporter`:
    the reporting player's side (None: staff)."""
    if game_details is None:
        return None
    from engine.games import BEST_OF_ONE, GameDetailsError, ResultContext, get_game

    rules = get_game(tournament.game).match_rules()
    decks: dict[str, Any] = {}

    def deck(side: str) -> Any:
        if side not in decks:
            decks[side] = _registered_deck(tournament, match.a if side == "a" else match.b)
        return decks[side]

    context = ResultContext(
        games, tournament.structure or BEST_OF_ONE, deck=deck, reporter=reporter
    )
    try:
        return rules.clean_details(game_details, context).to_json()
    except GameDetailsError as exc:
        # The API keeps the field path; pages phrase the cause (matches.views.problem_text).
        raise ServiceError(f"{exc.field}: {exc.message}", field=exc.field) from exc


def _acting_side(actor: Any, match: Match) -> str | None:
    """'a' or 'b' when the actor plays in this match."""
    if not permissions.is_authenticated(actor):
        return None
    if match.a.player_id == actor.pk:
        return "a"
    if match.b is not None and match.b.player_id == actor.pk:
        return "b"
    return None


def _battles_json(battles: results.Battles | None) -> Any:
    return [list(g) for g in battles] if battles is not None else None


def _set_result(
    match: Match,
    games: results.Games,
    battles: results.Battles | None,
    game_details: list[dict[str, Any]] | None = None,
) -> None:
    match.games_a, match.games_b, match.games_drawn = games
    match.battles = _battles_json(battles)
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
    progress. `game_details` (per game, what the event's game records of it) is checked by
    the game's MatchRules; two reports with the same games but different details are a
    dispute. Staff entering a result other than a player's report still waiting for the
    opponent's confirmation must say they mean it (`confirm_override`; else a 409
    `OverridesReport` naming the field). A staff result settles the match's open dispute
    (`_settle_result_calls`).
    """
    with transaction.atomic():
        round_, match = _lock_for_result(match)
        tournament = round_.tournament
        side = _acting_side(actor, match)
        if side is None and not permissions.is_staff_of(actor, tournament):
            if permissions.is_authenticated(actor) and round_.is_visible_to_players:
                raise_forbidden = True
            else:
                raise_forbidden = False
            if raise_forbidden:
                from config.errors import Forbidden

                raise Forbidden(_("You do not play in this match."))
            raise NotFound(_("match: no such match."), field="match")
        if match.b_id is None:
            raise ServiceError(_("match: a bye has no result to report."), field="match")
        if round_.status in (RoundStatus.PAIRING, RoundStatus.PAIRED):
            if side is not None and not permissions.is_staff_of(actor, tournament):
                raise NotFound(_("match: no such match."), field="match")
            raise Conflict(_("round: publish the round before entering results."), field="round")
        checked_games, checked_battles = _checked(tournament, round_, games, battles)
        details = _checked_details(tournament, match, checked_games, game_details, side)
        if side is not None:
            updated = _player_report(actor, match, side, checked_games, checked_battles, details)
        else:
            if not confirm_override:
                _refuse_silent_override(match, checked_games, details)
            updated = _staff_result(
                actor, tournament, round_, match, checked_games, checked_battles, reason, details
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


def games_text(games: Sequence[int]) -> str:
    """A result as on a slip, a's games first: "2-1", "1-1-1"."""
    won_a, won_b, drawn = [*list(games), 0, 0, 0][:3]
    return f"{won_a}-{won_b}-{drawn}" if drawn else f"{won_a}-{won_b}"


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
    battles: results.Battles | None,
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
    battles_json = _battles_json(battles)
    if (
        mine is not None
        and mine.games == games
        and mine.battles == battles_json
        and mine.game_details == game_details
    ):
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
                    battles=battles_json,
                    game_details=game_details,
                )
        except IntegrityError:
            raise Conflict(_("games: you already reported this match."), field="games") from None
    else:
        mine.games_a, mine.games_b, mine.games_drawn = games
        mine.battles = battles_json
        mine.game_details = game_details
        mine.save()
    theirs = next((r for pk, r in existing.items() if pk != registration_id), None)
    agreed = _agreed_details(match, side, game_details, theirs)
    if theirs is None:
        match.status = MatchStatus.REPORTED
        _set_result(match, games, battles, game_details)
        change = ResultChange.REPORTED
    elif theirs.games == games and agreed is not False:
        match.status = MatchStatus.FINAL
        _set_result(
            match,
            games,
            battles if battles is not None else _tuple_battles(theirs),
            agreed if isinstance(agreed, list) else None,
        )
        change = ResultChange.CONFIRMED
    else:
        match.status = MatchStatus.DISPUTED
        match.games_a = match.games_b = match.games_drawn = None
        match.battles = None
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
    other side's stand."""
    if theirs is None:
        return mine
    other = theirs.game_details
    if mine is None or other is None:
        return mine if mine is not None else other
    from engine.games import get_game

    details_a, details_b = (mine, other) if side == "a" else (other, mine)
    agreed = get_game(match.round.tournament.game).match_rules().agree(details_a, details_b)
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
    if match.status == MatchStatus.FINAL:
        _finish_round_if_done(round_)


def _tuple_battles(report: Report) -> results.Battles | None:
    if report.battles is None:
        return None
    return tuple((int(g[0]), int(g[1])) for g in report.battles)


def _staff_result(
    actor: Any,
    tournament: Tournament,
    round_: Round,
    match: Match,
    games: results.Games,
    battles: results.Battles | None,
    reason: str,
    game_details: list[dict[str, Any]] | None = None,
    change: str | None = None,
    settle_calls: bool = True,
) -> Match:
    """Staff make the result final: an entry, a correction (with its reason), a ruling's, a
    penalty's or the match clock's. Every path settles the match's open dispute here
    (`settle_calls`), except a ruling, which resolves its own call."""
    reason = " ".join((reason or "").split())[:500]
    battles_json = _battles_json(battles)
    if game_details is None and match.games == games:
        # Not given and the games unchanged: the recorded details still hold.
        game_details = match.game_details
    if (
        match.status == MatchStatus.FINAL
        and match.games == games
        and match.battles == battles_json
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
    _set_result(match, games, battles, game_details)
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
    tournaments/locks.py)."""
    tournament_id, number = round_.tournament_id, round_.number

    def bump() -> None:
        Round.objects.filter(tournament_id=tournament_id, number__gt=number).update(
            version=F("version") + 1,
            content_version=F("content_version") + 1,
            changed_at=timezone.now(),
        )

    transaction.on_commit(bump)


def _settle_result_calls(match: Match, actor: Any, change: str) -> list[JudgeCall]:
    """The match's open call about its result is resolved by the final result staff just
    gave it: it leaves the judges' queue, with a note and an audit entry saying which result
    settled it. About the result: a dispute (or a call a dispute joined), or a call made once
    a result had been reported (the opponent of a pending report, a player asking to change a
    final one). A call made during play (a rules question) stays open. The caller holds the
    round and match locks; the call comes after them in the lock order."""
    calls = [
        call
        for call in for_update(JudgeCall.objects.select_related("tournament")).filter(
            match=match, status__in=OPEN_CALL_STATUSES
        )
        if call.kind == CallKind.DISPUTE
        or match.versions.filter(created_at__lte=call.opened_at).exists()
    ]
    if not calls:
        return []
    who = actor.public_name if permissions.is_authenticated(actor) else _("the site")
    result = games_text(match.games or (0, 0, 0))
    note = _("%(who)s: settled by the final result %(r)s (result version %(v)d).") % {
        "who": who,
        "r": result,
        "v": match.result_version,
    }
    now = timezone.now()
    for call in calls:
        call.status = CallStatus.RESOLVED
        call.resolved_at = now
        if call.holder_id is None and permissions.is_authenticated(actor):
            call.holder = actor
        call.notes = (call.notes + "\n" if call.notes else "") + note
        call.save(update_fields=["status", "resolved_at", "holder", "notes"])
        notices.notify_dispute_settled(call, match)
        _queue_changed(call, actor)
        audit(
            tournament=call.tournament,
            actor=actor,
            action="call.resolved_by_result",
            target=call,
            round=match.round.number,
            table=match.table,
            after=_match_result(match),
            change=change,
            result_version=match.result_version,
        )
    return calls


def calls_settle_final(*, actor: Any, tournament: Tournament) -> int:
    """Settle the event's open calls about a result that is already final (a dispute left in
    the queue before staff results settled it, as `_settle_result_calls` now does at once).
    Staff only; each match under its round and match locks, audited like any settlement.
    Returns how many calls were settled; a second run finds none."""
    permissions.require_staff(actor, tournament)
    match_ids = list(
        JudgeCall.objects.filter(
            tournament=tournament,
            status__in=OPEN_CALL_STATUSES,
            match__status=MatchStatus.FINAL,
        )
        .order_by("match_id")
        .values_list("match_id", flat=True)
        .distinct()
    )
    settled = 0
    for match_id in match_ids:
        with transaction.atomic():
            _round, match = _lock_for_result(Match.objects.select_related("round").get(pk=match_id))
            if match.status != MatchStatus.FINAL:
                continue
            latest = match.versions.order_by("-number").values_list("change", flat=True).first()
            settled += len(_settle_result_calls(match, actor, latest or ResultChange.ENTERED))
    return settled


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
            [g.get("winner") for g in game_details if isinstance(g, dict)]
            if isinstance(game_details, list)
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
        checked_games, checked_battles = _checked(tournament, round_, games, battles)
        details = _checked_details(tournament, match, checked_games, game_details)
        return _staff_result(
            actor,
            tournament,
            round_,
            match,
            checked_games,
            checked_battles,
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
        side = _acting_side(actor, match)
        if side is None:
            if permissions.is_staff_of(actor, round_.tournament) and match.status in (
                MatchStatus.REPORTED,
                MatchStatus.FINAL,
            ):
                side = "staff"
            elif permissions.is_authenticated(actor) and round_.is_visible_to_players:
                from config.errors import Forbidden

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
            _player_report(
                actor, match, side, report.games, _tuple_battles(report), report.game_details
            )
        else:
            _confirm_lone_report(match, report, actor, ResultChange.CONFIRMED)
    match.refresh_from_db()
    return match


def _confirm_lone_report(match: Match, report: Report, actor: Any, change: str) -> None:
    before = _match_result(match)
    match.status = MatchStatus.FINAL
    _set_result(match, report.games, _tuple_battles(report), report.game_details)
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


def _finish_round_if_done(round_: Round) -> None:
    """A published round whose every match is final finishes by itself. Caller holds the
    round lock, so two last results cannot both miss (or both see) the end."""
    if round_.status != RoundStatus.PUBLISHED:
        return
    if round_.matches.exclude(status=MatchStatus.FINAL).exists():
        return
    now = timezone.now()
    timer = RoundTimer.from_json(round_.timer)
    if timer.state == "running":
        round_.timer = timer.pause(now).to_json()
    round_.status = RoundStatus.FINISHED
    round_.finished_at = now
    round_.save(update_fields=["status", "finished_at", "timer"])
    _round_shown_changed(round_)
    tournament = round_.tournament
    audit(
        tournament=tournament,
        actor=None,
        action="round.finished",
        target=round_,
        round=round_.number,
    )
    schedule_round_archive(round_.pk)  # the event's archive as of this round, kept
    if round_.stage == RoundStage.TOP_CUT:
        final = round_.matches.count() == 1
        if final:
            _finish_event(tournament, round_)
    else:
        transaction.on_commit(lambda: _warm_standings(round_.pk))


def _finish_event(tournament: Tournament, final_round: Round) -> None:
    """The final's result finishes the event. The caller locked the event first
    (_lock_for_result), so this re-read takes no new lock out of order."""
    tournament = _lock_event(tournament)
    final = final_round.matches.select_related("a", "b").get()
    champion = final.b if results.outcome(final.games or (0, 0, 0)) == "b" else final.a
    if tournament.status == EventStatus.TOP_CUT:
        tournament.status = EventStatus.FINISHED
        tournament.save(update_fields=["status", "updated_at"])
    audit(
        tournament=tournament,
        actor=None,
        action="event.finished",
        target=tournament,
        champion=champion.pk if champion else None,
        champion_name=champion.name if champion else "",
    )


def champion_of(tournament: Tournament) -> Registration | None:
    final_round = (
        tournament.rounds.filter(stage=RoundStage.TOP_CUT, status=RoundStatus.FINISHED)
        .order_by("-number")
        .first()
    )
    if final_round is None:
        return None
    matches = list(final_round.matches.select_related("a__player", "b__player"))
    if len(matches) != 1:
        return None
    final = matches[0]
    return final.b if results.outcome(final.games or (0, 0, 0)) == "b" else final.a


def _warm_standings(round_id: int) -> None:
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is not None and round_.status == RoundStatus.FINISHED:
        standings_snapshot(round_.tournament, round_.number)


# --- standings ------------------------------------------------------------------------------


def standings_rows(tournament: Tournament, history: SwissHistory) -> list[dict[str, Any]]:
    """The pure core's standings as stored rows: the API's fields plus each breakdown.

    Percentages are not rounded: the event API promises the pure core's own numbers (pages
    round them for display). One pass per row and per line, no call per value: at 4,096
    players after 12 rounds this is 4,096 rows and about 44,000 lines.
    """
    rows = compute_standings(
        history.players, history.rounds, scoring(tournament), tournament.tiebreakers
    )
    names = {str(pk): r.name for pk, r in history.registrations.items()}
    registration_ids = {pid: int(pid) for pid in names}
    names_get, ids_get = names.get, registration_ids.get
    out = []
    for row in rows:
        out.append(
            {
                "rank": row.rank,
                "registration": int(row.player_id),
                "name": names_get(row.player_id, ""),
                "points": row.points,
                "record": row.record,
                "dropped": row.dropped,
                "tiebreakers": {name: value for name, value in row.tiebreakers if name != "h2h"},
                "byes": row.byes,
                "match_win_pct": row.match_win_pct,
                "rounds_played": row.rounds_played,
                "games": list(row.games),
                "trophies": list(row.trophies),
                "bye_rounds": list(row.bye_rounds),
                "opponents": [
                    {
                        "round": number,
                        "registration": ids_get(opponent) or int(opponent),
                        "name": names_get(opponent, ""),
                        "result": result,
                        "games": list(games),
                        "match_win_pct": match_win,
                        "game_win_pct": game_win,
                    }
                    for number, opponent, result, games, match_win, game_win in row.opponents
                ],
            }
        )
    return out


def last_finished_swiss_round(tournament: Tournament) -> Round | None:
    return (
        tournament.rounds.filter(stage=RoundStage.SWISS, status=RoundStatus.FINISHED)
        .order_by("-number")
        .first()
    )


RECORDS_CACHE_SECONDS = 6 * 3600


def records_before_round(round_: Round) -> dict[int, str]:
    """Each player's record going into `round_` ("wins-losses-draws", byes as wins), by
    registration id: the stored Swiss standings after the round before it; a bracket round
    adds the bracket rounds before it to the final Swiss standings. Players in no standings
    yet (round 1, a late entry) are "0-0-0" (absent here). A few queries whatever the event's
    size: the snapshot's rows, and the bracket's matches."""
    tournament = round_.tournament
    before = (
        tournament.rounds.filter(
            stage=RoundStage.SWISS, status=RoundStatus.FINISHED, number__lt=round_.number
        )
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    counts: dict[int, list[int]] = {}
    if before is not None:
        snapshot = standings_snapshot(tournament, before)
        # The rows (megabytes for 2,000 players) are decoded once per computed snapshot: the
        # round API and the pages ask again and again.
        key = f"records:{snapshot.pk}:{snapshot.source_version}:{snapshot.computed_at.timestamp()}"
        swiss: dict[int, str] | None = cache.get(key)
        if swiss is None:
            swiss = {int(row["registration"]): str(row["record"]) for row in snapshot.rows}
            cache.set(key, swiss, RECORDS_CACHE_SECONDS)
        for registration_id, record in swiss.items():
            counts[registration_id] = [int(n) for n in record.split("-")]
    if round_.stage == RoundStage.TOP_CUT:
        bracket = Match.objects.filter(
            round__tournament=tournament,
            round__stage=RoundStage.TOP_CUT,
            round__number__lt=round_.number,
            status=MatchStatus.FINAL,
        ).values_list("a_id", "b_id", "games_a", "games_b")
        for a, b, games_a, games_b in bracket:
            if b is None:
                counts.setdefault(a, [0, 0, 0])[0] += 1  # a bracket bye: a win
                continue
            for player, mine, theirs in ((a, games_a, games_b), (b, games_b, games_a)):
                tally = counts.setdefault(player, [0, 0, 0])
                tally[0 if mine > theirs else 1 if mine < theirs else 2] += 1
    return {pk: "-".join(str(n) for n in tally) for pk, tally in counts.items()}


def standings_snapshot(
    tournament: Tournament, round_number: int | None = None
) -> StandingsSnapshot:
    """The standings after a finished Swiss round (default: the latest), computed once and
    stored; recomputed only when a result of those rounds has changed since."""
    if round_number is None:
        round_ = last_finished_swiss_round(tournament)
    else:
        round_ = tournament.rounds.filter(
            number=round_number, stage=RoundStage.SWISS, status=RoundStatus.FINISHED
        ).first()
    if round_ is None:
        raise NotFound(
            _("round: no finished Swiss round %(n)s yet.") % {"n": round_number or ""},
            field="round",
        )
    # Read the version first: a correction landing while we compute leaves the snapshot
    # older than its data, so the next read computes again (never the other way round).
    source = _results_source_version(tournament, round_.number)
    # Rows stay unread until asked for: a cached page never decodes megabytes of JSON.
    snapshot = (
        StandingsSnapshot.objects.filter(round=round_).defer("rows").select_related("round").first()
    )
    if snapshot is not None and snapshot.source_version == source:
        return snapshot
    history = swiss_history(tournament, upto=round_.number)
    rows = standings_rows(tournament, history)
    snapshot, _created = StandingsSnapshot.objects.update_or_create(
        round=round_, defaults={"rows": rows, "source_version": source}
    )
    return snapshot


def _results_source_version(tournament: Tournament, upto: int) -> int:
    newest = ResultVersion.objects.filter(
        match__round__tournament=tournament,
        match__round__number__lte=upto,
        match__round__stage=RoundStage.SWISS,
    ).aggregate(newest=Max("id"))["newest"]
    return int(newest or 0)


def correction_preview(
    *,
    actor: Any,
    match: Match,
    games: Sequence[Any],
    battles: Any = None,
    game_details: Any = None,
    reason: str = "",
) -> dict[str, Any]:
    """What a correction would change in the standings, before it is applied (staff).
    Game details are checked (a 400 as the correction would give) but change no standings."""
    round_ = match.round
    tournament = round_.tournament
    permissions.require_staff(actor, tournament)
    checked_games, checked_battles = _checked(tournament, round_, games, battles)
    _checked_details(tournament, match, checked_games, game_details)
    if round_.stage != RoundStage.SWISS or round_.status != RoundStatus.FINISHED:
        return {"changes": [], "round": None, "note": _("Standings are not affected yet.")}
    last = last_finished_swiss_round(tournament)
    assert last is not None
    history = swiss_history(tournament, upto=last.number)
    before = standings_rows(tournament, history)
    replaced = list(history.rounds)
    idx = round_.number - 1
    target = (str(match.a_id), str(match.b_id))
    new_record = MatchRecord(
        a=target[0],
        b=target[1],
        result=results.outcome(checked_games),
        games=checked_games,
        battles=results.trophy_totals(checked_battles),
    )
    replaced[idx] = tuple(new_record if (m.a, m.b) == target else m for m in history.rounds[idx])
    after = standings_rows(
        tournament, SwissHistory(history.players, tuple(replaced), history.registrations)
    )
    old = {r["registration"]: r for r in before}
    changes = []
    for row in after:
        was = old[row["registration"]]
        if (was["rank"], was["points"], was["tiebreakers"]) != (
            row["rank"],
            row["points"],
            row["tiebreakers"],
        ):
            changes.append(
                {
                    "registration": row["registration"],
                    "name": row["name"],
                    "rank": [was["rank"], row["rank"]],
                    "points": [was["points"], row["points"]],
                    "tiebreakers": [was["tiebreakers"], row["tiebreakers"]],
                }
            )
    changes.sort(key=lambda c: c["rank"][1])
    return {"round": last.number, "changes": changes, "note": ""}


# --- top cut --------------------------------------------------------------------------------


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
        cut = cut_for(tournament)
        qualified = list(cut.qualified)
        if len(qualified) < 2:
            raise ServiceError(
                _("top_cut_size: too few players for a top cut."), field="top_cut_size"
            )
        bracket = topcut.seed_cut_bracket(qualified)
        round_ = Round.objects.create(
            tournament=tournament,
            number=last.number + 1,
            stage=RoundStage.TOP_CUT,
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


def cut_notes(tournament: Tournament, cut: topcut.CutResult) -> list[str]:
    names = {
        str(r.pk): r.name
        for r in Registration.objects.filter(
            pk__in=[int(p) for p in cut.qualified]
            + ([int(cut.line.below_id)] if cut.line else [])
            + [int(p) for p in cut.skipped_dropped]
        ).select_related("player")
    }
    return cut.notes(names)


def cut_calculator(tournament: Tournament) -> dict[str, Any]:
    """Before the last Swiss rounds: what a win, a draw or a loss does for each player's cut."""
    from tournaments.cutcalc import cut_outlook

    if not tournament.top_cut_size:
        return {"round": None, "rounds_left": 0, "rows": []}
    snapshot = standings_snapshot(tournament)
    finished = snapshot.round.number
    planned = (
        tournament.planned_rounds or swiss.recommended_structure(max(len(snapshot.rows), 2))[0]
    )
    rounds_left = (
        planned - tournament.rounds.filter(stage=RoundStage.SWISS, number__lte=finished).count()
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
        "rows": [
            {
                "registration": int(o.player_id),
                "name": names.get(o.player_id, ""),
                "points": o.points,
                "win": o.win,
                "draw": o.draw,
                "loss": o.loss,
                "in_contention": o.in_contention,
                "has_bye": o.has_bye,
                "explanations": {k: o.explain(k) for k in ("win", "draw", "loss")},
            }
            for o in outlook
        ],
    }


# --- judge calls, the queue and rulings -----------------------------------------------------

MAX_QUESTION = 500
MAX_CITATIONS = 20
MAX_RECORD_BYTES = 1024 * 1024  # a whole game is a few kilobytes; this bounds abuse
MAX_RECORD_ACTIONS = 1000  # seven battles and sudden death take well under a hundred


def check_record_bounds(record: Any) -> None:
    """Refuse a record too large to be a game before the engine sees it."""
    actions = record.get("actions") if isinstance(record, dict) else None
    if isinstance(actions, list) and len(actions) > MAX_RECORD_ACTIONS:
        raise ServiceError(
            _("record.actions: at most %(n)d actions in a game record.")
            % {"n": MAX_RECORD_ACTIONS},
            field="record.actions",
        )


CITATION_PATTERN = re.compile(r"^(CR|Summary|BOS|Formats):? ?[0-9A-Za-z .:'-]{1,60}$")


def _lock_call(call: JudgeCall | int) -> JudgeCall:
    pk = call if isinstance(call, int) else call.pk
    return for_update(JudgeCall.objects).select_related("tournament").get(pk=pk)


def _queue_changed(call: JudgeCall, actor: Any) -> None:
    """The judges' queue is one rendered copy per version of each event's calls, shared by
    every judge (matches.judge_views): this call changed."""
    from config import shared_copies
    from matches.selectors import QUEUE_COPIES

    actor_id = actor.pk if permissions.is_authenticated(actor) else None
    shared_copies.changed(QUEUE_COPIES, call.tournament_id, actor_id)


def _open_or_join_call(
    match: Match, *, kind: str, actor: Any, question: str
) -> tuple[JudgeCall, bool]:
    """Open a call on the match, or join the one already open (its question goes to the
    notes). The caller holds the match lock, so two callers cannot both open one."""
    existing = (
        for_update(JudgeCall.objects).filter(match=match, status__in=OPEN_CALL_STATUSES).first()
    )
    who = actor.public_name if permissions.is_authenticated(actor) else _("the site")
    if existing is not None:
        if question:
            existing.notes = (
                existing.notes + "\n" if existing.notes else ""
            ) + f"{who}: {question}"
        if kind == CallKind.DISPUTE and existing.kind != CallKind.DISPUTE:
            existing.kind = CallKind.DISPUTE
        existing.save(update_fields=["notes", "kind"])
        _queue_changed(existing, actor)
        return existing, False
    call = JudgeCall.objects.create(
        tournament_id=match.round.tournament_id,
        match=match,
        kind=kind,
        question=question,
        opened_by=actor if permissions.is_authenticated(actor) else None,
    )
    _queue_changed(call, actor)
    audit(
        tournament=match.round.tournament,
        actor=actor,
        action=f"call.opened_{kind}",
        target=call,
        round=match.round.number,
        table=match.table,
        question=question,
    )
    return call, True


def call_open(*, actor: Any, match: Match, question: str = "") -> tuple[JudgeCall, bool]:
    """A player of the match or staff calls a judge; (the call, whether it is new)."""
    question = " ".join((question or "").split())
    if len(question) > MAX_QUESTION:
        raise ServiceError(
            _("question: at most %(n)d characters.") % {"n": MAX_QUESTION}, field="question"
        )
    with transaction.atomic():
        # The match lock alone keeps one open call per match; a call changes no result, so it
        # does not queue behind the round's results (as _lock_for_result would make it).
        match = _lock_match(match)
        round_ = match.round
        tournament = round_.tournament
        is_staff = permissions.is_staff_of(actor, tournament)
        if _acting_side(actor, match) is None and not is_staff:
            from config.errors import Forbidden

            raise Forbidden(_("Only the players of this match and the event's staff may call."))
        if not round_.is_visible_to_players and not is_staff:
            raise NotFound(_("match: no such match."), field="match")
        return _open_or_join_call(match, kind=CallKind.CALL, actor=actor, question=question)


def call_claim(*, actor: Any, call: JudgeCall) -> JudgeCall:
    """Exactly one judge holds a call; claiming what you already hold changes nothing."""
    with transaction.atomic():
        call = _lock_call(call)
        permissions.require_staff(actor, call.tournament)
        if call.status == CallStatus.RESOLVED:
            raise Conflict(_("call: this call is resolved."), field="call", code="resolved")
        if call.holder_id == actor.pk:
            return call
        if call.holder_id is not None:
            raise Conflict(
                _("call: %(name)s holds this call.") % {"name": call.holder.public_name},
                field="call",
                code="held",
            )
        call.holder = actor
        call.status = CallStatus.CLAIMED
        call.claimed_at = timezone.now()
        call.save(update_fields=["holder", "status", "claimed_at"])
        _queue_changed(call, actor)
        audit(tournament=call.tournament, actor=actor, action="call.claimed", target=call)
        return call


def call_claim_next(*, actor: Any, event: Tournament | None = None) -> JudgeCall | None:
    """Claim the call that has waited longest and nobody holds, in the events this judge
    judges today. Rows another judge is claiming right now are skipped (SKIP LOCKED), so
    twenty judges pressing "next" at once get twenty different calls, never a conflict."""
    from matches.selectors import judged_events

    events = judged_events(actor)
    if event is not None:
        permissions.require_staff(actor, event)
        events = events.filter(pk=event.pk)
    with transaction.atomic():
        call = (
            for_update(JudgeCall.objects, skip_locked=True)
            .filter(
                tournament__in=events.values("pk"),
                status=CallStatus.OPEN,
                holder__isnull=True,
            )
            .select_related("tournament")
            .order_by("opened_at", "id")
            .first()
        )
        if call is None:
            return None
        call.holder = actor
        call.status = CallStatus.CLAIMED
        call.claimed_at = timezone.now()
        call.save(update_fields=["holder", "status", "claimed_at"])
        _queue_changed(call, actor)
        audit(tournament=call.tournament, actor=actor, action="call.claimed", target=call)
        return call


def call_hand_back(*, actor: Any, call: JudgeCall) -> JudgeCall:
    """The holder (or an organiser) puts the call back in the queue for any judge."""
    with transaction.atomic():
        call = _lock_call(call)
        permissions.require_staff(actor, call.tournament)
        if call.status != CallStatus.CLAIMED:
            raise Conflict(_("call: nobody holds this call."), field="call")
        if call.holder_id != actor.pk and not permissions.is_organiser_of(actor, call.tournament):
            raise Conflict(_("call: only its holder can hand it back."), field="call", code="held")
        call.holder = None
        call.status = CallStatus.OPEN
        call.save(update_fields=["holder", "status"])
        _queue_changed(call, actor)
        audit(tournament=call.tournament, actor=actor, action="call.handed_back", target=call)
        return call


def call_escalate(*, actor: Any, call: JudgeCall, note: str = "") -> JudgeCall:
    """Send the call to the event's head judge (who then holds it), with a note."""
    note = " ".join((note or "").split())[:MAX_QUESTION]
    with transaction.atomic():
        call = _lock_call(call)
        permissions.require_staff(actor, call.tournament)
        if call.status == CallStatus.RESOLVED:
            raise Conflict(_("call: this call is resolved."), field="call", code="resolved")
        head = call.tournament.head_judge
        call.escalated = True
        if head is not None:
            call.holder = head
            call.status = CallStatus.CLAIMED
            call.claimed_at = timezone.now()
        if note:
            call.notes = (call.notes + "\n" if call.notes else "") + f"{actor.public_name}: {note}"
        call.save(update_fields=["escalated", "holder", "status", "claimed_at", "notes"])
        _queue_changed(call, actor)
        audit(
            tournament=call.tournament,
            actor=actor,
            action="call.escalated",
            target=call,
            note=note,
            head_judge=head.public_name if head else "",
        )
        return call


def call_add_note(*, actor: Any, call: JudgeCall, text: str) -> JudgeCall:
    """A judge's note on a call (what they saw, who they asked), kept with the call."""
    text = " ".join((text or "").split())
    if not text:
        raise ServiceError(_("note: write the note."), field="note")
    if len(text) > MAX_QUESTION:
        raise ServiceError(_("note: at most %(n)d characters.") % {"n": MAX_QUESTION}, field="note")
    with transaction.atomic():
        call = _lock_call(call)
        permissions.require_staff(actor, call.tournament)
        call.notes = (call.notes + "\n" if call.notes else "") + f"{actor.public_name}: {text}"
        call.save(update_fields=["notes"])
        _queue_changed(call, actor)
        audit(tournament=call.tournament, actor=actor, action="call.note", target=call, note=text)
        return call


def check_citations(citations: Sequence[Any]) -> list[str]:
    if not isinstance(citations, list | tuple) or len(citations) > MAX_CITATIONS:
        raise ServiceError(
            _("citations: a list of at most %(n)d rule references.") % {"n": MAX_CITATIONS},
            field="citations",
        )
    out = []
    for i, citation in enumerate(citations):
        if not isinstance(citation, str) or not CITATION_PATTERN.match(citation.strip()):
            raise ServiceError(
                _("citations[%(i)d]: cite a rule by document and section, e.g. CR 4.2.2.")
                % {"i": i},
                field=f"citations[{i}]",
            )
        out.append(citation.strip())
    return out


def _replayer(game: str) -> Replayer:
    replayer = get_game(game).replayer()
    if replayer is None:
        raise ServiceError(_("record: this game keeps no game records."), field="record")
    return replayer


def replay_record(record: Any, game: str) -> tuple[dict[str, Any], str]:
    """The game's replay JSON for a record (legal or not) and the engine's version; malformed
    input is a 400 naming the record's field, with the same JSON."""
    replayer = _replayer(game)
    size = len(json.dumps(record, separators=(",", ":"))) if record is not None else 0
    if size > MAX_RECORD_BYTES:
        raise ServiceError(
            _("record: at most %(n)d bytes.") % {"n": MAX_RECORD_BYTES}, field="record"
        )
    check_record_bounds(record)
    outcome = replayer.replay(record)
    if replay_malformed(outcome.json):
        raise RecordInvalid(outcome.json)
    return outcome.json, replayer.engine_version


def replay_malformed(replay_json: dict[str, Any]) -> bool:
    """A replay that stopped before any action: the record itself is at fault (a 400)."""
    error = replay_json.get("error")
    return isinstance(error, dict) and error.get("action") is None


class RecordInvalid(ServiceError):
    """A malformed record: a 400 whose body is the replay JSON with its ``error.field``."""

    def __init__(self, replay_json: dict[str, Any]) -> None:
        error = replay_json.get("error") or {}
        field = f"record.{error.get('field')}" if error.get("field") else "record"
        super().__init__(str(error.get("message") or "malformed record"), field=field)
        self.replay_json = replay_json

    def as_dict(self) -> dict[str, object]:
        return {**self.replay_json, **super().as_dict()}


def call_ruling(
    *,
    actor: Any,
    call: JudgeCall,
    text: str,
    citations: Sequence[Any] = (),
    record: Any = None,
    result: dict[str, Any] | None = None,
    decision: str | None = None,
) -> Ruling:
    """The holding judge rules: the ruling is stored (with the engine's replay when a record
    is given, by the event's game), a result amends the match in the same transaction, and the
    call is resolved."""
    text = (text or "").strip()
    if not text:
        raise ServiceError(_("text: say what you ruled."), field="text")
    if len(text) > 5000:
        raise ServiceError(_("text: at most 5,000 characters."), field="text")
    cited = check_citations(list(citations or ()))
    if decision is not None and decision not in RulingDecision.values:
        raise ServiceError(_("decision: unknown decision."), field="decision")
    replayed, engine_version = (
        replay_record(record, call.tournament.game) if record is not None else (None, "")
    )
    with transaction.atomic():
        call = JudgeCall.objects.select_related("match__round__tournament").get(pk=call.pk)
        if result is not None:
            round_, match = _lock_for_result(call.match)
        else:
            # A ruling that leaves the result alone writes the call and the ruling only: the
            # call's lock is enough, and it does not queue behind the round's results.
            match = call.match
            round_ = match.round
        call = _lock_call(call)
        tournament = round_.tournament
        permissions.require_staff(actor, tournament)
        if call.status == CallStatus.RESOLVED:
            raise Conflict(_("call: this call is already resolved."), field="call")
        if call.holder_id is not None and call.holder_id != actor.pk:
            raise Conflict(
                _("call: %(name)s holds this call.") % {"name": call.holder.public_name},
                field="call",
                code="held",
            )
        before = _match_result(match)
        if result is not None:
            if not isinstance(result, dict):
                raise ServiceError(_("result: an object with games."), field="result")
            games, battles = _checked(
                tournament, round_, result.get("games"), result.get("battles")
            )
            details = _checked_details(tournament, match, games, result.get("game_details"))
            if round_.status in (RoundStatus.PAIRING, RoundStatus.PAIRED):
                raise Conflict(_("round: the round is not published."), field="round")
            _staff_result(
                actor,
                tournament,
                round_,
                match,
                games,
                battles,
                reason=_("Ruling: %(text)s") % {"text": text[:400]},
                game_details=details,
                settle_calls=False,
            )
        changed = _match_result(match) != before
        decision = decision or (RulingDecision.CHANGED if changed else RulingDecision.STANDS)
        ruling = Ruling.objects.create(
            call=call,
            judge=actor,
            text=text,
            citations=cited,
            decision=decision,
            record=record,
            replay=replayed,
            engine_version=engine_version,
            result=_match_result(match) if result is not None else None,
        )
        call.status = CallStatus.RESOLVED
        if call.holder_id is None:  # (reading call.holder would load the user)
            call.holder = actor
        call.resolved_at = timezone.now()
        call.save(update_fields=["status", "holder", "resolved_at"])
        notices.notify_dispute_ruled(ruling)
        _queue_changed(call, actor)
        audit(
            tournament=tournament,
            actor=actor,
            action="call.ruling",
            target=call,
            round=round_.number,
            table=match.table,
            before=before,
            after=_match_result(match),
            reason=text,
            citations=cited,
            decision=decision,
        )
    return ruling


# --- penalties ------------------------------------------------------------------------------
#
# A judge gives a penalty from a match card: the infraction (a key of the catalogue in
# engine/penalties.py, the same for every game: BOS publishes no penalty guide), the penalty
# (the catalogue's suggestion unless the judge chooses
# another) and a note. The project's reading of what a penalty does to the match:
#
# - caution, warning: recorded only.
# - game loss: on a match with a final result, the result is corrected through _staff_result
#   (reason "Penalty: game loss (<infraction>)") as engine.penalties.after_game_loss says:
#   the penalised player loses one game within the match structure (best of 1: the opponent
#   wins 1-0). On a match without a final result the penalty is recorded and shown, and the
#   players report the result with that game lost (it is the game being played).
# - match loss: the opponent wins games_to_win to 0, entered or corrected through _staff_result.
# - disqualification: a match loss, and the player is dropped with
#   tournaments.services.registration_drop. That service lets only the player or an organiser
#   drop someone, so only the event's organisers may disqualify; judges get a 403.
#
# Standings read results only (swiss_history), so a penalty counts in them through the result.

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
    from matches.models import Penalty

    return Penalty.objects.select_related(
        "tournament", "match__round", "registration__player", "judge"
    )


def penalty_suggestion(*, registration: Registration, infraction: str) -> Any:
    """The catalogue's suggestion for this infraction to this player in this event (upgraded
    when the same infraction was already given to them here)."""
    from matches.models import Penalty

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
    games_to_win = _structure_games_to_win(tournament)
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
        battles = catalogue.battles_after(match.battles, match.games, new) if new else None
    else:
        new = catalogue.after_match_loss(
            match.games if final else None, side, games_to_win=games_to_win
        )
        battles = None
    if new is None:
        return False, _("The result stands: the player had already lost this match.")
    games, checked_battles = _checked(tournament, round_, list(new), battles)
    before = match.games if final else None
    version = match.result_version
    reason = _("Penalty: %(penalty)s (%(infraction)s)") % {
        "penalty": catalogue.PENALTY_LABELS[kind].lower(),
        "infraction": label,
    }
    _staff_result(actor, tournament, round_, match, games, checked_battles, reason)
    if match.result_version == version:
        return False, _("The result already was %(r)s.") % {"r": _games_text(games)}
    was = _games_text(before) if before else _("no result")
    return True, _("Result %(before)s → %(after)s.") % {
        "before": was,
        "after": _games_text(games),
    }


def _games_text(games: Sequence[int]) -> str:
    won_a, won_b, drawn = games
    return f"{won_a}-{won_b}-{drawn}" if drawn else f"{won_a}-{won_b}"


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
    from matches.models import Penalty
    from tournaments.services import registration_drop

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
            from config.errors import Forbidden

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


def penalty_history(registration: Registration) -> Any:
    """This player's penalties across every event, newest first: by their account when the
    registration has one, else (a walk-in) this registration's own."""
    qs = _penalty_queryset()
    if registration.player_id is not None:
        qs = qs.filter(registration__player_id=registration.player_id)
    else:
        qs = qs.filter(registration_id=registration.pk)
    return qs.order_by("-created_at", "-id")


def repeated_infractions(registration: Registration) -> dict[str, Any]:
    """For each infraction this player already received in this event, what a repeat would
    be suggested: {key: Suggestion} (only infractions given before, so each is an upgrade)."""
    from matches.models import Penalty

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
    from config.csvfile import csv_text

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
