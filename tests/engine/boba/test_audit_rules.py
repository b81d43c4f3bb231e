"""Rules audit, the battle's flow: hand-worked scenarios, one per rule, expectations worked out
from the documents (../shared/spec/boba-game-record.md, ../shared/rules: CR, Summary, README
product decisions) before the engine was run. Honors, substitution, the play phase, super
tie-breakers, trophies and the game's end, draws, mid-game records; malformed records and the
CLI are in test_audit_record.py, the real Plays in test_audit_plays.py.

Helper lineups (tests/engine/boba/helpers.py): battle heroes A1..A7 / B1..B7 (Fire unless a
(power, weapon) pair is given), bench AB1..AB4 / BB1..BB4 (200, Ice), spare deck heroes
AD1..AD9 / BD1..BD9 (100 + 10 * (n - 1), Steel).
"""

from __future__ import annotations

from typing import Any

from tests.engine.boba.audit_helpers import draw_actions, final_state, playmaker_battle, spare_plays
from tests.engine.boba.helpers import Lineup, act, make_record, passes, run_json

SUB = "substitution"
PM = "playmaker"
NO_STOP = {"stop_at_four": False, "tiebreakers": False}
TIEBREAK = {"stop_at_four": True, "tiebreakers": True}


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
    st = final_state(rec)["players"]
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
        **spare_plays(3),
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
    rec["actions"] = actions + draw_actions(("B", "pb1"), ("A", "pa1"))
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
        **spare_plays(3),
    }
    actions = [
        *passes("A"),
        act("A", "run", "fs"),
        act("A", "run", "bu1"),
        *passes("A"),
        *draw_actions(("A", "bu2"), ("B", "pb1")),
        *passes("A"),
        act("A", "run", "bu2"),
        *passes("A"),
        *draw_actions(("A", "bu3"), ("B", "pb2")),
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
    out = run_json(make_record(PM, a=a, actions=playmaker_battle("A")))
    b1 = out["battles"][0]
    assert (b1["winner"], b1["decided_by"], b1["honors_next"]) == ("A", "super", "A")
    assert out["trophies"] == {"A": 1, "B": 0}


def test_cr_4_3_2_super_tie_breaker_both_super_or_neither_is_a_draw() -> None:
    a: Lineup = [(100, "Super"), 100, 100, 100, 100, 100, 100]
    b: Lineup = [(100, "Super"), 100, 100, 100, 100, 100, 100]
    actions = (
        playmaker_battle("B") + draw_actions(("A", "pa1"), ("B", "pb1")) + playmaker_battle("B")
    )
    rec = make_record(PM, a=a, b=b, honors="B", plays=spare_plays(2), actions=actions)
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
        actions += playmaker_battle("A") + draw_actions(("A", f"pa{i}"), ("B", f"pb{i}"))
    actions += playmaker_battle("A")
    rec = make_record(PM, options=TIEBREAK, plays=spare_plays(7), actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert len(out["battles"]) == 7
    assert out["next"] == {"player": "A", "expects": ["reveal"]}
    rec["actions"] = [*actions, act("A", "draw", "pa7")]
    err = run_json(rec)["error"]
    assert (err["action"], err["code"]) == (len(actions), "wrong_phase")


# ---------------------------------------------------------------------------- draws


def test_cr_4_3_2_one_draw_per_player_only_while_playbook_not_empty() -> None:
    rec = make_record(PM, plays=spare_plays(3), playbook_size=1, actions=playmaker_battle("A"))
    rec["setup"]["B"]["playbook_size"] = 0
    out = run_json(rec)
    assert out["next"] == {"player": "A", "expects": ["draw"]}
    rec["actions"] = playmaker_battle("A") + draw_actions(("A", "pa1"))
    out = run_json(rec)
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}
    rec["actions"] = playmaker_battle("A") + draw_actions(("A", "pa1")) + playmaker_battle("A")
    out = run_json(rec)  # A's playbook is empty now: no draws after battle 2
    assert len(out["battles"]) == 2
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}
    rec["actions"] = playmaker_battle("A") + draw_actions(("B", "pb1"))
    err = run_json(rec)["error"]
    assert (err["action"], err["code"], err["rule"]) == (4, "no_draw_due", "CR 4.3.2")


def test_cr_4_3_2_draw_phase_next_and_wrong_phase() -> None:
    rec = make_record(PM, plays=spare_plays(2), actions=[*playmaker_battle("A"), act("A", "pass")])
    err = run_json(rec)["error"]
    assert (err["action"], err["code"]) == (4, "wrong_phase")
    rec["actions"] = playmaker_battle("A") + draw_actions(("A", "pa1"))
    out = run_json(rec)
    assert out["next"] == {"player": "B", "expects": ["draw"]}
    assert out["result"] is None


def test_cr_4_4_1_spec_no_draws_after_the_deciding_battle_stop_at_four_false() -> None:
    # A wins battles 1-4 (110), B wins 5-7 (A 90). Draws after 1, 2, 3 only.
    a: Lineup = [110, 110, 110, 110, 90, 90, 90]
    actions: list[dict[str, Any]] = []
    for i in range(1, 4):
        actions += playmaker_battle("A") + draw_actions(("A", f"pa{i}"), ("B", f"pb{i}"))
    actions += playmaker_battle("A")  # battle 4 decides: no draws
    actions += playmaker_battle("A")  # battle 5: B wins
    actions += playmaker_battle("B") + playmaker_battle("B")
    rec = make_record(PM, a=a, options=NO_STOP, plays=spare_plays(4), actions=actions)
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
    plays = {"qa1": {"name": "Buff Up 15"}, **spare_plays(2)}
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
