"""The weekend's pages: the schedule (phone and print), the badge check-in desk, the staff desk
across the weekend, and the dashboard's "new side event like this one" button."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
)
from tests.scenarios import published_round
from tournaments.models import Tournament
from tournaments.status import EventStatus
from weekends import services
from weekends.models import Weekend, WeekendEvent

pytestmark = pytest.mark.django_db


def weekend_with(organiser: Any, *events: Tournament) -> Weekend:
    weekend = services.weekend_create(
        actor=organiser,
        name="Regionals Weekend",
        starts_on="2026-12-04",  # type: ignore[arg-type]
        ends_on="2026-12-05",  # type: ignore[arg-type]
    )
    for index, event in enumerate(events):
        services.weekend_add_event(
            actor=organiser,
            weekend=weekend,
            tournament=event,
            kind="main" if index == 0 else "side",
        )
    return weekend


def test_the_schedule_lists_every_public_event_with_its_round_and_links() -> None:
    scene = published_round()
    event, organiser = scene.event, scene.organiser
    side = TournamentFactory(name="Side Draft", organisers=[organiser])
    hidden = TournamentFactory(
        name="Secret Draft", organisers=[organiser], status=EventStatus.DRAFT.value
    )
    weekend = weekend_with(organiser, event, side, hidden)
    page = Client().get(f"/weekends/{weekend.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert event.name in html and "Side Draft" in html and "Secret Draft" not in html
    number = event.rounds.order_by("-number").first().number
    assert f"/events/{event.slug}/rounds/{number}/pairings/" in html
    assert f"/events/{event.slug}/standings/" in html
    assert 'name="viewport"' in html  # usable on a phone (the base template's viewport)
    assert "One entry per deck" not in html
    # The organiser sees the staff links; the public does not.
    assert f"/weekends/{weekend.slug}/desk/" not in html
    assert (
        f"/weekends/{weekend.slug}/desk/"
        in logged_in(organiser).get(f"/weekends/{weekend.slug}/").content.decode()
    )


def test_the_desk_lists_only_the_events_the_person_staffs_with_unreported_matches() -> None:
    scene = published_round()
    event, organiser = scene.event, scene.organiser
    other = TournamentFactory(name="Not Mine", organisers=[organiser])
    weekend = weekend_with(organiser, event, other)
    judge = UserFactory()
    event.judges.add(judge)
    html = logged_in(judge).get(f"/weekends/{weekend.slug}/desk/").content.decode()
    assert event.name in html and "Not Mine" not in html
    assert "not final" in html and f"/events/{event.slug}/manage/rounds/" in html
    assert logged_in(UserFactory()).get(f"/weekends/{weekend.slug}/desk/").status_code == 403


def test_the_badge_desk_page_checks_in_to_every_event() -> None:
    organiser = OrganiserFactory()
    events = [TournamentFactory(organisers=[organiser]) for _ in range(3)]
    weekend = weekend_with(organiser, *events)
    player = UserFactory()
    registrations = [RegistrationFactory(tournament=e, player=player) for e in events]
    client = logged_in(organiser)
    assert client.get(f"/weekends/{weekend.slug}/check-in/").status_code == 200
    response = client.post(f"/weekends/{weekend.slug}/check-in/", {"code": player.player_id})
    assert response.status_code == 200
    assert "checked in to 3 events" in response.content.decode()
    for registration in registrations:
        registration.refresh_from_db()
        assert registration.checked_in
    unknown = client.post(f"/weekends/{weekend.slug}/check-in/", {"code": "nobody"})
    assert unknown.status_code == 400
    assert logged_in(player).get(f"/weekends/{weekend.slug}/check-in/").status_code == 403


def test_the_dashboard_button_launches_a_side_event_like_this_one() -> None:
    organiser = OrganiserFactory()
    main = TournamentFactory(name="Main", organisers=[organiser], round_minutes=45)
    weekend = weekend_with(organiser, main)
    client = logged_in(organiser)
    dashboard = client.get(f"/events/{main.slug}/manage/").content.decode()
    assert "New side event like this one" in dashboard
    response = client.post(
        f"/events/{main.slug}/manage/side-event/",
        {"name": "LCQ Saturday", "starts_at": "2026-12-05T14:30", "kind": "lcq"},
    )
    entry = WeekendEvent.objects.get(weekend=weekend, tournament__name="LCQ Saturday")
    assert response.status_code == 302 and entry.tournament.slug in response["Location"]
    assert entry.tournament.round_minutes == 45 and entry.template == main
    # A judge of the event sees no button and cannot post it.
    judge = UserFactory()
    main.judges.add(judge)
    judged = logged_in(judge)
    assert (
        "New side event like this one"
        not in judged.get(f"/events/{main.slug}/manage/").content.decode()
    )
    refused = judged.post(
        f"/events/{main.slug}/manage/side-event/",
        {"name": "LCQ 2", "starts_at": "2026-12-05T15:00"},
    )
    assert refused.status_code == 403
    # Bad input: the field in the message, nothing made.
    before = Tournament.objects.count()
    client.post(f"/events/{main.slug}/manage/side-event/", {"name": "LCQ 3", "starts_at": "x"})
    assert Tournament.objects.count() == before


def test_the_desk_reads_a_fixed_number_of_queries_per_event_whatever_its_size() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from weekends import selectors

    small, large = published_round(players=4), published_round(players=16)
    organiser = small.organiser
    large.event.organisers.add(organiser)
    weekend = weekend_with(organiser, small.event)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            desk = selectors.desk(organiser, weekend)
        assert all(item.total for item in desk)
        return len(captured)

    one = queries()
    services.weekend_add_event(
        actor=organiser, weekend=weekend, tournament=large.event, kind="side"
    )
    two = queries()
    # The second event (four times the players) costs what the first did, less the shared read.
    assert two - one <= one - 1
    assert len(selectors.desk(organiser, weekend)[1].unreported) == 8
