"""The stages on the pages (event-structures: Stages): the event form's presets fill the stage
list, the dashboard and round control show the stages as a timeline whose start button needs a
second confirmation, and the bracket page draws a double elimination's sides and a round
robin's table."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches import services
from tests.factories import OrganiserFactory, RegistrationFactory, UserFactory, logged_in
from tournaments import stages as stage_rules
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Preset Open",
    "game": "boba",
    "mode": "playmaker",
    "format_key": "playmaker",
    "match_structure": "bo1",
    "starts_at": "2030-01-01T10:00",
    "time_zone": "UTC",
    "round_minutes": 50,
    "top_cut_size": 8,
}


@pytest.mark.parametrize(
    "preset", ["swiss_top_8", "day_two", "round_robin_top_8", "double_elimination"]
)
def test_the_event_form_fills_the_stage_list_from_a_preset(preset: str) -> None:
    client = logged_in(OrganiserFactory())
    response = client.post("/events/new/", {**FORM, "stage_preset": preset})
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Tournament.objects.get()
    expected = stage_rules.PRESETS[preset]()
    assert tuple(row.to_rule() for row in event.stages.order_by("number")) == expected
    edit = client.get(f"/events/{event.slug}/edit/").content.decode()
    assert expected[-1].name in edit  # the list is shown back in the form


def test_a_bad_stage_list_in_the_form_is_shown_on_the_field() -> None:
    client = logged_in(OrganiserFactory())
    bad = json.dumps([{"kind": "swiss"}, {"kind": "single_elimination", "entry": {"top": 8}}])
    response = client.post("/events/new/", {**FORM, "stages": bad})
    assert response.status_code == 200
    assert "stages[1].entry.from" in response.content.decode()
    assert not Tournament.objects.exists()


def test_flights_split_the_registered_players_when_the_form_saves() -> None:
    organiser = OrganiserFactory()
    client = logged_in(organiser)
    assert client.post("/events/new/", FORM).status_code == 302
    event = Tournament.objects.get()
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(6)]
    refused = client.post(f"/events/{event.slug}/edit/", {**FORM, "stage_preset": "nothing"})
    assert refused.status_code == 200
    saved = client.post(f"/events/{event.slug}/edit/", {**FORM, "stage_preset": "flights"})
    assert saved.status_code == 302
    flight_b = event.stages.get(number=2)
    assert flight_b.entry == {"players": [r.pk for r in regs[3:]]}


def _round_robin_event(players: int) -> tuple[Tournament, Any]:
    organiser = OrganiserFactory()
    stages = stage_rules.stages_to_json(stage_rules.preset_round_robin_top_cut(2))
    event = services_event(organiser, stages)
    for _ in range(players):
        RegistrationFactory(tournament=event, player=UserFactory())
    from tournaments import services as event_services

    event_services.event_transition(actor=organiser, tournament=event, to="registration_closed")
    event_services.event_transition(actor=organiser, tournament=event, to="running")
    return event, organiser


def services_event(organiser: Any, stages: list[dict[str, Any]]) -> Tournament:
    from tournaments import services as event_services

    event = event_services.event_create(
        actor=organiser,
        name="Timeline Open",
        mode="playmaker",
        format_key="playmaker",
        match_structure="bo1",
        starts_at="2030-01-01T10:00Z",
        stages=stages,
    )
    event_services.event_transition(actor=organiser, tournament=event, to="registration_open")
    return event


def test_the_timeline_starts_the_next_stage_only_with_the_second_confirmation() -> None:
    event, organiser = _round_robin_event(3)
    client = logged_in(organiser)
    for _ in range(3):
        round_ = services.round_pair(actor=organiser, tournament=event)
        round_ = services.round_publish(actor=organiser, round_=round_)
        for m in round_.matches.filter(b__isnull=False):
            services.match_report(actor=organiser, match=m, games=[1, 0, 0])
    dashboard = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Round robin" in dashboard and "Top 2" in dashboard
    assert 'name="confirm"' in dashboard
    control = client.get(f"/events/{event.slug}/manage/rounds/").content.decode()
    assert "Start Top 2" in control
    url = f"/events/{event.slug}/manage/stages/2/start/"
    client.post(url, {})
    assert event.stages.get(number=2).status == "pending"
    client.post(url, {"confirm": "yes"})
    assert event.stages.get(number=2).status == "running"
    page = client.get(f"/events/{event.slug}/bracket/").content.decode()
    assert "Round robin" in page and "1\u20130" in page  # the table of results


def test_the_bracket_page_draws_a_double_elimination_by_side() -> None:
    organiser = OrganiserFactory()
    event = services_event(
        organiser, stage_rules.stages_to_json(stage_rules.preset_double_elimination())
    )
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(4)]
    from tournaments import services as event_services

    event_services.event_transition(actor=organiser, tournament=event, to="registration_closed")
    event_services.event_transition(actor=organiser, tournament=event, to="running")
    while event.stages.get(number=1).status == "running":
        round_ = services.round_pair(actor=organiser, tournament=event)
        round_ = services.round_publish(actor=organiser, round_=round_)
        for m in round_.matches.filter(b__isnull=False):
            services.match_report(actor=organiser, match=m, games=[1, 0, 0])
    page = logged_in(UserFactory()).get(f"/events/{event.slug}/bracket/").content.decode()
    for words in ("Winners&#x27;", "Losers&#x27;", "Grand final", "Champion", "<svg"):
        assert words in page, words
    assert regs[0].name in page
