"""Staff entering a result (the staff match page, the scorekeeper, the API) on event day
(issue 18): a staff result settles the match's dispute, and overriding a player's different
pending report needs a second, explicit confirmation."""

from __future__ import annotations

from typing import Any

import pytest

from matches import services
from matches.models import CallKind, CallStatus, JudgeCall, Match, MatchStatus
from tests.factories import logged_in
from tests.scenarios import client_for, published_round, running_event
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _published(players: int = 4, **fields: Any) -> tuple[Any, Any, Any, list[Match]]:
    scene = published_round(players, **fields)
    return scene.event, scene.organiser, scene.judge, scene.matches


def _disputed(match: Match) -> JudgeCall:
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    services.match_report(actor=match.b.player, match=match, games=[0, 1, 0])
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED
    return JudgeCall.objects.get(match=match, kind=CallKind.DISPUTE)


def _open_queue(judge: Any) -> list[int]:
    return [c["id"] for c in client_for(judge).get("/api/calls/").json()["results"]]


# --- finding 2: a staff result settles the dispute ----------------------------------------------


def test_a_dispute_leaves_the_queue_when_a_judge_enters_the_result_on_the_api() -> None:
    event, _organiser, judge, matches = _published()
    call = _disputed(matches[0])
    assert _open_queue(judge) == [call.pk]

    response = client_for(judge).post(
        f"/api/matches/{matches[0].pk}/report/", {"games": [1, 0, 0]}, format="json"
    )

    assert response.status_code == 200, response.content
    assert response.json()["status"] == MatchStatus.FINAL
    call.refresh_from_db()
    assert call.status == CallStatus.RESOLVED and call.resolved_at is not None
    assert call.holder == judge
    assert "settled by the final result 1-0" in call.notes
    assert _open_queue(judge) == []
    entry = AuditEntry.objects.get(tournament=event, action="call.resolved_by_result")
    assert entry.actor == judge and entry.target == f"judgecall:{call.pk}"
    assert entry.data["after"]["games"] == [1, 0, 0] and entry.data["change"] == "entered"
    # The judges' queue page no longer lists it.
    page = logged_in(judge).get("/judge/").content.decode()
    assert f"/judge/calls/{call.pk}/" not in page


def test_a_dispute_leaves_the_queue_when_an_organiser_enters_the_result_on_the_staff_page() -> None:
    _event, organiser, judge, matches = _published()
    match = matches[0]
    call = _disputed(match)

    response = logged_in(organiser).post(
        f"/matches/{match.pk}/staff/",
        {"step": "enter", "games_a": "0", "games_b": "1", "games_drawn": "0"},
    )

    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (0, 1, 0)
    assert JudgeCall.objects.get(pk=call.pk).status == CallStatus.RESOLVED
    assert _open_queue(judge) == []


def test_a_call_about_a_pending_report_is_settled_by_the_staff_result_a_rules_question_is_not() -> (
    None
):
    _event, organiser, judge, matches = _published(6)
    reported, playing = matches[0], matches[1]
    services.match_report(actor=reported.a.player, match=reported, games=[1, 0, 0])
    about_result, _ = services.call_open(
        actor=reported.b.player, match=reported, question="That is not what happened"
    )
    rules_question, _ = services.call_open(
        actor=playing.a.player, match=playing, question="Can I substitute twice?"
    )

    services.match_report(actor=judge, match=reported, games=[0, 1, 0], confirm_override=True)
    services.match_report(actor=organiser, match=playing, games=[1, 0, 0])

    assert JudgeCall.objects.get(pk=about_result.pk).status == CallStatus.RESOLVED
    assert JudgeCall.objects.get(pk=rules_question.pk).status == CallStatus.OPEN
    assert _open_queue(judge) == [rules_question.pk]


def test_a_correction_of_a_final_result_settles_the_call_asking_for_it() -> None:
    _event, organiser, judge, matches = _published()
    match = matches[0]
    services.match_report(actor=organiser, match=match, games=[1, 0, 0])
    call, _ = services.call_open(actor=match.b.player, match=match, question="I won that game")
    services.match_report(actor=judge, match=match, games=[0, 1, 0], reason="slip misread")
    call.refresh_from_db()
    assert call.status == CallStatus.RESOLVED
    entry = AuditEntry.objects.get(action="call.resolved_by_result")
    assert entry.data["change"] == "corrected"


def test_a_ruling_with_a_result_still_resolves_its_call_once() -> None:
    event, _organiser, judge, matches = _published()
    call = _disputed(matches[0])
    services.call_ruling(actor=judge, call=call, text="A won", result={"games": [1, 0, 0]})
    call.refresh_from_db()
    assert call.status == CallStatus.RESOLVED
    actions = list(
        AuditEntry.objects.filter(tournament=event, action__startswith="call.").values_list(
            "action", flat=True
        )
    )
    assert "call.ruling" in actions and "call.resolved_by_result" not in actions


# --- finding 1: overriding a player's different pending report asks once more ------------------


