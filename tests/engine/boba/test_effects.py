"""Play effects (CR 5, CR 3.2, CR 2.2): one test per rule, named after it."""

from __future__ import annotations

from typing import Any

import pytest

from engine.boba.effects import EffectError, validate_effect
from engine.boba.play_library import lookup_play
from tests.engine.boba.helpers import act, make_record, passes, run_json

PM = "playmaker"


def play(name: str, cost: int, *steps: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": name, "cost": cost, "effect": list(steps), **extra}


def battle_one(plays: dict[str, Any], a_runs: list[dict[str, Any]], b_runs=(), **kw: Any):
    """Battle 1 of a Playmaker game with the given runs; returns the replay JSON."""
    hands = {
        "A": [k for k in plays if k.startswith("a")],
        "B": [k for k in plays if k.startswith("b")],
    }
    actions = [*passes(), *a_runs, act("A", "pass"), *b_runs, act("B", "pass")]
    return run_json(make_record(PM, plays=plays, hands=hands, actions=actions, **kw))


def test_cr_5_1_1_instantaneous_power_change_applies_now() -> None:
    out = battle_one({"a1": play("Up", 1, {"power": 15})}, [act("A", "run", "a1")])
    assert out["battles"][0]["power"] == {"A": 115, "B": 100}


def test_cr_5_1_1_ongoing_power_change_reaches_a_later_battle() -> None:
    plays = {"a1": play("Two", 2, {"power": 10, "target": "own", "battles": [0, 1]})}
    hands = {"A": ["a1"]}
    actions = [*passes(), act("A", "run", "a1"), *passes(), act("A", "draw", "x1")]
    actions += [act("B", "draw", "x2"), *passes(), *passes()]
    plays.update({"x1": play("X1", 9), "x2": play("X2", 9)})
    out = run_json(make_record(PM, plays=plays, hands=hands, actions=actions))
    assert [b["power"]["A"] for b in out["battles"]] == [110, 110]
    assert out["battles"][1]["modifiers"]["A"] == [{"source": "a1", "amount": 10}]


def test_cr_5_1_2_plays_resolve_in_order() -> None:
    plays = {
        "a1": play("Double", 0, {"power": {"count": "power"}}),
        "a2": play("Plus", 0, {"power": 10}),
    }
    out = battle_one(plays, [act("A", "run", "a2"), act("A", "run", "a1")])
    assert out["battles"][0]["power"]["A"] == 220
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert out["battles"][0]["power"]["A"] == 210


def test_cr_5_1_6_ongoing_effect_does_not_stack_with_its_copy() -> None:
    plays = {
        "a1": play("Aura", 0, {"power": 10, "target": "own", "battles": "rest"}),
        "a2": {"name": "Copycat"},
    }
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert out["battles"][0]["power"]["A"] == 110
    assert out["battles"][0]["modifiers"]["A"] == [{"source": "a1", "amount": 10}]


def test_cr_5_1_7_nullified_ongoing_effect_ends_prior_outcomes_stay() -> None:
    plays = {
        "a1": play("Aura", 0, {"power": 10, "target": "own", "battles": "rest"}),
        "a2": play("Now", 0, {"power": 5}),
        "b1": play("Plug", 0, {"cancel": "ongoing", "who": "both"}),
    }
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")], [act("B", "run", "b1")])
    assert out["battles"][0]["power"]["A"] == 105


def test_cr_5_2_1_if_able_skips_what_cannot_happen() -> None:
    # recover 3 with nothing discarded but the cost: partial recovery, the +10 still happens
    plays = {"a1": play("Partial", 2, {"recover": 3}, {"power": 10})}
    out = battle_one(plays, [act("A", "run", "a1")])
    assert out["hot_dogs"]["A"] == 10
    assert out["battles"][0]["power"]["A"] == 110


def test_cr_5_2_2_costs_still_apply_when_the_effect_fails() -> None:
    plays = {"a1": play("Fire only", 3, {"if": {"weapon": "Ice"}, "then": [{"power": 30}]})}
    out = battle_one(plays, [act("A", "run", "a1")])
    assert out["hot_dogs"]["A"] == 7
    assert out["battles"][0]["power"]["A"] == 100


def test_cr_5_2_3_discard_as_requirement_nullifies_the_effect_when_impossible() -> None:
    plays = {
        "a1": play("Burn", 0, {"discard": 1, "from": "hand_plays", "required": True}, {"power": 10})
    }
    out = battle_one(plays, [act("A", "run", "a1")])
    assert out["battles"][0]["power"]["A"] == 100


def test_cr_5_2_3_discard_as_requirement_met_gives_the_effect() -> None:
    plays = {
        "a1": play(
            "Burn", 0, {"discard": 1, "from": "hand_plays", "required": True}, {"power": 10}
        ),
        "a2": play("Fodder", 5),
    }
    out = battle_one(plays, [act("A", "run", "a1", choices={"discard": ["a2"]})])
    assert out["battles"][0]["power"]["A"] == 110
    bad = battle_one(plays, [act("A", "run", "a1", choices={"discard": ["zzz"]})])
    assert bad["error"]["code"] == "invalid_choice"


def test_bare_choices_answer_the_question_asked() -> None:
    plays = {
        "a1": play(
            "Burn", 0, {"discard": 1, "from": "hand_plays", "required": True}, {"power": 10}
        ),
        "a2": play("Fodder", 5),
        "a3": play("Fodder 2", 5),
    }
    out = battle_one(plays, [act("A", "run", "a1", choices=["a3"])])
    assert out["battles"][0]["power"]["A"] == 110


def test_cr_5_2_3_discard_as_effect_resolves_the_rest() -> None:
    plays = {"a1": play("Then burn", 0, {"power": 10}, {"discard": 1, "from": "hand_plays"})}
    out = battle_one(plays, [act("A", "run", "a1")])
    assert out["battles"][0]["power"]["A"] == 110


def test_cr_2_1_2_cost_never_below_zero() -> None:
    plays = {
        "a1": play("Sale", 0, {"cost": -5, "who": "own", "battles": [0]}),
        "a2": play("Cheap", 2, {"power": 10}),
    }
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert out["hot_dogs"]["A"] == 10


def test_cr_2_1_2_cost_increase_applies_to_the_opponent() -> None:
    plays = {
        "a1": play("Tax", 0, {"cost": 2, "who": "opp", "battles": [0]}),
        "b1": play("Buff", 1, {"power": 10}),
    }
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")])
    assert out["hot_dogs"]["B"] == 7


def test_cr_5_1_1_prevention_stops_opponent_plays() -> None:
    plays = {"a1": {"name": "Full Court Press"}, "b1": play("Buff", 1, {"power": 10})}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")])
    assert (out["error"]["code"], out["error"]["rule"]) == ("plays_prevented", "CR 5.1.1")


def test_cr_3_2_hero_leaving_the_zone_loses_its_modifiers() -> None:
    plays = {
        "a1": play("Up", 0, {"power": 50}),
        "a2": play("Swap in", 0, {"replace_hero": "hand", "old_to": "hand"}),
    }
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2", choices={"hero": "AB1"})])
    first = out["battles"][0]
    assert first["heroes"]["A"] == "AB1"
    assert first["power"]["A"] == 200
    assert first["modifiers"]["A"] == []


def test_cr_2_2_1_coin_results_come_from_the_record() -> None:
    plays = {"a1": {"name": "Heads-Up!"}}
    out = battle_one(plays, [act("A", "run", "a1", random=["heads", "tails", "heads", "heads"])])
    assert out["battles"][0]["power"]["A"] == 115
    missing = battle_one(plays, [act("A", "run", "a1", random=["heads"])])
    assert missing["error"]["code"] == "missing_random"
    extra = battle_one(plays, [act("A", "run", "a1", random=["heads"] * 5)])
    assert extra["error"]["code"] == "unexpected_random"


def test_cr_2_2_4_dice_condition() -> None:
    plays = {"a1": {"name": "Fire Roll"}}
    hit = battle_one(plays, [act("A", "run", "a1", random=[5])])
    miss = battle_one(plays, [act("A", "run", "a1", random=[2])])
    assert hit["battles"][0]["power"]["A"] == 130
    assert miss["battles"][0]["power"]["A"] == 100


def test_trigger_if_you_win_this_battle_recovers() -> None:
    plays = {"a1": {"name": "Victory Dinner"}, "a2": play("Up", 3, {"power": 50})}
    out = battle_one(plays, [act("A", "run", "a2"), act("A", "run", "a1")])
    assert out["battles"][0]["winner"] == "A"
    assert out["hot_dogs"]["A"] == 9  # paid 4, recovered 3


def test_trigger_whenever_a_coin_is_flipped() -> None:
    plays = {"a1": {"name": "Loan Sharked"}, "b1": {"name": "Heads-Up!"}}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1", random=["tails"] * 4)])
    # each of B's four flips costs B's hero 5
    assert out["battles"][0]["power"]["B"] == 80


def test_draws_take_cards_from_drawn() -> None:
    plays = {"a1": {"name": "1-4-1 Play"}, "x1": play("Drawn", 1)}
    out = battle_one(plays, [act("A", "run", "a1", drawn=["x1"])])
    assert out["legal"] is True
    missing = battle_one(plays, [act("A", "run", "a1")])
    assert missing["error"]["code"] == "missing_drawn"


def test_cr_5_1_5_a_player_draws_only_from_their_own_decks() -> None:
    plays = {"a1": {"name": "1-4-1 Play"}, "b1": play("B's card", 1), "b2": play("B's other", 1)}
    rec = make_record(
        PM,
        plays=plays,
        hands={"A": ["a1"], "B": ["b1"]},
        actions=[*passes(), act("A", "run", "a1", drawn=["b1"])],
    )
    err = run_json(rec)["error"]
    assert err["code"] == "card_already_in_play"
    rec["actions"] = [*passes(), *passes(), act("B", "draw", "b2"), act("A", "draw", "b2")]
    err = run_json(rec)["error"]
    assert err["code"] == "card_already_in_play"
    # a card B drew and shuffled back stays B's
    plays["b3"] = play("Shuffle", 0, {"shuffle": "hand_plays"})
    rec = make_record(
        PM,
        plays=plays,
        hands={"A": ["a1"], "B": ["b3", "b1"]},
        actions=[*passes(), act("A", "pass"), act("B", "run", "b3"), act("B", "pass")],
    )
    rec["actions"] += [act("A", "draw", "b1")]
    err = run_json(rec)["error"]
    assert (err["code"], err["rule"]) == ("not_your_card", "CR 5.1.5")


def test_cr_5_1_3_ongoing_effects_persist_until_they_end() -> None:
    plays = {"a1": play("Aura", 0, {"power": 10, "battles": "rest"})}
    plays.update({f"x{i}": play(f"X{i}", 9) for i in range(1, 5)})
    actions = [*passes(), act("A", "run", "a1"), *passes()]
    for i in (1, 3):
        actions += [act("A", "draw", f"x{i}"), act("B", "draw", f"x{i + 1}"), *passes(), *passes()]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=actions))
    assert [b["power"]["A"] for b in out["battles"]] == [110, 110, 110]


