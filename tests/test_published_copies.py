"""Issue 19: what everybody reads at once is rendered once per change (config/published.py).

The round, the standings and the top cut through the event API are served from a copy made
once per version (a counter in the round's row), as stored identity or gzip bytes with a weak
ETag (304 on If-None-Match) and a Last-Modified; every change that changes what they show
makes a new version; visibility rules hold whatever was cached; a dead Redis only makes it
slower; `?registration=` answers one player's match.
"""

from __future__ import annotations

import gzip
import json
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from config import published
from config.cache import CACHE_BREAKER
from matches.models import Round
from tests.scenarios import client_for, running_event
from tests.support import FakeClock
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def _pair(event: Any, organiser: Any) -> dict[str, Any]:
    created = client_for(organiser).post(f"/api/events/{event.slug}/rounds/", {}, format="json")
    assert created.status_code == 201, created.content
    return dict(created.json())


def _publish(event: Any, organiser: Any, number: int = 1) -> dict[str, Any]:
    answer = client_for(organiser).post(
        f"/api/events/{event.slug}/rounds/{number}/publish/", {}, format="json"
    )
    assert answer.status_code == 200, answer.content
    return dict(answer.json())


def _get(client: APIClient, url: str, **headers: str) -> Any:
    return client.get(url, headers=headers)


def _json(answer: Any) -> Any:
    """The body, decompressed when it came gzip-compressed (short bodies come as they are)."""
    if answer.get("Content-Encoding") == "gzip":
        return json.loads(gzip.decompress(answer.content))
    return answer.json()


def _player(registration_id: int) -> APIClient:
    return client_for(Registration.objects.get(pk=registration_id).player)


def _pairs(round_json: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in round_json["matches"] if m["b"] is not None]


# --- the module ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "allowed"),
    [
        ("gzip, deflate, br", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("gzip;q=0", False),
        ("identity", False),
        ("", False),
        ("*", True),
        ("*;q=0.5, gzip;q=0", False),
        ("x-gzip", True),
    ],
)
def test_gzip_is_sent_only_when_accept_encoding_allows_it(header: str, allowed: bool) -> None:
    from django.test import RequestFactory

    request = RequestFactory().get("/", headers={"accept-encoding": header})
    assert published.accepts_gzip(request) is allowed