def test_a_staff_result_over_a_different_pending_report_is_409_naming_confirm_override() -> None:
    event, organiser, _judge, matches = _published()
    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    api = client_for(organiser)

    refused = api.post(f"/api/matches/{match.pk}/report/", {"games": [0, 1, 0]}, format="json")

    assert refused.status_code == 409
    body = refused.json()
    assert body["field"] == "confirm_override" and body["code"] == "overrides_report"
    assert match.a.name in body["detail"] and "1-0" in body["detail"]
    assert body["pending_report"] == {"by": match.a.name, "games": [1, 0, 0]}
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED and match.result_version == 1

    confirmed = api.post(
        f"/api/matches/{match.pk}/report/",
        {"games": [0, 1, 0], "confirm_override": True},
        format="json",
    )
    assert confirmed.status_code == 200, confirmed.content
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (0, 1, 0)
    assert AuditEntry.objects.filter(tournament=event, action="match.entered").count() == 1


def test_a_staff_result_matching_the_pending_report_needs_no_second_confirmation() -> None:
    _event, organiser, _judge, matches = _published()
    match = matches[0]
    services.match_report(actor=match.b.player, match=match, games=[0, 1, 0])
    response = client_for(organiser).post(
        f"/api/matches/{match.pk}/report/", {"games": [0, 1, 0]}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == MatchStatus.FINAL


def test_a_player_cannot_skip_the_opponents_confirmation_with_confirm_override() -> None:
    _event, _organiser, _judge, matches = _published()
    match = matches[0]
    response = client_for(match.a.player).post(
        f"/api/matches/{match.pk}/report/",
        {"games": [1, 0, 0], "confirm_override": True},
        format="json",
    )
    assert response.status_code == 200 and response.json()["status"] == MatchStatus.REPORTED


def test_confirm_override_must_be_a_boolean() -> None:
    _event, organiser, _judge, matches = _published()
    response = client_for(organiser).post(
        f"/api/matches/{matches[0].pk}/report/",
        {"games": [1, 0, 0], "confirm_override": "perhaps"},
        format="json",
    )
    assert response.status_code == 400 and "confirm_override" in response.json()


# --- the scorekeeper page: the same rules, as a page and as JSON for its script ---------------

JSON = {"HTTP_ACCEPT": "application/json"}


def _scorekeeper_url(event: Any) -> str:
    return f"/events/{event.slug}/manage/rounds/1/scorekeeper/"


def test_a_dispute_leaves_the_queue_when_the_scorekeeper_enters_the_slip() -> None:
    event, _organiser, judge, matches = _published()
    match = matches[0]
    call = _disputed(match)

    response = logged_in(judge).post(
        _scorekeeper_url(event), {"table": str(match.table), "result": "1-0"}, follow=True
    )

    messages = " ".join(str(m) for m in response.context["messages"])
    assert f"Table {match.table}: 1-0 entered" in messages and "dispute is settled" in messages
    assert JudgeCall.objects.get(pk=call.pk).status == CallStatus.RESOLVED
    assert _open_queue(judge) == []


def test_the_scorekeeper_answers_its_script_with_json_for_a_saved_slip() -> None:
    event, organiser, _judge, matches = _published()
    match = matches[1]
    response = logged_in(organiser).post(
        _scorekeeper_url(event), {"table": str(match.table), "result": "0-1"}, **JSON
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["ok"] is True and body["table"] == match.table and body["result"] == "0-1"
    assert body["players"] == f"{match.a.name} v {match.b.name}"
    assert body["undo_url"] == f"/matches/{match.pk}/staff/#result"
    assert body["message"] == f"Table {match.table}: 0-1 entered ({body['players']})."
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (0, 1, 0)


@pytest.mark.parametrize(
    ("table", "result", "field", "reason"),
    [
        ("99", "1-0", "table", "there is no table 99 in round 1"),
        ("1", "2-1", "result", "nobody wins more than 1 game"),
        ("1", "two", "result", "write the result like 2-0"),
        ("", "1-0", "table", "type the table number"),
    ],
)
def test_the_scorekeeper_refuses_a_bad_slip_with_json_naming_the_field(
    table: str, result: str, field: str, reason: str
) -> None:
    event, organiser, _judge, matches = _published()
    response = logged_in(organiser).post(
        _scorekeeper_url(event), {"table": table, "result": result}, **JSON
    )
    assert response.status_code == 400
    body = response.json()
    assert body["ok"] is False and body["field"] == field
    assert reason in body["message"]
    assert not Match.objects.filter(pk=matches[0].pk, status=MatchStatus.FINAL).exists()


def test_the_scorekeeper_asks_once_more_before_overriding_a_pending_report_as_json() -> None:
    event, organiser, _judge, matches = _published()
    match = matches[0]
    services.match_report(actor=match.b.player, match=match, games=[1, 0, 0])
    client = logged_in(organiser)
    slip = {"table": str(match.table), "result": "0-1"}

    asked = client.post(_scorekeeper_url(event), slip, **JSON)

    assert asked.status_code == 409
    body = asked.json()
    assert body["field"] == "confirm_override"
    assert match.b.name in body["message"] and "reported 1-0" in body["message"]
    assert body["confirm"]["label"] == "Yes, enter 0-1 over the report"
    assert Match.objects.get(pk=match.pk).status == MatchStatus.REPORTED

    confirmed = client.post(_scorekeeper_url(event), {**slip, "confirm_override": "1"}, **JSON)
    assert confirmed.status_code == 200 and confirmed.json()["ok"] is True
    assert Match.objects.get(pk=match.pk).games == (0, 1, 0)


def test_the_scorekeeper_without_javascript_asks_once_more_before_overriding_a_report() -> None:
    event, organiser, _judge, matches = _published()
    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    client = logged_in(organiser)
    slip = {"table": str(match.table), "result": "0-1"}

    asked = client.post(_scorekeeper_url(event), slip)

    assert asked.status_code == 409
    html = asked.content.decode()
    assert f"{match.a.name} reported 1-0" in html
    assert '<button type="submit" name="confirm_override" value="1"' in html
    assert f'value="{match.table}"' in html and 'value="0-1"' in html
    assert Match.objects.get(pk=match.pk).status == MatchStatus.REPORTED

    confirmed = client.post(_scorekeeper_url(event), {**slip, "confirm_override": "1"})
    assert confirmed.status_code == 302
    assert Match.objects.get(pk=match.pk).games == (0, 1, 0)


def test_the_staff_page_asks_once_more_before_overriding_a_pending_report() -> None:
    _event, organiser, _judge, matches = _published()
    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    client = logged_in(organiser)
    url = f"/matches/{match.pk}/staff/"

    asked = client.post(url, {"step": "enter", "games_a": "0", "games_b": "1"})

    assert asked.status_code == 409
    html = asked.content.decode()
    assert f"{match.a.name} reported 1-0, still waiting" in html
    assert 'name="confirm_override" value="1"' in html
    assert Match.objects.get(pk=match.pk).status == MatchStatus.REPORTED

    confirmed = client.post(
        url,
        {
            "step": "apply",
            "confirm_override": "1",
            "games_a": "0",
            "games_b": "1",
            "games_drawn": "0",
        },
    )
    assert confirmed.status_code == 302
    assert Match.objects.get(pk=match.pk).games == (0, 1, 0)


def test_the_scorekeeper_page_is_for_staff_only_as_json_too() -> None:
    event, _organiser, _judge, matches = _published()
    player = logged_in(matches[0].a.player)
    response = player.post(
        _scorekeeper_url(event), {"table": str(matches[0].table), "result": "1-0"}, **JSON
    )
    assert response.status_code == 403
    assert Match.objects.get(pk=matches[0].pk).status == MatchStatus.PENDING


# --- races (PostgreSQL) --------------------------------------------------------------------------


def _entry_and_ruling_race() -> None:
    from config.errors import Conflict
    from tests.support import run_at_once

    event, organiser, judge, matches = _published()
    match = matches[0]
    call = _disputed(match)

    def fresh() -> Match:
        return Match.objects.select_related("round__tournament", "a", "b").get(pk=match.pk)

    results = run_at_once(
        [
            lambda: services.match_report(actor=organiser, match=fresh(), games=[1, 0, 0]),
            lambda: services.call_ruling(actor=judge, call=call, text="Heard both: A won"),
            lambda: services.match_report(actor=judge, match=fresh(), games=[1, 0, 0]),
        ]
    )

    errors = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(e, Conflict) for e in errors), errors
    assert JudgeCall.objects.get(pk=call.pk).status == CallStatus.RESOLVED
    settled = AuditEntry.objects.filter(
        tournament=event, action__in=("call.ruling", "call.resolved_by_result")
    )
    assert settled.count() == 1
    assert Match.objects.get(pk=match.pk).games == (1, 0, 0)


@pytest.mark.services
def test_a_staff_entry_and_a_ruling_on_a_disputed_match_at_once_resolve_the_call_once(
    require_postgres: None,
) -> None:
    for _ in range(5):
        _entry_and_ruling_race()


def test_the_pages_that_refuse_or_ask_again_pass_the_accessibility_audit() -> None:
    from tests.support import PageAudit

    event, organiser, _judge, matches = _published()
    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    client = logged_in(organiser)
    answers = [
        client.post(_scorekeeper_url(event), {"table": "99", "result": "1-0"}),
        client.post(_scorekeeper_url(event), {"table": str(match.table), "result": "0-1"}),
        client.post(f"/matches/{match.pk}/staff/", {"games_a": "0", "games_b": "1"}),
    ]
    problems = []
    for answer in answers:
        assert answer.status_code in (400, 409)
        parser = PageAudit()
        parser.feed(answer.content.decode())
        problems += parser.report()
    assert problems == []


def test_the_scorekeeper_refuses_a_slip_for_an_unpublished_round_naming_the_round() -> None:
    event, organiser, _ = running_event(4)
    round_ = services.round_pair(actor=organiser, tournament=event)
    table = round_.matches.order_by("table").first().table
    response = logged_in(organiser).post(
        _scorekeeper_url(event), {"table": str(table), "result": "1-0"}, **JSON
    )
    assert response.status_code == 409
    assert response.json()["field"] == "round"
    assert "publish the round" in response.json()["message"]
