"""Real plays whose encoding was made faithful to the card text: one behaviour test per play
and rule, each replaying a small record through the public API (docs/game-record.md,
"Rulings on card texts")."""

from __future__ import annotations

from typing import Any

import pytest

from engine.boba.effects import EffectError, check_condition, validate_effect
from tests.engine.boba.helpers import (
    FILLER,
    PM,
    act,
    battle_one,
    drawn_battles,
    make_record,
    named,
    passes,
    power,
    rp,
    run_json,
    two_battles,
)

# ------------------------------------------------------------------ power floors


def test_burning_fever_keeps_a_fire_hero_at_its_current_power() -> None:
    plays = {
        "a1": named("Buff Up 15"),
        "a2": named("Burning Fever"),
        "b1": named("Gavel of Justice"),
    }
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")], [act("B", "run", "b1")])
    assert power(out)["A"] == 115  # 115 when run: -30 can't take it lower


def test_burning_fever_floor_lets_gains_above_it_count_down_to_the_floor() -> None:
    plays = {"a1": named("Burning Fever"), "a2": named("Buff Up 15"), "b1": named("Buff Up 15")}
    plays["b2"] = named("Gavel of Justice")
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")], [act("B", "run", "b2")])
    assert power(out)["A"] == 100  # 115 after the +15; -30 stops at the floor of 100


def test_frozen_resolve_does_nothing_for_a_hero_without_ice() -> None:
    plays = {"a1": named("Frozen Resolve"), "b1": named("Gavel of Justice")}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")])
    assert power(out)["A"] == 70
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")], a=[(100, "Ice")] * 7)
    assert power(out)["A"] == 100


def test_chrome_will_floor_is_listed_as_a_modifier_of_the_play() -> None:
    plays = {"a1": named("Chrome Will"), "b1": named("Gavel of Justice")}
    out = battle_one(
        plays, [act("A", "run", "a1")], [act("B", "run", "b1")], a=[(100, "Steel")] * 7
    )
    assert out["battles"][0]["modifiers"]["A"] == [
        {"source": "b1", "amount": -30},
        {"source": "a1", "amount": 30},
    ]


# ------------------------------------------------------------------ power changes


def test_ha_gotcha_gives_the_opponent_the_net_change_once() -> None:
    plays = {"a1": named("Buff Up 15"), "a2": named("Ha! Gotcha")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert power(out) == {"A": 115, "B": 115}


def test_ha_gotcha_passes_on_a_net_loss() -> None:
    plays = {"a1": named("Ha! Gotcha"), "b1": named("Gavel of Justice")}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")], honors="B")
    assert power(out) == {"A": 70, "B": 70}


def test_cr_5_1_2_noble_sacrifice_zero_then_plus_10_reaches_this_hero_too() -> None:
    out = two_battles({"a1": named("Noble Sacrifice")}, [act("A", "run", "a1")], honors_2="B")
    assert power(out, 1)["A"] == 10  # CR 5.1.2: in order, and "all your heroes"
    assert power(out, 2)["A"] == 110


def test_hexvantage_gives_20_in_all_to_a_hex_hero() -> None:
    out = battle_one({"a1": named("Hexvantage")}, [act("A", "run", "a1")], a=[(100, "Hex")] * 7)
    assert power(out)["A"] == 120
    assert power(battle_one({"a1": named("Hexvantage")}, [act("A", "run", "a1")]))["A"] == 105


def test_sweet_relish_turns_earlier_and_later_cuts_into_gains() -> None:
    plays = {"a1": named("Sweet Relish"), "b1": named("Gavel of Justice")}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")])
    assert power(out)["A"] == 130
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")], honors="B")
    assert power(out)["A"] == 130  # "now raise": the cut made before it turns too


def test_sweet_relish_leaves_own_cuts_alone() -> None:
    plays = {"a1": named("Sweet Relish"), "a2": named("It's Gonna Cost Ya")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")], hot_dogs=6)
    assert power(out)["A"] == 85


# ------------------------------------------------------------------ cards


def test_wildcard_wager_discards_the_drawn_play_costing_2_or_more() -> None:
    plays = {"a1": named("Wildcard Wager"), "a2": named("Buff Up 15"), "x1": named("Buff Up 15")}
    r = rp(
        make_record(
            PM,
            plays=plays,
            hands={"A": ["a1", "a2"]},
            actions=[*passes(), act("A", "run", "a1", drawn=["x1"])],
        )
    )
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].hand == ["a2"]  # the drawn play goes, the one in hand stays
    assert r.state.p[0].discard == ["x1", "a1"]


def test_wildcard_wager_may_decline_the_free_run() -> None:
    plays = {"a1": named("Wildcard Wager"), "x1": named("Hexvantage")}
    run = act("A", "run", "a1", drawn=["x1"], choices={"run": False})
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=[*passes(), run]))
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].hand == ["x1"]
    assert r.state.power(0) == 100
    run = act("A", "run", "a1", drawn=["x1"])
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=[*passes(), run]))
    assert r.state is not None
    assert r.state.power(0) == 105


