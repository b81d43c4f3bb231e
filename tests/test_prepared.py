"""config.prepared: a queryset's SQL compiled once per process, run with each call's values,
gives exactly the ORM's instances (every field, the select_related object, annotations), and
anything it cannot prove it reproduces goes through the ORM."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Count, QuerySet
from django.http import Http404
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config import prepared
from matches import services as match_services
from matches.models import Round
from tests.factories import UserFactory
from tests.scenarios import running_event
from tournaments.models import Tournament
from tournaments.selectors import _event_with_roles_of

pytestmark = pytest.mark.django_db


def _round_and_event(slug: str, number: int) -> QuerySet[Round]:
    return Round.objects.select_related("tournament").filter(tournament__slug=slug, number=number)


def _fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    prepared._local.__dict__.pop("prepared", None)


def _event_with_round() -> tuple[Tournament, Round]:
    event, organiser, _ = running_event(6)
    return event, match_services.round_pair(actor=organiser, tournament=event)


def test_the_prepared_query_gives_the_orms_instances_field_for_field() -> None:
    event, round_ = _event_with_round()
    for _ in range(2):  # compiled on the first call, reused on the second
        found = prepared.fetch("t-round", _round_and_event, event.slug, 1)
        expected = list(_round_and_event(event.slug, 1))
        assert len(found) == 1 and found[0].pk == round_.pk
        assert _fields(found[0]) == _fields(expected[0])
        assert _fields(found[0].tournament) == _fields(expected[0].tournament)
        assert found[0]._state.db == expected[0]._state.db and not found[0]._state.adding


def test_the_sql_is_compiled_once_and_run_with_each_calls_values() -> None:
    event, _round = _event_with_round()
    other, _ = _event_with_round()
    assert prepared.fetch("t-round", _round_and_event, event.slug, 1)[0].tournament == event
    with CaptureQueriesContext(connection) as queries:
        assert prepared.fetch("t-round", _round_and_event, other.slug, 1)[0].tournament == other
        assert prepared.fetch("t-round", _round_and_event, event.slug, 2) == []
        assert prepared.fetch("t-round", _round_and_event, "no-such-event", 1) == []
    assert len(queries) == 3
    assert isinstance(prepared._local.prepared["t-round"], prepared._Prepared)


@pytest.mark.parametrize("number", [-1, 32_768, 10**20])
def test_a_number_out_of_every_integer_fields_range_is_the_orms_to_answer(number: int) -> None:
    event, _round = _event_with_round()
    assert prepared.fetch("t-round", _round_and_event, event.slug, 1)
    assert prepared.fetch("t-round", _round_and_event, event.slug, number) == []


def test_a_lookup_that_transforms_its_value_goes_through_the_orm() -> None:
    event, _round = _event_with_round()

    def containing(part: str) -> QuerySet[Tournament]:
        return Tournament.objects.filter(slug__contains=part)

    assert prepared.fetch("t-contains", containing, event.slug[1:-1]) == [event]
    assert prepared._local.prepared["t-contains"] is prepared._NOT_PREPARABLE
    assert prepared.fetch("t-contains", containing, "no-such-part") == []


def test_annotations_are_set_as_the_orm_sets_them() -> None:
    event, round_ = _event_with_round()

    def with_matches(slug: str) -> QuerySet[Round]:
        return Round.objects.filter(tournament__slug=slug).annotate(n=Count("matches"))

    for _ in range(2):
        found = prepared.fetch("t-annotated", with_matches, event.slug)
        assert [(r.pk, r.n) for r in found] == [(round_.pk, round_.matches.count())]
        assert round_.matches.count() == 3


def test_an_argument_the_query_converts_goes_through_the_orm() -> None:
    event, round_ = _event_with_round()

    def by_number_text(slug: str, number: str) -> QuerySet[Round]:
        return Round.objects.filter(tournament__slug=slug, number=number)

    assert prepared.fetch("t-text-number", by_number_text, event.slug, "1") == [round_]
    assert prepared._local.prepared["t-text-number"] is prepared._NOT_PREPARABLE


def test_the_published_round_is_read_through_the_prepared_query() -> None:
    event, round_ = _event_with_round()
    organiser = event.organisers.first()
    match_services.round_publish(actor=organiser, round_=round_)
    client = Client()
    assert client.get(f"/api/events/{event.slug}/rounds/1/", HTTP_ACCEPT="application/json")
    assert isinstance(prepared._local.prepared["published-round"], prepared._Prepared)
    assert client.get(f"/api/events/{event.slug}/rounds/1/").status_code == 200
    assert client.get(f"/api/events/{event.slug}/rounds/2/").status_code == 404


def test_an_argument_used_twice_is_put_in_both_places() -> None:
    """The event page's event and the reader's roles: the account's id in two subqueries."""
    event, _round = _event_with_round()
    organiser = event.organisers.first()
    stranger = UserFactory()
    for _ in range(2):
        for user, roles in ((organiser, (True, False)), (stranger, (False, False))):
            found = prepared.fetch("t-roles", _event_with_roles_of, event.slug, user.pk)
            expected = list(_event_with_roles_of(event.slug, user.pk))
            assert [(e.pk, e.reader_organiser, e.reader_judge) for e in found] == [
                (e.pk, e.reader_organiser, e.reader_judge) for e in expected
            ]
            assert (found[0].reader_organiser, found[0].reader_judge) == roles
    assert isinstance(prepared._local.prepared["t-roles"], prepared._Prepared)


