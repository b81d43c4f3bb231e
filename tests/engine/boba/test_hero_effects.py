"""Effects that follow a hero, not a battle zone (issue 11).

Delayed Recovery: "Choose one of your unrevealed Heroes. When that Hero is revealed, ...". The
record chooses the card (``choices.hero``); the effect follows that card through moves in the
lineup, and ends if it leaves the lineup: a hero substituted out goes to the discard
face-down, is never revealed (CR Glossary: Substitute, Discard; README decision 8) and loses
every effect waiting on it (CR 3.2). Plan Ahead ("your Hero in that Battle") names a battle and
keeps following it.

Helper lineups (tests/engine/boba/helpers.py): battle heroes A1..A7 / B1..B7 (100, Fire),
bench AB1..AB4 / BB1..BB4 (200, Ice), spare deck heroes AD1..AD9 / BD1..BD9 (100 + 10 * (n -
1), Steel). Every player starts with 7 hot dogs (3 in the discard), so a recovery shows.
"""

from __future__ import annotations

from typing import Any

from engine.boba.replay import replay
from tests.engine.boba.helpers import act, make_record, passes, run_json

PM = "playmaker"
HOT_DOGS = 7


def _plays() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {
        "dr": {"name": "Delayed Recovery"},
        "pa": {"name": "Plan Ahead"},
        "ctf": {"name": "Change The Future"},
        "lmr": {"name": "Last-Minute Re-Org"},
        "lr": {"name": "Lineup Randomizer"},
    }
    for i in range(1, 8):  # drawn at the end of battles
        out[f"xa{i}"] = {"name": f"Spare A {i}", "cost": 9, "effect": [{"power": 1}]}
        out[f"xb{i}"] = {"name": f"Spare B {i}", "cost": 9, "effect": [{"power": 1}]}
    return out


def _record(actions: list[dict[str, Any]], b_hand: list[str] | None = None) -> dict[str, Any]:
    return make_record(
        PM,
        actions=actions,
        plays=_plays(),
        hands={"A": ["dr", "pa", "ctf", "lmr"], "B": b_hand or []},
        hot_dogs=HOT_DOGS,
    )


def _draws(n: int, first: str = "A") -> list[dict[str, Any]]:
    second = "B" if first == "A" else "A"
    return [
        act(first, "draw", f"x{first.lower()}{n}"),
        act(second, "draw", f"x{second.lower()}{n}"),
    ]


def _quiet(n: int) -> list[dict[str, Any]]:
    """Battle n with no substitution and no play (honors A), then the draws."""
    return passes("A") + passes("A") + _draws(n)


def _battle_1(*runs: dict[str, Any]) -> list[dict[str, Any]]:
    """Battle 1: A runs the plays, both pass, then the draws (every battle 1 is drawn)."""
    return [*passes("A"), *runs, act("A", "pass"), act("B", "pass"), *_draws(1)]


def _dr(**choices: Any) -> dict[str, Any]:
    return act("A", "run", "dr", choices=choices)


def _sub_a3_out() -> list[dict[str, Any]]:
    """Battle 3: A substitutes AB1 (200) for A3 before the reveal."""
    return [act("A", "substitute", "AB1"), act("B", "pass"), *passes("A")]


def _players(record: dict[str, Any]) -> dict[str, Any]:
    r = replay(record)
    assert r.legal, r.error
    assert r.state is not None
    players: dict[str, Any] = r.state.snapshot()["players"]
    return players


def _ongoing(record: dict[str, Any]) -> list[dict[str, Any]]:
    r = replay(record)
    assert r.state is not None
    ongoing: list[dict[str, Any]] = r.state.snapshot()["ongoing"]
    return ongoing


# ------------------------------------------------------------------ the hero is revealed


