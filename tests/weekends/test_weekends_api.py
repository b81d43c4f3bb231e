"""Weekends through the REST API (issue 22, "Weekends"): a main event and two side events with
one badge check-in, an LCQ launched from a template, one entry per deck, permissions, and bad
input named by field."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from decks.models import EventCatalog
from decks.services import decklist_submit, demo_event_catalog
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournaments import services as event_services
from tournaments import stages as stage_rules
from tournaments.models import AuditEntry, Registration, Tournament
from tournaments.status import EventStatus
from weekends.models import Weekend, WeekendEvent

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def make_weekend(client: APIClient, name: str = "Nationals Weekend") -> dict[str, Any]:
    response = client.post(
        "/api/weekends/",
        {"name": name, "venue": "Expo Hall", "starts_on": "2026-12-04", "ends_on": "2026-12-06"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body: dict[str, Any] = response.json()
    return body


def add(client: APIClient, weekend: str, event: Tournament, kind: str) -> Any:
    return client.post(
        f"/api/weekends/{weekend}/events/", {"event": event.slug, "kind": kind}, format="json"
    )


@pytest.fixture
def organiser() -> Any:
    return OrganiserFactory()


@pytest.fixture
def weekend_of_three(organiser: Any) -> tuple[str, list[Tournament]]:
    """A weekend with a main event and two side events, all taking check-ins."""
    client = client_for(organiser)
    slug = make_weekend(client)["slug"]
    main = TournamentFactory(name="Main", organisers=[organiser])
    side = TournamentFactory(
        name="Side", organisers=[organiser], status=EventStatus.REGISTRATION_CLOSED.value
    )
    lcq = TournamentFactory(name="LCQ 1", organisers=[organiser])
    for event, kind in ((main, "main"), (side, "side"), (lcq, "lcq")):
        assert add(client, slug, event, kind).status_code == 201
    return slug, [main, side, lcq]


def test_one_badge_checks_a_player_into_all_three_weekend_events(
    organiser: Any, weekend_of_three: tuple[str, list[Tournament]]
) -> None:
    slug, events = weekend_of_three
    player = UserFactory()
    registrations = [RegistrationFactory(tournament=e, player=player) for e in events]
    other = RegistrationFactory(tournament=events[0])  # someone else: untouched
    client = client_for(organiser)
    # The QR code's text: a link that carries the player id (as the event desk reads it).
    badge = f"https://battledesk.example/p/{player.player_id.lower()}"
    response = client.post(f"/api/weekends/{slug}/check-in/", {"code": badge}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["player_id"] == player.player_id and body["checked_in"] == 3
    assert {e["event"]: e["outcome"] for e in body["events"]} == {
        e.slug: "checked_in" for e in events
    }
    for registration in registrations:
        registration.refresh_from_db()
        assert registration.checked_in
        assert (
            AuditEntry.objects.filter(
                tournament=registration.tournament,
                registration=registration,
                action="registration.checked_in",
            ).count()
            == 1
        )
    other.refresh_from_db()
    assert not other.checked_in
    again = client.post(f"/api/weekends/{slug}/check-in/", {"code": badge}, format="json").json()
    assert [e["outcome"] for e in again["events"]] == ["already"] * 3


def test_the_badge_skips_events_whose_check_in_is_not_open_and_says_why(
    organiser: Any, weekend_of_three: tuple[str, list[Tournament]]
) -> None:
    slug, events = weekend_of_three
    Tournament.objects.filter(pk=events[2].pk).update(status=EventStatus.DRAFT.value)
    player = UserFactory()
    for event in events:
        RegistrationFactory(tournament=event, player=player)
    body = (
        client_for(organiser)
        .post(f"/api/weekends/{slug}/check-in/", {"code": player.player_id}, format="json")
        .json()
    )
    outcomes = {e["event"]: (e["outcome"], e["code"]) for e in body["events"]}
    assert outcomes[events[2].slug] == ("skipped", "check_in_closed")
    assert outcomes[events[0].slug][0] == outcomes[events[1].slug][0] == "checked_in"
    assert not Registration.objects.get(tournament=events[2], player=player).checked_in


def test_only_check_in_staff_run_the_weekend_desk(
    weekend_of_three: tuple[str, list[Tournament]],
) -> None:
    slug, events = weekend_of_three
    player = UserFactory()
    RegistrationFactory(tournament=events[0], player=player)
    own = client_for(player).post(
        f"/api/weekends/{slug}/check-in/", {"code": player.player_id}, format="json"
    )
    assert own.status_code == 403
    anonymous = APIClient().post(
        f"/api/weekends/{slug}/check-in/", {"code": player.player_id}, format="json"
    )
    assert anonymous.status_code in (401, 403)
    assert not Registration.objects.get(player=player).checked_in


def test_an_lcq_launched_from_a_template_copies_settings_staff_and_structure_only(
    organiser: Any, weekend_of_three: tuple[str, list[Tournament]], legal_list: str
) -> None:
    slug, _events = weekend_of_three
    swiss, cut = stage_rules.legacy_stages(4)
    main = event_services.event_create(
        actor=organiser,
        name="Championship",
        starts_at=timezone.now() + timedelta(days=3),
        mode="playmaker",
        format_key="playmaker",
        venue="Hall B",
        round_minutes=40,
        capacity=64,
        top_cut_size=4,
        judges_may_check_in=True,
        hide_standings_before_final=True,
        require_legal_decklist=False,
        description="Main event rules",
        stages=stage_rules.stages_to_json([replace(swiss, rounds=5), cut]),
    )
    assert add(client_for(organiser), slug, main, "side").status_code == 201
    assert main.stages.get(number=1).rounds == 5
    co_organiser, judge, head = OrganiserFactory(), UserFactory(), UserFactory()
    event_services.event_add_organiser(actor=organiser, tournament=main, user=co_organiser)
    event_services.event_set_judge(actor=organiser, tournament=main, user=judge, assigned=True)
    event_services.event_set_judge(
        actor=organiser, tournament=main, user=head, assigned=True, head=True
    )
    demo_event_catalog(event=main)
    registration = RegistrationFactory(tournament=main)
    decklist_submit(actor=organiser, registration=registration, source=legal_list)
    starts = timezone.now() + timedelta(days=3, hours=2)
    response = client_for(organiser).post(
        f"/api/weekends/{slug}/side-events/",
        {"template": main.slug, "name": "LCQ 2", "starts_at": starts.isoformat()},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["kind"] == "lcq" and body["template"] == main.slug and body["name"] == "LCQ 2"
    new = Tournament.objects.get(slug=body["slug"])
    # Copied: the settings, the format and structure, venue and capacity, staff, catalog.
    for field in (
        "game",
        "mode",
        "format_key",
        "match_structure",
        "venue",
        "capacity",
        "round_minutes",
        "top_cut_size",
        "judges_may_check_in",
        "hide_standings_before_final",
        "clock_mode",
        "tiebreaker_order",
    ):
        assert getattr(new, field) == getattr(main, field), field
    assert set(new.organisers.all()) == {organiser, co_organiser}
    assert set(new.judges.all()) == {judge, head} and new.head_judge == head
    assert [s.to_json() for s in new.stages.all()] == [s.to_json() for s in main.stages.all()]
    assert EventCatalog.objects.get(tournament=new).catalog_id == (
        EventCatalog.objects.get(tournament=main).catalog_id
    )
    # Named and timed by the request; not copied: players, rounds, lists, the description.
    assert new.name == "LCQ 2" and new.starts_at == starts
    assert new.status == EventStatus.DRAFT.value
    assert new.registrations.count() == 0 and not new.rounds.exists()
    assert new.description == "" and new.pk != main.pk
    entry = WeekendEvent.objects.get(tournament=new)
    assert entry.weekend.slug == slug and entry.template == main and entry.kind == "lcq"
    assert AuditEntry.objects.filter(tournament=new, action="event.copied_from_template").exists()


def test_a_decklist_entered_by_two_players_in_one_weekend_is_flagged(
    organiser: Any, weekend_of_three: tuple[str, list[Tournament]], legal_list: str
) -> None:
    slug, events = weekend_of_three
    main, side, lcq = events
    first, second, third = (RegistrationFactory(tournament=e) for e in (main, side, lcq))
    same_player_twice = RegistrationFactory(tournament=lcq, player=first.player)
    # The second player typed the same cards in another order: the canonical list is the same.
    lines = legal_list.strip().splitlines()
    reordered = "\n".join([lines[0], lines[2], lines[1], *lines[3:]])
    assert reordered != legal_list.strip()
    decklist_submit(actor=organiser, registration=first, source=legal_list)
    decklist_submit(actor=organiser, registration=second, source=reordered)
    decklist_submit(actor=organiser, registration=same_player_twice, source=legal_list)
    decklist_submit(actor=organiser, registration=third, source=_another_list(legal_list))
    body = client_for(organiser).get(f"/api/weekends/{slug}/").json()
    assert len(body["deck_conflicts"]) == 1
    entries = body["deck_conflicts"][0]["entries"]
    assert {e["registration"] for e in entries} == {first.pk, second.pk, same_player_twice.pk}
    assert {e["event"] for e in entries} == {main.slug, side.slug, lcq.slug}
    # The public sees the schedule, never who shares a deck.
    assert APIClient().get(f"/api/weekends/{slug}/").json()["deck_conflicts"] is None
    # The organiser is warned on the event's dashboard and round control, and the weekend page.
    from django.test import Client

    web = Client()
    web.force_login(organiser)
    for url in (
        f"/events/{side.slug}/manage/",
        f"/events/{side.slug}/manage/rounds/",
        f"/weekends/{slug}/",
    ):
        page = web.get(url).content.decode()
        assert "One entry per deck" in page and first.player.player_id in page, url


def _another_list(legal_list: str) -> str:
    """The same list with one Hot Dog line's count moved to another Hot Dog: other cards."""
    lines = legal_list.strip().splitlines()
    return "\n".join(lines[:-1])


