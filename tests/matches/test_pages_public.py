"""The player-facing round pages (matches/views.py): pairings, my match and reporting, the
round timer, standings and their explanations, the cut calculator, the bracket, the projector
and the event page's rounds section. Events are built and driven through matches.services."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from matches import services
from matches.models import Match, MatchStatus, Round, RoundStatus
from tests.factories import UserFactory, logged_in
from tests.scenarios import RunningTopCut, running_event
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    cache.clear()
    yield
    cache.clear()


def pair(event: Any, organiser: Any, *, publish: bool = True) -> Round:
    round_ = services.round_pair(actor=organiser, tournament=event)
    if publish:
        round_ = services.round_publish(actor=organiser, round_=round_)
    return round_


def finish(round_: Round, organiser: Any, games: tuple[int, int, int] = (1, 0, 0)) -> None:
    for match in round_.matches.filter(b__isnull=False):
        services.match_report(actor=organiser, match=match, games=list(games))
    round_.refresh_from_db()
    assert round_.status == RoundStatus.FINISHED


def player_of(match: Match, side: str) -> Any:
    registration = match.a if side == "a" else match.b
    assert registration is not None
    return registration.player


def pairings_url(event: Any, number: int) -> str:
    return reverse("round_pairings", kwargs={"slug": event.slug, "number": number})


# --- pairings ---------------------------------------------------------------------------------


def test_pairings_list_every_player_by_table_and_by_name_with_the_bye() -> None:
    event, organiser, regs = running_event(5)
    round_ = pair(event, organiser)
    response = Client().get(pairings_url(event, round_.number))
    assert response.status_code == 200
    html = response.content.decode()
    for reg in regs:
        # each name twice: once in the table list, once in the alphabetical list
        assert html.count(reg.name) >= 2, reg.name
    assert "Bye" in html
    by_name = html[html.index('id="by-name-heading"') :]
    names = re.findall(r'<th scope="row">([^<]+)</th>', by_name)
    assert names == sorted(names, key=str.casefold) and len(names) == 5


def test_the_logged_in_player_sees_a_your_table_banner() -> None:
    event, organiser, _ = running_event(4)
    round_ = pair(event, organiser)
    match = round_.matches.select_related("a__player").order_by("table").last()
    response = logged_in(match.a.player).get(pairings_url(event, round_.number))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'class="your-table-number">{match.table}</strong>' in html
    assert "your-table" not in Client().get(pairings_url(event, round_.number)).content.decode()


def test_an_unpublished_round_is_404_for_players_and_the_public_and_shown_to_staff() -> None:
    event, organiser, regs = running_event(4)
    round_ = pair(event, organiser, publish=False)
    url = pairings_url(event, round_.number)
    assert Client().get(url).status_code == 404
    assert logged_in(regs[0].player).get(url).status_code == 404
    assert logged_in(organiser).get(url).status_code == 200
    match = round_.matches.first()
    report = reverse("match_report_page", kwargs={"pk": match.pk})
    assert logged_in(match.a.player).get(report).status_code == 404
    projector = Client().get(reverse("projector", kwargs={"slug": event.slug})).content.decode()
    assert regs[0].name not in projector


def test_a_second_pairings_render_does_not_query_the_matches(
    django_assert_max_num_queries: Any,
) -> None:
    event, organiser, _ = running_event(40)
    round_ = pair(event, organiser)
    url = pairings_url(event, round_.number)
    assert Client().get(url).status_code == 200
    with (
        django_assert_max_num_queries(6),
        CaptureQueriesContext(connection) as queries,
    ):
        response = Client().get(url)
    assert response.status_code == 200
    assert not [q for q in queries.captured_queries if "matches_match" in q["sql"]]
    assert "Table" in response.content.decode()


def test_a_new_round_version_renders_the_pairings_again() -> None:
    event, organiser, regs = running_event(4)
    round_ = pair(event, organiser)
    url = pairings_url(event, round_.number)
    Client().get(url)
    player = regs[0].player
    player.display_name = "Renamed Player"
    player.save()
    assert "Renamed Player" not in Client().get(url).content.decode()  # cached body
    Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)
    assert "Renamed Player" in Client().get(url).content.decode()


# --- my match and the report form ------------------------------------------------------------


def test_report_then_confirm_on_the_opponents_page_makes_the_match_final() -> None:
    event, organiser, _ = running_event(2)
    round_ = pair(event, organiser)
    match = round_.matches.select_related("a__player", "b__player").get()
    my_match = reverse("my_match", kwargs={"slug": event.slug})
    b_client, a_client = logged_in(player_of(match, "b")), logged_in(player_of(match, "a"))

    page = b_client.get(my_match)
    assert page.status_code == 200
    html = page.content.decode()
    assert match.a.name in html and 'name="outcome" value="win"' in html
    assert 'role="timer"' in html and "data-timer-url=" in html

    # b says "I won 1, my opponent 0": stored a-first as 0-1
    report_url = reverse("match_report_page", kwargs={"pk": match.pk})
    sent = b_client.post(report_url, {"won": "1", "lost": "0", "drawn": "0", "next": my_match})
    assert sent.status_code == 302 and sent["Location"] == my_match
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED
    report = match.reports.get()
    assert (report.games_a, report.games_b) == (0, 1)

    opponent_page = a_client.get(my_match).content.decode()
    assert "Your opponent reported" in opponent_page
    assert f"{match.b.name} won." in opponent_page  # best of 1: who won, in words
    assert "Report differently" in opponent_page
    confirm_url = reverse("match_confirm_page", kwargs={"pk": match.pk})
    confirmed = a_client.post(confirm_url, {"next": my_match})
    assert confirmed.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (0, 1, 0)
    final_page = b_client.get(my_match).content.decode()
    assert "You won" in final_page and "1\u20130" in final_page


def test_a_bad_report_is_a_message_and_changes_nothing() -> None:
    event, organiser, _ = running_event(2)
    match = pair(event, organiser).matches.select_related("a__player").get()
    client = logged_in(match.a.player)
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    response = client.post(url, {"won": "5", "lost": "0", "drawn": "0"}, follow=True)
    # The form again (400) with what was typed and the problem next to the games.
    assert response.status_code == 400
    html = response.content.decode()
    assert 'role="alert"' in html and 'id="err_games"' in html
    assert 'name="won" min="0" max="1" value="5"' in html
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING and not match.reports.exists()


def test_different_reports_say_a_judge_will_come() -> None:
    event, organiser, _ = running_event(2)
    match = pair(event, organiser).matches.select_related("a__player", "b__player").get()
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    logged_in(match.a.player).post(url, {"won": "1", "lost": "0"})
    logged_in(match.b.player).post(url, {"won": "1", "lost": "0"})
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED
    page = logged_in(match.a.player).get(url).content.decode()
    assert "A judge will come to your table" in page


def test_trophies_are_stored_from_the_match_side() -> None:
    event, organiser, _ = running_event(2)
    match = pair(event, organiser).matches.select_related("b__player").get()
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    logged_in(match.b.player).post(
        url, {"won": "1", "lost": "0", "g1_trophies_me": "4", "g1_trophies_opp": "2"}
    )
    report = match.reports.get()
    assert report.game_details == [{"trophies": [2, 4]}]


def test_the_report_page_is_for_the_two_players_only() -> None:
    event, organiser, _ = running_event(4)
    matches = list(pair(event, organiser).matches.select_related("a__player"))
    url = reverse("match_report_page", kwargs={"pk": matches[0].pk})
    assert logged_in(matches[0].a.player).get(url).status_code == 200
    assert logged_in(matches[1].a.player).get(url).status_code == 403
    assert logged_in(UserFactory()).get(url).status_code == 403
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    refused = logged_in(matches[1].a.player).post(url, {"won": "1", "lost": "0"})
    assert refused.status_code == 403
    assert not Match.objects.get(pk=matches[0].pk).reports.exists()


def test_a_bye_and_no_match_get_helpful_messages() -> None:
    event, organiser, regs = running_event(3)
    round_ = pair(event, organiser)
    bye = round_.matches.select_related("a__player").get(b__isnull=True)
    url = reverse("my_match", kwargs={"slug": event.slug})
    assert "You have a bye this round" in logged_in(bye.a.player).get(url).content.decode()
    stranger = logged_in(UserFactory()).get(url)
    assert stranger.status_code == 200
    assert "You are not registered for this event" in stranger.content.decode()
    other, _organiser, other_regs = running_event(2)
    waiting = logged_in(other_regs[0].player).get(reverse("my_match", kwargs={"slug": other.slug}))
    assert "No round has been published yet" in waiting.content.decode()


def test_the_timer_shows_the_end_time_without_javascript() -> None:
    event, organiser, _ = running_event(2, time_zone="Europe/Paris")
    round_ = pair(event, organiser)
    html = Client().get(pairings_url(event, round_.number)).content.decode()
    assert 'data-state="running"' in html and "Round ends at" in html
    ends = re.search(r'data-ends-at="([^"]+)"', html)
    assert ends is not None and ends.group(1).endswith("+00:00")
    assert "js/round-timer.js" in html


# --- standings --------------------------------------------------------------------------------


def standings_url(event: Any) -> str:
    return reverse("standings", kwargs={"slug": event.slug})


def test_standings_mark_dropped_players_and_explain_a_line() -> None:
    event, organiser, regs = running_event(4)
    round_ = pair(event, organiser)
    dropped = round_.matches.select_related("b__player").first().b
    Registration.objects.filter(pk=dropped.pk).update(dropped_at=timezone.now())
    finish(round_, organiser)
    response = Client().get(standings_url(event))
    assert response.status_code == 200
    html = response.content.decode()
    row = html[html.index(f'id="player-{dropped.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "standing-dropped" in html[html.index(f'id="player-{dropped.pk}"') - 40 :][:80]
    assert "Dropped" in row
    assert all(reg.name in html for reg in regs)
    assert "OMW" in html and "%" in html

    detail = Client().get(
        reverse("standings_player", kwargs={"slug": event.slug, "registration_id": dropped.pk})
    )
    assert detail.status_code == 200
    text = detail.content.decode()
    assert "Opponents&#x27; match-win % (OMW)" in text or "Opponents' match-win % (OMW)" in text
    assert "Game-win % (GW)" in text


def test_standings_search_filters_by_name() -> None:
    event, organiser, regs = running_event(4)
    finish(pair(event, organiser), organiser)
    target = regs[2].name
    html = Client().get(standings_url(event), {"q": target}).content.decode()
    assert target in html
    assert sum(reg.name in html for reg in regs) == 1
    assert Client().get(standings_url(event), {"round": 7}).status_code == 404


def test_standings_are_hidden_from_players_before_the_final_round_when_the_option_is_on() -> None:
    event, organiser, regs = running_event(4, planned_rounds=2, hide_standings_before_final=True)
    finish(pair(event, organiser), organiser)
    player_view = logged_in(regs[0].player).get(standings_url(event)).content.decode()
    assert "Standings are hidden until the final round is over" in player_view
    assert regs[1].name not in player_view
    staff_view = logged_in(organiser).get(standings_url(event)).content.decode()
    assert "Standings are hidden" not in staff_view and regs[1].name in staff_view
    detail = reverse("standings_player", kwargs={"slug": event.slug, "registration_id": regs[1].pk})
    assert regs[1].name not in Client().get(detail).content.decode()
    cut = Client().get(reverse("cut_calculator", kwargs={"slug": event.slug})).content.decode()
    assert "Standings are hidden" in cut and regs[1].name not in cut


def test_standings_without_a_finished_round_say_so() -> None:
    event, organiser, _ = running_event(2)
    pair(event, organiser)
    response = Client().get(standings_url(event))
    assert response.status_code == 200
    assert "There are no standings yet" in response.content.decode()
    cut = Client().get(reverse("cut_calculator", kwargs={"slug": event.slug}))
    assert cut.status_code == 200 and "needs standings" in cut.content.decode()
    bracket = Client().get(reverse("bracket", kwargs={"slug": event.slug}))
    assert bracket.status_code == 200 and "has not started yet" in bracket.content.decode()
    assert "<svg" not in bracket.content.decode()


def test_the_cut_calculator_puts_my_row_first() -> None:
    event, organiser, regs = running_event(8, planned_rounds=3, top_cut_size=2)
    finish(pair(event, organiser), organiser)
    standings_page = Client().get(standings_url(event)).content.decode()
    assert reverse("cut_calculator", kwargs={"slug": event.slug}) in standings_page
    me = regs[0]
    response = logged_in(me.player).get(reverse("cut_calculator", kwargs={"slug": event.slug}))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="cut-mine"' in html
    mine = html[html.index('class="cut-mine"') : html.index("cut-table")]
    assert "Win:" in mine and "points" in mine


# --- bracket and projector ---------------------------------------------------------------------


def test_the_bracket_svg_names_every_qualified_player_and_the_champion(
    running_top_cut: RunningTopCut,
) -> None:
    event, organiser, cut = running_top_cut.event, running_top_cut.organiser, running_top_cut.cut
    qualified = list(cut.matches.select_related("a__player", "b__player"))
    names = [m.a.name for m in qualified] + [m.b.name for m in qualified if m.b]
    assert len(names) == 4
    url = reverse("bracket", kwargs={"slug": event.slug})
    html = Client().get(url).content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    for name in names:
        assert name in svg, name
    assert "Strict" in html
    for note in cut.pairing_stats.get("notes", []):
        assert note[:20] in html

    finish(cut, organiser)
    final = services.round_pair(actor=organiser, tournament=event)
    final = services.round_publish(actor=organiser, round_=final)
    finish(final, organiser)
    champion = final.matches.select_related("a__player").get().a.name
    html = Client().get(url).content.decode()
    assert f"Champion: <strong>{champion}</strong>" in html
    assert 'font-weight="700">' + champion in html


def test_the_projector_has_a_qr_code_and_the_pairings_without_chrome() -> None:
    event, organiser, regs = running_event(4)
    pair(event, organiser)
    response = Client().get(reverse("projector", kwargs={"slug": event.slug}))
    assert response.status_code == 200
    html = response.content.decode()
    qr = html[html.index('class="projector-qr"') :]
    assert qr.index("<svg") < qr.index("</figure>")
    assert "site-header" not in html
    assert all(reg.name in html for reg in regs)
    assert "player-timer-big" in html


def test_the_projector_updates_in_place_by_polling_never_by_a_timed_refresh() -> None:
    """axe-core's meta-refresh (WCAG 2.2.1): no timed refresh; a Refresh link without JS."""
    event, organiser, _ = running_event(4)
    pair(event, organiser)
    html = Client().get(reverse("projector", kwargs={"slug": event.slug})).content.decode()
    assert 'http-equiv="refresh"' not in html.lower()
    live_url = reverse("projector_live", kwargs={"slug": event.slug})
    assert f'data-live-url="{live_url}"' in html and "js/projector.js" in html
    assert f'<a href="{reverse("projector", kwargs={"slug": event.slug})}">Refresh</a>' in html
    assert 'role="status" aria-live="polite"' in html


