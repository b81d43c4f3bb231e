"""The event page's check-in QR code is read from the cache in the same round trip as the
page's shared counts (config.shared_copies' `also`): one cache call fewer for every
registered player's page at the publish spike, the same page."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.utils.translation import override

from config import shared_copies
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, logged_in
from tournaments import event_page
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def _registered_player_page() -> tuple[Any, str, str]:
    """(client of a registered player of a running event, the page's path, their QR key)."""
    event = TournamentFactory(organisers=[OrganiserFactory()], status=EventStatus.RUNNING.value)
    registration = RegistrationFactory(tournament=event)
    with override("en"):
        key = event_page._qr_key(registration.player.player_id)
    return logged_in(registration.player), f"/events/{event.slug}/", key


def test_the_qr_code_is_drawn_once_then_read_with_the_counts_and_never_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache.clear()
    client, path, key = _registered_player_page()
    first = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert first.status_code == 200
    drawn = cache.get(key)
    assert drawn is not None and drawn.startswith('<svg role="img" ')
    assert drawn.encode() in first.content

    asked_alone: list[str] = []
    asked_together: list[list[str]] = []
    get, get_many = cache.get, cache.get_many

    inside_get_many = [False]  # a cache without its own get_many asks get for each key

    def spy_get(k: Any, *args: Any, **kwargs: Any) -> Any:
        if not inside_get_many[0]:
            asked_alone.append(str(k))
        return get(k, *args, **kwargs)

    def spy_get_many(keys: Any, *args: Any, **kwargs: Any) -> Any:
        asked_together.append([str(k) for k in keys])
        inside_get_many[0] = True
        try:
            return get_many(keys, *args, **kwargs)
        finally:
            inside_get_many[0] = False

    monkeypatch.setattr(cache, "get", spy_get)
    monkeypatch.setattr(cache, "get_many", spy_get_many)
    second = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert second.status_code == 200
    assert drawn.encode() in second.content
    assert not [k for k in asked_alone if k.startswith("check-in-qr:")]
    assert [
        ks for ks in asked_together if key in ks and any(k.startswith("event-counts:") for k in ks)
    ]


def test_the_qr_code_the_cache_holds_is_the_one_shown() -> None:
    cache.clear()
    client, path, key = _registered_player_page()
    assert client.get(path, HTTP_ACCEPT_LANGUAGE="en").status_code == 200
    cache.set(key, '<svg role="img" data-kept="yes"></svg>', 60)
    assert b'data-kept="yes"' in client.get(path, HTTP_ACCEPT_LANGUAGE="en").content


def test_shared_copy_also_sets_the_keys_found_and_leaves_the_others() -> None:
    cache.clear()
    cache.set("also-found", "value", 60)
    also: dict[str, Any] = {"also-found": None, "also-missing": "left"}
    copy = shared_copies.shared_copy(
        key="also-copy",
        kind="also-kind",
        object_ids=[1],
        user_id=None,
        render=lambda: {"html": "rendered"},
        grace=0,
        ttl=10,
        also=also,
    )
    assert copy["html"] == "rendered"
    assert also == {"also-found": "value", "also-missing": "left"}
