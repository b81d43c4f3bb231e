"""Rules audit: hand-worked scenarios, one per rule, expectations worked out from the
documents (../shared/spec/boba-game-record.md, ../shared/rules: CR, Summary, README product
decisions) before the engine was run.

Helper lineups (tests/engine/boba/helpers.py): battle heroes A1..A7 / B1..B7 (Fire unless a
(power, weapon) pair is given), bench AB1..AB4 / BB1..BB4 (200, Ice), spare deck heroes
AD1..AD9 / BD1..BD9 (100 + 10 * (n - 1), Steel).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.boba.replay import replay
from tests.engine.boba.helpers import Lineup, act, make_record, passes, run_json

ROOT = Path(__file__).resolve().parents[3]
SUB = "substitution"
PM = "playmaker"
NO_STOP = {"stop_at_four": False, "tiebreakers": False}
TIEBREAK = {"stop_at_four": True, "tiebreakers": True}


def _state(record: dict[str, Any]) -> dict[str, Any]:
    """The position after the last action (judge's view)."""
    r = replay(record)
    assert r.state is not None
    return r.state.snapshot()


def _pm_battle(first: str) -> list[dict[str, Any]]:
    """A Playmaker battle in which both players pass on substituting and on plays."""
    return passes(first) + passes(first)


def _draws(*cards: tuple[str, str]) -> list[dict[str, Any]]:
    return [act(p, "draw", c) for p, c in cards]


def _spare_plays(n: int = 9) -> dict[str, dict[str, Any]]:
    """Plays to draw at the end of battles: pa1..pan (A's), pb1..pbn (B's)."""
    out: dict[str, dict[str, Any]] = {}
    for i in range(1, n + 1):
        out[f"pa{i}"] = {"name": f"Spare A {i}", "cost": 9, "effect": [{"power": 1}]}
        out[f"pb{i}"] = {"name": f"Spare B {i}", "cost": 9, "effect": [{"power": 1}]}
    return out


# ---------------------------------------------------------------------------- honors


def test_cr_4_2_2_honors_battle_1_from_record_and_drawn_battle_keeps_honors() -> None:
    # honors B in battle 1. b1 100-100 draw: honors stay B. b2 A 120 wins: honors A.
    # b3 draw: honors stay A. b4 A 90 loses: honors B.
    a: Lineup = [100, 120, 100, 90, 100, 100, 100]
    actions = passes("B") + passes("B") + passes("A") + passes("A")
    out = run_json(make_record(SUB, a=a, honors="B", actions=actions))
    assert out["legal"] is True and out["error"] is None
    assert [b["winner"] for b in out["battles"]] == [None, "A", None, "B"]
    assert [b["decided_by"] for b in out["battles"]] == ["draw", "power", "draw", "power"]
    assert [b["honors_next"] for b in out["battles"]] == ["B", "A", "A", "B"]
    assert out["trophies"] == {"A": 1, "B": 1}
    assert out["result"] is None
    assert out["next"] == {"player": "B", "expects": ["substitute", "pass"]}


def test_cr_4_2_2_drawn_battle_keeps_honors_with_the_previous_winner_not_battle_1_holder() -> None:
    # honors A. b1: B wins (A 90) -> B. b2 draw -> stays B (not back to A). b3: B decides first.
    a: Lineup = [90, 100, 100, 100, 100, 100, 100]
    actions = passes("A") + passes("B") + [act("A", "pass")]
    out = run_json(make_record(SUB, a=a, actions=actions))
    assert [b["honors_next"] for b in out["battles"]] == ["B", "B"]
    err = out["error"]
    assert out["legal"] is False
    assert (err["action"], err["code"], err["rule"]) == (4, "not_your_turn", "CR 4.2.2")
    assert len(out["battles"]) == 2


def test_cr_4_4_3_honors_in_sudden_death_go_to_the_last_decided_battle_winner() -> None:
    # Rookie: A wins 1-3, B wins 4-6, battle 7 drawn: honors after battle 7 stay B (battle 6).
    a: Lineup = [110, 110, 110, 90, 90, 90, 100]
    rec = make_record("rookie", a=a, options=TIEBREAK)
    out = run_json(rec)
    assert out["battles"][-1]["honors_next"] == "B"
    assert out["result"] is None
    assert out["next"] == {"player": "B", "expects": ["reveal"]}


# ---------------------------------------------------------------------------- substitution


def test_cr_4_2_2_substitution_pays_two_hero_to_discard_bench_refilled() -> None:
    # b1: A subs AB1 (200) drawing AD1; B passes. A 200 beats B1 100 -> A, honors A.
    # b2: A subs AD1 (100, just drawn) with an empty deck (draw null); B subs BB1 drawing BD1.
    #     A 100 vs B 200 -> B, honors B.  b3: B decides first.
    actions = [
        act("A", "substitute", "AB1", draw="AD1"),
        act("B", "pass"),
        act("A", "substitute", "AD1", draw=None),
        act("B", "substitute", "BB1", draw="BD1"),
    ]
    rec = make_record(SUB, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True
    assert [b["heroes"] for b in out["battles"]] == [
        {"A": "AB1", "B": "B1"},
        {"A": "AD1", "B": "BB1"},
    ]
    assert [b["power"] for b in out["battles"]] == [{"A": 200, "B": 100}, {"A": 100, "B": 200}]
    assert [b["winner"] for b in out["battles"]] == ["A", "B"]
    assert out["hot_dogs"] == {"A": 6, "B": 8}
    assert out["next"] == {"player": "B", "expects": ["substitute", "pass"]}
    st = _state(rec)["players"]
    assert st["A"]["discard"] == ["A1", "A2"]  # face-down, into the discard
    assert st["B"]["discard"] == ["B2"]
    assert st["A"]["bench"] == ["AB2", "AB3", "AB4"]
    assert st["B"]["bench"] == ["BB2", "BB3", "BB4", "BD1"]
    for p in ("A", "B"):  # README decision 9
        assert st[p]["hot_dogs"] + st[p]["hot_dogs_discarded"] == 10


def test_cr_4_3_2_substitution_in_playmaker_before_reveal_then_play_phase() -> None:
    actions = [act("A", "pass"), act("B", "substitute", "BB2", draw="BD3")]
    out = run_json(make_record(PM, actions=actions))
    assert out["battles"] == []
    assert out["hot_dogs"] == {"A": 10, "B": 8}
    assert out["next"] == {"player": "A", "expects": ["pass"]}


def test_cr_4_2_2_each_player_one_decision_per_battle_pass_after_substituting() -> None:
    actions = [act("A", "substitute", "AB1", draw="AD1"), act("A", "pass")]
    out = run_json(make_record(SUB, actions=actions))
    err = out["error"]
    assert out["legal"] is False and out["result"] is None
    assert (err["action"], err["rule"]) == (1, "CR 4.2.2")
    assert err["code"] == "substitution_already_used"


def test_cr_4_2_2_once_per_battle_is_per_battle() -> None:
    # b1: A passes, B subs BB1 (200) -> B wins, honors B. b2: B may substitute again,
    # but not twice in b2.
    actions = [
        act("A", "pass"),
        act("B", "substitute", "BB1", draw="BD1"),
        act("B", "substitute", "BB2", draw="BD2"),
        act("B", "substitute", "BB3", draw="BD3"),
    ]
    out = run_json(make_record(SUB, actions=actions))
    assert [b["winner"] for b in out["battles"]] == ["B"]
    assert out["hot_dogs"] == {"A": 10, "B": 6}
    err = out["error"]
    assert (err["action"], err["code"], err["rule"]) == (3, "substitution_already_used", "CR 4.2.2")


def test_cr_4_2_2_substitution_needs_two_hot_dogs() -> None:
    rec = make_record(PM, hot_dogs=1)
    assert run_json(rec)["next"] == {"player": "A", "expects": ["pass"]}
    rec["actions"] = [act("A", "substitute", "AB1", draw="AD1")]
    out = run_json(rec)
    err = out["error"]
    assert (err["action"], err["code"], err["rule"]) == (0, "insufficient_hot_dogs", "CR 4.3.2")
    assert out["hot_dogs"] == {"A": 1, "B": 1}


def test_cr_4_2_2_substitute_card_must_be_on_the_bench() -> None:
    out = run_json(make_record(SUB, actions=[act("A", "substitute", "A5", draw=None)]))
    assert out["error"]["code"] == "card_not_on_bench"
    assert out["error"]["action"] == 0


def test_cr_1_2_1_no_substitution_in_rookie() -> None:
    out = run_json(make_record("rookie", actions=[act("A", "substitute", "A2", draw=None)]))
    err = out["error"]
    assert out["legal"] is False
    assert (err["action"], err["code"], err["rule"]) == (0, "not_in_mode", "CR 1.2.1")


def test_cr_1_2_3_no_plays_outside_playmaker() -> None:
    plays = {"x1": {"name": "Buff Up 15"}}
    out = run_json(make_record("rookie", plays=plays, actions=[act("A", "run", "x1")]))
    assert (out["error"]["code"], out["error"]["rule"]) == ("not_in_mode", "CR 1.2.3")
    out = run_json(make_record(SUB, plays=plays, actions=[act("A", "run", "x1")]))
    assert (out["error"]["code"], out["error"]["rule"]) == ("not_in_mode", "CR 1.2.3")
    out = run_json(make_record(SUB, plays=plays, actions=[*passes("A"), act("A", "draw", "x1")]))
    assert (out["error"]["action"], out["error"]["code"]) == (2, "not_in_mode")
    # a pass after a finished Rookie game is simply too late
    out = run_json(make_record("rookie", actions=[act("A", "pass")]))
    assert (out["error"]["code"], out["error"]["rule"]) == ("game_over", "CR 4.4.1")


# ---------------------------------------------------------------------------- play phase


PLAY_HANDS = {"A": ["qa1", "qa2"], "B": ["qb1"]}


def _play_plays() -> dict[str, dict[str, Any]]:
    return {
        "qa1": {"name": "Buff Up 15"},
        "qa2": {"name": "Opp Loses 15"},
        "qb1": {"name": "Buff Up 15"},
        **_spare_plays(3),
    }


def test_cr_4_3_2_honors_runs_any_number_then_passes_then_the_other() -> None:
    actions = [
        *passes("A"),
        act("A", "run", "qa1"),
        act("A", "run", "qa2"),
        act("A", "pass"),
        act("B", "run", "qb1"),
        act("B", "pass"),
    ]
    rec = make_record(PM, plays=_play_plays(), hands=PLAY_HANDS, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True
    (b1,) = out["battles"]
    assert b1["power"] == {"A": 115, "B": 100}
    assert b1["modifiers"] == {
        "A": [{"source": "qa1", "amount": 15}],
        "B": [{"source": "qa2", "amount": -15}, {"source": "qb1", "amount": 15}],
    }
    assert (b1["winner"], b1["decided_by"], b1["honors_next"]) == ("A", "power", "A")
    assert out["hot_dogs"] == {"A": 6, "B": 8}
    assert out["next"] == {"player": "A", "expects": ["draw"]}
    # the draws may come in either order
    rec["actions"] = actions + _draws(("B", "pb1"), ("A", "pa1"))
    out = run_json(rec)
    assert out["legal"] is True
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}


def test_cr_4_3_2_other_player_waits_for_honors_to_pass() -> None:
    actions = [*passes("A"), act("B", "run", "qb1")]
    out = run_json(make_record(PM, plays=_play_plays(), hands=PLAY_HANDS, actions=actions))
    err = out["error"]
    assert (err["action"], err["code"], err["rule"]) == (2, "not_your_turn", "CR 4.3.2")


def test_cr_4_3_2_one_opportunity_no_plays_after_passing() -> None:
    actions = [*passes("A"), act("A", "pass"), act("A", "run", "qa1")]
    out = run_json(make_record(PM, plays=_play_plays(), hands=PLAY_HANDS, actions=actions))
    err = out["error"]
    assert (err["action"], err["code"], err["rule"]) == (3, "play_opportunity_used", "CR 4.3.2")
    # honors passed and B passed: no second round for A
    actions = [*passes("A"), act("A", "pass"), act("B", "pass"), act("A", "run", "qa1")]
    out = run_json(make_record(PM, plays=_play_plays(), hands=PLAY_HANDS, actions=actions))
    assert out["error"]["action"] == 4
    assert out["error"]["code"] == "wrong_phase"


def test_cr_2_1_2_running_a_play_needs_its_full_cost() -> None:
    actions = [*passes("A"), act("A", "run", "qa1")]
    rec = make_record(PM, plays=_play_plays(), hands=PLAY_HANDS, actions=actions, hot_dogs=1)
    out = run_json(rec)
    err = out["error"]
    assert out["legal"] is False and out["result"] is None
    assert (err["action"], err["code"], err["rule"]) == (2, "insufficient_hot_dogs", "CR 2.1.2")
    assert out["hot_dogs"] == {"A": 1, "B": 1}
    assert set(err) == {"action", "code", "rule", "message"}
    assert err["message"]


def test_cr_4_3_2_running_a_play_not_in_hand() -> None:
    actions = [*passes("A"), act("A", "run", "qb1")]
    out = run_json(make_record(PM, plays=_play_plays(), hands=PLAY_HANDS, actions=actions))
    assert (out["error"]["action"], out["error"]["code"]) == (2, "card_not_in_hand")
    actions = [*passes("A"), act("A", "run", "pa1")]  # still in the playbook
    out = run_json(make_record(PM, plays=_play_plays(), hands=PLAY_HANDS, actions=actions))
    assert (out["error"]["action"], out["error"]["code"]) == (2, "card_not_in_hand")
    actions = [*passes("A"), act("A", "run", "A3")]  # a hero
    out = run_json(make_record(PM, plays=_play_plays(), hands=PLAY_HANDS, actions=actions))
    assert (out["error"]["action"], out["error"]["code"]) == (2, "not_a_play")


def test_cr_2_1_2_cost_never_below_zero() -> None:
    plays: dict[str, dict[str, Any]] = {
        "sale": {"name": "Big Sale", "cost": 0, "effect": [{"cost": -3, "battles": "rest"}]},
        "bu": {"name": "Buff Up 15"},
    }
    actions = [*passes("A"), act("A", "run", "sale"), act("A", "run", "bu"), *passes("A")]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["sale", "bu"]}, actions=actions))
    assert out["legal"] is True
    assert out["battles"][0]["power"] == {"A": 115, "B": 100}
    assert out["hot_dogs"] == {"A": 10, "B": 10}


