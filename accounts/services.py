"""Use cases for accounts: the only code that erases one.

Erasing a person's account keeps the events whole: their registrations, results, decklists
and rulings stay (a tournament's history and other players' standings depend on them), but
nothing there names them any more. Their name, username, e-mail and player id are replaced,
they can no longer log in, and their sessions and API tokens end.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts.models import User
from accounts.player_ids import new_player_id
from accounts.signals import account_erased
from config.errors import Forbidden, ServiceError
from config.locks import for_update
from config.transactions import atomic

ERASED_NAME = "Erased player"


@atomic
def profile_set_public(*, actor: Any, public: bool) -> User:
    """The person shows or hides their own public profile (private by default)."""
    if not getattr(actor, "is_authenticated", False):
        raise Forbidden(_("Log in first."))
    user: User = for_update(User.objects).get(pk=actor.pk)
    if user.profile_public != public:
        user.profile_public = public
        user.save(update_fields=["profile_public"])
    return user


def erase_consequences(user: User) -> str:
    registrations = user.registrations.count() if hasattr(user, "registrations") else 0
    message: str = _(
        "Erasing your account is final: you can no longer log in, and your name, username, "
        "e-mail and player id are removed. Your %(n)d registrations and their results stay in "
        "their events' history under the name \u201c%(erased)s\u201d, so other players' "
        "standings do not change."
    ) % {"n": registrations, "erased": ERASED_NAME}
    return message


@atomic
def account_erase(*, actor: Any, user: User, confirm: bool = False, password: str = "") -> User:
    """The person themselves (with their password) or a site administrator erases an
    account: anonymised, never deleted (see the module's docstring)."""
    if not getattr(actor, "is_authenticated", False):
        raise Forbidden(_("Log in first."))
    if actor.pk != user.pk and not actor.is_superuser:
        raise Forbidden(_("Only the account's owner or a site administrator may erase it."))
    if not confirm:
        raise ServiceError(
            _("confirm: %(what)s Confirm to go on.") % {"what": erase_consequences(user)},
            field="confirm",
            code="confirmation_required",
        )
    if actor.pk == user.pk and not user.check_password(password or ""):
        raise ServiceError(_("password: that is not your password."), field="password")
    # Locked alone (config.locks): the audit entries below lock no event.
    user = for_update(User.objects).get(pk=user.pk)
    user.username = f"erased-{user.pk}"
    user.display_name = ERASED_NAME
    user.first_name = ""
    user.last_name = ""
    user.email = ""
    user.player_id = _fresh_player_id()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.is_organiser = False
    user.profile_public = False
    user.set_unusable_password()
    user.save()
    _end_sessions(user)
    # The events' audit trails are written by tournaments, which listens (tournaments/apps.py).
    account_erased.send(
        sender=User,
        user=user,
        erased_by=actor if actor.pk != user.pk else None,
        at=timezone.now(),
    )
    return user


def _fresh_player_id() -> str:
    for _attempt in range(10):
        candidate = new_player_id()
        if not User.objects.filter(player_id=candidate).exists():
            return candidate
    raise ServiceError(_("Could not allocate a new player id; try again."))


def _end_sessions(user: User) -> None:
    Token.objects.filter(user=user).delete()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    # Sessions keep the user id inside their data: decode each live one (bounded by expiry),
    # and delete through the store so a cached copy goes too.
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            store(session_key=session.session_key).delete()
