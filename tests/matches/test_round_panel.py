"""The organiser's live round panel (issue 18): what it shows, who may see it, how cheaply it
is polled (ETag, a fixed number of queries at 1,024 tables) and the one tap that accepts a
table's one-sided report as a staff confirmation, audited."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from matches import services
from matches.models import JudgeCall, Match, MatchStatus, ResultChange, Round, RoundStatus
from tests import scenarios
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, logged_in
from tests.scenarios import client_for, running_event
from tests.support import FakeClock
from tournaments.models import AuditEntry, Registration
from tournaments.timer import RoundTimer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def published_round(players: int = 8) -> tuple[Any, Any, Round, list[Match]]:
    scene = scenarios.published_round(players)
    return scene.event, scene.organiser, scene.round, scene.matches


def started_minutes_ago(round_: Round, minutes: int) -> None:
    """The round's timer as if it had been started `minutes` ago."""
    timer = RoundTimer.from_json(round_.timer)
    start = timezone.now() - timedelta(minutes=minutes)
    Round.objects.filter(pk=round_.pk).update(timer=RoundTimer(timer.length).start(start).to_json())


def panel_api(user: Any, slug: str, **headers: str) -> Any:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client.get(f"/api/events/{slug}/rounds/current/panel/", headers=headers)


def test_the_panel_shows_the_timer_one_sided_reports_calls_and_late_tables(
    frozen_now: FakeClock,
) -> None:
    event, organiser, round_, matches = published_round(8)
    lone, disputed, called, extended = matches
    services.match_report(actor=lone.a.player, match=lone, games=[1, 0, 0])
    services.match_report(actor=disputed.a.player, match=disputed, games=[1, 0, 0])
    services.match_report(actor=disputed.b.player, match=disputed, games=[0, 1, 0])
    services.call_open(actor=called.a.player, match=called, question="Can I do this?")
    services.match_extend(actor=organiser, match=extended, minutes=30)
    started_minutes_ago(round_, event.round_minutes + 5)  # five minutes past time

    response = panel_api(organiser, event.slug)

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["round"] == {"number": 1, "stage": "swiss", "status": "published"}
    assert body["timer"]["state"] == "running" and body["timer"]["remaining_seconds"] == -300
    assert body["counts"] == {
        "tables": 4,
        "byes": 0,
        "playing": 2,
        "reported": 1,
        "disputed": 1,
        "final": 0,
    }
    [one_sided] = body["one_sided"]
    assert one_sided["match"] == lone.pk and one_sided["table"] == lone.table
    assert one_sided["reported_by"] == lone.a_id and one_sided["games"] == [1, 0, 0]
    assert one_sided["reported_by_name"] == lone.a.name
    assert {c["kind"] for c in body["calls"]} == {"dispute", "call"}
    assert {c["table"] for c in body["calls"]} == {disputed.table, called.table}
    # Late: still playing past the round's end; the extended table has 25 minutes left.
    assert [row["table"] for row in body["late"]] == [called.table]
    assert body["late"][0]["over_seconds"] == 300
    assert body["extensions"][0]["table"] == extended.table
    assert body["extensions"][0]["extension_minutes"] == 30
    assert body["playing_tables"] == [called.table, extended.table]


def test_the_panel_is_for_organisers_and_the_events_judges_only() -> None:
    event, organiser, _round, matches = published_round(4)
    judge = UserFactory()
    event.judges.add(judge)
    player = matches[0].a.player
    assert panel_api(organiser, event.slug).status_code == 200
    assert panel_api(judge, event.slug).status_code == 200
    assert panel_api(player, event.slug).status_code == 403
    assert panel_api(UserFactory(), event.slug).status_code == 403
    assert panel_api(None, event.slug).status_code == 403
    fragment = reverse("round_panel", args=[event.slug])
    assert logged_in(judge).get(fragment).status_code == 200
    assert logged_in(player).get(fragment).status_code == 403
    assert Client().get(fragment).status_code == 302  # to the login page
    draft = TournamentFactory(status="draft")
    assert panel_api(player, draft.slug).status_code == 404


def test_an_unchanged_panel_is_a_304_and_a_change_shows_at_once() -> None:
    event, organiser, _round, matches = published_round(8)
    first = panel_api(organiser, event.slug)
    tag = first["ETag"]
    assert tag and first["Cache-Control"] == "private, no-cache"
    again = panel_api(organiser, event.slug, **{"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""

    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])

    changed = panel_api(organiser, event.slug, **{"If-None-Match": tag})
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert changed.json()["counts"]["reported"] == 1


