"""Team rounds (docs/teams.md, event-structures: Teams): writing a round's team matches, line-ups,
the boards published from them, each team match's result from its boards and the Head Coaches'
decider. Pairing teams by the stage's kind and team standings per stage are
matches.services.team_stages.

The rules are the pure core's (tournaments.teams); this module reads rows into its values and
writes what comes back. Locks: a team round is paired under the event lock like any round
(``pairing.round_pairing_run``); team matches and line-ups are written only under their
round's lock (line-ups, publishing, every board result: ``results._save_result_change`` holds
the round, then the match), so the round lock serialises everything a team match shows, and
no team-match row lock is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, NotFound, ServiceError
from matches.models import (
    Lineup,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    TeamMatch,
)
from matches.services.locks import _lock_round, _round_shown_changed
from tournaments import permissions, results, teams
from tournaments.audit import audit
from tournaments.models import Team, TeamMember, Tournament
from tournaments.standings import MatchRecord

# A team round's pairs: (team a, team b or None for a bye, the reason shown).
TeamPair = tuple[int, int | None, str]


def team_rules(tournament: Tournament) -> teams.TeamRules:
    rules = tournament.team_rules_value
    if rules is None:
        raise ServiceError(_("team: this event is not played by teams."), field="team")
    return rules


def team_values(tournament: Tournament) -> dict[int, teams.Team]:
    """The event's teams as the pure core takes them, by team id in id order, members in the
    order they joined: plain values in two queries (no member's account loaded: publishing
    a 64-team round read 256 accounts it never used)."""
    members: dict[int, list[str]] = {}
    for team_id, registration_id in (
        TeamMember.objects.filter(team__tournament=tournament)
        .order_by("team_id", "id")
        .values_list("team_id", "registration_id")
    ):
        members.setdefault(team_id, []).append(str(registration_id))
    return {
        pk: teams.Team(
            id=str(pk),
            name=name,
            members=tuple(members.get(pk, ())),
            head_coach=str(head_coach) if head_coach is not None else None,
        )
        for pk, name, head_coach in Team.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("id", "name", "head_coach_id")
    }


def team_value(team: Team) -> teams.Team:
    return teams.Team(
        id=str(team.pk),
        name=team.name,
        members=tuple(str(m.registration_id) for m in team.members.all()),
        head_coach=str(team.head_coach_id) if team.head_coach_id is not None else None,
    )


def _outcome(tm: TeamMatch) -> str:
    if tm.boards_a != tm.boards_b:
        return "a" if tm.boards_a > tm.boards_b else "b"
    return tm.decider or "draw"


def team_match_record(tm: TeamMatch) -> MatchRecord:
    """A final team match as the standings core reads it (teams.team_match_record)."""
    if tm.team_b_id is None:
        return teams.team_bye(str(tm.team_a_id))
    outcome = _outcome(tm)
    return MatchRecord(
        a=str(tm.team_a_id),
        b=str(tm.team_b_id),
        result=outcome,  # type: ignore[arg-type]
        games=(tm.boards_a, tm.boards_b, tm.boards_drawn),
    )


# -- pairing -------------------------------------------------------------------------------------
def team_round_write(round_: Round, pairs: Sequence[TeamPair]) -> list[TeamMatch]:
    """Write a team round's team matches from its pairs, in table order (byes last, no
    table, final at once: a team-match win worth an outright win's boards). Any pairing of
    teams feeds this: the Swiss above, or a round robin's schedule. The caller holds the event
    and round locks and sets the round's status."""
    tournament = round_.tournament
    rules = team_rules(tournament)
    known = set(Team.objects.filter(tournament=tournament).values_list("pk", flat=True))
    seen: set[int] = set()
    rows: list[TeamMatch] = []
    table = 0
    won, lost = rules.team.scoring().bye_games
    for i, (a, b, reason) in enumerate(pairs):
        for side, team in (("a", a), ("b", b)):
            if team is None:
                continue
            if team not in known:
                raise ServiceError(
                    _("pairs[%(i)d].%(side)s: no team %(team)d in this event.")
                    % {"i": i, "side": side, "team": team},
                    field=f"pairs[{i}].{side}",
                )
            if team in seen:
                raise ServiceError(
                    _("pairs[%(i)d].%(side)s: team %(team)d is paired twice.")
                    % {"i": i, "side": side, "team": team},
                    field=f"pairs[{i}].{side}",
                )
            seen.add(team)
        if b is None:
            rows.append(
                TeamMatch(
                    round=round_,
                    table=None,
                    team_a_id=a,
                    status=MatchStatus.FINAL,
                    boards_a=won,
                    boards_b=lost,
                    reason=reason[:200],
                    version=1,
                )
            )
        else:
            table += 1
            rows.append(
                TeamMatch(round=round_, table=table, team_a_id=a, team_b_id=b, reason=reason[:200])
            )
    return TeamMatch.objects.bulk_create(rows)


