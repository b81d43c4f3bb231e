"""The coverage page (/events/<slug>/coverage/), and the demo Open's metagame on it."""

from __future__ import annotations

import re

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