def test_a_304_poll_does_not_read_the_round() -> None:
    event, organiser, _round, _matches = published_round(8)
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"/api/events/{event.slug}/rounds/current/panel/"
    tag = client.get(url)["ETag"]
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers={"If-None-Match": tag})
    assert response.status_code == 304
    tables = " ".join(q["sql"] for q in ctx.captured_queries)
    assert "matches_match" not in tables and "matches_report" not in tables


def _count_queries(user: Any, slug: str) -> int:
    from django.core.cache import cache

    cache.clear()  # a fresh copy: the panel is read, not served from the cache
    with CaptureQueriesContext(connection) as ctx:
        assert panel_api(user, slug).status_code == 200
    return len(ctx.captured_queries)


def big_round(tables: int) -> tuple[Any, Any]:
    """A published round of `tables` tables, every state present, made in bulk."""
    event, organiser, _regs = running_event(0)
    Registration.objects.bulk_create(
        Registration(tournament=event, walk_in_name=f"Walk-in {i}", status="registered")
        for i in range(tables * 2)
    )
    regs = list(event.registrations.order_by("id").values_list("pk", flat=True))
    timer = RoundTimer(timedelta(minutes=50)).start(timezone.now() - timedelta(minutes=60))
    round_ = Round.objects.create(
        tournament=event, number=1, stage="swiss", status="published", timer=timer.to_json()
    )
    cycle = [MatchStatus.PENDING, MatchStatus.REPORTED, MatchStatus.DISPUTED, MatchStatus.FINAL]
    matches = []
    for t in range(tables):
        status = cycle[t % 4]
        final = status == MatchStatus.FINAL
        matches.append(
            Match(
                round=round_,
                table=t + 1,
                a_id=regs[2 * t],
                b_id=regs[2 * t + 1],
                status=status,
                games_a=1 if final else None,
                games_b=0 if final else None,
                games_drawn=0 if final else None,
                extension_minutes=15 if t % 8 == 0 else 0,
            )
        )
    Match.objects.bulk_create(matches)
    from matches.models import Report

    reported = round_.matches.filter(status=MatchStatus.REPORTED)
    Report.objects.bulk_create(
        Report(match=m, registration_id=m.a_id, games_a=1, games_b=0) for m in reported
    )
    JudgeCall.objects.bulk_create(
        JudgeCall(tournament=event, match=m, kind="dispute")
        for m in round_.matches.filter(status=MatchStatus.DISPUTED)
    )
    return event, organiser


def test_the_panel_costs_the_same_queries_at_8_and_1024_tables() -> None:
    small_event, small_organiser = big_round(8)
    large_event, large_organiser = big_round(1024)
    small = _count_queries(small_organiser, small_event.slug)
    large = _count_queries(large_organiser, large_event.slug)
    assert large == small, f"{small} queries at 8 tables, {large} at 1,024"
    body = panel_api(large_organiser, large_event.slug).json()
    assert body["counts"]["tables"] == 1024 and body["counts"]["playing"] == 256
    assert body["one_sided_count"] == 256 and len(body["one_sided"]) == 200  # bounded
    assert body["late_count"] == 128  # ten minutes over: the extended half has time left
    assert body["calls_count"] == 256 and len(body["calls"]) == 200


def test_accepting_a_one_sided_report_is_a_staff_confirmation_in_the_audit_trail() -> None:
    event, organiser, _round, matches = published_round(4)
    match = matches[0]
    services.match_report(actor=match.b.player, match=match, games=[0, 1, 0])
    match.refresh_from_db()
    client = logged_in(organiser)
    url = reverse("round_panel_accept", args=[event.slug])

    response = client.post(
        url,
        {"match": match.pk, "version": match.result_version},
        headers={"X-Requested-With": "fetch"},
    )

    assert response.status_code == 200 and response.json()["ok"] is True
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (0, 1, 0)
    version = match.versions.order_by("-number").first()
    assert version.change == ResultChange.CONFIRMED and version.actor == organiser
    assert match.b.name in version.reason
    entry = AuditEntry.objects.filter(action="match.confirmed", tournament=event).get()
    assert entry.actor == organiser and entry.data["after"]["games"] == [0, 1, 0]