def test_delayed_recovery_applies_when_the_chosen_hero_is_revealed() -> None:
    # A3 chosen in battle 1; revealed in battle 3: -10 (90 v 100, B wins) and 2 hot dogs back
    # (7 - 1 paid + 2 = 8).
    rec = _record(_battle_1(_dr(hero="A3")) + _quiet(2) + passes("A") + passes("A"))
    out = run_json(rec)
    assert out["legal"], out["error"]
    b3 = out["battles"][2]
    assert b3["heroes"]["A"] == "A3"
    assert b3["power"]["A"] == 90
    assert b3["modifiers"]["A"] == [{"source": "dr", "amount": -10}]
    assert b3["winner"] == "B"
    assert [b["modifiers"]["A"] for b in out["battles"][:2]] == [[], []]
    a = _players(rec)["A"]
    assert (a["hot_dogs"], a["hot_dogs_discarded"]) == (8, 2)


def test_delayed_recovery_waits_on_the_chosen_hero_in_the_snapshot() -> None:
    rec = _record(_battle_1(_dr(hero="A5")))
    assert {"source": "dr", "kind": "on", "hero": "A5"} in _ongoing(rec)


# ------------------------------------------------------------------ substituted out


def test_cr_3_2_effect_on_a_substituted_hero_never_applies_delayed_recovery() -> None:
    # A3 is substituted out before battle 3: it goes to the discard face-down, never revealed.
    # The substitute AB1 (200) is not "that Hero": no -10, no recovery (7 - 1 - 2 = 4).
    rec = _record(_battle_1(_dr(hero="A3")) + _quiet(2) + _sub_a3_out())
    out = run_json(rec)
    assert out["legal"], out["error"]
    b3 = out["battles"][2]
    assert b3["heroes"]["A"] == "AB1"
    assert (b3["power"]["A"], b3["modifiers"]["A"], b3["winner"]) == (200, [], "A")
    a = _players(rec)["A"]
    assert (a["hot_dogs"], a["hot_dogs_discarded"]) == (4, 6)
    assert "A3" in a["discard"]
    assert [o for o in _ongoing(rec) if o["source"] == "dr"] == []


def test_cr_3_2_delayed_recovery_ends_when_an_opponents_play_discards_the_hero() -> None:
    # B's Lineup Randomizer discards A's heroes of battles 2-7 (A3 among them) and puts AD1..AD6
    # there: AD2 (110) in battle 3 gets nothing and A recovers nothing (7 - 1 = 6).
    runs = [
        *passes("A"),
        _dr(hero="A3"),
        act("A", "pass"),
        act("B", "run", "lr", drawn=["AD1", "AD2", "AD3", "AD4", "AD5", "AD6"]),
        act("B", "pass"),
    ]
    rec = _record(runs + _draws(1) + _quiet(2) + passes("A") + passes("A"), b_hand=["lr"])
    out = run_json(rec)
    assert out["legal"], out["error"]
    b3 = out["battles"][2]
    assert (b3["heroes"]["A"], b3["power"]["A"], b3["modifiers"]["A"]) == ("AD2", 110, [])
    assert _players(rec)["A"]["hot_dogs"] == 6


def test_plan_ahead_names_a_battle_so_the_substitute_gets_it() -> None:
    # "When your Hero in that Battle is revealed": a battle, not a card (docs ruling).
    rec = _record(
        _battle_1(act("A", "run", "pa", choices={"battle": 3})) + _quiet(2) + _sub_a3_out()
    )
    out = run_json(rec)
    assert out["legal"], out["error"]
    assert out["battles"][2]["modifiers"]["A"] == [{"source": "pa", "amount": 35}]


# ------------------------------------------------------------------ the hero moves


def test_delayed_recovery_goes_with_a_hero_reordered_to_a_later_battle() -> None:
    # Change The Future puts A3 in battle 5 (A4 in battle 3): the -10 comes in battle 5.
    order = ["A2", "A4", "A5", "A3", "A6", "A7"]
    runs = _battle_1(_dr(hero="A3"), act("A", "run", "ctf", choices={"order": order}))
    rec = _record(runs + _quiet(2) + _quiet(3) + _quiet(4) + passes("A") + passes("A"))
    out = run_json(rec)
    assert out["legal"], out["error"]
    assert out["battles"][2]["heroes"]["A"] == "A4"
    assert out["battles"][2]["modifiers"]["A"] == []
    b5 = out["battles"][4]
    assert (b5["heroes"]["A"], b5["power"]["A"]) == ("A3", 90)
    assert b5["modifiers"]["A"] == [{"source": "dr", "amount": -10}]
    # 7 - 1 - 2 paid, + 2 recovered when A3 was revealed
    assert _players(rec)["A"]["hot_dogs"] == 6


