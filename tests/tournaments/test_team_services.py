"""Team services (docs/teams.md, event-structures: Teams): a team's name is one line of 1 to
80 visible characters, and no two teams of an event share one (letter case aside)."""

from __future__ import annotations

import pytest

from config.errors import ServiceError
from tests.factories import OrganiserFactory, RegistrationFactory, UserFactory
from tournaments import services
from tournaments.models import Registration, Team, Tournament
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def _event() -> Tournament:
    event = services.event_create(
        actor=OrganiserFactory(),
        name="Apex night",
        game="boba",
        mode="rookie",
        format_key="apex_madness",
        match_structure="bo3",
        starts_at="2026-12-01T10:00:00Z",
        top_cut_size=0,
        require_legal_decklist=False,
        team_rules={"preset": "apex_madness"},
    )
    Tournament.objects.filter(pk=event.pk).update(status=EventStatus.REGISTRATION_OPEN.value)
    event.refresh_from_db()
    return event


def _roster(event: Tournament) -> list[Registration]:
    return [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(4)]


def _team(event: Tournament, name: str) -> Team:
    roster = _roster(event)
    return services.team_create(
        actor=event.organisers.get(),
        tournament=event,
        name=name,
        members=[r.pk for r in roster],
        head_coach=roster[0].pk,
    )


def test_structures_teams_a_name_is_kept_on_one_line() -> None:
    event = _event()
    assert _team(event, "  The   Hot\nDogs ").name == "The Hot Dogs"


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_structures_teams_a_name_of_1_to_80_characters(name: str) -> None:
    event = _event()
    with pytest.raises(ServiceError) as refused:
        _team(event, name)
    assert refused.value.field == "name"
    assert not Team.objects.filter(tournament=event).exists()


def test_structures_teams_two_teams_of_an_event_never_share_a_name() -> None:
    event = _event()
    first = _team(event, "Builders")
    with pytest.raises(ServiceError) as refused:
        _team(event, "builders")
    assert refused.value.field == "name" and "already has this name" in refused.value.message
    second = _team(event, "Breakers")
    organiser = event.organisers.get()
    with pytest.raises(ServiceError) as renamed:
        services.team_update(actor=organiser, team=second, name="BUILDERS")
    assert renamed.value.field == "name"
    # A team keeps its own name (in another case too) and takes a free one.
    assert services.team_update(actor=organiser, team=first, name="BUILDERS").name == "BUILDERS"
    assert services.team_update(actor=organiser, team=second, name=" New  Name ").name == (
        "New Name"
    )
    assert _team(_event(), "Builders").name == "Builders"  # another event's teams do not count
