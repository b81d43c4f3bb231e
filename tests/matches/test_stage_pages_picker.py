"""The standings page's stage picker (?stage=N: an accessible select and the same stages as
plain links, for a phone without JavaScript) and the event page's list of stages with their
links (event-structures: Stages), for players and for teams."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.matches.stage_support import Run
from tests.matches.team_stage_support import StagedTeamEvent, lower_id_wins

pytestmark = pytest.mark.django_db

DAY_ONE_DAY_TWO = [
    {"name": "Day 1", "kind": "swiss", "rounds": 2, "match_structure": "bo1"},
    {
        "name": "Day 2",
        "kind": "swiss",
        "rounds": 1,
        "match_structure": "bo1",
        "entry": {"from": [1], "top": 4},
        "carry": "points",
    },
    {"name": "Top 2", "kind": "single_elimination", "entry": {"from": [2], "top": 2}},
]


def _day_two_played() -> Run:
    run = Run(DAY_ONE_DAY_TWO, 8)
    run.transition("running")
    for _ in range(2):
        run.play(run.pair())
    assert run.start(2).status_code == 200
    run.play(run.pair())
    return run


def test_the_standings_page_picks_a_stage_with_a_select_and_with_links() -> None:
    run = _day_two_played()
    page = Client().get(f"/events/{run.slug}/standings/")
    assert page.status_code == 200
    html = page.content.decode()
    # The latest stage by default; the picker is a labelled select and a plain link list.
    assert "Day 2: standings after round 3" in html
    assert '<label for="id_stage">' in html and 'id="id_stage" name="stage"' in html
    assert re.search(r'<option value="2" selected>Day 2</option>', html)
    assert 'href="?stage=1"' in html and 'href="?stage=2" aria-current="page"' in html
    assert "Top 2" not in html.split("stage-links")[1].split("</ul>")[0]  # a bracket: no standings

    day_one = Client().get(f"/events/{run.slug}/standings/?stage=1").content.decode()
    assert "Day 1: standings after round 2" in day_one
    assert re.search(r'<option value="1" selected>Day 1</option>', day_one)
    # The round picker lists the chosen stage's rounds only.
    rounds = re.search(r'<select id="id_round" name="round">(.*?)</select>', day_one)
    assert rounds is not None and re.findall(r'value="(\d+)"', rounds.group(1)) == ["1", "2"]
    assert day_one.count("<tr") - 1 == 8  # every day 1 player (a header row, then 8)

    assert Client().get(f"/events/{run.slug}/standings/?stage=3").status_code == 404
    assert Client().get(f"/events/{run.slug}/standings/?stage=x").status_code == 404


def test_the_event_page_lists_the_stages_with_their_links() -> None:
    run = _day_two_played()
    html = Client().get(f"/events/{run.slug}/").content.decode()
    section = html.split('id="event-stages-heading"')[1].split("</ol>")[0]
    assert re.findall(r"<strong>([^<]+)</strong>", section) == [
        "Day 1",
        "Day 2",
        "Top 2",
    ]
    assert f'href="/events/{run.slug}/standings/?stage=1"' in section
    assert f'href="/events/{run.slug}/standings/?stage=2"' in section
    assert "Bracket of Top 2" not in section  # not started yet
    assert section.count("badge-stage-finished") == 2 and "badge-stage-pending" in section


def test_the_team_standings_page_picks_a_stage() -> None:
    ev = StagedTeamEvent(
        [
            {"name": "Round robin", "kind": "round_robin"},
            {"name": "Top 2", "kind": "single_elimination", "entry": {"from": [1], "top": 2}},
        ],
        team_count=3,
    )
    for _ in range(3):
        ev.play_round(lower_id_wins)
    html = Client().get(f"/events/{ev.slug}/standings/teams/?stage=1").content.decode()
    assert "Team 1" in html and "After round 3." in html
    assert Client().get(f"/events/{ev.slug}/standings/teams/?stage=2").status_code == 404
    page = Client().get(f"/events/{ev.slug}/").content.decode()
    assert f'href="/events/{ev.slug}/standings/teams/?stage=1"' in page