def test_a_copy_is_rendered_once_per_version_and_remade_when_older_than_max_age(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    renders: list[int] = []

    def render() -> bytes:
        renders.append(1)
        return json.dumps({"n": len(renders), "pad": "x" * 600}).encode()

    first = published.stored("thing:1", version="v1", render=render)
    again = published.stored("thing:1", version="v1", render=render)
    assert len(renders) == 1 and again.body == first.body
    assert gzip.decompress(first.gzipped or b"") == first.body
    newer = published.stored("thing:1", version="v2", render=render)
    assert len(renders) == 2 and newer.etag != first.etag and newer.body != first.body
    # One slot per thing: the new version replaced the old copy (none piles up in Redis).
    assert cache.get(published.copy_key("thing:1")).etag == newer.etag

    # A running timer: re-made once the copy is older than max_age, same (weak) ETag.
    timed = published.stored("timed:1", version="t", render=render, max_age=1.0)
    assert published.stored("timed:1", version="t", render=render, max_age=1.0) == timed
    real_time = published.time.time
    monkeypatch.setattr(published.time, "time", lambda: real_time() + 1.5)
    remade = published.stored("timed:1", version="t", render=render, max_age=1.0)
    assert remade.body != timed.body and remade.etag == timed.etag
    assert remade.etag.startswith('W/"')


def test_a_request_waits_for_the_copy_another_is_rendering_instead_of_rendering_it_too() -> None:
    import threading

    version = "v-busy"
    assert cache.add(published.lock_key("busy:1", version), 1, 10)  # someone else renders
    theirs = published.make_copy(b'{"theirs": true}', version=version)

    def finish_their_render() -> None:
        cache.set(published.copy_key("busy:1"), theirs, 60)
        cache.delete(published.lock_key("busy:1", version))

    timer = threading.Timer(0.3, finish_their_render)
    timer.start()
    mine: list[int] = []
    got = published.stored(
        "busy:1", version=version, render=lambda: mine.append(1) or b'{"mine": true}'
    )
    timer.join()
    assert got.body == b'{"theirs": true}' and mine == []


class _HolderFinishesAt:
    """The cache, except that the other request's render finishes (its copy stored, its lock
    released) just before this request's first `add` of the lock (`when="before_add"`) or
    just after it (`when="after_add"`): the two instants a poller could miss it at."""

    def __init__(self, name: str, version: str, body: bytes, when: str) -> None:
        self._name, self._version, self._when = name, version, when
        self._theirs = published.make_copy(body, version=version)
        self._finished = False

    def _finish(self) -> None:
        if not self._finished:
            self._finished = True
            cache.set(published.copy_key(self._name), self._theirs, 60)
            cache.delete(published.lock_key(self._name, self._version))

    def add(self, key: str, *args: Any, **kwargs: Any) -> bool:
        if self._when == "before_add":
            self._finish()
        added = bool(cache.add(key, *args, **kwargs))
        if self._when == "after_add":
            self._finish()
        return added

    def __getattr__(self, attribute: str) -> Any:
        return getattr(cache, attribute)


@pytest.mark.parametrize("when", ["before_add", "after_add"])
def test_a_copy_finished_between_two_looks_at_the_cache_is_served_not_rendered_again(
    monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    version = f"v-{when}"
    name = f"between:{when}"
    assert cache.add(published.lock_key(name, version), 1, 10)  # someone else renders
    monkeypatch.setattr(published, "cache", _HolderFinishesAt(name, version, b"theirs", when))
    mine: list[int] = []
    got = published.stored(name, version=version, render=lambda: mine.append(1) or b"mine")
    assert got.body == b"theirs" and mine == []
    # Whoever served it left no lock behind: the next version renders at once.
    assert cache.get(published.lock_key(name, version)) is None


# --- the round ----------------------------------------------------------------------------------


def test_the_round_answers_304_to_its_etag_and_its_gzip_body_is_the_same_json() -> None:
    event, organiser, _ = running_event(8)
    _pair(event, organiser)
    _publish(event, organiser)
    url = f"/api/events/{event.slug}/rounds/1/"
    public = APIClient()

    plain = _get(public, url)
    assert plain.status_code == 200 and "Content-Encoding" not in plain
    assert plain["ETag"].startswith('W/"')
    assert "no-cache" in plain["Cache-Control"] and "public" in plain["Cache-Control"]
    assert "Accept-Encoding" in plain["Vary"]
    zipped = _get(public, url, accept_encoding="gzip, deflate")
    assert zipped["Content-Encoding"] == "gzip"
    assert int(zipped["Content-Length"]) == len(zipped.content) < len(plain.content)
    assert json.loads(gzip.decompress(zipped.content)) == plain.json()
    assert zipped["ETag"] == plain["ETag"]

    unchanged = _get(public, url, if_none_match=plain["ETag"])
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == plain["ETag"]
    listed = _get(public, url, if_none_match=f'"other", {plain["ETag"]}')
    assert listed.status_code == 304
    assert _get(public, url, if_none_match='W/"something-else"').status_code == 200
    # Signed-in readers get private answers (what they see may differ from the public's).
    mine = _get(client_for(organiser), url)
    assert "private" in mine["Cache-Control"] and mine.json() == plain.json()


def test_every_change_to_the_round_makes_a_new_etag_and_a_new_body() -> None:
    event, organiser, _ = running_event(8)
    staff = client_for(organiser)
    url = f"/api/events/{event.slug}/rounds/1/"
    seen: list[tuple[str, Any]] = []

    def look(expected_change: str) -> dict[str, Any]:
        answer = _get(staff, url)
        assert answer.status_code == 200
        body = answer.json()
        for etag, earlier in seen:
            assert answer["ETag"] != etag, f"{expected_change}: the ETag did not change"
            assert body != earlier, f"{expected_change}: the body did not change"
        seen.append((answer["ETag"], body))
        return dict(body)

    paired = _pair(event, organiser)
    look("paired")
    first, second = _pairs(paired)[0]["a"], _pairs(paired)[1]["a"]
    swapped = staff.post(
        f"/api/events/{event.slug}/rounds/1/swap/",
        {"first": first, "second": second},
        format="json",
    )
    assert swapped.status_code == 200, swapped.content
    look("swap")
    _publish(event, organiser)
    assert look("publish")["status"] == "published"
    paused = staff.post(f"/api/events/{event.slug}/rounds/1/timer/", {"action": "pause"})
    assert paused.status_code == 200, paused.content
    assert look("timer")["timer"]["state"] == "paused"
    match = _pairs(seen[-1][1])[0]
    reported = _player(match["a"]).post(
        f"/api/matches/{match['id']}/report/", {"games": [1, 0, 0]}, format="json"
    )
    assert reported.status_code == 200, reported.content
    assert look("report")["matches"][0]["status"] == "reported"
    confirmed = _player(match["b"]).post(f"/api/matches/{match['id']}/confirm/", {})
    assert confirmed.status_code == 200, confirmed.content
    assert look("confirmation")["matches"][0]["result"]["games"] == [1, 0, 0]
    corrected = staff.post(
        f"/api/matches/{match['id']}/report/",
        {"games": [0, 1, 0], "reason": "slip said 0-1"},
        format="json",
    )
    assert corrected.status_code == 200, corrected.content
    assert look("correction")["matches"][0]["result"]["games"] == [0, 1, 0]
    extended = staff.post(f"/api/matches/{match['id']}/extension/", {"minutes": 5})
    assert extended.status_code == 200, extended.content
    assert look("extension")["matches"][0]["extension_minutes"] == 5


def test_an_unpublished_round_stays_a_404_for_players_and_the_public_after_staff_read_it() -> None:
    event, organiser, regs = running_event(6)
    _pair(event, organiser)
    url = f"/api/events/{event.slug}/rounds/1/"
    staff_view = _get(client_for(organiser), url)
    assert staff_view.status_code == 200 and staff_view.json()["status"] == "paired"
    player = client_for(regs[0].player)
    for client in (player, APIClient()):
        assert _get(client, url).status_code == 404
        # Not even a 304 for the staff copy's ETag.
        assert _get(client, url, if_none_match=staff_view["ETag"]).status_code == 404
        assert _get(client, url + f"?registration={regs[0].pk}").status_code == 404
    _publish(event, organiser)
    public = _get(APIClient(), url)
    assert public.status_code == 200 and public.json()["status"] == "published"
    assert public["ETag"] != staff_view["ETag"]
    # The staff member now gets the published round too, not the copy he read before.
    assert _get(client_for(organiser), url).json() == public.json()


def test_registration_answers_only_that_players_match() -> None:
    event, organiser, regs = running_event(8)
    _pair(event, organiser)
    whole = _publish(event, organiser)
    url = f"/api/events/{event.slug}/rounds/1/"
    match = _pairs(whole)[2]

    one = _get(APIClient(), f"{url}?registration={match['b']}")
    assert one.status_code == 200
    body = one.json()
    assert [m["id"] for m in body["matches"]] == [match["id"]]
    assert {k: v for k, v in body.items() if k not in ("matches", "timer")} == {
        k: v for k, v in whole.items() if k not in ("matches", "timer")
    }
    assert one["ETag"] != _get(APIClient(), url)["ETag"]
    assert (
        _get(APIClient(), f"{url}?registration={match['b']}", if_none_match=one["ETag"]).status_code
        == 304
    )
    unknown = _get(APIClient(), f"{url}?registration=987654321")
    assert unknown.status_code == 200 and unknown.json()["matches"] == []
    for bad in ("abc", "0", "-3", "1.5", "9" * 30):
        refused = _get(APIClient(), f"{url}?registration={bad}")
        assert refused.status_code == 400, bad
        assert refused.json()["field"] == "registration"


def test_last_modified_answers_if_modified_since_and_a_change_is_never_hidden() -> None:
    event, organiser, _ = running_event(4)
    _pair(event, organiser)
    whole = _publish(event, organiser)
    url = f"/api/events/{event.slug}/rounds/1/"
    # Just changed: no Last-Modified yet (another change could follow within the second).
    assert "Last-Modified" not in _get(APIClient(), url)
    long_ago = timezone.now() - timedelta(minutes=5)
    Round.objects.filter(tournament=event).update(changed_at=long_ago, published_at=long_ago)
    event.refresh_from_db()
    answer = _get(APIClient(), url)
    since = answer["Last-Modified"]
    assert _get(APIClient(), url, if_modified_since=since).status_code == 304
    match = _pairs(whole)[0]
    client_for(organiser).post(
        f"/api/matches/{match['id']}/report/", {"games": [1, 0, 0]}, format="json"
    )
    changed = _get(APIClient(), url, if_modified_since=since)
    assert changed.status_code == 200 and changed.json()["matches"][0]["status"] == "final"


def test_the_etag_leaves_out_a_running_timers_remaining_seconds(frozen_now: FakeClock) -> None:
    event, organiser, _ = running_event(4, start_timer_on_publish=True)
    _pair(event, organiser)
    _publish(event, organiser)
    url = f"/api/events/{event.slug}/rounds/1/"
    first = _get(APIClient(), url)
    assert first.json()["timer"]["state"] == "running"
    # Five seconds later, and the copy re-made (it would be after a second anyway).
    frozen_now.advance(5)
    round_pk = Round.objects.get(tournament=event, number=1).pk
    cache.delete(published.copy_key(f"round:{round_pk}"))
    published.LOCAL.clear()  # and this process's own (its clock is not the frozen one)
    later = _get(APIClient(), url)
    assert later.json()["timer"]["remaining_seconds"] == (
        first.json()["timer"]["remaining_seconds"] - 5
    )
    assert later["ETag"] == first["ETag"]
    assert later.json()["ends_at"] == first.json()["ends_at"]
    assert _get(APIClient(), url, if_none_match=first["ETag"]).status_code == 304


def test_a_dead_redis_only_makes_it_slower(dead_redis: None) -> None:
    event, organiser, _ = running_event(6)
    _pair(event, organiser)
    whole = _publish(event, organiser)
    url = f"/api/events/{event.slug}/rounds/1/"
    before = _get(APIClient(), url, accept_encoding="gzip")
    assert before.status_code == 200
    assert json.loads(gzip.decompress(before.content))["status"] == "published"
    assert _get(APIClient(), url, if_none_match=before["ETag"]).status_code == 304
    match = _pairs(whole)[0]
    client_for(organiser).post(
        f"/api/matches/{match['id']}/report/", {"games": [1, 0, 0]}, format="json"
    )
    after = _get(APIClient(), url, if_none_match=before["ETag"])
    assert after.status_code == 200 and after.json()["matches"][0]["status"] == "final"
    assert CACHE_BREAKER.is_down


# --- standings and the top cut ------------------------------------------------------------------


def test_standings_answer_304_and_change_with_a_correction() -> None:
    event, organiser, _ = running_event(2)
    staff = client_for(organiser)
    _pair(event, organiser)
    match = _pairs(_publish(event, organiser))[0]
    staff.post(f"/api/matches/{match['id']}/report/", {"games": [1, 0, 0]}, format="json")
    url = f"/api/events/{event.slug}/standings/"
    first = _get(APIClient(), url, accept_encoding="gzip")
    assert first.status_code == 200
    rows = _json(first)["rows"]
    assert rows[0]["registration"] == match["a"]
    assert _get(APIClient(), url, if_none_match=first["ETag"]).status_code == 304
    paged = _get(APIClient(), url + "?limit=1&offset=1")
    assert paged["ETag"] != first["ETag"] and len(paged.json()["rows"]) == 1
    staff.post(
        f"/api/matches/{match['id']}/report/",
        {"games": [0, 1, 0], "reason": "slip said 0-1"},
        format="json",
    )
    after = _get(APIClient(), url, if_none_match=first["ETag"])
    assert after.status_code == 200 and after.json()["rows"][0]["registration"] == match["b"]


def test_hidden_standings_stay_hidden_whatever_staff_read() -> None:
    event, organiser, regs = running_event(4, planned_rounds=2, hide_standings_before_final=True)
    staff = client_for(organiser)
    _pair(event, organiser)
    for m in _publish(event, organiser)["matches"]:
        staff.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
    url = f"/api/events/{event.slug}/standings/"
    seen = _get(staff, url)
    assert seen.status_code == 200
    for client in (APIClient(), client_for(regs[0].player)):
        assert _get(client, url).status_code == 404
        assert _get(client, url, if_none_match=seen["ETag"]).status_code == 404


def test_the_top_cut_shows_the_public_no_unpublished_bracket_round() -> None:
    event, organiser, _ = running_event(8, planned_rounds=1, top_cut_size=4)
    staff = client_for(organiser)
    _pair(event, organiser)
    for m in _publish(event, organiser)["matches"]:
        staff.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
    cut = staff.post(f"/api/events/{event.slug}/top-cut/", {}, format="json")
    assert cut.status_code == 201, cut.content
    url = f"/api/events/{event.slug}/top-cut/"
    staff_view = _get(staff, url)
    assert [r["status"] for r in staff_view.json()["rounds"]] == ["paired"]
    public = _get(APIClient(), url)
    assert public.json()["rounds"] == [] and public["ETag"] != staff_view["ETag"]
    assert _get(APIClient(), url, if_none_match=public["ETag"]).status_code == 304
    _publish(event, organiser, cut.json()["number"])
    after = _get(APIClient(), url, if_none_match=public["ETag"])
    assert after.status_code == 200
    assert [r["status"] for r in after.json()["rounds"]] == ["published"]
    bracket_match = after.json()["rounds"][0]["matches"][0]
    staff.post(f"/api/matches/{bracket_match['id']}/report/", {"games": [1, 0, 0]}, format="json")
    reported = _get(APIClient(), url, if_none_match=after["ETag"])
    assert reported.status_code == 200
    assert reported.json()["rounds"][0]["matches"][0]["status"] == "final"


# --- cheap for the phone ------------------------------------------------------------------------


def test_my_match_answers_in_about_one_kib() -> None:
    event, organiser, regs = running_event(8, start_timer_on_publish=True)
    _pair(event, organiser)
    _publish(event, organiser)
    answer = client_for(regs[0].player).get(f"/api/events/{event.slug}/my-match/")
    assert answer.status_code == 200
    print(f"my match: {len(answer.content)} bytes")
    assert len(answer.content) < 1500


# --- the pages ----------------------------------------------------------------------------------


def test_the_pages_show_each_new_version_and_no_staff_only_bracket_round() -> None:
    from django.test import Client

    event, organiser, _ = running_event(8, planned_rounds=1, top_cut_size=4)
    staff_api = client_for(organiser)
    staff_page = Client()
    staff_page.force_login(organiser)
    public = Client()
    _pair(event, organiser)
    whole = _publish(event, organiser)
    standings_url = f"/events/{event.slug}/standings/"
    for m in _pairs(whole):
        staff_api.post(f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]}, format="json")
    first = _pairs(whole)[0]
    winner = Registration.objects.get(pk=first["a"]).name
    loser = Registration.objects.get(pk=first["b"]).name

    def rank_of(name: str) -> int:
        return public.get(standings_url).content.decode().index(name)

    assert rank_of(winner) < rank_of(loser)
    staff_api.post(
        f"/api/matches/{first['id']}/report/",
        {"games": [0, 1, 0], "reason": "slip said 0-1"},
        format="json",
    )
    assert rank_of(loser) < rank_of(winner)  # the standings page follows the correction

    cut = staff_api.post(f"/api/events/{event.slug}/top-cut/", {}, format="json")
    assert cut.status_code == 201, cut.content
    bracket_url = f"/events/{event.slug}/bracket/"
    seeded = cut.json()["matches"][0]["a_name"]
    assert seeded in staff_page.get(bracket_url).content.decode()  # staff see the paired round
    assert seeded not in public.get(bracket_url).content.decode()  # the public still does not
    _publish(event, organiser, cut.json()["number"])
    page = public.get(bracket_url).content.decode()
    assert seeded in page and "Not finished" in page
    bracket_match = cut.json()["matches"][0]
    staff_api.post(
        f"/api/matches/{bracket_match['id']}/report/", {"games": [1, 0, 0]}, format="json"
    )
    assert f"<strong>{seeded}</strong>" in public.get(bracket_url).content.decode()


