"""Sequence of play (CR 4), one test per rule, named after it."""

from __future__ import annotations

from tests.engine.boba.helpers import act, make_record, passes, run_json

SUB = "substitution"
PM = "playmaker"


def test_cr_4_1_2_rookie_higher_power_wins_each_battle() -> None:
    out = run_json(make_record("rookie", a=[150, 90, 150, 150, 150, 90, 90], b=[100] * 7))
    assert out["legal"] is True
    assert [bt["winner"] for bt in out["battles"]] == ["A", "B", "A", "A", "A"]
    assert out["trophies"] == {"A": 4, "B": 1}
    assert out["result"] == {"winner": "A", "decided_after_battle": 5, "sudden_death": []}
    assert "next" not in out


def test_cr_4_1_2_rookie_equal_power_is_a_draw_even_with_super() -> None:
    a = [(100, "Super")] + [200] * 6
    out = run_json(make_record("rookie", a=a, b=[100] * 7))
    first = out["battles"][0]
    assert (first["winner"], first["decided_by"]) == (None, "draw")


def test_cr_4_2_2_substitution_mode_equal_power_is_a_draw_even_with_super() -> None:
    rec = make_record(SUB, a=[(100, "Super")] + [200] * 6, b=[100] * 7, actions=passes())
    first = run_json(rec)["battles"][0]
    assert (first["winner"], first["decided_by"]) == (None, "draw")


def test_cr_4_3_2_super_tie_breaker_only_in_playmaker() -> None:
    actions = passes() + passes()
    rec = make_record(PM, a=[(100, "Super")] + [200] * 6, b=[100] * 7, actions=actions)
    first = run_json(rec)["battles"][0]
    assert (first["winner"], first["decided_by"]) == ("A", "super")


def test_cr_4_3_2_super_tie_breaker_needs_exactly_one_super() -> None:
    a = [(100, "Super")] + [200] * 6
    b = [(100, "Super")] + [100] * 6
    first = run_json(make_record(PM, a=a, b=b, actions=passes() + passes()))["battles"][0]
    assert (first["winner"], first["decided_by"]) == (None, "draw")


def test_cr_4_2_2_honors_pass_to_winner_of_most_recent_decided_battle() -> None:
    # battle 1: B wins; battle 2: draw (honors stay with B); battle 3: A wins
    a = [90, 100, 120, 100, 100, 100, 100]
    actions = passes("A") + passes("B") + passes("B")
    out = run_json(make_record(SUB, a=a, b=[100] * 7, actions=actions))
    assert [bt["honors_next"] for bt in out["battles"]] == ["B", "B", "A"]
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}


def test_cr_4_2_2_drawn_first_battle_keeps_starting_honors() -> None:
    out = run_json(make_record(SUB, honors="B", actions=passes("B")))
    assert out["battles"][0]["honors_next"] == "B"
    assert out["next"]["player"] == "B"


def test_cr_4_2_2_honors_player_decides_substitution_first() -> None:
    out = run_json(make_record(SUB, actions=[act("B", "pass")]))
    assert out["legal"] is False
    assert out["error"]["action"] == 0
    assert out["error"]["code"] == "not_your_turn"
    assert out["error"]["rule"] == "CR 4.2.2"


def test_cr_4_2_2_substitution_once_per_player_per_battle() -> None:
    actions = [
        act("A", "substitute", "AB1", draw="AD1"),
        act("A", "substitute", "AB2", draw="AD2"),
    ]
    err = run_json(make_record(SUB, actions=actions))["error"]
    assert (err["action"], err["code"], err["rule"]) == (1, "substitution_already_used", "CR 4.2.2")


def test_cr_4_2_2_no_second_chance_after_passing() -> None:
    actions = [act("A", "pass"), act("A", "substitute", "AB1", draw="AD1")]
    err = run_json(make_record(SUB, actions=actions))["error"]
    assert err["code"] == "substitution_decision_made"


def test_cr_4_2_2_substitution_costs_two_hot_dogs() -> None:
    rec = make_record(SUB, hot_dogs=1, actions=[act("A", "substitute", "AB1", draw="AD1")])
    err = run_json(rec)["error"]
    assert (err["code"], err["rule"]) == ("insufficient_hot_dogs", "CR 4.2.2")


def test_cr_4_2_2_substituted_hero_fights_and_bench_refills() -> None:
    actions = [act("A", "substitute", "AB1", draw="AD1"), act("B", "pass")]
    out = run_json(make_record(SUB, actions=actions, bench_power=150))
    first = out["battles"][0]
    assert first["heroes"] == {"A": "AB1", "B": "B1"}
    assert first["winner"] == "A"
    assert out["hot_dogs"] == {"A": 8, "B": 10}


def test_cr_4_2_2_substitution_draw_null_when_hero_deck_empty() -> None:
    actions = [act("A", "substitute", "AB1", draw=None), act("B", "pass")]
    out = run_json(make_record(SUB, actions=actions))
    assert out["legal"] is True


