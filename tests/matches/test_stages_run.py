"""Each preset run end to end through the REST API (event-structures: Stages): reports by both
players, a dispute settled by staff, a correction in an earlier stage that changes who reaches
the next one only while that stage has not started, the stages starting from the frozen final
standings, carried records without rematches, flights side by side, round robins with a bye,
brackets without draws (a double elimination's reset), and the champion."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.matches.stage_support import Run
from tournaments import stages as stage_rules
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


def _dispute_then_settle(run: Run, match: dict[str, Any]) -> None:
    a, b = run.client_of[match["a"]], run.client_of[match["b"]]
    url = f"/api/matches/{match['id']}/report/"
    assert a.post(url, {"games": [1, 0, 0]}, format="json").status_code == 200
    disputed = b.post(url, {"games": [0, 1, 0]}, format="json")
    assert disputed.json()["status"] == "disputed"
    settled = run.staff.post(url, {"games": [1, 0, 0]}, format="json")
    assert settled.status_code == 200 and settled.json()["status"] == "final", settled.content


def _flip(run: Run, match: dict[str, Any]) -> None:
    """The organiser corrects a final result the wrong way round."""
    games = match["result"]["games"]
    fixed = run.staff.post(
        f"/api/matches/{match['id']}/report/",
        {"games": [games[1], games[0], 0], "reason": "the slip was read the wrong way round"},
        format="json",
    )
    assert fixed.status_code == 200, fixed.content


def _points(run: Run, stage: int) -> dict[int, int]:
    return {r["registration"]: r["points"] for r in run.standings(stage)["rows"]}


def test_swiss_and_a_top_8_with_a_correction_before_and_after_the_cut() -> None:
    stages = stage_rules.stages_to_json(stage_rules.preset_swiss_top_cut(8, rounds=3))
    run = Run(stages, 16)
    run.transition("running")
    assert [s["status"] for s in run.stages()] == ["running", "pending"]
    assert sorted(run.stages()[0]["players"]) == sorted(r.pk for r in run.regs)
    for number in (1, 2, 3):
        round_ = run.pair()
        assert (round_["stage_number"], round_["name"]) == (1, f"Round {number}")
        if number == 1:
            _dispute_then_settle(run, round_["matches"][0])
        run.play(round_)
    assert [s["status"] for s in run.stages()] == ["finished", "pending"]
    # Round 3 paired the 1-1 players together: its winners finished on 6, its losers on 3.
    points = _points(run, 1)
    third = run.round(3)["matches"]
    swings = [m for m in third if points[m["a"]] == 6 and points[m["b"]] == 3]
    assert len(swings) >= 2
    before, after = swings[0], swings[1]
    _flip(run, before)  # stage 2 has not started: the correction decides who enters it
    started = run.start(2)
    assert started.status_code == 200, started.content
    entered = started.json()["players"]
    assert before["b"] in entered and before["a"] not in entered
    assert len(entered) == 8 and started.json()["status"] == "running"
    assert run.start(2).status_code == 409
    _flip(run, after)  # after the start: recorded, but the entry stays as it was
    assert run.stages()[1]["players"] == entered
    assert run.round(3)["matches"][third.index(after)]["result"]["games"][:2] == [0, 1]
    drawn = run.pair()
    assert drawn["name"] == "Quarterfinals"
    first = drawn["matches"][0]
    assert (first["a"], first["b"]) == (entered[0], entered[7])
    m = drawn["matches"][0]
    refused = run.client_of[m["a"]].post(
        f"/api/matches/{m['id']}/report/", {"games": [0, 0, 1]}, format="json"
    )
    assert refused.status_code == 400 and "games" in refused.json()
    run.play(drawn)
    rounds = [drawn, *run.play_bracket(2)]
    assert [r["name"] for r in rounds] == ["Quarterfinals", "Semifinals", "Final"]
    final = rounds[-1]["matches"][0]
    run.event.refresh_from_db()
    assert run.event.status == "finished"
    assert [s["status"] for s in run.stages()] == ["finished", "finished"]
    finished = AuditEntry.objects.get(tournament=run.event, action="event.finished")
    assert finished.data["champion"] == final["a"]


def test_day_two_on_points_with_carried_records_then_a_top_4() -> None:
    stages = stage_rules.stages_to_json(
        stage_rules.preset_day_two(points=6, top=4, day_one_rounds=3, day_two_rounds=2)
    )
    run = Run(stages, 16)
    run.transition("running")
    met: dict[int, set[int]] = {r.pk: set() for r in run.regs}
    for number in (1, 2, 3):
        round_ = run.pair()
        for m in round_["matches"]:
            if m["b"] is not None:
                met[m["a"]].add(m["b"])
                met[m["b"]].add(m["a"])
        run.play(round_)
        if number == 2:  # what do I need for day 2: 6 points, one round left
            calc = run.staff.get(f"/api/events/{run.slug}/cut-calculator/").json()
            assert calc["threshold"] == 6 and calc["rounds_left"] == 1
            by_points = {r["points"]: r for r in calc["rows"]}
            assert (by_points[6]["win"], by_points[6]["loss"]) == ("certain", "certain")
            assert (by_points[3]["win"], by_points[3]["loss"]) == ("certain", "impossible")
            assert by_points[0]["win"] == "impossible"
    assert run.start(3).status_code == 409  # the top 4 draws from day 2, not started
    day_one = _points(run, 1)
    started = run.start(2)
    assert started.status_code == 200, started.content
    qualified = sorted(pk for pk, p in day_one.items() if p >= 6)
    assert sorted(started.json()["players"]) == qualified
    for _ in range(2):
        round_ = run.pair()
        assert round_["stage_number"] == 2
        seated = {m["a"] for m in round_["matches"]} | {m["b"] for m in round_["matches"]}
        assert seated - {None} <= set(qualified)
        for m in round_["matches"]:
            if m["b"] is not None:
                assert m["b"] not in met[m["a"]], "a rematch of day 1"
                met[m["a"]].add(m["b"])
                met[m["b"]].add(m["a"])
        run.play(round_)
    carried = run.standings(2)
    assert {r["registration"] for r in carried["rows"]} == set(qualified)
    assert carried["stage"] == 2
    assert sum(r["points"] for r in carried["rows"]) == sum(day_one[p] for p in qualified) + 3 * 8
    assert run.stages()[1]["status"] == "finished"
    assert run.start(3).status_code == 200
    rounds = run.play_bracket(3, a_wins=False)
    assert [r["name"] for r in rounds] == ["Semifinals", "Final"]
    run.event.refresh_from_db()
    assert run.event.status == "finished"


def test_flights_pair_side_by_side_and_merge_into_a_carried_day_two() -> None:
    players = 16
    later = list(range(1, 9))  # placeholders: flight B is the last 8 registrations, set below
    stages = stage_rules.stages_to_json(
        stage_rules.preset_flights([later], points=6, top=4, day_one_rounds=2, day_two_rounds=1)
    )
    run = Run([stages[0]], players)
    flight_b = [r.pk for r in run.regs[8:]]
    stages[1]["entry"]["players"] = flight_b
    patched = run.staff.patch(f"/api/events/{run.slug}/", {"stages": stages}, format="json")
    assert patched.status_code == 200, patched.content
    run.transition("running")
    listed = run.stages()
    assert [s["status"] for s in listed] == ["running", "running", "pending", "pending"]
    assert sorted(listed[1]["players"]) == sorted(flight_b)
    assert sorted(listed[0]["players"]) == sorted(r.pk for r in run.regs[:8])
    ambiguous = run.staff.post(f"/api/events/{run.slug}/rounds/", {}, format="json")
    assert ambiguous.status_code == 409 and "stage" in ambiguous.json()
    for number in (1, 2):
        a = run.pair(stage=1)
        b = run.pair(stage=2)  # both rounds unfinished at once
        assert (a["stage_number"], b["stage_number"]) == (1, 2)
        assert a["name"] == b["name"]
        if number == 2:  # each flight's records are its own round 1's, not the other's
            for m in a["matches"] + b["matches"]:
                assert m["a_record"] in ("1-0-0", "0-1-0"), m
        run.play(a)
        run.play(b)
    assert [s["status"] for s in run.stages()][:2] == ["finished", "finished"]
    merged = {**_points(run, 1), **_points(run, 2)}
    started = run.start(3)
    assert started.status_code == 200, started.content
    entered = started.json()["players"]
    assert sorted(entered) == sorted(pk for pk, p in merged.items() if p >= 6)
    day_two = run.pair()
    assert day_two["stage_number"] == 3
    # Day 2's round 1 shows every flight's records (each player's two day 1 rounds), not
    # only the last flight's.
    shown = {m["a"]: m["a_record"] for m in day_two["matches"]}
    shown.update({m["b"]: m["b_record"] for m in day_two["matches"] if m["b"]})
    assert {pk for pk in shown if pk in flight_b} and {pk for pk in shown if pk not in flight_b}
    for pk, record in shown.items():
        assert sum(int(n) for n in record.split("-")) == 2, (pk, record)
        assert merged[pk] == 3 * int(record.split("-")[0]), (pk, record)
    run.play(day_two)
    assert run.start(4).status_code == 200
    rounds = run.play_bracket(4)
    assert rounds[-1]["name"] == "Final"
    run.event.refresh_from_db()
    assert run.event.status == "finished"


def test_a_round_robin_with_a_bye_each_round_then_a_top_4() -> None:
    stages = stage_rules.stages_to_json(stage_rules.preset_round_robin_top_cut(4))
    run = Run(stages, 5)
    run.transition("running")
    sat_out = []
    met = set()
    for number in range(1, 6):
        round_ = run.pair()
        assert (round_["stage"], round_["name"]) == ("round_robin", f"Round {number}")
        assert len(round_["matches"]) == 2 and all(m["b"] for m in round_["matches"])
        seated = {p for m in round_["matches"] for p in (m["a"], m["b"])}
        sat_out.extend({r.pk for r in run.regs} - seated)
        met |= {frozenset((m["a"], m["b"])) for m in round_["matches"]}
        run.play(round_, a_wins=lambda m: m["a"] < m["b"])
    assert sorted(sat_out) == sorted(r.pk for r in run.regs)  # each sits out once
    assert len(met) == 10  # everyone met everyone once
    rows = run.standings(1)["rows"]
    # The lower id won every match: 4 wins, 3, 2, 1, 0; nobody's bye scored.
    assert [r["points"] for r in rows] == [12, 9, 6, 3, 0]
    assert [r["registration"] for r in rows] == sorted(r.pk for r in run.regs)
    blocked = run.staff.post(f"/api/events/{run.slug}/rounds/", {}, format="json")
    assert blocked.status_code == 409
    started = run.start(2)
    assert started.json()["players"] == [r["registration"] for r in rows[:4]]
    rounds = run.play_bracket(2)
    assert [r["name"] for r in rounds] == ["Semifinals", "Final"]
    run.event.refresh_from_db()
    assert run.event.status == "finished"


def test_a_double_elimination_with_byes_and_a_bracket_reset() -> None:
    stages = stage_rules.stages_to_json(stage_rules.preset_double_elimination())
    run = Run(stages, 6)
    run.transition("running")
    seeds = run.stages()[0]["players"]
    assert len(seeds) == 6
    names = []
    lost: dict[int, int] = {}
    while run.stages()[0]["status"] == "running":
        round_ = run.pair()
        names.append(round_["name"])
        grand_final = round_["name"] == "Grand final"
        # The better seed wins, except in the grand finals: the losers' side player (b) wins
        # both, the first forcing the reset.
        run.play(round_, a_wins=not grand_final)
        for m in run.round(round_["number"])["matches"]:
            games = m["result"]["games"]
            loser = m["b"] if games[0] > games[1] else m["a"]
            lost[loser] = lost.get(loser, 0) + 1
    assert names[0] == "Winners round 1"
    assert names[-2:] == ["Grand final", "Grand final"]  # the reset was played
    assert "Losers round 1" not in names  # six players: losers round 1 is byes alone
    champion = AuditEntry.objects.get(tournament=run.event, action="event.finished")
    assert lost.get(champion.data["champion"]) == 1  # came from the losers' side
    assert sorted(v for k, v in lost.items() if k != champion.data["champion"]) == [2] * 5
    run.event.refresh_from_db()
    assert run.event.status == "finished"
    assert Registration.objects.filter(tournament=run.event).count() == 6


def test_deleting_the_legacy_top_cuts_only_round_reopens_its_stage(finished_swiss) -> None:  # type: ignore[no-untyped-def]
    from matches import services

    event, organiser = finished_swiss.event, finished_swiss.organiser
    event.top_cut_size = 4
    event.save(update_fields=["top_cut_size"])
    cut = services.top_cut_start(actor=organiser, tournament=event)
    assert [s.status for s in event.stages.order_by("number")] == ["finished", "running"]
    services.round_delete(actor=organiser, round_=cut, confirm=True)
    event.refresh_from_db()
    assert event.status == "running"
    swiss, top = event.stages.order_by("number")
    assert (swiss.status, top.status, top.players) == ("running", "pending", None)
    again = services.top_cut_start(actor=organiser, tournament=event)
    assert again.stage_number == 2 and again.matches.count() == 2


def test_a_later_swiss_stage_that_carries_nothing_ranks_and_places_on_its_own_rounds() -> None:
    stages = [
        {"name": "Day 1", "kind": "swiss", "rounds": 2},
        {"name": "Fresh", "kind": "swiss", "rounds": 1, "entry": {"from": [1], "top": 4}},
    ]
    run = Run(stages, 8)
    run.transition("running")
    for _ in (1, 2):
        run.play(run.pair())
    assert run.start(2).status_code == 200
    fresh = run.pair()
    run.play(fresh, a_wins=False)
    rows = run.standings(2)["rows"]
    assert sorted(r["points"] for r in rows) == [0, 0, 3, 3]  # no day 1 point counted
    winners = {m["b"] for m in fresh["matches"]}
    placings = run.staff.get(f"/api/events/{run.slug}/placings/").json()["rows"]
    assert {r["registration"] for r in placings[:2]} == winners
    assert [r["stage"] for r in placings[:4]] == [2, 2, 2, 2]


def test_what_do_i_need_for_day_two_answers_for_each_flight_played_side_by_side() -> None:
    stages = stage_rules.stages_to_json(
        stage_rules.preset_flights([[1, 2]], points=6, top=4, day_one_rounds=3, day_two_rounds=1)
    )
    run = Run([stages[0]], 8)
    flight_b = [r.pk for r in run.regs[4:]]
    stages[1]["entry"]["players"] = flight_b
    patched = run.staff.patch(f"/api/events/{run.slug}/", {"stages": stages}, format="json")
    assert patched.status_code == 200, patched.content
    run.transition("running")
    run.play(run.pair(stage=1))
    run.play(run.pair(stage=2))
    url = f"/api/events/{run.slug}/cut-calculator/"
    first = run.staff.get(url).json()
    assert first["stage"] == 1 and first["threshold"] == 6
    assert {r["registration"] for r in first["rows"]} == {r.pk for r in run.regs[:4]}
    second = run.staff.get(url + "?stage=2").json()
    assert second["stage"] == 2 and second["rounds_left"] == 2
    assert {r["registration"] for r in second["rows"]} == set(flight_b)
    assert run.staff.get(url + "?stage=9").json()["field"] == "stage"
    # A flight B player's page answers for flight B by default, the flights linked.
    browser = Client()
    browser.force_login(run.regs[5].player)
    page = browser.get(f"/events/{run.slug}/standings/cut/")
    assert page.context["data"]["stage"] == 2
    assert page.context["mine"]["registration"] == run.regs[5].pk
    assert [n for n, _name in page.context["flights"]] == [1, 2]
