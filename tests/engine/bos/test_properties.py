"""Property tests for the BOS adjudicator (bounded hypothesis runs)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bos.replay import replay, replay_text

from .factory import CARDS, end, record, start

PLAYER = st.sampled_from(["A", "B"])
SLOT = st.sampled_from([0, 1, 2, "boss"])
COL = st.sampled_from([0, 1, 2])
SUMMONS = [c for c, d in CARDS.items() if d["type"] == "summon"]
SPELLS = [c for c, d in CARDS.items() if d["type"] == "spell"]


@st.composite
def target(draw: st.DrawFn, player_ok: bool = True) -> dict[str, Any]:
    t: dict[str, Any] = {"player": draw(PLAYER)}
    if not player_ok or draw(st.booleans()):
        t["slot"] = draw(SLOT)
    return t


@st.composite
def effect(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["strength", "damage", "vim", "ether"]))
    e: dict[str, Any] = {
        "kind": kind,
        "source": "x",
        "mandatory": draw(st.booleans()),
        "amount": draw(st.integers(0 if kind == "damage" else -20, 20)),
    }
    if kind in ("strength", "damage") and (kind == "strength" or draw(st.booleans())):
        e["target"] = {"player": draw(PLAYER), "slot": draw(SLOT)}
        e["affects"] = draw(st.sampled_from(["summon", "boss"]))
    else:
        e["target"] = {"player": draw(PLAYER)}
    return e


@st.composite
def action(draw: st.DrawFn) -> dict[str, Any]:
    p = draw(PLAYER)
    kind = draw(
        st.sampled_from(["start", "end", "summon", "boss", "attack", "cast", "abilities", "judge"])
    )
    if kind == "start":
        return start(p)
    if kind == "end":
        return end(p)
    if kind == "summon":
        return {
            "type": "summon",
            "player": p,
            "wizard": draw(COL),
            "card": draw(st.sampled_from(SUMMONS)),
        }
    if kind == "boss":
        return {"type": "summon_boss", "player": p}
    if kind == "attack":
        return {
            "type": "attack",
            "player": p,
            "attacker": draw(SLOT),
            "target": draw(target()),
            "blocker": draw(st.none() | SLOT),
        }
    if kind == "cast":
        return {
            "type": "cast",
            "player": p,
            "card": draw(st.sampled_from(SPELLS)),
            "vim": draw(st.integers(0, 4)),
            "ether": draw(st.integers(0, 4)),
        }
    if kind == "abilities":
        return {
            "type": "abilities",
            "player": p,
            "effects": draw(st.lists(effect(), min_size=1, max_size=3)),
        }
    vals = {"life": draw(st.integers(0, 40)), "vim": draw(st.integers(0, 9))}
    return {"type": "judge", "player": p, "note": "n", "adjust": {p: vals}}


@st.composite
def game(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Mostly well-ordered turns with random actions inside, so that replays go deep."""
    out: list[dict[str, Any]] = []
    p = "A"
    for _ in range(draw(st.integers(1, 8))):
        out.append(start(p))
        out += [{**a, "player": p} for a in draw(st.lists(action(), max_size=5))]
        out.append(end(p))
        p = "B" if p == "A" else "A"
    if draw(st.booleans()):
        out.append(draw(action()))
    return out


@settings(max_examples=150)
@given(game(), st.integers(0, 5))
def test_vim_ether_life_never_negative_and_defeated_summons_leave(
    actions: list[dict[str, Any]], ether: int
) -> None:
    r = replay(record(actions, ether={"A": ether, "B": ether}))
    assert r.exit_status in (0, 1)
    for st_ in [*r.states, r.state]:
        assert st_ is not None
        for s in st_.sides.values():
            assert s.vim >= 0 and s.ether >= 0 and s.life >= 0
            # A defeated summon (strength 0) is never left on the battlefield.
            for u in [*s.summons, s.boss_unit]:
                assert u is None or u.strength > 0


@settings(max_examples=60)
@given(st.integers(11, 16), st.integers(0, 10**6), st.integers(0, 10**6))
def test_bos_decay_never_raises_life_or_vim(turn: int, life: int, vim: int) -> None:
    acts: list[dict[str, Any]] = []
    for _ in range(turn - 1):
        acts += [start("A"), end("A"), start("B"), end("B")]
    judge = {
        "type": "judge",
        "player": "A",
        "note": "n",
        "adjust": {"A": {"life": life, "vim": vim}},
    }
    # A large starting life survives the decays of the turns before (11th to the last).
    r = replay(record([*acts[:-1], judge, acts[-1], start("A")], life=10**9))
    assert r.state is not None
    a = r.state.sides["A"]
    times = turn - 10
    if life > 0:
        assert r.legal
        assert a.life == life >> times <= life
        assert a.vim == (2 * vim) >> times <= 2 * vim  # decay never raises the doubled vim
    else:
        assert r.state.winner == "B"


@settings(max_examples=60)
@given(game())
def test_replay_is_deterministic(actions: list[dict[str, Any]]) -> None:
    rec = record(actions)
    assert replay(rec).to_json() == replay(json.loads(json.dumps(rec))).to_json()
    text = json.dumps(rec)
    assert replay_text(text).to_json() == replay_text(text).to_json()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


@settings(max_examples=150)
@given(game(), st.data())
def test_corrupted_record_exits_1_or_2_and_never_raises(
    actions: list[dict[str, Any]], data: st.DataObject
) -> None:
    rec = record(actions)
    text = json.dumps(rec)
    cut = data.draw(st.integers(0, len(text) - 1))
    assert replay_text(text[:cut]).exit_status == 2  # a truncated record is malformed
    paths = [p for p in _paths(rec) if p]
    where = data.draw(st.sampled_from(paths))
    node: Any = rec
    for key in where[:-1]:
        node = node[key]
    if data.draw(st.booleans()) and isinstance(node, dict):
        del node[where[-1]]
    else:
        node[where[-1]] = data.draw(JSON)
    r = replay(rec)
    # A corruption may leave a record that is still legal (a renamed player): never exit 3.
    assert r.exit_status in (0, 1, 2)
    assert r.error is None or not r.error.internal
    json.dumps(r.to_json())


@settings(max_examples=100)
@given(JSON)
def test_any_json_that_is_not_a_record_exits_2(value: Any) -> None:
    r = replay_text(json.dumps(value))
    assert r.exit_status == 2 and r.error is not None and r.error.action is None
