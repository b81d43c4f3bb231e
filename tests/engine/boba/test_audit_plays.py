"""Rules audit, real Plays: hand-worked scenarios, one per rule, expectations worked out from
the documents (../shared/spec/boba-game-record.md, ../shared/rules: CR, Summary, README product
decisions) before the engine was run. Each test runs a real Play of the library (CR 5).

Helper lineups (tests/engine/boba/helpers.py): battle heroes A1..A7 / B1..B7 (Fire unless a
(power, weapon) pair is given), bench AB1..AB4 / BB1..BB4 (200, Ice), spare deck heroes
AD1..AD9 / BD1..BD9 (100 + 10 * (n - 1), Steel).
"""

from __future__ import annotations

from tests.engine.boba.audit_helpers import draw_actions, final_state, playmaker_battle, spare_plays
from tests.engine.boba.helpers import Lineup, act, make_record, passes, run_json

PM = "playmaker"


# ---------------------------------------------------------------------------- real plays


def test_cr_5_1_3_two_get_ten_lasts_into_the_next_battle_only() -> None:
    # 2 Get 10: "Your Hero in this Battle and the next Battle gets +10."
    plays = {"g": {"name": "2 Get 10"}, **spare_plays(3)}
    actions = [
        *passes("A"),
        act("A", "run", "g"),
        *passes("A"),
        *draw_actions(("A", "pa1"), ("B", "pb1")),
        *playmaker_battle("A"),
        *draw_actions(("A", "pa2"), ("B", "pb2")),
        *playmaker_battle("A"),
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
    plays = {"l": {"name": "Lose 1 To Win 2 (Hopefully)"}, **spare_plays(4)}
    actions = [*passes("A"), act("A", "run", "l"), *passes("A")]
    for i in range(1, 4):
        actions += draw_actions(("A", f"pa{i}"), ("B", f"pb{i}")) + playmaker_battle("A")
    out = run_json(make_record(PM, a=a, plays=plays, hands={"A": ["l"]}, actions=actions))
    assert out["legal"] is True, out["error"]
    assert [b["power"]["A"] for b in out["battles"]] == [110, 115, 115, 100]
    assert [b["winner"] for b in out["battles"]] == ["A", "A", "A", None]


def test_cr_5_1_6_copycat_does_not_stack_ice_boost() -> None:
    # Ice Boost: all Ice heroes +10 for the rest of the game. Copycat copies it (cost 2 too):
    # one instance only, so A's Ice hero is 110, not 120; B's Ice hero in battle 2 too.
    a: Lineup = [(100, "Ice"), (100, "Ice")] + [100] * 5
    b: Lineup = [100, (100, "Ice"), 100, 100, 100, 100, 100]
    plays = {"ib": {"name": "Ice Boost"}, "cc": {"name": "Copycat"}, **spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "ib"),
        act("A", "run", "cc"),
        *passes("A"),
        *draw_actions(("A", "pa1"), ("B", "pb1")),
        *playmaker_battle("A"),
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
    plays = {"ib": {"name": "Ice Boost"}, "pp": {"name": "Pulling The Plug"}, **spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "ib"),
        *passes("A"),
        *draw_actions(("A", "pa1"), ("B", "pb1")),
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
    plays = {"mt": {"name": "Make It, Take It"}, **spare_plays(4)}
    actions = [*passes("A"), act("A", "run", "mt"), *passes("A")]
    for i in range(1, 4):
        actions += draw_actions(("A", f"pa{i}"), ("B", f"pb{i}")) + playmaker_battle("A")
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
    plays = {"vd": {"name": "Victory Dinner"}, "bu": {"name": "Buff Up 15"}, **spare_plays(2)}
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
    st = final_state(rec)["players"]["A"]
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
    st = final_state(rec)["players"]["A"]
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
    st = final_state(rec)["players"]["A"]
    assert st["bench"] == ["AB1", "AB2", "AB3", "AB4"]  # the requirement was not met


def test_cr_5_2_1_if_able_discard_as_effect_rest_resolves() -> None:
    # I Get 1. You Lose 1. (2): draw a play, then a random play from the opponent's hand is
    # discarded. B's hand is empty: that part is ignored, the draw still happens.
    plays = {"ig": {"name": "I Get 1. You Lose 1."}, **spare_plays(2)}
    actions = [*passes("A"), act("A", "run", "ig", drawn=["pa1"]), *passes("A")]
    rec = make_record(PM, plays=plays, hands={"A": ["ig"]}, actions=actions)
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert out["hot_dogs"]["A"] == 8
    st = final_state(rec)["players"]
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
    st = final_state(rec)["players"]["A"]
    assert "A1" in st["discard"]
    assert st["bench"] == ["AB2", "AB3", "AB4", "AD5"]


def test_cr_5_1_1_play_lockdown_until_the_opponent_wins() -> None:
    # Play Lockdown (4): "Your opponent can't draw Plays until they win a Battle."
    # b1 A wins (110): only A draws. b2 B wins (A 90): the lockdown ends, both draw.
    a: Lineup = [110, 90, 100, 100, 100, 100, 100]
    plays = {"pl": {"name": "Play Lockdown"}, **spare_plays(3)}
    base = [*passes("A"), act("A", "run", "pl"), *passes("A")]
    rec = make_record(PM, a=a, plays=plays, hands={"A": ["pl"]}, actions=base)
    out = run_json(rec)
    assert out["next"] == {"player": "A", "expects": ["draw"]}
    rec["actions"] = base + draw_actions(("A", "pa1"), ("B", "pb1"))
    err = run_json(rec)["error"]
    assert (err["action"], err["code"]) == (len(base) + 1, "wrong_phase")
    rec["actions"] = base + draw_actions(("A", "pa1")) + playmaker_battle("A")
    out = run_json(rec)
    assert [b["winner"] for b in out["battles"]] == ["A", "B"]
    assert out["next"] == {"player": "B", "expects": ["draw"]}
    rec["actions"] += draw_actions(("B", "pb1"), ("A", "pa2"))
    out = run_json(rec)
    assert out["legal"] is True
    assert out["next"] == {"player": "B", "expects": ["substitute", "pass"]}


def test_cr_5_1_7_returned_to_hand_nullifies_then_a_new_instance_does_not_stack() -> None:
    # b1: Member Bounce (3): "All your Heroes get +10 for the rest of the game" -> A 110 wins.
    # b2: Reload (1) picks Member Bounce back up: it left the discard, its ongoing effect ends
    # (A2 100); running it again (3) makes a new instance, not a second one: A2 110.
    plays = {"mb": {"name": "Member Bounce"}, "rl": {"name": "Reload"}, **spare_plays(2)}
    b2 = [*passes("A"), act("A", "run", "rl", choices={"search": "mb"})]
    actions = [
        *passes("A"),
        act("A", "run", "mb"),
        *passes("A"),
        *draw_actions(("A", "pa1"), ("B", "pb1")),
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
    plays = {"g": {"name": "2 Get 10"}, "pp": {"name": "Pulling The Plug"}, **spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "g"),
        act("A", "pass"),
        act("B", "run", "pp"),
        act("B", "pass"),
        *draw_actions(("A", "pa1"), ("B", "pb1")),
        *playmaker_battle("A"),
    ]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["g"], "B": ["pp"]}, actions=actions))
    assert out["legal"] is True, out["error"]
    assert [x["power"]["A"] for x in out["battles"]] == [110, 110]
    assert out["hot_dogs"] == {"A": 8, "B": 9}