def test_cr_2_1_2_flash_sale_this_battle_and_next() -> None:
    # Flash Sale (1): "For this Battle and the next, all your Plays cost 1 less Hot Dog
    # (including this one)". b1: Flash Sale 0, Buff Up 15 1 -> A 115 wins, 9 hot dogs.
    # b2: Buff Up 15 1 -> 8. b3: Buff Up 15 2 -> 6.
    plays: dict[str, dict[str, Any]] = {
        "fs": {"name": "Flash Sale"},
        "bu1": {"name": "Buff Up 15"},
        "bu2": {"name": "Pump 15", "cost": 2, "effect": [{"power": 15}]},
        "bu3": {"name": "Buff Up Again", "cost": 2, "effect": [{"power": 15}]},
        **_spare_plays(3),
    }
    actions = [
        *passes("A"),
        act("A", "run", "fs"),
        act("A", "run", "bu1"),
        *passes("A"),
        *_draws(("A", "bu2"), ("B", "pb1")),
        *passes("A"),
        act("A", "run", "bu2"),
        *passes("A"),
        *_draws(("A", "bu3"), ("B", "pb2")),
        *passes("A"),
        act("A", "run", "bu3"),
        *passes("A"),
    ]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["fs", "bu1"]}, actions=actions))
    assert out["legal"] is True, out["error"]
    assert [b["power"]["A"] for b in out["battles"]] == [115, 115, 115]
    assert out["hot_dogs"] == {"A": 6, "B": 10}