def test_remembered_rows_are_read_once_per_version_and_give_new_instances() -> None:
    event, round_ = _event_with_round()
    prepared.forget_remembered()
    args = (event.slug, round_.number)
    with CaptureQueriesContext(connection) as first:
        one = prepared.fetch("t-remember", _round_and_event, *args, remember="v1")
    with CaptureQueriesContext(connection) as again:
        two = prepared.fetch("t-remember", _round_and_event, *args, remember="v1")
    assert len(first.captured_queries) == 1 and len(again.captured_queries) == 0
    assert one[0] is not two[0] and one[0].tournament is not two[0].tournament
    assert _fields(one[0]) == _fields(two[0]) == _fields(_round_and_event(*args).get())
    Round.objects.filter(pk=round_.pk).update(name="Renamed")
    # the same version: the kept rows (the caller's version promises nothing changed)
    assert prepared.fetch("t-remember", _round_and_event, *args, remember="v1")[0].name != (
        "Renamed"
    )
    with CaptureQueriesContext(connection) as other:
        three = prepared.fetch("t-remember", _round_and_event, *args, remember="v2")
    assert len(other.captured_queries) == 1 and three[0].name == "Renamed"
    # without a version nothing kept is used
    assert prepared.fetch("t-remember", _round_and_event, *args)[0].name == "Renamed"


def test_at_most_so_many_answers_are_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    event, round_ = _event_with_round()
    prepared.forget_remembered()
    monkeypatch.setattr(prepared, "REMEMBERED_MAX", 3)
    for k in range(5):
        prepared.fetch("t-remember", _round_and_event, event.slug, round_.number, remember=f"{k}")
        prepared.remembered(("t-value",), f"{k}", lambda k=k: k)
    assert len(prepared._remembered) == 3
    assert prepared.remembered(("t-value",), "4", lambda: "read again") == 4
    assert prepared.remembered(("t-value",), "0", lambda: "read again") == "read again"


def test_the_pairings_pages_round_is_the_orms() -> None:
    from matches import selectors

    event, organiser, _ = running_event(6)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    for _ in range(2):  # compiled on the first call, reused on the second
        found = selectors.round_visible(organiser, event, 1)
        assert found.tournament is event
        assert _fields(found) == _fields(Round.objects.get(pk=round_.pk))
    with pytest.raises(Http404):  # not published yet: staff only
        selectors.round_visible(UserFactory(), event, 1)
    with pytest.raises(Http404):
        selectors.round_visible(organiser, event, 2)


@pytest.mark.parametrize("bye", [False, True])
def test_my_match_read_through_prepared_lookups_is_the_orms(bye: bool) -> None:
    """matches.selectors.my_match (the "my match" page): the registration, the latest
    published round, the match and its players through config.prepared, field for field
    the ORM's, with the same query count."""
    from matches import selectors
    from matches.models import Match
    from tests.scenarios import published_round

    scene = published_round(5)
    paired = {r.pk for m in scene.matches for r in (m.a, m.b)}
    reg = next(r for r in scene.registrations if (r.pk not in paired) == bye)
    for _ in range(2):  # compiled on the first call, reused on the second
        with CaptureQueriesContext(connection) as queries:
            found = selectors.my_match(reg.player, scene.event)
        assert found is not None and len(queries.captured_queries) == 4
        expected = Match.objects.get(pk=found.pk)
        assert _fields(found) == _fields(expected)
        assert _fields(found.round) == _fields(scene.round.__class__.objects.get(pk=scene.round.pk))
        assert _fields(found.a) == _fields(expected.a)
        assert _fields(found.a.player) == _fields(expected.a.player)
        if bye:
            assert found.b_id is None
        else:
            assert _fields(found.b) == _fields(expected.b)
            assert _fields(found.b.player) == _fields(expected.b.player)
    made = prepared._local.__dict__["prepared"]
    people = "registration-and-player" if bye else "registrations-and-players"
    for name in ("registration-of", "latest-player-round", "match-of", people):
        assert made[name] is not prepared._NOT_PREPARABLE  # prepared, not the ORM's
    assert selectors.my_match(UserFactory(), scene.event) is None
