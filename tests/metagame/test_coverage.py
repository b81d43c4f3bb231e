"""The coverage page (/events/<slug>/coverage/), and the demo Open's metagame on it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from eventdata.demo import DEMO_EVENT_SLUG, PLAYER_COUNT
from metagame import selectors
from metagame.demo import DEMO_ARCHETYPES
from overlays import selectors as overlay_selectors
from tests.factories import TournamentFactory
from tournaments.models import Tournament

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/ld\+json)[^>]*>")


def test_the_demo_opens_coverage_page_shows_its_metagame(demo_loaded: str) -> None:
    event = Tournament.objects.get(slug=DEMO_EVENT_SLUG)
    breakdown = selectors.event_breakdown(event)
    assert breakdown["lists"] == PLAYER_COUNT  # every demo list is published
    names = {row["archetype"] for row in breakdown["archetypes"]}
    assert len(names & {name for name, _p, _r in DEMO_ARCHETYPES}) >= 3
    assert sum(row["players"] for row in breakdown["archetypes"]) == PLAYER_COUNT
    assert any(row["battles_played"] for row in breakdown["archetypes"])

    page = Client().get(f"/events/{DEMO_EVENT_SLUG}/coverage/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="metagame-heading"' in html and 'id="coverage-metagame-chart"' in html
    for row in breakdown["archetypes"]:
        assert row["archetype"] in html
    assert "Battle win rate" in html
    assert 'id="standings-heading"' in html and "Top of the standings after round 3" in html
    assert 'id="feature-heading"' in html
    features = list(overlay_selectors.feature_matches(event))
    assert features  # the demo Open marks feature matches in its newest round
    for feature in features:
        assert f"/events/{DEMO_EVENT_SLUG}/overlays/feature/{feature.slot}/" in html
        assert feature.match.a.name in html
    assert "No feature matches marked yet." not in html
    assert 'id="decklists-heading"' in html and "/decklists/" in html
    assert not INLINE_SCRIPT.search(html)


@pytest.mark.django_db
def test_a_new_events_coverage_page_says_what_comes_later() -> None:
    event = TournamentFactory()
    html = Client().get(f"/events/{event.slug}/coverage/").content.decode()
    assert "No standings yet" in html
    assert "The bracket appears here once the top cut starts." in html
    assert "The decklists appear here once they are published." in html
    assert "No published decklists yet" in html


# --- live: the page polls /coverage/live/ with its ETag (static/js/coverage.js) ---------------


@pytest.mark.django_db
def test_the_coverage_page_embeds_the_bracket_once_the_top_cut_starts() -> None:
    from tests.scenarios import running_top_cut

    cut = running_top_cut()
    html = Client().get(f"/events/{cut.event.slug}/coverage/").content.decode()
    assert "<svg" in html and 'class="bracket-figure"' in html  # the bracket page's picture
    for match in cut.matches:
        assert match.a.name in html and match.b is not None and match.b.name in html
    assert f'href="/events/{cut.event.slug}/bracket/"' in html
    assert "The bracket appears here once the top cut starts." not in html


@pytest.mark.django_db
def test_the_live_sections_answer_304_until_a_result_changes_them(
    django_assert_max_num_queries: Any,
) -> None:
    from matches import services as ms
    from tests.scenarios import published_round

    scene = published_round(4)
    slug = scene.event.slug
    client = Client()
    page = client.get(f"/events/{slug}/coverage/").content.decode()
    etag = re.search(r'data-etag="([^"]+)"', page)
    assert etag is not None and f'data-live-url="/events/{slug}/coverage/live/"' in page
    tag = etag.group(1).replace("&quot;", '"')
    assert 'id="coverage-live"' in page and "Reload" in page  # no JavaScript: a reload link

    # The page's ETag is the live part's: the first poll costs a 304, without rendering.
    with django_assert_max_num_queries(3):
        same = client.get(f"/events/{slug}/coverage/live/", HTTP_IF_NONE_MATCH=tag)
    assert same.status_code == 304 and same.content == b""
    assert same["ETag"] == tag and "private" in same["Cache-Control"]

    match = scene.matches[0]
    ms.match_report(actor=scene.organiser, match=match, games=[1, 0, 0])
    scene.round.refresh_from_db()

    changed = client.get(f"/events/{slug}/coverage/live/", HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    fragment = changed.content.decode()
    assert fragment.lstrip().startswith('<div id="coverage-live">')
    assert "<html" not in fragment and 'id="standings-heading"' in fragment
    again = client.get(f"/events/{slug}/coverage/live/", HTTP_IF_NONE_MATCH=changed["ETag"])
    assert again.status_code == 304


@pytest.mark.django_db
def test_the_live_sections_of_an_event_the_public_cannot_see_are_a_404() -> None:
    event = TournamentFactory(status="draft")
    assert Client().get(f"/events/{event.slug}/coverage/live/").status_code == 404
