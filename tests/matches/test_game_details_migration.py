"""Migration matches 0011: BoBA's `battles` columns move into the per-game details, and every
existing result and its history keep their trophies."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches import services
from matches.models import Match, MatchStatus, Report
from tests.factories import logged_in
from tests.scenarios import pair_and_publish, running_event

migration = importlib.import_module("matches.migrations.0011_battles_into_game_details")

BEFORE = [("matches", "0010_standings_snapshot_tiebreakers")]
AFTER = [("matches", "0011_battles_into_game_details")]


@pytest.mark.parametrize(
    ("battles", "details"),
    [
        ([[4, 2]], [{"trophies": [4, 2]}]),
        ([[4, 2], [1, 4]], [{"trophies": [4, 2]}, {"trophies": [1, 4]}]),
        ([], []),
        (None, None),
        ("junk", None),
    ],
)
def test_trophies_as_details_is_the_inverse_of_details_as_trophies(
    battles: Any, details: Any
) -> None:
    assert migration.trophies_as_details(battles) == details
    if details:
        assert migration.details_as_trophies(details) == battles


def test_bos_details_are_never_taken_for_trophies_on_the_way_back() -> None:
    assert migration.details_as_trophies([{"winner": "a", "bids": [1, 2]}]) is None


def _migrate(target: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_every_result_report_and_version_keeps_its_trophies_across_the_migration() -> None:
    event, organiser, regs = running_event(4)
    round_ = pair_and_publish(event, organiser)
    final, reported = list(round_.matches.filter(b__isnull=False).order_by("table"))
    services.match_report(actor=final.a.player, match=final, games=[1, 0, 0], battles=[[4, 2]])
    services.match_report(actor=final.b.player, match=final, games=[1, 0, 0], battles=[[4, 2]])
    services.match_report(actor=reported.a.player, match=reported, games=[0, 1, 0])
    versions_before = list(final.versions.order_by("number").values_list("before", "after"))
    assert versions_before[-1][1]["battles"] == [[4, 2]]

    try:
        # Back to the old schema: the trophies are `battles` columns again.
        old = _migrate(BEFORE)
        OldMatch, OldReport = old.get_model("matches", "Match"), old.get_model("matches", "Report")
        assert OldMatch.objects.get(pk=final.pk).battles == [[4, 2]]
        assert OldMatch.objects.get(pk=final.pk).game_details is None
        assert sorted(
            OldReport.objects.filter(match_id=final.pk).values_list("battles", flat=True)
        ) == [
            [[4, 2]],
            [[4, 2]],
        ]
        # A result written by the old code: a lone report with its trophies.
        OldReport.objects.filter(match_id=reported.pk).update(battles=[[1, 4]])
        OldMatch.objects.filter(pk=reported.pk).update(battles=[[1, 4]])
    finally:
        _migrate(AFTER)
        # Then every later migration too (the schema the tests after this one expect).
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    final.refresh_from_db()
    assert final.status == MatchStatus.FINAL and final.game_details == [{"trophies": [4, 2]}]
    assert final.result_json() == {"games": [1, 0, 0], "battles": [[4, 2]]}
    assert [r.game_details for r in Report.objects.filter(match=final)] == [
        [{"trophies": [4, 2]}],
        [{"trophies": [4, 2]}],
    ]
    assert list(final.versions.order_by("number").values_list("before", "after")) == (
        versions_before
    )
    lone = Match.objects.get(pk=reported.pk)
    assert lone.game_details == [{"trophies": [1, 4]}]
    assert Report.objects.get(match=lone).game_details == [{"trophies": [1, 4]}]

    # The opponent confirms the old report: it goes final with its trophies, the standings
    # read them, and the API answers with `battles` as before.
    services.match_confirm(actor=lone.b.player, match=lone)
    lone.refresh_from_db()
    assert lone.status == MatchStatus.FINAL
    history = services.swiss_history(event)
    trophies = {(m.a, m.b): m.battles for m in history.rounds[0] if m.b is not None}
    assert trophies == {
        (str(final.a_id), str(final.b_id)): (4, 2),
        (str(lone.a_id), str(lone.b_id)): (1, 4),
    }
    answer = logged_in(organiser).get(f"/api/matches/{lone.pk}/").json()
    assert answer["result"] == {"games": [0, 1, 0], "battles": [[1, 4]]}
