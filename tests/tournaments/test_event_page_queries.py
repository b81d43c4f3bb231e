"""Issue 19: the event page's reads, compiled once per process (config.prepared) or written as
SQL once, answer exactly what the ORM's querysets they replace answer."""

from __future__ import annotations

import pytest
from django.db.models import Count

from matches import selectors as match_selectors
from tests.factories import OrganiserFactory, UserFactory
from tests.scenarios import RunningTopCut
from tournaments import jsonld, selectors

pytestmark = pytest.mark.django_db


def test_rounds_per_stage_counts_every_round_of_each_stage_as_the_orm_does(
    running_top_cut: RunningTopCut,
) -> None:
    event = running_top_cut.event
    orm = dict(
        event.rounds.values("stage_number").annotate(n=Count("id")).values_list("stage_number", "n")
    )
    assert selectors.rounds_per_stage(event) == orm
    assert sum(orm.values()) == len(running_top_cut.swiss) + 1
    assert len(orm) == 2  # the Swiss and the cut


def test_the_rounds_a_reader_sees_are_the_orms_for_staff_and_players(
    running_top_cut: RunningTopCut,
) -> None:
    scene = running_top_cut
    event = scene.event
    player = scene.registrations[0].player
    for reader in (scene.organiser, player, UserFactory()):
        expected = list(match_selectors.rounds_visible(reader, event))
        got = match_selectors.rounds_visible_list(reader, event)
        assert [(r.pk, r.status) for r in got] == [(r.pk, r.status) for r in expected]
        assert all(r.tournament is event for r in got)


def test_a_readers_registration_and_the_stages_are_the_orms(
    running_top_cut: RunningTopCut,
) -> None:
    scene = running_top_cut
    event = scene.event
    for registration in scene.registrations[:3]:
        found = selectors.registration_for(user=registration.player, tournament=event)
        assert found is not None and found.pk == registration.pk
        assert found.tournament is event
    assert selectors.registration_for(user=UserFactory(), tournament=event) is None
    rows = selectors.stage_rows(event)
    assert [r.pk for r in rows] == [r.pk for r in event.stages.order_by("number")]
    assert len(rows) == 2 and all(r.tournament is event for r in rows)


def test_the_json_ld_names_the_organisers_the_orm_names() -> None:
    from tests.factories import TournamentFactory

    first, second = OrganiserFactory(display_name="Zed"), OrganiserFactory(display_name="Amy")
    event = TournamentFactory(organisers=[first, second])
    names = [person["name"] for person in jsonld.event_jsonld(event, "https://x.test")["organizer"]]
    assert names == [u.public_name for u in event.organisers.all()] == ["Amy", "Zed"]
