"""Content-Security-Policy and Permissions-Policy on every response (issue 10, hardening), and
the pages keep working under them: no inline script anywhere, and in a real browser no page
of the demo (nor the API docs) trips the policy."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from matches.models import JudgeCall, Match, Round

ROOT = Path(__file__).resolve().parent.parent


def directives(response: Any) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }


def assert_strict_policy(response: Any) -> None:
    csp = directives(response)
    for name in ("default-src", "script-src", "style-src", "img-src", "font-src", "connect-src"):
        assert csp[name] == ["'self'"], (name, csp.get(name))
    assert csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"]
    assert csp["form-action"] == ["'self'"]
    permissions = response["Permissions-Policy"]
    for feature in ("geolocation=()", "microphone=()", "payment=()", "usb=()"):
        assert feature in permissions


@pytest.mark.django_db
def test_a_page_and_an_api_response_carry_both_policies(client: Client) -> None:
    page = client.get("/accounts/login/")
    api = client.get("/api/formats/")
    error = client.get("/api/no-such-endpoint/")
    assert page.status_code == 200 and api.status_code == 200 and error.status_code == 404
    for response in (page, api, error):
        assert_strict_policy(response)


@pytest.mark.django_db
def test_the_api_docs_relax_only_what_they_need(client: Client) -> None:
    swagger = client.get("/api/docs/")
    redoc = client.get("/api/redoc/")
    for response in (swagger, redoc):
        assert response.status_code == 200
        csp = directives(response)
        assert csp["script-src"] == ["'self'"]
        assert csp["img-src"] == ["'self'", "data:"]
        assert csp["frame-ancestors"] == ["'none'"]
        body = response.content.decode()
        assert "<script>" not in body  # Swagger's start-up is a file
        assert "<style>" not in body and "https://" not in body  # our stylesheet, no CDN
    assert directives(swagger)["style-src"] == ["'self'"]
    assert directives(redoc)["style-src"] == ["'self'", "'unsafe-inline'"]  # Redoc injects its own
    assert directives(redoc)["worker-src"] == ["blob:"]
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert "SwaggerUIBundle" in script.content.decode()


# A JSON-LD data block (schema.org markup) is never run, so the policy does not concern it.
INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/ld\+json\")[^>]*>", re.IGNORECASE
)
INLINE_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)


def test_no_template_has_an_inline_script_or_event_handler() -> None:
    """The policy runs only script files: an inline script or onclick= would silently stop
    working in every browser."""
    offenders = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER):
            offenders += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in pattern.finditer(text)]
    assert offenders == []


def test_the_scan_catches_inline_scripts_and_handlers() -> None:
    assert INLINE_SCRIPT.search("<p>x</p><script>alert(1)</script>")
    assert not INLINE_SCRIPT.search('<script src="/static/js/page.js" defer></script>')
    assert INLINE_HANDLER.search('<button type="button" onclick="window.print()">')
    assert not INLINE_HANDLER.search('<button type="button" data-print>')


# --- in a browser ------------------------------------------------------------------------------

# Every violation a page of the context reports, from its first script on: the
# `securitypolicyviolation` events, kept in the page for the test to read once it has settled.
COLLECT_VIOLATIONS = """
window.__policyViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__policyViolations.push(
    `${event.violatedDirective} refused ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`
  );
}, true);
"""
# The events are dispatched from a task of their own: one more task turn before reading lets any
# violation already reported reach the array.
READ_VIOLATIONS = (
    "() => new Promise((done) => setTimeout(() => done(window.__policyViolations), 0))"
)
REDOC_LOGO = "cdn.redoc.ly/redoc/logo-mini.svg"


class PolicyWatch:
    """A page whose policy violations are collected twice over: the page's own violation
    events and, as before them, chromium's console messages about the policy (two witnesses
    that do not share a path). Its requests in flight are counted, so a page is read once
    everything its load started (a script's fetch, the API docs' schema) has answered."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.path = ""
        self.violations: list[str] = []
        self.in_flight: set[Any] = set()
        page.context.add_init_script(COLLECT_VIOLATIONS)
        page.on("console", self._console)
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(f"{self.path} (console): {message.text}")

    def _started(self, request: Any) -> None:
        self.in_flight.add(request)

    def _ended(self, request: Any) -> None:
        self.in_flight.discard(request)

    def visit(self, base_url: str, path: str) -> None:
        """Loads the page (its load event), then waits for the requests still in flight."""
        self.path = path
        response = self.page.goto(base_url + path)
        assert response is not None and response.status == 200, path
        while self.in_flight:
            request = next(iter(self.in_flight))
            answer = request.response()  # waits for it; None when the request failed
            if answer is not None:
                answer.finished()
            self.in_flight.discard(request)

    def read(self) -> None:
        """The violations the page's events reported so far (each page reports afresh)."""
        self.violations += [f"{self.path}: {v}" for v in self.page.evaluate(READ_VIOLATIONS)]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
