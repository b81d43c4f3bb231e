"""A player's account can be erased: anonymised, its results kept in their events."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import User
from config.errors import Forbidden, ServiceError
from tests.factories import RegistrationFactory, UserFactory, logged_in
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery"  # tests/factories.py UserFactory


def test_erasing_needs_confirm_and_the_password_and_changes_nothing_without() -> None:
    user = UserFactory()
    with pytest.raises(ServiceError) as asked:
        services.account_erase(actor=user, user=user, password=PASSWORD)
    assert asked.value.field == "confirm" and "stay in their events" in asked.value.message
    with pytest.raises(ServiceError) as wrong:
        services.account_erase(actor=user, user=user, confirm=True, password="guess")
    assert wrong.value.field == "password"
    user.refresh_from_db()
    assert user.is_active and user.display_name != services.ERASED_NAME


def test_an_erased_player_is_anonymous_but_their_registrations_and_results_stay() -> None:
    registration = RegistrationFactory()
    user = registration.player
    old = (user.username, user.email, user.player_id, user.display_name)
    services.account_erase(actor=user, user=user, confirm=True, password=PASSWORD)
    user.refresh_from_db()
    assert user.username == f"erased-{user.pk}" and user.email == ""
    assert user.display_name == services.ERASED_NAME and user.player_id != old[2]
    assert not user.is_active and not user.has_usable_password()
    assert Registration.objects.get(pk=registration.pk).name == services.ERASED_NAME
    assert not User.objects.filter(email=old[1]).exists()
    entry = AuditEntry.objects.get(action="account.erased")
    assert entry.tournament == registration.tournament
    assert old[3] not in str(entry.data)


def test_erasing_ends_the_sessions_and_tokens(api_client: Any) -> None:
    from rest_framework.authtoken.models import Token

    user = UserFactory()
    Token.objects.create(user=user)
    other_browser = logged_in(user)
    assert other_browser.get(reverse("profile")).status_code == 200
    services.account_erase(actor=user, user=user, confirm=True, password=PASSWORD)
    assert not Token.objects.filter(user=user).exists()
    assert other_browser.get(reverse("profile")).status_code == 302  # sent to log in


def test_only_the_owner_or_a_site_administrator_erases() -> None:
    user, stranger = UserFactory(), UserFactory()
    with pytest.raises(Forbidden):
        services.account_erase(actor=stranger, user=user, confirm=True)
    admin = UserFactory(is_superuser=True, is_staff=True)
    services.account_erase(actor=admin, user=user, confirm=True)
    user.refresh_from_db()
    assert not user.is_active


def test_the_erase_page_asks_then_erases_and_logs_out() -> None:
    user = UserFactory()
    client = logged_in(user)
    page = client.get(reverse("erase_account")).content.decode()
    assert "cannot be undone" in page and 'name="password"' in page
    refused = client.post(reverse("erase_account"), {"password": PASSWORD}).content.decode()
    assert "Confirm to go on" in refused
    done = client.post(reverse("erase_account"), {"password": PASSWORD, "confirm": "yes"})
    assert done.status_code == 302
    user.refresh_from_db()
    assert not user.is_active
    assert client.get(reverse("profile")).status_code == 302


def test_the_api_erases_the_current_account(api_client: Any) -> None:
    user = UserFactory()
    api_client.force_authenticate(user)
    asked = api_client.post("/api/me/erase/", {"password": PASSWORD}, format="json")
    assert asked.status_code == 400 and asked.json()["field"] == "confirm"
    done = api_client.post("/api/me/erase/", {"password": PASSWORD, "confirm": True}, format="json")
    assert done.status_code == 204
    assert not User.objects.get(pk=user.pk).is_active
    assert Client().get("/api/me/").status_code in (401, 403)
