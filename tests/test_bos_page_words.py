"""A BOS event's pages speak of BOS: the judge call page's section filter, the ruling
decisions, the check page's card lists and problems (issue 12's QA walkthrough)."""

from __future__ import annotations

import pytest
from django.test import Client

from decks import services as deck_services
from decks.forms import catalog_label
from decks.models import Catalog
from matches import services
from matches.models import RulingDecision
from tests.factories import UserFactory
from tests.scenarios import running_event

pytestmark = pytest.mark.django_db


def test_bos_judge_call_page_filter_example_and_decisions_are_the_games_own() -> None:
    event, organiser, _ = running_event(
        4, game="bos", mode="competitive", format_key="competitive", match_structure="bo3"
    )
    judge = UserFactory()
    event.judges.add(judge)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.filter(b__isnull=False)[0]
    call, _ = services.call_open(actor=match.a.player, match=match, question="Decay?")
    client = Client()
    client.force_login(judge)
    html = client.get(f"/judge/calls/{call.pk}/").content.decode()
    assert "4.2 / substitution" not in html and 'placeholder="e.g. BOS: ' in html
    assert "Battle or game replayed" not in html and "Replayed (part of) a game" in html


def test_ruling_decision_replayed_is_game_neutral() -> None:
    assert RulingDecision.REPLAYED.label == "Replayed (part of) a game"
    assert "battle" not in str(RulingDecision.REPLAYED.label).lower()


def test_a_card_lists_name_that_says_its_kind_is_not_followed_by_the_kind() -> None:
    named = Catalog(name="BOS demo cards (fictional)", kind=Catalog.Kind.DEMO, game="bos")
    assert catalog_label(named) == "BOS demo cards (fictional)"
    plain = Catalog(name="Club list", kind=Catalog.Kind.DEMO, game="bos")
    assert catalog_label(plain) == "Club list (Demo (fictional cards))"


def test_check_page_shows_problems_by_message_keeping_the_rule_as_data() -> None:
    deck_services.demo_catalog_load()
    html = (
        Client()
        .post("/check-deck/", {"game": "boba", "format": "playmaker", "decklist": "}{ junk"})
        .content.decode()
    )
    assert "Not legal" in html
    assert 'data-rule="' in html and "<dt>Rule</dt>" not in html
    assert "(Demo (fictional cards))" not in html