def test_a_report_changed_since_the_panel_was_read_is_not_accepted() -> None:
    event, organiser, _round, matches = published_round(4)
    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    match.refresh_from_db()
    seen = match.result_version
    services.match_report(actor=match.a.player, match=match, games=[0, 1, 0])  # changed mind

    response = logged_in(organiser).post(
        reverse("round_panel_accept", args=[event.slug]),
        {"match": match.pk, "version": seen},
        headers={"X-Requested-With": "fetch"},
    )

    assert response.status_code == 409 and response.json()["field"] == "match"
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED


def test_players_cannot_accept_from_the_panel_and_bad_input_names_the_field() -> None:
    event, organiser, _round, matches = published_round(4)
    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    url = reverse("round_panel_accept", args=[event.slug])
    refused = logged_in(match.b.player).post(url, {"match": match.pk, "version": 1})
    assert refused.status_code == 403
    organiser_client = logged_in(organiser)
    fetch = {"X-Requested-With": "fetch"}
    missing = organiser_client.post(url, {"match": match.pk}, headers=fetch)
    assert missing.status_code == 400 and missing.json()["field"] == "version"
    other = organiser_client.post(url, {"match": "x", "version": 1}, headers=fetch)
    assert other.status_code == 400 and other.json()["field"] == "match"
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED


def test_the_dashboard_shows_the_panel_with_an_accept_button_while_the_event_runs() -> None:
    event, organiser, _round, matches = published_round(4)
    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    html = logged_in(organiser).get(reverse("event_dashboard", args=[event.slug])).content
    page = html.decode()
    assert 'id="round-panel"' in page and "js/round-panel.js" in page
    assert f'name="match" value="{match.pk}"' in page and "csrf-placeholder" not in page
    assert f"reported by {match.a.name}" in page
    before = TournamentFactory()  # not running: no panel
    RegistrationFactory(tournament=before)
    quiet = logged_in(organiser_of_event(before)).get(
        reverse("event_dashboard", args=[before.slug])
    )
    assert 'id="round-panel"' not in quiet.content.decode()


def organiser_of_event(event: Any) -> Any:
    from tests.factories import organiser_of

    return organiser_of(event)


def test_the_api_panel_of_an_event_without_rounds_is_empty() -> None:
    event, organiser, _regs = running_event(4)
    body = panel_api(organiser, event.slug).json()
    assert body["round"] is None and body["one_sided"] == [] and body["counts"]["tables"] == 0


def test_a_panel_read_as_a_round_finishes_says_so() -> None:
    event, organiser, round_, matches = published_round(2)
    [match] = matches
    services.match_report(actor=organiser, match=match, games=[1, 0, 0])
    body = panel_api(organiser, event.slug).json()
    assert body["round"]["status"] == RoundStatus.FINISHED and body["counts"]["final"] == 1
    assert body["late"] == [] and body["playing_tables"] == []
    assert client_for(organiser).get(f"/api/events/{event.slug}/rounds/1/").status_code == 200


def test_the_dashboard_with_the_panel_costs_the_same_queries_at_8_and_1024_tables() -> None:
    from django.core.cache import cache

    counts = []
    for tables in (8, 1024):
        event, organiser = big_round(tables)
        client = logged_in(organiser)
        url = reverse("event_dashboard", args=[event.slug])
        client.get(url)  # warm the session and content types
        cache.clear()  # the panel is read, not served from the cache
        with CaptureQueriesContext(connection) as ctx:
            page = client.get(url).content.decode()
        counts.append(len(ctx.captured_queries))
        assert 'id="round-panel"' in page
    # A phone downloads the panel after every change: the page lists 40 rows of each list
    # and links to the rest.
    assert page.count('name="match"') == 40 and "All of them in round control" in page
    assert counts[0] == counts[1], f"{counts[0]} queries at 8 tables, {counts[1]} at 1,024"


def test_the_api_confirm_takes_the_result_version_seen() -> None:
    event, organiser, _round, matches = published_round(4)
    match = matches[0]
    services.match_report(actor=match.a.player, match=match, games=[1, 0, 0])
    row = panel_api(organiser, event.slug).json()["one_sided"][0]
    url = f"/api/matches/{match.pk}/confirm/"
    stale = client_for(organiser).post(
        url, {"result_version": row["result_version"] - 1}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["code"] == "result_changed"
    bad = client_for(organiser).post(url, {"result_version": "x"}, format="json")
    assert bad.status_code == 400 and "result_version" in bad.json()
    done = client_for(organiser).post(url, {"result_version": row["result_version"]}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "final"
