from datetime import timedelta

import pytest
from django.utils import timezone

from config.errors import Forbidden, ServiceError
from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    organiser_of,
)
from tournaments import services
from tournaments.models import AuditEntry, Tournament
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def _fields(**overrides):  # type: ignore[no-untyped-def]
    fields = {
        "name": "Spring Open",
        "game": "boba",
        "mode": "playmaker",
        "format_key": "playmaker",
        "starts_at": timezone.now() + timedelta(days=10),
        "time_zone": "Europe/Paris",
        "capacity": 64,
    }
    fields.update(overrides)
    return fields


def test_an_organiser_creates_an_event_and_becomes_its_organiser() -> None:
    organiser = OrganiserFactory()
    event = services.event_create(actor=organiser, **_fields())
    assert event.status == "draft"
    assert list(event.organisers.all()) == [organiser]
    assert event.slug == "spring-open"
    assert AuditEntry.objects.filter(tournament=event, action="event.created").exists()


def test_slugs_stay_unique() -> None:
    organiser = OrganiserFactory()
    a = services.event_create(actor=organiser, **_fields())
    b = services.event_create(actor=organiser, **_fields())
    assert a.slug != b.slug


def test_a_player_cannot_create_events() -> None:
    with pytest.raises(Forbidden):
        services.event_create(actor=UserFactory(), **_fields())
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"mode": "blitz"}, "mode"),
        ({"format_key": "nonsense"}, "format_key"),
        ({"mode": "rookie", "format_key": "playmaker"}, "format_key"),
        ({"time_zone": "Mars/Olympus"}, "time_zone"),
        ({"match_structure": "bo9"}, "match_structure"),
        ({"capacity": 1}, "capacity"),
        (
            {
                "registration_opens_at": timezone.now() + timedelta(days=2),
                "registration_closes_at": timezone.now() + timedelta(days=1),
            },
            "registration_closes_at",
        ),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_event_input_names_the_field_and_saves_nothing(overrides, field) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as excinfo:
        services.event_create(actor=OrganiserFactory(), **_fields(**overrides))
    assert excinfo.value.field == field
    assert not Tournament.objects.exists()


def test_every_boba_format_preset_can_be_chosen_with_its_mode() -> None:
    from engine.games import get_game

    organiser = OrganiserFactory()
    for fmt in get_game("boba").formats():
        event = services.event_create(
            actor=organiser, **_fields(name=fmt.label, mode=fmt.mode, format_key=fmt.key)
        )
        assert event.format_label == fmt.label


def test_the_mode_can_change_while_registration_is_open_until_a_decklist_is_in() -> None:
    event = TournamentFactory(mode="rookie", format_key="rookie")
    assert event.status == "registration_open"
    services.event_update(
        actor=organiser_of(event), tournament=event, mode="playmaker", format_key="playmaker"
    )
    event.refresh_from_db()
    assert (event.mode, event.format_key) == ("playmaker", "playmaker")
    from decks.models import Decklist

    Decklist.objects.create(registration=RegistrationFactory(tournament=event))
    with pytest.raises(ServiceError) as excinfo:
        services.event_update(
            actor=organiser_of(event), tournament=event, format_key="spec_playmaker"
        )
    assert excinfo.value.field == "format_key" and "1 player" in excinfo.value.message


def test_the_format_cannot_change_once_the_event_runs() -> None:
    event = TournamentFactory(status=EventStatus.RUNNING)
    with pytest.raises(ServiceError) as excinfo:
        services.event_update(
            actor=organiser_of(event), tournament=event, format_key="spec_playmaker"
        )
    assert excinfo.value.field == "format_key" and "started" in excinfo.value.message


def test_updates_are_audited_with_old_and_new_values() -> None:
    event = TournamentFactory()
    services.event_update(actor=organiser_of(event), tournament=event, venue="Main Hall")
    entry = AuditEntry.objects.get(action="event.updated")
    assert entry.data["venue"] == {"from": "Test Hall", "to": "Main Hall"}


def test_transition_is_checked_and_audited() -> None:
    event = TournamentFactory(status="draft")
    organiser = organiser_of(event)
    services.event_transition(actor=organiser, tournament=event, to="registration_open")
    with pytest.raises(ServiceError) as excinfo:
        services.event_transition(actor=organiser, tournament=event, to="finished")
    assert excinfo.value.code == "invalid_transition" and excinfo.value.field == "status"
    event.refresh_from_db()
    assert event.status == "registration_open"
    assert AuditEntry.objects.filter(action="event.status", data__to="registration_open").exists()


def test_judges_are_assigned_by_the_organiser() -> None:
    from tournaments.permissions import is_judge_of

    event = TournamentFactory()
    judge = UserFactory()
    services.event_set_judge(actor=organiser_of(event), tournament=event, user=judge, assigned=True)
    assert is_judge_of(judge, event)
    with pytest.raises(Forbidden):
        services.event_set_judge(actor=judge, tournament=event, user=UserFactory(), assigned=True)