def test_called_shot_discards_the_named_play_from_the_opponents_hand() -> None:
    plays = {"a1": named("Called Shot"), "b1": named("Buff Up 15"), "b2": named("Edge Rush")}
    run = act("A", "run", "a1", choices={"name": "buff up 15"})
    r = rp(
        make_record(
            PM, plays=plays, hands={"A": ["a1"], "B": ["b1", "b2"]}, actions=[*passes(), run]
        )
    )
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[1].hand == ["b2"]
    assert r.state.p[1].discard == ["b1"]
    run = act("A", "run", "a1", choices={"name": "Gavel of Justice"})
    r = rp(
        make_record(
            PM, plays=plays, hands={"A": ["a1"], "B": ["b1", "b2"]}, actions=[*passes(), run]
        )
    )
    assert r.error is None and r.state is not None
    assert r.state.p[1].hand == ["b1", "b2"]  # a miss: the cost stays paid
    assert r.state.p[0].hot_dogs == 7


def test_refill_and_reload_shuffles_an_earlier_play_back_to_draw_one() -> None:
    plays = {"a1": named("Refill And Reload"), "a2": named("Buff Up 15"), "x3": FILLER}
    run = act("A", "run", "a1", choices={"shuffle": ["a2"]}, drawn=["x3"])
    out = two_battles(plays, [act("A", "run", "a2")], [run])
    assert out["error"] is None, out["error"]
    record = make_record(PM, plays={**plays, "x1": FILLER, "x2": FILLER}, hands={"A": ["a1", "a2"]})
    record["actions"] = [
        *passes(),
        act("A", "run", "a2"),
        *passes(),
        act("A", "draw", "x1"),
        act("B", "draw", "x2"),
        *passes(),
        run,
    ]
    r = rp(record)
    assert r.error is None, r.error
    assert r.state is not None
    ps = r.state.p[0]
    assert "a2" not in ps.discard and ps.hand == ["x1", "x3"]
    assert ps.playbook_size == 26 - 1 + 1 - 1


def test_cr_5_2_3_refill_and_reload_needs_a_play_from_an_earlier_battle() -> None:
    plays = {"a1": named("Refill And Reload"), "a2": named("Buff Up 15")}
    runs = [act("A", "run", "a2"), act("A", "run", "a1", choices={"shuffle": ["a2"]})]
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1", "a2"]}, actions=[*passes(), *runs]))
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].hand == []  # CR 5.2.3 A: nothing to shuffle, no draw
    assert r.state.p[0].hot_dogs == 7


def test_discard_rebate_shuffles_the_chosen_hero_back() -> None:
    plays = {"a1": named("Discard Rebate")}
    actions = [act("A", "substitute", "AB1"), act("B", "pass")]
    actions.append(act("A", "run", "a1", choices={"shuffle": ["A1"]}))
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=actions))
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].discard == ["a1"]  # A1 went back to the hero deck


def test_a_game_of_war_the_stronger_revealed_hero_draws_a_play() -> None:
    plays = {"a1": named("A Game Of War"), "x1": FILLER}
    run = act("A", "run", "a1", drawn=["AD3", "BD1", "x1"])  # 120 against 100
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=[*passes(), run]))
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].hand == ["x1"]
    assert {"AD3", "BD1"} <= {*r.state.p[0].discard, *r.state.p[1].discard}
    run = act("A", "run", "a1", drawn=["AD1", "BD3", "x1"])  # 100 against 120
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=[*passes(), run]))
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[1].hand == ["x1"]
    assert r.state.p[0].hand == []


