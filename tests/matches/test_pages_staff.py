"""The staff pages for running rounds: round control, a match's staff page, the scorekeeper and
the match slips, as organisers, judges and players use them."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches import services
from matches.models import Match, MatchStatus, ResultVersion, Round, RoundStatus
from matches.staff_views import parse_result
from tests.factories import RegistrationFactory, UserFactory, logged_in
from tests.scenarios import own_copy, running_event
from tests.support import audit

pytestmark = pytest.mark.django_db


def _paired(players: int = 8, **fields: Any) -> tuple[Any, Any, list[Any], Round, Client]:
    fields.setdefault("match_structure", "bo3")
    event, organiser, regs = running_event(players, **fields)
    client = logged_in(organiser)
    response = client.post(f"/events/{event.slug}/manage/rounds/pair/")
    assert response.status_code == 302
    round_ = Round.objects.get(tournament=event)
    assert round_.status == RoundStatus.PAIRED
    return event, organiser, regs, round_, client


def _published(players: int = 8, **fields: Any) -> tuple[Any, Any, list[Any], Round, Client]:
    event, organiser, regs, round_, client = _paired(players, **fields)
    response = client.post(f"/events/{event.slug}/manage/rounds/1/publish/")
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PUBLISHED
    return event, organiser, regs, round_, client


Staffed = tuple[Any, Any, list[Any], Round, Client]


def _own(world: Staffed) -> Staffed:
    """The test's own copy of a world built once for the module, and a client with the
    organiser's cookies as the build left them (their session, their messages)."""
    event, organiser, regs, round_, client = world
    own = Client()
    own.cookies = copy.deepcopy(client.cookies)
    return (*own_copy((event, organiser, regs, round_)), own)


@pytest.fixture(scope="module")
def paired_eight_once(module_db: None) -> Staffed:
    return _paired(8)


@pytest.fixture
def paired_eight(paired_eight_once: Staffed, db: None) -> Staffed:
    """`_paired(8)`, built once for the module (tests/scenarios.py: sharing a world)."""
    return _own(paired_eight_once)


@pytest.fixture(scope="module")
def published_eight_once(module_db: None) -> Staffed:
    return _published(8)


@pytest.fixture
def published_eight(published_eight_once: Staffed, db: None) -> Staffed:
    """`_published(8)`, built once for the module (tests/scenarios.py: sharing a world)."""
    return _own(published_eight_once)


def _messages(response: Any) -> str:
    return " ".join(str(m) for m in response.context["messages"])


# --- round control -----------------------------------------------------------------------------


