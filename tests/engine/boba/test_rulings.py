"""Rulings on card texts (engine/boba/rulings.json): the data file is sound, every ruling is
pinned by a test that exists, the replay lists the rulings of the cards run, and one
behaviour test per ruling that no older test pins (each replays a small record)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.boba import rulings
from engine.boba.play_library import library_names, lookup_play
from engine.boba.rule_sections import RULE_SECTION_TITLES
from tests.engine.boba.helpers import (
    FILLER,
    PLAYS_JSON,
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
from tests.support import missing_shared_data

REPO = Path(__file__).resolve().parents[3]
ALL = rulings.all_rulings()


# ------------------------------------------------------------------ the data file


def test_there_are_rulings_and_each_has_every_field() -> None:
    assert len(ALL) >= 20
    raw = json.loads(rulings.RULINGS_PATH.read_text(encoding="utf-8"))["rulings"]
    for entry in raw:
        assert set(entry) == {
            "id",
            "card",
            "question",
            "answer",
            "reasoning",
            "citations",
            "test",
        }, entry.get("id")


def test_ruling_ids_are_unique_slugs() -> None:
    ids = [r.id for r in ALL]
    assert len(ids) == len(set(ids))
    for ruling_id in ids:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", ruling_id), ruling_id


def test_every_ruling_names_a_card_of_the_library_exactly() -> None:
    names = set(library_names())
    for r in ALL:
        assert r.card == rulings.GENERAL or r.card in names, (r.id, r.card)
        if not r.general:
            assert lookup_play(r.card) is not None


def test_every_citation_is_a_section_of_the_comprehensive_rules() -> None:
    for r in ALL:
        assert r.citations, r.id
        for cite in r.citations:
            assert cite in RULE_SECTION_TITLES, (r.id, cite)
        # the reasoning cites its rules in the text too
        assert "CR " in r.reasoning, r.id


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def test_every_ruling_names_a_test_that_exists() -> None:
    for r in ALL:
        path, sep, name = r.test.partition("::")
        assert sep and path.startswith("tests/") and path.endswith(".py"), r.test
        file = REPO / path
        assert file.exists(), r.test
        assert name.startswith("test_"), r.test
        assert name in _test_names(file), r.test


def test_rulings_hold_no_card_text() -> None:
    """Our own words: no run of 7 words of any card's printed text appears in a ruling."""
    if not PLAYS_JSON.exists():
        missing_shared_data(PLAYS_JSON)
    plays: list[dict[str, Any]] = json.loads(PLAYS_JSON.read_text(encoding="utf-8"))
    runs: set[str] = set()
    for play in plays:
        words = re.findall(r"[a-z0-9']+", str(play.get("ability", "")).lower())
        runs.update(" ".join(words[i : i + 7]) for i in range(len(words) - 6))
    for r in ALL:
        text = " ".join(re.findall(r"[a-z0-9']+", f"{r.question} {r.answer} {r.reasoning}".lower()))
        assert not [run for run in runs if run in text], r.id


def test_the_audit_questions_all_have_a_ruling() -> None:
    cards = {r.card for r in ALL}
    for card in (
        "Scare Tactics",
        "Hexvantage",
        "Steel Flipper",
        "Dead Red",
        "Robin Who",
        "Call it a Day",
        "Double or Nothin'",
        "Dogpile",
        "Transfer Portal",
        "Lose 1 To Win 2 (Hopefully)",
        "Rob Peter Pay Paul",
        "Ultimatum Dog",
        "Incendiary Dog",
        "Going Back to Back",
        "Noble Sacrifice",
        "Copycat",
        "Ghost Dog",
        "Leave It To Chance",
    ):
        assert card in cards, card


# ------------------------------------------------------------------ lookups


def test_lookup_by_card_is_loose_and_variants_use_their_base() -> None:
    assert [r.id for r in rulings.rulings_for_card("Hexvantage")] == ["hexvantage-twenty-in-all"]
    assert rulings.rulings_for_card("  hexVANTAGE ") == rulings.rulings_for_card("Hexvantage")
    assert rulings.rulings_for_card("Transfer Portal - htd") == rulings.rulings_for_card(
        "Transfer Portal"
    )
    assert rulings.rulings_for_card("Buff Up 15") == ()
    assert rulings.by_id("dead-red-discard-once") is not None
    assert rulings.by_id("no-such-ruling") is None


