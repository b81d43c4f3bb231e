import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from accounts.player_ids import ALPHABET, normalise_player_id
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_sign_up_logs_in_and_assigns_a_readable_player_id() -> None:
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "display_name": "New Bie",
            "email": "newbie@example.com",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
        },
        follow=True,
    )
    user = User.objects.get(username="newbie")
    assert re.fullmatch(f"[{ALPHABET}]{{3}}-[{ALPHABET}]{{3}}", user.player_id)
    assert user.player_id in response.content.decode()
    assert response.context["user"].is_authenticated


def test_sign_up_errors_are_shown_on_the_fields() -> None:
    response = Client().post(
        "/accounts/signup/", {"username": "", "password1": "x", "password2": "y"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors.keys() >= {"username", "password2"}


def test_login_logout_and_password_change() -> None:
    user = UserFactory(username="pat")
    client = Client()
    assert (
        client.post(
            "/accounts/login/", {"username": "pat", "password": "correct-horse-battery"}
        ).status_code
        == 302
    )
    response = client.post(
        "/accounts/password/change/",
        {
            "old_password": "correct-horse-battery",
            "new_password1": "another-long-passphrase",
            "new_password2": "another-long-passphrase",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-long-passphrase")
    assert client.post("/accounts/logout/").status_code == 302


def test_password_reset_sends_an_email() -> None:
    UserFactory(email="reset@example.com")
    Client().post("/accounts/password/reset/", {"email": "reset@example.com"})
    assert len(mail.outbox) == 1 and "/accounts/password/reset/" in mail.outbox[0].body


def test_profile_edits_display_name() -> None:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    client.post("/accounts/profile/", {"display_name": "Shown Name", "email": user.email})
    user.refresh_from_db()
    assert user.display_name == "Shown Name"
    assert Client().get("/accounts/profile/").status_code == 302


def test_player_ids_are_unique_and_stable() -> None:
    users = UserFactory.create_batch(20)
    ids = {u.player_id for u in users}
    assert len(ids) == 20
    first = users[0]
    before = first.player_id
    first.display_name = "Changed"
    first.save()
    first.refresh_from_db()
    assert first.player_id == before


@pytest.mark.parametrize(
    ("typed", "expected"), [("abc-def", "ABC-DEF"), ("abc def", "ABC-DEF"), ("a0c1ef", "AQCIEF")]
)
def test_typed_player_ids_are_normalised(typed: str, expected: str) -> None:
    assert normalise_player_id(typed).replace("-", "") == expected.replace("-", "")
