"""The BOS report form on a phone after a refusal: everything typed comes back, the per-game
section open, the problem in words next to the field it names and in a summary linked to it
(players by name, games numbered from 1, counts from the reader's side); the API keeps its
field paths. Games without drawn games ask for none (the report form, the judge's ruling
forms, the standings explanation). The staff match page shows each game full width on a
phone."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import pytest

from engine.games import GameDetailsError, PlayerRef, Score, Text, for_reader, get_game
from matches.models import Report
from tests.factories import logged_in
from tests.matches.bos_scenes import DETAILS, BosMatch, bos_match, report
from tests.scenarios import client_for, pair_and_publish_through_api, player_client, running_event
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def _url(m: dict[str, Any]) -> str:
    return f"/matches/{m['id']}/report/"


def _player(m: dict[str, Any], side: str) -> Any:
    return Registration.objects.get(pk=m[side]).player


def _name(m: dict[str, Any], side: str) -> str:
    return str(Registration.objects.get(pk=m[side]).name)


def _problem(html: str) -> str:
    """The summary's message (role=alert), tags stripped."""
    found = re.search(
        r'<div class="[^"]*report-problem"[^>]*role="alert"[^>]*>(.*?)</div>', html, re.S
    )
    assert found, "no problem summary"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


# --- the pure parts -------------------------------------------------------------------------


def test_game_details_error_reads_its_parts_from_the_field_path() -> None:
    exc = GameDetailsError("game_details[1].swaps.b[0].out", "unknown card 'X'")
    assert (exc.game, exc.part, exc.side, exc.item) == (1, "swaps", "b", 0)
    bids = GameDetailsError("game_details[0].bids", "x")
    assert (bids.game, bids.part, bids.side, bids.item) == (0, "bids", None, None)
    whole = GameDetailsError("game_details", "x")
    assert (whole.game, whole.part) == (None, None)
    assert whole.text == Text.plain("x")


def test_for_reader_names_players_and_counts_from_the_readers_side() -> None:
    text = Text.of("%(player)s chooses; %(score)s", player=PlayerRef("b"), score=Score(1, 2))
    names = {"a": "Ann", "b": "Bo"}
    assert for_reader(text, names, "a").render() == "Bo chooses; 1\u20132"
    assert for_reader(text, names, "b").render() == "Bo chooses; 2\u20131"
    assert for_reader(text, names, None).render() == "Bo chooses; 1\u20132"


def test_bos_going_first_refusals_name_the_higher_bidder_for_people_and_a_b_for_tools() -> None:
    from engine.bos.match import clean_game_details

    with pytest.raises(GameDetailsError) as caught:
        clean_game_details(
            [{"winner": "a", "bids": [1, 5], "chose_first": "a"}],
            games=(1, 0, 0),
            games_to_win=2,
        )
    exc = caught.value
    assert exc.field == "game_details[0].chose_first"
    assert "(b)" in exc.message  # the API's message is unchanged
    people = for_reader(exc.text, {"a": "Ann", "b": "Bo"}, "a").render()
    assert people == "the higher bidder (Bo) chooses who goes first (BOS: Going First)"


# --- the report page after a refusal ---------------------------------------------------------


def test_bos_refused_report_comes_back_filled_in_with_the_problem_next_to_its_field(
    bos_published: BosMatch,
) -> None:
    _, _, m = bos_published
    form = {
        "won": "2",
        "lost": "0",
        "g1_winner": "me",
        "g1_bids_me": "3",
        "g1_bids_opp": "3",
        "g1_chose_first": "me",
        "g2_winner": "me",
        "g2_bids_me": "1",
        "g2_bids_opp": "4",
        "g2_end": "time",
        "g2_swaps_me": "",
    }
    response = logged_in(_player(m, "a")).post(_url(m), form)
    assert response.status_code == 400
    assert not Report.objects.filter(match_id=m["id"]).exists()
    html = response.content.decode()
    # What was typed, back in the form.
    assert 'id="id_won" name="won" min="0" max="2" value="2"' in html
    assert 'id="id_lost" name="lost" min="0" max="2" value="0"' in html
    assert 'name="g1_bids_me" min="0" max="99" value="3"' in html
    assert 'name="g1_bids_opp" min="0" max="99" value="3"' in html
    assert 'name="g2_bids_opp" min="0" max="99" value="4"' in html
    assert '<input type="radio" name="g1_winner" value="me" checked>' in html
    assert '<input type="radio" name="g1_chose_first" value="me" checked>' in html
    assert '<option value="time" selected>' in html
    assert '<details class="report-details" open>' in html
    # The problem in words: next to the field, linked to it from the summary.
    message = "Game 1, Ether bid: equal bids decide nothing"
    assert message in _problem(html)
    assert '<a href="#id_g1_bids_me">' in html
    assert 'aria-invalid="true" aria-describedby="err_g1_bids_me help_g1_bids"' in html
    assert re.search(r'<p class="field-error" id="err_g1_bids_me">' + message, html)
    assert html.index('name="g1_bids_opp"') < html.index('id="err_g1_bids_me"')  # full width
    assert "game_details[" not in html


