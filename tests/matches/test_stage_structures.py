"""A stage plays its own match structure (event-structures: Stages): a bye in a best-of-3 stage
after a best-of-1 one is worth 2-0 (rules README decision 11), the standings of a stage that
carries records count each bye as its own stage recorded it, and results, the report page and
the staff pages take the stage's structure, not the event's."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from eventdata import archive
from eventdata.archive_selectors import event_archive
from eventdata.archive_services import archive_import
from matches.models import Match
from tests.matches.stage_support import Run
from tests.tournaments.archive_scenes import delete_event
from tournaments import stages as stage_rules
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

# Day 1 in the event's structure (best of 1), a day 2 in best of 3 carrying the records.
DAY_TWO_BO3 = [
    {"name": "Day 1", "kind": "swiss", "rounds": 2},
    {
        "name": "Day 2",
        "kind": "swiss",
        "rounds": 1,
        "match_structure": "bo3",
        "entry": {"from": [1], "points": 0},
        "carry": "points",
    },
]


def _report_both(run: Run, match: dict[str, Any], games: list[int], **extra: Any) -> None:
    for side in ("a", "b"):
        answer = run.client_of[match[side]].post(
            f"/api/matches/{match['id']}/report/", {"games": games, **extra}, format="json"
        )
        assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "final"


def _bye_of(round_: dict[str, Any]) -> dict[str, Any]:
    byes = [m for m in round_["matches"] if m["b"] is None]
    assert len(byes) == 1
    return byes[0]


def test_rule_11_a_bye_in_a_best_of_3_day_two_is_2_0_after_1_0_byes_on_day_one() -> None:
    run = Run(DAY_TWO_BO3, 7)
    run.transition("running")
    day_one_byes = []
    for _ in (1, 2):
        round_ = run.pair()
        day_one_byes.append(_bye_of(round_))
        run.play(round_)
    assert [b["result"]["games"] for b in day_one_byes] == [[1, 0, 0], [1, 0, 0]]
    assert run.start(2).status_code == 200
    day_two = run.pair()
    assert day_two["stage_number"] == 2
    bye = _bye_of(day_two)
    assert bye["result"]["games"] == [2, 0, 0]
    versions = run.staff.get(f"/api/matches/{bye['id']}/versions/").json()
    assert versions[0]["change"] == "bye" and versions[0]["after"]["games"] == [2, 0, 0]
    for m in day_two["matches"]:
        if m["b"] is not None:
            _report_both(run, m, [2, 1, 0])
    # The carried standings count each bye as its stage recorded it: the games of every
    # player's rounds as the rounds show them.
    played: dict[int, list[int]] = {}
    for number in (1, 2, 3):
        for m in run.round(number)["matches"]:
            won, lost, drawn = m["result"]["games"]
            for pk, mine in ((m["a"], (won, lost)), (m["b"], (lost, won))):
                if pk is not None:
                    total = played.setdefault(pk, [0, 0, 0])
                    total[0] += mine[0]
                    total[1] += mine[1]
                    total[2] += drawn
    rows = run.standings(2)["rows"]
    assert {r["registration"]: r["games"] for r in rows} == played
    assert played[bye["a"]][0] >= 2


def test_rule_11_a_round_robin_bye_for_a_dropped_opponent_is_worth_the_stages_structure() -> None:
    stages = [
        {"name": "Swiss", "kind": "swiss", "rounds": 1},
        {
            "name": "Pool",
            "kind": "round_robin",
            "match_structure": "bo3",
            "entry": {"from": [1], "top": 4},
        },
    ]
    run = Run(stages, 4)
    run.transition("running")
    run.play(run.pair())
    assert run.start(2).status_code == 200
    pool = run.stages()[1]["players"]
    Registration.objects.filter(pk=pool[0]).update(dropped_at="2030-05-01T12:00:00Z")
    round_ = run.pair()
    bye = _bye_of(round_)
    assert bye["reason"].startswith("bye: opponent dropped")
    assert bye["result"]["games"] == [2, 0, 0]


def test_a_best_of_3_stages_results_and_pages_take_its_structure_not_the_events() -> None:
    run = Run(DAY_TWO_BO3, 8)
    run.transition("running")
    for _ in (1, 2):
        round_ = run.pair()
        # best of 1 on day 1: two games won is refused
        m = round_["matches"][0]
        too_many = run.client_of[m["a"]].post(
            f"/api/matches/{m['id']}/report/", {"games": [2, 0, 0]}, format="json"
        )
        assert too_many.status_code == 400 and "games" in too_many.json()["field"]
        run.play(round_)
    assert run.start(2).status_code == 200
    day_two = run.pair()
    m = day_two["matches"][0]
    # The report page offers a best of 3 (three games' inputs), not the event's best of 1.
    browser = Client()
    browser.force_login(Registration.objects.get(pk=m["a"]).player)
    page = browser.get(f"/matches/{m['id']}/report/")
    assert page.status_code == 200
    assert page.context["games_to_win"] == 2
    # A three-game result with each game's trophies is accepted in the best-of-3 stage.
    _report_both(run, m, [2, 1, 0], battles=[[4, 3], [3, 4], [4, 2]])
    final = run.round(day_two["number"])["matches"][0]
    assert final["result"]["games"] == [2, 1, 0]


def test_the_cut_calculator_and_the_standings_page_count_the_swiss_stages_own_rounds() -> None:
    stages = stage_rules.stages_to_json(stage_rules.preset_swiss_top_cut(8, rounds=3))
    run = Run(stages, 16)  # 16 players would be recommended more than 3 rounds
    run.transition("running")
    run.play(run.pair())
    calc = run.staff.get(f"/api/events/{run.slug}/cut-calculator/").json()
    assert (calc["cut_size"], calc["rounds_left"]) == (8, 2)
    page = Client().get(f"/events/{run.slug}/standings/")
    assert page.context["rounds_left"] == 2


def test_an_archive_of_a_best_of_3_stage_after_a_best_of_1_one_imports_its_results() -> None:
    run = Run(DAY_TWO_BO3, 8)
    run.transition("running")
    for _ in (1, 2):
        run.play(run.pair())
    assert run.start(2).status_code == 200
    day_two = run.pair()
    m = day_two["matches"][0]
    _report_both(run, m, [2, 1, 0], battles=[[4, 3], [3, 4], [4, 2]])
    doc = event_archive(run.event)
    delete_event(run.event)
    report = archive_import(archive.dumps(doc))
    assert report.counts["matches"]["created"] == len(doc["matches"])
    event = Tournament.objects.get(slug=run.slug)
    restored = Match.objects.get(round__tournament=event, round__number=3, table=m["table"])
    assert (restored.games_a, restored.games_b) == (2, 1)
    assert restored.game_details is not None and len(restored.game_details) == 3
