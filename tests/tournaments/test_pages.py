"""Server-rendered pages: what each role sees and may do; pages call the same services."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
    organiser_of,
)
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def test_home_lists_upcoming_and_running_events_not_drafts() -> None:
    TournamentFactory(name="Upcoming Cup")
    TournamentFactory(name="Live Cup", status="running")
    TournamentFactory(name="Hidden Draft", status="draft")
    html = Client().get("/").content.decode()
    assert "Upcoming Cup" in html and "Live Cup" in html and "Hidden Draft" not in html


def test_event_page_shows_details_and_register_button() -> None:
    event = TournamentFactory(name="Detail Cup", capacity=10)
    RegistrationFactory.create_batch(2, tournament=event)
    anonymous = Client().get(f"/events/{event.slug}/").content.decode()
    assert "Detail Cup" in anonymous and "2 / 10" in anonymous and "Log in to register" in anonymous
    player_html = logged_in(UserFactory()).get(f"/events/{event.slug}/").content.decode()
    assert ">Register<" in player_html


def test_registering_and_withdrawing_through_the_pages() -> None:
    event = TournamentFactory()
    player = UserFactory()
    client = logged_in(player)
    response = client.post(f"/events/{event.slug}/register/", follow=True)
    assert "You are registered." in response.content.decode()
    reg = Registration.objects.get(tournament=event, player=player)
    response = client.post(f"/registrations/{reg.pk}/withdraw/", follow=True)
    reg.refresh_from_db()
    assert reg.status == "withdrawn"


def test_registering_twice_shows_an_error_not_a_500() -> None:
    event = TournamentFactory()
    client = logged_in(UserFactory())
    client.post(f"/events/{event.slug}/register/")
    response = client.post(f"/events/{event.slug}/register/", follow=True)
    assert response.status_code == 200
    assert "already registered" in response.content.decode()


def test_register_requires_login_and_post() -> None:
    event = TournamentFactory()
    assert Client().post(f"/events/{event.slug}/register/").status_code == 302
    assert logged_in(UserFactory()).get(f"/events/{event.slug}/register/").status_code == 405


def test_dashboard_is_for_the_events_staff_only() -> None:
    event = TournamentFactory()
    RegistrationFactory(tournament=event, player=UserFactory(display_name="Searchable Sam"))
    url = f"/events/{event.slug}/manage/"
    assert Client().get(url).status_code == 302
    assert logged_in(UserFactory()).get(url).status_code == 403
    assert logged_in(OrganiserFactory()).get(url).status_code == 403
    judge = UserFactory()
    event.judges.add(judge)
    judge_html = logged_in(judge).get(url).content.decode()
    assert "Searchable Sam" in judge_html and "Add a walk-in" not in judge_html
    html = logged_in(organiser_of(event)).get(url).content.decode()
    assert "Searchable Sam" in html and "Add a walk-in" in html


def test_dashboard_search_by_name() -> None:
    event = TournamentFactory()
    RegistrationFactory(tournament=event, player=UserFactory(display_name="Alpha Ann"))
    RegistrationFactory(tournament=event, player=UserFactory(display_name="Beta Bob"))
    html = (
        logged_in(organiser_of(event)).get(f"/events/{event.slug}/manage/?q=alpha").content.decode()
    )
    assert "Alpha Ann" in html and "Beta Bob" not in html


def test_organiser_checks_in_and_adds_walk_in_from_the_dashboard() -> None:
    event = TournamentFactory()
    reg = RegistrationFactory(tournament=event)
    client = logged_in(organiser_of(event))
    client.post(f"/registrations/{reg.pk}/check-in/", {"checked_in": "1"})
    reg.refresh_from_db()
    assert reg.checked_in
    client.post(f"/events/{event.slug}/manage/walk-in/", {"name": "Wally Walkin"})
    assert Registration.objects.filter(tournament=event, walk_in_name="Wally Walkin").exists()


def test_a_player_cannot_check_in_or_remove_someone_else_through_pages() -> None:
    reg = RegistrationFactory()
    client = logged_in(UserFactory())
    assert client.post(f"/registrations/{reg.pk}/check-in/").status_code == 403
    assert client.post(f"/registrations/{reg.pk}/remove/").status_code == 403
    assert (
        client.post(f"/events/{reg.tournament.slug}/manage/walk-in/", {"name": "X"}).status_code
        == 403
    )
    assert (
        client.post(
            f"/events/{reg.tournament.slug}/manage/status/", {"to": "cancelled"}
        ).status_code
        == 403
    )
    reg.refresh_from_db()
    assert reg.status == "registered" and not reg.checked_in


def test_impossible_transition_from_the_dashboard_is_a_message() -> None:
    event = TournamentFactory()
    response = logged_in(organiser_of(event)).post(
        f"/events/{event.slug}/manage/status/", {"to": "finished"}, follow=True
    )
    assert response.status_code == 200 and "cannot go from" in response.content.decode()


def test_organiser_creates_an_event_through_the_form() -> None:
    client = logged_in(OrganiserFactory())
    response = client.post(
        "/events/new/",
        {
            "name": "Form Open",
            "game": "boba",
            "mode": "playmaker",
            "format_key": "spec_playmaker",
            "match_structure": "bo3",
            "starts_at": "2030-01-01T10:00",
            "time_zone": "UTC",
            "round_minutes": 50,
            "top_cut_size": 8,
        },
    )
    assert response.status_code == 302
    assert client.get(response["Location"]).status_code == 200


def test_event_form_reports_a_mode_format_mismatch_on_the_field() -> None:
    client = logged_in(OrganiserFactory())
    response = client.post(
        "/events/new/",
        {
            "name": "Mismatch",
            "game": "boba",
            "mode": "rookie",
            "format_key": "playmaker",
            "match_structure": "bo1",
            "starts_at": "2030-01-01T10:00",
            "time_zone": "UTC",
            "round_minutes": 50,
            "top_cut_size": 8,
        },
    )
    assert response.status_code == 200
    assert "played in playmaker mode" in response.content.decode()


def test_players_cannot_open_the_new_event_form() -> None:
    assert logged_in(UserFactory()).get("/events/new/").status_code == 403


def test_my_events_lists_registrations_and_organised_events() -> None:
    reg = RegistrationFactory()
    html = logged_in(reg.player).get("/me/events/").content.decode()
    assert reg.tournament.name in html
    html = logged_in(organiser_of(reg.tournament)).get("/me/events/").content.decode()
    assert "Organising" in html


def test_pages_are_accessible_basics() -> None:
    event = TournamentFactory()
    html = logged_in(organiser_of(event)).get(f"/events/{event.slug}/manage/").content.decode()
    assert '<html lang="en">' in html
    assert 'name="viewport"' in html
    assert 'class="skip-link"' in html
    assert 'for="q"' in html and 'id="q"' in html
    assert "https://" not in html.split("<body>")[0], "no CDN assets in the head"


def test_player_checks_in_from_the_event_page_once_open() -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(player_check_in_open=True))
    client = logged_in(reg.player)
    assert ">Check in<" in client.get(f"/events/{reg.tournament.slug}/").content.decode()
    client.post(f"/registrations/{reg.pk}/check-in/", {"checked_in": "1"})
    reg.refresh_from_db()
    assert reg.checked_in


def test_event_page_recommends_swiss_rounds_from_attendance_when_not_planned() -> None:
    event = TournamentFactory(planned_rounds=None)
    RegistrationFactory.create_batch(20, tournament=event)
    html = Client().get(f"/events/{event.slug}/").content.decode()
    assert "5 rounds recommended" in html  # 17-32 players: 5 rounds (MTR Appendix E)
    event.planned_rounds = 4
    event.save()
    assert "recommended" not in Client().get(f"/events/{event.slug}/").content.decode()


@pytest.mark.parametrize("target", ["https://evil.example/phish", "//evil.example/x"])
def test_next_never_redirects_off_site(target: str) -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(player_check_in_open=True))
    response = logged_in(reg.player).post(
        f"/registrations/{reg.pk}/check-in/", {"checked_in": "1", "next": target}
    )
    assert response.status_code == 302 and "evil.example" not in response["Location"]


def test_next_on_site_is_followed() -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(player_check_in_open=True))
    response = logged_in(reg.player).post(
        f"/registrations/{reg.pk}/check-in/", {"checked_in": "1", "next": "/me/events/"}
    )
    assert response["Location"] == "/me/events/"


def test_event_form_reads_times_in_the_events_time_zone() -> None:
    from datetime import UTC, datetime

    from tournaments.models import Tournament

    client = logged_in(OrganiserFactory())
    client.post(
        "/events/new/",
        {
            "name": "Tokyo Open",
            "game": "boba",
            "mode": "playmaker",
            "format_key": "playmaker",
            "match_structure": "bo1",
            "starts_at": "2030-06-01T10:00",
            "time_zone": "Asia/Tokyo",
            "round_minutes": 50,
            "top_cut_size": 8,
        },
    )
    event = Tournament.objects.get(name="Tokyo Open")
    assert event.starts_at == datetime(2030, 6, 1, 1, 0, tzinfo=UTC)  # 10:00 in Tokyo
    html = client.get(f"/events/{event.slug}/edit/").content.decode()
    assert 'value="2030-06-01T10:00"' in html