# ---------------------------------------------------------------------------- super


def test_cr_4_3_2_super_tie_breaker_playmaker_one_super() -> None:
    a: Lineup = [(100, "Super")] + [100] * 6
    out = run_json(make_record(PM, a=a, actions=_pm_battle("A")))
    b1 = out["battles"][0]
    assert (b1["winner"], b1["decided_by"], b1["honors_next"]) == ("A", "super", "A")
    assert out["trophies"] == {"A": 1, "B": 0}


def test_cr_4_3_2_super_tie_breaker_both_super_or_neither_is_a_draw() -> None:
    a: Lineup = [(100, "Super"), 100, 100, 100, 100, 100, 100]
    b: Lineup = [(100, "Super"), 100, 100, 100, 100, 100, 100]
    actions = _pm_battle("B") + _draws(("A", "pa1"), ("B", "pb1")) + _pm_battle("B")
    rec = make_record(PM, a=a, b=b, honors="B", plays=_spare_plays(2), actions=actions)
    out = run_json(rec)
    assert out["legal"] is True
    assert [(x["winner"], x["decided_by"]) for x in out["battles"]] == [
        (None, "draw"),
        (None, "draw"),
    ]
    assert [x["honors_next"] for x in out["battles"]] == ["B", "B"]


def test_cr_4_2_2_no_super_tie_breaker_in_substitution_or_rookie() -> None:
    a: Lineup = [(100, "Super")] + [100] * 6
    out = run_json(make_record(SUB, a=a, actions=passes("A")))
    assert (out["battles"][0]["winner"], out["battles"][0]["decided_by"]) == (None, "draw")
    out = run_json(make_record("rookie", a=a))
    assert (out["battles"][0]["winner"], out["battles"][0]["decided_by"]) == (None, "draw")


def test_cr_4_3_2_super_tie_breaker_uses_weapon_after_only_fire() -> None:
    # B runs Only Fire ("all Heroes have Fire Weapons"): A's Super hero is Fire -> a draw.
    a: Lineup = [(100, "Super")] + [100] * 6
    plays = {"of": {"name": "Only Fire"}}
    actions = [*passes("A"), act("A", "pass"), act("B", "run", "of"), act("B", "pass")]
    out = run_json(make_record(PM, a=a, plays=plays, hands={"B": ["of"]}, actions=actions))
    b1 = out["battles"][0]
    assert (b1["winner"], b1["decided_by"]) == (None, "draw")
    assert out["hot_dogs"] == {"A": 10, "B": 7}


def test_cr_4_4_3_sudden_death_reveals_honors_first_super_rule_both_super_repeats() -> None:
    # Substitution: all seven battles drawn (tiebreakers on): honors stay A, A reveals first.
    # Round 1: two Super heroes tie -> neither wins, repeat. Round 2: a Super hero ties a
    # Steel hero -> the Super hero wins (CR 4.4.3 Super Weapon Type Rule).
    rec = make_record(SUB, options=TIEBREAK, actions=[])
    rec["cards"]["AS1"] = {
        "kind": "hero",
        "name": "S",
        "variant": "",
        "power": 150,
        "weapon": "Super",
    }
    rec["cards"]["BS1"] = {
        "kind": "hero",
        "name": "S",
        "variant": "",
        "power": 150,
        "weapon": "Super",
    }
    rec["cards"]["AS2"] = {
        "kind": "hero",
        "name": "T",
        "variant": "",
        "power": 120,
        "weapon": "Super",
    }
    actions: list[dict[str, Any]] = []
    for _ in range(7):
        actions += passes("A")
    actions += [
        act("A", "reveal", "AS1"),
        act("B", "reveal", "BS1"),
        act("A", "reveal", "AS2"),
        act("B", "reveal", "BD3"),  # 120 Steel
    ]
    rec["actions"] = actions
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert len(out["battles"]) == 7
    assert out["trophies"] == {"A": 0, "B": 0}
    res = out["result"]
    assert res["winner"] == "A"
    assert res["decided_after_battle"] == 7
    rounds = res["sudden_death"]
    assert [(r["winner"], r["decided_by"]) for r in rounds] == [(None, "draw"), ("A", "super")]
    assert rounds[0]["heroes"] == {"A": "AS1", "B": "BS1"}
    assert rounds[1]["power"] == {"A": 120, "B": 120}


