"""Finding 6: pages offer only what can be done now and say, in words, why not the rest; the
services refuse with the same sentence, naming the field (tournaments.status decides both)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from config.errors import ServiceError
from matches import services as match_services
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, logged_in
from tests.scenarios import client_for, running_event
from tournaments import services
from tournaments.status import (
    TRANSITIONS,
    EventFacts,
    EventStatus,
    RoundFacts,
    players_refusal,
    registration_refusal,
    top_cut_refusal,
    transition_offers,
    transition_refusal,
)

MID_ROUND = RoundFacts(number=4, stage="swiss", status="published", not_final=12)


# --- the pure rules -------------------------------------------------------------------------


def test_finishing_mid_round_says_which_round_and_how_many_matches() -> None:
    facts = EventFacts(status="running", latest_round=MID_ROUND)
    refusal = transition_refusal(facts, "finished")
    assert refusal is not None and refusal.code == "round_unfinished"
    assert refusal.render() == "Finish round 4 first: 12 matches are not final."
    one = EventFacts(status="running", latest_round=RoundFacts(4, "swiss", "published", 1))
    assert transition_refusal(one, "finished").render().endswith("1 match is not final.")  # type: ignore[union-attr]
    paired = EventFacts(status="running", latest_round=RoundFacts(5, "swiss", "paired"))
    assert "not published" in transition_refusal(paired, "finished").render()  # type: ignore[union-attr]
    done = EventFacts(status="running", latest_round=RoundFacts(4, "swiss", "finished"))
    assert transition_refusal(done, "finished") is None


def test_the_top_cut_is_never_a_status_to_move_to_and_says_why_it_cannot_start() -> None:
    facts = EventFacts(status="running", latest_round=MID_ROUND, top_cut_size=8)
    assert EventStatus.TOP_CUT not in [target for target, _ in transition_offers(facts)]
    assert transition_refusal(facts, "top_cut").render().startswith("Finish round 4 first")  # type: ignore[union-attr]
    left = EventFacts(
        status="running",
        latest_round=RoundFacts(4, "swiss", "finished"),
        top_cut_size=8,
        swiss_rounds_left=2,
    )
    assert top_cut_refusal(left).render() == (  # type: ignore[union-attr]
        "2 Swiss rounds are still planned: pair them first."
    )
    ready = EventFacts(
        status="running", latest_round=RoundFacts(6, "swiss", "finished"), top_cut_size=8
    )
    assert top_cut_refusal(ready) is None
    assert transition_refusal(ready, "top_cut").code == "invalid_transition"  # type: ignore[union-attr]


def test_players_join_and_check_in_only_while_the_event_takes_players() -> None:
    for status in ("registration_open", "registration_closed", "running"):
        assert players_refusal(status) is None
    assert players_refusal("finished").render() == "The event is over."  # type: ignore[union-attr]
    assert players_refusal("top_cut") is not None and players_refusal("draft") is not None


@given(
    status=st.sampled_from(list(EventStatus)),
    target=st.one_of(st.sampled_from([s.value for s in EventStatus]), st.text(max_size=12)),
    round_status=st.sampled_from([None, "pairing", "paired", "published", "finished"]),
    not_final=st.integers(min_value=0, max_value=2048),
    top_cut=st.sampled_from([0, 4, 8]),
    left=st.integers(min_value=0, max_value=3),
)
def test_an_allowed_move_is_one_the_machine_allows_and_no_round_blocks(
    status: EventStatus,
    target: str,
    round_status: str | None,
    not_final: int,
    top_cut: int,
    left: int,
) -> None:
    latest = RoundFacts(3, "swiss", round_status, not_final) if round_status else None
    facts = EventFacts(status.value, latest, top_cut, left)
    refusal = transition_refusal(facts, target)
    if refusal is None:
        wanted = EventStatus(target)
        assert wanted in TRANSITIONS[status] and wanted != EventStatus.TOP_CUT
        if wanted == EventStatus.FINISHED:
            assert latest is None or latest.status == "finished"
    else:
        assert refusal.render()  # always a sentence
    offered = [t for t, why in transition_offers(facts) if why is None]
    assert all(transition_refusal(facts, t.value) is None for t in offered)


# --- the dashboard, the event page and the API ----------------------------------------------


def _mid_round() -> tuple[Any, Any]:
    event, organiser, _regs = running_event(8)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    match_services.round_publish(actor=organiser, round_=round_)
    return event, organiser


@pytest.mark.django_db
def test_the_dashboard_mid_round_offers_no_finish_or_top_cut_and_says_why() -> None:
    event, organiser = _mid_round()
    event.top_cut_size = 4
    event.save()
    page = logged_in(organiser).get(reverse("event_dashboard", args=[event.slug])).content.decode()
    assert "Move to: Finished" not in page and "Move to: Top cut" not in page
    assert "Finish round 1 first: 4 matches are not final." in page
    assert "Not possible yet" in page


@pytest.mark.django_db
def test_finishing_mid_round_through_the_api_is_a_sentence_naming_the_field() -> None:
    event, organiser = _mid_round()
    url = f"/api/events/{event.slug}/transition/"
    response = client_for(organiser).post(url, {"to": "finished"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "status" and body["code"] == "round_unfinished"
    assert body["detail"] == "status: Finish round 1 first: 4 matches are not final."
    top_cut = client_for(organiser).post(url, {"to": "top_cut"}, format="json").json()
    assert top_cut["field"] == "status" and top_cut["detail"].startswith("status: ")
    unknown = client_for(organiser).post(url, {"to": "party"}, format="json").json()
    assert "to" in unknown  # not a status at all: the serializer names the field
    event.refresh_from_db()
    assert event.status == "running"


@pytest.mark.django_db
def test_after_the_event_no_walk_ins_or_phone_check_in_are_offered() -> None:
    event = TournamentFactory(status="finished", player_check_in_open=False)
    RegistrationFactory(tournament=event)
    from tests.factories import organiser_of

    organiser = organiser_of(event)
    page = logged_in(organiser).get(reverse("event_dashboard", args=[event.slug])).content.decode()
    assert "Add walk-in</button>" not in page and "Open check-in from phones" not in page
    assert "Walk-ins cannot be added now: The event is over." in page
    assert "Check-in desk" not in page
    with pytest.raises(ServiceError) as walk_in:
        services.registration_add_walk_in(actor=organiser, tournament=event, name="Late Larry")
    assert walk_in.value.field == "tournament" and "The event is over." in walk_in.value.message
    with pytest.raises(ServiceError) as phones:
        services.event_set_player_check_in(actor=organiser, tournament=event, open=True)
    assert phones.value.field == "player_check_in_open"
    assert phones.value.message.startswith("player_check_in_open: ")


@pytest.mark.django_db
def test_anonymous_visitors_are_not_asked_to_log_in_to_register_for_a_closed_event() -> None:
    closed = TournamentFactory(status="registration_closed")
    page = Client().get(f"/events/{closed.slug}/").content.decode()
    assert "Log in to register" not in page and "Registration has closed." in page
    running = TournamentFactory(status="running")
    page = Client().get(f"/events/{running.slug}/").content.decode()
    assert "Log in to register" not in page and "the event is under way" in page
    open_ = TournamentFactory(status="registration_open")
    assert "Log in to register" in Client().get(f"/events/{open_.slug}/").content.decode()


@pytest.mark.django_db
def test_a_player_is_not_offered_check_in_once_the_event_is_over() -> None:
    player = UserFactory()
    event = TournamentFactory(status="finished", player_check_in_open=True)
    RegistrationFactory(tournament=event, player=player)
    page = logged_in(player).get(f"/events/{event.slug}/").content.decode()
    assert ">Check in</button>" not in page
    live = TournamentFactory(status="registration_closed", player_check_in_open=True)
    RegistrationFactory(tournament=live, player=player)
    assert ">Check in</button>" in logged_in(player).get(f"/events/{live.slug}/").content.decode()


@pytest.mark.django_db
def test_registration_refusals_match_the_event_page(api_client: Any) -> None:
    from django.utils import timezone

    event = TournamentFactory(status="registration_closed")
    facts = EventFacts(status=event.status)
    assert registration_refusal(facts, timezone.now()).render() == "Registration has closed."  # type: ignore[union-attr]
    api_client.force_authenticate(UserFactory())
    response = api_client.post(f"/api/events/{event.slug}/register/")
    assert response.status_code == 400 and response.json()["field"] == "tournament"
    assert "Registration has closed." in response.json()["detail"]


@pytest.mark.django_db
def test_the_check_in_desk_after_the_event_says_why_and_offers_no_check_in() -> None:
    from tests.factories import organiser_of

    event = TournamentFactory(status="finished")
    RegistrationFactory(tournament=event)
    page = logged_in(organiser_of(event)).get(reverse("event_check_in", args=[event.slug]))
    html = page.content.decode()
    assert "Check-in is closed: The event is over." in html
    assert 'name="code"' not in html and 'name="one"' not in html and 'name="bulk"' not in html


@pytest.mark.django_db
def test_a_stale_dashboard_form_is_answered_in_words_not_with_a_raw_status() -> None:
    event, organiser = _mid_round()
    response = logged_in(organiser).post(
        reverse("event_transition", args=[event.slug]), {"to": "finished"}, follow=True
    )
    page = response.content.decode()
    assert "Finish round 1 first: 4 matches are not final." in page
    assert "status: " not in page
    event.refresh_from_db()
    assert event.status == "running"
