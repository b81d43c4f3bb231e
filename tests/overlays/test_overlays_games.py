"""What the feature overlay shows for each game: BOS's match clock, game score and life as
the judge's replay has it; BoBA's trophies as reported and as the judge's replay shows them
(docs/overlays.md, "Feature match")."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games import get_game
from matches import clock_services
from matches import services as match_services
from matches.models import JudgeCall, Match, Ruling, RulingDecision
from overlays import feeds, services
from overlays.selectors import live_stamp
from tests.matches.bos_scenes import bos_running
from tests.scenarios import pair_and_publish, running_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def _first_match(event: Any, organiser: Any) -> Match:
    round_ = pair_and_publish(event, organiser)
    return (
        round_.matches.filter(b__isnull=False)
        .select_related("round__tournament", "a__player", "b__player")
        .order_by("table")
        .first()
    )


def _replayed(match: Match, judge: Any, replay: dict[str, Any]) -> None:
    call = JudgeCall.objects.create(tournament=match.round.tournament, match=match, opened_by=judge)
    Ruling.objects.create(
        call=call, judge=judge, text="Replayed.", decision=RulingDecision.REPLAYED, replay=replay
    )


def test_bos_the_clock_the_game_score_and_life_from_the_judges_replay() -> None:
    event, organiser, _regs = bos_running(2, clock_mode="per_game")
    match = _first_match(event, organiser)
    services.feature_mark(actor=organiser, match=match, slot=1)
    clock = feeds.feature_feed(event, 1)["match"]["clock"]
    assert clock["running"] is False
    assert clock["remaining_ms"] == {"a": 15 * 60_000, "b": 15 * 60_000}

    before = live_stamp(event.pk)
    clock_services.press(
        actor=match.a.player,
        match=match,
        kind="start",
        expected_seq=0,
        payload={"first": "a", "bids": [4, 7]},
    )
    assert live_stamp(event.pk) != before  # a press moves the stream
    shown = feeds.feature_feed(event, 1)["match"]
    assert shown["clock"]["running"] is True and shown["clock"]["active"] == "a"
    assert shown["clock"]["delay_left_ms"] == 30_000  # BOS's delay; the page counts it down
    assert shown["game_score"] == {"a": 0, "b": 0}

    before = live_stamp(event.pk)
    _replayed(
        match,
        organiser,
        {
            "legal": True,
            "turns": [{}] * 7,
            "life": {"A": 12, "B": 0},
            "result": {"winner": "A", "turn": 7},
        },
    )
    assert live_stamp(event.pk) != before  # a ruling on a feature match moves it too
    replay = feeds.feature_feed(event, 1)["match"]["replay"]
    assert replay["label"] == "Life"
    assert replay["score"] == {"a": 12, "b": 0}
    assert replay["winner"] == "a" and replay["finished"] is True


def test_boba_trophies_as_reported_and_as_the_judges_replay_shows_them() -> None:
    event, organiser, _regs = running_event(2)
    match = _first_match(event, organiser)
    services.feature_mark(actor=organiser, match=match, slot=2)
    _replayed(match, organiser, {"legal": True, "battles": [{}] * 4, "trophies": {"A": 2, "B": 3}})
    shown = feeds.feature_feed(event, 2)["match"]
    assert shown["replay"]["label"] == "Trophies"
    assert shown["replay"]["score"] == {"a": 2, "b": 3}
    assert shown["replay"]["progress"]  # a record without a result says how far it goes

    match_services.match_report(actor=organiser, match=match, games=[0, 1, 0], battles=[[2, 4]])
    shown = feeds.feature_feed(event, 2)["match"]
    assert shown["games"] == [0, 1, 0]
    assert shown["details_score"] == {"a": 2, "b": 4}
    assert shown["details"] == [f"Game 1: trophies {match.a.name} 2, {match.b.name} 4."]


def test_bos_replay_summary_gives_each_players_life() -> None:
    replayer = get_game("bos").replayer()
    assert replayer is not None
    summary = replayer.summary({"legal": True, "turns": [], "life": {"A": 30, "B": 25}})
    assert summary.score_label is not None and summary.score_label.render(str) == "Life"
    assert summary.score == (("A", 30), ("B", 25))
    assert replayer.summary({"legal": True, "life": None}).score == ()