def test_pay_any_scales_power() -> None:
    plays = {"a1": {"name": "Get What You Pay For"}}
    out = battle_one(plays, [act("A", "run", "a1", choices={"pay": 3})])
    assert out["battles"][0]["power"]["A"] == 130
    assert out["hot_dogs"]["A"] == 7


def test_swap_power() -> None:
    plays = {"a1": {"name": "Deadline Deal"}}
    out = battle_one(plays, [act("A", "run", "a1")], a=[90] + [100] * 6, b=[150] * 7)
    assert out["battles"][0]["power"] == {"A": 150, "B": 90}


def test_end_battle_now() -> None:
    plays = {"a1": {"name": "Call it a Day"}, "b1": play("Buff", 0, {"power": 10})}
    rec = make_record(
        PM,
        plays=plays,
        hands={"A": ["a1"], "B": ["b1"]},
        actions=[*passes(), act("A", "run", "a1"), act("B", "run", "b1")],
    )
    out = run_json(rec)
    assert len(out["battles"]) == 1
    assert out["error"]["code"] == "wrong_phase"


def test_requires_restricts_when_a_play_can_run() -> None:
    plays = {"a1": {"name": "Late-Game Magic"}}
    out = battle_one(plays, [act("A", "run", "a1")])
    assert (out["error"]["code"], out["error"]["rule"]) == ("play_condition_not_met", "CR 2.1.2")