def test_cr_4_2_2_substitute_only_from_bench() -> None:
    err = run_json(make_record(SUB, actions=[act("A", "substitute", "A2", draw=None)]))["error"]
    assert err["code"] == "card_not_on_bench"


def test_cr_4_3_2_substitution_phase_rule_cited_in_playmaker() -> None:
    err = run_json(make_record(PM, actions=[act("B", "pass")]))["error"]
    assert (err["code"], err["rule"]) == ("not_your_turn", "CR 4.3.2")


BUFF = {"name": "Test Buff", "cost": 2, "effect": [{"power": 20, "target": "own"}]}


def test_cr_4_3_2_play_phase_honors_runs_first() -> None:
    rec = make_record(
        PM, plays={"pb": BUFF}, hands={"B": ["pb"]}, actions=[*passes(), act("B", "run", "pb")]
    )
    err = run_json(rec)["error"]
    assert (err["action"], err["code"], err["rule"]) == (2, "not_your_turn", "CR 4.3.2")


def test_cr_4_3_2_one_play_opportunity_per_battle() -> None:
    rec = make_record(
        PM,
        plays={"pa": BUFF},
        hands={"A": ["pa"]},
        actions=[*passes(), act("A", "pass"), act("A", "run", "pa")],
    )
    err = run_json(rec)["error"]
    assert (err["code"], err["rule"]) == ("play_opportunity_used", "CR 4.3.2")


def test_cr_4_3_2_plays_modify_power_and_cost_hot_dogs() -> None:
    rec = make_record(
        PM,
        plays={"pa": BUFF, "pa2": {**BUFF, "name": "Other Buff"}},
        hands={"A": ["pa", "pa2"]},
        actions=[*passes(), act("A", "run", "pa"), act("A", "run", "pa2"), *passes()],
    )
    out = run_json(rec)
    first = out["battles"][0]
    assert first["power"] == {"A": 140, "B": 100}
    assert first["modifiers"]["A"] == [
        {"source": "pa", "amount": 20},
        {"source": "pa2", "amount": 20},
    ]
    assert out["hot_dogs"] == {"A": 6, "B": 10}
    assert out["next"] == {"player": "A", "expects": ["draw"]}


def test_cr_4_3_2_end_of_battle_draws_in_either_order() -> None:
    rec = make_record(PM, plays={"pa": BUFF, "pb": {**BUFF, "name": "B Buff"}})
    rec["actions"] = [*passes(), *passes(), act("B", "draw", "pb"), act("A", "draw", "pa")]
    out = run_json(rec)
    assert out["legal"] is True
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}


def test_cr_4_3_2_no_draw_when_playbook_is_empty() -> None:
    rec = make_record(PM, playbook_size=0, actions=[*passes(), *passes()])
    out = run_json(rec)
    assert out["next"] == {"player": "A", "expects": ["substitute", "pass"]}


def test_cr_4_3_2_draw_must_come_when_due() -> None:
    rec = make_record(PM, plays={"pa": BUFF}, actions=[*passes(), *passes(), act("A", "pass")])
    err = run_json(rec)["error"]
    assert err["code"] == "wrong_phase"


def test_cr_2_1_2_play_needs_its_full_cost() -> None:
    rec = make_record(
        PM,
        hot_dogs=1,
        plays={"pa": BUFF},
        hands={"A": ["pa"]},
        actions=[*passes(), act("A", "run", "pa")],
    )
    err = run_json(rec)["error"]
    assert (err["code"], err["rule"]) == ("insufficient_hot_dogs", "CR 2.1.2")


def test_cr_4_3_2_card_must_be_in_hand() -> None:
    rec = make_record(PM, plays={"pa": BUFF}, actions=[*passes(), act("A", "run", "pa")])
    assert run_json(rec)["error"]["code"] == "card_not_in_hand"


def test_cr_4_4_1_game_ends_at_four_trophies() -> None:
    out = run_json(make_record("rookie", a=[200] * 7, b=[100] * 7))
    assert len(out["battles"]) == 4
    assert out["result"]["decided_after_battle"] == 4


def test_cr_4_4_1_stop_at_four_off_plays_all_seven_same_result() -> None:
    rec = make_record("rookie", a=[200] * 7, b=[100] * 7, options={"stop_at_four": False})
    out = run_json(rec)
    assert len(out["battles"]) == 7
    assert out["trophies"] == {"A": 7, "B": 0}
    assert out["result"] == {"winner": "A", "decided_after_battle": 4, "sudden_death": []}


def test_cr_4_4_1_actions_after_the_end_are_illegal() -> None:
    rec = make_record("rookie", a=[200] * 7, actions=[act("A", "pass")])
    err = run_json(rec)["error"]
    assert (err["code"], err["rule"]) == ("game_over", "CR 4.4.1")


def test_cr_4_4_2_equal_trophies_is_a_drawn_game() -> None:
    out = run_json(make_record("rookie", a=[200, 90, 100, 100, 100, 100, 100]))
    assert out["result"] == {"winner": None, "decided_after_battle": 7, "sudden_death": []}
    assert out["trophies"] == {"A": 1, "B": 1}


