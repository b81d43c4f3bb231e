"""The judge desk pages (matches/judge_views.py): the queue across the events a judge judges,
a call's page (claim, hand back, escalate, extra time, the ruling), and "call a judge" on the
player's match page. Events are built and driven through matches.services."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import judge_views, services
from matches.models import CallKind, CallStatus, JudgeCall, Match, MatchStatus, Ruling
from tests.factories import UserFactory, logged_in
from tests.scenarios import own_copy, published_round, running_event
from tests.support import without_csrf_value

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).resolve().parent.parent / "engine" / "boba" / "golden"
QUEUE = "/judge/"


def _published(players: int = 4, judge: Any = None) -> tuple[Any, Any, Any, list[Match]]:
    """A running event with a published round 1; (event, organiser, judge, matches)."""
    scene = published_round(players, judge=judge)
    return scene.event, scene.organiser, scene.judge, scene.matches


Published = tuple[Any, Any, Any, list[Match]]


@pytest.fixture(scope="module")
def published_four_once(module_db: None) -> Published:
    return _published(4)


@pytest.fixture
def published_four(published_four_once: Published, db: None) -> Published:
    """`_published(4)`, built once for the module (tests/scenarios.py: sharing a world)."""
    return own_copy(published_four_once)


@pytest.fixture(scope="module")
def published_six_once(module_db: None) -> Published:
    return _published(6)


@pytest.fixture
def published_six(published_six_once: Published, db: None) -> Published:
    """`_published(6)`, built once for the module (tests/scenarios.py: sharing a world)."""
    return own_copy(published_six_once)


def _call(match: Match, question: str = "Can he substitute twice?") -> JudgeCall:
    call, _ = services.call_open(actor=match.a.player, match=match, question=question)
    return call


def _dispute(match: Match) -> JudgeCall:
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    services.match_report(actor=match.b.player, match=match, games=[0, 1, 0])
    return JudgeCall.objects.get(match=match)


def call_url(call: JudgeCall, action: str = "") -> str:
    return reverse("judge_call", args=[call.pk]) + (f"{action}/" if action else "")


def my_match_url(event: Any) -> str:
    return reverse("my_match", kwargs={"slug": event.slug})


# --- the queue ---------------------------------------------------------------------------------


def test_the_queue_lists_calls_and_disputes_of_both_judged_events_and_not_a_third() -> None:
    first, _, judge, first_matches = _published(4)
    second, _, _, second_matches = _published(4, judge=judge)
    third, _, _, third_matches = _published(4)
    _call(first_matches[0], "Is this card legal?")
    _dispute(second_matches[0])
    _call(third_matches[0], "Third event question")
    response = logged_in(judge).get(QUEUE)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Is this card legal?" in html
    assert "Disputed result" in html and "The players reported different results." in html
    assert "Third event question" not in html
    assert first.name in html and second.name in html and third.name not in html
    assert "waiting under a minute" in html
    assert f'action="{call_url(JudgeCall.objects.get(match=first_matches[0]), "claim")}"' in html
    # The polling fragment is the list alone, marked for the script.
    partial = logged_in(judge).get(QUEUE, {"status": "open", "sort": "table", "partial": "1"})
    assert partial.status_code == 200 and partial["X-Judge-Queue"] == "1"
    body = partial.content.decode()
    assert "<html" not in body and "Is this card legal?" in body and "data-open-count" in body
    assert "judge-queue.js" in html and 'http-equiv="refresh"' in html


def test_the_queue_filters_mine_escalated_and_resolved(published_six: Published) -> None:
    event, _, judge, matches = published_six
    held = _call(matches[0], "held by me")
    services.call_claim(actor=judge, call=held)
    flagged = _call(matches[1], "flagged")
    services.call_escalate(actor=judge, call=flagged, note="rare card")
    done = _call(matches[2], "already done")
    services.call_ruling(actor=judge, call=done, text="Play on", citations=["CR 4.4.1"])
    client = logged_in(judge)

    def listed(status: str) -> str:
        return client.get(QUEUE, {"status": status, "partial": "1"}).content.decode()

    assert "held by me" in listed("mine") and "flagged" not in listed("mine")
    assert "flagged" in listed("escalated") and "held by me" not in listed("escalated")
    assert "already done" in listed("resolved") and "already done" not in listed("open")
    assert "rare card" in listed("escalated")  # the latest note shows in the row


def test_the_queue_is_paginated(monkeypatch: pytest.MonkeyPatch, published_six: Published) -> None:
    monkeypatch.setattr(judge_views, "PAGE_SIZE", 2)
    _, _, judge, matches = published_six
    for i, m in enumerate(matches):
        _call(m, f"question number {i}")
    client = logged_in(judge)
    first = client.get(QUEUE).content.decode()
    second = client.get(QUEUE, {"page": "2"}).content.decode()
    assert "question number 0" in first and "question number 2" not in first
    assert "question number 2" in second and "Page 2 of 2" in second


def test_the_queue_sorts_by_table(published_six: Published) -> None:
    _, _, judge, matches = published_six
    _call(matches[2], "table three first")
    _call(matches[0], "table one second")
    html = logged_in(judge).get(QUEUE, {"sort": "table", "partial": "1"}).content.decode()
    assert html.index("table one second") < html.index("table three first")
    html = logged_in(judge).get(QUEUE, {"sort": "waiting", "partial": "1"}).content.decode()
    assert html.index("table three first") < html.index("table one second")


def test_the_queue_query_count_does_not_grow_with_the_calls() -> None:
    _, _, judge, matches = _published(100)
    client = logged_in(judge)
    client.get(QUEUE)  # the first visit also stores the "judge desk" flag in the session

    def queries_with(n: int) -> int:
        for m in matches[:n]:
            if not JudgeCall.objects.filter(match=m).exists():
                _call(m, f"question at table {m.table}")
        with CaptureQueriesContext(connection) as captured:
            response = client.get(QUEUE)
        assert response.status_code == 200
        assert response.content.decode().count('class="queue-row') == n
        return len(captured.captured_queries)

    few = queries_with(5)
    many = queries_with(50)
    assert many == few, (few, many)
    assert few <= 10


def _queue_list_queries(client: Any) -> tuple[str, int]:
    """The queue page's body and how many of its queries read the list of calls (the
    reader holds no call, so no other query joins the matches)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(QUEUE)
    assert response.status_code == 200
    listing = [
        q
        for q in captured.captured_queries
        if 'FROM "matches_judgecall"' in q["sql"] and 'JOIN "matches_match"' in q["sql"]
    ]
    return response.content.decode(), len(listing)