def test_permissions_on_weekends_and_their_events(
    organiser: Any, weekend_of_three: tuple[str, list[Tournament]]
) -> None:
    slug, events = weekend_of_three
    player = UserFactory()
    assert (
        client_for(player)
        .post(
            "/api/weekends/",
            {"name": "Mine", "starts_on": "2026-12-04", "ends_on": "2026-12-04"},
            format="json",
        )
        .status_code
        == 403
    )
    # Another organiser's event cannot be put into this weekend, nor this weekend's into theirs.
    stranger = OrganiserFactory()
    theirs = TournamentFactory(organisers=[stranger])
    assert add(client_for(organiser), slug, theirs, "side").status_code == 403
    assert add(client_for(stranger), slug, theirs, "side").status_code == 403
    # An event is in one weekend at most.
    other = make_weekend(client_for(organiser), "Other weekend")["slug"]
    taken = add(client_for(organiser), other, events[1], "side")
    assert taken.status_code == 409 and taken.json()["field"] == "event"
    # One main event per weekend.
    extra = TournamentFactory(organisers=[organiser])
    second_main = add(client_for(organiser), slug, extra, "main")
    assert second_main.status_code == 409 and second_main.json()["field"] == "kind"
    # Only the template's organisers launch an event like it.
    judge = UserFactory(is_organiser=True)
    events[0].judges.add(judge)
    launched = client_for(judge).post(
        f"/api/weekends/{slug}/side-events/",
        {"template": events[0].slug, "name": "LCQ", "starts_at": "2026-12-05T10:00:00Z"},
        format="json",
    )
    assert launched.status_code == 403
    assert Weekend.objects.get(slug=slug).entries.count() == 3
    # Removing an event: the organisers of both.
    assert (
        client_for(stranger).delete(f"/api/weekends/{slug}/events/{events[2].slug}/").status_code
        == 403
    )
    removed = client_for(organiser).delete(f"/api/weekends/{slug}/events/{events[2].slug}/")
    assert removed.status_code == 204
    assert not WeekendEvent.objects.filter(tournament=events[2]).exists()


