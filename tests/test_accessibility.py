"""Accessibility basics on every page, as each role sees it.

Every form control has an accessible name (a <label for>, a wrapping <label>, aria-label or
aria-labelledby), every image and SVG chart has a text alternative, every button has a name,
every page has one <h1>, a language and a viewport. Not a full audit: the regressions that
are easy to make and easy to catch.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from decks import services as deck_services
from decks.catalog import catalog_for
from engine.games import get_game
from tests.factories import (
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
    organiser_of,
)
from tests.support import PageAudit, audit

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene():  # type: ignore[no-untyped-def]
    deck_services.demo_catalog_load(game="boba")
    rules = get_game("boba").deck_rules()
    catalog = catalog_for("boba")
    text = rules.export(rules.sample(catalog, rules.resolve_format("playmaker"), 3), catalog)
    event = TournamentFactory(status="running")
    reg = RegistrationFactory(tournament=event)
    version = deck_services.decklist_submit(
        actor=organiser_of(event), registration=reg, source=text
    )
    check = deck_services.deck_check_create(
        actor=organiser_of(event), tournament=event, round_number=1, count=1
    )
    return {"event": event, "reg": reg, "version": version, "check": check}


def test_public_pages(scene) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    urls = [
        "/",
        f"/events/{scene['event'].slug}/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/check-deck/",
        "/cards/",
        "/cards/?q=a&power_min=100",
    ]
    problems = [p for url in urls for p in audit(client, url)]
    assert problems == []


def test_player_pages(scene) -> None:  # type: ignore[no-untyped-def]
    client = logged_in(scene["reg"].player)
    urls = [
        "/me/events/",
        "/accounts/profile/",
        "/accounts/password/change/",
        "/events/claim/",
        f"/registrations/{scene['reg'].pk}/decklist/",
        f"/decklists/{scene['version'].pk}/",
    ]
    problems = [p for url in urls for p in audit(client, url)]
    assert problems == []


def test_organiser_pages(scene) -> None:  # type: ignore[no-untyped-def]
    organiser = organiser_of(scene["event"])
    organiser.is_organiser = True
    organiser.save()
    client = logged_in(organiser)
    slug = scene["event"].slug
    urls = [
        f"/events/{slug}/manage/",
        f"/events/{slug}/edit/",
        "/events/new/",
        f"/events/{slug}/decklists/",
        f"/events/{slug}/deck-checks/",
        f"/deck-checks/{scene['check'].pk}/",
        "/cards/import/",
        f"/events/{slug}/manage/players/import/",
    ]
    problems = [p for url in urls for p in audit(client, url)]
    assert problems == []


def test_judge_pages(scene) -> None:  # type: ignore[no-untyped-def]
    judge = UserFactory()
    scene["event"].judges.add(judge)
    client = logged_in(judge)
    slug = scene["event"].slug
    urls = [
        f"/events/{slug}/manage/",
        f"/events/{slug}/decklists/",
        f"/decklists/{scene['version'].pk}/",
    ]
    problems = [p for url in urls for p in audit(client, url)]
    assert problems == []


def test_the_audit_catches_the_mistakes_it_looks_for() -> None:
    parser = PageAudit()
    parser.feed(
        '<html><head></head><body><h1>a</h1><h1>b</h1><input name="q"><select id="s"></select>'
        '<button></button><img src="x.png"><svg><rect/></svg>'
        '<label for="ok">OK</label><input id="ok"><label>Wrapped <input name="w"></label></body></html>'
    )
    problems = parser.report()
    assert any("input without a label: name=q" in p for p in problems)
    assert any("select without a label" in p for p in problems)
    assert any("button without a name" in p for p in problems)
    assert any("img without alt" in p for p in problems)
    assert any("svg without" in p for p in problems)
    assert "2 <h1> elements" in problems and "<html> without lang" in problems
    assert not any("name=w" in p or "id=ok" in p for p in problems)


SCROLLING_BOX = re.compile(
    r'<(?:div|pre)\b[^>]*class="(?:table-wrap|numbered-lines-scroll|bracket-scroll|deck-text|adj-json)"[^>]*>'
)


def test_every_scrolling_box_in_the_templates_is_a_named_keyboard_stop() -> None:
    """axe-core's scrollable-region-focusable (serious): a box that scrolls sideways on a phone
    (a table, the numbered lines of a deck report, a replay table) can be scrolled by keyboard,
    so it takes the focus and says what it is. The browser test sees the boxes that scroll
    with the demo's data; this one sees every template, whatever its data."""
    root = Path(__file__).resolve().parent.parent / "templates"
    boxes = [
        (path.relative_to(root), tag)
        for path in sorted(root.rglob("*.html"))
        for tag in SCROLLING_BOX.findall(path.read_text())
    ]
    assert len(boxes) > 25
    unreachable = [
        f"{path}: {tag}"
        for path, tag in boxes
        if not ('tabindex="0"' in tag and 'role="region"' in tag and 'aria-label="' in tag)
    ]
    assert unreachable == []