def test_no_demo_page_nor_the_api_docs_trips_the_policy(open_page, live_server) -> None:  # type: ignore[no-untyped-def]
    """Each page is read once its load event has fired and the requests the load started
    have answered: the demo's pages start their polls seconds later (round-timer.js,
    live-poll.js, round-panel.js), and the API docs are read once the parts they draw from
    the schema are there."""
    from playwright.sync_api import expect

    call_command("load_demo", stdout=None)
    slug = "battledesk-demo-open"
    round_ = Round.objects.filter(tournament__slug=slug).order_by("-number").first()
    assert round_ is not None
    match = Match.objects.filter(round=round_, b__isnull=False).order_by("table").first()
    assert match is not None
    call = JudgeCall.objects.order_by("pk").first()
    rounds = f"/events/{slug}/manage/rounds/{round_.number}/"
    organiser_pages = [
        "/",
        f"/events/{slug}/",
        f"/events/{slug}/manage/",
        rounds,
        rounds + "slips/",
        rounds + "scorekeeper/",
        f"/events/{slug}/rounds/{round_.number}/pairings/",
        f"/events/{slug}/standings/",
        f"/events/{slug}/projector/",
        f"/events/{slug}/decklists/",
        f"/matches/{match.pk}/staff/",
        f"/matches/{match.pk}/staff/penalty/",
        "/judge/",
        "/cards/import/",
        "/admin/",
        "/admin/accounts/user/",
    ]
    if call is not None:
        organiser_pages += [f"/judge/calls/{call.pk}/", f"/judge/calls/{call.pk}/adjudicate/"]
    organiser = User.objects.get(username="organiser")
    organiser.is_staff = organiser.is_superuser = True  # the admin pages too
    organiser.save()

    desk = PolicyWatch(open_page(organiser))
    for path in organiser_pages:
        desk.visit(live_server.url, path)
        desk.read()
    # Swagger draws the title and the operations once the schema has answered.
    desk.visit(live_server.url, "/api/docs/")
    expect(desk.page.locator(".swagger-ui .info .title").first).to_be_visible()
    expect(desk.page.locator(".swagger-ui .opblock").first).to_be_visible()
    desk.read()
    # Redoc draws the whole schema, its menu last but for the "powered by" logo, which comes
    # from its CDN: the policy refuses it (as it should), and that refusal is the sign that
    # Redoc is done (and that the page's violation events are heard).
    desk.visit(live_server.url, "/api/redoc/")
    expect(desk.page.get_by_text("Battledesk API").first).to_be_visible()
    desk.page.wait_for_function(
        "(logo) => window.__policyViolations.some((v) => v.includes(logo))", arg=REDOC_LOGO
    )
    desk.read()

    player = PolicyWatch(open_page(User.objects.get(username="player01")))
    for path in ("/me/events/", f"/events/{slug}/my-match/", f"/events/{slug}/decklist/"):
        player.visit(live_server.url, path)
        player.read()
    assert f"/api/redoc/: img-src refused https://{REDOC_LOGO}" in "\n".join(desk.violations)
    assert [v for v in desk.violations + player.violations if REDOC_LOGO not in v] == []