def test_bad_input_is_a_400_naming_the_field(
    organiser: Any, weekend_of_three: tuple[str, list[Tournament]]
) -> None:
    slug, events = weekend_of_three
    client = client_for(organiser)
    before = Tournament.objects.count(), Weekend.objects.count()

    def field_of(response: Any) -> set[str]:
        assert response.status_code == 400, (response.status_code, response.json())
        return set(response.json())

    assert "name" in field_of(
        client.post("/api/weekends/", {"starts_on": "2026-12-04", "ends_on": "2026-12-04"})
    )
    assert "ends_on" in field_of(
        client.post(
            "/api/weekends/",
            {"name": "Backwards", "starts_on": "2026-12-04", "ends_on": "2026-12-01"},
            format="json",
        )
    )
    assert "starts_on" in field_of(
        client.post(
            "/api/weekends/",
            {"name": "Junk", "starts_on": "soon", "ends_on": "2026-12-01"},
            format="json",
        )
    )
    assert "event" in field_of(
        client.post(f"/api/weekends/{slug}/events/", {"event": "no-such-event"}, format="json")
    )
    assert "kind" in field_of(
        client.post(
            f"/api/weekends/{slug}/events/",
            {"event": events[0].slug, "kind": "party"},
            format="json",
        )
    )
    assert "code" in field_of(
        client.post(f"/api/weekends/{slug}/check-in/", {"code": "ZZZZZZ"}, format="json")
    )
    assert "code" in field_of(client.post(f"/api/weekends/{slug}/check-in/", {}, format="json"))
    assert "starts_at" in field_of(
        client.post(
            f"/api/weekends/{slug}/side-events/",
            {"template": events[0].slug, "name": "LCQ"},
            format="json",
        )
    )
    outsider = TournamentFactory(organisers=[organiser])
    assert "template" in field_of(
        client.post(
            f"/api/weekends/{slug}/side-events/",
            {"template": outsider.slug, "name": "LCQ", "starts_at": "2026-12-05T10:00:00Z"},
            format="json",
        )
    )
    assert "limit" in field_of(client.get("/api/weekends/?limit=abc"))
    assert (Tournament.objects.count(), Weekend.objects.count()) == (before[0] + 1, before[1])


def test_the_weekend_list_is_paginated_and_the_detail_lists_the_schedule(
    organiser: Any, weekend_of_three: tuple[str, list[Tournament]]
) -> None:
    slug, events = weekend_of_three
    make_weekend(client_for(organiser), "Second weekend")
    page = APIClient().get("/api/weekends/?limit=1").json()
    assert page["count"] == 2 and len(page["results"]) == 1 and page["next"]
    detail = APIClient().get(f"/api/weekends/{slug}/").json()
    assert [e["slug"] for e in detail["events"]] == [e.slug for e in events]
    assert [e["kind"] for e in detail["events"]] == ["main", "side", "lcq"]
    assert detail["events"][0]["links"]["standings"] == f"/events/{events[0].slug}/standings/"
    listed = APIClient().get(f"/api/weekends/{slug}/events/?limit=2").json()
    assert listed["count"] == 3 and len(listed["results"]) == 2
