"""A team event's stages (event-structures: Stages and Teams): Swiss, round robin and
single or double elimination of teams, each stage's team standings, its frozen final
standings for the next stage's entry rule, its bracket, and what placings read of it.

In a team event a stage's ``players`` are team ids (``FinalRow.registration`` is a team id:
tournaments.stages says so), its rounds' matches are team matches (``TeamMatch``), and the
pure cores are the individual ones: ``tournaments.brackets`` for the bracket and the round
robin's schedule, ``tournaments.teams.team_standings`` for standings, ``tournaments.stages``
for entry rules. This module reads rows into their values; the pairing writes through
``teams.team_round_write``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext as _

from config.errors import ServiceError
from matches.models import MatchStatus, Round, RoundStage, RoundStatus, TeamMatch
from matches.services.teams import (
    TeamPair,
    team_match_record,
    team_round_write,
    team_rules,
    team_values,
)
from tournaments import brackets, swiss, teams, tiebreakers
from tournaments import stages as stage_rules
from tournaments.models import Stage, Team, Tournament
from tournaments.standings import MatchRecord, Player, StandingRow


def team_ids(tournament: Tournament) -> list[int]:
    """The event's teams, in the order they were formed (a first stage's seed order)."""
    return list(
        Team.objects.filter(tournament=tournament).order_by("id").values_list("pk", flat=True)
    )


def _stage_round_numbers(
    tournament: Tournament, numbers: Sequence[int], upto: int | None
) -> list[int]:
    qs = tournament.rounds.filter(
        stage_number__in=list(numbers),
        stage__in=(RoundStage.SWISS, RoundStage.ROUND_ROBIN),
        status=RoundStatus.FINISHED,
    )
    if upto is not None:
        qs = qs.filter(number__lte=upto)
    return list(qs.order_by("number").values_list("number", flat=True))


def _history_stages(tournament: Tournament, row: Stage) -> list[int]:
    """The stages whose rounds a stage's standings count: its own, after the stages it draws
    from when it carries ``points`` (a carried team record, as a player's)."""
    rule = row.to_rule()
    if rule.carry != "points":
        return [row.number]
    rules = [r.to_rule() for r in tournament.stages.order_by("number")]
    return [*stage_rules.stages_feeding(rules, row.number), row.number]


def stage_team_rounds(
    tournament: Tournament, row: Stage, upto: int | None = None
) -> tuple[list[int], list[list[MatchRecord]]]:
    """The round numbers and the team matches (as the standings core reads them) of a Swiss
    or round-robin stage's finished rounds, carried rounds first."""
    numbers = _stage_round_numbers(tournament, _history_stages(tournament, row), upto)
    by_round: dict[int, list[MatchRecord]] = {n: [] for n in numbers}
    for tm in TeamMatch.objects.filter(
        round__tournament=tournament, round__number__in=numbers
    ).select_related("round"):
        by_round[tm.round.number].append(team_match_record(tm))
    return numbers, [by_round[n] for n in numbers]


def stage_teams(tournament: Tournament, row: Stage) -> list[int]:
    """The stage's teams: a first stage's are every team of the event but the teams later
    flights list by hand (teams are settled before the event runs; a first stage started
    before stages held team ids lists registrations), a later stage's the ones its entry
    admitted (a flight's: its list)."""
    if row.to_rule().entry is None:
        rules = [r.to_rule() for r in tournament.stages.order_by("number")]
        return list(stage_rules.first_stage_players(rules, team_ids(tournament)))
    return [int(p) for p in row.players or ()] or team_ids(tournament)


def _stage_rows(
    tournament: Tournament, row: Stage, upto: int | None = None
) -> tuple[list[int], list[StandingRow]]:
    """The stage's team standings rows, its teams only, ranked among themselves. A carried
    stage's rounds hold teams it did not admit: they count as opponents, not as rows."""
    rules = team_rules(tournament)
    numbers, rounds = stage_team_rounds(tournament, row, upto)
    members = {str(t) for t in stage_teams(tournament, row)}
    values = list(team_values(tournament).values())
    computed = teams.team_standings(values, rounds, rules.team, tournament.tiebreakers)
    kept = [r for r in computed if r.player_id in members]
    out: list[StandingRow] = []
    for i, r in enumerate(kept):
        rank = out[-1].rank if out and kept[i - 1].rank == r.rank else i + 1
        out.append(replace(r, rank=rank))
    return numbers, out


def team_stage_standings(
    tournament: Tournament, row: Stage, upto: int | None = None
) -> tuple[int, list[dict[str, Any]]]:
    """A Swiss or round-robin stage's team standings after its finished rounds (up to round
    ``upto``): (the last round counted, rows as the API shows them). Its teams only."""
    numbers, rows = _stage_rows(tournament, row, upto)
    names = {str(t.pk): t.name for t in Team.objects.filter(tournament=tournament)}
    shown = frozenset(tiebreakers.shown(tournament.tiebreakers))
    return numbers[-1] if numbers else 0, [
        {
            "rank": r.rank,
            "team": int(r.player_id),
            "name": names.get(r.player_id, ""),
            "points": r.points,
            "record": r.record,
            "dropped": r.dropped,
            "tiebreakers": {name: value for name, value in r.tiebreakers if name in shown},
            "byes": r.byes,
            "match_win_pct": r.match_win_pct,
            "games": list(r.games),
        }
        for r in rows
    ]


def team_final_rows(tournament: Tournament, row: Stage) -> list[stage_rules.FinalRow]:
    """The stage's frozen final standings, teams as the entry rule's players: a bracket's
    placings, or the Swiss or round-robin team standings (every tiebreaker, shown or not)."""
    if row.is_elimination:
        placings = team_bracket_of(tournament, row).placings()
        return [stage_rules.FinalRow(int(p.player), p.place, 0) for p in placings]
    _numbers, rows = _stage_rows(tournament, row)
    return [
        stage_rules.FinalRow(
            registration=int(r.player_id),
            rank=r.rank,
            points=r.points,
            tiebreakers=tuple(r.tiebreakers),
            dropped=r.dropped,
        )
        for r in rows
    ]


# -- brackets -------------------------------------------------------------------------------------
def _team_winner(tm: TeamMatch) -> str | None:
    if tm.status != MatchStatus.FINAL or tm.team_b_id is None:
        return None
    record = team_match_record(tm)
    if record.result == "a":
        return str(tm.team_a_id)
    if record.result == "b":
        return str(tm.team_b_id)
    return None


def team_bracket_winners(tournament: Tournament, row: Stage) -> dict[str, str]:
    """Each decided bracket match's winner by its reference (``W2-1``), from the team
    matches of the stage's rounds (their tables are the references' keys)."""
    winners: dict[str, str] = {}
    rounds = tournament.rounds.filter(stage_number=row.number, stage=RoundStage.TOP_CUT)
    refs_of = {r.pk: (r.pairing_stats or {}).get("bracket", {}).get("refs", {}) for r in rounds}
    for tm in TeamMatch.objects.filter(round__in=rounds, status=MatchStatus.FINAL):
        code = refs_of.get(tm.round_id, {}).get(str(tm.table))
        winner = _team_winner(tm)
        if code and winner is not None:
            winners[code] = winner
    return winners


def team_bracket_of(tournament: Tournament, row: Stage) -> brackets.BracketState:
    """The stage's bracket of teams with its final results so far."""
    try:
        return brackets.bracket_state(
            row.kind,
            [str(p) for p in stage_teams(tournament, row)],
            team_bracket_winners(tournament, row),
        )
    except brackets.BracketError as exc:
        raise ServiceError(exc.message, field="stage") from None


def check_team_bracket(tournament: Tournament) -> None:
    """A team bracket needs a team match that always has a winner (teams.check_bracket_config):
    400 naming ``team.head_coach`` otherwise."""
    try:
        teams.check_bracket_config(team_rules(tournament).team)
    except teams.TeamError as exc:
        raise ServiceError(f"{exc.field}: {exc.message}.", field=exc.field) from None


# -- pairing --------------------------------------------------------------------------------------
def pair_team_elimination(tournament: Tournament, round_: Round, row: Stage) -> None:
    """The next round of a team bracket: its team matches whose teams are known (a bye is no
    match played), each match's bracket reference kept by table, as for players."""
    check_team_bracket(tournament)
    nxt = team_bracket_of(tournament, row).next_round
    if nxt is None:
        raise ServiceError(_("The final has been played."), field="round")
    pairs: list[TeamPair] = []
    refs: dict[str, str] = {}
    for table, match in enumerate(nxt.played, start=1):
        assert match.b is not None
        refs[str(table)] = match.ref.code
        pairs.append(
            (
                int(match.a),
                int(match.b),
                _("seed %(a)d v seed %(b)d") % {"a": match.seed_a, "b": match.seed_b or 0},
            )
        )
    team_round_write(round_, pairs)
    round_.name = nxt.name
    round_.pairing_stats = {
        "bracket": {"kind": row.kind, "side": nxt.side, "number": nxt.number, "refs": refs}
    }


def pair_team_round_robin(tournament: Tournament, round_: Round, row: Stage) -> None:
    """Round r of the stage's round robin of teams (Berger tables, as for players); the team
    sitting a round out has no team match (a round-robin bye scores nothing)."""
    team_rules(tournament)
    schedule = brackets.round_robin([str(p) for p in stage_teams(tournament, row)])
    own = tournament.rounds.filter(stage_number=row.number, number__lt=round_.number).count()
    if own >= len(schedule):
        raise ServiceError(_("stage: the round robin has been played."), field="stage")
    planned = schedule[own]
    team_round_write(round_, [(int(m.a), int(m.b), "") for m in planned.matches])
    round_.name = planned.name
    round_.pairing_stats = {"round_robin": {"round": planned.number, "bye": planned.bye}}


def pair_team_stage_swiss(tournament: Tournament, round_: Round, row: Stage) -> None:
    """Swiss over the stage's team standings (carried records where it carries ``points``),
    no team rematch within them when one can be avoided, a bye for an odd count."""
    rules = team_rules(tournament)
    _numbers, rounds = stage_team_rounds(tournament, row)
    members = {str(t) for t in stage_teams(tournament, row)}
    if len(members) < 2:
        raise ServiceError(_("team: an event needs at least two teams to pair."), field="team")
    # Teams of the rounds carried in that this stage did not admit: opponents, never paired.
    result = swiss.pair_round(
        [Player(id=str(t), dropped=str(t) not in members) for t in team_ids(tournament)],
        rounds,
        rules.team.scoring(),
        seed=round_.seed,
        round_number=len(rounds) + 1,
        tiebreakers=tournament.tiebreakers,
    )
    pairs: list[TeamPair] = [(int(p.a), int(p.b), p.reason) for p in result.pairings]
    if result.bye is not None:
        pairs.append((int(result.bye), None, result.bye_reason or _("bye")))
    team_round_write(round_, pairs)
    round_.pairing_stats = result.to_json()["stats"]


def team_standings_stage(
    tournament: Tournament, number: int | None, upto: int | None = None
) -> Stage | None:
    """The stage a team standings request reads: stage ``number``, else the stage of the
    latest finished Swiss or round-robin round (up to round ``upto``); None before any."""
    if number is not None:
        return tournament.stages.filter(number=number).first()
    rounds = tournament.rounds.filter(
        stage__in=(RoundStage.SWISS, RoundStage.ROUND_ROBIN), status=RoundStatus.FINISHED
    )
    if upto is not None:
        rounds = rounds.filter(number__lte=upto)
    latest = rounds.order_by("-number").first()
    if latest is None:
        return None
    return tournament.stages.filter(number=latest.stage_number).first()