def test_search_by_card_substring() -> None:
    assert {r.card for r in rulings.search("dog")} >= {
        "Ultimatum Dog",
        "Incendiary Dog",
        "Ghost Dog",
    }
    assert all("dog" in r.card.lower() for r in rulings.search("dog"))
    assert rulings.search("") == ALL
    assert rulings.search("   ") == ALL
    assert rulings.search("no card is called this") == ()
    assert [r.card for r in rulings.search("transfer portal - htd")] == ["Transfer Portal"]
    assert rulings.search("x" * 10_000) == ()  # only the first MAX_QUERY characters are read


def test_rulings_for_cards_in_order_of_first_use_each_once() -> None:
    got = rulings.rulings_for_cards(["Dead Red", "Buff Up 15", "Hexvantage", "dead red"])
    assert [r.id for r in got] == ["dead-red-discard-once", "hexvantage-twenty-in-all"]
    assert got[0].summary() == {
        "id": "dead-red-discard-once",
        "card": "Dead Red",
        "question": got[0].question,
        "answer": got[0].answer,
    }


# ------------------------------------------------------------------ the replay lists them


def test_replay_lists_the_rulings_of_the_cards_run_in_order_of_first_use() -> None:
    plays = {
        "a1": named("Hexvantage"),
        "a2": named("Buff Up 15"),
        "a3": named("Copycat"),
        "b1": named("Robin Who"),
        "b2": named("Hexvantage"),
    }
    a_runs = [act("A", "run", "a1"), act("A", "run", "a2"), act("A", "run", "a3")]
    out = battle_one(plays, a_runs, [act("B", "run", "b1"), act("B", "run", "b2")])
    assert out["error"] is None, out["error"]
    assert [r["id"] for r in out["rulings"]] == [
        "hexvantage-twenty-in-all",
        "copycat-with-nothing-to-copy",
        "robin-who-against-indestructible",
    ]
    assert set(out["rulings"][0]) == {"id", "card", "question", "answer"}


def test_replay_lists_a_variant_through_its_base_and_a_play_run_by_a_play() -> None:
    plays = {"a1": named("Transfer Portal - htd"), "a2": named("Copycat")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a2")], hot_dogs=10)
    assert [r["id"] for r in out["rulings"]] == [
        "transfer-portal-substituted-hero",
        "copycat-with-nothing-to-copy",
    ]
    # Luck Of The Draw runs the top card of the playbook: that play's rulings are listed too
    plays = {"a1": named("Luck Of The Draw"), "p1": named("Hexvantage")}
    run = act("A", "run", "a1", random=[6, 1], drawn=["p1"])
    out = battle_one(plays, [run])
    assert out["error"] is None, out["error"]
    assert [r["id"] for r in out["rulings"]] == ["hexvantage-twenty-in-all"]


def test_replay_rulings_stop_at_the_illegal_action_and_are_empty_without_plays() -> None:
    plays = {"a1": named("Hexvantage"), "a2": named("Dead Red")}
    out = battle_one(plays, [act("A", "run", "a1"), act("A", "run", "a1")])
    assert out["error"]["code"] == "card_not_in_hand"
    assert [r["id"] for r in out["rulings"]] == ["hexvantage-twenty-in-all"]
    assert run_json(make_record("rookie"))["rulings"] == []
    assert run_json({"format": "boba-game-record/1"})["rulings"] == []  # malformed


# ------------------------------------------------------------------ rulings pinned here


def test_dead_red_discards_when_run_and_not_in_later_battles() -> None:
    plays = {
        "a1": named("Dead Red"),
        "a2": named("Buff Up 15"),
        "a3": named("Buff Up 15"),
        "x1": FILLER,
        "x2": FILLER,
    }
    run = act("A", "run", "a1", choices={"weapon": "Ice", "discard": ["a2"]})
    actions = [*passes(), run, *passes(), act("A", "draw", "x1"), act("B", "draw", "x2")]
    actions += [*passes(), *passes()]  # battle 2: B's hero has no Ice either
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1", "a2", "a3"]}, actions=actions))
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].discard == ["a2", "a1"]
    assert r.state.p[0].hand == ["a3", "x1"]  # nothing more discarded in battle 2


