"""Published copies: a response body rendered once per version of what it shows.

What everybody reads at once (a round as it is published, the standings, the top cut) is
rendered once per *version*, kept in the cache as bytes, identity and gzip-compressed (gzip
once, when stored), and served as those bytes with a weak ``ETag`` (and a ``Last-Modified``
once it is safe to give one), so a polling client gets ``304 Not Modified`` and no body.

The caller names the version: it must change whenever what the body shows changes, and be
read from the database (a counter in a row, a snapshot's id and time), never kept only in the
cache, so an evicted key can never make a stale copy look fresh. The ETag is derived from the
version alone, so it is weak (``W/``): a copy may be re-made within one version (`max_age`,
for a running timer's ``remaining_seconds``) with a body that differs only in what the
version deliberately leaves out.

Each process also keeps the copies it served last in its own memory (`LOCAL`, by name, at
most `LOCAL_COPY_BYTES`): a copy is looked up by the version the caller read from the
database, so the one in memory answers only while it is the copy of that version (and young
enough for `max_age`), exactly when the shared cache's would. At a publish spike the round's
copy is half a megabyte: fetching and unpickling it from Redis was most of what a request
cost.

A cache that is down (config.cache.ResilientRedisCache answers a miss) only makes this slower:
every request renders its own body, never a stale or a broken one.

Only one request renders a missing copy at a time (an ``add`` lock in the cache); the others
wait for it a little (`WAIT_SECONDS`) instead of all rendering at the moment of a publish,
then render themselves. A copy merely older than `max_age` is served (to the others) while
the one holding the lock re-makes it.
"""

from __future__ import annotations

import gzip
import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.http import http_date, parse_http_date_safe

COPY_SECONDS = 6 * 3600  # how long a copy may stay in the cache (a new version replaces it)
LOCK_SECONDS = 15  # longer than any render; a render that died frees it by then
# How long a request waits for another's render before rendering itself: long enough for a
# 4,096-match round on a busy host (waiting costs nothing; rendering it again costs a core).
WAIT_SECONDS = 5.0
WAIT_STEP = 0.05
# A body this short is sent as it is: gzip would save less than its own headers.
GZIP_FROM_BYTES = 512
# Last-Modified has a resolution of one second: a copy is given one only once that second
# (plus a margin for clocks and commits) is over, so a later change always has a later
# Last-Modified and If-Modified-Since can never hide it.
LAST_MODIFIED_MARGIN = 2.0

# The copies each process keeps in memory (`LOCAL`), by their bodies' size: a few rounds of
# the largest events and every kind of reader's event page.
LOCAL_COPY_BYTES = 64 * 1024 * 1024

# Polling clients keep the body but ask every time (a 304 costs no body); `private` for
# answers that depend on who asks.
CACHE_CONTROL_PUBLIC = "public, no-cache"
CACHE_CONTROL_PRIVATE = "private, no-cache"
# Whoever asks may change the answer (a 404 for an unpublished round, hidden standings).
VARY = ("Accept-Encoding", "Cookie", "Authorization")


@dataclass(frozen=True)
class Copy:
    """One rendered body: identity and gzip bytes (gzipped is None for a short body)."""

    body: bytes
    gzipped: bytes | None
    etag: str
    content_type: str
    made_at: float
    changed_at: float | None  # when what it shows last changed (unix time), if known

    @property
    def last_modified(self) -> float | None:
        return safe_last_modified(self.changed_at)