# ---------------------------------------------------------------------------- trophies, end


def test_cr_4_4_1_stop_at_four_true_ends_at_the_fourth_trophy() -> None:
    a: Lineup = [110, 90, 110, 110, 110, 90, 90]
    out = run_json(make_record("rookie", a=a))
    assert len(out["battles"]) == 5
    assert out["trophies"] == {"A": 4, "B": 1}
    assert out["result"] == {"winner": "A", "decided_after_battle": 5, "sudden_death": []}


def test_cr_4_4_1_stop_at_four_false_plays_seven_same_result() -> None:
    a: Lineup = [110, 90, 110, 110, 110, 90, 90]
    out = run_json(make_record("rookie", a=a, options=NO_STOP))
    assert len(out["battles"]) == 7
    assert out["trophies"] == {"A": 4, "B": 3}
    assert out["result"] == {"winner": "A", "decided_after_battle": 5, "sudden_death": []}


def test_cr_4_4_1_majority_without_four_trophies_decided_after_seven() -> None:
    a: Lineup = [110, 110, 110, 90, 90, 100, 100]  # 3-2 with two draws
    out = run_json(make_record("rookie", a=a))
    assert out["trophies"] == {"A": 3, "B": 2}
    assert out["result"] == {"winner": "A", "decided_after_battle": 7, "sudden_death": []}


def test_cr_4_4_2_drawn_game_without_tiebreakers() -> None:
    a: Lineup = [110, 110, 110, 90, 90, 90, 100]
    out = run_json(make_record("rookie", a=a))
    assert out["trophies"] == {"A": 3, "B": 3}
    assert out["result"] == {"winner": None, "decided_after_battle": 7, "sudden_death": []}
    assert "next" not in out


def test_cr_4_4_3_drawn_game_with_tiebreakers_goes_to_sudden_death() -> None:
    a: Lineup = [110, 110, 110, 90, 90, 90, 100]
    actions = [
        act("B", "reveal", "BD1"),  # 100
        act("A", "reveal", "AD1"),  # 100: a draw, neither Super -> next round
        act("B", "reveal", "BD2"),  # 110
        act("A", "reveal", "AD3"),  # 120: A wins
    ]
    out = run_json(make_record("rookie", a=a, options=TIEBREAK, actions=actions))
    assert out["legal"] is True
    res = out["result"]
    assert (res["winner"], res["decided_after_battle"]) == ("A", 7)
    assert [(r["winner"], r["decided_by"]) for r in res["sudden_death"]] == [
        (None, "draw"),
        ("A", "power"),
    ]
    assert out["trophies"] == {"A": 3, "B": 3}
    # A may not reveal first: B has honors (won battle 6, battle 7 drawn)
    out = run_json(
        make_record("rookie", a=a, options=TIEBREAK, actions=[act("A", "reveal", "AD1")])
    )
    err = out["error"]
    assert (err["action"], err["code"], err["rule"]) == (0, "not_your_turn", "CR 4.4.3")
    # mid sudden death: next is A's reveal
    out = run_json(make_record("rookie", a=a, options=TIEBREAK, actions=actions[:3]))
    assert out["result"] is None
    assert out["next"] == {"player": "A", "expects": ["reveal"]}


def test_cr_4_4_3_playmaker_tie_after_seven_no_draws_then_sudden_death() -> None:
    # Every battle drawn (100 vs 100, Fire): draws after battles 1-6, none after battle 7.
    actions: list[dict[str, Any]] = []
    for i in range(1, 7):
        actions += _pm_battle("A") + _draws(("A", f"pa{i}"), ("B", f"pb{i}"))
    actions += _pm_battle("A")
    rec = make_record(PM, options=TIEBREAK, plays=_spare_plays(7), actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert len(out["battles"]) == 7
    assert out["next"] == {"player": "A", "expects": ["reveal"]}
    rec["actions"] = [*actions, act("A", "draw", "pa7")]
    err = run_json(rec)["error"]
    assert (err["action"], err["code"]) == (len(actions), "wrong_phase")


# ---------------------------------------------------------------------------- draws


def test_cr_4_3_2_one_draw_per_player_only_while_playbook_not_empty() -> None:
    rec = make_record(PM, plays=_spare_plays(3), playbook_size=1, actions=_pm_battle("A"))
    rec["setup"]["B"]["playbook_size"] = 0
    out = run_json(rec)
    assert out["next"] == {"player": "A", "expects": ["draw"]}
    rec["actions"] = _pm_battle("A") + _draws(("A", "pa1"))
    out = run_json(rec)
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}
    rec["actions"] = _pm_battle("A") + _draws(("A", "pa1")) + _pm_battle("A")
    out = run_json(rec)  # A's playbook is empty now: no draws after battle 2
    assert len(out["battles"]) == 2
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}
    rec["actions"] = _pm_battle("A") + _draws(("B", "pb1"))
    err = run_json(rec)["error"]
    assert (err["action"], err["code"], err["rule"]) == (4, "no_draw_due", "CR 4.3.2")


def test_cr_4_3_2_draw_phase_next_and_wrong_phase() -> None:
    rec = make_record(PM, plays=_spare_plays(2), actions=[*_pm_battle("A"), act("A", "pass")])
    err = run_json(rec)["error"]
    assert (err["action"], err["code"]) == (4, "wrong_phase")
    rec["actions"] = _pm_battle("A") + _draws(("A", "pa1"))
    out = run_json(rec)
    assert out["next"] == {"player": "B", "expects": ["draw"]}
    assert out["result"] is None