def test_bos_refused_report_counts_the_games_from_the_readers_side(bos_published: BosMatch) -> None:
    """b reports 2-0 for themselves with one game filled in: the count is b's, not a's."""
    _, _, m = bos_published
    form = {"won": "2", "lost": "0", "g1_winner": "me", "g1_bids_me": "5", "g1_bids_opp": "1"}
    response = logged_in(_player(m, "b")).post(_url(m), form)
    assert response.status_code == 400
    problem = _problem(response.content.decode())
    assert "2 games for a 2\u20130 result, 1 filled in" in problem
    assert "[0, 2, 0]" not in problem and "0\u20132" not in problem


def test_bos_refused_report_names_the_higher_bidder(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    form = {
        "won": "1",
        "lost": "1",
        "g1_winner": "me",
        "g1_bids_me": "1",
        "g1_bids_opp": "5",
        "g1_chose_first": "me",
        "g2_winner": "opp",
        "g2_bids_me": "2",
        "g2_bids_opp": "0",
    }
    response = logged_in(_player(m, "a")).post(_url(m), form)
    html = response.content.decode()
    problem = _problem(html)
    assert "Game 1, Chose who went first: the higher bidder (" + _name(m, "b") + ")" in problem
    assert (
        '<fieldset class="form-row detail-side" id="id_g1_chose_first" aria-describedby="err_g1_chose_first"'
        in html
    )
    assert 'href="#id_g1_chose_first"' in html


def test_bos_a_swap_line_that_does_not_read_is_named_by_game_and_line() -> None:
    _, _, m = bos_match(decklists=True)
    swaps = "2 Spark Pup > Brand Knight\njust words"
    form = {
        "won": "2",
        "lost": "0",
        "g1_winner": "me",
        "g1_bids_me": "3",
        "g1_bids_opp": "1",
        "g2_winner": "me",
        "g2_bids_me": "0",
        "g2_bids_opp": "2",
        "g2_swaps_me": swaps,
    }
    response = logged_in(_player(m, "a")).post(_url(m), form)
    assert response.status_code == 400
    html = response.content.decode()
    assert (
        "Game 2, Reserve swaps before this game (you), line 2: write a swap as: card out &gt; card in"
        in _problem(html)
    )
    assert "2 Spark Pup &gt; Brand Knight\njust words</textarea>" in html
    assert 'href="#id_g2_swaps_me"' in html


def test_bos_refused_games_count_is_shown_next_to_the_games(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    form = {"won": "", "lost": "1", "g1_winner": "opp", "g1_bids_me": "2", "g1_bids_opp": "4"}
    response = logged_in(_player(m, "a")).post(_url(m), form)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'href="#id_won"' in html and 'id="err_games"' in html
    assert 'aria-describedby="err_games"' in html
    assert 'name="g1_bids_opp" min="0" max="99" value="4"' in html


def test_bos_refused_correction_opens_the_change_my_report_section(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    report(player_client(m, "a"), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    form = {"won": "2", "lost": "0", "g1_winner": "me", "g1_bids_me": "2", "g1_bids_opp": "2"}
    html = logged_in(_player(m, "a")).post(_url(m), form).content.decode()
    assert "<details open><summary>Change my report</summary>" in html
    assert 'name="g1_bids_me" min="0" max="99" value="2"' in html


def test_bos_refused_report_page_passes_the_accessibility_audit(bos_published: BosMatch) -> None:
    from tests.support import PageAudit

    _, _, m = bos_published
    form = {"won": "2", "lost": "0", "g1_winner": "me", "g1_bids_me": "3", "g1_bids_opp": "3"}
    parser = PageAudit()
    parser.feed(logged_in(_player(m, "a")).post(_url(m), form).content.decode())
    assert parser.report() == []


def test_bos_api_keeps_the_field_path(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    body = {"games": [1, 0, 0], "game_details": [{"winner": "a", "bids": [3, 3]}]}
    refused = report(player_client(m, "a"), m["id"], body)
    assert refused.status_code == 400
    assert refused.json()["field"] == "game_details[0].bids"
    assert refused.json()["detail"].startswith("game_details[0].bids: equal bids")


def test_bos_staff_page_refusal_is_in_words_with_names(bos_published: BosMatch) -> None:
    _, organiser, m = bos_published
    form = {
        "games_a": "2",
        "games_b": "0",
        "games_drawn": "0",
        "step": "enter",
        "g1_winner": "me",
        "g1_bids_me": "1",
        "g1_bids_opp": "5",
        "g1_chose_first": "me",
    }
    response = logged_in(organiser).post(f"/matches/{m['id']}/staff/", form, follow=True)
    html = response.content.decode()
    assert "Game 1, Chose who went first: the higher bidder (" + _name(m, "b") + ") chooses" in html
    assert "game_details[" not in html


# --- no drawn games ------------------------------------------------------------------------


def test_bos_report_form_asks_no_drawn_games_and_boba_still_does(bos_published: BosMatch) -> None:
    assert get_game("bos").drawn_games is False
    _, _, m = bos_published
    html = logged_in(_player(m, "a")).get(_url(m)).content.decode()
    assert 'name="drawn"' not in html and "Drawn games" not in html
    event, organiser, _ = running_event(2)
    boba = pair_and_publish_through_api(event, organiser)["matches"][0]
    html = logged_in(_player(boba, "a")).get(_url(boba)).content.decode()
    # BoBA's best of 1 is the one-tap report: its draw is one of the choices.
    assert 'name="outcome" value="draw"' in html


def test_bos_match_card_reports_say_no_drawn_games(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    report(player_client(m, "a"), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    html = logged_in(_player(m, "a")).get(_url(m)).content.decode()
    assert "You reported: you won 2, your opponent won 1. Your opponent now confirms it." in html
    assert "0 drawn." not in html


def test_bos_judge_ruling_forms_ask_no_drawn_games(bos_published: BosMatch) -> None:
    from matches.models import JudgeCall

    _, organiser, m = bos_published
    report(player_client(m, "a"), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    theirs = [DETAILS[0], {"winner": "b", "bids": [6, 0]}, DETAILS[2]]
    report(player_client(m, "b"), m["id"], {"games": [2, 1, 0], "game_details": theirs})
    call = JudgeCall.objects.get(match_id=m["id"])
    staff = logged_in(organiser)
    call_page = staff.get(f"/judge/calls/{call.pk}/").content.decode()
    assert 'name="games_a"' in call_page and 'name="games_drawn"' not in call_page
    adjudicate = staff.get(f"/judge/calls/{call.pk}/adjudicate/")
    assert adjudicate.status_code == 200
    html = adjudicate.content.decode()
    assert 'name="games_a"' in html and 'name="games_drawn"' not in html


def test_bos_standings_game_win_explanation_has_no_draws(bos_published: BosMatch) -> None:
    from matches import views

    def game_win(event: Any) -> str:
        row = {
            "opponents": [],
            "tiebreakers": {"gw": 2 / 3},
            "games": [2, 1, 0],
            "trophies": [0, 0],
        }
        assert "gw" in event.tiebreakers
        return next(e["text"] for e in views._explanations(event, row) if e["key"] == "gw")

    event, _, _ = bos_published
    text = game_win(event)
    assert "You won 2 games (3 points each) and lost 1" in text
    assert "drew" not in text and "point each" not in text
    boba, _, _ = running_event(2)
    assert "drew 0 (1 point each)" in game_win(boba)


# --- in a browser at 360 px -----------------------------------------------------------------

SMALL_PHONE = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
def test_bos_refused_report_and_staff_match_page_at_360_px(
    open_page: Callable[..., Any], live_server: Any
) -> None:
    from playwright.sync_api import expect

    _, organiser, m = bos_match()
    page = open_page(_player(m, "a"), SMALL_PHONE)
    page.goto(f"{live_server.url}{_url(m)}")
    page.fill("#id_won", "2")
    page.fill("#id_lost", "0")
    page.locator("summary", has_text="Each game").click()
    page.locator('input[name="g1_winner"][value="me"]').check()
    page.fill("#id_g1_bids_me", "3")
    page.fill("#id_g1_bids_opp", "3")
    page.get_by_role("button", name="Send result").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Game 1, Ether bid: equal bids decide nothing")
    expect(page.locator("#id_won")).to_have_value("2")
    expect(page.locator("#id_g1_bids_opp")).to_have_value("3")
    expect(page.locator("#err_g1_bids_me")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot = os.environ.get("BOS_REPORT_SCREENSHOT")
    if shot:  # the summary, then the first game with its problem
        alert.scroll_into_view_if_needed()
        page.screenshot(path=shot)
        page.locator("#id_g1").screenshot(path=shot.replace(".png", "-game1.png"))

    report(client_for(organiser), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    staff = open_page(organiser, SMALL_PHONE)
    staff.goto(f"{live_server.url}/matches/{m['id']}/staff/")
    games = staff.locator("dl.details ul.game-details")
    expect(games).to_be_visible()
    box = games.bounding_box()
    assert box is not None and box["width"] >= 280, box
    assert staff.evaluate("document.documentElement.scrollWidth") <= 360
    code = staff.locator(".player-id").first
    if code.count():
        height = code.bounding_box()
        line = staff.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.player-id')).lineHeight)"
        )
        assert height is not None and height["height"] <= line * 1.5
    shot = os.environ.get("BOS_STAFF_SCREENSHOT")
    if shot:
        staff.locator("dl.details").screenshot(path=shot)
