"""Final placings through the REST API (event-structures: Placings): a legacy event, Swiss then a
single-elimination top 8, played through the API, checked against the contract's rule written
out here from the standings and the bracket the test played itself."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.placings import event_placings, placings_version
from tests.scenarios import client_for, finished_swiss, running_event

pytestmark = pytest.mark.django_db


def _placings(slug: str) -> dict[str, Any]:
    response = APIClient().get(f"/api/events/{slug}/placings/")
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    places = [row["place"] for row in body["rows"]]
    assert places == list(range(1, len(places) + 1))  # no gaps, nobody twice
    assert len({row["registration"] for row in body["rows"]}) == len(places)
    return body


def _round(slug: str, number: int) -> dict[str, Any]:
    body: dict[str, Any] = APIClient().get(f"/api/events/{slug}/rounds/{number}/").json()
    return body


def _winner_loser(m: dict[str, Any]) -> tuple[int, int]:
    games = m["result"]["games"]
    return (m["a"], m["b"]) if games[0] > games[1] else (m["b"], m["a"])


def test_placings_of_a_swiss_and_top_8_event_through_the_api() -> None:
    rng = random.Random(2026_11_27)
    event, organiser, regs = running_event(20, planned_rounds=4, top_cut_size=8)
    slug = event.slug
    staff = client_for(organiser)
    for number in range(1, 5):
        if number == 3:  # a player drops after round 2: keeps the place the record gives
            dropped = regs[5].pk
            response = staff.post(f"/api/registrations/{dropped}/drop/", {})
            assert response.status_code == 200, response.content
        round_ = _pair_publish(staff, slug)
        _report(staff, round_, rng)
        standings = APIClient().get(f"/api/events/{slug}/standings/").json()["rows"]
        placings = _placings(slug)
        # While running: not final, the rows are the standings as they stand.
        assert placings["final"] is False
        assert [r["registration"] for r in placings["rows"]] == [
            r["registration"] for r in standings
        ]
        assert {r["stage"] for r in placings["rows"]} == {1}
        assert all(r["eliminated_in"] is None for r in placings["rows"])
    event.refresh_from_db()

    final_standings = APIClient().get(f"/api/events/{slug}/standings/").json()["rows"]
    assert dropped in [r["registration"] for r in final_standings]
    cut = staff.post(f"/api/events/{slug}/top-cut/", {}, format="json")
    assert cut.status_code == 201, cut.content
    number = cut.json()["number"]
    seeds = {}
    for m in cut.json()["matches"]:
        seeds[m["a"]], seeds[m["b"]] = m["seed_a"], m["seed_b"]
    top8 = sorted(seeds, key=seeds.__getitem__)
    assert dropped not in top8
    # Paired, not published: the public's placings do not show the bracket yet.
    assert _placings(slug)["rows"][0]["stage"] == 1

    published = staff.post(f"/api/events/{slug}/rounds/{number}/publish/", {}, format="json")
    _report(staff, published.json(), rng)
    quarterfinals = _round(slug, number)
    qf_losers = sorted(
        (_winner_loser(m)[1] for m in quarterfinals["matches"]), key=seeds.__getitem__
    )
    qf_winners = sorted(
        (_winner_loser(m)[0] for m in quarterfinals["matches"]), key=seeds.__getitem__
    )
    during = _placings(slug)
    assert during["final"] is False
    assert [r["registration"] for r in during["rows"][:8]] == qf_winners + qf_losers
    assert [r["eliminated_in"] for r in during["rows"][:8]] == [None] * 4 + ["Quarterfinals"] * 4

    semis = _pair_publish(staff, slug)
    _report(staff, semis, rng)
    sf = _round(slug, semis["number"])
    sf_losers = sorted((_winner_loser(m)[1] for m in sf["matches"]), key=seeds.__getitem__)
    final = _pair_publish(staff, slug)
    _report(staff, final, rng)
    champion, finalist = _winner_loser(_round(slug, final["number"])["matches"][0])
    event.refresh_from_db()
    assert event.status == "finished"

    placings = _placings(slug)
    assert placings["final"] is True
    rows = placings["rows"]
    expected = [champion, finalist, *sf_losers, *qf_losers]
    rest = [r["registration"] for r in final_standings if r["registration"] not in top8]
    assert [r["registration"] for r in rows] == expected + rest
    assert [r["eliminated_in"] for r in rows[:8]] == [
        None,
        "Final",
        "Semifinals",
        "Semifinals",
        *["Quarterfinals"] * 4,
    ]
    assert [r["stage"] for r in rows] == [2] * 8 + [1] * len(rest)
    assert all(r["eliminated_in"] is None for r in rows[8:])
    # The dropped player keeps the place the Swiss record gives.
    assert next(r["place"] for r in rows if r["registration"] == dropped) == 9 + rest.index(dropped)
    names = {r.pk: r.name for r in regs}
    assert all(row["name"] == names[row["registration"]] for row in rows)
    assert len(rows) == len(final_standings)  # everyone who played, once


def _pair_publish(staff: APIClient, slug: str) -> dict[str, Any]:
    created = staff.post(f"/api/events/{slug}/rounds/", {}, format="json")
    assert created.status_code == 201, created.content
    number = created.json()["number"]
    published = staff.post(f"/api/events/{slug}/rounds/{number}/publish/", {}, format="json")
    assert published.status_code == 200, published.content
    body: dict[str, Any] = published.json()
    return body


def _report(staff: APIClient, round_: dict[str, Any], rng: random.Random) -> None:
    for m in round_["matches"]:
        if m["b"] is None:
            continue
        games = [1, 0, 0] if rng.random() < 0.5 else [0, 1, 0]
        done = staff.post(f"/api/matches/{m['id']}/report/", {"games": games}, format="json")
        assert done.status_code == 200, done.content


def test_an_event_without_a_top_cut_is_final_once_finished() -> None:
    swiss = finished_swiss(players=6, rounds=2)
    event = swiss.event
    assert _placings(event.slug)["final"] is False
    staff = client_for(swiss.organiser)
    done = staff.post(f"/api/events/{event.slug}/transition/", {"to": "finished"}, format="json")
    assert done.status_code == 200, done.content
    body = _placings(event.slug)
    assert body["final"] is True
    standings = APIClient().get(f"/api/events/{event.slug}/standings/").json()["rows"]
    assert [r["registration"] for r in body["rows"]] == [r["registration"] for r in standings]


def test_placings_before_any_finished_round_are_empty_and_not_final() -> None:
    event, _organiser, _regs = running_event(4)
    body = _placings(event.slug)
    assert body == {"final": False, "count": 0, "rows": []}


def test_placings_are_computed_once_per_results_version(
    django_assert_max_num_queries: Any,
) -> None:
    swiss = finished_swiss(players=8, rounds=2)
    event = swiss.event
    version = placings_version(event)
    first = event_placings(event, version=version)
    with django_assert_max_num_queries(0):
        again = event_placings(event, version=version)
    assert again == first
    assert placings_version(event) == version


def test_a_draft_event_has_no_public_placings() -> None:
    event, organiser, _regs = running_event(4, status="draft")
    assert APIClient().get(f"/api/events/{event.slug}/placings/").status_code == 404
    assert client_for(organiser).get(f"/api/events/{event.slug}/placings/").status_code == 200


def test_limit_out_of_range_is_a_400_naming_limit() -> None:
    event, _organiser, _regs = running_event(4)
    response = APIClient().get(f"/api/events/{event.slug}/placings/?limit=0")
    assert response.status_code == 400
    assert "limit" in response.content.decode()