def test_spec_no_draws_after_the_deciding_battle_stop_at_four_false() -> None:
    # A wins battles 1-4 (110), B wins 5-7 (A 90). Draws after 1, 2, 3 only.
    a: Lineup = [110, 110, 110, 110, 90, 90, 90]
    actions: list[dict[str, Any]] = []
    for i in range(1, 4):
        actions += _pm_battle("A") + _draws(("A", f"pa{i}"), ("B", f"pb{i}"))
    actions += _pm_battle("A")  # battle 4 decides: no draws
    actions += _pm_battle("A")  # battle 5: B wins
    actions += _pm_battle("B") + _pm_battle("B")
    rec = make_record(PM, a=a, options=NO_STOP, plays=_spare_plays(4), actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert len(out["battles"]) == 7
    assert out["trophies"] == {"A": 4, "B": 3}
    assert out["result"] == {"winner": "A", "decided_after_battle": 4, "sudden_death": []}
    # a draw after battle 4 is illegal
    bad = actions[:22] + [act("A", "draw", "pa4")]
    rec["actions"] = bad
    err = run_json(rec)["error"]
    assert err["action"] == 22 and err["code"] == "wrong_phase"


# ---------------------------------------------------------------------------- mid-game


def test_spec_next_in_every_phase_of_a_stopped_record() -> None:
    plays = {"qa1": {"name": "Buff Up 15"}, **_spare_plays(2)}
    rec = make_record(PM, plays=plays, hands={"A": ["qa1"]}, honors="B")
    steps = [
        ([], {"player": "B", "expects": ["substitute", "pass"]}),
        ([act("B", "pass")], {"player": "A", "expects": ["substitute", "pass"]}),
        (passes("B"), {"player": "B", "expects": ["pass"]}),
        ([*passes("B"), act("B", "pass")], {"player": "A", "expects": ["run", "pass"]}),
        (passes("B") + passes("B"), {"player": "B", "expects": ["draw"]}),
    ]
    for actions, nxt in steps:
        rec["actions"] = actions
        out = run_json(rec)
        assert out["legal"] is True
        assert out["result"] is None
        assert out["next"] == nxt, actions


# ---------------------------------------------------------------------------- malformed


def _pm_record() -> dict[str, Any]:
    return make_record(PM, plays={"qa1": {"name": "Buff Up 15"}}, hands={"A": ["qa1"]})


def _set(rec: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    parts = path.split(".")
    obj = rec
    for p in parts[:-1]:
        obj = obj[p]
    if value is _DELETE:
        del obj[parts[-1]]
    else:
        obj[parts[-1]] = value
    return rec


_DELETE = object()


@pytest.mark.parametrize(
    ("mode", "path", "value", "field"),
    [
        (PM, "honors", _DELETE, "honors"),
        (PM, "mode", _DELETE, "mode"),
        (PM, "cards", _DELETE, "cards"),
        (PM, "setup", _DELETE, "setup"),
        (PM, "setup.B", _DELETE, "setup.B"),
        (PM, "setup.A.battles", _DELETE, "setup.A.battles"),
        (PM, "setup.A.bench", _DELETE, "setup.A.bench"),
        (PM, "setup.A.hand", _DELETE, "setup.A.hand"),
        (PM, "setup.A.hot_dogs", "ten", "setup.A.hot_dogs"),
        (PM, "setup.A.playbook_size", "26", "setup.A.playbook_size"),
        (PM, "options", {"stop_at_four": "yes"}, "options.stop_at_four"),
        (PM, "setup.A.battles", ["A1", "A2", "A3", "A4", "A5", "A6"], "setup.A.battles"),
        (PM, "setup.B.bench", ["BB1", "BB2", "BB3"], "setup.B.bench"),
        (PM, "setup.A.battles", ["A1", "A2", "Z9", "A4", "A5", "A6", "A7"], "setup.A.battles[2]"),
        (PM, "setup.A.bench", ["AB1", "AB2", "A3", "AB4"], "setup.A.bench[2]"),
        (PM, "setup.B.bench", ["BB1", "AB2", "BB3", "BB4"], "setup.B.bench[1]"),
        (PM, "setup.A.hand", ["A7"], "setup.A.hand[0]"),
        ("rookie", "setup.A.bench", ["AB1", "AB2", "AB3", "AB4"], "setup.A.bench"),
        ("rookie", "setup.B.hot_dogs", 10, "setup.B.hot_dogs"),
        ("rookie", "setup.A.hand", [], "setup.A.hand"),
        (SUB, "setup.A.hand", [], "setup.A.hand"),
        (SUB, "setup.B.playbook_size", 26, "setup.B.playbook_size"),
    ],
)
def test_spec_malformed_record_names_the_field(
    mode: str, path: str, value: Any, field: str
) -> None:
    rec = _pm_record() if mode == PM else make_record(mode)
    out = run_json(_set(rec, path, value))
    assert out["legal"] is False
    assert out["battles"] == []
    assert out["result"] is None
    err = out["error"]
    assert err["code"] == "malformed_record"
    assert err["action"] is None
    assert err["field"] == field, err


def test_spec_malformed_unknown_card_in_an_action() -> None:
    rec = make_record(SUB, actions=[act("A", "pass"), act("B", "substitute", "BB1", draw="ZZ")])
    err = run_json(rec)["error"]
    assert (err["action"], err["field"], err["code"]) == (
        None,
        "actions[1].draw",
        "malformed_record",
    )
    rec = make_record(SUB, actions=[act("A", "substitute", "nope", draw=None)])
    assert run_json(rec)["error"]["field"] == "actions[0].card"


# ---------------------------------------------------------------------------- CLI contract


def _cli(tmp_path: Path, text: str) -> tuple[int, dict[str, Any]]:
    f = tmp_path / "record.json"
    f.write_text(text)
    proc = subprocess.run(
        [sys.executable, "-m", "engine.boba", "replay", str(f), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, json.loads(proc.stdout)


def test_spec_cli_json_field_names_and_exit_codes(tmp_path: Path) -> None:
    plays = {"qa1": {"name": "Buff Up 15"}}
    actions = [*passes("A"), act("A", "run", "qa1"), *passes("A")]
    rec = make_record(
        PM,
        a=[140, 100, 100, 100, 100, 100, 100],
        plays=plays,
        hands={"A": ["qa1"]},
        actions=actions,
    )
    code, out = _cli(tmp_path, json.dumps(rec))
    assert code == 0
    assert set(out) == {
        "format",
        "legal",
        "battles",
        "trophies",
        "hot_dogs",
        "result",
        "error",
        "next",
        "rulings",  # added: the rulings on the cards run (docs/game-record.md)
    }
    assert out["format"] == "boba-replay/1"
    assert out["battles"] == [
        {
            "battle": 1,
            "heroes": {"A": "A1", "B": "B1"},
            "power": {"A": 155, "B": 100},
            "modifiers": {"A": [{"source": "qa1", "amount": 15}], "B": []},
            "winner": "A",
            "decided_by": "power",
            "honors_next": "A",
        }
    ]
    assert out["trophies"] == {"A": 1, "B": 0}
    assert out["hot_dogs"] == {"A": 8, "B": 10}
    assert out["result"] is None and out["error"] is None
    assert out["next"] == {"player": "A", "expects": ["draw"]}

    # finished game: result object
    code, out = _cli(tmp_path, json.dumps(make_record("rookie", a=[110] * 7)))
    assert code == 0
    assert out["result"] == {"winner": "A", "decided_after_battle": 4, "sudden_death": []}
    assert "next" not in out or out["next"] is None

    # illegal action: exit 1
    bad = make_record(SUB, actions=[act("B", "pass")])
    code, out = _cli(tmp_path, json.dumps(bad))
    assert code == 1
    assert out["legal"] is False and out["result"] is None
    assert {k: out["error"][k] for k in ("action", "code", "rule")} == {
        "action": 0,
        "code": "not_your_turn",
        "rule": "CR 4.2.2",
    }
    assert isinstance(out["error"]["message"], str)

    # malformed: exit 2
    code, out = _cli(tmp_path, "{not json")
    assert code == 2
    assert out["error"]["action"] is None and out["error"]["field"] == "record"
    assert out["legal"] is False and out["result"] is None
    broken = make_record("rookie")
    broken["setup"]["A"]["battles"] = broken["setup"]["A"]["battles"][:5]
    code, out = _cli(tmp_path, json.dumps(broken))
    assert code == 2
    assert out["error"]["field"] == "setup.A.battles"


# ---------------------------------------------------------------------------- real plays


def test_cr_5_1_3_two_get_ten_lasts_into_the_next_battle_only() -> None:
    # 2 Get 10: "Your Hero in this Battle and the next Battle gets +10."
    plays = {"g": {"name": "2 Get 10"}, **_spare_plays(3)}
    actions = [
        *passes("A"),
        act("A", "run", "g"),
        *passes("A"),
        *_draws(("A", "pa1"), ("B", "pb1")),
        *_pm_battle("A"),
        *_draws(("A", "pa2"), ("B", "pb2")),
        *_pm_battle("A"),
    ]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["g"]}, actions=actions))
    assert out["legal"] is True, out["error"]
    assert [b["power"] for b in out["battles"]] == [
        {"A": 110, "B": 100},
        {"A": 110, "B": 100},
        {"A": 100, "B": 100},
    ]
    assert [b["modifiers"]["A"] for b in out["battles"]] == [
        [{"source": "g", "amount": 10}],
        [{"source": "g", "amount": 10}],
        [],
    ]
    assert [b["winner"] for b in out["battles"]] == ["A", "A", None]
    assert out["hot_dogs"] == {"A": 8, "B": 10}


def test_cr_5_1_4_lose_one_to_win_two() -> None:
    # "Your current Hero loses -50, but your next 2 Heroes each gain +15."
    a: Lineup = [160, 100, 100, 100, 100, 100, 100]
    plays = {"l": {"name": "Lose 1 To Win 2 (Hopefully)"}, **_spare_plays(4)}
    actions = [*passes("A"), act("A", "run", "l"), *passes("A")]
    for i in range(1, 4):
        actions += _draws(("A", f"pa{i}"), ("B", f"pb{i}")) + _pm_battle("A")
    out = run_json(make_record(PM, a=a, plays=plays, hands={"A": ["l"]}, actions=actions))
    assert out["legal"] is True, out["error"]
    assert [b["power"]["A"] for b in out["battles"]] == [110, 115, 115, 100]
    assert [b["winner"] for b in out["battles"]] == ["A", "A", "A", None]


def test_cr_5_1_6_copycat_does_not_stack_ice_boost() -> None:
    # Ice Boost: all Ice heroes +10 for the rest of the game. Copycat copies it (cost 2 too):
    # one instance only, so A's Ice hero is 110, not 120; B's Ice hero in battle 2 too.
    a: Lineup = [(100, "Ice"), (100, "Ice")] + [100] * 5
    b: Lineup = [100, (100, "Ice"), 100, 100, 100, 100, 100]
    plays = {"ib": {"name": "Ice Boost"}, "cc": {"name": "Copycat"}, **_spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "ib"),
        act("A", "run", "cc"),
        *passes("A"),
        *_draws(("A", "pa1"), ("B", "pb1")),
        *_pm_battle("A"),
    ]
    out = run_json(
        make_record(PM, a=a, b=b, plays=plays, hands={"A": ["ib", "cc"]}, actions=actions)
    )
    assert out["legal"] is True, out["error"]
    assert [x["power"] for x in out["battles"]] == [{"A": 110, "B": 100}, {"A": 110, "B": 110}]
    assert sum(m["amount"] for m in out["battles"][0]["modifiers"]["A"]) == 10
    assert out["hot_dogs"] == {"A": 6, "B": 10}


