"""The overlays' live stream: server-sent events from an async view (docs/overlays.md).

Thousands of viewers must not hold thousands of threads or run thousands of queries. So the
stream is an async view served under ASGI (uvicorn): each connection is a coroutine waiting on
an ``asyncio.Event``, not a thread. In each process one ``Hub`` per overlay (event, kind,
argument) watches the event's live version, builds the overlay's JSON once per change and
wakes every viewer of it with the same bytes:

- every ``OVERLAY_TICK_SECONDS`` it reads the per-event version in the cache, moved after every
  commit that changes an overlay (``live_version``); with Redis that reaches every process;
- every ``OVERLAY_DB_CHECK_SECONDS`` (and whenever the cache moved) it reads the live stamp
  from the database (``selectors.live_stamp``: one query), so a process with the local-memory
  cache, or with Redis down (config/cache.py answers nothing), still sees every change;
- when either moved it builds the feed; a feed whose content did not change sends nothing.

A connection gets ``retry:`` (a random 1 to 3 s, so reconnections spread), the current data
unless its ``Last-Event-ID`` already names it, a comment line every
``OVERLAY_HEARTBEAT_SECONDS`` (proxies keep the connection; the browser notices a dead one),
and ends after ``OVERLAY_STREAM_MAX_SECONDS`` (plus up to 10 % at random), after which the
browser reconnects by itself, with its Last-Event-ID. Under WSGI the stream answers 204, which
tells EventSource not to retry: the page then polls the JSON feed (static/js/overlay.js).
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import logging
import random
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse

from overlays import feeds, live_version
from overlays.models import MAX_SLOT
from overlays.selectors import live_stamp
from tournaments.models import Tournament
from tournaments.selectors import event_visible

logger = logging.getLogger(__name__)


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def content_id(data: dict[str, Any]) -> str:
    """The event id of a feed: a hash of what it shows (its ``server_now`` left out)."""
    shown = {k: v for k, v in data.items() if k != "server_now"}
    raw = json.dumps(shown, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def sse_message(data: dict[str, Any], event_id: str) -> bytes:
    body = json.dumps(data, separators=(",", ":"), default=str)
    return f"id: {event_id}\nevent: overlay\ndata: {body}\n\n".encode()


class Hub:
    """One overlay's watcher in this process, shared by all its viewers."""

    def __init__(self, event_id: int, kind: str, arg: int) -> None:
        self.event_id = event_id
        self.kind = kind
        self.arg = arg
        self.viewers = 0
        self.id = ""
        self.message = b""
        self.ready = asyncio.Event()
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            # A context of its own: the hub outlives the request that started it (whose
            # thread-sensitive executor ends with it), and serves every later viewer.
            self._task = asyncio.get_running_loop().create_task(
                self._run(), context=contextvars.Context()
            )

    def publish(self, data: dict[str, Any]) -> None:
        new_id = content_id(data)
        if new_id == self.id:
            return
        self.id = new_id
        self.message = sse_message(data, new_id)
        self.ready.set()
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_change(self, seen: str) -> None:
        if self.id != seen:
            return
        await self._changed.wait()

    # Each runs in a worker thread of the loop's executor, outside any request: the thread's
    # connection is handed back when the call ends (to the pool, if configured).
    def _read_stamp(self) -> str:
        try:
            return live_stamp(self.event_id)
        finally:
            connections.close_all()

    def _build(self) -> dict[str, Any] | None:
        try:
            event = Tournament.objects.filter(pk=self.event_id).first()
            if event is None:
                return None
            return feeds.build(event, self.kind, self.arg)
        finally:
            connections.close_all()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        tick = _setting("OVERLAY_TICK_SECONDS", 0.25)
        db_every = _setting("OVERLAY_DB_CHECK_SECONDS", 1.0)
        idle_grace = _setting("OVERLAY_HUB_IDLE_SECONDS", 5.0)
        cached = db = None
        seen: tuple[str | None, str | None] | None = None
        db_at = 0.0
        idle_since: float | None = None
        try:
            while True:
                now = loop.time()
                if self.viewers <= 0:
                    idle_since = idle_since if idle_since is not None else now
                    if now - idle_since >= idle_grace:
                        return
                else:
                    idle_since = None
                try:
                    fresh = await sync_to_async(live_version.current, thread_sensitive=False)(
                        self.event_id
                    )
                    if fresh != cached or now - db_at >= db_every or db is None:
                        cached = fresh
                        db = await sync_to_async(self._read_stamp, thread_sensitive=False)()
                        db_at = now
                    if (cached, db) != seen:
                        data = await sync_to_async(self._build, thread_sensitive=False)()
                        seen = (cached, db)
                        if data is not None:
                            self.publish(data)
                except Exception:  # a lost database: keep the viewers, try again next tick
                    logger.exception("overlay hub %s/%s failed; retrying", self.kind, self.event_id)
                    seen = None
                    await asyncio.sleep(max(tick, 1.0))
                await asyncio.sleep(tick)
        finally:
            _forget(self)


