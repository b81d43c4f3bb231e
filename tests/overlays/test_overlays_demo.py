"""The demo Open's round 4 is on the stream overlays: a table still playing as feature 1, the
first final result as feature 2 (eventdata/demo.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from eventdata.demo import DEMO_EVENT_SLUG
from matches.models import MatchStatus
from overlays.selectors import feature_matches
from tournaments.models import AuditEntry, Tournament


@pytest.mark.usefixtures("fresh_cache")
def test_the_demo_has_two_feature_matches_on_its_overlays(demo_loaded: str) -> None:
    event = Tournament.objects.get(slug=DEMO_EVENT_SLUG)
    features = list(feature_matches(event))
    assert [f.slot for f in features] == [1, 2]
    assert {f.round.number for f in features} == {4}
    assert features[0].match.status == MatchStatus.PENDING
    assert features[1].match.status == MatchStatus.FINAL
    assert AuditEntry.objects.filter(tournament=event, action="match.featured").count() == 2
    page = Client().get(f"/events/{DEMO_EVENT_SLUG}/overlays/feature/1/").content.decode()
    assert features[0].match.a.name in page