def test_cr_5_1_7_pulling_the_plug_ends_ongoing_resolved_battles_stay() -> None:
    # b1: A runs Ice Boost (all Ice heroes +10 for the rest of the game): A1 (Ice) 110 wins.
    # b2: A2 (Ice) would be 110; B runs Pulling The Plug (1): "Any Plays that are affecting
    # the rest of the Game are now cancelled going forward" -> 100 vs 100, a draw.
    # Battle 1 stays A's (CR 5.1.7: resolved battles remain final).
    a: Lineup = [(100, "Ice"), (100, "Ice")] + [100] * 5
    plays = {"ib": {"name": "Ice Boost"}, "pp": {"name": "Pulling The Plug"}, **_spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "ib"),
        *passes("A"),
        *_draws(("A", "pa1"), ("B", "pb1")),
        *passes("A"),
        act("A", "pass"),
        act("B", "run", "pp"),
        act("B", "pass"),
    ]
    hands = {"A": ["ib"], "B": ["pp"]}
    out = run_json(make_record(PM, a=a, plays=plays, hands=hands, actions=actions))
    assert out["legal"] is True, out["error"]
    assert [x["power"] for x in out["battles"]] == [{"A": 110, "B": 100}, {"A": 100, "B": 100}]
    assert [x["winner"] for x in out["battles"]] == ["A", None]
    assert out["battles"][0]["modifiers"]["A"] == [{"source": "ib", "amount": 10}]
    assert out["battles"][1]["modifiers"]["A"] == []
    assert out["trophies"] == {"A": 1, "B": 0}
    assert out["hot_dogs"] == {"A": 8, "B": 9}


def test_cr_5_1_3_make_it_take_it_each_win_gives_the_next_hero_five() -> None:
    # Make It, Take It (1): "For the rest of the game, whenever you win a Battle, your Hero in
    # the next Battle gets +5." b1 A1 110 wins -> b2 A2 100+5 beats 100 -> b3 A3 95+5 = 100
    # ties B3 100 (a draw: no +5 for b4) -> b4 A4 100 vs 100, no modifier.
    a: Lineup = [110, 100, 95, 100, 100, 100, 100]
    plays = {"mt": {"name": "Make It, Take It"}, **_spare_plays(4)}
    actions = [*passes("A"), act("A", "run", "mt"), *passes("A")]
    for i in range(1, 4):
        actions += _draws(("A", f"pa{i}"), ("B", f"pb{i}")) + _pm_battle("A")
    out = run_json(make_record(PM, a=a, plays=plays, hands={"A": ["mt"]}, actions=actions))
    assert out["legal"] is True, out["error"]
    assert [b["power"]["A"] for b in out["battles"]] == [110, 105, 100, 100]
    assert [b["winner"] for b in out["battles"]] == ["A", "A", None, None]
    assert [b["modifiers"]["A"] for b in out["battles"]] == [
        [],
        [{"source": "mt", "amount": 5}],
        [{"source": "mt", "amount": 5}],
        [],
    ]