def test_an_organiser_pairs_and_reviews_with_the_checks_and_reasons(paired_eight: Staffed) -> None:
    event, _organiser, _regs, round_, client = paired_eight
    page = client.get(f"/events/{event.slug}/manage/rounds/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Review before publishing" in html
    for name in ("Nobody twice", "Nobody dropped", "Byes honoured", "No rematches"):
        assert name in html
    match = round_.matches.exclude(reason="").first()
    assert match is not None and match.reason in html
    assert html.count('id="table-') == 4
    assert "Publish round 1" in html


def test_pairing_a_round_shows_a_progress_bar_that_refreshes_itself() -> None:
    event, organiser, _ = running_event(4)
    round_ = Round.objects.create(tournament=event, number=1, stage="swiss", status="pairing")
    cache.set(services.pairing_progress_key(round_.pk), 40)
    html = logged_in(organiser).get(f"/events/{event.slug}/manage/rounds/1/").content.decode()
    assert '<progress id="pairing-progress" max="100" value="40">' in html
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in html
    assert "Review before publishing" not in html


def test_publishing_makes_the_round_visible_and_shows_the_sweep(published_eight: Staffed) -> None:
    event, _organiser, _regs, round_, client = published_eight
    html = client.get(f"/events/{event.slug}/manage/rounds/1/").content.decode()
    assert "0 of 4 matches final" in html
    assert "Matches without a final result, by table" in html
    first = round_.matches.order_by("table").first()
    assert f'href="/matches/{first.pk}/staff/?next=' in html
    assert (
        'role="timer"' in html
        and f'data-timer-url="/api/events/{event.slug}/rounds/1/timer/"' in html
    )


def test_the_sweep_filters_by_state_and_searches_by_table_and_name(
    published_eight: Staffed,
) -> None:
    event, organiser, _regs, round_, client = published_eight
    m1, m2 = round_.matches.order_by("table")[:2]
    services.match_report(actor=organiser, match=m1, games=[2, 0, 0])
    url = f"/events/{event.slug}/manage/rounds/1/"
    unfinished = client.get(url).content.decode()
    assert 'id="table-1"' not in unfinished and 'id="table-2"' in unfinished
    final = client.get(url, {"state": "final"}).content.decode()
    assert 'id="table-1"' in final and 'id="table-2"' not in final
    by_table = client.get(url, {"state": "all", "q": "2"}).content.decode()
    assert re.findall(r'id="table-(\d+)"', by_table) == ["2"]
    by_name = client.get(url, {"state": "all", "q": m2.b.player.username}).content.decode()
    assert re.findall(r'id="table-(\d+)"', by_name) == ["2"]


def test_an_organiser_swaps_two_players_by_typed_seat(paired_eight: Staffed) -> None:
    event, _organiser, _regs, round_, client = paired_eight
    t1, t2 = round_.matches.order_by("table")[:2]
    a1, b2 = t1.a_id, t2.b_id
    response = client.post(
        f"/events/{event.slug}/manage/rounds/1/swap/", {"first": "1a", "second": "2b"}
    )
    assert response.status_code == 302 and response.url.endswith("#swap")
    assert round_.matches.get(table=1).a_id == b2
    assert round_.matches.get(table=2).b_id == a1


def test_a_swap_names_what_it_could_not_find(paired_eight: Staffed) -> None:
    event, _organiser, _regs, round_, client = paired_eight
    before = list(round_.matches.values_list("a_id", "b_id"))
    response = client.post(
        f"/events/{event.slug}/manage/rounds/1/swap/",
        {"first": "1a", "second": "99b"},
        follow=True,
    )
    assert "99b" in _messages(response)
    assert list(round_.matches.values_list("a_id", "b_id")) == before


def test_an_organiser_moves_a_match_to_another_table(paired_eight: Staffed) -> None:
    event, _organiser, _regs, round_, client = paired_eight
    at_1 = round_.matches.get(table=1).pk
    at_3 = round_.matches.get(table=3).pk
    response = client.post(
        f"/events/{event.slug}/manage/rounds/1/table/", {"from_table": "1", "table": "3"}
    )
    assert response.status_code == 302 and response.url.endswith("#table-3")
    assert Match.objects.get(pk=at_1).table == 3
    assert Match.objects.get(pk=at_3).table == 1


def test_deleting_a_round_needs_the_second_explicit_confirmation(paired_eight: Staffed) -> None:
    event, _organiser, _regs, _round, client = paired_eight
    url = f"/events/{event.slug}/manage/rounds/1/delete/"
    page = client.get(url).content.decode()
    assert "Delete round 1 and its 4 pairings?" in page
    refused = client.post(url, {}, follow=True)
    assert "Tick the box" in _messages(refused)
    assert Round.objects.filter(tournament=event).exists()
    deleted = client.post(url, {"confirm": "yes"})
    assert deleted.status_code == 302
    assert not Round.objects.filter(tournament=event).exists()


def test_a_published_round_cannot_be_deleted_from_the_page() -> None:
    event, _organiser, _regs, _round, client = _published(4)
    response = client.post(f"/events/{event.slug}/manage/rounds/1/delete/", {"confirm": "yes"})
    assert response.status_code == 302
    assert Round.objects.filter(tournament=event).exists()


def test_a_judge_runs_the_timer_but_cannot_publish() -> None:
    event, _organiser, _regs, round_, _client = _paired(4)
    judge = UserFactory()
    event.judges.add(judge)
    client = logged_in(judge)
    url = f"/events/{event.slug}/manage/rounds/1/timer/"
    started = client.post(url, {"action": "start"})
    assert started.status_code == 302 and started.url.endswith("#timer")
    round_.refresh_from_db()
    assert round_.timer["activations"]
    added = client.post(url, {"action": "add", "minutes": "5"}, follow=True)
    assert "+5 minutes" in _messages(added)
    assert client.post(f"/events/{event.slug}/manage/rounds/1/publish/").status_code == 403
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PAIRED


def test_the_top_cut_starts_from_round_control_when_the_swiss_rounds_are_done() -> None:
    event, organiser, _regs, round_, client = _published(8, planned_rounds=1, top_cut_size=4)
    for match in round_.matches.filter(b__isnull=False):
        services.match_report(actor=organiser, match=match, games=[2, 0, 0])
    html = client.get(f"/events/{event.slug}/manage/rounds/").content.decode()
    assert "Start the top cut (top 4)" in html and "Pair the next round" not in html
    client.post(f"/events/{event.slug}/manage/rounds/top-cut/")
    assert Round.objects.get(tournament=event, number=2).is_top_cut


def test_round_control_says_why_no_next_round_is_offered_mid_round(
    published_eight: Staffed,
) -> None:
    """Finding 6: offer only what can be done now, and say why something cannot, in words."""
    event, organiser, _regs, round_, client = published_eight
    html = client.get(f"/events/{event.slug}/manage/rounds/").content.decode()
    assert "Pair the next round" not in html
    assert "Finish round 1 first: 4 matches are not final." in html
    first = round_.matches.filter(b__isnull=False).first()
    services.match_report(actor=organiser, match=first, games=[1, 0, 0])
    html = client.get(f"/events/{event.slug}/manage/rounds/").content.decode()
    assert "Finish round 1 first: 3 matches are not final." in html
    for match in round_.matches.exclude(status=MatchStatus.FINAL):
        services.match_report(actor=organiser, match=match, games=[1, 0, 0])
    html = client.get(f"/events/{event.slug}/manage/rounds/").content.decode()
    assert "Pair the next round" in html and "not final" not in html


def test_round_control_says_an_unpublished_round_comes_first(paired_eight: Staffed) -> None:
    event, _organiser, _regs, _round, client = paired_eight
    html = client.get(f"/events/{event.slug}/manage/rounds/").content.decode()
    assert "Round 1 is not published yet" in html and "Pair the next round" not in html


# --- permissions -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/events/{slug}/manage/rounds/"),
        ("get", "/events/{slug}/manage/rounds/1/"),
        ("get", "/events/{slug}/manage/rounds/1/scorekeeper/"),
        ("post", "/events/{slug}/manage/rounds/1/scorekeeper/"),
        ("get", "/events/{slug}/manage/rounds/1/slips/"),
        ("get", "/events/{slug}/manage/rounds/1/delete/"),
        ("post", "/events/{slug}/manage/rounds/1/delete/"),
        ("post", "/events/{slug}/manage/rounds/pair/"),
        ("post", "/events/{slug}/manage/rounds/top-cut/"),
        ("post", "/events/{slug}/manage/rounds/1/publish/"),
        ("post", "/events/{slug}/manage/rounds/1/swap/"),
        ("post", "/events/{slug}/manage/rounds/1/table/"),
        ("post", "/events/{slug}/manage/rounds/1/repair/"),
        ("post", "/events/{slug}/manage/rounds/1/timer/"),
        ("get", "/matches/{match}/staff/"),
        ("post", "/matches/{match}/staff/"),
        ("post", "/matches/{match}/staff/extension/"),
    ],
)
def test_players_get_403_on_every_staff_page(method: str, path: str) -> None:
    event, _organiser, regs, round_, _client = _published(4)
    match = round_.matches.order_by("table").first()
    player = logged_in(regs[0].player)
    url = path.format(slug=event.slug, match=match.pk)
    data = {"table": "1", "result": "2-0", "games_a": "2", "games_b": "0", "confirm": "yes"}
    data |= {"first": "1a", "second": "2a", "action": "start", "minutes": "5"}
    response = getattr(player, method)(url, data)
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING and match.extension_minutes == 0
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.PUBLISHED


