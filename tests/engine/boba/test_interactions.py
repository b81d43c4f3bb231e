"""Interactions between real Play cards, each test named after the rule that decides it.

Records are built with the Play card harness (tests/engine/boba/plays/m_z/_table.py): the
card under test is ``c`` in A's hand, other plays ``a*`` (A's hand) and ``b*`` (B's hand);
heroes are 100 Fire, bench AB1..AB4 200 Ice."""

from __future__ import annotations

from typing import Any

from tests.engine.boba.plays.m_z._table import Game, check, named, play, scenario


def game(card: str, **setup: Any) -> Game:
    """The harness scenario with the card run by A in its battle unless ``run=None``."""
    setup.setdefault("run", {})
    return scenario(card, **setup)


def run(player: str, card: str, **extra: Any) -> dict[str, Any]:
    return {"player": player, "do": "run", "card": card, **extra}


# ------------------------------------------------------------------ CR 5.1.6 non-stacking


def test_cr_5_1_6_running_the_same_ongoing_play_again_does_not_stack() -> None:
    # Battle 1: Member Bounce (+10 for the rest of the game). Battle 2: Reload brings it back
    # and it is run again: a new instance, not a second +10.
    g = game(
        "Member Bounce",
        hand_a={"a2": named("Reload")},
        run={},
        after=1,
        after_a=[run("A", "a2", choices={"search": "c"}), "c"],
    )
    check(g, {"power": {"A": 110}, "power+1": {"A": 110}, "hot_dogs": {"A": 3}})


def test_cr_5_1_6_the_same_play_run_by_both_players_reaches_a_hero_once() -> None:
    # Steel Boost: all Steel heroes +10 for the rest of the game; both players run it.
    steel = [(100, "Steel")] * 7
    g = game(
        "Steel Boost",
        a=steel,
        b=steel,
        hand_b={"b1": named("Steel Boost")},
        b_runs=["b1"],
        run={},
        after=1,
    )
    check(g, {"power": {"A": 110, "B": 110}, "power+1": {"A": 110, "B": 110}})


def test_cr_5_1_6_a_copied_ongoing_play_does_not_stack_with_its_original() -> None:
    # Copycat copies Member Bounce (effect and cost 3): still +10, not +20.
    g = game("Member Bounce", hand_a={"a2": named("Copycat")}, post_a=["a2"], after=1)
    check(g, {"power": {"A": 110}, "power+1": {"A": 110}, "hot_dogs": {"A": 4}})


# ------------------------------------------------------------------ CR 5.1.7 nullified or copied


def test_cr_5_1_7_a_play_returned_to_hand_nullifies_its_ongoing_effect() -> None:
    # Reload picks Member Bounce up from the discard in battle 2: its "still ongoing" +10 is
    # nullified at once (CR 5.1.7); battle 1 stays as it was.
    g = game(
        "Member Bounce",
        hand_a={"a2": named("Reload")},
        after=1,
        after_a=[run("A", "a2", choices={"search": "c"})],
    )
    check(g, {"power": {"A": 110}, "power+1": {"A": 100}, "hand_has": {"A": ["c"]}})


def test_cr_5_1_7_a_nullified_ongoing_effect_leaves_resolved_battles_alone() -> None:
    # B's The 12th Man (-10 to all A's heroes) is cancelled by Pulling The Plug in battle 2:
    # battle 1 keeps its -10, battle 2 and later have none.
    g = game(
        "Pulling The Plug",
        run=None,
        hand_b={"b1": named("The 12th Man")},
        b_runs=["b1"],
        after=2,
        after_a=["c"],
    )
    check(g, {"power": {"A": 90}, "power+1": {"A": 100}, "power+2": {"A": 100}})


def test_cr_5_1_7_copying_creates_a_new_instance_that_replaces_the_old() -> None:
    # Transfer Portal (+30 to the hero next battle), then Copycat copies it: the new instance
    # replaces the old, so next battle gets +30 once; this battle gets both -30s (instant).
    g = game("Transfer Portal", hand_a={"a2": named("Copycat")}, post_a=["a2"], after=1)
    check(g, {"power": {"A": 40}, "power+1": {"A": 130}, "hot_dogs": {"A": 4}})


# ------------------------------------------------------------------ CR 5.2.3 discards


def test_cr_5_2_3_a_a_discard_requirement_that_cannot_be_met_nullifies_the_play() -> None:
    # Trade-Up with no other play in hand: no discard, no draw; the cost stays paid (5.2.2).
    g = game("Trade-Up", run={})
    check(g, {"hand": {"A": []}, "playbook": {"A": 26}, "hot_dogs": {"A": 8}})
    # Three Strikes You're Out with no hero in hand (four substitutions emptied it): no coin
    # is flipped at all, B keeps its power, the cost is paid.
    subs: dict[str, Any] = {
        "before_runs": [((), (), "AB1", None), ((), (), "AB2", None), ((), (), "AB3", None)],
        "sub_a": "AB4",
    }
    g = game("Three Strikes You're Out", run={}, **subs)
    check(g, {"power": {"B": 100}, "hot_dogs": {"A": 1}, "bench": {"A": []}})
    g = game("Three Strikes You're Out", run={"random": ["heads"] * 3}, **subs)
    check(g, {"error": "unexpected_random"})


def test_cr_5_2_3_b_a_discard_that_is_an_effect_is_done_as_far_as_possible() -> None:
    # Sacrifice And Scheme with one hero in hand: both plays are drawn, one hero discarded.
    g = game(
        "Sacrifice And Scheme",
        before_runs=[((), (), "AB1", None), ((), (), "AB2", None)],
        sub_a="AB3",
        run={"drawn": ["x1", "x2"], "choices": {"discard": ["AB4"]}},
    )
    check(g, {"hand_has": {"A": ["x1", "x2"]}, "bench": {"A": []}, "discard_has": {"A": ["AB4"]}})


