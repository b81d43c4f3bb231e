"""Issue 18, "Event day without surprises", from the player's phone: what a report says it
did, where signing in lands during a running event, the one-tap best-of-1 report, each
player's record on the pairings and the compact standings. Events are driven through
matches.services, pages through the test client."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match, MatchStatus, Round
from tests.factories import logged_in
from tests.scenarios import RunningTopCut, bos_table, client_for, running_event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    cache.clear()
    yield
    cache.clear()


def pair(event: Any, organiser: Any) -> Round:
    round_ = services.round_pair(actor=organiser, tournament=event)
    return services.round_publish(actor=organiser, round_=round_)


def two_player_match() -> tuple[Any, Any, Match]:
    event, organiser, _ = running_event(2)
    match = pair(event, organiser).matches.select_related("a__player", "b__player").get()
    return event, organiser, match


def flash(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- Finding 4: every message after a report says what happened ------------------------------


def test_a_report_that_differs_says_disputed_and_a_judge_is_coming_not_that_the_opponent_confirms() -> (
    None
):
    event, _organiser, match = two_player_match()
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    logged_in(match.a.player).post(url, {"won": "1", "lost": "0"})
    # b reports differently ("I won" too): the match is disputed.
    sent = logged_in(match.b.player).post(url, {"won": "1", "lost": "0"})
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED
    said = flash(sent)
    assert len(said) == 1
    assert "disputed" in said[0] and "judge is coming" in said[0]
    assert "confirm" not in said[0]


def test_a_first_report_says_it_waits_for_the_opponent() -> None:
    _event, _organiser, match = two_player_match()
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    sent = logged_in(match.a.player).post(url, {"won": "1", "lost": "0"})
    assert flash(sent) == ["Result sent. Waiting for your opponent to confirm it on their phone."]


def test_the_same_report_from_the_opponent_says_the_result_is_final() -> None:
    _event, _organiser, match = two_player_match()
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    logged_in(match.a.player).post(url, {"won": "1", "lost": "0"})
    sent = logged_in(match.b.player).post(url, {"won": "0", "lost": "1"})
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL
    assert flash(sent) == ["The result is final: you and your opponent agree."]


def test_the_api_answer_to_a_report_says_what_happened() -> None:
    _event, _organiser, match = two_player_match()
    url = f"/api/matches/{match.pk}/report/"
    first = client_for(match.a.player).post(url, {"games": [1, 0, 0]}, format="json")
    assert first.status_code == 200
    assert first.json()["status"] == "reported"
    assert "Waiting for your opponent" in first.json()["message"]
    second = client_for(match.b.player).post(url, {"games": [0, 1, 0]}, format="json")
    assert second.json()["status"] == "disputed"
    assert "judge is coming" in second.json()["message"]
    assert "confirm" not in second.json()["message"]


def test_the_api_answer_to_a_confirmation_says_the_result_is_final() -> None:
    _event, _organiser, match = two_player_match()
    client_for(match.a.player).post(
        f"/api/matches/{match.pk}/report/", {"games": [1, 0, 0]}, format="json"
    )
    confirmed = client_for(match.b.player).post(f"/api/matches/{match.pk}/confirm/", {})
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "final"
    assert confirmed.json()["message"] == "The result is final: you and your opponent agree."


# --- signing in during a running event lands on the player's table ----------------------------


def sign_in(user: Any, **extra: str) -> Any:
    return Client().post(
        reverse("login"), {"username": user.username, "password": "correct-horse-battery", **extra}
    )


def test_signing_in_during_a_running_event_lands_on_my_table() -> None:
    event, _organiser, match = two_player_match()
    answer = sign_in(match.a.player)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("my_match", kwargs={"slug": event.slug})


def test_an_explicit_next_still_wins_over_my_table() -> None:
    _event, _organiser, match = two_player_match()
    answer = sign_in(match.a.player, next="/accounts/profile/")
    assert answer["Location"] == "/accounts/profile/"


def test_signing_in_without_a_published_round_goes_home_as_before() -> None:
    event, organiser, regs = running_event(2)
    services.round_pair(actor=organiser, tournament=event)  # paired, not published
    answer = sign_in(regs[0].player)
    assert answer["Location"] == reverse("home")


def test_signing_in_after_dropping_goes_home() -> None:
    from django.utils import timezone

    _event, _organiser, match = two_player_match()
    type(match.a).objects.filter(pk=match.a_id).update(dropped_at=timezone.now())
    assert sign_in(match.a.player)["Location"] == reverse("home")


def test_with_two_running_events_signing_in_picks_the_match_still_to_report() -> None:
    from tests.factories import RegistrationFactory

    first, first_organiser, first_regs = running_event(1)
    second, second_organiser, second_regs = running_event(1)
    player = first_regs[0].player
    RegistrationFactory(tournament=second, player=player)
    RegistrationFactory(tournament=first, player=second_regs[0].player)
    first_round = pair(first, first_organiser)
    second_round = pair(second, second_organiser)
    # The first event's match is already final; the second one still waits for a report.
    done = first_round.matches.get()
    services.match_report(actor=first_organiser, match=done, games=[1, 0, 0])
    assert second_round.matches.get().status == MatchStatus.PENDING
    assert sign_in(player)["Location"] == reverse("my_match", kwargs={"slug": second.slug})


# --- a best-of-1 result is one tap plus a confirmation ----------------------------------------


def my_match_html(event: Any, user: Any) -> str:
    return logged_in(user).get(reverse("my_match", kwargs={"slug": event.slug})).content.decode()


def test_a_best_of_1_report_is_one_tap_and_a_confirmation_through_the_same_service() -> None:
    event, _organiser, match = two_player_match()
    html = my_match_html(event, match.b.player)
    for outcome in ("win", "loss", "draw"):
        assert f'name="outcome" value="{outcome}"' in html
    assert "Confirm and send" in html and 'name="won"' not in html
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    sent = logged_in(match.b.player).post(url, {"outcome": "win"})
    assert sent.status_code == 302
    report = match.reports.get()
    assert report.games == (0, 1, 0)  # b won, stored a-first
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED
    # Changing it is the same one tap, the current choice already chosen.
    again = my_match_html(event, match.b.player)
    assert re.search(r'value="win"[^>]* checked>', again)
    assert not re.search(r'value="loss"[^>]* checked>', again)


def test_a_best_of_1_draw_is_offered_only_where_the_game_allows_draws() -> None:
    from engine.games import get_game

    assert get_game("bos").drawn_games is False
    event, organiser, regs = running_event(2, game="bos", match_structure="bo1")
    match = pair(event, organiser).matches.select_related("a__player").get()
    html = my_match_html(event, match.a.player)
    assert 'name="outcome" value="win"' in html and 'value="draw"' not in html
    # Posted anyway, the service refuses it as for any report: a 400 naming the games.
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    refused = logged_in(match.a.player).post(url, {"outcome": "draw"})
    assert refused.status_code == 400
    assert not match.reports.exists()


def test_a_best_of_3_keeps_its_games_form() -> None:
    event, organiser, regs = running_event(2, match_structure="bo3")
    match = pair(event, organiser).matches.select_related("a__player").get()
    html = my_match_html(event, match.a.player)
    assert 'name="won"' in html and 'name="outcome"' not in html


def test_a_one_tap_report_without_a_choice_is_a_400_naming_it_and_saves_nothing() -> None:
    _event, _organiser, match = two_player_match()
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    refused = logged_in(match.a.player).post(url, {"outcome": "maybe"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Choose I won, I lost or Draw." in html and 'href="#id_outcome_win"' in html
    assert not match.reports.exists()


# --- pairings show each player's record going into the round ----------------------------------


def finish_round(round_: Round, organiser: Any, games: list[int] | None = None) -> None:
    for match in round_.matches.filter(b__isnull=False):
        services.match_report(actor=organiser, match=match, games=games or [1, 0, 0])
    round_.refresh_from_db()


def pairings_html(event: Any, number: int, user: Any = None) -> str:
    client = logged_in(user) if user is not None else Client()
    url = reverse("round_pairings", kwargs={"slug": event.slug, "number": number})
    return client.get(url).content.decode()


def test_pairings_show_each_players_record_from_the_standings_before_the_round_byes_counted() -> (
    None
):
    event, organiser, regs = running_event(5)  # five players: one bye each round
    first = pair(event, organiser)
    bye = first.matches.get(b__isnull=True)
    finish_round(first, organiser)
    expected: dict[int, str] = {bye.a_id: "1-0-0"}  # the bye counts as a win
    for m in first.matches.filter(b__isnull=False):
        expected[m.a_id], expected[m.b_id] = "1-0-0", "0-1-0"
    second = pair(event, organiser)
    html = pairings_html(event, 2)
    for m in second.matches.select_related("a", "b"):
        assert f'{m.a.name} <span class="pairing-record">{expected[m.a_id]}</span>' in html
        if m.b is not None:
            assert f'{m.b.name} <span class="pairing-record">{expected[m.b_id]}</span>' in html
    # By name: a Record column beside each name.
    assert ">Record</abbr></th>" in html
    by_name = html.split('class="pairings-list pairings-by-name"')[1]
    for reg in regs:
        assert re.search(
            rf"<th scope=\"row\">{re.escape(reg.name)}</th>\s*"
            rf"<td class=\"num pairing-record\">{expected[reg.pk]}</td>",
            by_name,
        ), reg.name


def test_a_correction_of_an_earlier_round_shows_in_the_published_pairings_records(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The pairings page is cached per round version: correcting round 1 while round 2 is
    out must not leave round 2 showing the records from before the correction."""
    event, organiser, _regs = running_event(4)
    first = pair(event, organiser)
    finish_round(first, organiser)
    pair(event, organiser)
    corrected = first.matches.filter(b__isnull=False).select_related("a", "b").first()
    assert corrected is not None
    before = pairings_html(event, 2)
    assert f'{corrected.a.name} <span class="pairing-record">1-0-0</span>' in before
    with django_capture_on_commit_callbacks(execute=True):
        services.match_report(
            actor=organiser, match=corrected, games=[0, 1, 0], reason="slip read backwards"
        )
    after = pairings_html(event, 2)
    assert f'{corrected.a.name} <span class="pairing-record">0-1-0</span>' in after
    assert f'{corrected.b.name} <span class="pairing-record">1-0-0</span>' in after


