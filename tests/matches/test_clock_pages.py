"""The match clock page (no JavaScript: forms, server-rendered times) and the staff views'
read-only clock block."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import ClockEvent
from tests.factories import UserFactory
from tests.scenarios import BosTable, bos_table
from tests.support import FakeClock

pytestmark = pytest.mark.django_db


def logged_in(user: object) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_clock_page_shows_both_times_and_forms_without_javascript(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    page = logged_in(match.a.player).get(f"/matches/{match.pk}/clock/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("15:00") >= 2
    assert match.a.name in html and match.b.name in html
    assert 'value="start::a"' in html and 'name="expected_seq" value="0"' in html
    assert "js/clock.js" in html and 'id="clock-state"' in html


def test_a_press_without_javascript_posts_and_comes_back(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    client = logged_in(match.a.player)
    url = f"/matches/{match.pk}/clock/"
    response = client.post(url, {"press": "start::b", "expected_seq": "0"})
    assert response.status_code == 302 and response["Location"] == url
    server_time.advance(10)
    response = client.post(url, {"press": "turn:b", "expected_seq": "1"})
    assert [e.kind for e in ClockEvent.objects.filter(match=match)] == ["start", "turn"]
    # The same tap again (a stale page): refused with a message, nothing pressed.
    response = client.post(url, {"press": "turn:b", "expected_seq": "1"}, follow=True)
    assert "moved on" in response.content.decode()
    assert ClockEvent.objects.filter(match=match).count() == 2
    page = client.get(url).content.decode()
    assert 'value="turn:a"' in page


def test_strangers_may_not_open_the_clock(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    assert logged_in(UserFactory()).get(f"/matches/{match.pk}/clock/").status_code == 403
    assert Client().get(f"/matches/{match.pk}/clock/").status_code == 302  # to log in


def test_judges_adjust_from_the_page_and_see_the_clock_on_the_staff_page(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    event, organiser, match = bos_clock_table
    client = logged_in(organiser)
    url = f"/matches/{match.pk}/clock/"
    client.post(url, {"press": "start::a", "expected_seq": "0"})
    page = client.get(url).content.decode()
    assert "adjust_seconds" in page
    client.post(
        url,
        {
            "press": "adjust",
            "expected_seq": "1",
            "adjust_side": "b",
            "adjust_seconds": "60",
            "reason": "clock knocked over",
        },
    )
    assert ClockEvent.objects.filter(match=match, kind="adjust").count() == 1
    staff_page = client.get(f"/matches/{match.pk}/staff/").content.decode()
    assert "Match clock" in staff_page and "16:00" in staff_page
    # Players' own match page links to the clock.
    player_page = logged_in(match.a.player).get(f"/events/{event.slug}/my-match/")
    assert f"/matches/{match.pk}/clock/" in player_page.content.decode()


def test_players_do_not_get_the_adjust_form(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    page = logged_in(match.a.player).get(f"/matches/{match.pk}/clock/").content.decode()
    assert "adjust_seconds" not in page


def test_no_clock_link_when_the_event_runs_none(server_time: FakeClock) -> None:
    event, _org, match = bos_table(clock_mode="off")
    page = logged_in(match.a.player).get(f"/events/{event.slug}/my-match/").content.decode()
    assert f"/matches/{match.pk}/clock/" not in page


def test_the_clock_page_passes_the_accessibility_basics(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    from tests.support import audit

    _event, organiser, match = bos_clock_table
    url = f"/matches/{match.pk}/clock/"
    for user in (match.a.player, organiser):
        client = logged_in(user)
        assert audit(client, url) == []
        client.post(url, {"press": "start::a", "expected_seq": str(match.clock_events.count())})
        assert audit(client, url) == []
    assert audit(logged_in(organiser), f"/matches/{match.pk}/staff/") == []


def test_the_start_form_asks_both_bids_and_a_start_without_javascript_keeps_them(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    client = logged_in(match.a.player)
    url = f"/matches/{match.pk}/clock/"
    html = client.get(url).content.decode()
    assert 'name="bid_a"' in html and 'name="bid_b"' in html
    assert 'for="clock-bid-a"' in html and 'inputmode="numeric"' in html
    # One bid alone, or a tie, is refused with a message; nothing is pressed.
    page = client.post(
        url, {"press": "start::a", "expected_seq": "0", "bid_a": "3"}, follow=True
    ).content.decode()
    assert "both players" in page
    page = client.post(
        url, {"press": "start::a", "expected_seq": "0", "bid_a": "3", "bid_b": "3"}, follow=True
    ).content.decode()
    assert "bid again" in page
    assert not ClockEvent.objects.filter(match=match).exists()
    client.post(url, {"press": "start::b", "expected_seq": "0", "bid_a": "3", "bid_b": "5"})
    row = ClockEvent.objects.get(match=match)
    assert row.payload["bids"] == [3, 5] and row.payload["first"] == "b"


def test_a_game_lost_on_time_shows_on_the_clock_and_fills_in_the_report_form(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    client = logged_in(match.b.player)
    url = f"/matches/{match.pk}/clock/"
    client.post(url, {"press": "start::a", "expected_seq": "0", "bid_a": "2", "bid_b": "6"})
    server_time.advance(30 + 15 * 60)
    client.post(url, {"press": "flag:a", "expected_seq": "1"})
    html = client.get(url).content.decode()
    assert f"Game 1: {match.a.name} lost on time" in html
    # b's report form: game 1 filled in from the clock, b's own side first.
    report = client.get(f"/matches/{match.pk}/report/").content.decode()
    assert f"Game 1: {match.a.name} lost on time" in report
    assert 'name="g1_winner" value="me" checked' in report
    assert 'name="g1_bids_me" min="0" max="99" value="6"' in report
    assert 'name="g1_bids_opp" min="0" max="99" value="2"' in report
    assert '<option value="time" selected>' in report
    assert 'name="g1_first" value="opp" checked' in report
    assert 'name="g2_winner" value="" checked' in report


def test_a_clock_game_without_bids_is_shown_but_not_filled_in(
    server_time: FakeClock, bos_clock_table: BosTable
) -> None:
    _event, _org, match = bos_clock_table
    client = logged_in(match.a.player)
    url = f"/matches/{match.pk}/clock/"
    client.post(url, {"press": "start::a", "expected_seq": "0"})
    server_time.advance(30 + 15 * 60)
    client.post(url, {"press": "flag:a", "expected_seq": "1"})
    report = client.get(f"/matches/{match.pk}/report/").content.decode()
    assert f"Game 1: {match.a.name} lost on time" in report
    assert 'name="g1_winner" value="" checked' in report
