"""Series through the REST API (event-structures: Series): points by placing summed by player
id, ties sharing a rank, and a correction in a finished event moving the leaderboard, with the
change in that event's audit trail."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Match
from series.models import Series
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.scenarios import client_for, pair_and_publish_through_api
from tests.series.series_support import POINTS, finished_event
from tournaments.models import AuditEntry, Tournament
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def _placings_points(event: Tournament) -> dict[str, int]:
    from matches.placings import event_placings

    by_registration = {r.pk: r.player.player_id for r in event.registrations.all()}
    return {
        by_registration[row.entrant]: {1: 10, 2: 8, 3: 6, 4: 6}.get(row.place, 1)
        for row in event_placings(event).rows
    }


def test_series_season_leaderboard_follows_placings_and_a_late_correction(
    django_capture_on_commit_callbacks: Any,
) -> None:
    organiser = OrganiserFactory()
    staff = client_for(organiser)
    players = [UserFactory() for _ in range(5)]
    created = staff.post("/api/series/", {"name": "Store season", "points": POINTS}, format="json")
    assert created.status_code == 201, created.content
    series = created.json()
    assert series["events"] == [] and series["points"] == POINTS
    slug = series["slug"]
    events = [
        finished_event(organiser, players[:4], "Week 1"),
        finished_event(organiser, players[1:5], "Week 2"),
        finished_event(organiser, players[:4], "Week 3"),
    ]
    for event in events:
        with django_capture_on_commit_callbacks(execute=True):
            added = staff.post(f"/api/series/{slug}/events/", {"event": event.slug}, format="json")
        assert added.status_code == 200, added.content
    stored = Series.objects.get(slug=slug).leaderboard
    assert staff.get(f"/api/series/{slug}/").json()["events"] == [e.slug for e in events]

    expected: dict[str, int] = {}
    for event in events:
        for player_id, points in _placings_points(event).items():
            expected[player_id] = expected.get(player_id, 0) + points
    board = client_for(UserFactory()).get(f"/api/series/{slug}/leaderboard/").json()
    assert {row["player_id"]: row["points"] for row in board["rows"]} == expected
    assert stored == board["rows"]  # the refresh after each event was added stored it
    assert [row["rank"] for row in board["rows"]] == [
        1 + sum(1 for p in expected.values() if p > row["points"]) for row in board["rows"]
    ]
    assert {row["player_id"]: row["events"] for row in board["rows"]}[players[4].player_id] == 1

    # A correction in week 1 after week 3 finished: round 2's first match flips.
    match = Match.objects.filter(round__tournament=events[0], b__isnull=False).order_by(
        "-round__number", "table"
    )[0]
    before = board
    # Each event's arrival moved the board, in that event's trail.
    changes = AuditEntry.objects.filter(action="series.leaderboard_changed")
    assert sorted(entry.tournament_id for entry in changes) == sorted(e.pk for e in events)
    seen = {entry.pk for entry in changes}
    with django_capture_on_commit_callbacks(execute=True):
        flipped = staff.post(
            f"/api/matches/{match.pk}/report/",
            {"games": [0, 1, 0], "reason": "Scorekeeper swapped the slips"},
            format="json",
        )
    assert flipped.status_code == 200, flipped.content
    after = client_for(UserFactory()).get(f"/api/series/{slug}/leaderboard/").json()
    assert after != before
    expected = {}
    for event in events:
        for player_id, points in _placings_points(event).items():
            expected[player_id] = expected.get(player_id, 0) + points
    assert {row["player_id"]: row["points"] for row in after["rows"]} == expected
    trail = AuditEntry.objects.filter(action="series.leaderboard_changed").exclude(pk__in=seen)
    assert {entry.tournament_id for entry in trail} == {events[0].pk}
    moved = trail.get().data
    assert moved["series"] == slug and moved["players_moved"] >= 2
    assert Series.objects.get(slug=slug).leaderboard == after["rows"]


def test_series_points_table_refusals_name_the_key() -> None:
    staff = client_for(OrganiserFactory())
    answer = staff.post(
        "/api/series/", {"name": "Bad", "points": {"1-4": 5, "3": 2}}, format="json"
    )
    assert answer.status_code == 400
    assert 'points["3"]' in str(answer.json())


def test_series_only_organisers_create_and_only_an_organiser_of_both_adds() -> None:
    assert (
        client_for(UserFactory())
        .post("/api/series/", {"name": "Mine", "points": POINTS}, format="json")
        .status_code
        == 403
    )
    owner = OrganiserFactory()
    slug = (
        client_for(owner)
        .post("/api/series/", {"name": "Circuit", "points": POINTS}, format="json")
        .json()["slug"]
    )
    other = OrganiserFactory()
    foreign_event = TournamentFactory(
        organisers=[other], status=EventStatus.REGISTRATION_OPEN.value
    )
    answer = client_for(owner).post(
        f"/api/series/{slug}/events/", {"event": foreign_event.slug}, format="json"
    )
    assert answer.status_code == 403
    answer = client_for(other).post(
        f"/api/series/{slug}/events/", {"event": foreign_event.slug}, format="json"
    )
    assert answer.status_code == 403


def test_series_an_event_belongs_to_at_most_one_series() -> None:
    owner = OrganiserFactory()
    staff = client_for(owner)
    first = staff.post("/api/series/", {"name": "A", "points": POINTS}, format="json").json()
    second = staff.post("/api/series/", {"name": "B", "points": POINTS}, format="json").json()
    event = TournamentFactory(organisers=[owner], status=EventStatus.REGISTRATION_OPEN.value)
    assert (
        staff.post(
            f"/api/series/{first['slug']}/events/", {"event": event.slug}, format="json"
        ).status_code
        == 200
    )
    answer = staff.post(
        f"/api/series/{second['slug']}/events/", {"event": event.slug}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["field"] == "event"


def test_series_leaderboard_answers_304_to_a_client_that_has_it() -> None:
    owner = OrganiserFactory()
    slug = (
        client_for(owner)
        .post("/api/series/", {"name": "Etag", "points": POINTS}, format="json")
        .json()["slug"]
    )
    reader = client_for(UserFactory())
    first = reader.get(f"/api/series/{slug}/leaderboard/")
    assert first.status_code == 200 and first.json()["rows"] == []
    again = reader.get(f"/api/series/{slug}/leaderboard/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_series_page_and_csv_show_each_players_events_and_points(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.test import Client

    organiser = OrganiserFactory()
    staff = client_for(organiser)
    players = [UserFactory() for _ in range(4)]
    slug = staff.post("/api/series/", {"name": "League", "points": POINTS}, format="json").json()[
        "slug"
    ]
    event = finished_event(organiser, players, "Night 1")
    with django_capture_on_commit_callbacks(execute=True):
        staff.post(f"/api/series/{slug}/events/", {"event": event.slug}, format="json")
    page = Client().get(f"/series/{slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Night 1" in text and players[0].public_name in text
    csv = Client().get(f"/series/{slug}/leaderboard.csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0].split(",")[-1] == event.slug
    assert len(lines) == 1 + len(players)
    assert sorted(int(line.split(",")[3]) for line in lines[1:]) == [6, 6, 8, 10]


def _round_one_two_byes(event: Tournament, organiser: Any, registration_id: int) -> list[bool]:
    """Pair and finish rounds 1 and 2 of ``event`` through the API; for each, whether the
    registration sat out on a bye (never paired against anyone)."""
    staff = client_for(organiser)
    byes = []
    for _ in range(2):
        round_ = pair_and_publish_through_api(event, organiser)
        mine = [m for m in round_["matches"] if registration_id in (m["a"], m["b"])]
        assert len(mine) == 1
        byes.append(mine[0]["b"] is None)
        for match in round_["matches"]:
            if match["b"] is not None:
                staff.post(
                    f"/api/matches/{match['id']}/report/", {"games": [1, 0, 0]}, format="json"
                )
    return byes


def test_series_close_invites_the_top_with_byes_that_pairing_respects(
    django_capture_on_commit_callbacks: Any,
) -> None:
    organiser = OrganiserFactory()
    staff = client_for(organiser)
    players = [UserFactory() for _ in range(4)]
    slug = staff.post("/api/series/", {"name": "Circuit", "points": POINTS}, format="json").json()[
        "slug"
    ]
    week = finished_event(organiser, players, "Qualifier")
    with django_capture_on_commit_callbacks(execute=True):
        staff.post(f"/api/series/{slug}/events/", {"event": week.slug}, format="json")
    championship = TournamentFactory(
        organisers=[organiser], status=EventStatus.REGISTRATION_OPEN.value, planned_rounds=3
    )
    for _ in range(5):
        RegistrationFactory(tournament=championship, player=UserFactory())
    rule = staff.post(
        f"/api/series/{slug}/qualifications/",
        {"event": championship.slug, "invite_top": 1, "bye_top": 1, "bye_rounds": [1, 2]},
        format="json",
    )
    assert rule.status_code == 201, rule.content

    # Before the series closes, a correction moves the leader out of the top 1: the 2-0
    # player loses their round-2 match instead, so their opponent finishes 2-0.
    leader = staff.get(f"/api/series/{slug}/leaderboard/").json()["rows"][0]
    final_match = Match.objects.get(
        round__tournament=week, round__number=2, a__player__player_id=leader["player_id"]
    )
    challenger = final_match.b
    corrected = staff.post(
        f"/api/matches/{final_match.pk}/report/",
        {"games": [0, 1, 0], "reason": "Result slip read backwards"},
        format="json",
    )
    assert corrected.status_code == 200, corrected.content
    top = staff.get(f"/api/series/{slug}/leaderboard/").json()["rows"][0]
    assert top["player_id"] == challenger.player.player_id != leader["player_id"]

    refused = staff.post(f"/api/series/{slug}/close/", {}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "confirm"
    closed = staff.post(f"/api/series/{slug}/close/", {"confirm": True}, format="json")
    assert closed.status_code == 200, closed.content
    invitations = closed.json()["invitations"]
    assert [(i["player_id"], i["bye_rounds"]) for i in invitations] == [
        (challenger.player.player_id, [1, 2])
    ]
    assert closed.json()["series"]["closed_at"] is not None
    invited = championship.registrations.get(player=challenger.player)
    shown = client_for(challenger.player).get(f"/api/registrations/{invited.pk}/").json()
    assert shown["bye_rounds"] == [1, 2] and "Circuit" in shown["invitation"]
    assert AuditEntry.objects.filter(
        tournament=championship, action="registration.invited", registration=invited
    ).exists()
    assert not championship.registrations.filter(player__player_id=leader["player_id"]).exists()
    again = staff.post(f"/api/series/{slug}/close/", {"confirm": True}, format="json")
    assert again.status_code == 409

    championship.status = EventStatus.RUNNING.value
    championship.save(update_fields=["status"])
    assert _round_one_two_byes(championship, organiser, invited.pk) == [True, True]


def test_series_qualification_refuses_an_event_that_started() -> None:
    organiser = OrganiserFactory()
    staff = client_for(organiser)
    slug = staff.post("/api/series/", {"name": "Cup", "points": POINTS}, format="json").json()[
        "slug"
    ]
    running = TournamentFactory(organisers=[organiser], status=EventStatus.RUNNING.value)
    answer = staff.post(
        f"/api/series/{slug}/qualifications/",
        {"event": running.slug, "invite_top": 8},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["field"] == "event"
    upcoming = TournamentFactory(organisers=[organiser], status=EventStatus.DRAFT.value)
    answer = staff.post(
        f"/api/series/{slug}/qualifications/",
        {"event": upcoming.slug, "invite_top": 8, "bye_top": 9, "bye_rounds": [1]},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["field"] == "bye_top"


def test_series_events_as_an_icalendar_feed(django_capture_on_commit_callbacks: Any) -> None:
    from django.test import Client
    from icalendar import Calendar

    organiser = OrganiserFactory()
    staff = client_for(organiser)
    slug = staff.post("/api/series/", {"name": "Feed", "points": POINTS}, format="json").json()[
        "slug"
    ]
    shown = TournamentFactory(
        organisers=[organiser], status=EventStatus.REGISTRATION_OPEN.value, name="Week 9"
    )
    draft = TournamentFactory(organisers=[organiser], status=EventStatus.DRAFT.value)
    for event in (shown, draft):
        with django_capture_on_commit_callbacks(execute=True):
            staff.post(f"/api/series/{slug}/events/", {"event": event.slug}, format="json")
    answer = Client().get(f"/series/{slug}/events.ics")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(answer.content)
    summaries = [str(c.get("summary")) for c in calendar.walk("VEVENT")]
    assert summaries == ["Week 9"]
    assert Client().get("/series/no-such-series/events.ics").status_code == 404


def test_series_of_an_organisation_is_run_by_its_organisers() -> None:
    owner, colleague, outsider = OrganiserFactory(), OrganiserFactory(), OrganiserFactory()
    org = (
        client_for(owner)
        .post("/api/organisations/", {"name": "Corner Store"}, format="json")
        .json()["slug"]
    )
    added = client_for(owner).post(
        f"/api/organisations/{org}/members/",
        {"user": colleague.pk, "role": "organiser"},
        format="json",
    )
    assert added.status_code == 201, added.content
    created = client_for(owner).post(
        "/api/series/",
        {"name": "Store league", "points": POINTS, "organisation": org},
        format="json",
    )
    assert created.status_code == 201 and created.json()["organisation"] == org
    slug = created.json()["slug"]
    event = TournamentFactory(organisers=[colleague], status=EventStatus.REGISTRATION_OPEN.value)
    answer = client_for(colleague).post(
        f"/api/series/{slug}/events/", {"event": event.slug}, format="json"
    )
    assert answer.status_code == 200, answer.content
    refused = client_for(outsider).post(
        "/api/series/", {"name": "Not mine", "points": POINTS, "organisation": org}, format="json"
    )
    assert refused.status_code == 403
    unknown = client_for(owner).post(
        "/api/series/", {"name": "X", "points": POINTS, "organisation": "nope"}, format="json"
    )
    assert unknown.status_code == 400 and unknown.json()["field"] == "organisation"