def test_round_1_pairings_show_everyone_at_0_0_0() -> None:
    event, organiser, regs = running_event(4)
    pair(event, organiser)
    html = pairings_html(event, 1)
    assert html.count('<span class="pairing-record">0-0-0</span>') == 4


def test_the_round_api_adds_each_players_record_and_keeps_its_fields() -> None:
    event, organiser, regs = running_event(4)
    first = pair(event, organiser)
    finish_round(first, organiser)
    winners = set(first.matches.values_list("a_id", flat=True))
    pair(event, organiser)
    data = Client().get(f"/api/events/{event.slug}/rounds/2/").json()
    for m in data["matches"]:
        assert {"id", "table", "a", "b", "status", "result", "reason"} <= m.keys()
        assert m["a_record"] == ("1-0-0" if m["a"] in winners else "0-1-0")
        assert m["b_record"] == ("1-0-0" if m["b"] in winners else "0-1-0")


def test_pairings_leave_records_out_while_the_standings_before_the_final_round_are_hidden() -> None:
    event, organiser, regs = running_event(4, hide_standings_before_final=True, planned_rounds=2)
    first = pair(event, organiser)  # 4 players: 2 Swiss rounds, the second is the final one
    finish_round(first, organiser)
    pair(event, organiser)
    html = pairings_html(event, 2)
    assert "pairing-record" not in html and ">Record</abbr>" not in html
    data = Client().get(f"/api/events/{event.slug}/rounds/2/").json()
    assert all(m["a_record"] is None for m in data["matches"])