def test_the_projector_poll_is_204_until_the_pairings_change(
    django_assert_max_num_queries: Any,
) -> None:
    event, organiser, regs = running_event(4)
    first = pair(event, organiser)
    live_url = reverse("projector_live", kwargs={"slug": event.slug})
    response = Client().get(live_url)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="projector-now"' in html and 'id="projector-pairings"' in html
    assert "<html" not in html and all(reg.name in html for reg in regs)
    stamp = re.search(r'data-stamp="([^"]+)"', html).group(1)  # type: ignore[union-attr]
    with django_assert_max_num_queries(2):
        unchanged = Client().get(live_url, {"since": stamp})
    assert unchanged.status_code == 204 and unchanged.content == b""

    finish(first, organiser)
    assert Client().get(live_url, {"since": stamp}).status_code == 200  # the round is over
    pair(event, organiser)
    fresh = Client().get(live_url, {"since": stamp}).content.decode()
    assert "Round 2" in fresh and f'data-stamp="{stamp}"' not in fresh


# --- the event page ----------------------------------------------------------------------------


def test_the_event_page_lists_rounds_and_the_schedule(django_assert_max_num_queries: Any) -> None:
    event, organiser, regs = running_event(4, planned_rounds=3, round_minutes=40)
    finish(pair(event, organiser), organiser)
    pair(event, organiser)
    url = event.get_absolute_url()
    client = logged_in(regs[0].player)
    client.get(url)
    with django_assert_max_num_queries(12):  # the rounds section adds 3, whatever the rounds
        response = client.get(url)
    html = response.content.decode()
    assert 'id="rounds-heading"' in html
    assert pairings_url(event, 1) in html and pairings_url(event, 2) in html
    assert reverse("my_match", kwargs={"slug": event.slug}) in html
    assert f"{standings_url(event)}?round=1" in html
    # round 3 is not paired: its start is estimated as start + 2 x (40 + 10) minutes
    estimate = event.starts_at + timedelta(minutes=100)
    assert estimate.strftime("%H:%M") in html
    assert 'role="timer"' in html