def test_opps_choice_the_first_drawn_hero_joins_the_battle() -> None:
    run = act("A", "run", "a1", drawn=["AD2", "AD1"])
    r = rp(
        make_record(
            PM,
            plays={"a1": named("Opps' Choice")},
            hands={"A": ["a1"]},
            actions=[*passes(), run, act("A", "pass")],
        )
    )
    assert r.error is None, r.error
    assert r.state is not None
    assert r.state.p[0].lineup[0] == "AD2"
    assert r.state.power(0) == 110
    assert r.state.p[0].discard == ["A1", "AD1", "a1"]


def _scare_tactics_reveal_battle(b_card: str) -> dict[str, Any]:
    """A has honors, runs Scare Tactics revealing Gavel of Justice (4); B runs ``b_card`` in
    that same battle and wins it; in battle 2 B runs nothing and A runs the Gavel."""
    plays = {
        "a1": named("Scare Tactics"),
        "a2": named("Gavel of Justice"),
        "b1": named("Gavel of Justice"),
        "x1": FILLER,
        "x2": FILLER,
    }
    actions = [*passes(), act("A", "run", "a1", choices={"card": "a2"}), act("A", "pass")]
    actions += [act("B", "run", b_card), act("B", "pass")]
    actions += [act("B", "draw", "x2"), act("A", "draw", "x1"), *passes("B")]
    actions += [act("B", "pass"), act("A", "run", "a2")]
    hands = {"A": ["a1", "a2"], "B": ["b1"]}
    return run_json(make_record(PM, plays=plays, hands=hands, actions=actions))


def test_scare_tactics_a_costly_opponent_play_in_the_reveal_battle_does_not_count() -> None:
    out = _scare_tactics_reveal_battle("b1")
    assert out["error"] is None, out["error"]
    assert out["battles"][0]["winner"] == "B"
    assert out["hot_dogs"]["A"] == 5  # Scare Tactics 1 + Gavel 4: not free


def test_robin_who_keeps_its_gain_when_the_cut_is_prevented() -> None:
    plays = {"a1": named("Robin Who"), "b1": named("Indestructible")}
    out = battle_one(plays, [act("A", "run", "a1")], [act("B", "run", "b1")], honors="B")
    assert power(out) == {"A": 105, "B": 100}
    out = battle_one({"a1": named("Robin Who")}, [act("A", "run", "a1")])
    assert power(out) == {"A": 105, "B": 95}


def test_call_it_a_day_gives_the_normal_draw_not_an_extra_one() -> None:
    plays = {"a1": named("Call it a Day"), "x1": FILLER, "x2": FILLER, "x3": FILLER}
    base = [*passes(), act("A", "run", "a1")]
    record = make_record(PM, a=[120] * 7, plays=plays, hands={"A": ["a1"]}, actions=base)
    r = rp(record)
    assert r.error is None and r.state is not None
    assert len(r.battles) == 1 and r.battles[0].winner == 0
    assert [ps.pending_draws for ps in r.state.p] == [1, 1]
    record["actions"] = [*base, act("A", "draw", "x1"), act("A", "draw", "x3")]
    assert run_json(record)["error"]["code"] == "no_draw_due"
    record["actions"] = [*base, act("A", "draw", "x1"), act("B", "draw", "x2")]
    out = run_json(record)
    assert out["error"] is None
    assert out["next"]["expects"] == ["substitute", "pass"]  # battle 2 has begun


def test_double_or_nothin_the_hero_goes_to_the_discard() -> None:
    run = act("A", "run", "a1", random=["heads", "heads"], drawn=["AD3"])
    plays = {"a1": named("Double or Nothin'")}
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=[*passes(), run]))
    assert r.error is None and r.state is not None
    assert r.state.power(0) == 220  # 100 + the revealed hero's 120
    assert r.state.p[0].lineup[0] == "A1"
    assert "AD3" in r.state.p[0].discard and "AD3" not in r.state.p[0].bench


