"""The organisers' pages for a series' and an organisation's archetypes (metagame/
archetype_pages.py): define, change and delete through the same service as the API, with its
permission checks and audit; and the archetypes then sort the events' lists."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from metagame import selectors
from metagame.models import Archetype
from organisations.models import Membership, Organisation
from series.models import Series, SeriesEvent
from tests.factories import UserFactory, logged_in
from tests.metagame.metagame_support import two_player_event
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

STALL = {"card": "Stall"}


def _series(organiser: Any, event: Tournament) -> Series:
    series = Series.objects.create(name="League", slug="league", points={})
    series.organisers.add(organiser)
    SeriesEvent.objects.create(series=series, event=event)
    return series


def _organisation(owner: Any, event: Tournament) -> Organisation:
    organisation = Organisation.objects.create(name="Store", slug="store")
    Membership.objects.create(organisation=organisation, user=owner, role="owner")
    Tournament.objects.filter(pk=event.pk).update(organisation=organisation)
    event.refresh_from_db()
    return organisation


def _add(client: Client, base: str, **fields: Any) -> Any:
    data = {"game": "boba", "name": "Stall", "priority": "0", "rule": json.dumps(STALL)}
    return client.post(f"{base}add/", {**data, **fields}, follow=True)


@pytest.mark.parametrize("kind", ["series", "organisation"])
def test_an_organiser_defines_changes_and_deletes_an_archetype_on_its_page(kind: str) -> None:
    event, organiser, _regs = two_player_event()
    Archetype.objects.filter(name="Control").delete()
    owner = _series(organiser, event) if kind == "series" else _organisation(organiser, event)
    base = f"/{'series' if kind == 'series' else 'orgs'}/{owner.slug}/archetypes/"
    client = logged_in(organiser)
    page = client.get(base)
    assert page.status_code == 200 and b"No archetypes yet." in page.content

    added = _add(client, base)
    assert added.redirect_chain[-1][0] == base and b"Archetype added." in added.content
    archetype = Archetype.objects.get(name="Stall")
    assert getattr(archetype, kind) == owner and archetype.tournament is None
    assert (archetype.game, archetype.rule, archetype.priority) == ("boba", STALL, 0)
    # Its event's lists are sorted by it, as by one made through the API.
    shares = {r["archetype"]: r["players"] for r in selectors.event_breakdown(event)["archetypes"]}
    assert shares == {"Aggro": 1, "Stall": 1}
    shown = client.get(base).content.decode()
    assert f'id="archetype-{archetype.pk}-rule"' in shown and "Change Stall" in shown

    changed = client.post(
        f"{base}{archetype.pk}/",
        {"name": "Fortress", "priority": "7", "rule": json.dumps({"card": "Wall"})},
        follow=True,
    )
    assert b"Archetype changed." in changed.content
    archetype.refresh_from_db()
    assert (archetype.name, archetype.priority, archetype.rule) == ("Fortress", 7, {"card": "Wall"})

    client.post(f"{base}{archetype.pk}/", {"delete": "1"})
    assert not Archetype.objects.filter(pk=archetype.pk).exists()


@pytest.mark.parametrize("kind", ["series", "organisation"])
def test_only_its_organisers_reach_the_archetypes_page_or_change_anything(kind: str) -> None:
    event, organiser, regs = two_player_event()
    owner = _series(organiser, event) if kind == "series" else _organisation(organiser, event)
    base = f"/{'series' if kind == 'series' else 'orgs'}/{owner.slug}/archetypes/"
    theirs = Archetype.objects.create(game="boba", name="Mine", rule=STALL, **{kind: owner})
    judge = UserFactory()
    if kind == "organisation":
        Membership.objects.create(organisation=owner, user=judge, role="judge")
    for person in (regs[0].player, UserFactory(), judge):
        client = logged_in(person)
        assert client.get(base).status_code == 403
        assert _add(client, base).status_code == 403
        assert client.post(f"{base}{theirs.pk}/", {"delete": "1"}).status_code == 403
        assert (
            client.post(
                f"{base}{theirs.pk}/", {"name": "Taken", "rule": json.dumps(STALL)}
            ).status_code
            == 403
        )
    signed_out = Client().get(base)
    assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]
    theirs.refresh_from_db()
    assert theirs.name == "Mine" and Archetype.objects.filter(name="Stall").count() == 0


def test_an_archetype_of_another_scope_is_not_found_through_this_page() -> None:
    event, organiser, _regs = two_player_event()
    series = _series(organiser, event)
    of_event = Archetype.objects.get(name="Aggro")
    client = logged_in(organiser)
    answer = client.post(f"/series/{series.slug}/archetypes/{of_event.pk}/", {"delete": "1"})
    assert answer.status_code == 404
    assert Archetype.objects.filter(pk=of_event.pk).exists()


def test_bad_input_names_the_field_and_changes_nothing() -> None:
    event, organiser, _regs = two_player_event()
    series = _series(organiser, event)
    base = f"/series/{series.slug}/archetypes/"
    client = logged_in(organiser)
    before = Archetype.objects.count()
    for fields, field in (
        ({"rule": "{not json"}, "rule"),
        ({"rule": json.dumps({"nonsense": 1})}, "rule"),
        ({"game": "chess"}, "game"),
        ({"name": ""}, "name"),
        ({"priority": "-3"}, "priority"),
    ):
        answer = _add(client, base, **fields)
        errors = re.findall(r'<p class="message message-error">(.*?)</p>', answer.content.decode())
        assert len(errors) == 1 and field in errors[0].lower(), (fields, errors)
    assert Archetype.objects.count() == before


def test_a_change_is_in_the_audit_of_the_events_it_sorts_only_through_the_service() -> None:
    """Series and organisation archetypes have no event of their own: the service audits an
    event's archetypes in the event's trail, and these pages add no other write path."""
    event, organiser, _regs = two_player_event()
    series = _series(organiser, event)
    before = AuditEntry.objects.filter(tournament=event).count()
    _add(logged_in(organiser), f"/series/{series.slug}/archetypes/")
    assert Archetype.objects.filter(series=series, name="Stall").exists()
    assert AuditEntry.objects.filter(tournament=event).count() == before


def test_the_pages_link_to_the_archetypes_for_organisers_only() -> None:
    event, organiser, _regs = two_player_event()
    series = _series(organiser, event)
    organisation = _organisation(organiser, event)
    link = f'href="/series/{series.slug}/archetypes/"'
    assert link in logged_in(organiser).get(f"/series/{series.slug}/metagame/").content.decode()
    assert link not in Client().get(f"/series/{series.slug}/metagame/").content.decode()
    manage = logged_in(organiser).get(f"/orgs/{organisation.slug}/manage/").content.decode()
    assert f'href="/orgs/{organisation.slug}/archetypes/"' in manage
