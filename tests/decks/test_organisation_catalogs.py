"""Issue 22: card catalogs belong to an organisation (decks.Catalog.organisation). Its owners
and organisers make them, import cards into them and choose them for their events; anyone
reads them; the organisation's page lists them."""

from __future__ import annotations

import pytest
from django.test import Client

from decks import selectors, services
from decks.models import Catalog, EventCatalog
from tests.factories import OrganiserFactory, TournamentFactory, UserFactory, logged_in
from tests.organisations.helpers import member, organisation, owner_of
from tests.scenarios import client_for
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_an_organisations_organisers_make_its_catalogs_audited() -> None:
    org = organisation("Dragon Den")
    organiser = member(org, "organiser")  # a member, without the site's organiser role
    url = f"/api/organisations/{org.slug}/catalogs/"
    made = client_for(organiser).post(url, {"game": "boba", "name": "Den promos"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["organisation"] == org.slug and made.json()["owner"] is None
    catalog = Catalog.objects.get(slug=made.json()["slug"])
    assert catalog.organisation == org and catalog.kind == Catalog.Kind.CUSTOM
    entry = AuditEntry.objects.get(action="organisation.catalog_created")
    assert entry.data["organisation"] == org.slug and entry.data["catalog"] == catalog.slug
    listed = Client().get(url).json()
    assert listed["count"] == 1 and listed["results"][0]["slug"] == catalog.slug
    for outsider in (member(org, "judge"), OrganiserFactory()):
        refused = client_for(outsider).post(url, {"game": "boba", "name": "x"}, format="json")
        assert refused.status_code == 403
    bad = client_for(organiser).post(url, {"game": "chess", "name": "x"}, format="json")
    assert bad.status_code == 400 and "game" in bad.json()
    assert Client().get("/api/organisations/nobody/catalogs/").status_code == 404
    assert Catalog.objects.filter(organisation=org).count() == 1


def test_its_organisers_import_into_it_and_choose_it_for_their_events() -> None:
    org = organisation()
    organiser = member(org, "organiser")
    judge = member(org, "judge")
    catalog = services.custom_catalog_create(
        actor=owner_of(org), game="boba", name="Store cards", organisation=org
    )
    assert services.can_import_into(organiser, catalog)
    assert not services.can_import_into(judge, catalog)
    assert not services.can_import_into(OrganiserFactory(), catalog)
    assert catalog in selectors.catalogs_for_choice("boba", organiser)
    assert catalog not in selectors.catalogs_for_choice("boba", OrganiserFactory())
    event = TournamentFactory(organisation=org)
    chosen = client_for(organiser).post(
        f"/api/events/{event.slug}/catalog/", {"catalog": catalog.slug}, format="json"
    )
    assert chosen.status_code == 200, chosen.content
    assert EventCatalog.objects.get(tournament=event).catalog == catalog
    # an organiser of another event, not of the organisation, may not choose it
    stranger = OrganiserFactory()
    theirs = TournamentFactory(organisers=[stranger])
    refused = client_for(stranger).post(
        f"/api/events/{theirs.slug}/catalog/", {"catalog": catalog.slug}, format="json"
    )
    assert refused.status_code == 403
    assert not EventCatalog.objects.filter(tournament=theirs).exists()


def test_the_manage_page_makes_one_and_the_organisation_page_lists_it() -> None:
    org = organisation("Dragon Den")
    client = logged_in(owner_of(org))
    made = client.post(
        f"/orgs/{org.slug}/catalogs/new/", {"game": "boba", "name": "Den promos"}, follow=True
    )
    assert made.status_code == 200
    catalog = Catalog.objects.get(organisation=org)
    assert catalog.name == "Den promos"
    page = Client().get(f"/orgs/{org.slug}/").content.decode()
    assert "Den promos" in page and f"catalog={catalog.slug}" in page
    refused = logged_in(UserFactory()).post(
        f"/orgs/{org.slug}/catalogs/new/", {"game": "boba", "name": "Mine now"}
    )
    assert refused.status_code == 403
    assert Catalog.objects.filter(organisation=org).count() == 1
