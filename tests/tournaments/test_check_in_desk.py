"""The check-in desk (issue: the organiser's day at 2,000 players): search first, scanner
friendly, bulk, keeps your place, judges when allowed; starting shows the no-shows; the
dashboard is paginated with a fixed number of queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config.errors import Forbidden, ServiceError
from tests.factories import (
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
    organiser_of,
)
from tournaments import services
from tournaments.audit import EVENT_COPIES
from tournaments.models import AuditEntry, Registration
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def _event(players: int = 3, **fields: Any) -> tuple[Any, list[Registration]]:
    event = TournamentFactory(status=EventStatus.REGISTRATION_CLOSED, **fields)
    return event, [RegistrationFactory(tournament=event) for _ in range(players)]


def desk(event: Any) -> str:
    return reverse("event_check_in", args=[event.slug])


def action(event: Any) -> str:
    return reverse("event_check_in_action", args=[event.slug])


def test_a_scanned_player_id_checks_the_player_in_and_returns_to_an_empty_scan_box() -> None:
    event, regs = _event()
    client = logged_in(organiser_of(event))
    player_id = regs[1].player.player_id
    # A scanner types what the QR code holds; people type ids in lower case without the dash.
    response = client.post(action(event), {"code": player_id.lower().replace("-", "")})
    assert response.status_code == 302 and response["Location"] == desk(event)
    regs[1].refresh_from_db()
    assert regs[1].checked_in
    page = client.get(response["Location"]).content.decode()
    assert f"{regs[1].name} checked in." in page and 'name="code"' in page and "autofocus" in page


def test_an_unknown_code_says_so_and_checks_nobody_in() -> None:
    event, _ = _event()
    client = logged_in(organiser_of(event))
    page = client.post(action(event), {"code": "ZZZ-ZZZ"}, follow=True).content.decode()
    assert "nobody in this event has the player id or claim code ZZZ-ZZZ" in page
    assert not Registration.objects.filter(tournament=event, checked_in_at__isnull=False).exists()


def test_a_walk_ins_claim_code_checks_them_in() -> None:
    event, _ = _event(0)
    walk_in = services.registration_add_walk_in(
        actor=organiser_of(event), tournament=event, name="Pat Walker"
    )
    services.registration_check_in_by_code(
        actor=organiser_of(event), tournament=event, code=walk_in.claim_code
    )
    walk_in.refresh_from_db()
    assert walk_in.checked_in


def test_search_finds_by_name_and_player_id_and_the_list_is_paginated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tournaments import views

    monkeypatch.setattr(views, "DESK_PAGE_SIZE", 2)
    event, regs = _event(5)
    client = logged_in(organiser_of(event))
    by_id = client.get(desk(event), {"q": regs[3].player.player_id}).content.decode()
    assert regs[3].name in by_id and regs[0].name not in by_id
    by_name = client.get(desk(event), {"q": regs[2].player.display_name[:5]}).content.decode()
    assert regs[2].name in by_name
    first = client.get(desk(event)).content.decode()
    assert "Page 1 of 3" in first


def test_a_row_action_brings_you_back_to_the_same_page_and_row() -> None:
    event, regs = _event(3)
    client = logged_in(organiser_of(event))
    here = desk(event) + "?q=&show=all&page=1"
    response = client.post(action(event), {"one": regs[2].pk, "next": here})
    assert response.status_code == 302
    assert response["Location"] == f"{here}#reg-{regs[2].pk}"
    regs[2].refresh_from_db()
    assert regs[2].checked_in
    undo = client.post(action(event), {"undo": regs[2].pk, "next": here})
    assert undo["Location"].endswith(f"#reg-{regs[2].pk}")
    regs[2].refresh_from_db()
    assert not regs[2].checked_in


def test_bulk_check_in_checks_in_the_ticked_players_and_says_who_was_skipped() -> None:
    event, regs = _event(3)
    waitlisted = RegistrationFactory(tournament=event, status="waitlisted")
    client = logged_in(organiser_of(event))
    page = client.post(
        action(event),
        {"registrations": [regs[0].pk, regs[2].pk], "bulk": "1"},
        follow=True,
    ).content.decode()
    assert "2 players checked in." in page
    assert {r.pk for r in Registration.objects.filter(checked_in_at__isnull=False)} == {
        regs[0].pk,
        regs[2].pk,
    }
    result = services.registrations_check_in(
        actor=organiser_of(event), tournament=event, registration_ids=[waitlisted.pk, regs[1].pk]
    )
    assert [r.pk for r in result.checked_in] == [regs[1].pk]
    assert [r.pk for r, _ in result.skipped] == [waitlisted.pk]


def test_bulk_check_in_refuses_another_events_registrations() -> None:
    event, _ = _event(1)
    _, other = _event(1)
    with pytest.raises(ServiceError) as excinfo:
        services.registrations_check_in(
            actor=organiser_of(event), tournament=event, registration_ids=[other[0].pk]
        )
    assert excinfo.value.field == "registrations"


def test_judges_check_players_in_only_when_the_organiser_allows() -> None:
    event, regs = _event(2)
    judge = UserFactory()
    event.judges.add(judge)
    client = logged_in(judge)
    assert client.get(desk(event)).status_code == 403
    with pytest.raises(Forbidden):
        services.registration_check_in(actor=judge, registration=regs[0])
    services.event_update(actor=organiser_of(event), tournament=event, judges_may_check_in=True)
    assert client.get(desk(event)).status_code == 200
    client.post(action(event), {"code": regs[0].player.player_id})
    regs[0].refresh_from_db()
    assert regs[0].checked_in
    assert AuditEntry.objects.filter(action="registration.checked_in", actor=judge).exists()


def test_the_api_checks_in_by_code_and_in_bulk(api_client: Any) -> None:
    event, regs = _event(3)
    api_client.force_authenticate(organiser_of(event))
    url = f"/api/events/{event.slug}/check-in/"
    one = api_client.post(url, {"code": regs[0].player.player_id}, format="json")
    assert one.status_code == 200 and one.json()["checked_in"][0]["id"] == regs[0].pk
    bulk = api_client.post(url, {"registrations": [regs[1].pk, regs[2].pk]}, format="json")
    assert bulk.status_code == 200 and len(bulk.json()["checked_in"]) == 2
    neither = api_client.post(url, {}, format="json")
    assert neither.status_code == 400 and "registrations" in neither.json()
    too_many = api_client.post(url, {"registrations": list(range(1, 300))}, format="json")
    assert too_many.status_code == 400


def test_the_player_sees_their_check_in_code_on_the_event_page() -> None:
    event, regs = _event(1)
    page = logged_in(regs[0].player).get(event.get_absolute_url()).content.decode()
    assert "<svg" in page and regs[0].player.player_id in page
    assert "check-in code" in page.lower()


# --- starting the event --------------------------------------------------------------------


def test_starting_with_no_shows_asks_and_lists_them() -> None:
    event, regs = _event(3)
    services.registration_check_in(actor=organiser_of(event), registration=regs[0])
    client = logged_in(organiser_of(event))
    url = reverse("event_transition", args=[event.slug])
    page = client.post(url, {"to": "running"}).content.decode()
    assert "2 registered players are not checked in" in page
    assert regs[1].name in page and regs[2].name in page and regs[0].name not in page
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_CLOSED  # nothing happened yet
    client.post(url, {"to": "running", "no_shows": "drop"})
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING
    dropped = set(
        Registration.objects.filter(dropped_at__isnull=False).values_list("pk", flat=True)
    )
    assert dropped == {regs[1].pk, regs[2].pk}
    assert AuditEntry.objects.filter(action="registration.dropped_no_show").count() == 2


def test_the_api_needs_a_decision_on_no_shows_when_some_checked_in(api_client: Any) -> None:
    event, regs = _event(2)
    services.registration_check_in(actor=organiser_of(event), registration=regs[0])
    api_client.force_authenticate(organiser_of(event))
    url = f"/api/events/{event.slug}/transition/"
    undecided = api_client.post(url, {"to": "running"}, format="json")
    assert undecided.status_code == 400 and undecided.json()["field"] == "no_shows"
    kept = api_client.post(url, {"to": "running", "no_shows": "keep"}, format="json")
    assert kept.status_code == 200 and kept.json()["status"] == "running"
    assert not Registration.objects.filter(dropped_at__isnull=False).exists()


def test_an_event_that_used_no_check_in_starts_without_a_question() -> None:
    event, _ = _event(2)
    services.event_transition(actor=organiser_of(event), tournament=event, to="running")
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING


# --- the dashboard at scale ----------------------------------------------------------------


def test_the_dashboard_is_paginated_and_its_query_count_does_not_grow_with_players(
    settings: Any,
) -> None:
    # No grace: a copy younger than it would be served without a render, and whether it is
    # young would depend on how fast the machine added the players.
    settings.DASHBOARD_MAX_STALE_SECONDS = 0
    # A cache of the test's own, always up: a shared Redis whose breaker another test tripped
    # would send the session and the account to the database for one request and not another.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    event, _ = _event(3)
    client = logged_in(organiser_of(event))
    client.get(reverse("event_dashboard", args=[event.slug]))

    def queries() -> int:
        from config import shared_copies

        shared_copies.changed(EVENT_COPIES, event.pk)  # a fresh render each time
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("event_dashboard", args=[event.slug]))
        assert response.status_code == 200
        # The page's own reads: whether the session and the signed-in account came from the
        # cache or the database depends on the cache's state, not on the players.
        return len(
            [
                q
                for q in captured.captured_queries
                if 'FROM "django_session"' not in q["sql"]
                and not q["sql"].startswith('SELECT "accounts_user"')
            ]
        )

    few = queries()
    for i in range(60):  # through the service, as the site adds players (audited)
        services.registration_add_walk_in(
            actor=organiser_of(event), tournament=event, name=f"Walk-in {i}", over_capacity=True
        )
    many = queries()
    assert many == few, (few, many)
    page = client.get(reverse("event_dashboard", args=[event.slug])).content.decode()
    assert "Page 1 of 2" in page and page.count('id="reg-') == 50


def test_the_dashboard_list_is_one_copy_for_its_staff_and_follows_every_change() -> None:
    event, regs = _event(2)
    judge = UserFactory()
    event.judges.add(judge)
    url = reverse("event_dashboard", args=[event.slug])
    organiser = logged_in(organiser_of(event))
    assert regs[0].name in organiser.get(url).content.decode()
    with CaptureQueriesContext(connection) as captured:
        again = organiser.get(url).content.decode()
    assert regs[1].name in again
    listing = [
        q
        for q in captured
        if q["sql"].startswith('SELECT "tournaments_registration"') and "ORDER BY" in q["sql"]
    ]
    assert listing == []  # the copy, not a new read of the players
    walk_in = services.registration_add_walk_in(
        actor=organiser_of(event), tournament=event, name="Late Larry"
    )
    assert walk_in.name in organiser.get(url).content.decode()  # the change shows at once
    # A judge sees the list without the organiser's buttons (a copy of their own role).
    judge_page = logged_in(judge).get(url).content.decode()
    assert "Late Larry" in judge_page and "Remove…" not in judge_page


def test_no_shows_dropped_at_the_start_are_told_by_mail(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.core import mail

    event, regs = _event(2)
    services.registration_check_in(actor=organiser_of(event), registration=regs[0])
    with django_capture_on_commit_callbacks(execute=True):
        services.event_transition(
            actor=organiser_of(event), tournament=event, to="running", no_shows="drop"
        )
    assert [m.to for m in mail.outbox] == [[regs[1].player.email]]
