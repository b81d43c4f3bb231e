"""The event's tiebreaker order is the organiser's setting (the game's order by default),
checked against the registry; stored standings know the tiebreaker configuration they were
computed with and are computed again when it differs."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from eventdata import archive
from eventdata.archive_selectors import event_archive
from eventdata.archive_services import archive_import
from matches import services
from matches.models import Match, Round, RoundStatus, StandingsSnapshot
from tests.factories import OrganiserFactory, bos_event, logged_in, organiser_of
from tests.scenarios import client_for, running_event
from tournaments import tiebreakers
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _finished_round(event: Tournament, organiser: Any) -> Round:
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    for match in Match.objects.filter(round=round_, b__isnull=False).select_related("round"):
        services.match_report(actor=organiser, match=match, games=[1, 0, 0], battles=[[4, 2]])
    round_.refresh_from_db()
    assert round_.status == RoundStatus.FINISHED
    return round_


def _tiebreaker_keys(snapshot: StandingsSnapshot) -> list[list[str]]:
    return [list(row["tiebreakers"]) for row in snapshot.rows]


def test_an_event_ranks_by_its_games_order_until_the_organiser_chooses_one() -> None:
    event, _organiser, _regs = running_event(2)
    assert event.tiebreaker_order == []
    assert event.tiebreakers == ("omw", "gw", "ogw", "battle_diff")
    event.tiebreaker_order = ["gw", "omw"]
    assert event.tiebreakers == ("gw", "omw")


def test_a_changed_order_recomputes_a_finished_rounds_stored_standings() -> None:
    event, organiser, _regs = running_event(4)
    _finished_round(event, organiser)
    before = services.standings_snapshot(event, 1)
    assert _tiebreaker_keys(before)[0] == ["omw", "gw", "ogw", "battle_diff"]
    assert before.tiebreakers == tiebreakers.fingerprint(("omw", "gw", "ogw", "battle_diff"))

    response = client_for(organiser).patch(
        f"/api/events/{event.slug}/", {"tiebreaker_order": ["gw", "h2h", "omw"]}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["tiebreaker_order"] == ["gw", "h2h", "omw"]

    event.refresh_from_db()
    after = services.standings_snapshot(event, 1)
    assert after.pk == before.pk
    assert after.tiebreakers == "1:gw@1,h2h@1,omw@1"
    # head-to-head has no value to store: it shows in the order of the rows
    assert all(keys == ["gw", "omw"] for keys in _tiebreaker_keys(after))


def test_a_deployed_change_to_a_tiebreaker_recomputes_stored_standings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event, organiser, _regs = running_event(4)
    _finished_round(event, organiser)
    services.standings_snapshot(event, 1)
    # stored rows are reused while nothing changed (made empty here to tell them apart)
    StandingsSnapshot.objects.filter(round__tournament=event).update(rows=[])
    assert services.standings_snapshot(event, 1).rows == []

    bumped = dataclasses.replace(tiebreakers.OMW, revision=2)
    monkeypatch.setattr(
        tiebreakers, "CORE", (bumped, tiebreakers.GW, tiebreakers.OGW, tiebreakers.HEAD_TO_HEAD)
    )
    again = services.standings_snapshot(event, 1)
    assert len(again.rows) == 4
    assert again.tiebreakers == "1:omw@2,gw@1,ogw@1,battle_diff@1"


def test_standings_stored_before_the_configuration_was_kept_are_recomputed() -> None:
    event, organiser, _regs = running_event(4)
    _finished_round(event, organiser)
    services.standings_snapshot(event, 1)
    StandingsSnapshot.objects.filter(round__tournament=event).update(rows=[], tiebreakers="")
    assert len(services.standings_snapshot(event, 1).rows) == 4


@pytest.mark.parametrize(
    ("order", "words"),
    [
        (["omw", "nope"], "Tiebreaker 2: unknown tiebreaker 'nope'."),
        (["gw", "gw"], "Tiebreaker 2: duplicate tiebreaker 'gw'."),
        ("omw", "Expected a list of items"),
    ],
)
def test_an_invalid_order_is_a_400_naming_the_field(order: object, words: str) -> None:
    event, organiser, _regs = running_event(2)
    response = client_for(organiser).patch(
        f"/api/events/{event.slug}/", {"tiebreaker_order": order}, format="json"
    )
    assert response.status_code == 400
    assert words in str(response.json()["tiebreaker_order"])
    event.refresh_from_db()
    assert event.tiebreaker_order == []


def test_another_games_tiebreaker_is_refused_on_a_bos_event() -> None:
    event = bos_event()
    response = client_for(organiser_of(event)).patch(
        f"/api/events/{event.slug}/", {"tiebreaker_order": ["omw", "battle_diff"]}, format="json"
    )
    assert response.status_code == 400
    assert "is a tiebreaker of Bo Jackson Battle Arena, not of BOS" in str(response.json())


NEW_EVENT = {
    "name": "Tiebreak Open",
    "game": "boba",
    "mode": "playmaker",
    "format_key": "spec_playmaker",
    "match_structure": "bo3",
    "starts_at": "2030-01-01T10:00",
    "time_zone": "UTC",
    "round_minutes": 50,
    "top_cut_size": 8,
}


def test_the_event_form_takes_the_order_as_keys_separated_by_commas() -> None:
    client = logged_in(OrganiserFactory())
    page = client.get("/events/new/?game=boba").content.decode()
    assert 'name="tiebreaker_order"' in page and "battle_diff (battle differential)" in page
    response = client.post("/events/new/", {**NEW_EVENT, "tiebreaker_order": "battle_diff, omw"})
    assert response.status_code == 302
    event = Tournament.objects.get(name="Tiebreak Open")
    assert event.tiebreaker_order == ["battle_diff", "omw"]
    edit = client.get(f"/events/{event.slug}/edit/").content.decode()
    assert 'value="battle_diff, omw"' in edit


def test_the_event_form_shows_a_refused_order_on_the_field() -> None:
    client = logged_in(OrganiserFactory())
    response = client.post("/events/new/", {**NEW_EVENT, "tiebreaker_order": "omw, omw"})
    assert response.status_code == 200
    assert "Tiebreaker 2: duplicate tiebreaker &#x27;omw&#x27;." in response.content.decode()
    assert not Tournament.objects.filter(name="Tiebreak Open").exists()


def _import_as(doc: dict[str, Any], slug: str) -> Tournament:
    copy = {**doc, "event": {**doc["event"], "slug": slug, "name": slug}}
    archive_import(archive.dumps(copy))
    return Tournament.objects.get(slug=slug)


def test_the_archive_keeps_the_order_and_an_archive_without_it_takes_the_games() -> None:
    event, organiser, _regs = running_event(4, tiebreaker_order=["gw", "omw"])
    _finished_round(event, organiser)
    services.standings_snapshot(event, 1)
    doc = event_archive(event)
    assert doc["event"]["tiebreaker_order"] == ["gw", "omw"]
    assert doc["standings"][0]["current"] is True

    restored = _import_as(doc, "restored")
    assert restored.tiebreaker_order == ["gw", "omw"]
    stored = StandingsSnapshot.objects.get(round__tournament=restored)
    assert stored.tiebreakers == restored.tiebreaker_fingerprint  # current: not recomputed

    # An archive written before the setting existed has no such key: the game's order.
    older = {**doc, "event": {k: v for k, v in doc["event"].items() if k != "tiebreaker_order"}}
    assert _import_as(older, "older").tiebreaker_order == []