# ------------------------------------------------------------------ CR 2.1.2 costs never below 0


def test_cr_2_1_2_a_cost_reduced_below_zero_is_zero() -> None:
    # Flash Sale (1, less 1: free) then Trash Bandit (0, less 1: still 0, no hot dog gained).
    g = game("Flash Sale", hot_dogs=(5, 10), hand_a={"a2": named("Trash Bandit")}, post_a=["a2"])
    check(g, {"hot_dogs": {"A": 6}})
    # Sacrifice it All to Win: the first play next battle is free; a 0-cost one gains nothing.
    g = game(
        "Sacrifice it All to Win",
        hot_dogs=(5, 10),
        hand_a={"a2": named("Trash Bandit")},
        after=1,
        after_a=["a2"],
    )
    check(g, {"hot_dogs": {"A": 4}})


def test_cr_2_1_2_two_reductions_on_a_cheap_play_stop_at_zero() -> None:
    # Flash Sale and Bundle Deal (each 1 less) on Robin Who (1): free, not a hot dog back.
    g = game(
        "Flash Sale",
        hot_dogs=(5, 10),
        hand_a={"a2": named("Bundle Deal"), "a3": named("Robin Who")},
        post_a=["a2", "a3"],
    )
    check(g, {"hot_dogs": {"A": 5}, "power": {"A": 105, "B": 95}})


# ------------------------------------------------------------------ CR 3.2 substitution


def test_cr_3_2_a_next_battle_power_effect_reaches_the_substituted_hero() -> None:
    # Transfer Portal: "your hero in the next battle gets +30". A substitutes AB1 (200) in
    # battle 2 before the reveal (CR 4.3.2): AB1 is that hero; A2 never entered the battle,
    # so it had no effect to lose (CR 3.2). Rulings "transfer-portal-substituted-hero" and
    # "which-hero-a-later-battle-effect-reaches" (engine/boba/rulings.json) say the same.
    g = game("Transfer Portal", after=1, after_sub_a="AB1")
    check(g, {"hero+1": {"A": "AB1"}, "power+1": {"A": 230}, "discard_has": {"A": ["A2"]}})


def test_cr_3_2_a_hero_leaving_the_battle_zone_loses_this_battles_power_changes() -> None:
    # Robin Who (+5 to A's hero, -5 to B's), then Toss And Trade on heads replaces A's hero:
    # the +5 left with A1; AB1 keeps its printed 200; B keeps its -5.
    g = game(
        "Robin Who",
        hand_a={"a2": named("Toss And Trade")},
        post_a=[run("A", "a2", random=["heads"], choices={"hero": "AB1"})],
    )
    check(g, {"hero": {"A": "AB1"}, "power": {"A": 200, "B": 95}})


def test_cr_3_2_an_ongoing_aura_applies_to_the_hero_that_replaces_the_old_one() -> None:
    # Member Bounce (+10 to all A's heroes): a hero swapped in by Sub And Power-Up has it too.
    g = game(
        "Member Bounce",
        hand_a={"a2": named("Sub And Power-Up")},
        post_a=[run("A", "a2", choices={"hero": "AB1"})],
    )
    check(g, {"hero": {"A": "AB1"}, "power": {"A": 220}})


# ------------------------------------------------------------------ triggers in later battles


def test_cr_5_1_3_a_rest_of_game_trigger_fires_in_every_later_battle() -> None:
    # Make It, Take It: each win gives the next hero +5. A wins battles 1-3 (the third with
    # the +5); then with 95 in battle 3 the +5 only draws it, and battle 4 gets nothing.
    g = game("Make It, Take It", a=[150, 150, 100, 100, 100, 100, 100], after=3)
    check(
        g,
        {
            "winner": "A",
            "power+1": {"A": 155},
            "power+2": {"A": 105},
            "power+3": {"A": 105},
        },
    )
    g2 = game("Make It, Take It", a=[150, 150, 95, 100, 100, 100, 100], after=3)
    check(g2, {"power+2": {"A": 100}, "winner+2": None, "power+3": {"A": 100}})


def test_cr_5_1_3_a_die_rolled_by_the_opponent_later_fires_pay_the_price() -> None:
    # Pay The Price in battle 1; in battle 2 B rolls (Roll And Hope, a 3): B's hero -5.
    g = game(
        "Pay The Price",
        hand_b={"b1": named("Roll And Hope")},
        after=1,
        after_b=[run("B", "b1", random=[3])],
    )
    check(g, {"power+1": {"A": 100, "B": 95}})


def test_cr_5_1_3_a_next_battle_start_trigger_fires_once() -> None:
    # Rotten Dogs: B loses 2 at the start of battle 2, and not again at battle 3.
    g = game("Rotten Dogs", after=2)
    check(g, {"hot_dogs": {"A": 8, "B": 8}})


def test_cr_5_1_3_a_trigger_on_the_opponents_plays_fires_in_later_battles() -> None:
    # You're Not Alone: in battle 2 B runs two plays; A draws one for each.
    g = game(
        "You're Not Alone",
        hand_b={"b1": play("zero", 0), "b2": play("zero", 0)},
        after=1,
        after_b=[run("B", "b1", drawn=["x1"]), run("B", "b2", drawn=["x2"])],
    )
    check(g, {"hand_has": {"A": ["x1", "x2"]}})


def test_game_harness_follows_honors_from_the_engine() -> None:
    g = game("Robin Who", b=[150] * 7, after=1)
    assert isinstance(g, Game)
    # B won battle 1: B decided first in battle 2
    second = [a for a in g.actions if a["do"] in ("pass", "substitute")][4]
    assert second["player"] == "B"
