"""The match clock's API and service: who may press, bad input, stale presses, flags and the
loss-on-time result (BOS: Time Control)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from matches import services
from matches.models import ClockEvent, Match, MatchStatus, ResultChange, Round
from tests.factories import UserFactory
from tests.scenarios import BosTable, bos_table, client_for, running_event
from tests.support import T0, FakeClock
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def url(match: Match) -> str:
    return f"/api/matches/{match.pk}/clock/"


def press(client: Any, match: Match, kind: str, seq: int, side: str = "", **payload: Any) -> Any:
    body: dict[str, Any] = {"kind": kind, "expected_seq": seq}
    if side:
        body["side"] = side
    if payload:
        body["payload"] = payload
    return client.post(url(match), body, format="json")


def players(match: Match) -> tuple[Any, Any]:
    assert match.b is not None
    return client_for(match.a.player), client_for(match.b.player)


def test_get_shows_the_games_recommendation_before_the_first_press(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    response = a.get(url(match))
    assert response.status_code == 200
    data = response.json()
    assert data["enabled"] and data["clock_mode"] == "per_game"
    assert data["remaining_ms"] == {"a": 15 * 60_000, "b": 15 * 60_000}
    assert data["delay_ms"] == 30_000 and data["seq"] == 0 and data["phase"] == "ready"
    assert data["server_now"] == T0.isoformat()
    assert data["players"]["a"] == match.a.name


def test_event_minutes_and_delay_override_the_recommendation(server_time: FakeClock) -> None:
    _event, _org, match = bos_table(clock_minutes=20, clock_delay_seconds=0)
    a, _b = players(match)
    data = a.get(url(match)).json()
    assert data["remaining_ms"]["a"] == 20 * 60_000 and data["delay_ms"] == 0


def test_a_turn_switches_sides_and_the_delay_absorbs_short_turns(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, b = players(match)
    assert press(a, match, "start", 0, first="a").status_code == 200
    server_time.advance(20)
    data = press(b, match, "turn", 1, side="a").json()
    assert data["active"] == "b" and data["seq"] == 2
    assert data["remaining_ms"]["a"] == 15 * 60_000
    server_time.advance(45)
    data = a.get(url(match)).json()
    assert data["remaining_ms"]["b"] == 15 * 60_000 - 15_000 and data["delay_left_ms"] == 0
    rows = list(ClockEvent.objects.filter(match=match).order_by("seq"))
    assert [r.kind for r in rows] == ["start", "turn"]
    assert rows[0].payload["settings"]["time_ms"] == 15 * 60_000
    assert rows[1].actor == match.b.player and rows[1].at == T0 + timedelta(seconds=20)


def test_pause_freezes_the_clock(server_time: FakeClock, bos_clock_table: BosTable) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    press(a, match, "start", 0, first="b")
    server_time.advance(40)
    press(a, match, "pause", 1)
    server_time.advance(600)
    data = a.get(url(match)).json()
    assert data["paused"] and data["remaining_ms"]["b"] == 15 * 60_000 - 10_000
    assert press(a, match, "turn", 2).status_code == 409


def test_a_stale_seq_is_a_409_with_the_current_state(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, b = players(match)
    press(a, match, "start", 0, first="a")
    first = press(a, match, "turn", 1)
    retried = press(b, match, "turn", 1)  # the same tap from the other phone
    assert first.status_code == 200
    assert retried.status_code == 409
    body = retried.json()
    assert body["code"] == "stale_seq" and body["field"] == "expected_seq"
    assert body["clock"]["seq"] == 2 and body["clock"]["active"] == "b"
    assert ClockEvent.objects.filter(match=match).count() == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "tick", "expected_seq": 0}, "kind"),
        ({"kind": "start"}, "expected_seq"),
        ({"kind": "start", "expected_seq": -1}, "expected_seq"),
        ({"kind": "start", "expected_seq": "x"}, "expected_seq"),
        ({"kind": "start", "expected_seq": 0, "side": "c"}, "side"),
        ({"kind": "start", "expected_seq": 0, "payload": []}, "payload"),
        ({"kind": "start", "expected_seq": 0, "payload": {"first": "z"}}, "payload.first"),
        ({"kind": "start", "expected_seq": 0, "payload": {"winner": "a"}}, "payload.winner"),
        ({"kind": "start", "expected_seq": 0, "payload": {"settings": {}}}, "payload.settings"),
        ({"kind": "flag", "expected_seq": 0}, "side"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(
    server_time: FakeClock, body: dict[str, Any], field: str, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    response = a.post(url(match), body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not ClockEvent.objects.filter(match=match).exists()


def test_a_body_that_is_not_an_object_is_a_400(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    assert a.post(url(match), [1, 2], format="json").status_code == 400


def test_who_may_see_and_press(server_time: FakeClock, bos_clock_table: BosTable) -> None:
    event, organiser, match = bos_clock_table
    a, _b = players(match)
    stranger = client_for(UserFactory())
    judge = UserFactory()
    event.judges.add(judge)
    assert stranger.get(url(match)).status_code == 403
    assert press(stranger, match, "start", 0, first="a").status_code == 403
    assert press(client_for(judge), match, "start", 0, first="a").status_code == 200
    assert client_for(organiser).get(url(match)).json()["seq"] == 1
    # Adjusting is for staff only.
    response = press(a, match, "adjust", 1, side="a", add_ms=60_000, reason="slow")
    assert response.status_code == 403
    response = press(client_for(judge), match, "adjust", 1, side="b", add_ms=60_000, reason="x")
    assert response.status_code == 200
    assert response.json()["remaining_ms"]["b"] == 16 * 60_000
    entry = AuditEntry.objects.get(action="match.clock_adjust")
    assert entry.data["after_ms"] == 16 * 60_000 and entry.data["reason"] == "x"


def test_an_unknown_match_is_a_404(server_time: FakeClock, bos_clock_table: BosTable) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    assert a.get(f"/api/matches/{match.pk + 999}/clock/").status_code == 404
    assert client_for(UserFactory()).get("/api/matches/0/clock/").status_code == 404


def test_no_presses_when_the_event_runs_no_clock(server_time: FakeClock) -> None:
    _event, _org, match = bos_table(clock_mode="off")
    a, _b = players(match)
    assert a.get(url(match)).json()["enabled"] is False
    response = press(a, match, "start", 0, first="a")
    assert response.status_code == 409 and response.json()["field"] == "clock"


def test_no_presses_on_a_final_match(server_time: FakeClock, bos_clock_table: BosTable) -> None:
    _event, organiser, match = bos_clock_table
    services.match_report(actor=organiser, match=match, games=[2, 0, 0])
    a, _b = players(match)
    response = press(a, match, "start", 0, first="a")
    assert response.status_code == 409 and response.json()["field"] == "match"


def test_flag_is_refused_while_time_is_left(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    press(a, match, "start", 0, first="a")
    server_time.advance(30 + 15 * 60 - 1)
    response = press(a, match, "flag", 1, side="a")
    assert response.status_code == 409 and response.json()["field"] == "side"
    assert ClockEvent.objects.filter(match=match).count() == 1


def test_per_game_flag_loses_the_game_and_the_clock_goes_on(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    press(a, match, "start", 0, first="a")
    server_time.advance(30 + 15 * 60)
    data = press(a, match, "flag", 1, side="a").json()
    assert data["phase"] == "between_games" and data["flagged"] == "a"
    assert data["games"] == [
        {
            "number": 1,
            "winner": "b",
            "end": "time",
            "on_time": True,
            "bids": None,
            "first": "a",
            "pressed_by": None,
        }
    ]
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING and not match.versions.exists()
    data = press(a, match, "start", 2, first="b").json()
    assert data["game"] == 2 and data["remaining_ms"]["a"] == 15 * 60_000


def test_per_game_flag_that_decides_the_match_is_a_final_loss_on_time(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, b = players(match)
    press(a, match, "start", 0, first="a")
    press(a, match, "game_end", 1, winner="a")
    press(b, match, "start", 2, first="b")
    press(b, match, "game_end", 3, winner="b")
    press(b, match, "start", 4, first="a")
    server_time.advance(30 + 15 * 60)
    response = press(b, match, "flag", 5, side="a")
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (1, 2, 0)
    version = match.versions.get()
    assert version.change == ResultChange.TIME
    assert version.reason.startswith("loss on time") and version.actor == match.b.player
    assert version.after["games"] == [1, 2, 0]
    entry = AuditEntry.objects.get(action="match.time")
    assert entry.data["reason"] == version.reason
    # The only match of the round is final: the round is over, the clock has stopped.
    assert Round.objects.get(pk=match.round_id).status == "finished"
    assert press(a, match, "turn", 6).status_code == 409


def test_per_match_flag_loses_the_match_and_the_loser_keeps_games_won(
    server_time: FakeClock,
) -> None:
    _event, _org, match = bos_table(clock_mode="per_match")
    a, b = players(match)
    press(a, match, "start", 0, first="a")
    server_time.advance(100)
    press(a, match, "game_end", 1, winner="a")
    press(b, match, "start", 2, first="a")
    data = a.get(url(match)).json()
    assert data["remaining_ms"]["a"] == 15 * 60_000 - 70_000  # carried over
    server_time.advance(30 + 15 * 60 - 70)
    assert press(b, match, "flag", 3, side="a").status_code == 200
    match.refresh_from_db()
    assert match.games == (1, 2, 0) and match.status == MatchStatus.FINAL
    assert match.versions.get().change == ResultChange.TIME


def test_game_end_does_not_enter_a_result(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    press(a, match, "start", 0, first="a")
    press(a, match, "game_end", 1, winner="a")
    press(a, match, "start", 2, first="b")
    data = press(a, match, "game_end", 3, winner="a").json()
    assert data["phase"] == "over" and data["match_winner"] == "a"
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING and not match.versions.exists()


def test_an_unpublished_round_has_no_clock(server_time: FakeClock) -> None:
    event, organiser, _regs = running_event(
        2, game="bos", mode="competitive", format_key="competitive", match_structure="bo3"
    )
    event.clock_mode = "per_game"
    event.save()
    round_ = services.round_pair(actor=organiser, tournament=event)
    match = Match.objects.select_related("round__tournament", "a", "b").get(round=round_)
    response = press(client_for(organiser), match, "start", 0, first="a")
    assert response.status_code == 409 and response.json()["field"] == "round"


def test_the_clock_keeps_its_settings_when_the_event_changes_them(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    event, _org, match = bos_clock_table
    a, _b = players(match)
    press(a, match, "start", 0, first="a")
    event.clock_minutes = 30
    event.save()
    assert a.get(url(match)).json()["remaining_ms"]["b"] == 15 * 60_000


def test_the_schema_lists_the_clock() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert "/api/matches/{id}/clock/" in schema["paths"]
    assert "post" in schema["paths"]["/api/matches/{id}/clock/"]


# --- the event's clock setting ---------------------------------------------------------------

EVENT = {
    "name": "Clock Open",
    "starts_at": "2030-05-01T10:00:00Z",
    "time_zone": "UTC",
}


def test_an_event_takes_its_clock_settings_through_the_api() -> None:
    from tests.factories import OrganiserFactory

    client = client_for(OrganiserFactory())
    body = {**EVENT, "game": "bos", "clock_mode": "per_match"}
    response = client.post("/api/events/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["clock_mode"] == "per_match" and data["clock_minutes"] is None
    slug = data["slug"]
    response = client.patch(
        f"/api/events/{slug}/", {"clock_minutes": 20, "clock_delay_seconds": 0}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["clock_minutes"] == 20


def test_a_clock_for_a_game_that_recommends_none_needs_minutes() -> None:
    from tests.factories import OrganiserFactory

    client = client_for(OrganiserFactory())
    body = {**EVENT, "game": "boba", "clock_mode": "per_game"}
    response = client.post("/api/events/", body, format="json")
    assert response.status_code == 400
    assert "clock_minutes" in response.json()
    response = client.post("/api/events/", {**body, "clock_minutes": 25}, format="json")
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize(
    ("field", "value"),
    [("clock_mode", "sometimes"), ("clock_minutes", 0), ("clock_delay_seconds", -1)],
)
def test_bad_clock_settings_name_the_field(field: str, value: object) -> None:
    from tests.factories import OrganiserFactory

    client = client_for(OrganiserFactory())
    response = client.post("/api/events/", {**EVENT, "game": "bos", field: value}, format="json")
    assert response.status_code == 400 and field in response.json()


def test_the_event_form_shows_the_games_recommended_clock() -> None:
    from django.test import Client

    from tests.factories import OrganiserFactory

    client = Client()
    client.force_login(OrganiserFactory())
    html = client.get("/events/new/?game=bos").content.decode()
    assert 'name="clock_minutes"' in html and 'placeholder="15"' in html
    assert 'placeholder="30"' in html and 'name="clock_mode"' in html


# --- bids with a game's start, and what a deciding flag records (docs/match-clock.md) ---------


@pytest.mark.parametrize(
    ("bids", "message"),
    [
        ([3, 3], "bid again"),
        ([3], "two whole numbers"),
        ([3, 100], "0 to 99"),
        ([-1, 2], "0 to 99"),
        (["3", 4], "0 to 99"),
        ("3-4", "two whole numbers"),
    ],
)
def test_start_bids_are_checked_a_400_naming_payload_bids(
    server_time: FakeClock, bids: object, message: str, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    a, _b = players(match)
    response = press(a, match, "start", 0, first="a", bids=bids)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == "payload.bids" and message in body["detail"]
    assert not ClockEvent.objects.filter(match=match).exists()


def _two_games_then_a_flag(
    server_time: FakeClock, match: Match, *, third_bids: tuple[int, int] | None = (6, 2)
) -> Any:
    """Game 1 won by a (pressed by b), game 2 won by b, game 3: a runs out of time."""
    a, b = players(match)
    assert press(a, match, "start", 0, first="a", bids=[4, 7]).status_code == 200
    press(b, match, "game_end", 1, winner="a")
    press(b, match, "start", 2, first="b", bids=[0, 2])
    press(a, match, "game_end", 3, winner="b")
    extra = {"bids": list(third_bids)} if third_bids is not None else {}
    press(b, match, "start", 4, first="a", **extra)
    server_time.advance(30 + 15 * 60)
    return press(b, match, "flag", 5, side="a")


def test_a_deciding_flag_records_the_clocks_game_details_with_end_time(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    response = _two_games_then_a_flag(server_time, match)
    assert response.status_code == 200, response.content
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (1, 2, 0)
    details = match.game_details
    assert [g["winner"] for g in details] == ["a", "b", "b"]
    assert [g["end"] for g in details] == ["played", "played", "time"]
    assert [g["bids"] for g in details] == [[4, 7], [0, 2], [6, 2]]
    # Checked by the game's MatchRules like any details: the lower bidder's ether and the
    # chooser are derived (BOS: Going First).
    assert [g["ether"] for g in details] == [[4, 0], [0, 0], [0, 2]]
    assert [g["chose_first"] for g in details] == ["b", "b", "a"]
    assert [g.get("first") for g in details] == ["a", "b", "a"]
    version = match.versions.get()
    assert version.change == ResultChange.TIME and version.after["game_details"] == details
    assert match.a is not None and match.b is not None
    assert version.reason == (
        f"loss on time: {match.a.name} ran out of time in game 3; "
        f"game 1: {match.a.name} won (clock, pressed by {match.b.name}); "
        f"game 2: {match.b.name} won (clock, pressed by {match.a.name}); "
        f"game 3: {match.a.name} lost on time"
    )


def test_a_deciding_flag_without_every_games_bids_records_the_games_only(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    response = _two_games_then_a_flag(server_time, match, third_bids=None)
    assert response.status_code == 200, response.content
    match.refresh_from_db()
    assert match.games == (1, 2, 0) and match.status == MatchStatus.FINAL
    assert not match.game_details
    reason = match.versions.get().reason
    assert "ran out of time in game 3" in reason and "game 3: " in reason
    assert reason.endswith("lost on time")


def test_a_judges_game_end_is_named_in_the_reason(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    event, _org, match = bos_clock_table
    judge = UserFactory(first_name="Jo", last_name="Judge")
    event.judges.add(judge)
    a, _b = players(match)
    press(a, match, "start", 0, first="a", bids=[1, 2])
    press(client_for(judge), match, "game_end", 1, winner="b")
    press(a, match, "start", 2, first="b", bids=[5, 3])
    server_time.advance(30 + 15 * 60)
    assert press(a, match, "flag", 3, side="b").status_code == 200
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING  # 1-1: game 2 lost on time decides nothing
    data = a.get(url(match)).json()
    assert data["games"][0]["pressed_by"] == "Jo Judge"
    assert data["games"][1]["end"] == "time" and data["games"][1]["pressed_by"] is None


def test_boba_has_no_game_details_a_deciding_flag_records_the_games_only(
    server_time: FakeClock,
) -> None:
    event, organiser, _regs = running_event(2, clock_mode="per_game", clock_minutes=10)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = Match.objects.select_related("round__tournament", "a", "b").get(round=round_)
    a, _b = players(match)
    # The API takes bids for any game; a game without per-game details records none.
    assert press(a, match, "start", 0, first="a", bids=[1, 2]).status_code == 200
    server_time.advance(30 + 10 * 60)
    response = press(a, match, "flag", 1, side="a")
    assert response.status_code == 200, response.content
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (0, 1, 0)
    assert not match.game_details
    assert match.versions.get().change == ResultChange.TIME