_hubs: dict[tuple[int, int, str, int], Hub] = {}


def _key(event_id: int, kind: str, arg: int) -> tuple[int, int, str, int]:
    # Per event loop: an asyncio.Event belongs to the loop it was first awaited on.
    return (id(asyncio.get_running_loop()), event_id, kind, arg)


def _forget(hub: Hub) -> None:
    for key, value in list(_hubs.items()):
        if value is hub:
            del _hubs[key]


def hub_for(event_id: int, kind: str, arg: int) -> Hub:
    key = _key(event_id, kind, arg)
    hub = _hubs.get(key)
    if hub is None:
        hub = _hubs[key] = Hub(event_id, kind, arg)
    hub.start()
    return hub


async def stream(hub: Hub, last_event_id: str) -> AsyncIterator[bytes]:
    """One viewer's events (see the module's docstring)."""
    loop = asyncio.get_running_loop()
    heartbeat = _setting("OVERLAY_HEARTBEAT_SECONDS", 15.0)
    life = _setting("OVERLAY_STREAM_MAX_SECONDS", 300.0)
    deadline = loop.time() + life * (1 + random.random() / 10)
    hub.viewers += 1
    try:
        # The request's own thread (middleware, the event's lookup) holds a database
        # connection until the response ends, minutes from now: hand it back first (a
        # pool of 20 would otherwise be empty after 20 viewers).
        await sync_to_async(connections.close_all)()
        yield f"retry: {random.randint(1000, 3000)}\n\n".encode()
        try:
            await asyncio.wait_for(hub.ready.wait(), timeout=max(heartbeat, 5.0))
        except TimeoutError:
            yield b": waiting\n\n"
        seen = last_event_id
        while True:
            if hub.id and hub.id != seen:
                seen = hub.id
                yield hub.message
            left = deadline - loop.time()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(hub.wait_change(seen), timeout=min(heartbeat, left))
            except TimeoutError:
                if deadline - loop.time() > 0:
                    yield b": keep-alive\n\n"
    finally:
        hub.viewers -= 1


def overlay_arg(kind: str, request: HttpRequest, slot: int | None) -> int:
    """The argument of an overlay: the feature slot, or the ticker's number of rows."""
    if kind == "feature":
        return slot or 1
    if kind == "bracket":
        return 0
    raw = request.GET.get("rows", "")
    default = feeds.DEFAULT_TICKER_ROWS if kind == "standings" else feeds.MAX_TICKER_ROWS
    rows = int(raw) if raw.isdigit() else default
    return max(1, min(rows, feeds.MAX_TICKER_ROWS))


async def overlay_stream(
    request: HttpRequest, slug: str, kind: str, slot: int | None = None
) -> HttpResponse | StreamingHttpResponse:
    """``GET /api/events/<slug>/overlays/<kind>/stream/``: the overlay's feed as server-sent
    events (text/event-stream)."""
    if kind not in feeds.KINDS:
        raise Http404("No such overlay.")
    event = await sync_to_async(event_visible)(user=AnonymousUser(), slug=slug)
    if event is None:
        raise Http404("No such event.")
    if not isinstance(request, ASGIRequest) or not getattr(settings, "OVERLAY_SSE", True):
        # A thread per viewer for minutes is what WSGI would give: poll the feed instead.
        response = HttpResponse(status=204)
        response["Cache-Control"] = "no-store"
        return response
    arg = overlay_arg(kind, request, slot)
    if kind == "feature" and not 1 <= arg <= MAX_SLOT:
        raise Http404("No such feature slot.")
    hub = hub_for(event.pk, kind, arg)
    last = request.headers.get("Last-Event-ID", "")[:64]
    response = StreamingHttpResponse(stream(hub, last), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    # Public data, read without credentials: pages on the site's origin may open it when it
    # is served from another (OVERLAY_STREAM_ORIGIN).
    response["Access-Control-Allow-Origin"] = "*"
    return response
