"""One rendered copy of a busy page part, shared by everyone who sees the same thing.

A page part that many people re-read while it changes several times a second (the judges'
queue, the organiser dashboard's player list during check-in) is rendered once per change
and kept in the cache under the versions of what it shows; a copy younger than `grace`
seconds is still served after a change, so twenty readers render it about once a second,
not twenty times. The person who made a change since the copy was made always gets a fresh
one (their own change shows at once). No copy outlives `ttl` seconds.

Copies carry a placeholder instead of the CSRF token; `personal()` puts in the reader's.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest
from django.middleware.csrf import get_token

# Rendered into shared copies in place of the reader's CSRF token. Nothing a person can
# write is long enough to hold it, and it has no characters escaping would change.
CSRF_PLACEHOLDER = (
    "csrf-placeholder-5f0c7e1b2a9d4c3e8f6a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"
)
TOUCH_SECONDS = 120  # longer than any copy is kept


def version_key(kind: str, object_id: int) -> str:
    return f"shared-copy:version:{kind}:{object_id}"


def touch_key(kind: str, user_id: int) -> str:
    return f"shared-copy:touched:{kind}:{user_id}"


def changed(kind: str, object_id: int, actor_id: int | None = None) -> None:
    """What `kind` copies of this object show changed: move its version now (for reads in
    this transaction) and again at commit (so no copy made in between outlives the change),
    and note that this person changed it."""
    key = version_key(kind, object_id)

    def bump() -> None:
        # A new random version in one round trip: copies only compare versions for
        # equality, and nothing needs them to count.
        cache.set(key, secrets.token_hex(8), timeout=None)

    bump()
    transaction.on_commit(bump)
    if actor_id is not None:
        cache.set(touch_key(kind, actor_id), time.time(), TOUCH_SECONDS)


def shared_copy(
    *,
    key: str,
    kind: str,
    object_ids: Sequence[int],
    user_id: int | None,
    render: Callable[[], dict[str, Any]],
    grace: float,
    ttl: int,
    also: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The copy under `key` (a dict with at least "html"), rendered by `render()` when there
    is none fresh enough for this reader. `also`: other keys the caller needs, read in the
    same round trip to the cache; each one found is set in `also` to its value (the others
    are left as they are)."""
    version_keys = [version_key(kind, pk) for pk in object_ids]
    wanted = [key, *version_keys]
    touched_key = touch_key(kind, user_id) if user_id is not None else None
    if touched_key is not None:
        wanted.append(touched_key)
    extra = [k for k in also or () if k not in wanted]
    got = cache.get_many([*wanted, *extra])
    if also is not None:
        for k in also:
            if k in got:
                also[k] = got[k]
    versions = [got.get(k, 0) for k in version_keys]
    copy = got.get(key)
    now = time.time()
    if copy is not None:
        touched = got.get(touched_key, 0) if touched_key is not None else 0
        fresh = copy["versions"] == versions
        young = now - copy["at"] < grace
        if (fresh or young) and copy["at"] >= touched:
            return copy
    copy = render()
    copy["versions"] = versions
    copy["at"] = now
    cache.set(key, copy, ttl)
    return copy


def personal(request: HttpRequest, html: str) -> str:
    """A shared copy with the reader's own CSRF token in place of the placeholder."""
    return html.replace(CSRF_PLACEHOLDER, get_token(request))