class LocalCopies:
    """The copies this process served last, by name (one per name, as in the shared cache),
    the least recently used dropped past `max_bytes`."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._copies: OrderedDict[str, Copy] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def _size(copy: Copy) -> int:
        return len(copy.body) + len(copy.gzipped or b"")

    def get(self, name: str, etag: str, max_age: float | None) -> Copy | None:
        """The copy of `name` if it is the one with `etag` and younger than `max_age`."""
        with self._lock:
            copy = self._copies.get(name)
            if copy is None or copy.etag != etag or not _young(copy, max_age):
                return None
            self._copies.move_to_end(name)
            return copy

    def put(self, name: str, copy: Copy) -> None:
        size = self._size(copy)
        with self._lock:
            old = self._copies.pop(name, None)
            if old is not None:
                self._bytes -= self._size(old)
            if size > self.max_bytes:
                return
            self._copies[name] = copy
            self._bytes += size
            while self._bytes > self.max_bytes:
                _name, dropped = self._copies.popitem(last=False)
                self._bytes -= self._size(dropped)

    def clear(self) -> None:
        with self._lock:
            self._copies.clear()
            self._bytes = 0


LOCAL = LocalCopies(LOCAL_COPY_BYTES)


def _timestamp(changed_at: datetime | float | None) -> float | None:
    return changed_at.timestamp() if isinstance(changed_at, datetime) else changed_at


def safe_last_modified(changed_at: datetime | float | None) -> float | None:
    """The Last-Modified to send for a change at `changed_at`, in whole seconds, or None
    while another change in the same second could still follow (LAST_MODIFIED_MARGIN)."""
    changed_at = _timestamp(changed_at)
    if changed_at is None or time.time() < changed_at + LAST_MODIFIED_MARGIN:
        return None
    return float(math.floor(changed_at))


@dataclass(frozen=True)
class Validators:
    etag: str
    last_modified: float | None


def conditional(
    request: HttpRequest, *, version: str, changed_at: datetime | float | None
) -> Validators | None:
    """The validators of `version` when the client already has it (answer 304 without
    fetching or rendering anything), else None."""
    found = Validators(etag_for(version), safe_last_modified(changed_at))
    return found if not_modified(request, found.etag, found.last_modified) else None


def not_modified_answer(found: Validators, *, private: bool = False) -> HttpResponse:
    return _validators(HttpResponse(status=304), found.etag, found.last_modified, private=private)


def etag_for(version: str) -> str:
    return 'W/"' + hashlib.sha256(version.encode()).hexdigest()[:32] + '"'


def make_copy(
    body: bytes,
    *,
    version: str,
    changed_at: datetime | float | None = None,
    content_type: str = "application/json",
    compress: bool = True,
) -> Copy:
    """A copy of `body` for `version`, compressed once here (not stored: see `stored`)."""
    gzipped = (
        gzip.compress(body, compresslevel=6, mtime=0)
        if compress and len(body) >= GZIP_FROM_BYTES
        else None
    )
    return Copy(
        body=body,
        gzipped=gzipped,
        etag=etag_for(version),
        content_type=content_type,
        made_at=time.time(),
        changed_at=_timestamp(changed_at),
    )


def copy_key(name: str) -> str:
    """One slot per thing shown: a new version replaces the copy of the one before (a round
    changes a thousand times; its copies must not pile up in Redis until they expire)."""
    return f"published:{name}"


def lock_key(name: str, version: str) -> str:
    digest = hashlib.sha256(version.encode()).hexdigest()[:32]
    return f"published:{name}:rendering:{digest}"


def stored(
    name: str,
    *,
    version: str,
    render: Callable[[], bytes],
    changed_at: datetime | float | None = None,
    max_age: float | None = None,
    content_type: str = "application/json",
    ttl: int = COPY_SECONDS,
    compress: bool = True,
) -> Copy:
    """The copy of `name` for `version`: from the cache, or rendered by `render()` (once,
    whoever asks at the same moment) and stored in place of the copy of an earlier version.
    With `max_age`, a copy older than that is re-made (a running timer); until it is, others
    are served the one there is. `name` must differ for readers who see different things at
    the same moment (staff and the public), or their copies would keep replacing each other."""
    etag = etag_for(version)
    here = LOCAL.get(name, etag, max_age)
    if here is not None:
        return here
    key = copy_key(name)
    lock = lock_key(name, version)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        copy = cache.get(key)
        if copy is not None and copy.etag == etag:
            if _young(copy, max_age):
                LOCAL.put(name, copy)
                return copy
            if not cache.add(lock, 1, LOCK_SECONDS):
                return copy  # someone is re-making it: this one is at most a render old
            break
        if cache.add(lock, 1, LOCK_SECONDS):
            # The one who held the lock may have stored its copy between our read and our add.
            finished = _finished_copy(key, etag, max_age)
            if finished is not None:
                cache.delete(lock)
                LOCAL.put(name, finished)
                return finished
            break  # ours to render
        holder_gone = not _cache_answers(lock)
        if holder_gone:
            # The holder finished between our add and this read, or the cache is down (add
            # answers False then): take the holder's copy if it is there.
            finished = _finished_copy(key, etag, max_age)
            if finished is not None:
                LOCAL.put(name, finished)
                return finished
        if holder_gone or time.monotonic() >= deadline:
            # The cache is down, or we waited long enough: render without storing.
            return make_copy(
                render(),
                version=version,
                changed_at=changed_at,
                content_type=content_type,
                compress=compress,
            )
        time.sleep(WAIT_STEP)
    try:
        copy = make_copy(
            render(),
            version=version,
            changed_at=changed_at,
            content_type=content_type,
            compress=compress,
        )
        cache.set(key, copy, ttl)
        LOCAL.put(name, copy)
    finally:
        cache.delete(lock)
    return copy


def existing(name: str, *, version: str, max_age: float | None = None) -> Copy | None:
    """The stored copy of `name` if it is the one of `version` (and younger than `max_age`),
    else None; never renders nor waits (config.fast_path leaves a miss to the full stack)."""
    etag = etag_for(version)
    here = LOCAL.get(name, etag, max_age)
    if here is not None:
        return here
    copy = _finished_copy(copy_key(name), etag, max_age)
    if copy is not None:
        LOCAL.put(name, copy)
    return copy


def _finished_copy(key: str, etag: str, max_age: float | None) -> Copy | None:
    """The copy another request has just stored for this version, if it is young enough."""
    copy: Copy | None = cache.get(key)
    if copy is None or copy.etag != etag or not _young(copy, max_age):
        return None
    return copy


def _young(copy: Copy, max_age: float | None) -> bool:
    """The copy may still be served (no `max_age`, or made less than that long ago)."""
    return max_age is None or time.time() - copy.made_at < max_age


def _cache_answers(lock: str) -> bool:
    """The render lock is really held by someone (an add that failed because the cache is
    down must not make every request wait)."""
    return cache.get(lock) is not None


# --- serving ---------------------------------------------------------------------------------


def accepts_gzip(request: HttpRequest) -> bool:
    """Whether the request's Accept-Encoding allows gzip (a q of 0 refuses it)."""
    header = request.META.get("HTTP_ACCEPT_ENCODING", "")
    allowed: dict[str, float] = {}
    for part in header.split(","):
        name, _sep, params = part.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        allowed[name] = q
    for name in ("gzip", "x-gzip"):
        if name in allowed:
            return allowed[name] > 0
    return allowed.get("*", 0.0) > 0


