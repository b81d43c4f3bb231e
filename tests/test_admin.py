"""Every model has a Django admin page that loads for staff."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.test import Client

from tests.factories import UserFactory

PROJECT_APPS = (
    "accounts",
    "tournaments",
    "organisations",
    "decks",
    "matches",
    "weekends",
    "series",
)


def test_every_project_model_is_registered_in_the_admin() -> None:
    missing = [
        model.__name__
        for app in PROJECT_APPS
        for model in apps.get_app_config(app).get_models()
        if model not in admin.site._registry
    ]
    assert missing == []


@pytest.mark.django_db
def test_admin_changelists_load_for_a_superuser() -> None:
    user = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    for model in admin.site._registry:
        if model._meta.app_label not in PROJECT_APPS:
            continue
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db
def test_an_admin_change_to_an_event_is_in_the_events_audit_trail() -> None:
    from tests.factories import RegistrationFactory, TournamentFactory
    from tournaments.models import AuditEntry

    event = TournamentFactory()
    registration = RegistrationFactory(tournament=event)
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = f"/admin/tournaments/registration/{registration.pk}/delete/"
    assert client.post(url, {"post": "yes"}).status_code == 302
    entry = AuditEntry.objects.get(action="admin.deleted")
    assert entry.tournament == event and entry.event_slug == event.slug
    assert entry.data["object"] == str(registration)


@pytest.mark.django_db
def test_the_readme_demo_logins_admin_has_the_admin_and_the_organiser_is_told_no() -> None:
    """README, "Demo logins": `admin` is the site administrator at /admin/; the demo
    organiser runs the event from its pages and the admin says they may not enter."""
    from accounts.models import User
    from eventdata.demo import DEMO_PASSWORD, load_demo

    load_demo()
    admin_user = User.objects.get(username="admin")
    organiser_user = User.objects.get(username="organiser")
    assert admin_user.check_password(DEMO_PASSWORD) and organiser_user.check_password(DEMO_PASSWORD)
    admin_client = Client()
    admin_client.force_login(admin_user)
    assert "tournaments" in admin_client.get("/admin/").content.decode()
    organiser = Client()
    organiser.force_login(organiser_user)
    refused = organiser.get("/admin/", follow=True).content.decode()
    assert "not authorized to access this page" in refused
    assert organiser.get("/events/battledesk-demo-open/manage/").status_code == 200


@pytest.mark.django_db
def test_the_admin_refuses_a_name_with_a_right_to_left_override() -> None:
    from tests.factories import TournamentFactory

    event = TournamentFactory(name="Plain Open")
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = f"/admin/tournaments/tournament/{event.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list)}
    data["name"] = "Evil \u202eneP"
    response = client.post(url, data)
    assert response.status_code == 200  # the form again, with the error
    assert "invisible characters" in response.content.decode()
    event.refresh_from_db()
    assert event.name == "Plain Open"