def test_dogpile_the_drawn_hero_goes_to_the_hand() -> None:
    run = act("A", "run", "a1", drawn=["AD3"])
    plays = {"a1": named("Dogpile")}
    r = rp(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=[*passes(), run]))
    assert r.error is None and r.state is not None
    assert r.state.power(0) == 220
    assert r.state.p[0].lineup[0] == "A1"
    assert "AD3" in r.state.p[0].bench and "AD3" not in r.state.p[0].discard


@pytest.mark.parametrize(
    ("card", "first", "later"),
    [
        ("Transfer Portal", -30, 30),
        ("Lose 1 To Win 2 (Hopefully)", -50, 15),
        ("Rob Peter Pay Paul", 15, -5),
    ],
)
def test_a_later_battle_power_change_reaches_a_substituted_hero(
    card: str, first: int, later: int
) -> None:
    plays = {"a1": named(card), "x1": FILLER, "x2": FILLER}
    actions = [*passes(), act("A", "run", "a1"), *passes()]
    actions += [act("A", "draw", "x1"), act("B", "draw", "x2")]
    sub = act("A", "substitute", "AB1", draw=None)
    if first > 0:  # A won battle 1: honors A
        actions += [sub, act("B", "pass"), *passes()]
    else:
        actions += [act("B", "pass"), sub, *passes("B")]
    out = run_json(make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=actions))
    assert out["error"] is None, out["error"]
    assert out["battles"][1]["heroes"]["A"] == "AB1"
    assert power(out, 1)["A"] == 100 + first
    assert power(out, 2)["A"] == 200 + later
    assert out["battles"][1]["modifiers"]["A"] == [{"source": "a1", "amount": later}]


def test_incendiary_dog_starts_with_the_next_battle() -> None:
    rest, fillers = drawn_battles(3)
    plays = {"a1": named("Incendiary Dog"), **fillers, "y1": FILLER, "y2": FILLER}
    run = [*passes(), act("A", "run", "a1")]
    record = make_record(PM, plays=plays, hands={"A": ["a1"]}, actions=[*rest, *run])
    out = run_json(record)
    assert out["error"] is None, out["error"]
    assert out["hot_dogs"] == {"A": 7, "B": 10}  # battle 4: only its cost of 3
    record["actions"] = [*rest, *run, *passes(), act("A", "draw", "y1"), act("B", "draw", "y2")]
    out = run_json(record)
    assert out["error"] is None, out["error"]
    assert out["hot_dogs"] == {"A": 6, "B": 9}  # battle 5 starts: both lose 1


def test_going_back_to_back_after_a_net_loss_gives_nothing() -> None:
    plays = {"a1": named("It's Gonna Cost Ya"), "a2": named("Going Back to Back")}
    run = act("A", "run", "a1", choices={"recover": 0})
    out = two_battles(plays, [run], [act("A", "run", "a2")], honors_2="B")
    assert power(out, 1)["A"] == 85
    assert power(out, 2)["A"] == 100  # -15 last battle: no extra power, no loss either
    plays = {"a1": named("Buff Up 15"), "a2": named("Going Back to Back")}
    out = two_battles(plays, [act("A", "run", "a1")], [act("A", "run", "a2")])
    assert power(out, 2)["A"] == 115


def test_copycat_with_no_earlier_play_does_nothing_for_free() -> None:
    out = battle_one({"a1": named("Copycat")}, [act("A", "run", "a1")])
    assert power(out) == {"A": 100, "B": 100}
    assert out["hot_dogs"] == {"A": 10, "B": 10}


def test_leave_it_to_chance_a_cancelled_play_still_counts_as_run() -> None:
    plays = {
        "a1": named("Leave It To Chance"),
        "b1": named("Buff Up 15"),
        "b2": named("Overprepared"),
    }
    b_runs = [act("B", "run", "b1", random=[6]), act("B", "run", "b2", random=[3])]
    out = battle_one(plays, [act("A", "run", "a1")], b_runs)
    assert power(out) == {"A": 90, "B": 100}  # two plays run by B: -10, Buff Up cancelled
    assert out["hot_dogs"] == {"A": 5, "B": 5}
