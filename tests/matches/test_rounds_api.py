"""The rounds part of the event API (../shared/spec/event-api.md): pair, publish, report,
confirm, standings, top cut, as organisers, players and the public see them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match, MatchStatus, ResultVersion, Round
from tests.factories import UserFactory
from tests.scenarios import client_for, pair_and_publish_through_api, player_client, running_event
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_pair_publish_report_confirm_finishes_the_round() -> None:
    event, organiser, _ = running_event(9)
    round_json = pair_and_publish_through_api(event, organiser)

    assert round_json["stage"] == "swiss" and round_json["status"] == "published"
    assert round_json["ends_at"] is not None
    matches = round_json["matches"]
    byes = [m for m in matches if m["b"] is None]
    assert len(byes) == 1 and byes[0]["status"] == "final"
    assert byes[0]["result"] == {"games": [1, 0, 0]}  # best of 1 (decision 11)
    assert byes[0]["table"] is None
    for m in matches:
        if m["b"] is None:
            continue
        a, b = player_client(m, "a"), player_client(m, "b")
        first = a.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
        assert first.status_code == 200 and first.json()["status"] == "reported"
        again = a.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
        assert again.json()["status"] == "reported"  # a double tap never finalises
        confirmed = b.post(f"/api/matches/{m['id']}/confirm/", {}, format="json")
        assert confirmed.status_code == 200 and confirmed.json()["status"] == "final"
        assert confirmed.json()["result"]["games"] == [1, 0, 0]

    detail = APIClient().get(f"/api/events/{event.slug}/rounds/1/").json()
    assert detail["status"] == "finished"
    standings = APIClient().get(f"/api/events/{event.slug}/standings/").json()
    assert standings["round"] == 1
    assert [r["points"] for r in standings["rows"]].count(3) == 5
    assert set(standings["rows"][0]["tiebreakers"]) == {"omw", "gw", "ogw", "battle_diff"}


def test_players_and_public_do_not_see_an_unpublished_round() -> None:
    event, organiser, regs = running_event(4)
    created = client_for(organiser).post(f"/api/events/{event.slug}/rounds/", {}, format="json")
    assert created.json()["status"] == "paired"
    player = client_for(regs[0].player)
    assert player.get(f"/api/events/{event.slug}/rounds/").json() == []
    assert player.get(f"/api/events/{event.slug}/rounds/1/").status_code == 404
    match_id = Match.objects.filter(round__tournament=event).first().pk
    assert player.get(f"/api/matches/{match_id}/").status_code == 404
    reported = player.post(f"/api/matches/{match_id}/report/", {"games": [1, 0, 0]}, format="json")
    assert reported.status_code == 404
    assert APIClient().get(f"/api/events/{event.slug}/rounds/1/").status_code == 404


def test_pairing_while_a_round_is_unfinished_is_409() -> None:
    event, organiser, _ = running_event(4)
    pair_and_publish_through_api(event, organiser)
    again = client_for(organiser).post(f"/api/events/{event.slug}/rounds/", {}, format="json")
    assert again.status_code == 409
    assert Round.objects.filter(tournament=event).count() == 1


def test_pairing_an_event_that_is_not_running_is_409() -> None:
    event, organiser, _ = running_event(4, status="registration_closed")
    response = client_for(organiser).post(f"/api/events/{event.slug}/rounds/", {}, format="json")
    assert response.status_code == 409


def test_players_cannot_pair_or_publish() -> None:
    event, organiser, regs = running_event(4)
    player = client_for(regs[0].player)
    assert player.post(f"/api/events/{event.slug}/rounds/", {}, format="json").status_code == 403
    client_for(organiser).post(f"/api/events/{event.slug}/rounds/", {}, format="json")
    response = player.post(f"/api/events/{event.slug}/rounds/1/publish/", {}, format="json")
    assert response.status_code == 404  # the round is not published: players cannot see it


def test_different_reports_dispute_and_staff_settle_with_an_audit_trail() -> None:
    event, organiser, _ = running_event(2)
    m = pair_and_publish_through_api(event, organiser)["matches"][0]
    a, b = player_client(m, "a"), player_client(m, "b")
    a.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
    disputed = b.post(f"/api/matches/{m['id']}/report/", {"games": [0, 1, 0]}, format="json")
    assert disputed.json()["status"] == "disputed"
    staff = client_for(organiser)
    settled = staff.post(f"/api/matches/{m['id']}/report/", {"games": [0, 1, 0]}, format="json")
    assert settled.status_code == 200 and settled.json()["status"] == "final"
    changes = list(ResultVersion.objects.filter(match_id=m["id"]).values_list("change", flat=True))
    assert changes == ["reported", "disputed", "entered"]
    actions = set(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert {"match.reported", "match.disputed", "match.entered", "round.finished"} <= actions


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"games": [3, 3, 0]}, "games"),
        ({"games": [-1, 0, 0]}, "games"),
        ({"games": [1, 0]}, "games"),
        ({"games": "1-0"}, "games"),
        ({"games": [1, 0, 0], "battles": [[5, 3]]}, "battles[0]"),
        ({"games": [1, 0, 0], "battles": [[4, 1], [4, 0]]}, "battles"),
        # BoBA's trophies are per-game details inside, but the API takes them as `battles`.
        ({"games": [1, 0, 0], "game_details": [{"trophies": [4, 1]}]}, "game_details"),
    ],
)
def test_impossible_results_are_400_naming_the_field(body: dict[str, Any], field: str) -> None:
    event, organiser, _ = running_event(2)
    m = pair_and_publish_through_api(event, organiser)["matches"][0]
    response = player_client(m, "a").post(f"/api/matches/{m['id']}/report/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()  # services say {"field": f, f: [msg]}; serializers {f: [msg]}
    assert Match.objects.get(pk=m["id"]).status == MatchStatus.PENDING


def test_reporting_a_match_you_are_not_in_is_403() -> None:
    event, organiser, _ = running_event(4)
    matches = pair_and_publish_through_api(event, organiser)["matches"]
    outsider = player_client(matches[1], "a")
    response = outsider.post(
        f"/api/matches/{matches[0]['id']}/report/", {"games": [1, 0, 0]}, format="json"
    )
    assert response.status_code == 403
    stranger = client_for(UserFactory())
    response = stranger.post(
        f"/api/matches/{matches[0]['id']}/report/", {"games": [1, 0, 0]}, format="json"
    )
    assert response.status_code == 403


def test_a_correction_needs_a_reason_and_changes_the_standings() -> None:
    event, organiser, _ = running_event(2)
    m = pair_and_publish_through_api(event, organiser)["matches"][0]
    staff = client_for(organiser)
    staff.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
    before = APIClient().get(f"/api/events/{event.slug}/standings/").json()["rows"]
    assert before[0]["registration"] == m["a"]
    refused = staff.post(f"/api/matches/{m['id']}/report/", {"games": [0, 1, 0]}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "reason"
    preview = staff.post(
        f"/api/matches/{m['id']}/correction-preview/", {"games": [0, 1, 0]}, format="json"
    ).json()
    assert {c["registration"] for c in preview["changes"]} == {m["a"], m["b"]}
    corrected = staff.post(
        f"/api/matches/{m['id']}/report/",
        {"games": [0, 1, 0], "reason": "slip said 0-1"},
        format="json",
    )
    assert corrected.status_code == 200
    after = APIClient().get(f"/api/events/{event.slug}/standings/").json()["rows"]
    assert after[0]["registration"] == m["b"]
    entry = AuditEntry.objects.filter(action="match.corrected").get()
    assert entry.data["reason"] == "slip said 0-1"
    assert entry.data["before"]["games"] == [1, 0, 0]
    assert entry.data["after"]["games"] == [0, 1, 0]


def test_top_cut_brackets_to_a_champion() -> None:
    event, organiser, regs = running_event(8, planned_rounds=1, top_cut_size=4)
    staff = client_for(organiser)
    for m in pair_and_publish_through_api(event, organiser)["matches"]:
        staff.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
    cut = staff.post(f"/api/events/{event.slug}/top-cut/", {}, format="json")
    assert cut.status_code == 201, cut.content
    bracket = cut.json()
    assert bracket["stage"] == "top_cut"
    assert [(m["seed_a"], m["seed_b"]) for m in bracket["matches"]] == [(1, 4), (2, 3)]
    staff.post(f"/api/events/{event.slug}/rounds/{bracket['number']}/publish/", {}, format="json")
    drawn = staff.post(
        f"/api/matches/{bracket['matches'][0]['id']}/report/", {"games": [0, 0, 1]}, format="json"
    )
    assert drawn.status_code == 400 and drawn.json()["field"] == "games"
    for m in bracket["matches"]:
        staff.post(f"/api/matches/{m['id']}/report/", {"games": [0, 1, 0]}, format="json")
    final = staff.post(f"/api/events/{event.slug}/rounds/", {}, format="json").json()
    assert len(final["matches"]) == 1
    staff.post(f"/api/events/{event.slug}/rounds/{final['number']}/publish/", {}, format="json")
    m = final["matches"][0]
    staff.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
    event.refresh_from_db()
    assert event.status == "finished"
    top = APIClient().get(f"/api/events/{event.slug}/top-cut/").json()
    assert top["champion"] == m["a"]
