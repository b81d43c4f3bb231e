"""The BOS record's bidding game and starting values, and the values set by hand.

(BOS: Going First): the bids, who chose, the ether they give; (BOS: Starting Info): 30 life
and 1 vim. A value the rules did not give is accepted and flagged in the replay output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bos.__main__ import main
from engine.bos.replay import Replay, describe, replay
from engine.bos.start import MAX_BID

from .factory import OPENING, attack, end, record, start
from .test_properties import game

NEW_KEYS = ("going_first", "set_by_hand", "outcome")


def bid_record(bids: Any, **extra: Any) -> dict[str, Any]:
    data = record([*OPENING], **extra.pop("initial", {}))
    data["going_first"] = {"bids": bids, **extra}
    return data


def test_bos_going_first_the_lower_bidder_receives_ether_and_the_higher_chooses() -> None:
    data = bid_record({"A": 4, "B": 7})
    data["first"] = "A"  # B won the bid and chose A
    r = replay(data)
    assert r.legal and r.state is not None
    assert r.state.sides["A"].ether == 4 and r.state.sides["B"].ether == 0
    out = r.to_json()
    assert out["going_first"] == {
        "bids": {"A": 4, "B": 7},
        "chose_first": "B",
        "first": "A",
        "ether": {"A": 4, "B": 0},
    }
    assert out["set_by_hand"] == []
    assert "Going first: bids A 4, B 7; B chose, A goes first; A receives 4 ether" in describe(r)


def test_bos_going_first_stated_chooser_must_be_the_higher_bidder() -> None:
    assert replay(bid_record({"A": 4, "B": 7}, chose_first="B")).legal
    r = replay(bid_record({"A": 4, "B": 7}, chose_first="A"))
    assert r.exit_status == 2 and r.error is not None
    assert r.error.field == "going_first.chose_first"
    assert r.error.message == "the higher bidder (B) chooses who goes first (BOS: Going First)"


def test_bos_going_first_equal_bids_are_bid_again() -> None:
    r = replay(bid_record({"A": 3, "B": 3}))
    assert r.exit_status == 2 and r.error is not None and r.error.field == "going_first.bids"
    assert "bid again" in r.error.message and "(BOS: Going First)" in r.error.message


@pytest.mark.parametrize(
    ("bids", "field"),
    [
        ({"A": -1, "B": 2}, "going_first.bids.A"),
        ({"A": 1.5, "B": 2}, "going_first.bids.A"),
        ({"A": True, "B": 2}, "going_first.bids.A"),
        ({"A": 1, "B": "3"}, "going_first.bids.B"),
        ({"A": 1, "B": MAX_BID + 1}, "going_first.bids.B"),
        ({"A": 1}, "going_first.bids.B"),
        ([1, 2], "going_first.bids"),
    ],
)
def test_bos_going_first_bids_are_whole_numbers_from_0(bids: Any, field: str) -> None:
    r = replay(bid_record(bids))
    assert r.exit_status == 2 and r.error is not None and r.error.field == field


def test_bos_going_first_ether_other_than_the_bids_gives_is_flagged_as_set_by_hand() -> None:
    data = bid_record({"A": 4, "B": 7}, initial={"ether": {"A": 3}, "note": "Judge: misread bid"})
    r = replay(data)
    assert r.legal and r.state is not None and r.state.sides["A"].ether == 3
    assert r.to_json()["set_by_hand"] == [
        {
            "action": None,
            "player": "A",
            "value": "ether",
            "set": 3,
            "instead_of": 4,
            "rule": "BOS: Going First",
            "note": "Judge: misread bid",
        }
    ]
    text = describe(r)
    assert "Set by hand: A ether 3 at the start, instead of the rules' 4" in text
    assert "Judge: misread bid" in text


def test_bos_starting_info_life_and_vim_other_than_30_and_1_are_flagged_as_set_by_hand() -> None:
    r = replay(record([start("A")], life=20, vim=2))
    assert r.legal
    flagged = [
        (v["player"], v["value"], v["set"], v["instead_of"]) for v in r.to_json()["set_by_hand"]
    ]
    assert flagged == [
        ("A", "life", 20, 30),
        ("A", "vim", 2, 1),
        ("B", "life", 20, 30),
        ("B", "vim", 2, 1),
    ]
    assert {v["rule"] for v in r.to_json()["set_by_hand"]} == {"BOS: Starting Info"}
    assert replay(record([start("A")], life=30, vim=1)).to_json()["set_by_hand"] == []


def test_bos_starting_info_ether_without_bids_is_the_records_and_unchecked() -> None:
    # A record from before the bids were recorded: its ether is not compared with anything.
    r = replay(record([*OPENING], ether={"A": 0, "B": 4}))
    assert r.legal and r.to_json()["going_first"] is None and r.set_by_hand == []


def test_bos_judge_step_values_are_flagged_as_set_by_hand() -> None:
    judge = {"type": "judge", "player": "A", "note": "Ruling 3", "adjust": {"B": {"life": 12}}}
    r = replay(record([*OPENING, judge, end("A")]))
    assert r.legal
    assert r.to_json()["set_by_hand"] == [
        {
            "action": 7,
            "player": "B",
            "value": "life",
            "set": 12,
            "instead_of": 30,
            "rule": None,
            "note": "Ruling 3",
        }
    ]
    assert "Set by hand: B life 12 by the judge step at action 7, was 30: Ruling 3." in describe(r)


def test_bos_starting_info_a_judges_zero_life_ends_the_game_as_the_judges() -> None:
    judge = {"type": "judge", "player": "A", "note": "Concession", "adjust": {"B": {"life": 0}}}
    r = replay(record([*OPENING, judge]))
    assert r.to_json()["outcome"] == {
        "winner": "A",
        "termination": "judge",
        "rule": "BOS: Starting Info",
    }
    assert r.result == {"winner": "A", "reason": "life", "turn": 3}  # as it always was
    assert "Result: A wins on turn 3: a judge step set a life to 0." in describe(r)
    r = replay(record([*OPENING, attack("A", 1, {"player": "B"})], life=5))
    assert r.outcome is not None and r.outcome.termination.key == "life"


def _without_new_keys(r: Replay) -> dict[str, Any]:
    return {k: v for k, v in r.to_json().items() if k not in NEW_KEYS}


@settings(max_examples=60, deadline=None)
@given(game(), st.integers(0, MAX_BID), st.integers(0, MAX_BID))
def test_bos_going_first_bids_matching_the_ether_change_nothing_else(
    actions: list[dict[str, Any]], bid_a: int, bid_b: int
) -> None:
    if bid_a == bid_b:
        bid_b = (bid_b + 1) % (MAX_BID + 1)
    ether = {"A": bid_a if bid_a < bid_b else 0, "B": bid_b if bid_b < bid_a else 0}
    old = replay(record(actions, ether=ether))
    with_bids = record(actions, ether=ether)
    with_bids["going_first"] = {"bids": {"A": bid_a, "B": bid_b}}
    new = replay(with_bids)
    assert _without_new_keys(new) == _without_new_keys(old)
    assert new.set_by_hand == old.set_by_hand  # judge steps only: the start is the rules'


def test_bos_cli_prints_the_bids_and_what_was_set_by_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(bid_record({"A": 2, "B": 0}, initial={"life": 25})), "utf-8")
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Going first: bids A 2, B 0; A chose, A goes first; B receives 0 ether" in text
    assert (
        "Set by hand: A life 25 at the start, instead of the rules' 30 (BOS: Starting Info)" in text
    )
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["going_first"]["chose_first"] == "A"