def test_cr_5_1_1_victory_dinner_recovers_on_a_win_only() -> None:
    # Victory Dinner (1): "If you win this Battle, recover up to 3 Hot Dogs". A pays 1 + 2
    # (Buff Up 15) = 3 and wins: recovers 3 -> 10. Not in battle 2 (this battle only).
    plays = {"vd": {"name": "Victory Dinner"}, "bu": {"name": "Buff Up 15"}, **_spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "vd"),
        act("A", "run", "bu"),
        *passes("A"),
    ]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["vd", "bu"]}, actions=actions))
    assert out["legal"] is True, out["error"]
    assert out["battles"][0]["winner"] == "A"
    assert out["hot_dogs"] == {"A": 10, "B": 10}


def test_cr_5_2_3_discard_requirement_not_met_nullifies_cost_paid() -> None:
    # Burnout (1): "Discard 1 Hero with a Fire weapon from your hand. Your opponent's Hero
    # gets -15 this Battle." A's bench is all Ice: the play may be run, cost paid, no -15.
    # Burn That Play (0): "Discard another Play from your hand and your Hero gets +10": no
    # other play in hand -> nothing.
    plays = {"bo": {"name": "Burnout"}, "bt": {"name": "Burn That Play"}}
    actions = [*passes("A"), act("A", "run", "bo"), act("A", "run", "bt"), *passes("A")]
    rec = make_record(PM, plays=plays, hands={"A": ["bo", "bt"]}, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert out["battles"][0]["power"] == {"A": 100, "B": 100}
    assert out["battles"][0]["modifiers"] == {"A": [], "B": []}
    assert out["hot_dogs"] == {"A": 9, "B": 10}
    st = _state(rec)["players"]["A"]
    assert st["bench"] == ["AB1", "AB2", "AB3", "AB4"]


def test_cr_5_2_3_discard_requirement_met() -> None:
    # Frostbiter (1): discard 1 Ice hero from hand -> opponent -15.
    plays = {"fb": {"name": "Frostbiter"}}
    actions = [
        *passes("A"),
        act("A", "run", "fb", choices={"discard": ["AB2"]}),
        *passes("A"),
    ]
    rec = make_record(PM, plays=plays, hands={"A": ["fb"]}, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert out["battles"][0]["power"] == {"A": 100, "B": 85}
    assert out["battles"][0]["winner"] == "A"
    st = _state(rec)["players"]["A"]
    assert st["bench"] == ["AB1", "AB3", "AB4"]
    assert "AB2" in st["discard"]


def test_cr_5_2_3_partial_requirement_discards_nothing() -> None:
    # A play whose text starts "Discard 5 Heroes from your hand to ..." with 4 in hand: the
    # requirement cannot be completed, so nothing is discarded, the effect is nullified and
    # the cost stays paid (CR 5.2.3 A, CR 5.2.2).
    plays = {
        "big": {
            "name": "Needs Five",
            "cost": 1,
            "effect": [
                {"discard": 5, "from": "hand_heroes", "required": True},
                {"power": 50, "target": "own"},
            ],
        }
    }
    actions = [*passes("A"), act("A", "run", "big"), *passes("A")]
    rec = make_record(PM, plays=plays, hands={"A": ["big"]}, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert out["battles"][0]["power"] == {"A": 100, "B": 100}
    assert out["hot_dogs"]["A"] == 9
    st = _state(rec)["players"]["A"]
    assert st["bench"] == ["AB1", "AB2", "AB3", "AB4"]  # the requirement was not met


def test_cr_5_2_1_if_able_discard_as_effect_rest_resolves() -> None:
    # I Get 1. You Lose 1. (2): draw a play, then a random play from the opponent's hand is
    # discarded. B's hand is empty: that part is ignored, the draw still happens.
    plays = {"ig": {"name": "I Get 1. You Lose 1."}, **_spare_plays(2)}
    actions = [*passes("A"), act("A", "run", "ig", drawn=["pa1"]), *passes("A")]
    rec = make_record(PM, plays=plays, hands={"A": ["ig"]}, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert out["hot_dogs"]["A"] == 8
    st = _state(rec)["players"]
    assert st["A"]["hand"] == ["pa1"]
    assert st["A"]["playbook_size"] == 25  # 26 - the play drawn (no end-of-battle draw yet)


def test_cr_3_2_replaced_hero_loses_its_power_changes() -> None:
    # Buff Up 15 on A1, then Curveball (3): replace with AB1 (200) from hand, draw 1 hero.
    plays = {"bu": {"name": "Buff Up 15"}, "cb": {"name": "Curveball"}}
    actions = [
        *passes("A"),
        act("A", "run", "bu"),
        act("A", "run", "cb", choices={"hero": "AB1"}, drawn=["AD5"]),
        *passes("A"),
    ]
    rec = make_record(PM, plays=plays, hands={"A": ["bu", "cb"]}, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    b1 = out["battles"][0]
    assert b1["heroes"] == {"A": "AB1", "B": "B1"}
    assert b1["power"] == {"A": 200, "B": 100}
    assert b1["modifiers"]["A"] == []
    assert out["hot_dogs"]["A"] == 5
    st = _state(rec)["players"]["A"]
    assert "A1" in st["discard"]
    assert st["bench"] == ["AB2", "AB3", "AB4", "AD5"]


def test_cr_5_1_1_play_lockdown_until_the_opponent_wins() -> None:
    # Play Lockdown (4): "Your opponent can't draw Plays until they win a Battle."
    # b1 A wins (110): only A draws. b2 B wins (A 90): the lockdown ends, both draw.
    a: Lineup = [110, 90, 100, 100, 100, 100, 100]
    plays = {"pl": {"name": "Play Lockdown"}, **_spare_plays(3)}
    base = [*passes("A"), act("A", "run", "pl"), *passes("A")]
    rec = make_record(PM, a=a, plays=plays, hands={"A": ["pl"]}, actions=base)
    out = run_json(rec)
    assert out["next"] == {"player": "A", "expects": ["draw"]}
    rec["actions"] = base + _draws(("A", "pa1"), ("B", "pb1"))
    err = run_json(rec)["error"]
    assert (err["action"], err["code"]) == (len(base) + 1, "wrong_phase")
    rec["actions"] = base + _draws(("A", "pa1")) + _pm_battle("A")
    out = run_json(rec)
    assert [b["winner"] for b in out["battles"]] == ["A", "B"]
    assert out["next"] == {"player": "B", "expects": ["draw"]}
    rec["actions"] += _draws(("B", "pb1"), ("A", "pa2"))
    out = run_json(rec)
    assert out["legal"] is True
    assert out["next"] == {"player": "B", "expects": ["substitute", "pass"]}


def test_cr_5_1_7_returned_to_hand_nullifies_then_a_new_instance_does_not_stack() -> None:
    # b1: Member Bounce (3): "All your Heroes get +10 for the rest of the game" -> A 110 wins.
    # b2: Reload (1) picks Member Bounce back up: it left the discard, its ongoing effect ends
    # (A2 100); running it again (3) makes a new instance, not a second one: A2 110.
    plays = {"mb": {"name": "Member Bounce"}, "rl": {"name": "Reload"}, **_spare_plays(2)}
    b2 = [*passes("A"), act("A", "run", "rl", choices={"search": "mb"})]
    actions = [
        *passes("A"),
        act("A", "run", "mb"),
        *passes("A"),
        *_draws(("A", "pa1"), ("B", "pb1")),
        *b2,
        *passes("A"),
    ]
    rec = make_record(PM, plays=plays, hands={"A": ["mb", "rl"]}, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert [x["power"]["A"] for x in out["battles"]] == [110, 100]
    assert out["hot_dogs"]["A"] == 6
    rec["actions"] = [*actions[:-2], act("A", "run", "mb"), *passes("A")]
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert [x["power"]["A"] for x in out["battles"]] == [110, 110]
    assert out["battles"][1]["modifiers"]["A"] == [{"source": "mb", "amount": 10}]
    assert out["hot_dogs"]["A"] == 3


def test_cr_5_1_7_pulling_the_plug_leaves_effects_that_do_not_last_the_game() -> None:
    # Pulling The Plug cancels "Plays that are affecting the rest of the Game". 2 Get 10
    # ("this Battle and the next") is not one of them: A keeps +10 in battles 1 and 2.
    plays = {"g": {"name": "2 Get 10"}, "pp": {"name": "Pulling The Plug"}, **_spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "g"),
        act("A", "pass"),
        act("B", "run", "pp"),
        act("B", "pass"),
        *_draws(("A", "pa1"), ("B", "pb1")),
        *_pm_battle("A"),
    ]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["g"], "B": ["pp"]}, actions=actions))
    assert out["legal"] is True, out["error"]
    assert [x["power"]["A"] for x in out["battles"]] == [110, 110]
    assert out["hot_dogs"] == {"A": 8, "B": 9}


def test_late_game_push_recovers_everything_at_the_start_of_battle_7() -> None:
    # Late Game Push (2, battle 4 or before): at the start of battle 7 recover all hot dogs.
    plays = {"lg": {"name": "Late Game Push"}, **_spare_plays(6)}
    actions = [*passes("A"), act("A", "run", "lg"), *passes("A")]
    for i in range(1, 6):
        actions += _draws(("A", f"pa{i}"), ("B", f"pb{i}")) + _pm_battle("A")
    rec = make_record(PM, plays=plays, hands={"A": ["lg"]}, actions=actions)
    out = run_json(rec)
    assert len(out["battles"]) == 6
    assert out["hot_dogs"]["A"] == 8
    rec["actions"] = actions + _draws(("A", "pa6"), ("B", "pb6"))
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert out["hot_dogs"]["A"] == 10
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}


def test_cr_5_1_1_no_more_subs_prevents_substitution_pass_still_required() -> None:
    # No More Subs (4): "Your opponent can't Substitute for the rest of the game."
    plays = {"nm": {"name": "No More Subs"}, **_spare_plays(2)}
    base = [
        *passes("A"),
        act("A", "run", "nm"),
        *passes("A"),
        *_draws(("A", "pa1"), ("B", "pb1")),
        act("A", "pass"),
    ]
    rec = make_record(
        PM, a=[110, 100, 100, 100, 100, 100, 100], plays=plays, hands={"A": ["nm"]}, actions=base
    )
    out = run_json(rec)
    assert out["next"] == {"player": "B", "expects": ["pass"]}
    rec["actions"] = [*base, act("B", "substitute", "BB1", draw=None)]
    err = run_json(rec)["error"]
    assert (err["action"], err["code"]) == (len(base), "substitution_prevented")


def test_cr_4_3_2_unlimited_subs_substitution_without_hot_dogs() -> None:
    # Unlimited Subs (4): "For the rest of the Game all of your Substitutions are free."
    # A spends all 4 hot dogs on it, then substitutes in battle 2 for nothing.
    plays = {"us": {"name": "Unlimited Subs"}, **_spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "us"),
        *passes("A"),
        *_draws(("A", "pa1"), ("B", "pb1")),
        act("A", "substitute", "AB1", draw="AD1"),
        act("B", "pass"),
        *passes("A"),
    ]
    rec = make_record(PM, plays=plays, hands={"A": ["us"]}, hot_dogs=4, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert out["battles"][1]["heroes"] == {"A": "AB1", "B": "B2"}
    assert out["battles"][1]["power"] == {"A": 200, "B": 100}
    assert out["hot_dogs"] == {"A": 0, "B": 4}


def test_cr_5_2_2_get_what_you_pay_for_extra_payment_is_a_cost() -> None:
    # Get What You Pay For (0): pay as many hot dogs as you want, +10 each.
    plays = {"gw": {"name": "Get What You Pay For"}}
    actions = [*passes("A"), act("A", "run", "gw", choices={"pay": 3}), *passes("A")]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["gw"]}, actions=actions))
    assert out["battles"][0]["power"] == {"A": 130, "B": 100}
    assert out["hot_dogs"] == {"A": 7, "B": 10}
    actions = [*passes("A"), act("A", "run", "gw", choices={"pay": 11}), *passes("A")]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["gw"]}, actions=actions))
    assert (out["error"]["action"], out["error"]["code"]) == (2, "insufficient_hot_dogs")


