"""The play library: every real Play card is encoded, and real plays behave as the rules say.

The data tests read the shared card list (``../shared/data/boba/plays.json`` next to the repo)
and skip, saying why, when it is absent. The behaviour tests build a small Playmaker record
naming real plays (``{"kind": "play", "name": ...}``: cost and effect from the library),
replay it through the public API and check what the cards' rules give.

Judge steps (``{"judge": ...}``) are the encoding of last resort, for abilities the vocabulary
cannot express yet (recovery replaced or capped, an opponent acting outside their own action,
shuffling one chosen card back, hot dog debt or trades, comparing two revealed cards, ...):
:data:`JUDGED_PLAYS` lists them and their number stays under :data:`MAX_JUDGE_STEPS`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.boba.effects import step_kind, validate_effect
from engine.boba.generator import random_game
from engine.boba.play_library import (
    LIBRARY_PATH,
    base_name,
    library_names,
    lookup_play,
    normalise_name,
)
from engine.boba.replay import replay
from tests.engine.boba.helpers import (
    FILLER,
    PLAYS_JSON,
    PM,
    act,
    battle_one,
    make_record,
    named,
    passes,
    power,
    rp,
    run_json,
    two_battles,
)
from tests.support import missing_shared_data

REPO = Path(__file__).resolve().parents[3]

# Plays the vocabulary cannot express yet are encoded with a judge step; keep them rare.
# None left: Ghost Dog, the last, is a `become_hot_dog` step (README decision 9; see
# docs/game-record.md, "Rulings on card texts").
MAX_JUDGE_STEPS = 0
JUDGED_PLAYS: set[str] = set()
MAX_JUDGE_TEXT = 90


# ------------------------------------------------------------------ the card data


@pytest.fixture(scope="module")
def real_plays() -> list[dict[str, Any]]:
    if not PLAYS_JSON.exists():
        missing_shared_data(PLAYS_JSON)
    data: list[dict[str, Any]] = json.loads(PLAYS_JSON.read_text(encoding="utf-8"))
    return data


def _raw_library() -> dict[str, dict[str, Any]]:
    raw = json.loads(LIBRARY_PATH.read_text(encoding="utf-8"))
    plays: dict[str, dict[str, Any]] = raw["plays"]
    return plays


def _walk(steps: Any) -> Iterator[dict[str, Any]]:
    for step in steps:
        yield step
        for key in ("then", "else", "do"):
            if key in step:
                yield from _walk(step[key])
        if "choose" in step:
            for option in step["choose"].values():
                yield from _walk(option)


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)


def test_every_library_entry_validates() -> None:
    assert library_names()
    for name, entry in _raw_library().items():
        assert set(entry) <= {"cost", "effect", "requires", "cost_if", "bonus"}, name
        if "effect" in entry:
            validate_effect(entry["effect"], name)
        definition = lookup_play(name)
        assert definition is not None, name
        assert definition.effect, f"{name} has an empty effect"
        assert definition.cost is None or definition.cost >= 0


def test_library_names_are_real_plays(real_plays: list[dict[str, Any]]) -> None:
    real = {normalise_name(p["name"]) for p in real_plays}
    unknown = [n for n in library_names() if normalise_name(n) not in real]
    assert unknown == []


@pytest.mark.parametrize(
    ("name", "base"),
    [
        ("Loan Sharked - htd", "Loan Sharked"),
        ("Last-Minute Re-Org htd", "Last-Minute Re-Org"),
        ("Front Run", "Front Run"),
        ("Heads-Up! - HTD", "Heads-Up!"),
    ],
)
def test_cr_2_1_2_variant_names_map_to_their_base_play(name: str, base: str) -> None:
    assert base_name(name) == base


def test_names_are_matched_loosely() -> None:
    assert lookup_play("  front   RUN ") == lookup_play("Front Run")
    assert normalise_name("It\u2019s Gonna Cost Ya") == "it's gonna cost ya"
    assert lookup_play("It\u2019s Gonna Cost Ya") == lookup_play("It's Gonna Cost Ya")


def test_random_games_with_the_library_stay_legal() -> None:
    for seed in range(20):
        rec = random_game(seed, "playmaker")
        out = replay(rec)
        assert out.legal, (seed, out.error)


def test_every_real_play_name_resolves_including_htd_variants(
    real_plays: list[dict[str, Any]],
) -> None:
    missing = [p["name"] for p in real_plays if lookup_play(p["name"]) is None]
    assert missing == []
    bases = {normalise_name(base_name(p["name"])) for p in real_plays}
    assert len(bases) == 351
    assert bases <= {normalise_name(n) for n in library_names()}


def test_costs_match_the_printed_hot_dog_cost(real_plays: list[dict[str, Any]]) -> None:
    wrong = []
    for p in real_plays:
        definition = lookup_play(p["name"])
        assert definition is not None
        if definition.cost != p["hot_dog_cost"]:
            wrong.append((p["name"], definition.cost, p["hot_dog_cost"]))
    assert wrong == []


def test_htd_variant_has_its_base_effect_and_its_own_cost(
    real_plays: list[dict[str, Any]],
) -> None:
    for p in real_plays:
        if not re.search(r"htd\s*$", p["name"], re.IGNORECASE):
            continue
        variant = lookup_play(p["name"])
        base = lookup_play(base_name(p["name"]))
        assert variant is not None and base is not None
        assert variant.effect == base.effect, p["name"]
        assert variant.base == base.name
        assert variant.cost == p["hot_dog_cost"] != base.cost


def test_judge_steps_stay_under_the_ceiling() -> None:
    judged = [
        name
        for name, entry in _raw_library().items()
        for step in _walk(entry.get("effect", []))
        if step_kind(step) == "judge"
    ]
    assert len(judged) <= MAX_JUDGE_STEPS, judged
    assert set(judged) <= JUDGED_PLAYS, set(judged) - JUDGED_PLAYS


def test_library_holds_no_card_text(real_plays: list[dict[str, Any]]) -> None:
    """Licensing: names, costs and our encoding only; judge and look texts are paraphrases."""
    abilities = {normalise_name(p["name"]): p["ability"].lower() for p in real_plays}
    for name, entry in _raw_library().items():
        assert "ability" not in entry
        ability = abilities.get(normalise_name(base_name(name)), "")
        for text in _texts(entry.get("effect", [])):
            words = text.lower().split()
            if len(words) < 4:
                continue
            assert len(text) <= MAX_JUDGE_TEXT, (name, text)
            for i in range(len(words) - 3):
                assert " ".join(words[i : i + 4]) not in ability, (name, text)


# ------------------------------------------------------------------ behaviour of real plays


def test_front_run_adds_power_when_opponent_has_run_no_play() -> None:
    out = battle_one({"a1": named("Front Run")}, [act("A", "run", "a1")])
    assert power(out) == {"A": 120, "B": 100}
    assert out["hot_dogs"]["A"] == 8


def test_front_run_adds_nothing_after_opponent_ran_a_play() -> None:
    plays = {"a1": named("Front Run"), "b1": named("Buff Up 15")}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")], honors="B")
    assert power(out) == {"A": 100, "B": 115}


def test_gavel_of_justice_lowers_opponent_by_30_for_4_hot_dogs() -> None:
    out = battle_one({"a1": named("Gavel of Justice")}, [act("A", "run", "a1")])
    assert power(out) == {"A": 100, "B": 70}
    assert out["hot_dogs"] == {"A": 6, "B": 10}
    assert out["battles"][0]["modifiers"]["B"] == [{"source": "a1", "amount": -30}]


def test_htd_variant_runs_the_base_effect_at_its_own_cost() -> None:
    out = battle_one({"a1": named("Gavel of Justice - htd")}, [act("A", "run", "a1")])
    assert power(out) == {"A": 100, "B": 70}
    assert out["hot_dogs"]["A"] == 7


def test_heads_i_win_tails_you_lose_on_tails_lowers_opponent_by_5() -> None:
    out = battle_one(
        {"a1": named("Heads I Win, Tails You Lose")}, [act("A", "run", "a1", random=["tails"])]
    )
    assert power(out) == {"A": 100, "B": 95}


def test_lucky_bounce_gives_five_times_the_die() -> None:
    out = battle_one({"a1": named("Lucky Bounce")}, [act("A", "run", "a1", random=[4])])
    assert power(out)["A"] == 120


def test_burn_that_play_is_nullified_without_another_play_to_discard() -> None:
    out = battle_one({"a1": named("Burn That Play")}, [act("A", "run", "a1")])
    assert power(out)["A"] == 100  # CR 5.2.3 A: the required discard fails, no +10


def test_burn_that_play_discards_the_chosen_play_for_10() -> None:
    plays = {"a1": named("Burn That Play"), "a2": named("Gavel of Justice")}
    out = battle_one(plays, [act("A", "run", "a1", choices={"discard": ["a2"]})])
    assert power(out) == {"A": 110, "B": 100}


def test_sacrificed_heroes_feed_discarded_heroes() -> None:
    plays = {"a1": named("Sacrificed Heroes"), "a2": named("Discarded Heroes")}
    runs = [act("A", "run", "a1", choices={"discard": ["AB1", "AB2"]}), act("A", "run", "a2")]
    out = battle_one(plays, runs)
    assert power(out)["A"] == 120  # two heroes in the discard, +10 each
    assert out["hot_dogs"]["A"] == 9  # nothing was discarded to recover when it ran


def test_deadline_deal_swaps_current_power() -> None:
    out = battle_one({"a1": named("Deadline Deal")}, [act("A", "run", "a1")], b=[150] * 7)
    assert power(out) == {"A": 150, "B": 100}


def test_edge_rush_sets_power_five_above_the_opponent() -> None:
    out = battle_one({"a1": named("Edge Rush")}, [act("A", "run", "a1")], b=[180] * 7)
    assert power(out) == {"A": 185, "B": 180}


def test_full_court_press_stops_the_opponents_plays() -> None:
    plays = {"a1": named("Full Court Press"), "b1": named("Buff Up 15")}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")])
    assert out["error"]["code"] == "plays_prevented"


def test_late_hit_can_only_run_in_battle_7() -> None:
    out = battle_one({"a1": named("Late Hit")}, [act("A", "run", "a1")])
    assert out["error"]["code"] == "play_condition_not_met"


def test_one_and_done_allows_no_further_plays_this_battle() -> None:
    plays = {"a1": named("One And Done"), "a2": named("Buff Up 15")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert out["error"]["code"] == "play_limit_reached"
    out = battle_one(plays, [act("A", "run", "a2"), act("A", "run", "a1")])
    assert out["error"]["code"] == "play_condition_not_met"


def test_copycat_copies_the_last_play_and_its_cost() -> None:
    plays = {"a1": named("Buff Up 15"), "a2": named("Copycat")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert power(out)["A"] == 130
    assert out["hot_dogs"]["A"] == 6


def test_ice_boost_reaches_every_ice_hero_of_both_players() -> None:
    a = [(100, "Ice")] * 7
    b = [(100, "Fire")] + [(100, "Ice")] * 6
    out = two_battles({"a1": named("Ice Boost")}, [act("A", "run", "a1")], a=a, b=b)
    assert power(out, 1) == {"A": 110, "B": 100}
    assert power(out, 2) == {"A": 110, "B": 110}


def test_transfer_portal_moves_30_power_to_the_next_battle() -> None:
    out = two_battles({"a1": named("Transfer Portal")}, [act("A", "run", "a1")], honors_2="B")
    assert power(out, 1)["A"] == 70
    assert power(out, 2)["A"] == 130


def test_victory_dinner_recovers_up_to_three_hot_dogs_on_a_win() -> None:
    plays = {"a1": named("Victory Dinner"), "a2": named("Gavel of Justice")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert out["battles"][0]["winner"] == "A"
    assert out["hot_dogs"]["A"] == 8  # 10 - 1 - 4 + 3


def test_hero_tax_takes_one_hot_dog_per_hero_in_the_opponents_hand() -> None:
    out = battle_one({"a1": named("Hero Tax")}, [act("A", "run", "a1")])
    assert out["hot_dogs"] == {"A": 6, "B": 6}  # B holds 4 bench heroes


def test_belly_buster_hits_an_opponent_with_more_hot_dogs() -> None:
    plays = {"a1": named("Buff Up 15"), "a2": named("Belly Buster")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert power(out) == {"A": 115, "B": 90}


def test_belly_buster_misses_an_opponent_with_fewer_hot_dogs() -> None:
    out = battle_one({"a1": named("Belly Buster")}, [act("A", "run", "a1")], hot_dogs=10)
    # before paying, A had 10 and B 10: equal counts, so B's hero is hit
    assert power(out)["B"] == 90


def test_dice_duel_higher_roll_gets_25() -> None:
    out = battle_one({"a1": named("Dice Duel")}, [act("A", "run", "a1", random=[2, 5])])
    assert power(out) == {"A": 100, "B": 125}


def test_dice_duel_tie_costs_both_heroes_10() -> None:
    out = battle_one({"a1": named("Dice Duel")}, [act("A", "run", "a1", random=[3, 3])])
    assert power(out) == {"A": 90, "B": 90}


def test_cloudy_with_a_chance_recovers_four_on_the_named_number() -> None:
    plays = {"a1": named("Gavel of Justice"), "a2": named("Cloudy With A Chance Of Hot Dogs")}
    runs = [act("A", "run", "a1"), act("A", "run", "a2", choices={"number": 5}, random=[5])]
    assert battle_one(plays, runs)["hot_dogs"]["A"] == 10
    runs[1] = act("A", "run", "a2", choices={"number": 5}, random=[2])
    assert battle_one(plays, runs)["hot_dogs"]["A"] == 6


def test_dead_red_lowers_an_opponent_with_the_named_weapon() -> None:
    out = battle_one({"a1": named("Dead Red")}, [act("A", "run", "a1", choices={"weapon": "Fire"})])
    assert power(out)["B"] == 90


def test_brothers_in_arms_needs_an_opponent_hero_of_your_weapon() -> None:
    out = battle_one({"a1": named("Brothers In Arms")}, [act("A", "run", "a1")])
    assert power(out)["A"] == 120  # both lineups are Fire
    out = battle_one(
        {"a1": named("Brothers In Arms")}, [act("A", "run", "a1")], b=[(100, "Ice")] * 7
    )
    assert power(out)["A"] == 100


def test_rally_cap_needs_a_deficit_of_15() -> None:
    out = battle_one({"a1": named("Rally Cap")}, [act("A", "run", "a1")], b=[115] * 7)
    assert power(out)["A"] == 120
    out = battle_one({"a1": named("Rally Cap")}, [act("A", "run", "a1")], b=[110] * 7)
    assert power(out)["A"] == 100


def test_flash_sale_makes_this_and_later_plays_one_cheaper() -> None:
    plays = {"a1": named("Flash Sale"), "a2": named("Gavel of Justice")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")])
    assert out["hot_dogs"]["A"] == 7  # Flash Sale free, Gavel 3


def test_contract_limitations_skips_the_next_play_draw() -> None:
    plays = {"a1": named("Contract Limitations"), "x1": FILLER}
    actions = [*passes(), act("A", "run", "a1"), *passes(), act("A", "draw", "x1")]
    record = make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=actions)
    out = run_json(record)
    assert out["battles"][0]["power"]["A"] == 115
    assert out["error"]["code"] == "no_draw_due"


def test_substitution_boost_rewards_substituted_heroes_later_too() -> None:
    plays = {"a1": named("Substitution Boost")}
    actions = [act("A", "substitute", "AB1", draw="AD1"), act("B", "pass")]
    actions += [act("A", "run", "a1"), *passes()]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=actions))
    assert power(out) == {"A": 205, "B": 100}  # bench heroes have 200 power
    assert out["hot_dogs"]["A"] == 8


def test_leave_it_to_chance_cancels_a_play_on_a_roll_of_1_or_6() -> None:
    plays = {"a1": named("Leave It To Chance"), "b1": named("Buff Up 15")}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1", random=[6])])
    assert power(out)["B"] == 100  # cancelled: the cost stays paid
    assert out["hot_dogs"] == {"A": 5, "B": 8}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1", random=[3])])
    assert power(out)["B"] == 115


def test_big_spender_bonus_counts_discarded_plays_costing_3_or_more() -> None:
    deck = ["Gavel of Justice", "Edge Rush", "Buff Up 15", "Front Run", "Hero Tax"]
    plays = {"a1": named("Big Spender Bonus")}
    plays.update({f"x{i}": named(n) for i, n in enumerate(deck)})
    run = act("A", "run", "a1", drawn=[f"x{i}" for i in range(5)])
    out = battle_one(plays, [run])
    assert power(out)["A"] == 130  # Gavel 4, Edge Rush 5, Hero Tax 4


def test_lucky_discard_needs_the_top_hero_to_share_the_active_weapon() -> None:
    run = [act("A", "run", "a1", drawn=["AD1"])]  # deck heroes are Steel
    assert power(battle_one({"a1": named("Lucky Discard")}, run))["A"] == 100
    out = battle_one({"a1": named("Lucky Discard")}, run, a=[(100, "Steel")] * 7)
    assert power(out)["A"] == 120


def test_lose_and_discard_costs_the_loser_a_hot_dog() -> None:
    out = battle_one({"a1": named("Lose And Discard")}, [act("A", "run", "a1")], a=[150] * 7)
    assert out["battles"][0]["winner"] == "A"
    assert out["hot_dogs"] == {"A": 7, "B": 9}


def test_momentum_meal_recovers_one_per_play_costing_2_or_more_on_a_win() -> None:
    plays = {
        "a1": named("Momentum Meal"),
        "a2": named("Gavel of Justice"),
        "a3": named("Buff Up 15"),
    }
    runs = [act("A", "run", k) for k in ("a1", "a2", "a3")]
    out = battle_one(plays, runs)
    assert out["hot_dogs"]["A"] == 6  # 10 - 4 - 2, then 2 back


def test_deep_in_the_playbook_lets_whoever_rolls_draw_a_play() -> None:
    plays = {"a1": named("Deep In The Playbook"), "b1": named("Lucky Bounce"), "x1": FILLER}
    b_run = act("B", "run", "b1", random=[2], drawn=["x1"])
    r = rp(
        make_record(
            PM,
            plays=plays,
            hands={"A": ["a1"], "B": ["b1"]},
            actions=[*passes(), act("A", "run", "a1"), act("A", "pass"), b_run],
        )
    )
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[1].hand == ["x1"]
    assert r.state.power(1) == 110


def test_play_reset_redraws_as_many_plays_for_each_player() -> None:
    plays = {
        "a1": named("Play Reset"),
        "a2": named("Gavel of Justice"),
        "a3": named("Edge Rush"),
        "b1": named("Buff Up 15"),
        "x1": FILLER,
        "x2": FILLER,
        "x3": FILLER,
    }
    run = act("A", "run", "a1", drawn=["x1", "x2", "x3"])
    hands = {"A": ["a1", "a2", "a3"], "B": ["b1"]}
    r = rp(make_record(PM, plays=plays, hands=hands, actions=[*passes(), run]))
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].hand == ["x1", "x2"]
    assert r.state.p[1].hand == ["x3"]
    assert r.state.p[0].playbook_size == 26  # two back in, two out


def test_three_weapon_streak_needs_the_two_previous_heroes_to_share_the_weapon() -> None:
    plays = {"a1": named("3 Weapon Streak")}
    fillers = {f"x{i}": FILLER for i in range(4)}
    actions: list[dict[str, Any]] = []
    for n in range(2):
        actions += [*passes(), *passes(), act("A", "draw", f"x{2 * n}")]
        actions.append(act("B", "draw", f"x{2 * n + 1}"))
    actions += [*passes(), act("A", "run", "a1"), *passes()]
    a = [(150, "Ice"), (150, "Ice"), (150, "Ice"), *[(150, "Fire")] * 4]
    out = run_json(
        make_record(PM, a=a, plays={**plays, **fillers}, hands={"A": ["a1"]}, actions=actions)
    )
    assert power(out, 3)["A"] == 175
    a[0] = (150, "Fire")
    out = run_json(
        make_record(PM, a=a, plays={**plays, **fillers}, hands={"A": ["a1"]}, actions=actions)
    )
    assert power(out, 3)["A"] == 150


def test_cheap_trick_draws_a_cheap_top_play_for_10() -> None:
    plays = {"a1": named("Cheap Trick"), "x1": named("Buff Up 15"), "x2": named("Gavel of Justice")}
    r = rp(
        make_record(
            PM,
            plays=plays,
            hands={"A": ["a1"]},
            actions=[*passes(), act("A", "run", "a1", drawn=["x1", "x1"])],
        )
    )
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].hand == ["x1"]
    assert r.state.power(0) == 110
    r = rp(
        make_record(
            PM,
            plays=plays,
            hands={"A": ["a1"]},
            actions=[*passes(), act("A", "run", "a1", drawn=["x2"])],
        )
    )
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].hand == []
    assert r.state.power(0) == 100


def test_champions_lasso_refunds_what_the_opponent_spends_this_battle() -> None:
    plays = {"b1": named("The Champion's Lasso"), "a1": named("Gavel of Justice - htd")}
    # A (honors) substitutes (2) and runs Gavel (3) before B's Lasso: B gets those 5 back
    actions = [act("A", "substitute", "AB1", draw="AD1"), act("B", "pass")]
    actions += [act("A", "run", "a1"), act("A", "pass"), act("B", "run", "b1"), act("B", "pass")]
    hands = {"A": ["a1"], "B": ["b1"]}
    out = run_json(make_record(PM, plays=plays, hands=hands, actions=actions, hot_dogs=5))
    assert out["error"] is None, out["error"]
    assert out["hot_dogs"] == {"A": 0, "B": 10}


def test_champions_lasso_also_refunds_what_the_opponent_spends_later() -> None:
    plays = {"a1": named("The Champion's Lasso"), "b1": named("Gavel of Justice")}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")], hot_dogs=6)
    assert out["hot_dogs"] == {"A": 10, "B": 2}


def test_hot_dog_stock_exchange_switches_hot_dog_counts_in_battle_7() -> None:
    plays = {"a1": named("Hot Dog Stock Exchange")}
    fillers = {f"x{i}": FILLER for i in range(12)}
    actions: list[dict[str, Any]] = []
    for n in range(6):
        actions += [*passes(), *passes(), act("A", "draw", f"x{2 * n}")]
        actions.append(act("B", "draw", f"x{2 * n + 1}"))
    actions += [*passes(), act("A", "run", "a1"), *passes()]
    record = make_record(
        PM,
        plays={**plays, **fillers},
        hands={"A": ["a1"]},
        actions=actions,
        hot_dogs=7,
    )
    r = rp(record)
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.battle == 7  # six drawn battles, A keeps honors
    assert [r.state.p[0].hot_dogs, r.state.p[1].hot_dogs] == [7, 6]  # A had 6 after paying


def test_crystal_ball_gives_30_to_whoever_named_the_die() -> None:
    run = act("A", "run", "a1", choices={"number": 2, "opp_number": 5}, random=[5])
    out = battle_one({"a1": named("Crystal Ball")}, [run])
    assert power(out) == {"A": 100, "B": 130}
    run = act("A", "run", "a1", choices={"number": 2, "opp_number": 5}, random=[2])
    assert power(battle_one({"a1": named("Crystal Ball")}, [run])) == {"A": 130, "B": 100}