def _etags(header: str) -> list[str]:
    return [tag.strip() for tag in header.split(",") if tag.strip()]


def _weak_equal(a: str, b: str) -> bool:
    return a.removeprefix("W/") == b.removeprefix("W/")


def not_modified(request: HttpRequest, etag: str, last_modified: float | None) -> bool:
    """The client's copy is current: If-None-Match names `etag` (weak comparison), or,
    without If-None-Match, If-Modified-Since is not older than `last_modified`."""
    if request.method not in ("GET", "HEAD"):
        return False
    if_none_match = request.META.get("HTTP_IF_NONE_MATCH")
    if if_none_match is not None:
        tags = _etags(if_none_match)
        return "*" in tags or any(_weak_equal(tag, etag) for tag in tags)
    since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE", ""))
    return since is not None and last_modified is not None and last_modified <= since


def _validators(
    response: HttpResponse, etag: str, last_modified: float | None, *, private: bool
) -> HttpResponse:
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    response["Cache-Control"] = CACHE_CONTROL_PRIVATE if private else CACHE_CONTROL_PUBLIC
    response["Vary"] = ", ".join(VARY)
    return response


def answer(request: HttpRequest, copy: Copy, *, private: bool = False) -> HttpResponse:
    """The copy as a response: 304 when the client has it, else its bytes, gzip-compressed
    when the request allows it."""
    last_modified = copy.last_modified
    if not_modified(request, copy.etag, last_modified):
        return _validators(HttpResponse(status=304), copy.etag, last_modified, private=private)
    if copy.gzipped is not None and accepts_gzip(request):
        response = HttpResponse(copy.gzipped, content_type=copy.content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(copy.body, content_type=copy.content_type)
    response["Content-Length"] = str(len(response.content))
    return _validators(response, copy.etag, last_modified, private=private)


def version_of(*parts: object) -> str:
    """A version string from the parts that decide what a body shows."""
    return "|".join(str(p) for p in parts)


def serve(
    request: HttpRequest,
    *,
    name: str | None,
    version: str,
    render: Callable[[], bytes],
    changed_at: datetime | float | None = None,
    max_age: float | None = None,
    private: bool = False,
) -> HttpResponse:
    """The whole answer of a published copy: a 304 without rendering anything when the client
    already has `version`, else the copy stored under `name` (`stored`), or with no name one
    made for this request only (a body too small and too varied to keep)."""
    unchanged = conditional(request, version=version, changed_at=changed_at)
    if unchanged is not None:
        return not_modified_answer(unchanged, private=private)
    if name is None:
        copy = make_copy(render(), version=version, changed_at=changed_at)
    else:
        copy = stored(name, version=version, render=render, changed_at=changed_at, max_age=max_age)
    return answer(request, copy, private=private)
