"""The judging part of the event API (../shared/spec/event-api.md, Judging): calls, claims,
rulings that amend results, disputes in the same queue, and replay on the API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services
from matches.models import CallStatus, JudgeCall, Match, MatchStatus
from tests.factories import UserFactory
from tests.scenarios import client_for, published_round
from tests.support import run_at_once
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).resolve().parent.parent / "engine" / "boba" / "golden"


def _published(players: int = 4) -> tuple[Any, Any, Any, list[Match]]:
    scene = published_round(players)
    return scene.event, scene.organiser, scene.judge, scene.matches


def test_a_player_calls_a_judge_and_a_second_call_joins_the_open_one() -> None:
    _, _, _, matches = _published()
    m = matches[0]
    player = client_for(m.a.player)
    first = player.post(f"/api/matches/{m.pk}/calls/", {"question": "Can he sub twice?"})
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "open" and first.json()["question"] == "Can he sub twice?"
    second = client_for(m.b.player).post(f"/api/matches/{m.pk}/calls/", {"question": "Help"})
    assert second.status_code == 200
    assert second.json()["id"] == first.json()["id"]
    assert "Help" in second.json()["notes"]
    assert JudgeCall.objects.filter(match=m).count() == 1


def test_a_stranger_cannot_call_on_someone_elses_match() -> None:
    _, _, _, matches = _published()
    response = client_for(UserFactory()).post(f"/api/matches/{matches[0].pk}/calls/", {})
    assert response.status_code == 403
    assert not JudgeCall.objects.exists()


def test_disputed_results_join_the_same_queue() -> None:
    event, _, judge, matches = _published()
    m = matches[0]
    client_for(m.a.player).post(f"/api/matches/{m.pk}/report/", {"games": [1, 0, 0]}, format="json")
    client_for(m.b.player).post(f"/api/matches/{m.pk}/report/", {"games": [0, 1, 0]}, format="json")
    queue = client_for(judge).get("/api/calls/").json()
    assert [c["kind"] for c in queue["results"]] == ["dispute"]
    assert queue["results"][0]["table"] == m.table and queue["results"][0]["event"] == event.slug


def test_claiming_is_for_one_judge_and_claiming_again_is_harmless() -> None:
    event, _, judge, matches = _published()
    other = UserFactory()
    event.judges.add(other)
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0], question="?")
    mine = client_for(judge).post(f"/api/calls/{call.pk}/claim/", {})
    assert mine.status_code == 200 and mine.json()["status"] == "claimed"
    assert client_for(judge).post(f"/api/calls/{call.pk}/claim/", {}).status_code == 200
    assert client_for(other).post(f"/api/calls/{call.pk}/claim/", {}).status_code == 409
    assert client_for(matches[0].a.player).post(f"/api/calls/{call.pk}/claim/", {}).status_code in (
        403,
        404,
    )
    back = client_for(judge).post(f"/api/calls/{call.pk}/hand-back/", {})
    assert back.json()["status"] == "open"
    assert client_for(other).post(f"/api/calls/{call.pk}/claim/", {}).status_code == 200


def test_a_ruling_with_a_result_amends_the_match_in_the_same_transaction() -> None:
    event, _, judge, matches = _published()
    m = matches[0]
    services.match_report(actor=m.a.player, match=m, games=[1, 0, 0])
    call, _ = services.call_open(actor=m.b.player, match=m, question="He miscounted")
    judge_api = client_for(judge)
    judge_api.post(f"/api/calls/{call.pk}/claim/", {})
    ruling = judge_api.post(
        f"/api/calls/{call.pk}/ruling/",
        {"text": "B won battle 4", "citations": ["CR 4.2.2"], "result": {"games": [0, 1, 0]}},
        format="json",
    )
    assert ruling.status_code == 201, ruling.content
    assert ruling.json()["decision"] == "changed"
    m.refresh_from_db()
    assert m.status == MatchStatus.FINAL and m.games == (0, 1, 0)
    call.refresh_from_db()
    assert call.status == CallStatus.RESOLVED
    entry = AuditEntry.objects.get(tournament=event, action="call.ruling")
    assert entry.data["reason"] == "B won battle 4" and entry.data["after"]["games"] == [0, 1, 0]
    # A re-report by a player after the ruling does not reopen it.
    again = client_for(m.a.player).post(
        f"/api/matches/{m.pk}/report/", {"games": [1, 0, 0]}, format="json"
    )
    assert again.status_code == 409
    assert JudgeCall.objects.get(pk=call.pk).status == CallStatus.RESOLVED


def test_only_the_holder_rules_and_bad_citations_are_400() -> None:
    event, _, judge, matches = _published()
    other = UserFactory()
    event.judges.add(other)
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0])
    services.call_claim(actor=judge, call=call)
    refused = client_for(other).post(f"/api/calls/{call.pk}/ruling/", {"text": "x"}, format="json")
    assert refused.status_code == 409
    bad = client_for(judge).post(
        f"/api/calls/{call.pk}/ruling/",
        {"text": "x", "citations": ["see the rules"]},
        format="json",
    )
    assert bad.status_code == 400 and "citations[0]" in bad.json()


def test_a_judge_of_one_event_cannot_act_on_another() -> None:
    _, _, _, matches = _published()
    elsewhere, _, outsider_judge, _ = _published()
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0])
    response = client_for(outsider_judge).post(f"/api/calls/{call.pk}/claim/", {})
    assert response.status_code in (403, 404)
    assert client_for(outsider_judge).get("/api/calls/").json()["count"] == 0


def test_a_ruling_with_a_record_stores_the_engines_replay_and_version() -> None:
    _, _, judge, matches = _published()
    record = json.loads((GOLDEN / "playmaker_illegal_second_substitution.json").read_text())
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0])
    response = client_for(judge).post(
        f"/api/calls/{call.pk}/ruling/",
        {"text": "second substitution illegal", "citations": ["CR 4.2.2"], "record": record},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["replay"]["legal"] is False and body["engine_version"]
    assert body["decision"] == "stands"


def test_replay_on_the_api_is_exactly_the_clis_json() -> None:
    user = UserFactory()
    for name in (
        "playmaker_full_game_all_seven.json",
        "playmaker_illegal_second_substitution.json",
        "malformed_short_lineup.json",
    ):
        path = GOLDEN / name
        cli = subprocess.run(
            [sys.executable, "-m", "engine.boba", "replay", str(path), "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        response = client_for(user).post(
            "/api/replay/boba/", path.read_bytes(), content_type="application/json"
        )
        expected_status = 400 if cli.returncode == 2 else 200
        assert response.status_code == expected_status, (name, response.content)
        body = response.json()
        if expected_status == 200:
            assert body == json.loads(cli.stdout)
        else:
            assert body["error"]["field"] == json.loads(cli.stdout)["error"]["field"]
    assert APIClient().post("/api/replay/boba/", {}, format="json").status_code == 403


def test_two_judges_claiming_at_once_one_gets_it(require_postgres: None) -> None:
    event, _, judge, matches = _published()
    other = UserFactory()
    event.judges.add(other)
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0])

    results = run_at_once(
        [
            lambda: services.call_claim(actor=judge, call=JudgeCall.objects.get(pk=call.pk)),
            lambda: services.call_claim(actor=other, call=JudgeCall.objects.get(pk=call.pk)),
        ]
    )

    winners = [r for r in results if isinstance(r, JudgeCall)]
    assert len(winners) == 1, results
    assert JudgeCall.objects.get(pk=call.pk).holder_id == winners[0].holder_id


def test_escalation_goes_to_the_head_judge() -> None:
    event, organiser, judge, matches = _published()
    head = UserFactory()
    response = client_for(organiser).post(
        f"/api/events/{event.slug}/judges/", {"player_id": head.player_id, "head": True}
    )
    assert response.status_code == 204
    event.refresh_from_db()
    assert event.head_judge == head and event.judges.filter(pk=head.pk).exists()
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0])
    services.call_claim(actor=judge, call=call)
    escalated = client_for(judge).post(
        f"/api/calls/{call.pk}/escalate/", {"note": "needs the head judge"}
    )
    assert escalated.status_code == 200
    body = escalated.json()
    assert body["escalated"] is True and body["holder_id"] == head.pk
    assert "needs the head judge" in body["notes"]
    mine = client_for(head).get("/api/calls/?status=escalated").json()
    assert [c["id"] for c in mine["results"]] == [call.pk]


def test_record_input_is_bounded_in_size_and_actions() -> None:
    user = client_for(UserFactory())
    record = json.loads((GOLDEN / "playmaker_full_game_all_seven.json").read_text())
    record["actions"] = record["actions"] * 400
    too_many = user.post("/api/replay/boba/", record, format="json")
    assert too_many.status_code == 400 and too_many.json()["field"] == "record.actions"
    huge = b'{"format": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    too_big = user.post("/api/replay/boba/", huge, content_type="application/json")
    assert too_big.status_code == 400 and too_big.json()["field"] == "record"


def test_take_the_next_call_gives_the_longest_waiting_unheld_one() -> None:
    event, _, judge, matches = _published(6)
    first, _ = services.call_open(actor=matches[0].a.player, match=matches[0])
    second, _ = services.call_open(actor=matches[1].a.player, match=matches[1])
    api = client_for(judge)
    taken = api.post("/api/calls/claim-next/")
    assert taken.status_code == 200 and taken.json()["id"] == first.pk
    assert api.post("/api/calls/claim-next/").json()["id"] == second.pk
    assert api.post("/api/calls/claim-next/").status_code == 204
    stranger = client_for(UserFactory())
    assert stranger.post("/api/calls/claim-next/").status_code == 204  # judges nothing


def test_judges_taking_the_next_call_at_once_get_different_calls(
    require_postgres: None,
) -> None:
    event, _, judge, matches = _published(8)
    judges = [judge, *(UserFactory() for _ in range(3))]
    for j in judges[1:]:
        event.judges.add(j)
    for m in matches:
        services.call_open(actor=m.a.player, match=m)

    results = run_at_once([lambda j=j: services.call_claim_next(actor=j) for j in judges])

    claimed = [r for r in results if isinstance(r, JudgeCall)]
    assert len(claimed) == 4, results
    assert len({c.pk for c in claimed}) == 4
    assert len({c.holder_id for c in claimed}) == 4


def test_judges_add_notes_to_a_call() -> None:
    _, _, judge, matches = _published()
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0], question="?")
    noted = client_for(judge).post(f"/api/calls/{call.pk}/notes/", {"note": "Asked both."})
    assert noted.status_code == 200 and "Asked both." in noted.json()["notes"]
    assert client_for(judge).post(f"/api/calls/{call.pk}/notes/", {"note": " "}).status_code == 400
    player = client_for(matches[0].a.player)
    assert player.post(f"/api/calls/{call.pk}/notes/", {"note": "x"}).status_code == 403


def test_a_ruling_asks_the_judges_role_once_per_request() -> None:
    """The view, the service and the answer all ask whether the user judges the event:
    tournaments.permissions.RolesPerRequestMiddleware answers the repeats from memory."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _, _, judge, matches = _published()
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0], question="Help")
    services.call_claim(actor=judge, call=call)
    with CaptureQueriesContext(connection) as captured:
        response = client_for(judge).post(
            f"/api/calls/{call.pk}/ruling/",
            {"text": "Play on.", "citations": ["CR 4.4.1"]},
            format="json",
        )
    assert response.status_code == 201, response.content
    role_reads = [q for q in captured if "tournaments_tournament_judges" in q["sql"]]
    assert len(role_reads) == 1


def test_a_change_of_staff_applies_from_the_next_request() -> None:
    event, _, judge, matches = _published()
    call, _ = services.call_open(actor=matches[0].a.player, match=matches[0], question="Help")
    client = client_for(judge)
    assert client.get(f"/api/calls/{call.pk}/").status_code == 200
    event.judges.remove(judge)
    assert client.get(f"/api/calls/{call.pk}/").status_code == 404