def test_the_stored_round_is_the_round_serialised_whole() -> None:
    from matches.api.common import json_bytes, round_out

    event, organiser, _ = running_event(9, start_timer_on_publish=False)
    _pair(event, organiser)
    _publish(event, organiser)
    answer = _get(APIClient(), f"/api/events/{event.slug}/rounds/1/")
    round_ = Round.objects.select_related("tournament").get(tournament=event, number=1)
    assert answer.json() == json.loads(json_bytes(round_out(round_)))
    assert len(answer.json()["matches"]) == 5


# --- my match ------------------------------------------------------------------------------


def test_my_match_answers_304_to_its_etag_and_changes_with_a_report_and_a_correction() -> None:
    event, organiser, _ = running_event(8)
    match = _pairs(_pair(event, organiser))[0]
    _publish(event, organiser)
    phone = _player(match["a"])
    url = f"/api/events/{event.slug}/my-match/"
    first = _get(phone, url)
    assert first.status_code == 200
    assert _json(first)["id"] == match["id"]
    assert first["Cache-Control"] == published.CACHE_CONTROL_PRIVATE
    assert _get(phone, url, **{"If-None-Match": first["ETag"]}).status_code == 304

    reported = _player(match["b"]).post(
        f"/api/matches/{match['id']}/report/", {"games": [0, 1, 0]}, format="json"
    )
    assert reported.status_code == 200, reported.content
    after_report = _get(phone, url, **{"If-None-Match": first["ETag"]})
    assert after_report.status_code == 200
    assert _json(after_report)["status"] == "reported"

    corrected = client_for(organiser).post(
        f"/api/matches/{match['id']}/report/",
        {"games": [1, 0, 0], "reason": "slip said 1-0", "confirm_override": True},
        format="json",
    )
    assert corrected.status_code == 200, corrected.content
    after_correction = _get(phone, url, **{"If-None-Match": after_report["ETag"]})
    assert after_correction.status_code == 200
    assert _json(after_correction)["result"]["games"] == [1, 0, 0]