# --- accessibility ----------------------------------------------------------------------------


def test_the_round_pages_pass_the_accessibility_audit() -> None:
    from tests.support import audit

    event, organiser, regs = running_event(8, planned_rounds=3, top_cut_size=4)
    finish(pair(event, organiser), organiser)
    round_ = pair(event, organiser)
    match = round_.matches.select_related("a__player").filter(b__isnull=False).first()
    client = logged_in(match.a.player)
    slug = event.slug
    urls = [
        pairings_url(event, 1),
        pairings_url(event, 2),
        reverse("my_match", kwargs={"slug": slug}),
        reverse("match_report_page", kwargs={"pk": match.pk}),
        standings_url(event),
        reverse("standings_player", kwargs={"slug": slug, "registration_id": regs[0].pk}),
        reverse("cut_calculator", kwargs={"slug": slug}),
        reverse("bracket", kwargs={"slug": slug}),
        reverse("projector", kwargs={"slug": slug}),
        event.get_absolute_url(),
    ]
    problems = [p for url in urls for p in audit(client, url)]
    assert problems == []


@pytest.mark.parametrize(
    ("fg", "bg"),
    [
        ("#ffffff", "#0d1b2e"),
        ("#ffd27a", "#0d1b2e"),
        ("#c9d6ea", "#0d1b2e"),
        ("#ffffff", "#13294a"),
        ("#ffffff", "#5c0d0d"),
        ("#ffffff", "#4a3000"),
        ("#8a4b00", "#ffffff"),  # "might make the cut" (--warn) on the page
    ],
)
def test_the_projector_colours_are_readable(fg: str, bg: str) -> None:
    from tests.support import CSS, contrast

    block = CSS[CSS.index("/* rounds: player pages") :]
    assert fg in block or fg in ("#ffffff", "#8a4b00")
    assert contrast(fg, bg) >= 4.5


def test_a_stray_tap_on_send_does_not_report_a_draw() -> None:
    from matches import services
    from matches.models import MatchStatus
    from tests.factories import logged_in
    from tests.scenarios import running_event

    event, organiser, _ = running_event(2)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.select_related("a__player").get()
    response = logged_in(match.a.player).post(
        f"/matches/{match.pk}/report/", {"won": "", "lost": "", "drawn": "0"}, follow=True
    )
    assert "Enter the games each of you won" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING


def test_too_many_trophies_are_refused_next_to_the_game_input_they_name() -> None:
    event, organiser, _ = running_event(2)
    match = pair(event, organiser).matches.select_related("a__player").get()
    url = reverse("match_report_page", kwargs={"pk": match.pk})
    response = logged_in(match.a.player).post(
        url, {"won": "1", "lost": "0", "g1_trophies_me": "5", "g1_trophies_opp": "3"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Game 1, Trophies: 8 trophies in one game: a game has only 7 battles" in html
    assert 'href="#id_g1_trophies_me"' in html
    assert not match.reports.exists()