def test_late_game_push_recovers_everything_at_the_start_of_battle_7() -> None:
    # Late Game Push (2, battle 4 or before): at the start of battle 7 recover all hot dogs.
    plays = {"lg": {"name": "Late Game Push"}, **spare_plays(6)}
    actions = [*passes("A"), act("A", "run", "lg"), *passes("A")]
    for i in range(1, 6):
        actions += draw_actions(("A", f"pa{i}"), ("B", f"pb{i}")) + playmaker_battle("A")
    rec = make_record(PM, plays=plays, hands={"A": ["lg"]}, actions=actions)
    out = run_json(rec)
    assert len(out["battles"]) == 6
    assert out["hot_dogs"]["A"] == 8
    rec["actions"] = actions + draw_actions(("A", "pa6"), ("B", "pb6"))
    out = run_json(rec)
    assert out["legal"] is True, out["error"]
    assert out["hot_dogs"]["A"] == 10
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}


def test_cr_5_1_1_no_more_subs_prevents_substitution_pass_still_required() -> None:
    # No More Subs (4): "Your opponent can't Substitute for the rest of the game."
    plays = {"nm": {"name": "No More Subs"}, **spare_plays(2)}
    base = [
        *passes("A"),
        act("A", "run", "nm"),
        *passes("A"),
        *draw_actions(("A", "pa1"), ("B", "pb1")),
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
    plays = {"us": {"name": "Unlimited Subs"}, **spare_plays(2)}
    actions = [
        *passes("A"),
        act("A", "run", "us"),
        *passes("A"),
        *draw_actions(("A", "pa1"), ("B", "pb1")),
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
    plays = {"ia": {"name": "Ice Boost"}, "ib": {"name": "Ice Boost"}, **spare_plays(2)}
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