# -- line-ups ------------------------------------------------------------------------------------
def _is_member(actor: Any, team_id: int) -> bool:
    return (
        permissions.is_authenticated(actor)
        and TeamMember.objects.filter(team_id=team_id, registration__player=actor).exists()
    )


def lineup_set(*, actor: Any, team_match: TeamMatch, team: int, players: Any) -> TeamMatch:
    """A team's line-up for one team match: a member of that team, or organisers; after the
    round is paired and before it is published (409 after). ``players`` are registration
    ids in board order, ``players`` of them from the team's roster (400 naming
    ``players[i]``)."""
    with transaction.atomic():
        round_ = _lock_round(team_match.round_id)
        tournament = round_.tournament
        team_match = TeamMatch.objects.get(pk=team_match.pk)
        organiser = permissions.is_organiser_of(actor, tournament)
        if not isinstance(team, int) or isinstance(team, bool) or not 0 < team < 2**63:
            raise ServiceError(_("team: a team id."), field="team")
        side = team_match.side_of_team(team)
        if not organiser and not (side is not None and _is_member(actor, team)):
            if not permissions.is_authenticated(actor):
                raise Forbidden(_("Sign in to set your team's line-up."))
            raise Forbidden(_("Only the team's members and the organisers set its line-up."))
        if side is None:
            raise ServiceError(_("team: this team does not play this team match."), field="team")
        if round_.status in (RoundStatus.PUBLISHED, RoundStatus.FINISHED):
            raise Conflict(
                _("round: the round is published; line-ups can no longer change."),
                field="round",
                code="round_published",
            )
        if round_.status != RoundStatus.PAIRED:
            raise Conflict(_("round: the round is still being paired."), field="round")
        rules = team_rules(tournament)
        team_row = Team.objects.prefetch_related("members").get(pk=team)
        if (
            not isinstance(players, list)
            or len(players) > teams.MAX_ROSTER
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in players)
        ):
            raise ServiceError(_("players: a list of registration ids."), field="players")
        try:
            lineup = teams.validate_lineup(team_value(team_row), [str(p) for p in players], rules)
        except teams.TeamError as exc:
            raise ServiceError(str(exc), field=exc.field) from None
        ids = [int(p) for p in lineup]
        Lineup.objects.update_or_create(
            team_match=team_match, team_id=team, defaults={"players": ids, "set_by": actor}
        )
        team_match.version += 1
        team_match.save(update_fields=["version", "updated_at"])
        _round_shown_changed(round_)
        audit(
            tournament=tournament,
            actor=actor,
            action="team_match.lineup",
            target=team_match,
            round=round_.number,
            table=team_match.table,
            team=team,
            players=ids,
        )
        return team_match


# -- publishing: the boards ----------------------------------------------------------------------
def publish_team_boards(round_: Round) -> None:
    """Pair every team match's boards from its two line-ups (board 1 against board 1...):
    ordinary matches, tables numbered board by board. A missing line-up is a 409 naming the
    team match. The caller (review.round_publish) holds the event and round locks."""
    tournament = round_.tournament
    rules = team_rules(tournament)
    boards_per_match = rules.team.players
    team_matches = list(
        TeamMatch.objects.filter(round=round_, team_b__isnull=False).order_by("table", "id")
    )
    if not team_matches or Match.objects.filter(round=round_).exists():
        return
    lineups = {
        (lu.team_match_id, lu.team_id): lu for lu in Lineup.objects.filter(team_match__round=round_)
    }
    by_id = team_values(tournament)
    rows: list[Match] = []
    for tm in team_matches:
        assert tm.team_b_id is not None
        for team_id in (tm.team_a_id, tm.team_b_id):
            if (tm.pk, team_id) not in lineups:
                raise Conflict(
                    _(
                        "team_match: team match %(id)d (table %(table)s) has no line-up for %(team)s."
                    )
                    % {"id": tm.pk, "table": tm.table, "team": by_id[team_id].name},
                    field="team_match",
                    code="lineup_missing",
                )
        try:
            boards = teams.pair_boards(
                by_id[tm.team_a_id],
                [str(p) for p in lineups[(tm.pk, tm.team_a_id)].players],
                by_id[tm.team_b_id],
                [str(p) for p in lineups[(tm.pk, tm.team_b_id)].players],
                rules,
            )
        except teams.TeamError as exc:
            raise Conflict(
                _("team_match: team match %(id)d: %(error)s") % {"id": tm.pk, "error": exc},
                field="team_match",
            ) from None
        base = ((tm.table or 1) - 1) * boards_per_match
        rows.extend(
            Match(
                round=round_,
                table=base + board.number,
                a_id=int(board.a),
                b_id=int(board.b),
                team_match=tm,
                board=board.number,
                low_power_wins=board.low_power_wins,
                reason=_("board %(n)d") % {"n": board.number},
            )
            for board in boards
        )
    Match.objects.bulk_create(rows)


