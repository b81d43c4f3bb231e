"""Issue 19: docs/deploy/nginx.conf's one-second micro-cache, run by nginx in front of the site.

nginx from Debian's packages starts with the documented file itself (only the values marked
CHANGE replaced: the upstream, the port, the cache folder) inside a main configuration of the
test's own (pid, logs and temporary files in the test's folder), in front of Django's live
server. Anonymous reads of the published round are answered from nginx's cache with the
site's own headers and its ETag (a 304 for a client that has it); a session, a token, a
language cookie, a 404 are never cached; a change shows once the second is over.
"""

from __future__ import annotations

import http.client
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from matches import services
from tests.nginx_support import Nginx, nginx_binary, user_line
from tests.scenarios import PublishedRound, published_round
from tests.support import REPO_ROOT

pytestmark = pytest.mark.django_db(transaction=True)

SITE_CONF = REPO_ROOT / "docs" / "deploy" / "nginx.conf"
MAIN_CONF = """\
{user}worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/battledesk.conf;
}}
"""
# How long a changed round may take to show through the cache: its second, then one fetch
# (a bound for a loaded machine, never a measured figure).
CHANGE_SHOWS_WITHIN_S = 15.0


def site_conf(upstream_port: int, port: int, cache: Path) -> str:
    """The documented file with its CHANGE values made this test's."""
    text = SITE_CONF.read_text()
    for documented, here in (
        ("server 127.0.0.1:8000 ", f"server 127.0.0.1:{upstream_port} "),
        ("listen 80;", f"listen 127.0.0.1:{port};"),
        ("/var/cache/nginx/battledesk", str(cache)),
    ):
        assert text.count(documented) == 1, documented
        text = text.replace(documented, here)
    return text


class Answer:
    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status = response.status
        self.body = response.read()
        self.headers = {k.lower(): v for k, v in response.getheaders()}

    @property
    def cache(self) -> str:
        return self.headers.get("x-cache-status", "")


class Proxy(Nginx):
    """nginx with the documented site file (docs/deploy/nginx.conf) in front of the test's
    live server."""

    def __init__(self, binary: str, folder: Path, upstream_port: int) -> None:
        super().__init__(binary, folder)
        (folder / "cache").mkdir()
        (folder / "battledesk.conf").write_text(
            site_conf(upstream_port, self.port, folder / "cache")
        )
        (folder / "nginx.conf").write_text(MAIN_CONF.format(user=user_line(), tmp=folder))

    def get(self, path: str, **headers: str) -> Answer:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", path, headers={"Host": "127.0.0.1", **headers})
            return Answer(conn.getresponse())
        finally:
            conn.close()


@pytest.fixture
def proxy(live_server: Any, tmp_path: Path) -> Iterator[Proxy]:
    binary = nginx_binary()
    port = urlsplit(live_server.url).port
    assert port is not None
    running = Proxy(binary, tmp_path, port)
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def scene() -> PublishedRound:
    return published_round()


def _url(scene: PublishedRound) -> str:
    return f"/api/events/{scene.event.slug}/rounds/{scene.round.number}/"


def test_anonymous_reads_of_the_round_come_from_the_cache_with_the_sites_headers(
    proxy: Proxy, scene: PublishedRound
) -> None:
    url = _url(scene)
    first = proxy.get(url, Accept="application/json")
    second = proxy.get(url, Accept="application/json")
    assert first.status == second.status == 200, proxy.error_log()
    assert first.cache == "MISS" and second.cache in ("HIT", "UPDATING", "REVALIDATED")
    assert second.body == first.body
    for name in ("etag", "vary", "cache-control", "content-security-policy", "x-frame-options"):
        assert second.headers.get(name) == first.headers.get(name) is not None, name
    # a client that has the copy: 304, from the cache
    etag = first.headers["etag"]
    again = proxy.get(url, Accept="application/json", **{"If-None-Match": etag})
    assert again.status == 304 and again.body == b""


def test_personal_requests_and_refusals_are_never_cached(
    proxy: Proxy, scene: PublishedRound
) -> None:
    url = _url(scene)
    proxy.get(url)
    for headers in (
        {"Cookie": "sessionid=not-a-session"},
        {"Authorization": "Token not-a-token"},
        {"Cookie": "django_language=en"},
    ):
        answer = proxy.get(url, **headers)
        assert answer.cache == "BYPASS", headers
    missing = f"/api/events/{scene.event.slug}/rounds/9/"
    answers = [proxy.get(missing) for _ in range(2)]
    assert [a.status for a in answers] == [404, 404]
    assert all(a.cache == "MISS" for a in answers)
    # a path outside the published copies goes straight through
    assert proxy.get(f"/api/events/{scene.event.slug}/").cache == ""


def test_a_change_shows_through_the_cache_once_its_second_is_over(
    proxy: Proxy, scene: PublishedRound
) -> None:
    url = _url(scene)
    before = proxy.get(url)
    assert proxy.get(url).headers["etag"] == before.headers["etag"]
    services.match_report(actor=scene.organiser, match=scene.matches[0], games=[1, 0, 0])
    deadline = time.monotonic() + CHANGE_SHOWS_WITHIN_S
    seen = before
    while seen.headers["etag"] == before.headers["etag"] and time.monotonic() < deadline:
        time.sleep(0.2)
        seen = proxy.get(url)
    assert seen.headers["etag"] != before.headers["etag"]
    assert b'"games":[1,0,0]' in seen.body
