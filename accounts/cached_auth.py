"""The signed-in account of a request, from the cache when it is there.

Every page and API call of a signed-in person reads their account (the header shows their
name; permissions and limits need their id). Django's AuthenticationMiddleware reads the row
from the database on every request; at a publish spike that is one query for each of
thousands of requests, for rows that do not change. `CachedAuthenticationMiddleware` keeps the
row in the cache (`USER_SECONDS`) and checks it exactly as Django checks a fresh one: the
session names a backend the site still uses, and the session's hash of the password matches
the account's (so a password change still signs out the other sessions). Anything else (no
copy, another hash, the fallback secrets) goes through Django's own `get_user`, which flushes
a session that no longer verifies.

Every save or deletion of an account drops its copy (`forget_user`, connected in
accounts.apps), so a deactivated or changed account is read afresh on its next request; an
account changed without `save()` (a bulk `update()`, which the site never does to accounts)
would be seen within `USER_SECONDS`. The copy holds what the row holds (the password's hash
too), in the same cache that holds the sessions.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.core.cache import DEFAULT_CACHE_ALIAS, cache
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from config.kept import Kept

USER_SECONDS = 300


def user_key(user_id: object) -> str:
    return f"auth-user:{user_id}"


_NOT_READ = object()


def verified_copy(session: SessionBase, read: Any = _NOT_READ) -> Any | None:
    """The cached copy of the session's account when the session verifies against it (a
    backend the site still uses, the password's hash), else None (no copy, another hash:
    Django's `get_user` decides). Reads the cache only, never the account's row. `read`:
    what the cache held under the account's key, when the caller already asked it for the
    account the session names (None: nothing)."""
    user_id = session.get(SESSION_KEY)
    if user_id is None:
        return None
    session_hash = session.get(HASH_SESSION_KEY)
    if session_hash and session.get(BACKEND_SESSION_KEY) in settings.AUTHENTICATION_BACKENDS:
        user = cache.get(user_key(user_id)) if read is _NOT_READ else read
        if user is not None and constant_time_compare(session_hash, user.get_session_auth_hash()):
            return user
    return None


def signed_in(session_key: str) -> tuple[SessionBase, Any] | None:
    """The session a session cookie names and its account, as SessionMiddleware and
    `cached_user` would find them, when the account (its cached copy, else its row, which is
    then cached) verifies against the session; None for anything else (no such session, an
    expired one, another hash, an account that may no longer sign in), which
    the full stack then answers with its own checks and side effects (config.fast_path).
    Loads the session as the middleware does (the session cache, else the database row while
    it has not expired); changes nothing but the account's cache entry, as `cached_user`
    would fill it (SESSION_SAVE_EVERY_REQUEST is off: reading a session never saves it nor
    sets its cookie)."""
    if not session_key or settings.SESSION_SAVE_EVERY_REQUEST:
        return None
    engine = import_module(settings.SESSION_ENGINE)
    session: SessionBase = engine.SessionStore(session_key)
    user = verified_copy(session, _read_with_session(session)) or _verified_row(session)
    if user is None:
        return None
    _session_accounts.put(session_key, str(user.pk))
    return session, user


# The account each session key signed in when this process last verified it (at most this
# many, the least recently used dropped first): the next request of that session reads the
# session and the account's copy from the cache in one round trip. Only a guess of which
# account's key to read: the session read with it still names its account, and is checked.
SESSION_ACCOUNTS_MAX = 20_000
_session_accounts: Kept[str, str] = Kept(SESSION_ACCOUNTS_MAX)


def _read_with_session(session: SessionBase) -> Any:
    """The account's copy read from the cache in the same round trip as the session, when
    this process knows which account the session signed in last time and the session is
    kept in that cache (cached_db sessions in the default cache): the session is then loaded
    from what was read, as its `load` would have (the session's row is read as before when
    the cache holds no session). `_NOT_READ` when nothing was read for the account (another
    account than the one guessed, no guess, another session engine)."""
    key = session.session_key
    if key is None or not isinstance(session, CachedDBStore):
        return _NOT_READ
    if settings.SESSION_CACHE_ALIAS != DEFAULT_CACHE_ALIAS:
        return _NOT_READ
    user_id = _session_accounts.get(key)
    if user_id is None:
        return _NOT_READ
    session_cache_key = session.cache_key
    got = cache.get_many([session_cache_key, user_key(user_id)])
    data = got.get(session_cache_key)
    if data is None:
        return _NOT_READ  # the session's own load reads its row (and caches it)
    session._session_cache = data  # what its load() would have returned
    if str(data.get(SESSION_KEY)) != user_id:
        return _NOT_READ
    return got.get(user_key(user_id))


def _verified_row(session: SessionBase) -> Any | None:
    """The session's account read from its row when it verifies as Django's `get_user`
    verifies it with the current secret (a backend the site uses, which still lets the
    account sign in, and the session's hash of the password), then kept in the cache as
    `cached_user` keeps it; None for anything else, which `get_user` then decides on the full
    stack (a fallback secret's hash, a session to flush). Writes nothing but the cache."""
    user_id = session.get(SESSION_KEY)
    session_hash = session.get(HASH_SESSION_KEY)
    backend_path = session.get(BACKEND_SESSION_KEY)
    if user_id is None or not session_hash or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = auth.load_backend(backend_path).get_user(user_id)
    if user is None or not hasattr(user, "get_session_auth_hash"):
        return None
    if not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None
    if str(user.pk) != str(user_id):
        return None
    cache.set(user_key(user.pk), user, USER_SECONDS)
    return user


def cached_user(request: HttpRequest) -> Any:
    """The request's account: the cached copy when the session verifies against it, else
    Django's `get_user` (which then fills the cache)."""
    session = request.session
    user_id = session.get(SESSION_KEY)
    if user_id is None:
        return auth.get_user(request)  # anonymous: no query either way
    user = verified_copy(session)
    if user is not None:
        return user
    user = auth.get_user(request)
    if user.is_authenticated and str(user.pk) == str(user_id):
        cache.set(user_key(user.pk), user, USER_SECONDS)
    return user


def _user_once(request: HttpRequest) -> Any:
    if not hasattr(request, "_cached_user"):
        request._cached_user = cached_user(request)  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


class CachedAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's AuthenticationMiddleware with `request.user` read through `cached_user`."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _user_once(request))


def forget_user(sender: Any, instance: Any, **kwargs: Any) -> None:
    """An account was saved or deleted: its next request reads the row afresh."""
    cache.delete(user_key(instance.pk))
