"""engine.boba.board: the table as the adjudication page shows it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.boba.actions import Action
from engine.boba.board import (
    board,
    card_name,
    describe_action,
    legal_options,
    max_step,
    players,
    position,
    zones,
)
from engine.boba.replay import replay
from engine.boba.state import GameState

GOLDEN = Path(__file__).resolve().parent / "golden"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def test_a_finished_game_has_seven_zones_matching_the_replay() -> None:
    rep = replay(load("playmaker_full_game_all_seven"))
    assert rep.record is not None and rep.state is not None
    expected = rep.to_json()["battles"]
    zs = zones(rep.record, rep.state)
    assert len(zs) == 7
    for z, b in zip(zs, expected, strict=False):
        assert z["status"] == "resolved"
        assert z["winner"] == b["winner"] and z["decided_by"] == b["decided_by"]
        for p in "AB":
            side = z["sides"][p]
            assert side["id"] == b["heroes"][p] and side["power"] == b["power"][p]
            assert [(m["source"], m["amount"]) for m in side["modifiers"]] == [
                (m["source"], m["amount"]) for m in b["modifiers"][p]
            ]
            # power = printed + modifiers
            assert side["power"] == side["printed"] + sum(m["amount"] for m in side["modifiers"])
    out = board(rep.record, rep.state)
    assert out["result"] == rep.to_json()["result"] and out["next"] is None
    assert {p: out["players"][p]["trophies"] for p in "AB"} == rep.to_json()["trophies"]
    assert {p: out["players"][p]["hot_dogs"] for p in "AB"} == rep.to_json()["hot_dogs"]


def test_the_current_battle_shows_its_power_now_and_later_ones_wait() -> None:
    rep = replay(load("playmaker_illegal_second_substitution"))
    assert rep.record is not None and rep.error is not None
    state = position(rep, max_step(rep))
    assert state is not None
    zs = zones(rep.record, state)
    assert zs[0]["status"] == "current" and zs[0]["sides"]["A"]["id"] == "AB1"
    assert zs[0]["sides"]["A"]["power"] == 200
    assert [z["status"] for z in zs[1:]] == ["upcoming"] * 6
    assert zs[1]["sides"]["B"]["id"] == "B2"
    ps = players(rep.record, state)
    assert ps["A"]["hot_dogs"] < 10 and ps["A"]["honors"] and not ps["B"]["honors"]
    assert "A deck 1 (AD1)" in ps["A"]["bench"]


def test_position_zero_is_the_setup_and_steps_are_clamped() -> None:
    rep = replay(load("substitution_honors_after_draw"))
    assert rep.record is not None
    start = position(rep, 0)
    assert isinstance(start, GameState) and start.history == []
    assert position(rep, 999) is rep.states[-1]
    assert max_step(rep) == len(rep.record.actions)
    malformed = replay(load("malformed_short_lineup"))
    assert position(malformed, 0) is None


def test_legal_options_are_the_engines_and_say_what_they_need() -> None:
    data = load("playmaker_illegal_second_substitution")
    data["actions"] = data["actions"][:1]
    rep = replay(data)
    assert rep.record is not None and rep.state is not None
    options = legal_options(rep.record, rep.state)
    assert [o["action"] for o in options] == [a.to_json() for a in rep.state.legal_actions()]
    assert all(o["player"] == "B" for o in options)  # A's second substitution is not offered
    sub = options[1]
    assert sub["do"] == "substitute" and sub["needs"] == ["draw"]
    assert sub["label"] == "B substitutes B bench 1 (BB1)"
    assert options[0]["label"] == "B passes" and options[0]["needs"] == []
    assert [o["key"] for o in options] == [str(i) for i in range(len(options))]


def test_options_after_a_battle_are_the_draws() -> None:
    data = load("playmaker_stops_at_the_draws")
    rep = replay(data)
    assert rep.record is not None and rep.state is not None
    options = legal_options(rep.record, rep.state)
    assert options and {o["do"] for o in options} == {"draw"}
    assert all(o["needs"] == ["card"] for o in options)


def test_words_for_cards_and_actions() -> None:
    rep = replay(load("substitution_honors_after_draw"))
    record = rep.record
    assert record is not None
    assert card_name(record, "A1") == "A hero 1 (A1)"
    assert card_name(record, "zz") == "zz" and card_name(record, None) == "-"
    assert (
        describe_action(record, Action("A", "substitute", "AB1", None))
        == "A substitutes A bench 1 (AB1), draws nothing"
    )
    assert describe_action(record, Action("B", "pass")) == "B passes"
    assert describe_action(record, Action("A", "reveal", None)) == "A reveals the top hero"
