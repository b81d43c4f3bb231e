"""Issue 19: the event page's reads, compiled once per process (config.prepared) or written as
SQL once, answer exactly what the ORM's querysets they replace answer."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Count
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches import selectors as match_selectors
from tests.factories import OrganiserFactory, RegistrationFactory, UserFactory
from tests.scenarios import RunningTopCut
from tournaments import jsonld, selectors
from tournaments.models import Registration, RegistrationStatus

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


def _read_with_the_event(reader: Any, slug: str) -> Any:
    request = RequestFactory().get(f"/events/{slug}/")
    request.user = reader
    return selectors.visible_event_with_roles(request, slug, with_registration=True)


def _columns(row: Any) -> list[tuple[str, Any]]:
    return [(f.attname, getattr(row, f.attname)) for f in type(row)._meta.concrete_fields]


def test_the_readers_registration_read_with_the_event_is_the_orms(
    running_top_cut: RunningTopCut,
) -> None:
    """The event page reads a signed-in reader's registration in the event's query: every
    column as the ORM reads it, for players (one dropped, one with a bye), and none for a
    reader without one (a walk-in's registration, with no account, is nobody's)."""
    scene = running_top_cut
    event = scene.event
    dropped, with_bye = scene.registrations[0], scene.registrations[1]
    Registration.objects.filter(pk=dropped.pk).update(
        dropped_at=timezone.now(), status=RegistrationStatus.REGISTERED
    )
    Registration.objects.filter(pk=with_bye.pk).update(bye_rounds=[1, 2], invitation="Champion")
    RegistrationFactory(tournament=event, player=None, walk_in_name="Walk In")
    for registration in scene.registrations[:4]:
        with CaptureQueriesContext(connection) as queries:
            found = _read_with_the_event(registration.player, event.slug)
            own = selectors.registration_for(user=registration.player, tournament=found)
        assert len(queries.captured_queries) == 1
        expected = event.registrations.filter(player=registration.player).first()
        assert own is not None and expected is not None
        assert _columns(own) == _columns(expected)
        assert own.tournament is found
    for reader in (scene.organiser, UserFactory()):
        with CaptureQueriesContext(connection) as queries:
            found = _read_with_the_event(reader, event.slug)
            assert selectors.registration_for(user=reader, tournament=found) is None
        assert len(queries.captured_queries) == 1


def test_the_registration_read_with_the_event_is_only_its_readers(
    running_top_cut: RunningTopCut,
) -> None:
    """Asked for another account, `registration_for` reads that account's own."""
    scene = running_top_cut
    first, second = scene.registrations[0], scene.registrations[1]
    found = _read_with_the_event(first.player, scene.event.slug)
    other = selectors.registration_for(user=second.player, tournament=found)
    assert other is not None and other.pk == second.pk