def test_the_queue_is_rendered_once_and_shared_by_the_judges_with_their_own_csrf_token(
    published_six: Published,
) -> None:
    event, _, first_judge, matches = published_six
    second_judge = UserFactory()
    event.judges.add(second_judge)
    call = _call(matches[0], "shared question")
    first_html, first_reads = _queue_list_queries(logged_in(first_judge))
    second = Client(enforce_csrf_checks=True)
    second.force_login(second_judge)
    second_html, second_reads = _queue_list_queries(second)
    assert first_reads == 1 and second_reads == 0  # the second judge got the first's copy
    assert "shared question" in first_html and "shared question" in second_html
    assert judge_views.CSRF_PLACEHOLDER not in first_html + second_html
    # The copy carries each reader's own token: the second judge's claim button works.
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', second_html)
    assert token is not None
    response = second.post(call_url(call, "claim"), {"csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302
    call.refresh_from_db()
    assert call.holder == second_judge


def test_a_change_to_the_calls_shows_at_the_next_look(published_six: Published) -> None:
    _, _, judge, matches = published_six
    client = logged_in(judge)
    _call(matches[0], "the first question")
    assert "the first question" in client.get(QUEUE).content.decode()
    _call(matches[1], "the second question")  # by a player: the copy's version moves
    html, reads = _queue_list_queries(client)
    assert "the second question" in html and reads == 1
    html, reads = _queue_list_queries(client)
    assert "the second question" in html and reads == 0  # nothing changed: the copy


def test_within_the_grace_others_changes_wait_but_your_own_show_at_once(
    settings: Any, published_six: Published
) -> None:
    settings.JUDGE_QUEUE_MAX_STALE_SECONDS = 60
    event, _, judge, matches = published_six
    colleague = UserFactory()
    event.judges.add(colleague)
    client = logged_in(judge)
    first = _call(matches[0], "the first question")
    assert "the first question" in client.get(QUEUE).content.decode()
    _call(matches[1], "a new player question")
    html, reads = _queue_list_queries(client)
    assert reads == 0 and "a new player question" not in html  # a young copy is served
    services.call_claim(actor=colleague, call=first)  # a colleague's change waits too
    html, _ = _queue_list_queries(client)
    assert colleague.public_name not in html
    services.call_add_note(actor=judge, call=first, text="my own note")
    html, reads = _queue_list_queries(client)
    assert reads == 1 and "my own note" in html and "a new player question" in html


def test_the_calls_you_hold_are_listed_above_the_shared_list(published_six: Published) -> None:
    event, _, judge, matches = published_six
    colleague = UserFactory(display_name="Colleague Judge")
    event.judges.add(colleague)
    held = _call(matches[1], "mine to rule")
    services.call_claim(actor=judge, call=held)
    _call(matches[0], "nobody holds it yet")
    mine = logged_in(judge).get(QUEUE).content.decode()
    box = mine[mine.index('class="queue-mine-box"') : mine.index("</section>")]
    assert f"Go to my call at table {matches[1].table}" in box
    assert f'href="{call_url(held)}"' in box and "nobody holds it yet" not in box
    # The shared list names the holder, and marks the row for the script to highlight.
    assert f'data-holder="{judge.pk}"' in mine and f'data-me="{judge.pk}"' in mine
    theirs = logged_in(colleague).get(QUEUE).content.decode()
    assert 'class="queue-mine-box"' not in theirs and judge.public_name in theirs
    assert f'data-me="{colleague.pk}"' in theirs
    # "Mine" is read for the person and says "you".
    only_mine = logged_in(judge).get(QUEUE, {"status": "mine"}).content.decode()
    assert "mine to rule" in only_mine and "nobody holds it yet" not in only_mine
    assert "<strong>you</strong>" in only_mine and "Go to my call" in only_mine


def test_a_page_number_out_of_range_is_bounded(published_four: Published) -> None:
    _, _, judge, matches = published_four
    _call(matches[0], "only one")
    client = logged_in(judge)
    for page in ("0", "-3", "x", "99999999999999999999"):
        response = client.get(QUEUE, {"page": page})
        assert response.status_code == 200 and "only one" in response.content.decode()


def test_players_get_403_and_calls_of_other_events_are_404() -> None:
    event, _, judge, matches = _published(4)
    _, _, outsider, _ = _published(4)
    call = _call(matches[0])
    player = logged_in(matches[0].a.player)
    assert player.get(QUEUE).status_code == 403
    assert player.get(call_url(call)).status_code == 403
    assert player.post(call_url(call, "claim")).status_code == 403
    stranger = logged_in(UserFactory())
    assert stranger.get(QUEUE).status_code == 403
    assert stranger.get(call_url(call)).status_code == 404
    other = logged_in(outsider)
    assert other.get(call_url(call)).status_code == 404
    for action in ("claim", "hand-back", "escalate", "extend", "ruling"):
        assert other.post(call_url(call, action), {"text": "x", "minutes": "3"}).status_code == 404
    assert "Can he substitute" not in other.get(QUEUE).content.decode()
    call.refresh_from_db()
    assert call.status == CallStatus.OPEN and call.holder is None and not call.escalated
    assert logged_in(judge).get(call_url(call)).status_code == 200


def test_anonymous_people_are_sent_to_log_in() -> None:
    response = Client().get(QUEUE)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# --- claim, hand back, escalate, extend ------------------------------------------------------


def test_claim_hand_back_and_escalate_through_the_pages(published_four: Published) -> None:
    event, _, judge, matches = published_four
    call = _call(matches[0])
    client = logged_in(judge)
    claimed = client.post(call_url(call, "claim"), {"next": call_url(call)}, follow=True)
    assert "You hold the call at table" in claimed.content.decode()
    call.refresh_from_db()
    assert call.status == CallStatus.CLAIMED and call.holder == judge
    back = client.post(call_url(call, "hand-back"), follow=True)
    assert "back in the queue" in back.content.decode()
    call.refresh_from_db()
    assert call.status == CallStatus.OPEN and call.holder is None
    escalated = client.post(call_url(call, "escalate"), {"note": "Needs the head judge"})
    assert escalated.status_code == 302
    call.refresh_from_db()
    assert call.escalated and call.holder is None  # no head judge: just flagged
    assert "Needs the head judge" in call.notes
    page = client.get(call_url(call)).content.decode()
    assert "Escalated" in page and "Needs the head judge" in page


def test_escalating_hands_the_call_to_the_head_judge(published_four: Published) -> None:
    event, _, judge, matches = published_four
    head = UserFactory(display_name="Hannah Head")
    event.judges.add(head)
    event.head_judge = head
    event.save(update_fields=["head_judge"])
    call = _call(matches[0])
    services.call_claim(actor=judge, call=call)
    page = logged_in(judge).post(call_url(call, "escalate"), {"note": "x"}, follow=True)
    assert "Hannah Head, the head judge, now holds this call" in page.content.decode()
    call.refresh_from_db()
    assert call.escalated and call.holder == head and call.status == CallStatus.CLAIMED


def test_a_second_judges_claim_shows_who_holds_the_call(published_four: Published) -> None:
    event, _, judge, matches = published_four
    other = UserFactory(display_name="Olga Other")
    event.judges.add(other)
    call = _call(matches[0])
    first = logged_in(other)
    second = logged_in(judge)
    stale_queue = second.get(QUEUE).content.decode()  # both see the Claim button
    assert f'action="{call_url(call, "claim")}"' in stale_queue
    assert first.post(call_url(call, "claim")).status_code == 302
    response = second.post(
        call_url(call, "claim"), {"next": call_url(call), "back": QUEUE}, follow=True
    )
    html = response.content.decode()
    assert "Olga Other holds this call" in html
    assert response.redirect_chain[-1][0] == QUEUE
    call.refresh_from_db()
    assert call.holder == other
    # The second judge cannot rule on it either: the form is not offered.
    page = second.get(call_url(call)).content.decode()
    assert "Olga Other holds this call: only they can rule" in page
    refused = second.post(call_url(call, "ruling"), {"text": "mine now"})
    assert refused.status_code == 409 and "Olga Other holds this call" in refused.content.decode()


def test_extra_minutes_from_a_call_feed_the_tables_timer(published_four: Published) -> None:
    _, _, judge, matches = published_four
    call = _call(matches[0])
    client = logged_in(judge)
    response = client.post(call_url(call, "extend"), {"minutes": "4"}, follow=True)
    assert "has 4 extra minutes" in response.content.decode()
    matches[0].refresh_from_db()
    assert matches[0].extension_minutes == 4
    page = client.get(call_url(call)).content.decode()
    assert 'data-extension="240"' in page and 'role="timer"' in page
    player_page = logged_in(matches[0].a.player).get(my_match_url(matches[0].round.tournament))
    assert "4 extra minutes" in player_page.content.decode()
    bad = client.post(call_url(call, "extend"), {"minutes": "600"}, follow=True)
    assert "minutes: from 0 to" in bad.content.decode()


# --- rulings ---------------------------------------------------------------------------------


def test_a_ruling_with_a_result_changes_the_match_and_both_players_see_it(
    published_four: Published,
) -> None:
    event, _, judge, matches = published_four
    m = matches[0]
    call = _dispute(m)
    client = logged_in(judge)
    client.post(call_url(call, "claim"))
    response = client.post(
        call_url(call, "ruling"),
        {
            "text": "B won the fourth battle: the slip was wrong.",
            "citations": ["CR 4.4.1", "CR 4.3.2"],
            "other_citations": "Summary 3",
            "games_a": "0",
            "games_b": "1",
            "games_drawn": "",
            "decision": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    m.refresh_from_db()
    assert m.status == MatchStatus.FINAL and m.games == (0, 1, 0)
    call.refresh_from_db()
    assert call.status == CallStatus.RESOLVED
    ruling = Ruling.objects.get(call=call)
    assert ruling.citations == ["CR 4.4.1", "CR 4.3.2", "Summary 3"]
    assert ruling.decision == "changed" and ruling.result["games"] == [0, 1, 0]
    page = client.get(call_url(call)).content.decode()
    assert "B won the fourth battle" in page and "Victory Condition" in page
    for player in (m.a.player, m.b.player):
        mine = logged_in(player).get(my_match_url(event)).content.decode()
        assert "Judge&#x27;s ruling" in mine or "Judge's ruling" in mine
        assert "B won the fourth battle" in mine and "CR 4.4.1; CR 4.3.2; Summary 3" in mine
    loser = logged_in(m.a.player).get(my_match_url(event)).content.decode()
    assert "You lost" in loser


def test_ruling_mistakes_come_back_in_the_form_naming_the_field(published_four: Published) -> None:
    _, _, judge, matches = published_four
    call = _call(matches[0])
    client = logged_in(judge)
    url = call_url(call, "ruling")
    bad_citation = client.post(url, {"text": "Play on", "other_citations": "see the rules"})
    html = bad_citation.content.decode()
    assert bad_citation.status_code == 400 and "citations[0]" in html
    assert "Play on" in html  # the text typed is kept
    no_text = client.post(url, {"text": "  ", "citations": ["CR 4.4.1"]})
    assert no_text.status_code == 400 and "text: say what you ruled" in no_text.content.decode()
    assert 'value="CR 4.4.1" id="cite-' in no_text.content.decode()
    assert 'checked> <label for="cite-' in no_text.content.decode()
    not_json = client.post(url, {"text": "x", "record": "{nope"})
    assert not_json.status_code == 400 and "record: not valid JSON" in not_json.content.decode()
    malformed = json.loads((GOLDEN / "malformed_short_lineup.json").read_text())
    short = client.post(url, {"text": "x", "record": json.dumps(malformed)})
    assert short.status_code == 400 and "record." in short.content.decode()
    bad_games = client.post(url, {"text": "x", "games_a": "two", "games_b": "0"})
    assert bad_games.status_code == 400 and "result:" in bad_games.content.decode()
    call.refresh_from_db()
    assert call.status == CallStatus.OPEN and not Ruling.objects.exists()


def test_a_ruling_with_an_uploaded_record_shows_the_engines_replay(
    published_four: Published,
) -> None:
    _, _, judge, matches = published_four
    call = _call(matches[0])
    client = logged_in(judge)
    record = (GOLDEN / "playmaker_illegal_second_substitution.json").read_bytes()
    upload = SimpleUploadedFile("game.json", record, content_type="application/json")
    response = client.post(
        call_url(call, "ruling"),
        {
            "text": "The second substitution was illegal.",
            "citations": ["CR 4.3.2"],
            "record_file": upload,
            "decision": "replayed",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    ruling = Ruling.objects.get(call=call)
    assert ruling.decision == "replayed" and ruling.replay["legal"] is False
    page = client.get(call_url(call)).content.decode()
    assert "The engine replays the record: illegal." in page
    assert "CR 4.3.2" in page and "substitute only once per battle" in page
    legal = json.loads((GOLDEN / "playmaker_full_game_all_seven.json").read_text())
    second = _call(matches[1])
    client.post(call_url(second, "ruling"), {"text": "Checked", "record": json.dumps(legal)})
    page = client.get(call_url(second)).content.decode()
    assert "The engine replays the record: legal." in page and "Winner: Alice (A)" in page


def test_the_call_page_links_the_adjudication_page(published_four: Published) -> None:
    _, _, judge, matches = published_four
    call = _call(matches[0])
    html = logged_in(judge).get(call_url(call)).content.decode()
    assert f'href="/judge/calls/{call.pk}/adjudicate/"' in html
    assert "CR 4.2.2" in html and "Turn and Battle Structure (Substitution)" in html


# --- the player's side -------------------------------------------------------------------------


def test_a_player_calls_a_judge_from_my_match_and_sees_who_holds_it(
    published_four: Published,
) -> None:
    event, _, judge, matches = published_four
    judge.display_name = "Alex Judge"
    judge.save()
    m = matches[0]
    player = logged_in(m.a.player)
    page = player.get(my_match_url(event)).content.decode()
    assert f'action="{reverse("match_call", args=[m.pk])}"' in page and "Call a judge" in page
    response = player.post(
        reverse("match_call", args=[m.pk]),
        {"question": "May he look at my discard?", "next": my_match_url(event)},
        follow=True,
    )
    html = response.content.decode()
    assert "A judge has been called" in html
    # With the call open the button adds to it rather than inviting a second call.
    assert "Add to my call" in html and "Call a judge</button>" not in html
    call = JudgeCall.objects.get(match=m)
    assert call.kind == CallKind.CALL and call.question == "May he look at my discard?"
    assert "May he look at my discard?" in logged_in(judge).get(QUEUE).content.decode()
    services.call_claim(actor=judge, call=call)
    opponent = logged_in(m.b.player).get(my_match_url(event)).content.decode()
    assert "A judge is on the way: Alex Judge holds your call." in opponent
    again = player.post(reverse("match_call", args=[m.pk]), {"question": "Also this"}, follow=True)
    assert "added to your open call" in again.content.decode()
    assert JudgeCall.objects.filter(match=m).count() == 1


def test_someone_else_cannot_call_on_a_match(published_four: Published) -> None:
    _, _, _, matches = published_four
    stranger = logged_in(matches[1].a.player)
    response = stranger.post(reverse("match_call", args=[matches[0].pk]), {"question": "x"})
    assert response.status_code == 403
    assert not JudgeCall.objects.exists()


# --- navigation and accessibility --------------------------------------------------------------


def test_the_judge_desk_link_shows_for_judges_after_their_first_visit(
    published_four: Published,
) -> None:
    event, organiser, judge, matches = published_four
    client = logged_in(judge)
    staff_page = client.get(reverse("round_control", args=[event.slug])).content.decode()
    assert f'href="/judge/?event={event.slug}"' in staff_page
    client.get(QUEUE)
    assert 'href="/judge/">Judge desk' in client.get(my_match_url(event)).content.decode()
    player_page = logged_in(matches[0].a.player).get(my_match_url(event)).content.decode()
    assert "Judge desk" not in player_page


def test_the_judge_pages_pass_the_accessibility_audit(published_six: Published) -> None:
    from tests.support import audit

    event, _, judge, matches = published_six
    second, _, _, second_matches = _published(4, judge=judge)
    open_call = _call(matches[0])
    _dispute(second_matches[0])
    held = _call(matches[1])
    services.call_claim(actor=judge, call=held)
    done = _call(matches[2])
    record = json.loads((GOLDEN / "playmaker_illegal_second_substitution.json").read_text())
    services.call_ruling(
        actor=judge, call=done, text="Illegal", citations=["CR 4.3.2"], record=record
    )
    client = logged_in(judge)
    urls = [
        QUEUE,
        f"{QUEUE}?status=resolved&sort=table",
        f"{QUEUE}?status=mine",
        call_url(open_call),
        call_url(held),
        call_url(done),
    ]
    problems = [p for url in urls for p in audit(client, url)]
    assert problems == []
    # The ruling form with a mistake in it, as the judge sees it.
    from tests.support import PageAudit

    response = client.post(call_url(open_call, "ruling"), {"text": "x", "record": "{"})
    assert response.status_code == 400
    parser = PageAudit()
    parser.feed(response.content.decode())
    assert parser.report() == []
    # The player's match page with an open call and with a ruling.
    for player in (matches[0].a.player, matches[2].b.player):
        assert audit(logged_in(player), my_match_url(event)) == []


def test_take_the_next_call_from_the_queue_page() -> None:
    from matches import services as match_services
    from matches.models import CallStatus, JudgeCall
    from tests.factories import UserFactory, logged_in

    event, organiser, _ = running_event(2)
    judge = UserFactory()
    event.judges.add(judge)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    match_services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.select_related("a__player", "round").get()
    call, _ = match_services.call_open(actor=match.a.player, match=match, question="?")
    client = logged_in(judge)
    assert "Take the next call" in client.get("/judge/").content.decode()
    response = client.post("/judge/claim-next/")
    assert response.status_code == 302 and response["Location"].endswith(f"/judge/calls/{call.pk}/")
    assert JudgeCall.objects.get(pk=call.pk).status == CallStatus.CLAIMED


def test_the_queues_rows_kept_rendered_are_the_rows_rendered_afresh() -> None:
    """Issue 19: each row's HTML is kept by everything it shows (judge_views.ROWS); a list
    put together from kept rows is the list rendered with none kept, and a row whose call
    changes (claimed, a note) is rendered again."""
    event, _, judge, matches = _published(8)
    other_judge = UserFactory()
    event.judges.add(other_judge)
    calls = [_call(m, f"question {k}") for k, m in enumerate(matches[:3])]
    client = logged_in(judge)
    moment = re.compile(rb"<time datetime=[^<]+</time>")

    def listed(keep_rows: bool) -> bytes:
        cache.clear()  # the shared copy too: the list is rendered for this look
        if not keep_rows:
            judge_views.ROWS.clear()
        body = client.get(QUEUE + "?status=all&partial=1").content
        return moment.sub(b"TIME", without_csrf_value(body))

    fresh = listed(keep_rows=False)
    assert listed(keep_rows=True) == fresh
    services.call_add_note(actor=judge, call=calls[2], text="first note")
    services.call_claim(actor=other_judge, call=calls[1])
    kept = listed(keep_rows=True)  # the third row from ROWS, the two changed ones afresh
    assert kept == listed(keep_rows=False) != fresh
    html = kept.decode()
    assert "first note" in html and other_judge.public_name in html
    assert html.count('class="queue-row') == 3


@pytest.mark.parametrize("status", ["all", "open", "resolved", "escalated"])
@pytest.mark.parametrize("sort", ["waiting", "table"])
def test_the_queue_read_as_plain_values_is_the_queue_read_as_models(
    monkeypatch: pytest.MonkeyPatch, status: str, sort: str
) -> None:
    """Issue 19: the queue's list reads its calls as plain values (matches.queue_values), not
    model instances; every row is written as from the models: a question, a dispute, a
    resolved dispute, a claimed and escalated call with a note, a judge known by their full
    name, a walk-in with markup in their name, and a second event's call."""
    event, organiser, judge, matches = _published(8)
    holder = UserFactory(display_name="", first_name="Ada", last_name="Byrne <Head>")
    event.judges.add(holder)
    _call(matches[0], "May I <shuffle> again?")
    _dispute(matches[1])
    _dispute(matches[2])
    services.match_report(actor=organiser, match=matches[2], games=[1, 0, 0], reason="Judged")
    claimed = _call(matches[3], "")
    services.call_claim(actor=holder, call=claimed)
    services.call_escalate(actor=holder, call=JudgeCall.objects.get(pk=claimed.pk), note="Head")
    services.call_add_note(actor=holder, call=JudgeCall.objects.get(pk=claimed.pk), text="a note")
    type(matches[0].b).objects.filter(pk=matches[0].b_id).update(
        player=None, walk_in_name='Walk <In> & "Out"'
    )
    second = published_round(4, judge=judge)
    _call(second.matches[0], "Second event")
    client = logged_in(judge)
    moment = re.compile(rb"<time datetime=[^<]+</time>")

    def listed() -> bytes:
        cache.clear()  # the shared copy too: the list is rendered for this look
        judge_views.ROWS.clear()
        body = client.get(f"{QUEUE}?status={status}&sort={sort}&partial=1").content
        return moment.sub(b"TIME", without_csrf_value(body))

    as_values = listed()
    with monkeypatch.context() as as_models:
        as_models.setattr(judge_views.queue_values, "QueueCalls", lambda calls: calls)
        assert listed() == as_values
    html = as_values.decode()
    assert html.count('class="queue-row') >= 1
    if status == "all":
        assert html.count('class="queue-row') == 5
        assert "Walk &lt;In&gt; &amp; &quot;Out&quot;" in html
        assert "Byrne &lt;Head&gt;" in html and "Second event" in html