# -- results -------------------------------------------------------------------------------------
def _side_outcome(match: Match) -> str | None:
    if match.status != MatchStatus.FINAL or match.games is None:
        return None
    return results.outcome(match.games)


def team_match_refresh(match: Match, actor: Any) -> None:
    """A board's (or the decider's) result changed: the team match's result follows, from
    all its boards (tournaments.teams.team_match_result). A tie with Head Coaches pairs the
    decider (an ordinary match); a correction that ends the tie removes a decider not yet
    played, and is refused while the decider has a result. The caller holds the round and
    match locks (results._save_result_change), before the round's "was that the last
    result?" check, so a new decider keeps the round open."""
    if match.team_match_id is None:
        return
    round_ = match.round
    tournament = round_.tournament
    rules = team_rules(tournament)
    tm = TeamMatch.objects.get(pk=match.team_match_id)
    rows = {m.pk: m for m in Match.objects.filter(team_match=tm)}
    rows[match.pk] = match
    boards = sorted((m for m in rows.values() if not m.is_decider), key=lambda m: m.board or 0)
    decider = next((m for m in rows.values() if m.is_decider), None)
    outcomes = [_side_outcome(m) for m in boards]
    decider_side = _side_outcome(decider) if decider is not None else None
    probe = teams.team_match_result(outcomes, None, config=rules.team)
    try:
        action = teams.decider_action(
            probe,
            decider_exists=decider is not None,
            decider_started=decider is not None
            and (decider.status == MatchStatus.FINAL or decider.reports.exists()),
            round_finished=round_.status == RoundStatus.FINISHED,
        )
    except teams.TeamError as exc:
        raise Conflict(
            _("games: team match %(id)d: %(error)s.") % {"id": tm.pk, "error": exc.message},
            field=exc.field,
        ) from None
    if action == "remove":
        assert decider is not None
        decider.delete()
        decider, decider_side = None, None
    result = teams.team_match_result(outcomes, decider_side, config=rules.team)
    before = {
        "status": tm.status,
        "boards": [tm.boards_a, tm.boards_b, tm.boards_drawn],
        "decider": tm.decider or None,
    }
    if action == "pair":
        _pair_decider(round_, tm, rules)
    tm.boards_a, tm.boards_b, tm.boards_drawn = result.boards
    tm.decider = result.decider or ""
    tm.status = MatchStatus.FINAL if result.final else MatchStatus.PENDING
    after = {"status": tm.status, **result.to_json()}
    if before == after:
        return
    tm.version += 1
    tm.save(update_fields=["boards_a", "boards_b", "boards_drawn", "decider", "status", "version"])
    audit(
        tournament=tournament,
        actor=actor,
        action="team_match.result",
        target=tm,
        round=round_.number,
        table=tm.table,
        before=before,
        after=after,
    )


def _pair_decider(round_: Round, tm: TeamMatch, rules: teams.TeamRules) -> Match:
    team_a = Team.objects.prefetch_related("members").get(pk=tm.team_a_id)
    team_b = Team.objects.prefetch_related("members").get(pk=tm.team_b_id)
    try:
        decider = teams.pair_decider(team_value(team_a), team_value(team_b), rules)
    except teams.TeamError as exc:
        raise Conflict(str(exc), field=exc.field) from None
    boards_per_match = rules.team.players
    tables = TeamMatch.objects.filter(round=round_, table__isnull=False).count()
    match = Match.objects.create(
        round=round_,
        table=tables * boards_per_match + (tm.table or 0),
        a_id=int(decider.a),
        b_id=int(decider.b),
        team_match=tm,
        is_decider=True,
        low_power_wins=decider.low_power_wins,
        reason=_("deciding game: Head Coach against Head Coach"),
    )
    audit(
        tournament=round_.tournament,
        actor=None,
        action="team_match.decider_paired",
        target=tm,
        round=round_.number,
        match=match.pk,
        a=match.a_id,
        b=match.b_id,
    )
    return match


# -- reads ---------------------------------------------------------------------------------------
def team_match_visible(user: Any, pk: int) -> TeamMatch:
    """A team match the reader may see: staff always; everyone once its round is published
    (and a member of either team while it is paired, to set the line-up)."""
    tm = (
        TeamMatch.objects.select_related("round__tournament", "team_a", "team_b")
        .filter(pk=pk)
        .first()
    )
    if tm is None:
        raise NotFound(_("team_match: no such team match."), field="team_match")
    tournament = tm.round.tournament
    if permissions.is_staff_of(user, tournament) or tm.round.is_visible_to_players:
        return tm
    if any(_is_member(user, t) for t in (tm.team_a_id, tm.team_b_id) if t is not None):
        return tm
    raise NotFound(_("team_match: no such team match."), field="team_match")