def test_my_match_is_each_players_own_and_follows_a_change_of_staff() -> None:
    event, organiser, _ = running_event(8)
    match = _pairs(_pair(event, organiser))[0]
    _publish(event, organiser)
    url = f"/api/events/{event.slug}/my-match/"
    a_phone, b_phone = _player(match["a"]), _player(match["b"])
    a_answer, b_answer = _get(a_phone, url), _get(b_phone, url)
    assert _json(a_answer)["id"] == _json(b_answer)["id"] == match["id"]
    # One copy per viewer: a's ETag is not b's (a side may see what the other may not).
    assert a_answer["ETag"] != b_answer["ETag"]
    assert _get(b_phone, url, **{"If-None-Match": a_answer["ETag"]}).status_code == 200

    judge = Registration.objects.get(pk=match["a"]).player
    event.judges.add(judge)
    as_judge = _get(a_phone, url, **{"If-None-Match": a_answer["ETag"]})
    assert as_judge.status_code == 200
    assert as_judge["ETag"] != a_answer["ETag"]
    event.judges.remove(judge)
    assert _get(a_phone, url, **{"If-None-Match": a_answer["ETag"]}).status_code == 304


def test_my_match_is_a_404_for_staff_who_play_no_match_and_refused_without_a_login() -> None:
    event, organiser, _ = running_event(8)
    first_round = _pair(event, organiser)
    _publish(event, organiser)
    url = f"/api/events/{event.slug}/my-match/"
    nobody = client_for(organiser)  # staff, not a player of the event
    assert _get(nobody, url).status_code == 404
    assert _get(APIClient(), url).status_code in (401, 403)
    assert _get(_player(_pairs(first_round)[0]["a"]), url).status_code == 200
