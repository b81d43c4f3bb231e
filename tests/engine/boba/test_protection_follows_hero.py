"""CR 3.2: "this Hero" is the card. Immunity ("This Hero can't be affected in any way by your
opponent's Plays") and Indestructible ("This Hero can't have its power reduced by an
opponent's Play") protect the active hero the play was run for, not the player: a hero that
replaces it mid-battle is not protected, and the protected hero that leaves the battle zone
loses the protection for good (coming back, it is a new card in play). While it stays, the
opponent's plays can't discard, replace or swap it either (Forced Retreat, Leave It To Fate,
Dumpster Battle).
"""

from __future__ import annotations

from typing import Any

from engine.boba.replay import replay
from engine.boba.state import GameState
from tests.engine.boba.helpers import act, make_record, passes

PM = "playmaker"
A, B = 0, 1


def _plays() -> dict[str, dict[str, Any]]:
    return {
        "imm": {"name": "Immunity"},
        "ind": {"name": "Indestructible"},
        "curve": {"name": "Curveball"},
        "subup": {"name": "Sub And Power-Up"},
        "gavel": {"name": "Gavel of Justice"},
        "retreat": {"name": "Forced Retreat"},
        "fate": {"name": "Leave It To Fate"},
        "dumpster": {"name": "Dumpster Battle"},
        "reorg": {"name": "Last-Minute Re-Org"},
    }


def _mid_battle(a_runs: list[dict[str, Any]], b_runs: list[dict[str, Any]]) -> GameState:
    """Battle 1: A runs a_runs and passes, then B runs b_runs (the battle still on)."""
    actions = passes("A") + a_runs + [act("A", "pass")] + b_runs
    hands = {
        "A": [str(x["card"]) for x in a_runs],
        "B": [str(x["card"]) for x in b_runs],
    }
    r = replay(make_record(PM, actions=actions, plays=_plays(), hands=hands))
    assert r.legal, r.error
    assert r.state is not None
    assert r.state.battle == 1
    return r.state


def _curveball(hero: str = "AB1") -> dict[str, Any]:
    return act("A", "run", "curve", choices={"hero": hero}, drawn=["AD1"])


def test_cr_3_2_immunity_protects_the_hero_it_was_run_for() -> None:
    s = _mid_battle([act("A", "run", "imm")], [act("B", "run", "gavel")])
    assert s.p[A].lineup[0] == "A1"
    assert s.power(A) == 100


def test_cr_3_2_a_hero_replacing_the_immune_hero_is_not_immune() -> None:
    s = _mid_battle([act("A", "run", "imm"), _curveball()], [act("B", "run", "gavel")])
    assert s.p[A].lineup[0] == "AB1"
    assert s.power(A) == 200 - 30  # the opponent's Gavel of Justice reaches the new hero


def test_cr_3_2_a_hero_replacing_the_indestructible_hero_can_be_lowered() -> None:
    s = _mid_battle([act("A", "run", "ind"), _curveball()], [act("B", "run", "gavel")])
    assert s.p[A].lineup[0] == "AB1"
    assert s.power(A) == 170


def test_cr_3_2_the_indestructible_hero_keeps_its_protection_while_it_stays() -> None:
    s = _mid_battle([act("A", "run", "ind")], [act("B", "run", "gavel")])
    assert s.power(A) == 100


def test_cr_3_2_a_hero_swapped_in_from_a_future_battle_is_not_immune() -> None:
    # Last-Minute Re-Org: A1 moves to battle 2 (still in the lineup), A2 fights now
    s = _mid_battle(
        [act("A", "run", "imm"), act("A", "run", "reorg", choices={"battle": 2})],
        [act("B", "run", "gavel")],
    )
    assert s.p[A].lineup[:2] == ["A2", "A1"]
    assert s.power(A) == 70


def test_cr_3_2_the_protected_hero_coming_back_is_a_new_card_in_play() -> None:
    # Sub And Power-Up sends A1 to the hand; Curveball brings it back: no protection left
    runs = [
        act("A", "run", "imm"),
        act("A", "run", "subup", choices={"hero": "AB1"}),
        _curveball("A1"),
    ]
    s = _mid_battle(runs, [act("B", "run", "gavel")])
    assert s.p[A].lineup[0] == "A1"
    assert s.power(A) == 100 - 30
    assert not [o for o in s.ongoing if o.kind == "prevent"]  # it ended with the card


def test_cr_3_2_the_opponents_forced_retreat_cannot_move_the_immune_hero() -> None:
    s = _mid_battle([act("A", "run", "imm")], [act("B", "run", "retreat", choices={"hero": "AB1"})])
    assert s.p[A].lineup[0] == "A1"
    assert "A1" not in s.p[A].discard
    assert "AB1" in s.p[A].bench


def test_cr_3_2_the_opponents_forced_retreat_reaches_a_hero_that_replaced_the_immune_one() -> None:
    s = _mid_battle(
        [act("A", "run", "imm"), _curveball()],
        [act("B", "run", "retreat", choices={"hero": "AB2"})],
    )
    assert s.p[A].lineup[0] == "AB2"
    assert "AB1" in s.p[A].discard


def test_cr_3_2_leave_it_to_fate_by_the_opponent_replaces_only_their_own_hero() -> None:
    s = _mid_battle([act("A", "run", "imm")], [act("B", "run", "fate", drawn=["BD1"])])
    assert s.p[A].lineup[0] == "A1"
    assert s.p[B].lineup[0] == "BD1"
    assert "B1" in s.p[B].discard


def test_cr_3_2_dumpster_battle_by_the_opponent_leaves_the_immune_hero() -> None:
    # B's Forced Retreat fails on A's immune hero; B's own B1 goes to the discard first by
    # B's Leave It To Fate, so Dumpster Battle has a hero to bring back for B only
    s = _mid_battle(
        [act("A", "run", "imm")],
        [
            act("B", "run", "fate", drawn=["BD1"]),
            act("B", "run", "dumpster", choices={"hero": {"B": "B1"}}),
        ],
    )
    assert s.p[A].lineup[0] == "A1"
    assert s.p[B].lineup[0] == "B1"
