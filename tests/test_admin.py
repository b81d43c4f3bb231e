"""Every model has a Django admin page that loads for staff."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.test import Client

from tests.factories import UserFactory

PROJECT_APPS = ("accounts", "tournaments", "decks", "matches")


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