def test_delayed_recovery_fires_when_a_swap_reveals_the_hero_now() -> None:
    # Battle 2: Last-Minute Re-Org swaps A2 with A3 (battle 3): A3 is revealed in battle 2 and
    # gets -10 at once (90 v 100); battle 3's hero (A2) gets nothing.
    runs = _battle_1(_dr(hero="A3")) + passes("A")
    runs += [act("A", "run", "lmr", choices={"battle": 3}), act("A", "pass"), act("B", "pass")]
    rec = _record(runs)
    out = run_json(rec)
    assert out["legal"], out["error"]
    b2 = out["battles"][1]
    assert (b2["heroes"]["A"], b2["power"]["A"], b2["winner"]) == ("A3", 90, "B")
    assert b2["modifiers"]["A"] == [{"source": "dr", "amount": -10}]
    assert _players(rec)["A"]["hot_dogs"] == 7 - 1 - 3 + 2
    assert [o for o in _ongoing(rec) if o["source"] == "dr"] == []


# ------------------------------------------------------------------ version-1 records


def test_version_1_record_choosing_a_battle_follows_the_hero_there_when_run() -> None:
    rec = _record(_battle_1(_dr(battle=3)) + _quiet(2) + passes("A") + passes("A"))
    out = run_json(rec)
    assert out["legal"], out["error"]
    assert out["battles"][2]["modifiers"]["A"] == [{"source": "dr", "amount": -10}]
    assert _players(rec)["A"]["hot_dogs"] == 8


def test_cr_3_2_version_1_record_choosing_a_battle_substituted_never_applies() -> None:
    rec = _record(_battle_1(_dr(battle=3)) + _quiet(2) + _sub_a3_out())
    out = run_json(rec)
    assert out["legal"], out["error"]
    assert out["battles"][2]["modifiers"]["A"] == []
    assert _players(rec)["A"]["hot_dogs"] == 4


def test_version_1_record_with_a_bare_battle_number_still_replays() -> None:
    # "choices": 3 answers whatever the play asks: the battle, so the hero in battle 3.
    rec = _record(_battle_1(act("A", "run", "dr", choices=3)))
    assert {"source": "dr", "kind": "on", "hero": "A3"} in _ongoing(rec)


# ------------------------------------------------------------------ choices.hero validation


def _error(choices: Any) -> dict[str, Any]:
    out = run_json(_record(_battle_1(act("A", "run", "dr", choices=choices))))
    assert out["legal"] is False
    err: dict[str, Any] = out["error"]
    return err


def test_choices_hero_must_be_one_of_the_runners_unrevealed_heroes() -> None:
    # A1 is revealed (battle 1), B3 is the opponent's, AB1 is on the bench.
    for hero in ("A1", "B3", "AB1"):
        err = _error({"hero": hero})
        assert (err["action"], err["code"], err["rule"]) == (2, "invalid_choice", "CR 5.1.1")
        assert "choices.hero" in err["message"]
        assert "A2, A3, A4, A5, A6, A7" in err["message"]


def test_choices_hero_is_required() -> None:
    err = _error({})
    assert (err["action"], err["code"]) == (2, "invalid_choice")
    assert "choices.hero" in err["message"]


def test_choices_hero_must_be_a_hero_card_of_the_record() -> None:
    for bad in ("ZZ", "pa"):
        err = _error({"hero": bad})
        assert (err["code"], err["field"], err["action"]) == (
            "malformed_record",
            "actions[2].choices.hero",
            None,
        )
