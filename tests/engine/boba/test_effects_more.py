"""More of the effect vocabulary over several battles: durations, triggers, choices."""

from __future__ import annotations

from typing import Any

from engine.boba.record import parse_record
from engine.boba.state import GameState
from tests.engine.boba.helpers import act, make_record, passes, run_json

PM = "playmaker"


def play(name: str, cost: int, *steps: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": name, "cost": cost, "effect": list(steps), **extra}


def filler(n: int) -> dict[str, dict[str, Any]]:
    """Plays to draw at the end of battles: fA1, fB1, fA2, ..."""
    return {f"f{p}{i}": play(f"Filler {p}{i}", 9) for i in range(1, n + 1) for p in "AB"}


def draws(i: int) -> list[dict[str, Any]]:
    return [act("A", "draw", f"fA{i}"), act("B", "draw", f"fB{i}")]


def test_cr_5_1_4_absolute_battles_reach_only_the_future() -> None:
    plays = {
        "a1": play(
            "Prevent late",
            0,
            {"prevent": "run_plays", "who": "opp", "battles": {"from": 2, "to": 2}},
        ),
        "b1": play("B buff", 0, {"power": 5}),
        **filler(1),
    }
    actions = [*passes(), act("A", "run", "a1"), act("A", "pass"), act("B", "pass"), *draws(1)]
    actions += [*passes(), act("A", "pass"), act("B", "run", "b1")]
    rec = make_record(PM, plays=plays, hands={"A": ["a1"], "B": ["b1"]}, actions=actions)
    err = run_json(rec)["error"]
    assert (err["action"], err["code"]) == (10, "plays_prevented")


def test_trigger_actor_is_the_loser() -> None:
    plays = {
        "a1": play(
            "Lose and discard",
            0,
            {
                "on": "lose",
                "who": "both",
                "battles": "rest",
                "do": [{"lose_hot_dogs": 1, "who": "actor"}],
            },
        )
    }
    rec = make_record(
        PM,
        a=[90] + [100] * 6,
        plays=plays,
        hands={"A": ["a1"]},
        actions=[*passes(), act("A", "run", "a1"), *passes()],
    )
    out = run_json(rec)
    assert out["battles"][0]["winner"] == "B"
    assert out["hot_dogs"] == {"A": 9, "B": 10}


def test_glossary_cancelled_play_still_costs() -> None:
    chance = play(
        "Chance",
        0,
        {
            "on": "play_run",
            "who": "opp",
            "battles": "rest",
            "do": [{"roll": 1}, {"if": {"die": [1, 6]}, "then": [{"cancel": "triggering_play"}]}],
        },
    )
    plays = {"a1": chance, "b1": play("Buff", 2, {"power": 30})}
    base = [*passes(), act("A", "run", "a1"), act("A", "pass")]
    stopped = make_record(
        PM,
        plays=plays,
        hands={"A": ["a1"], "B": ["b1"]},
        actions=[*base, act("B", "run", "b1", random=[6]), act("B", "pass")],
    )
    out = run_json(stopped)
    assert out["battles"][0]["power"]["B"] == 100
    assert out["hot_dogs"]["B"] == 8
    allowed = make_record(
        PM,
        plays=plays,
        hands={"A": ["a1"], "B": ["b1"]},
        actions=[*base, act("B", "run", "b1", random=[3]), act("B", "pass")],
    )
    assert run_json(allowed)["battles"][0]["power"]["B"] == 130


def test_compare_condition() -> None:
    more = {
        "compare": {
            "left": {"count": "battles_won", "whose": "opp"},
            "op": ">",
            "right": {"count": "battles_won"},
        }
    }
    plays = {"a1": play("Back", 0, {"if": more, "then": [{"power": 30}]}), **filler(1)}
    # B wins battle 1 and has honors in battle 2
    actions = [*passes(), *passes(), *draws(1), *passes("B"), act("B", "pass")]
    actions += [act("A", "run", "a1"), act("A", "pass")]
    rec = make_record(
        PM, a=[90, 100] + [100] * 5, plays=plays, hands={"A": ["a1"]}, actions=actions
    )
    out = run_json(rec)
    assert out["battles"][1]["power"]["A"] == 130


def test_chosen_weapon_is_frozen_into_the_ongoing_effect() -> None:
    plays = {
        "a1": play(
            "Dead Red",
            0,
            {
                "power": -10,
                "target": "opp",
                "battles": "rest",
                "while": {"weapon": "chosen", "whose": "opp"},
            },
        ),
        **filler(1),
    }
    b = [(100, "Ice"), (100, "Ice")] + [100] * 5
    actions = [*passes(), act("A", "run", "a1", choices={"weapon": "Ice"}), *passes(), *draws(1)]
    actions += [*passes(), *passes()]
    out = run_json(make_record(PM, b=b, plays=plays, hands={"A": ["a1"]}, actions=actions))
    assert [bt["power"]["B"] for bt in out["battles"]] == [90, 90]


def test_each_target_uses_its_own_count() -> None:
    plays = {
        "a1": play(
            "Head Start",
            0,
            {"power": 40, "target": "both"},
            {"set_power": {"count": "starting_power", "whose": "target"}, "target": "both"},
            {"power": 10},
        )
    }
    rec = make_record(
        PM,
        a=[120] * 7,
        b=[150] * 7,
        plays=plays,
        hands={"A": ["a1"]},
        actions=[*passes(), act("A", "run", "a1"), *passes()],
    )
    assert run_json(rec)["battles"][0]["power"] == {"A": 130, "B": 150}


def test_weapon_change_feeds_the_super_tie_breaker() -> None:
    plays = {"a1": play("Only Super", 0, {"set_weapon": "Super", "target": "own"})}
    rec = make_record(
        PM, plays=plays, hands={"A": ["a1"]}, actions=[*passes(), act("A", "run", "a1"), *passes()]
    )
    first = run_json(rec)["battles"][0]
    assert (first["winner"], first["decided_by"]) == ("A", "super")


def test_honors_override_whatever_the_result() -> None:
    plays = {"b1": play("Easy Choice", 0, {"honors": "chosen"})}
    rec = make_record(
        PM,
        b=[90] * 7,
        plays=plays,
        hands={"B": ["b1"]},
        actions=[
            *passes(),
            act("A", "pass"),
            act("B", "run", "b1", choices={"honors": "B"}),
            act("B", "pass"),
        ],
    )
    first = run_json(rec)["battles"][0]
    assert (first["winner"], first["honors_next"]) == ("A", "B")


def test_cr_5_1_7_play_returned_to_hand_ends_its_ongoing_effect() -> None:
    plays = {
        "a1": play("Aura", 0, {"power": 10, "battles": "rest"}),
        "a2": play("Reload", 0, {"search": "used_plays"}),
        **filler(1),
    }
    actions = [*passes(), act("A", "run", "a1"), *passes(), *draws(1), *passes()]
    actions += [act("A", "run", "a2", choices={"search": "a1"}), *passes()]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["a1", "a2"]}, actions=actions))
    assert [bt["power"]["A"] for bt in out["battles"]] == [110, 100]