def test_lineup_randomizer_replaces_the_opponents_future_heroes_in_order() -> None:
    run = act("A", "run", "a1", drawn=[f"BD{i}" for i in range(1, 7)])
    r = rp(
        make_record(
            PM,
            plays={"a1": named("Lineup Randomizer")},
            hands={"A": ["a1"]},
            actions=[*passes(), run],
        )
    )
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[1].lineup == ["B1", *[f"BD{i}" for i in range(1, 7)]]
    assert r.state.p[1].discard == [f"B{i}" for i in range(2, 8)]


def test_luck_of_the_draw_lets_the_opponent_run_their_top_play_free() -> None:
    plays = {"a1": named("Luck Of The Draw"), "y1": named("Buff Up 15")}
    run = act("A", "run", "a1", random=[2, 5], drawn=["y1"])
    out = battle_one(plays, [run])
    assert power(out) == {"A": 100, "B": 115}
    assert out["hot_dogs"] == {"A": 10, "B": 10}


# ------------------------------------------------------------------ hot dogs


def test_hot_dog_stock_exchange_is_not_a_recovery_bun_shortage_leaves_it() -> None:
    plays = {"a1": named("Bun Shortage"), "a2": named("Hot Dog Stock Exchange")}
    first = [*passes(), act("A", "run", "a1"), *passes()]
    first += [act("A", "draw", "y0"), act("B", "draw", "y1")]
    rest, fillers = drawn_battles(5, start=2)
    actions = [*first, *rest, *passes(), act("A", "run", "a2"), *passes()]
    fillers.update({"y0": FILLER, "y1": FILLER})
    record = make_record(PM, plays={**plays, **fillers}, hands={"A": ["a1", "a2"]}, actions=actions)
    r = rp(record)
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.battle == 7
    assert [r.state.p[0].hot_dogs, r.state.p[1].hot_dogs] == [10, 6]
    assert r.state.p[1].hot_dogs_discarded == 4


def test_grilled_bandit_takes_the_opponents_recovery() -> None:
    plays = {"a1": named("Grilled Bandit"), "b1": named("It's Gonna Cost Ya")}
    run_b = act("B", "run", "b1", choices={"recover": 2})
    out = battle_one(plays, [act("A", "run", "a1")], [run_b], hot_dogs=6)
    assert out["hot_dogs"] == {"A": 3, "B": 6}  # A: 6 - 5 + 2


