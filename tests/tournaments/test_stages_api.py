"""Stages as data (event-structures: Stages): every event has its stage rows, made from
``stages`` or from ``top_cut_size``; replaced before the event starts, fixed after; read by
anyone who may see the event. Rounds carry their stage number and name."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps

from matches.models import Round
from tests.factories import OrganiserFactory, TournamentFactory, organiser_of
from tests.scenarios import client_for, pair_and_publish_through_api, running_event
from tournaments.models import AuditEntry, Stage, Tournament

pytestmark = pytest.mark.django_db

EVENT = {
    "name": "Stages Open",
    "mode": "playmaker",
    "format_key": "playmaker",
    "starts_at": "2030-05-01T10:00:00Z",
}
DAY_TWO = [
    {"name": "Day 1", "kind": "swiss", "rounds": 8, "match_structure": "bo3", "round_minutes": 50},
    {"name": "Day 2", "kind": "swiss", "rounds": 5, "entry": {"from": [1], "points": 18},
     "carry": "points"},
    {"name": "Top 8", "kind": "single_elimination", "match_structure": "bo3",
     "entry": {"from": [2], "top": 8}},
]  # fmt: skip


def _create(client: Any, **fields: Any) -> Any:
    return client.post("/api/events/", {**EVENT, **fields}, format="json")


def test_an_event_created_with_stages_lists_them_numbered_and_pending(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    created = _create(api_client, stages=DAY_TWO)
    assert created.status_code == 201, created.json()
    body = api_client.get(f"/api/events/{created.json()['slug']}/stages/").json()
    assert [(s["number"], s["name"], s["kind"], s["status"]) for s in body] == [
        (1, "Day 1", "swiss", "pending"),
        (2, "Day 2", "swiss", "pending"),
        (3, "Top 8", "single_elimination", "pending"),
    ]
    assert body[1]["entry"] == {"from": [1], "points": 18}
    assert body[1]["carry"] == "points"
    assert body[0]["rounds"] == 8 and body[0]["round_minutes"] == 50
    assert all("players" not in s for s in body)


@pytest.mark.parametrize(
    ("top_cut_size", "shape"),
    [
        (8, [("Swiss", "swiss", None), ("Top 8", "single_elimination", {"from": [1], "top": 8})]),
        (0, [("Swiss", "swiss", None)]),
    ],
)
def test_an_event_without_stages_gets_the_legacy_swiss_and_top_cut(
    api_client, top_cut_size: int, shape: list[Any]
) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    created = _create(api_client, top_cut_size=top_cut_size)
    assert created.status_code == 201, created.json()
    event = Tournament.objects.get(slug=created.json()["slug"])
    assert [(s.name, s.kind, s.entry) for s in event.stages.all()] == shape


@pytest.mark.parametrize(
    ("stages", "field"),
    [
        ([DAY_TWO[0], {**DAY_TWO[2], "entry": {"from": [1], "top": 1}}], "stages[1].entry.top"),
        ([{**DAY_TWO[0], "match_structure": "bo9"}], "stages[0].match_structure"),
        ([{"kind": "knockout"}], "stages[0].kind"),
        ([DAY_TWO[0], {"kind": "swiss"}], "stages[1].entry"),
        ({"kind": "swiss"}, "stages"),
        ([], "stages"),
    ],
)
def test_a_bad_stage_list_is_a_400_naming_its_path_and_saves_nothing(
    api_client, stages: Any, field: str
) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    response = _create(api_client, stages=stages)
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not Tournament.objects.exists()
    assert not Stage.objects.exists()


def test_a_patch_before_the_start_replaces_the_stages_and_is_audited(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    slug = _create(api_client, top_cut_size=8).json()["slug"]
    response = api_client.patch(f"/api/events/{slug}/", {"stages": DAY_TWO}, format="json")
    assert response.status_code == 200, response.json()
    names = [s["name"] for s in api_client.get(f"/api/events/{slug}/stages/").json()]
    assert names == ["Day 1", "Day 2", "Top 8"]
    entry = AuditEntry.objects.get(action="event.stages")
    assert [s["name"] for s in entry.data["before"]] == ["Swiss", "Top 8"]
    assert [s["name"] for s in entry.data["after"]] == names


def test_a_bad_patch_of_stages_keeps_the_old_ones(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    slug = _create(api_client, stages=DAY_TWO).json()["slug"]
    bad = [DAY_TWO[0], {**DAY_TWO[1], "carry": "sometimes"}]
    response = api_client.patch(f"/api/events/{slug}/", {"stages": bad}, format="json")
    assert response.status_code == 400
    assert "stages[1].carry" in response.json()
    assert len(api_client.get(f"/api/events/{slug}/stages/").json()) == 3


def test_a_new_top_cut_size_remakes_legacy_stages_but_not_explicit_ones(api_client) -> None:  # type: ignore[no-untyped-def]
    api_client.force_authenticate(OrganiserFactory())
    legacy = _create(api_client, top_cut_size=8).json()["slug"]
    explicit = _create(api_client, stages=DAY_TWO, top_cut_size=8).json()["slug"]
    for slug in (legacy, explicit):
        assert (
            api_client.patch(f"/api/events/{slug}/", {"top_cut_size": 4}, format="json").status_code
            == 200
        )
    assert [s["name"] for s in api_client.get(f"/api/events/{legacy}/stages/").json()] == [
        "Swiss",
        "Top 4",
    ]
    assert [s["name"] for s in api_client.get(f"/api/events/{explicit}/stages/").json()] == [
        "Day 1",
        "Day 2",
        "Top 8",
    ]
    assert (
        api_client.patch(f"/api/events/{legacy}/", {"top_cut_size": 0}, format="json").status_code
        == 200
    )
    assert [s["name"] for s in api_client.get(f"/api/events/{legacy}/stages/").json()] == ["Swiss"]


def test_stages_cannot_change_once_the_event_has_started(api_client) -> None:  # type: ignore[no-untyped-def]
    organiser = OrganiserFactory()
    api_client.force_authenticate(organiser)
    slug = _create(api_client, stages=DAY_TWO).json()["slug"]
    Tournament.objects.filter(slug=slug).update(status="running")
    response = api_client.patch(f"/api/events/{slug}/", {"stages": DAY_TWO[:1]}, format="json")
    assert response.status_code == 409
    assert "stages" in response.json()
    assert Stage.objects.filter(tournament__slug=slug).count() == 3


def test_the_stages_of_a_draft_are_hidden_like_the_draft(api_client) -> None:  # type: ignore[no-untyped-def]
    draft = TournamentFactory(status="draft")
    assert api_client.get(f"/api/events/{draft.slug}/stages/").status_code == 404
    api_client.force_authenticate(organiser_of(draft))
    # A factory's event has no rows: its legacy stages stand in.
    body = api_client.get(f"/api/events/{draft.slug}/stages/").json()
    assert [s["name"] for s in body] == ["Swiss", "Top 8"]


def test_rounds_carry_their_stage_number_and_name() -> None:
    event, organiser, _ = running_event(8, planned_rounds=1, top_cut_size=4)
    first = pair_and_publish_through_api(event, organiser)
    assert (first["stage_number"], first["name"]) == (1, "Round 1")
    staff = client_for(organiser)
    listed = staff.get(f"/api/events/{event.slug}/rounds/").json()
    assert (listed[0]["stage_number"], listed[0]["name"]) == (1, "Round 1")


def test_top_cut_rounds_are_stage_2_named_by_their_places(running_top_cut) -> None:  # type: ignore[no-untyped-def]
    cut = running_top_cut.cut
    assert (cut.stage_number, cut.name) == (2, "Semifinals")
    assert {r.name for r in running_top_cut.swiss} == {"Round 1"}


migration = importlib.import_module("matches.migrations.0013_stages_for_existing_events")


def test_existing_events_get_their_legacy_stages_from_their_rounds(running_top_cut) -> None:  # type: ignore[no-untyped-def]
    event = running_top_cut.event
    Stage.objects.all().delete()
    Round.objects.update(stage_number=1, name="")
    untouched = TournamentFactory(top_cut_size=0)
    migration.forwards(apps, None)
    swiss, cut = event.stages.order_by("number")
    assert swiss.status == "finished" and cut.status == "running"
    played = {r.pk for r in running_top_cut.registrations}
    assert set(swiss.players) == played
    seeds = sorted(
        [(m.seed_a, m.a_id) for m in running_top_cut.matches]
        + [(m.seed_b, m.b_id) for m in running_top_cut.matches]
    )
    assert cut.players == [pid for _, pid in seeds]
    assert cut.entry == {"from": [1], "top": 4}
    assert [(r.stage_number, r.name) for r in event.rounds.order_by("number")] == [
        (1, "Round 1"),
        (2, "Semifinals"),
    ]
    only = untouched.stages.get()
    assert (only.kind, only.status, only.players) == ("swiss", "pending", None)
