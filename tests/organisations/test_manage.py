"""Issue 22: an organisation's management page (members and roles, suspensions) and a
suspension acting on the player's registrations for the organisation's upcoming events."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from notifications.models import Delivery
from organisations import services
from organisations.models import Membership, Suspension
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, logged_in
from tests.organisations.helpers import member, organisation, owner_of
from tournaments.audit import AuditEntry
from tournaments.models import Registration, RegistrationStatus

pytestmark = pytest.mark.django_db

MANAGE = "/orgs/{}/manage/"


def _until(days: int = 30) -> str:
    return (timezone.now() + timedelta(days=days)).isoformat()


def _world() -> dict:  # type: ignore[type-arg]
    """An organisation; a player registered for its upcoming event (full, one waiting), its
    running event, an event after the suspension, and another organisation's event."""
    org = organisation("Dragon Den")
    player = UserFactory()
    upcoming = TournamentFactory(organisation=org, capacity=1, name="Friday Night")
    mine = RegistrationFactory(tournament=upcoming, player=player)
    waiting = RegistrationFactory(
        tournament=upcoming, status=RegistrationStatus.WAITLISTED, queued_at=timezone.now()
    )
    running = TournamentFactory(organisation=org, status="running")
    playing = RegistrationFactory(tournament=running, player=player)
    later = TournamentFactory(organisation=org, starts_at=timezone.now() + timedelta(days=90))
    after = RegistrationFactory(tournament=later, player=player)
    elsewhere = RegistrationFactory(tournament=TournamentFactory(), player=player)
    return locals()


def test_a_suspension_that_cancels_registrations_needs_confirm_and_changes_nothing_without(  # type: ignore[no-untyped-def]
    api_client,
) -> None:
    w = _world()
    api_client.force_authenticate(owner_of(w["org"]))
    body = {"player": w["player"].pk, "until": _until(), "reason": "Marked cards"}
    refused = api_client.post(
        f"/api/organisations/{w['org'].slug}/suspensions/", body, format="json"
    )
    assert refused.status_code == 400 and refused.json()["field"] == "confirm"
    assert "Friday Night" in refused.json()["detail"]
    assert not Suspension.objects.exists()
    w["mine"].refresh_from_db()
    assert w["mine"].status == RegistrationStatus.REGISTERED