def test_snack_sanction_caps_recovery_at_one_per_battle() -> None:
    plays = {"a1": named("Snack Sanction"), "a2": named("It's Gonna Cost Ya")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")], hot_dogs=6)
    assert out["hot_dogs"]["A"] == 6  # 6 - 1 + 1


def test_bonus_recovery_adds_one_to_each_recovery() -> None:
    plays = {"a1": named("Bonus Recovery"), "a2": named("It's Gonna Cost Ya")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")], hot_dogs=6)
    assert out["hot_dogs"]["A"] == 9


def test_bun_shortage_still_blocks_bonus_recovery() -> None:
    plays = {
        "a1": named("Bonus Recovery"),
        "a2": named("Bun Shortage"),
        "a3": named("It's Gonna Cost Ya"),
    }
    runs = [act("A", "run", k) for k in ("a1", "a2", "a3")]
    assert battle_one(plays, runs, hot_dogs=6)["hot_dogs"]["A"] == 3


def test_synergy_snacks_needs_the_two_previous_heroes_to_share_a_weapon() -> None:
    rest, fillers = drawn_battles(2)
    actions = [*rest, *passes(), act("A", "run", "a1"), *passes()]
    a = [(100, "Ice"), (100, "Ice"), (100, "Fire"), *[(100, "Fire")] * 4]
    b = [(100, "Ice"), (100, "Ice"), *[(100, "Fire")] * 5]
    plays = {"a1": named("Synergy Snacks"), **fillers}
    out = run_json(
        make_record(PM, a=a, b=b, plays=plays, hands={"A": ["a1"]}, actions=actions, hot_dogs=5)
    )
    assert out["hot_dogs"]["A"] == 7
    a[0] = (100, "Glow")
    out = run_json(
        make_record(PM, a=a, b=b, plays=plays, hands={"A": ["a1"]}, actions=actions, hot_dogs=5)
    )
    assert out["hot_dogs"]["A"] == 5


def test_ultimatum_dog_a_player_ending_their_turn_with_no_hot_dogs_loses() -> None:
    out = battle_one(
        {"a1": named("Ultimatum Dog")}, [act("A", "run", "a1")], a=[200] * 7, hot_dogs=5
    )
    assert out["battles"][0]["winner"] == "B"
    assert out["battles"][0]["decided_by"] == "rule"
    out = battle_one(
        {"a1": named("Ultimatum Dog")}, [act("A", "run", "a1")], a=[200] * 7, hot_dogs=6
    )
    assert out["battles"][0]["winner"] == "A"


# ------------------------------------------------------------------ triggers and the opponent


def test_drop_the_giant_replaces_a_giant_from_the_recorded_trigger_outcome() -> None:
    b = [100, 170, *[100] * 5]
    run = act("A", "run", "a1", choices={"trigger": {"drawn": ["BD1"]}})
    out = two_battles({"a1": named("Drop The Giant")}, [run], b=b)
    assert out["battles"][1]["heroes"]["B"] == "BD1"
    assert power(out, 2)["B"] == 100
    out = two_battles({"a1": named("Drop The Giant")}, [act("A", "run", "a1")], b=b)
    assert out["battles"][1]["heroes"]["B"] == "B2"  # no outcome recorded: skipped (if able)


def test_surging_power_discards_the_recorded_plays_on_a_loss() -> None:
    rest, fillers = drawn_battles(4)
    plays = {
        "a1": named("Surging Power"),
        "a2": named("Buff Up 15"),
        "a3": named("Edge Rush"),
        "a4": named("Hexvantage"),
        **fillers,
    }
    run = act("A", "run", "a1", choices={"trigger": {"discard": ["a2", "a4"]}})
    b = [*[100] * 4, 150, 100, 100]
    actions = [*rest, *passes(), run, *passes()]
    hands = {"A": ["a1", "a2", "a3", "a4"]}
    r = rp(make_record(PM, b=b, plays=plays, hands=hands, actions=actions))
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.history[-1].winner == 1
    assert "a3" in r.state.p[0].hand
    assert not {"a2", "a4"} & set(r.state.p[0].hand)


def test_pick_your_poison_the_opponent_pays_at_the_next_battle_start() -> None:
    plays = {
        "a1": named("Pick Your Poison"),
        "x1": FILLER,
        "x2": FILLER,
        "x3": FILLER,
        "x4": FILLER,
    }
    b = [150, 100, 100, 100, 100, 100, 100]
    run = act("A", "run", "a1", choices={"trigger": {"option": "pay"}})
    actions = [*passes(), *passes(), act("B", "draw", "x2"), act("A", "draw", "x1")]
    actions += [*passes("B"), act("B", "pass"), run, act("A", "pass")]  # battle 2: a draw
    actions += [act("B", "draw", "x4"), act("A", "draw", "x3")]
    record = make_record(PM, b=b, plays=plays, hands={"A": ["a1"]}, actions=actions)
    r = rp(record)
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.battle == 3
    assert r.state.p[1].hot_dogs == 9


def test_forced_substitution_makes_passing_illegal_next_battle() -> None:
    plays = {"a1": named("Forced Substitution")}
    actions = [*passes(), act("A", "run", "a1"), *passes()]
    actions += [act("A", "draw", "x1"), act("B", "draw", "x2"), act("A", "pass"), act("B", "pass")]
    out = run_json(
        make_record(
            PM, plays={**plays, "x1": FILLER, "x2": FILLER}, hands={"A": ["a1"]}, actions=actions
        )
    )
    assert out["error"]["code"] == "substitution_required"
    actions[-1] = act("B", "substitute", "BB1")
    out = run_json(
        make_record(
            PM, plays={**plays, "x1": FILLER, "x2": FILLER}, hands={"A": ["a1"]}, actions=actions
        )
    )
    assert out["error"] is None
    assert out["hot_dogs"]["B"] == 8


# ------------------------------------------------------------------ vocabulary


def test_a_count_condition_may_carry_a_weapon_parameter() -> None:
    check_condition(
        {"count": "heroes_used_with_weapon", "whose": "opp", "weapon": "same", "min": 1}, "c"
    )
    with pytest.raises(EffectError):
        check_condition({"count": "hot_dogs", "weapon": "Nope", "min": 1}, "c")


def test_trigger_outcomes_are_ignored_by_records_without_them() -> None:
    validate_effect([{"on": "battle_start", "battles": [1], "do": [{"draw": 1}]}])


# ------------------------------------------------------------------ "may" on the card


def test_one_and_one_may_stop_after_a_heads() -> None:
    out = battle_one({"a1": named("One-And-One")}, [act("A", "run", "a1", random=["heads"])])
    assert power(out)["A"] == 110
    run = act("A", "run", "a1", random=["heads", "heads"])
    assert power(battle_one({"a1": named("One-And-One")}, [run]))["A"] == 120


def test_sack_streak_may_stop_rolling_after_a_4_to_6() -> None:
    out = battle_one({"a1": named("Sack Streak")}, [act("A", "run", "a1", random=[5, 6])])
    assert power(out)["B"] == 70
    out = battle_one({"a1": named("Sack Streak")}, [act("A", "run", "a1", random=[5, 2, 6])])
    assert out["error"]["code"] == "unexpected_random"  # a 1-3 ends the streak


def test_risky_substitution_may_be_declined_on_heads() -> None:
    run = act("A", "run", "a1", random=["heads"], choices={"hero": False})
    out = battle_one({"a1": named("Risky Substitution")}, [run])
    assert out["battles"][0]["heroes"]["A"] == "A1"
    run = act("A", "run", "a1", random=["heads"], choices={"hero": "AB2"})
    out = battle_one({"a1": named("Risky Substitution")}, [run])
    assert out["battles"][0]["heroes"]["A"] == "AB2"


# ------------------------------------------------------------------ rulings kept, pinned


def test_steel_flipper_draws_only_with_the_heads_bonus() -> None:
    plays = {"a1": named("Steel Flipper"), "x1": FILLER}
    steel = [(100, "Steel")] * 7
    out = battle_one(plays, [act("A", "run", "a1", random=["tails"])], a=steel)
    assert power(out)["A"] == 100
    r = rp(
        make_record(
            PM,
            a=steel,
            plays=plays,
            hands={"A": ["a1"]},
            actions=[*passes(), act("A", "run", "a1", random=["heads"], drawn=["x1"])],
        )
    )
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].hand == ["x1"]
    assert r.state.power(0) == 110


def test_overprepared_counts_itself_among_the_plays_run() -> None:
    plays = {"a1": named("Buff Up 15"), "a2": named("Overprepared")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert power(out)["B"] == 90  # two plays run this battle, this one included


def test_instant_refund_counts_itself_among_the_plays_used() -> None:
    out = battle_one({"a1": named("Instant Refund")}, [act("A", "run", "a1")], hot_dogs=6)
    assert out["hot_dogs"]["A"] == 7


def test_dead_red_discards_once_when_the_named_weapon_misses() -> None:
    plays = {"a1": named("Dead Red"), "a2": named("Buff Up 15")}
    run = act("A", "run", "a1", choices={"weapon": "Ice", "discard": ["a2"]})
    out = two_battles(plays, [run], honors_2="A", b=[100, (100, "Ice"), *[100] * 5])
    assert power(out, 1)["B"] == 100
    assert power(out, 2)["B"] == 90  # the aura lasts the game
    assert out["error"] is None


def test_grilled_bandit_takes_only_what_the_opponent_would_have_recovered() -> None:
    plays = {"a1": named("Grilled Bandit"), "b1": named("Back From The Dumps")}
    run_b = act("B", "run", "b1", choices={"recover": 3})
    out = battle_one(plays, [act("A", "run", "a1")], [run_b], hot_dogs=9)
    assert out["hot_dogs"] == {"A": 8, "B": 9}  # A: 9 - 5 + 3 own + 1 (B had 1 discarded)


def test_the_perfect_offense_cancels_an_opponents_power_floor() -> None:
    plays = {
        "a1": named("Chrome Will"),
        "b1": named("Gavel of Justice"),
        "b2": named("The Perfect Offense"),
    }
    out = battle_one(
        plays,
        [act("A", "run", "a1")],
        [act("B", "run", "b1"), act("B", "run", "b2")],
        a=[(100, "Steel")] * 7,
    )
    assert power(out)["A"] == 70


def _scare_tactics(b_runs_first: bool) -> dict[str, Any]:
    """A has honors in battle 1 and runs Scare Tactics revealing Gavel of Justice (cost 4);
    B wins battle 1 and so has honors in battle 2; B runs Buff Up 15 (2) or its own Gavel (4)."""
    plays = {
        "a1": named("Scare Tactics"),
        "a2": named("Gavel of Justice"),
        "b1": named("Gavel of Justice"),
        "b2": named("Buff Up 15"),
        "x1": FILLER,
        "x2": FILLER,
    }
    b_card = "b1" if b_runs_first else "b2"
    actions = [*passes(), act("A", "run", "a1", choices={"card": "a2"}), *passes()]
    actions += [act("B", "draw", "x2"), act("A", "draw", "x1"), *passes("B")]
    actions += [act("B", "run", b_card), act("B", "pass"), act("A", "run", "a2")]
    hands = {"A": ["a1", "a2"], "B": ["b1", "b2"]}
    return run_json(make_record(PM, b=[150] * 7, plays=plays, hands=hands, actions=actions))


def test_scare_tactics_the_revealed_play_is_free_after_an_equal_or_costlier_opponent_play() -> None:
    out = _scare_tactics(True)
    assert out["error"] is None, out["error"]
    assert out["hot_dogs"]["A"] == 9  # Scare Tactics 1, Gavel free


def test_scare_tactics_the_revealed_play_costs_in_full_after_a_cheaper_play() -> None:
    out = _scare_tactics(False)
    assert out["error"] is None, out["error"]
    assert out["hot_dogs"]["A"] == 5


def _pick_your_poison(trigger: dict[str, Any] | None, b_plays: bool = True) -> Any:
    """B wins battle 1; A runs Pick Your Poison in battle 2 (a draw); battle 3 starts. B has
    plays in hand unless ``b_plays`` is false (an empty playbook and hand)."""
    plays = {"a1": named("Pick Your Poison"), **{f"x{i}": FILLER for i in range(1, 5)}}
    choices = {"trigger": trigger} if trigger is not None else {}
    b_draw = [act("B", "draw", "x2")] if b_plays else []
    actions = [*passes(), *passes(), *b_draw, act("A", "draw", "x1")]
    actions += [*passes("B"), act("B", "pass"), act("A", "run", "a1", choices=choices)]
    actions += [act("A", "pass"), *([act("B", "draw", "x4")] if b_plays else [])]
    actions.append(act("A", "draw", "x3"))
    record = make_record(PM, b=[150] + [100] * 6, plays=plays, hands={"A": ["a1"]}, actions=actions)
    if not b_plays:
        record["setup"]["B"]["playbook_size"] = 0
    return rp(record)


def test_pick_your_poison_discard_option_recorded_in_the_trigger() -> None:
    r = _pick_your_poison({"option": "discard", "discard": ["x2"]})
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.battle == 3
    assert r.state.p[1].hot_dogs == 10
    assert r.state.p[1].hand == ["x4"]
    assert r.state.p[1].discard == ["x2"]


def test_pick_your_poison_without_a_record_takes_the_only_possible_option() -> None:
    r = _pick_your_poison(None)  # both possible, nothing recorded: skipped (if able)
    assert r.error is None and r.state is not None
    assert (r.state.p[1].hot_dogs, r.state.p[1].hand) == (10, ["x2", "x4"])
    r = _pick_your_poison(None, b_plays=False)  # no play to discard: B must pay
    assert r.error is None and r.state is not None
    assert r.state.battle == 3
    assert r.state.p[1].hot_dogs == 9


def test_student_loan_lets_next_battle_costs_exceed_the_hot_dogs_by_3() -> None:
    plays = {"a1": named("Student Loan"), "a2": named("Gavel of Justice")}
    runs = [act("A", "run", "a1")]
    out = two_battles(plays, runs, [act("A", "run", "a2")], hot_dogs=3)
    assert out["error"] is None, out["error"]
    assert power(out, 2)["B"] == 70  # 1 hot dog left pays 4 with 3 of allowance
    assert out["hot_dogs"]["A"] == 0


def test_student_loan_allowance_is_3_and_only_next_battle() -> None:
    plays = {"a1": named("Student Loan"), "a2": named("Gavel of Justice")}
    out = two_battles(plays, [act("A", "run", "a1")], [act("A", "run", "a2")], hot_dogs=2)
    assert out["error"]["code"] == "insufficient_hot_dogs"  # 0 left, 4 > 3
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")], hot_dogs=4)
    assert out["error"]["code"] == "insufficient_hot_dogs"  # not this battle