def test_the_pairings_page_reads_the_records_in_a_fixed_number_of_queries() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def render_queries(players: int) -> int:
        event, organiser, _ = running_event(players)
        first = pair(event, organiser)
        finish_round(first, organiser)
        pair(event, organiser)
        cache.clear()
        with CaptureQueriesContext(connection) as ctx:
            html = pairings_html(event, 2)
        assert "pairing-record" in html
        return len(ctx.captured_queries)

    assert render_queries(4) == render_queries(24)


def test_bracket_pairings_add_the_bracket_rounds_before_to_the_swiss_record(
    running_top_cut: RunningTopCut,
) -> None:
    event, organiser = running_top_cut.event, running_top_cut.organiser
    [swiss] = running_top_cut.swiss
    swiss_record = {}
    for m in swiss.matches.all():
        swiss_record[m.a_id], swiss_record[m.b_id] = "1-0-0", "0-1-0"
    cut = running_top_cut.cut
    # A bracket match cannot end drawn: its one-tap report offers no draw.
    semi = cut.matches.select_related("a__player").first()
    assert semi is not None
    html = my_match_html(event, semi.a.player)
    assert 'name="outcome" value="win"' in html and 'value="draw"' not in html
    data = Client().get(f"/api/events/{event.slug}/rounds/{cut.number}/").json()
    for m in data["matches"]:
        assert m["a_record"] == swiss_record[m["a"]] and m["b_record"] == swiss_record[m["b"]]
    finish_round(cut, organiser)  # a wins every semi-final
    final = services.round_publish(
        actor=organiser, round_=services.round_pair(actor=organiser, tournament=event)
    )
    data = Client().get(f"/api/events/{event.slug}/rounds/{final.number}/").json()
    (m,) = data["matches"]
    assert m["a_record"] == "2-0-0" and m["b_record"] == "2-0-0"


# --- Finding 7: the report prefilled from the clock has its match totals too -------------------


def test_a_report_prefilled_from_the_clock_fills_the_match_totals_from_its_games(
    server_time: Any,
) -> None:
    _event, _org, match = bos_table()
    b_client = logged_in(match.b.player)
    clock = f"/matches/{match.pk}/clock/"
    b_client.post(clock, {"press": "start::a", "expected_seq": "0", "bid_a": "2", "bid_b": "6"})
    server_time.advance(30 + 15 * 60)
    b_client.post(clock, {"press": "flag:a", "expected_seq": "1"})  # a lost game 1 on time
    report = b_client.get(f"/matches/{match.pk}/report/").content.decode()
    assert 'name="g1_winner" value="me" checked' in report  # the per-game details, as before
    # ... and the totals they add up to, from b's side: b won 1, a won 0.
    assert 'id="id_won" name="won" min="0" max="2" value="1"' in report
    assert 'id="id_lost" name="lost" min="0" max="2" value="0"' in report
    a_report = logged_in(match.a.player).get(f"/matches/{match.pk}/report/").content.decode()
    assert 'id="id_won" name="won" min="0" max="2" value="0"' in a_report
    assert 'id="id_lost" name="lost" min="0" max="2" value="1"' in a_report
