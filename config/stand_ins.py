"""Stand-ins for a reader's own values in a page stored once per state and kind of reader.

A page that nearly everyone sees alike (the event page, tournaments.event_page; the pairings
page, matches.views.pairings_page) is rendered once per *state* (everything it shows that is
nobody's own) and *kind of reader* (every yes/no the templates branch on about the reader),
with a stand-in in place of each of the reader's own values (their id, name and player id,
the CSRF token, the timer's "now"...). Each request replaces the stand-ins by its reader's
values, written as the template would have written them (`written`).

Stand-ins are derived from SECRET_KEY, so nothing an organiser or a player writes on a page
can name one. This module is what those pages share: the stand-ins, the reader and request
the templates read (`StandInUser`, `StandInRequest`), the state's digest (`digest`,
`plain_rows`) and the timer fields that move with the clock.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import operator
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token
from django.utils.formats import localize
from django.utils.html import conditional_escape

from config import published, shared_copies
from config.cache import redis_is_down

# The CSRF token's stand-in (the shared copies' placeholder): put in only when a page has a form.
CSRF = shared_copies.CSRF_PLACEHOLDER
# The timer fields that move with the clock: own values, not part of the state.
TIMER_CLOCK_FIELDS = frozenset({"now", "now_iso", "remaining", "table_remaining"})
# A running timer's fields that move with the clock too (its text says when it ends).
TIMER_RUNNING_FIELDS = ("remaining_text", "remaining_seconds", "signed_text")


@functools.cache
def stand_in(name: str) -> str:
    """A stand-in for one own value: letters and digits only (no escaping changes it), never
    guessable from outside (derived from SECRET_KEY)."""
    digest_ = hashlib.sha256(f"event-page-stand-in:{name}:{settings.SECRET_KEY}".encode())
    return f"bd{name}x{digest_.hexdigest()[:40]}"


@functools.cache
def number_stand_in(name: str) -> int:
    """A stand-in for an id that goes into a URL (an `<int:pk>` path): 19 digits that no id,
    count or date on the page can be (derived from SECRET_KEY)."""
    digest_ = hashlib.sha256(f"event-page-number:{name}:{settings.SECRET_KEY}".encode())
    return 7 * 10**18 + int(digest_.hexdigest(), 16) % 10**18


# The CSRF token's alphabet (Django's), each letter's place in it, and the bytes below the
# largest multiple of its length (a byte there, modulo the length, is uniform over it).
_CSRF_INDEX = {letter: place for place, letter in enumerate(CSRF_ALLOWED_CHARS)}
_CSRF_BASE = len(CSRF_ALLOWED_CHARS)
_CSRF_UNBIASED = 256 - 256 % _CSRF_BASE


def _csrf_mask() -> list[int]:
    """CSRF_SECRET_LENGTH letters of the alphabet (their places), each uniform and drawn from
    the system's random source as `get_random_string`'s `secrets.choice` draws them, from one
    read of it instead of one a letter."""
    mask: list[int] = []
    while len(mask) < CSRF_SECRET_LENGTH:
        mask.extend(b % _CSRF_BASE for b in secrets.token_bytes(48) if b < _CSRF_UNBIASED)
    return mask[:CSRF_SECRET_LENGTH]


def csrf_token(request: HttpRequest) -> str:
    """`django.middleware.csrf.get_token(request)`: the reader's secret (their CSRF cookie's)
    masked by a new random mask, the cookie marked for renewal, as Django masks it (mask, then
    each letter of the secret shifted by the mask's), with the mask drawn in one read of the
    random source (`_csrf_mask`): Django's 32 draws were about a twentieth of a stored page's
    CPU. Without a secret (a new one is made and its cookie set), or with one Django would not
    have kept, Django's own `get_token`."""
    secret = request.META.get("CSRF_COOKIE")
    if (
        not isinstance(secret, str)
        or len(secret) != CSRF_SECRET_LENGTH
        or not all(letter in _CSRF_INDEX for letter in secret)
    ):
        return get_token(request)
    # As get_token: the cookie is used, so it is sent again (its expiry renewed).
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = _csrf_mask()
    letters = CSRF_ALLOWED_CHARS
    return "".join(letters[m] for m in mask) + "".join(
        letters[(_CSRF_INDEX[letter] + m) % _CSRF_BASE]
        for letter, m in zip(secret, mask, strict=True)
    )


def written(value: Any) -> str:
    """`value` as `{{ value }}` writes it (localized, escaped). A plain text or whole number
    (what every request writes: names, ids) without the general formatting's calls: `localize`
    leaves a text as it is and writes a whole number as its digits unless thousands are
    grouped; `conditional_escape` of a text not marked safe is `html.escape`."""
    kind = type(value)
    if kind is str:
        return html.escape(value)
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return str(conditional_escape(localize(value)))


@dataclass(frozen=True)
class StandInUser:
    """What the templates read of request.user, with stand-ins for the reader's values."""

    is_authenticated: bool
    is_organiser: bool
    is_superuser: bool
    pk: int | None
    public_name: str
    player_id: str


@dataclass(frozen=True)
class StandInRequest:
    """What the templates read of the request: its path (the log-in link's `next`), the
    one session flag the header shows, and the reader (the push control asks whether they
    are signed in)."""

    path: str
    session: dict[str, Any]
    user: StandInUser


def judge_desk(request: HttpRequest) -> bool:
    """The header's one session flag, read only for a signed-in reader (as the template does)."""
    if not request.user.is_authenticated:
        return False
    return bool(request.session.get("judge_desk"))


def stand_in_user(request: HttpRequest) -> StandInUser:
    """The reader as the templates read them, their id, name and player id stand-ins."""
    user = request.user
    authenticated = bool(user.is_authenticated)
    return StandInUser(
        is_authenticated=authenticated,
        is_organiser=bool(getattr(user, "is_organiser", False)),
        is_superuser=bool(getattr(user, "is_superuser", False)),
        pk=None if user.pk is None else number_stand_in("user"),
        public_name=stand_in("name") if authenticated else "",
        player_id=stand_in("playerid") if authenticated else "",
    )


def reader_context(request: HttpRequest, user: StandInUser) -> dict[str, Any]:
    """What a stored copy's template is given for its reader: the stand-in reader and request,
    the CSRF token's stand-in, no messages (a page with messages is rendered whole) and the
    site's degraded flag."""
    return {
        "user": user,
        "request": stand_in_request(request, user),
        "csrf_token": CSRF,
        "messages": (),
        "services_degraded": redis_is_down(),
    }


def stand_in_request(request: HttpRequest, user: StandInUser) -> StandInRequest:
    return StandInRequest(request.path, {"judge_desk": judge_desk(request)}, user)


def user_kind(request: HttpRequest) -> list[Any]:
    """The yes/no about the reader that the site's header branches on."""
    user = request.user
    return [
        bool(user.is_authenticated),
        bool(getattr(user, "is_organiser", False)),
        bool(getattr(user, "is_superuser", False)),
        judge_desk(request),
    ]


def user_values(request: HttpRequest) -> dict[str, str]:
    """The `stand_in_user` stand-ins -> the reader's values, as the templates write them. An
    id is written as `{% url %}` and `{{ }}` write it alike (plain digits: no thousands
    separator in these settings)."""
    user = request.user
    values: dict[str, str] = {
        str(number_stand_in("user")): "" if user.pk is None else written(user.pk),
    }
    if user.is_authenticated:
        values[stand_in("name")] = written(user.public_name)
        values[stand_in("playerid")] = written(user.player_id)
    return values


def timer_state(timer: dict[str, Any] | None) -> dict[str, Any] | None:
    """A timer's fields but those that move with the clock (part of a page's state): a
    running timer's remaining time would make every second a new state."""
    if timer is None:
        return None
    shown = {k: v for k, v in timer.items() if k not in TIMER_CLOCK_FIELDS}
    if shown.get("state") == "running":
        for moving in TIMER_RUNNING_FIELDS:
            shown.pop(moving, None)
    return shown


def push_keys() -> list[Any]:
    """What a page's push control shows of the site's VAPID keys (notifications.push reads
    the same settings): the public key, and whether push is on at all. Part of a page's
    state, so a changed key shows at once, not when the stored copy of an earlier key expires."""
    public = str(getattr(settings, "VAPID_PUBLIC_KEY", "") or "").strip()
    private = str(getattr(settings, "VAPID_PRIVATE_KEY", "") or "").strip()
    return [public, bool(public and private)]


def has_messages(request: HttpRequest) -> bool:
    """Messages waiting for this reader (shown once: such a page is rendered whole)."""
    return len(get_messages(request)) > 0


_PLAIN = (int, float, bool, str, type(None))
_COLUMNS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def _columns(model: Any) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """A model's column attributes, in order, and a getter of their values as a tuple
    (asked for every row of every request)."""
    found = _COLUMNS.get(model)
    if found is None:
        names = tuple(f.attname for f in model._meta.concrete_fields)
        getter = operator.attrgetter(*names)
        # attrgetter of one name gives the value, not a tuple
        one: Callable[[Any], tuple[Any, ...]] = lambda row: (getter(row),)  # noqa: E731
        found = _COLUMNS[model] = (names, one if len(names) == 1 else getter)
    return found


def plain_rows(value: Any) -> Any:
    """`value` as plain data for a state's digest: model rows by their field values.
    (Plain values are kept as they are without a call: this runs over every row a page
    reads, for every request.)"""
    if isinstance(value, _PLAIN):  # the most common, and never a model row
        return value
    if hasattr(value, "_meta"):
        names, values = _columns(type(value))
        return [
            (name, v if isinstance(v, _PLAIN) else plain_rows(v))
            for name, v in zip(names, values(value), strict=True)
        ]
    if isinstance(value, dict):
        return sorted(
            (str(k), v if isinstance(v, _PLAIN) else plain_rows(v)) for k, v in value.items()
        )
    if isinstance(value, list | tuple):
        return [v if isinstance(v, _PLAIN) else plain_rows(v) for v in value]
    return str(value)


def digest(value: Any) -> str:
    """A short digest of plain data (a copy's version or kind of reader)."""
    return hashlib.sha256(json.dumps(value, default=str).encode()).hexdigest()[:32]


# A copy of a state nobody reads any more leaves the cache by itself after an hour.
PAGE_COPY_SECONDS = 3600


def stored_page(name: str, version: str, render: Callable[[], bytes] | None) -> str | None:
    """The stored HTML copy ``name`` at ``version``, as text: rendered and stored by
    ``render`` when missing, or None when missing and ``render`` is None (the fast path,
    which leaves a missing copy to the full stack)."""
    if render is not None:
        copy: published.Copy | None = published.stored(
            name,
            version=version,
            render=render,
            content_type="text/html; charset=utf-8",
            ttl=PAGE_COPY_SECONDS,
            compress=False,
        )
    else:
        copy = published.existing(name, version=version)
    return None if copy is None else copy.body.decode()