def test_a_confirmed_suspension_cancels_upcoming_registrations_audited_and_told(  # type: ignore[no-untyped-def]
    api_client,
) -> None:
    w = _world()
    api_client.force_authenticate(owner_of(w["org"]))
    body = {"player": w["player"].pk, "until": _until(), "reason": "Marked cards", "confirm": True}
    response = api_client.post(
        f"/api/organisations/{w['org'].slug}/suspensions/", body, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["cancelled"] == [w["upcoming"].slug]
    statuses = {
        key: Registration.objects.get(pk=w[key].pk).status
        for key in ("mine", "waiting", "playing", "after", "elsewhere")
    }
    assert statuses == {
        "mine": RegistrationStatus.REMOVED,
        "waiting": RegistrationStatus.REGISTERED,  # the freed place went to the waitlist
        "playing": RegistrationStatus.REGISTERED,  # an event under way is not touched
        "after": RegistrationStatus.REGISTERED,  # after the suspension ends
        "elsewhere": RegistrationStatus.REGISTERED,  # another organisation's event
    }
    removed = AuditEntry.objects.get(action="registration.removed", tournament=w["upcoming"])
    assert "Marked cards" in removed.data["reason"] and "Dragon Den" in removed.data["reason"]
    suspended = AuditEntry.objects.get(action="organisation.player_suspended")
    assert suspended.data["events"] == [w["upcoming"].slug]
    told = Delivery.objects.get(kind="player_suspended", recipient=w["player"])
    assert told.tournament_id == w["upcoming"].pk
    assert "Marked cards" in told.body and "Friday Night" in told.subject


def test_a_suspension_starting_later_keeps_the_registrations_before_it(  # type: ignore[no-untyped-def]
    api_client,
) -> None:
    w = _world()
    start = timezone.now() + timedelta(days=60)
    done = services.suspend(
        actor=owner_of(w["org"]),
        organisation=w["org"],
        player=w["player"],
        starts_at=start,
        until=start + timedelta(days=60),
        reason="Later",
        confirm=True,
    )
    assert [r.pk for r in done.removed] == [w["after"].pk]
    w["mine"].refresh_from_db()
    assert w["mine"].status == RegistrationStatus.REGISTERED


def test_the_manage_page_is_for_owners_and_organisers_only() -> None:
    org = organisation()
    assert logged_in(UserFactory()).get(MANAGE.format(org.slug)).status_code == 403
    assert logged_in(member(org, "judge")).get(MANAGE.format(org.slug)).status_code == 403
    organiser_page = logged_in(member(org, "organiser")).get(MANAGE.format(org.slug))
    assert organiser_page.status_code == 200
    assert 'id="member-person"' not in organiser_page.content.decode()  # owners add members
    owner_page = logged_in(owner_of(org)).get(MANAGE.format(org.slug))
    html = owner_page.content.decode()
    assert 'id="member-person"' in html and 'id="suspend-person"' in html
    assert "<script" not in html.replace('<script src="', "")
    public = logged_in(owner_of(org)).get(f"/orgs/{org.slug}/").content.decode()
    assert MANAGE.format(org.slug) in public


def test_owners_add_change_and_remove_members_on_the_page() -> None:
    org = organisation()
    owner = owner_of(org)
    client = logged_in(owner)
    person = UserFactory()
    added = client.post(
        f"/orgs/{org.slug}/manage/members/",
        {"person": person.player_id.lower().replace("-", ""), "role": "judge"},
    )
    assert added.status_code == 302
    assert Membership.objects.get(organisation=org, user=person).role == "judge"
    client.post(f"/orgs/{org.slug}/manage/members/{person.pk}/", {"role": "scorekeeper"})
    assert Membership.objects.get(organisation=org, user=person).role == "scorekeeper"
    client.post(f"/orgs/{org.slug}/manage/members/{person.pk}/", {"remove": "1"})
    assert not Membership.objects.filter(organisation=org, user=person).exists()
    # the last owner stays: an error message, nothing changed
    kept = client.post(
        f"/orgs/{org.slug}/manage/members/{owner.pk}/", {"role": "judge"}, follow=True
    )
    assert "at least one owner" in kept.content.decode()
    assert Membership.objects.get(organisation=org, user=owner).role == "owner"
    unknown = client.post(
        f"/orgs/{org.slug}/manage/members/", {"person": "nobody-here", "role": "judge"}, follow=True
    )
    assert "person: nobody has" in unknown.content.decode()
    assert AuditEntry.objects.filter(action="organisation.member_removed").count() == 1


def test_an_organiser_cannot_add_members_on_the_page() -> None:
    org = organisation()
    organiser = member(org, "organiser")
    response = logged_in(organiser).post(
        f"/orgs/{org.slug}/manage/members/",
        {"person": UserFactory().player_id, "role": "owner"},
    )
    assert response.status_code == 403
    assert (
        not Membership.objects.filter(organisation=org, role="owner")
        .exclude(user=owner_of(org))
        .exists()
    )


def test_the_page_suspends_after_confirmation_and_lifts() -> None:
    w = _world()
    client = logged_in(member(w["org"], "organiser"))
    form = {
        "person": w["player"].player_id,
        "until": (timezone.now() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M"),
        "reason": "Marked cards",
    }
    asked = client.post(f"/orgs/{w['org'].slug}/manage/suspensions/", form)
    html = asked.content.decode()
    assert asked.status_code == 400 and 'id="suspend-confirm"' in html
    assert "Friday Night" in html and "Marked cards" in html  # the form comes back filled
    assert not Suspension.objects.exists()
    done = client.post(
        f"/orgs/{w['org'].slug}/manage/suspensions/", {**form, "confirm": "1"}, follow=True
    )
    assert "Registrations cancelled: Friday Night" in done.content.decode()
    suspension = Suspension.objects.get()
    assert suspension.reason == "Marked cards"
    w["mine"].refresh_from_db()
    assert w["mine"].status == RegistrationStatus.REMOVED
    client.post(f"/orgs/{w['org'].slug}/manage/suspensions/{suspension.pk}/lift/")
    suspension.refresh_from_db()
    assert suspension.lifted_at is not None
    assert AuditEntry.objects.filter(action="organisation.suspension_lifted").count() == 1


def test_the_page_names_a_bad_field_and_suspends_nobody() -> None:
    org = organisation()
    client = logged_in(owner_of(org))
    response = client.post(
        f"/orgs/{org.slug}/manage/suspensions/",
        {"person": UserFactory().player_id, "until": "next week", "reason": "x"},
    )
    assert response.status_code == 400 and "until:" in response.content.decode()
    assert not Suspension.objects.exists()


def test_the_management_page_has_each_form_once_and_a_plain_title() -> None:
    """The page's <title> is text only (a copy of the catalog form once sat inside it), and the
    member and suspension forms share one person field (organisations/_person_field.html)."""
    import re

    org = organisation("Dragon Den")
    page = logged_in(owner_of(org)).get(MANAGE.format(org.slug)).content.decode()
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title is not None and "<" not in title.group(1) and "Dragon Den" in title.group(1)
    assert page.count('id="catalog-name"') == 1
    for field in ("member-person", "suspend-person"):
        assert page.count(f'<label for="{field}">Player id or username</label>') == 1
        assert page.count(f'id="{field}" name="person" required') == 1