def test_cr_5_1_6_the_same_play_run_by_both_players_does_not_stack_on_one_hero() -> None:
    # Both players run Ice Boost ("all Heroes with Ice weapons get +10" for the rest of the
    # game). CR 5.1.6: ongoing effects "do not stack with themselves in any way": each Ice hero
    # gets +10 once, from the first Ice Boost; a non-Ice hero gets nothing.
    a: Lineup = [(100, "Ice")] + [100] * 6
    b: Lineup = [(105, "Ice")] + [100] * 6
    plays = {"ia": {"name": "Ice Boost"}, "ib": {"name": "Ice Boost"}, **_spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "ia"),
        act("A", "pass"),
        act("B", "run", "ib"),
        act("B", "pass"),
    ]
    out = run_json(
        make_record(PM, a=a, b=b, plays=plays, hands={"A": ["ia"], "B": ["ib"]}, actions=actions)
    )
    assert out["legal"] is True, out["error"]
    first = out["battles"][0]
    assert first["power"] == {"A": 110, "B": 115}
    assert first["modifiers"] == {
        "A": [{"source": "ia", "amount": 10}],
        "B": [{"source": "ia", "amount": 10}],
    }
    assert out["hot_dogs"] == {"A": 8, "B": 8}  # costs still paid (CR 5.2.2)
