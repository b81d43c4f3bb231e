"""The service worker's view and what the pages give it (static/js/sw.js, static/js/offline.js).

The worker's behaviour in a browser is in tests/test_browser_offline.py; here: /sw.js is served
from the root with a scope over the whole site and never cached by the browser, every page
includes the registration (a file, no inline script), and the worker's list of pages it keeps
matches exactly the round's pages of the site's URLs, never a staff page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from matches import services
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory
from tournaments.status import EventStatus

SW = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"
SW_SOURCE = SW.read_text(encoding="utf-8")
# The round's pages (tournaments.urls and matches.urls) the worker keeps for offline use.
KEPT = {
    "event_detail",
    "round_pairings",
    "my_match",
    "match_report_page",
    "standings",
    "projector",
}


def js_regexes(name: str) -> list[re.Pattern[str]]:
    """The regular expression literals of ``var NAME = [...]`` or ``var NAME = /.../`` in sw.js
    (written in the syntax JavaScript and Python share)."""
    listed = re.search(rf"var {name} = \[(.*?)\n\];", SW_SOURCE, re.S)
    body = listed.group(1) if listed else SW_SOURCE.split(f"var {name} = ", 1)[1].split(";")[0]
    found = [re.compile(literal) for literal in re.findall(r"/(\^.*?\$)/", body)]
    assert found, f"no regular expression found for {name} in sw.js"
    return found


OFFLINE_PAGES = js_regexes("OFFLINE_PAGES")


def kept_by_worker(path: str) -> bool:
    return any(pattern.match(path) for pattern in OFFLINE_PAGES)


def site_paths() -> list[str]:
    """One example path per route of the site (regex routes, the admin's and the API's, left
    out: none of them is under /events/ or /matches/)."""
    samples = {"int": "7", "slug": "summer-open", "str": "check-in", "path": "a/b"}

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> list[str]:
        paths: list[str] = []
        for entry in patterns:
            route = getattr(entry.pattern, "_route", None)
            if route is None:
                continue
            concrete = re.sub(
                r"<(?:(\w+):)?\w+>", lambda m: samples.get(m.group(1) or "str", "json"), route
            )
            if isinstance(entry, URLResolver):
                paths += walk(entry.url_patterns, prefix + concrete)
            else:
                paths.append(prefix + concrete)
        return paths

    return walk(get_resolver().url_patterns, "/")


# --- the view ---------------------------------------------------------------------------------


def test_the_worker_is_served_from_the_root_with_a_scope_over_the_whole_site(
    client: Client,
) -> None:
    assert reverse("service_worker") == "/sw.js"
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response.content.decode() == SW_SOURCE


def test_the_worker_is_never_taken_from_the_browsers_cache(client: Client) -> None:
    cache_control = {part.strip() for part in client.get("/sw.js")["Cache-Control"].split(",")}
    assert {"no-cache", "max-age=0"} <= cache_control


def test_the_worker_url_only_answers_get(client: Client) -> None:
    assert client.post("/sw.js").status_code == 405


def test_the_worker_keeps_static_files_under_the_sites_static_url() -> None:
    prefix = re.search(r'var STATIC_PREFIX = "([^"]+)"', SW_SOURCE)
    assert prefix is not None
    assert prefix.group(1) == "/" + settings.STATIC_URL.lstrip("/")


# --- the pages --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_page_registers_the_worker_from_a_file_without_inline_script(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'<script src="/static/js/offline\.js" defer></script>', html)
    notices = re.search(
        r'<div class="messages offline-notices no-print" id="offline-notices"[^>]*>', html
    )
    assert notices is not None, "the offline notice's element is missing"
    assert " hidden" in notices.group(0), "without JavaScript the notice never shows"
    assert 'data-sw="/sw.js"' in notices.group(0) and 'data-scope="/"' in notices.group(0)
    assert 'data-copy="Offline: showing the copy from {time}, {ago}."' in notices.group(0)
    inline = [tag for tag in re.findall(r"<script[^>]*>", html) if "src=" not in tag]
    assert inline == [], "a Content-Security-Policy of self-only scripts refuses inline scripts"


@pytest.fixture
def published_round():  # type: ignore[no-untyped-def]
    organiser = OrganiserFactory()
    event = TournamentFactory(organisers=[organiser], status=EventStatus.RUNNING.value)
    regs = [RegistrationFactory(tournament=event) for _ in range(4)]
    round_ = services.round_pair(actor=organiser, tournament=event)
    round_ = services.round_publish(actor=organiser, round_=round_)
    return event, round_, regs


@pytest.mark.django_db
def test_the_round_pages_say_whose_they_are_as_the_worker_reads_it(published_round) -> None:  # type: ignore[no-untyped-def]
    event, round_, regs = published_round
    literal = re.search(r"var USER_META = /(.*)/;", SW_SOURCE)
    assert literal is not None
    whose = re.compile(literal.group(1))
    player = regs[0].player
    pages = [
        reverse("event_detail", args=[event.slug]),
        reverse("round_pairings", args=[event.slug, round_.number]),
        reverse("my_match", args=[event.slug]),
        reverse("standings", args=[event.slug]),
        reverse("projector", args=[event.slug]),
    ]
    client = Client()
    client.force_login(player)
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.content.decode()
        found = whose.search(html)
        assert found is not None and found.group(1) == str(player.pk), path
        assert "<head>" in html, f"{path}: the worker marks a copy right after <head>"
        assert 'id="offline-notices"' in html and "js/offline.js" in html, path
        assert kept_by_worker(path), path
    anonymous = Client().get(pages[1]).content.decode()
    found = whose.search(anonymous)
    assert found is not None and found.group(1) == "", "signed out: nobody's"


@pytest.mark.django_db
def test_the_report_form_is_the_one_the_worker_keeps_offline(published_round) -> None:  # type: ignore[no-untyped-def]
    event, round_, regs = published_round
    client = Client()
    client.force_login(regs[0].player)
    html = client.get(reverse("my_match", args=[event.slug])).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" class="report-form"', html)
    assert form is not None
    report = js_regexes("REPORT")[0]
    assert report.match(form.group(1)) and resolve(form.group(1)).url_name == "match_report_page"
    assert 'name="next" value="/events/' in html  # where the worker sends the player back


def test_the_logout_form_forgets_the_kept_pages() -> None:
    base = (Path(settings.BASE_DIR) / "templates" / "base.html").read_text(encoding="utf-8")
    logout = re.search(r"<form[^>]*action=\"\{% url 'logout' %\}\"[^>]*>", base)
    assert logout is not None and "data-offline-forget" in logout.group(0)
    account_change = js_regexes("ACCOUNT_CHANGE")[0]
    for name in ("login", "logout", "signup"):
        assert account_change.match(reverse(name)), name


# --- which pages the worker keeps -------------------------------------------------------------


def test_the_worker_keeps_exactly_the_round_pages_and_no_staff_page() -> None:
    paths = site_paths()
    assert len(paths) > 50
    kept = {path: resolve(path).url_name for path in paths if kept_by_worker(path)}
    assert set(kept.values()) == KEPT, kept
    for path in ("/events/summer-open/manage/", "/events/summer-open/manage/rounds/7/",
                 "/judge/", "/events/new/", "/events/claim/", "/matches/7/staff/",
                 "/events/summer-open/standings/7/", "/sw.js", "/accounts/login/"):  # fmt: skip
        assert not kept_by_worker(path), path