def test_trigger_draws_at_battle_end_become_draw_actions() -> None:
    plays = {
        "a1": play("Money Line", 0, {"on": "win", "do": [{"draw": 2, "deck": "plays"}]}),
        **filler(3),
    }
    rec = make_record(
        PM,
        a=[150] * 7,
        plays=plays,
        hands={"A": ["a1"]},
        actions=[*passes(), act("A", "run", "a1"), *passes()],
    )
    assert run_json(rec)["next"] == {"player": "A", "expects": ["draw"]}
    # two from the trigger plus the end-of-battle draw
    rec["actions"] += [act("A", "draw", "fA1"), act("A", "draw", "fA2"), act("B", "draw", "fB1")]
    out = run_json(rec)
    assert out["next"] == {"player": "A", "expects": ["draw"]}
    rec["actions"] += [act("A", "draw", "fA3")]
    assert run_json(rec)["next"] == {"player": "A", "expects": ["substitute", "pass"]}
    rec["actions"] += [act("B", "draw", "fB2")]
    assert run_json(rec)["error"]["code"] == "wrong_phase"


def test_free_substitution_next_battle_and_blocked_opponent() -> None:
    plays = {
        "a1": play(
            "Pinch",
            0,
            {"sub_cost": 0, "battles": [1]},
            {"prevent": "substitute", "who": "opp", "battles": [1]},
        ),
        **filler(1),
    }
    actions = [*passes(), act("A", "run", "a1"), *passes(), *draws(1)]
    actions += [act("A", "substitute", "AB1", draw="AD1"), act("B", "substitute", "BB1", draw=None)]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=actions))
    assert out["hot_dogs"]["A"] == 10
    assert (out["error"]["action"], out["error"]["code"]) == (8, "substitution_prevented")


def test_legal_actions_list_what_may_be_done() -> None:
    plays = {"a1": play("Cheap", 1, {"power": 1}), "a2": play("Dear", 11, {"power": 1})}
    rec = parse_record(make_record(PM, plays=plays, hands={"A": ["a1", "a2"]}, actions=[]))
    state = GameState.initial(rec)
    kinds = [(a.player, a.do, a.card) for a in state.legal_actions()]
    assert kinds[0] == ("A", "pass", None)
    assert {c for p, d, c in kinds if d == "substitute"} == {"AB1", "AB2", "AB3", "AB4"}
    for a in parse_record(make_record(PM, actions=passes())).actions:
        state.apply(a)
    runs = [a.card for a in state.legal_actions() if a.do == "run"]
    assert runs == ["a1"]
    assert state.next_expected() == {"player": "A", "expects": ["run", "pass"]}
    clone = state.clone()
    clone.apply(parse_record(make_record(PM, actions=[act("A", "pass")])).actions[0])
    assert state.turn == 0 and clone.turn == 1


def test_discards_chosen_by_choice_random_ones_from_drawn() -> None:
    plays = {
        "a1": play("Both discard", 0, {"discard": 1, "from": "hand_plays", "who": "both"}),
        "a2": play("A keep", 9),
        "a3": play("A fodder", 9),
        "b1": play("B keep", 9),
        "b2": play("B fodder", 9),
        "a4": play("Random", 0, {"discard": 1, "from": "hand_plays", "who": "opp", "random": True}),
    }
    hands = {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2"]}
    ok = [
        *passes(),
        act("A", "run", "a1", choices={"discard": ["a3", "b2"]}),
        act("A", "run", "a4", drawn=["b1"]),
    ]
    rec = make_record(PM, plays=plays, hands=hands, actions=ok)
    assert run_json(rec)["error"] is None
    state = replay_state(rec)
    assert state.p[0].hand == ["a2"]
    assert state.p[1].hand == []
    assert state.p[1].discard == ["b2", "b1"]


def replay_state(rec: dict[str, Any]) -> GameState:
    from engine.boba.replay import replay

    out = replay(rec)
    assert out.state is not None
    return out.state