def test_staff_pages_of_a_draft_event_are_404_to_others() -> None:
    event, _organiser, regs = running_event(2, status="draft")
    stranger = logged_in(UserFactory())
    assert stranger.get(f"/events/{event.slug}/manage/rounds/").status_code == 404


def test_anonymous_visitors_are_sent_to_log_in() -> None:
    event, *_ = running_event(2)
    response = Client().get(f"/events/{event.slug}/manage/rounds/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


# --- scorekeeper -------------------------------------------------------------------------------


def test_parse_result_short_forms() -> None:
    assert parse_result("2-0") == (2, 0, 0)
    assert parse_result(" 2-1 ") == (2, 1, 0)
    assert parse_result("1-1-1") == (1, 1, 1)
    assert parse_result("0 2") == (0, 2, 0)
    assert parse_result("1-0") == (1, 0, 0)
    assert parse_result("2\u20131") == (2, 1, 0)
    assert parse_result("2") is None
    assert parse_result("a-b") is None


def test_the_scorekeeper_enters_a_result_and_lists_it_with_an_undo_link(
    published_eight: Staffed,
) -> None:
    event, _organiser, _regs, round_, client = published_eight
    url = f"/events/{event.slug}/manage/rounds/1/scorekeeper/"
    page = client.get(url).content.decode()
    assert re.search(r'<input[^>]*id="sk-table"[^>]*autofocus', page)
    response = client.post(url, {"table": "3", "result": "2-0"})
    assert response.status_code == 302 and response.url == url
    match = round_.matches.get(table=3)
    assert match.status == MatchStatus.FINAL and match.games == (2, 0, 0)
    listed = client.get(url)
    html = listed.content.decode()
    assert "Table 3: 2-0 entered" in _messages(listed)
    assert f'href="/matches/{match.pk}/staff/#result"' in html
    assert match.a.name in html and match.b.name in html


def _refusal(response: Any) -> str:
    """The reason shown beside the kept slip when the scorekeeper refuses it (no JavaScript)."""
    found = re.search(
        r'<div class="sk-refusal[^"]*" id="sk-refusal" role="alert">(.*?)</div>',
        response.content.decode(),
        re.S,
    )
    assert found, "no refusal shown beside the form"
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_the_scorekeeper_refuses_an_unknown_table_naming_it(published_eight: Staffed) -> None:
    event, _organiser, _regs, round_, client = published_eight
    url = f"/events/{event.slug}/manage/rounds/1/scorekeeper/"
    response = client.post(url, {"table": "999", "result": "2-0"})
    assert response.status_code == 400
    assert "there is no table 999 in round 1" in _refusal(response)
    html = response.content.decode()
    assert re.search(r'id="sk-table"[^>]*value="999"[^>]*autofocus[^>]*aria-invalid="true"', html)
    assert re.search(r'id="sk-result"[^>]*value="2-0"', html)
    assert not round_.matches.filter(status=MatchStatus.FINAL, b__isnull=False).exists()


def test_the_scorekeeper_refuses_an_impossible_result(published_eight: Staffed) -> None:
    event, _organiser, _regs, round_, client = published_eight
    url = f"/events/{event.slug}/manage/rounds/1/scorekeeper/"
    response = client.post(url, {"table": "1", "result": "3-3"})
    assert response.status_code == 400
    assert "nobody wins more than 2 games" in _refusal(response)
    garbled = client.post(url, {"table": "1", "result": "two nil"})
    assert "write the result like 2-0" in _refusal(garbled)
    assert re.search(r'id="sk-result"[^>]*value="two nil"', garbled.content.decode())
    assert round_.matches.get(table=1).status == MatchStatus.PENDING


def test_the_scorekeeper_never_overwrites_a_different_final_result(
    published_eight: Staffed,
) -> None:
    event, organiser, _regs, round_, client = published_eight
    match = round_.matches.get(table=2)
    services.match_report(actor=organiser, match=match, games=[2, 1, 0])
    url = f"/events/{event.slug}/manage/rounds/1/scorekeeper/"
    response = client.post(url, {"table": "2", "result": "0-2"})
    assert response.status_code == 409
    assert "already has the final result 2-1" in _refusal(response)
    assert f'href="/matches/{match.pk}/staff/#result"' in response.content.decode()
    match.refresh_from_db()
    assert match.games == (2, 1, 0) and match.result_version == 1
    same = client.post(url, {"table": "2", "result": "2-1"}, follow=True)
    assert "already entered" in _messages(same)
    assert Match.objects.get(pk=match.pk).result_version == 1


# --- match staff page --------------------------------------------------------------------------


def test_the_match_page_shows_reports_and_every_version() -> None:
    event, organiser, _regs, round_, client = _published(4)
    match = round_.matches.get(table=1)
    player_a = logged_in(match.a.player)
    player_a.post(
        f"/api/matches/{match.pk}/report/", {"games": [2, 1, 0]}, content_type="application/json"
    )
    entry = {"games_a": "2", "games_b": "0", "games_drawn": "0"}
    # 2-0 over the player's pending 2-1: the page asks once more (issue 18).
    asked = client.post(f"/matches/{match.pk}/staff/", entry)
    assert asked.status_code == 409 and "still waiting for the opponent" in asked.content.decode()
    response = client.post(f"/matches/{match.pk}/staff/", {**entry, "confirm_override": "1"})
    assert response.status_code == 302 and response.url.endswith("#result")
    html = client.get(f"/matches/{match.pk}/staff/").content.decode()
    assert "Reported by a player" in html and "Entered by staff" in html
    assert f"{match.a.name}: <strong>2-1</strong>" in html
    assert organiser.public_name in html


def test_a_correction_shows_its_effect_first_and_needs_a_reason() -> None:
    event, organiser, _regs, round_, client = _published(2)
    match = round_.matches.get()
    services.match_report(actor=organiser, match=match, games=[2, 0, 0])
    url = f"/matches/{match.pk}/staff/"
    page = client.get(url).content.decode()
    assert "Preview the correction" in page

    no_reason = client.post(url, {"games_a": "0", "games_b": "2", "games_drawn": "0"}, follow=True)
    assert "say why" in _messages(no_reason)
    assert Match.objects.get(pk=match.pk).games == (2, 0, 0)

    preview = client.post(
        url,
        {"step": "preview", "games_a": "0", "games_b": "2", "games_drawn": "0", "reason": "slip"},
    )
    html = preview.content.decode()
    assert preview.status_code == 200
    assert "the effect on the standings" in html
    assert match.a.name in html and match.b.name in html and "1 → <strong>2</strong>" in html
    assert 'name="step" value="apply"' in html
    assert Match.objects.get(pk=match.pk).games == (2, 0, 0)  # nothing applied yet

    applied = client.post(
        url,
        {"step": "apply", "games_a": "0", "games_b": "2", "games_drawn": "0", "reason": "slip"},
    )
    assert applied.status_code == 302
    match.refresh_from_db()
    assert match.games == (0, 2, 0)
    version = ResultVersion.objects.filter(match=match).order_by("-number").first()
    assert version.change == "corrected" and version.reason == "slip"


def test_a_judge_gives_a_table_an_extension() -> None:
    event, _organiser, _regs, round_, _client = _published(4)
    judge = UserFactory()
    event.judges.add(judge)
    match = round_.matches.get(table=1)
    client = logged_in(judge)
    response = client.post(f"/matches/{match.pk}/staff/extension/", {"minutes": "10"})
    assert response.status_code == 302 and response.url.endswith("#extension")
    assert Match.objects.get(pk=match.pk).extension_minutes == 10
    too_long = client.post(f"/matches/{match.pk}/staff/extension/", {"minutes": "61"}, follow=True)
    assert "from 0 to 60" in _messages(too_long)
    assert Match.objects.get(pk=match.pk).extension_minutes == 10


# --- slips -------------------------------------------------------------------------------------


def test_slips_have_one_qr_code_per_table_and_no_slip_for_a_bye() -> None:
    event, _organiser, _regs, round_, client = _paired(9)
    response = client.get(f"/events/{event.slug}/manage/rounds/1/slips/")
    html = response.content.decode()
    tables = round_.matches.filter(b__isnull=False).count()
    assert tables == 4
    assert html.count("<svg") == tables
    assert html.count('class="slip"') == tables
    for match in round_.matches.filter(b__isnull=False).select_related("a__player"):
        assert match.a.player.player_id in html
    assert "Signature" in html and "Games drawn" in html


def test_slips_render_in_a_fixed_number_of_queries() -> None:
    event, _organiser, _regs, round_, client = _paired(4)
    url = f"/events/{event.slug}/manage/rounds/1/slips/"
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    services.round_delete(actor=_organiser, round_=round_, confirm=True)
    for _ in range(12):
        RegistrationFactory(tournament=event, player=UserFactory())
    client.post(f"/events/{event.slug}/manage/rounds/pair/")
    with CaptureQueriesContext(connection) as large:
        response = client.get(url)
    assert response.content.decode().count("<svg") == 8
    assert len(large.captured_queries) == len(small.captured_queries)


# --- dashboard ---------------------------------------------------------------------------------


def test_the_dashboard_links_to_round_control() -> None:
    event, organiser, _regs = running_event(2)
    html = logged_in(organiser).get(f"/events/{event.slug}/manage/").content.decode()
    assert f'href="/events/{event.slug}/manage/rounds/"' in html
    assert "Round control" in html


# --- accessibility -----------------------------------------------------------------------------


def test_every_staff_page_passes_the_accessibility_audit() -> None:
    event, organiser, _regs, round_, client = _paired(9)
    slug = event.slug
    paired = [
        f"/events/{slug}/manage/rounds/1/",
        f"/events/{slug}/manage/rounds/1/delete/",
        f"/events/{slug}/manage/rounds/1/slips/",
        f"/events/{slug}/manage/rounds/1/scorekeeper/",
    ]
    problems = [p for url in paired for p in audit(client, url)]
    client.post(f"/events/{slug}/manage/rounds/1/publish/")
    match = round_.matches.get(table=1)
    client.post(f"/events/{slug}/manage/rounds/1/scorekeeper/", {"table": "1", "result": "2-0"})
    published = [
        f"/events/{slug}/manage/rounds/",
        f"/events/{slug}/manage/rounds/1/?state=all",
        f"/events/{slug}/manage/rounds/1/scorekeeper/",
        f"/matches/{match.pk}/staff/",
    ]
    problems += [p for url in published for p in audit(client, url)]
    assert problems == []


@pytest.mark.parametrize("publish", [False, True])
def test_round_control_runs_a_fixed_number_of_queries(publish: bool) -> None:
    def count(players: int) -> int:
        event, _organiser, _regs, _round, client = (_published if publish else _paired)(players)
        url = f"/events/{event.slug}/manage/rounds/1/?state=all"
        client.get(url)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200
        return len(ctx.captured_queries)

    assert count(4) == count(20)
