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


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
def test_no_demo_page_nor_the_api_docs_trips_the_policy(open_page, live_server) -> None:  # type: ignore[no-untyped-def]
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

    violations: list[str] = []
    current = {"path": ""}

    def watch(page: Any) -> Any:
        def on_console(msg: Any) -> None:
            if "Content Security Policy" in msg.text:
                violations.append(f"{current['path']}: {msg.text}")

        page.on("console", on_console)
        return page

    def visit(page: Any, path: str) -> None:
        current["path"] = path
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        page.wait_for_load_state("networkidle")

    page = watch(open_page(organiser))
    for path in organiser_pages:
        visit(page, path)
    visit(page, "/api/docs/")
    page.locator(".swagger-ui .info .title").first.wait_for()
    page.wait_for_timeout(1500)
    visit(page, "/api/redoc/")
    page.get_by_text("Battledesk API").first.wait_for()
    page.wait_for_timeout(1500)

    player = watch(open_page(User.objects.get(username="player01")))
    for path in ("/me/events/", f"/events/{slug}/my-match/", f"/events/{slug}/decklist/"):
        visit(player, path)
    # Redoc's "powered by" logo comes from its CDN, which the policy refuses (as it should).
    assert [v for v in violations if "cdn.redoc.ly/redoc/logo-mini.svg" not in v] == []
