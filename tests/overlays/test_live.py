"""The overlays' live stream (overlays/live.py): server-sent events under ASGI, 204 under
WSGI, the data on connect unless Last-Event-ID already has it, an event when a result
changes, heartbeats, a maximum life, and changes seen with the cache's version lost."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client
from django.urls import reverse

from matches import services as match_services
from overlays import live, live_version, services
from tests.scenarios import pair_and_publish, running_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture(autouse=True)
def _fast(settings: Any) -> None:
    settings.OVERLAY_TICK_SECONDS = 0.05
    settings.OVERLAY_DB_CHECK_SECONDS = 0.2
    settings.OVERLAY_HEARTBEAT_SECONDS = 0.5
    settings.OVERLAY_STREAM_MAX_SECONDS = 4.0
    settings.OVERLAY_HUB_IDLE_SECONDS = 0.2


def _events(chunks: list[bytes]) -> list[dict[str, str]]:
    out = []
    for block in b"".join(chunks).decode().split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            fields[name] = value
        if "data" in fields:
            out.append(fields)
    return out


def _feature_event() -> tuple[Any, Any, Any]:
    event, organiser, _regs = running_event(4)
    round_ = pair_and_publish(event, organiser)
    match = round_.matches.filter(b__isnull=False).select_related("round__tournament").first()
    services.feature_mark(actor=organiser, match=match, slot=1)
    return event, organiser, match


def test_under_wsgi_the_stream_answers_204_so_the_page_polls() -> None:
    event, _organiser, _match = _feature_event()
    url = reverse("api-overlay-feature-stream", kwargs={"slug": event.slug, "slot": 1})
    answer = Client().get(url)
    assert answer.status_code == 204


def _read_stream(url: str, until: Any, headers: dict[str, str] | None = None) -> list[bytes]:
    """Connect under ASGI and read chunks while ``until(chunks)`` is false (or the stream
    ends); ``until`` may act (report a result) between reads."""

    async def run() -> list[bytes]:
        response = await AsyncClient().get(url, headers=headers or {})
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/event-stream")
        assert response["Cache-Control"] == "no-store"
        chunks: list[bytes] = []
        iterator = response.streaming_content.__aiter__()
        try:
            while not await sync_to_async(until)(chunks):
                chunks.append(await asyncio.wait_for(iterator.__anext__(), timeout=10))
        except StopAsyncIteration:
            pass
        finally:
            await iterator.aclose()
        return chunks

    return async_to_sync(run)()


def test_a_viewer_gets_retry_the_data_then_an_event_when_the_result_changes() -> None:
    event, organiser, match = _feature_event()
    url = reverse("api-overlay-feature-stream", kwargs={"slug": event.slug, "slot": 1})
    reported: dict[str, float] = {}

    def until(chunks: list[bytes]) -> bool:
        events = _events(chunks)
        if len(events) == 1 and not reported:
            match_services.match_report(actor=organiser, match=match, games=[1, 0, 0])
            reported["at"] = time.monotonic()
        return len(events) >= 2

    chunks = _read_stream(url, until)
    assert chunks[0].startswith(b"retry: ")
    first, second = _events(chunks)[:2]
    assert json.loads(first["data"])["match"]["games"] is None
    after = json.loads(second["data"])
    assert after["match"]["games"] == [1, 0, 0]
    assert first["event"] == second["event"] == "overlay"
    assert first["id"] != second["id"]


def test_last_event_id_skips_the_data_the_viewer_has_and_heartbeats_keep_it_open() -> None:
    event, _organiser, _match = _feature_event()
    url = reverse("api-overlay-feature-stream", kwargs={"slug": event.slug, "slot": 1})
    first = _read_stream(url, lambda chunks: len(_events(chunks)) >= 1)
    seen = _events(first)[0]["id"]
    again = _read_stream(
        url, lambda chunks: b": keep-alive" in b"".join(chunks), {"Last-Event-ID": seen}
    )
    assert _events(again) == []
    assert b": keep-alive" in b"".join(again)


def test_the_stream_ends_after_its_maximum_life(settings: Any) -> None:
    settings.OVERLAY_STREAM_MAX_SECONDS = 0.5
    event, _organiser, _match = _feature_event()
    url = reverse("api-overlay-standings-stream", kwargs={"slug": event.slug})
    started = time.monotonic()
    chunks = _read_stream(url, lambda chunks: False)  # until the server ends it
    assert len(_events(chunks)) == 1
    assert time.monotonic() - started < 8


def test_a_change_reaches_the_stream_with_the_cache_version_lost(monkeypatch: Any) -> None:
    """Redis down or a local-memory cache in another process: the database stamp still
    moves the stream."""
    monkeypatch.setattr(live_version, "current", lambda tournament_id: "")
    event, organiser, match = _feature_event()
    url = reverse("api-overlay-pairings-stream", kwargs={"slug": event.slug})
    done: dict[str, bool] = {}

    def until(chunks: list[bytes]) -> bool:
        if len(_events(chunks)) == 1 and not done:
            match_services.match_report(actor=organiser, match=match, games=[0, 1, 0])
            done["x"] = True
        return len(_events(chunks)) >= 2

    chunks = _read_stream(url, until)
    rows = json.loads(_events(chunks)[1]["data"])["rows"]
    assert [0, 1, 0] in [row["games"] for row in rows]


def test_hubs_are_shared_by_viewers_and_forgotten_when_idle() -> None:
    event, _organiser, _match = _feature_event()

    async def run() -> tuple[bool, bool]:
        one = live.hub_for(event.pk, "bracket", 0)
        two = live.hub_for(event.pk, "bracket", 0)
        await asyncio.sleep(0.6)  # no viewer: the hub stops after its idle grace
        return one is two, one in live._hubs.values()

    shared, still_there = async_to_sync(run)()
    assert shared and not still_there