def test_cr_4_4_3_sudden_death_with_tiebreakers() -> None:
    rec = make_record(
        "rookie",
        a=[200, 90, 100, 100, 100, 100, 100],
        options={"stop_at_four": True, "tiebreakers": True},
    )
    out = run_json(rec)
    assert out["result"] is None
    # B won battle 2, the most recent decided battle: B has honors and reveals first
    assert out["next"] == {"player": "B", "expects": ["reveal"]}
    rec["actions"] = [act("B", "reveal", "BD1"), act("A", "reveal", "AD1")]
    rec["actions"] += [act("B", "reveal", "BD2"), act("A", "reveal", "AD3")]
    out = run_json(rec)
    sd = out["result"]["sudden_death"]
    assert [r["decided_by"] for r in sd] == ["draw", "power"]
    assert out["result"]["winner"] == "A"
    assert out["result"]["decided_after_battle"] == 7


def test_cr_4_4_3_sudden_death_super_weapon_rule_in_every_mode() -> None:
    rec = make_record(
        "rookie",
        a=[200, 90, 100, 100, 100, 100, 100],
        options={"stop_at_four": True, "tiebreakers": True},
    )
    rec["cards"]["BD1"]["weapon"] = "Super"
    rec["actions"] = [act("B", "reveal", "BD1"), act("A", "reveal", "AD1")]
    out = run_json(rec)
    assert out["result"]["winner"] == "B"
    assert out["result"]["sudden_death"][0]["decided_by"] == "super"


def test_cr_4_4_3_sudden_death_honors_reveals_first() -> None:
    rec = make_record(
        "rookie",
        a=[200, 90, 100, 100, 100, 100, 100],
        options={"stop_at_four": True, "tiebreakers": True},
        actions=[act("A", "reveal", "AD1")],
    )
    # B won battle 2, the last decided battle: B has honors
    err = run_json(rec)["error"]
    assert (err["code"], err["rule"]) == ("not_your_turn", "CR 4.4.3")


def test_cr_4_4_1_no_draws_after_the_battle_that_decides_the_game() -> None:
    actions: list = []
    plays = {}
    for n in range(1, 5):
        actions += [*passes(), *passes()]
        if n < 4:
            actions += [act("A", "draw", f"pa{n}"), act("B", "draw", f"pb{n}")]
            plays[f"pa{n}"] = {**BUFF, "name": f"A{n}"}
            plays[f"pb{n}"] = {**BUFF, "name": f"B{n}"}
    out = run_json(make_record(PM, a=[200] * 7, plays=plays, actions=actions))
    assert out["legal"] is True, out["error"]
    assert out["result"]["decided_after_battle"] == 4
    extra = make_record(PM, a=[200] * 7, plays=plays, actions=[*actions, act("A", "draw", "pa1")])
    assert run_json(extra)["error"]["code"] == "game_over"


def test_cr_4_4_1_stop_at_four_off_no_draws_follow_any_battle_after_the_decision() -> None:
    """Decision 5: the remaining battles are played, but the game is decided at 4 trophies, and
    the spec's "no draws follow the battle that decides the game" holds for every later battle."""
    actions: list = []
    plays = {}
    for n in range(1, 5):
        actions += [*passes(), *passes()]
        if n < 4:
            actions += [act("A", "draw", f"pa{n}"), act("B", "draw", f"pb{n}")]
            plays[f"pa{n}"] = {**BUFF, "name": f"A{n}"}
            plays[f"pb{n}"] = {**BUFF, "name": f"B{n}"}
    plays["pa9"] = {**BUFF, "name": "A9"}
    options = {"stop_at_four": False, "tiebreakers": False}
    # Battle 5 is played straight after battle 4 (no draws), then battle 6 the same way.
    rest = [*passes(), *passes(), *passes(), *passes()]
    out = run_json(
        make_record(PM, a=[200] * 7, plays=plays, actions=[*actions, *rest], options=options)
    )
    assert out["legal"] is True, out["error"]
    assert len(out["battles"]) == 6 and out["next"]["expects"] == ["substitute", "pass"]
    late_draw = make_record(
        PM,
        a=[200] * 7,
        plays=plays,
        options=options,
        actions=[*actions, *passes(), *passes(), act("A", "draw", "pa9")],
    )
    assert run_json(late_draw)["error"] is not None


def test_trace_has_state_after_each_action() -> None:
    from engine.boba.replay import replay

    r = replay(make_record(SUB, actions=passes()))
    assert len(r.states) == 2
    assert r.states[0].turn == 1
    assert r.states[1].battle == 2


def test_replay_upto_and_what_if() -> None:
    from engine.boba.actions import Action
    from engine.boba.record import parse_record
    from engine.boba.replay import replay, what_if

    rec = parse_record(make_record(SUB, bench_power=150, actions=passes()))
    assert replay(rec, upto=1).to_json()["next"] == {
        "player": "B",
        "expects": ["substitute", "pass"],
    }
    alt = what_if(rec, 0, Action("A", "substitute", "AB1", None))
    assert alt.battles[0].winner == 0
    assert alt.to_json()["hot_dogs"]["A"] == 8
