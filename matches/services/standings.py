"""Standings: rows from the Swiss history, stored snapshots per finished round, each player's
record before a round, and what a correction would change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db.models import Case, Max, When
from django.utils.translation import gettext as _

from config.errors import NotFound
from engine.games import get_game
from matches.models import (
    Match,
    MatchStatus,
    ResultVersion,
    Round,
    RoundStage,
    RoundStatus,
    StandingsSnapshot,
)
from matches.services.history import SwissHistory, scoring, swiss_history
from matches.services.result_checks import _checked, _checked_details, details_input
from matches.services.stage_history import OWN_KINDS, stage_history
from tournaments import permissions, results, tiebreakers
from tournaments.models import (
    Stage,
    Tournament,
)
from tournaments.standings import MatchRecord, compute_standings


def _warm_standings(round_id: int) -> None:
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is not None and round_.status == RoundStatus.FINISHED:
        standings_snapshot(round_.tournament, round_.number)


def standings_rows(tournament: Tournament, history: SwissHistory) -> list[dict[str, Any]]:
    """The pure core's standings as stored rows: the API's fields plus each breakdown.

    Percentages are not rounded: the event API promises the pure core's own numbers (pages
    round them for display). One pass per row and per line, no call per value: at 4,096
    players after 12 rounds this is 4,096 rows and about 44,000 lines.
    """
    rows = compute_standings(
        history.players, history.rounds, scoring(tournament), tournament.tiebreakers
    )
    shown = frozenset(tiebreakers.shown(tournament.tiebreakers))
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
                "tiebreakers": {name: value for name, value in row.tiebreakers if name in shown},
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


def stage_standings_rows(
    tournament: Tournament, row: Stage, upto: int | None = None
) -> list[dict[str, Any]]:
    """The stage's standings rows (a carried stage's with its carried records), its own
    players only: a carried stage's history lists the players it did not admit as dropped."""
    history = stage_history(tournament, row, upto=upto)
    rows = standings_rows(tournament, history)
    if row.carry != "points" or row.players is None:
        return rows
    admitted = set(row.players)
    kept = [r for r in rows if r["registration"] in admitted]
    rank, previous = 0, None
    for position, r in enumerate(kept, start=1):
        if r["rank"] != previous:
            rank, previous = position, r["rank"]
        r["rank"] = rank
    return kept


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
    earlier = tournament.rounds.filter(
        stage__in=OWN_KINDS, status=RoundStatus.FINISHED, number__lt=round_.number
    )
    mine = 0
    if round_.stage != RoundStage.TOP_CUT:
        mine = round_.stage_number  # flights side by side: a flight's records are its own
    before = (
        earlier.annotate(own=Case(When(stage_number=mine, then=1), default=0))
        .order_by("-own", "-number")
        .values_list("number", flat=True)
        .first()
    )
    counts: dict[int, list[int]] = {}
    numbers = [] if before is None else [before]
    if mine and not earlier.filter(stage_number=mine).exists():
        # A stage's first round (day 2): the records its players bring from every stage it
        # draws from (each flight's own last round), not only the latest flight's.
        sources = _source_stages(tournament, mine)
        if sources:
            numbers = [
                n
                for source in sources
                if (n := earlier.filter(stage_number=source).aggregate(n=Max("number"))["n"])
            ] or numbers
    for number in numbers:
        snapshot = standings_snapshot(tournament, number)
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


def _source_stages(tournament: Tournament, number: int) -> tuple[int, ...]:
    """The stages stage ``number``'s entry draws from (its flights), none for a first stage."""
    row = tournament.stages.filter(number=number).first()
    return row.to_rule().sources if row is not None else ()


def last_finished_standings_round(tournament: Tournament, stage: int | None) -> Round | None:
    """The latest finished Swiss or round-robin round of stage ``stage`` (None: of any)."""
    qs = tournament.rounds.filter(stage__in=OWN_KINDS, status=RoundStatus.FINISHED)
    if stage is not None:
        qs = qs.filter(stage_number=stage)
    return qs.order_by("-number").first()


def standings_snapshot(
    tournament: Tournament, round_number: int | None = None, stage: int | None = None
) -> StandingsSnapshot:
    """The standings after a finished Swiss round (default: the latest), computed once and
    stored; recomputed only when a result of those rounds has changed since, or the event's
    tiebreaker configuration differs from the one they were computed with (the organiser's
    order changed, or a deploy changed what a tiebreaker computes)."""
    if round_number is None:
        # The latest stage with standings (a Swiss or a round robin): for an event without
        # stages, its last finished Swiss round, as before.
        round_ = last_finished_standings_round(tournament, stage)
    else:
        round_ = tournament.rounds.filter(
            number=round_number, stage__in=OWN_KINDS, status=RoundStatus.FINISHED
        ).first()
        if round_ is not None and stage is not None and round_.stage_number != stage:
            round_ = None
    if round_ is None and stage is not None and round_number is None:
        raise NotFound(
            _("stage: stage %(n)d has no finished round yet.") % {"n": stage}, field="stage"
        )
    if round_ is None:
        raise NotFound(
            _("round: no finished Swiss round %(n)s yet.") % {"n": round_number or ""},
            field="round",
        )
    # Read the version first: a correction landing while we compute leaves the snapshot
    # older than its data, so the next read computes again (never the other way round).
    source = results_source_version(tournament, round_.number)
    # Rows stay unread until asked for: a cached page never decodes megabytes of JSON.
    snapshot = (
        StandingsSnapshot.objects.filter(round=round_).defer("rows").select_related("round").first()
    )
    configuration = tournament.tiebreaker_fingerprint
    if (
        snapshot is not None
        and snapshot.source_version == source
        and snapshot.tiebreakers == configuration
    ):
        return snapshot
    row = tournament.stages.filter(number=round_.stage_number).first()
    if row is None:
        rows = standings_rows(tournament, swiss_history(tournament, upto=round_.number))
    else:
        # The round's stage's own table (with its carried records where it carries them).
        rows = stage_standings_rows(tournament, row, upto=round_.number)
    snapshot, _created = StandingsSnapshot.objects.update_or_create(
        round=round_,
        defaults={"rows": rows, "source_version": source, "tiebreakers": configuration},
    )
    return snapshot


def results_source_version(tournament: Tournament, upto: int) -> int:
    newest = ResultVersion.objects.filter(
        match__round__tournament=tournament,
        match__round__number__lte=upto,
        match__round__stage__in=OWN_KINDS,
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
    checked_games = _checked(tournament, round_, games, match)
    given = details_input(tournament, battles, game_details)
    details = _checked_details(tournament, match, checked_games, given)
    if details is None and match.games == checked_games:
        details = match.game_details  # kept by the correction, as _staff_result keeps them
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
        battles=get_game(tournament.game).match_rules().match_score(details),
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