@pytest.mark.parametrize(
    ("effect", "field"),
    [
        ([{"power": "ten"}], "effect[0].power"),
        ([{"power": 10, "target": "me"}], "effect[0].target"),
        ([{"flip": 1, "bogus": 2}], "effect[0].bogus"),
        ([{"if": {"weapon": "Wood"}, "then": []}], "effect[0].if.weapon"),
        ([{"then": []}], "effect[0]"),
        ([{"power": {"count": "nope"}}], "effect[0].power.count"),
        ([{"on": "win", "do": [{"draw": "x"}]}], "effect[0].do[0].draw"),
        ("text", "effect"),
    ],
)
def test_effect_validator_names_the_offending_field(effect: Any, field: str) -> None:
    with pytest.raises(EffectError) as exc:
        validate_effect(effect)
    assert exc.value.field == field


def test_malformed_inline_effect_is_a_record_error_with_its_field() -> None:
    plays = {"a1": play("Bad", 1, {"power": 10, "target": "me"})}
    out = battle_one(plays, [])
    assert out["error"]["field"] == "cards.a1.effect[0].target"
    assert out["error"]["action"] is None


def test_cr_2_1_2_variant_has_base_effect_and_own_cost() -> None:
    base = lookup_play("Loan Sharked")
    variant = lookup_play("loan sharked - HTD")
    assert base is not None and variant is not None
    assert variant.effect == base.effect
    assert variant.base == "Loan Sharked"
    assert (base.cost, variant.cost) == (2, 1)
    assert lookup_play("No Such Play") is None
