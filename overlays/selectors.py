"""Reads of the overlays: feature matches (the coverage page lists them too) and the live
stamp the stream watches.

Overlays show what the public sees: published and finished rounds of a public event.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import QuerySet

from matches.models import VISIBLE_TO_PLAYERS, ClockEvent, JudgeCall, Round, Ruling
from overlays.models import FeatureMatch
from tournaments.models import Tournament


def feature_matches(tournament: Tournament, round_: Round | None = None) -> QuerySet[FeatureMatch]:
    """The feature matches of a round (default: the newest round the public sees that has
    any), by slot, with their match, players and round read in the same query."""
    qs = FeatureMatch.objects.filter(tournament=tournament).select_related(
        "match__a__player", "match__b__player", "round"
    )
    if round_ is None:
        newest = (
            qs.filter(round__status__in=VISIBLE_TO_PLAYERS)
            .order_by("-round__number")
            .values_list("round_id", flat=True)
            .first()
        )
        if newest is None:
            return qs.none()
        return qs.filter(round_id=newest).order_by("slot")
    return qs.filter(round=round_).order_by("slot")


def feature_in_slot(tournament: Tournament, slot: int) -> FeatureMatch | None:
    """What the overlay of feature slot ``slot`` shows: that slot in the newest round the
    public sees that has it marked."""
    return (
        FeatureMatch.objects.filter(
            tournament=tournament, slot=slot, round__status__in=VISIBLE_TO_PLAYERS
        )
        .select_related("match__a__player", "match__b__player", "round")
        .order_by("-round__number")
        .first()
    )


def feature_slots(round_: Round) -> dict[int, int]:
    """Match id -> slot for the round's feature matches (the round control's buttons)."""
    return dict(FeatureMatch.objects.filter(round=round_).values_list("match_id", "slot"))


def live_stamp(tournament_id: int) -> str:
    """One short string that changes whenever anything an overlay of the event shows changes:
    every round's ``content_version`` (moved in the same transaction as a result, a seat, the
    timer or the status: docs/architecture.md, "Published copies") and the number of rounds,
    the feature marks, and the clock presses and judges' rulings of feature matches. One
    query of four indexed sub-selects; the stream reads it about once a second per event and
    process, whatever the number of viewers."""
    rounds = Round._meta.db_table
    features = FeatureMatch._meta.db_table
    clocks = ClockEvent._meta.db_table
    calls = JudgeCall._meta.db_table
    rulings = Ruling._meta.db_table
    sql = f"""
        SELECT
          (SELECT COALESCE(SUM(content_version), 0) FROM {rounds} WHERE tournament_id = %s),
          (SELECT COUNT(*) FROM {rounds} WHERE tournament_id = %s),
          (SELECT COUNT(*) FROM {features} WHERE tournament_id = %s),
          (SELECT COALESCE(MAX(id), 0) FROM {features} WHERE tournament_id = %s),
          (SELECT COALESCE(MAX(c.id), 0) FROM {clocks} c
             JOIN {features} f ON f.match_id = c.match_id WHERE f.tournament_id = %s),
          (SELECT COALESCE(MAX(r.id), 0) FROM {rulings} r
             JOIN {calls} j ON j.id = r.call_id
             JOIN {features} f ON f.match_id = j.match_id WHERE f.tournament_id = %s)
    """  # table names from the models, values as parameters
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id] * 6)
        row = cursor.fetchone()
    return ".".join(str(int(v or 0)) for v in row)
