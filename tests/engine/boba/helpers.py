"""Builders for hand-written BoBA records in tests (plain dicts, as a record file holds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.boba.replay import Replay, replay

Lineup = list[int | tuple[int, str]]


def _hero(power: int | tuple[int, str], name: str) -> dict[str, Any]:
    p, w = (power, "Fire") if isinstance(power, int) else power
    return {"kind": "hero", "name": name, "variant": "Base", "power": p, "weapon": w}


def make_record(
    mode: str = "playmaker",
    a: Lineup | None = None,
    b: Lineup | None = None,
    actions: list[dict[str, Any]] | None = None,
    honors: str = "A",
    options: dict[str, bool] | None = None,
    plays: dict[str, dict[str, Any]] | None = None,
    hands: dict[str, list[str]] | None = None,
    hot_dogs: int = 10,
    playbook_size: int = 26,
    bench_power: int = 200,
) -> dict[str, Any]:
    """A record with lineups a and b (7 powers, or (power, weapon) pairs).

    Heroes: A1..A7 in battle order, bench AB1..AB4 (power ``bench_power``), spare heroes
    AD1..AD9 for draws and reveals (power 100 + 10 * n); the same with B. Plays by id in
    ``plays`` (cards entries), hands by player in ``hands``."""
    a = a or [100] * 7
    b = b or [100] * 7
    cards: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    for pid, lineup in (("A", a), ("B", b)):
        for i, pw in enumerate(lineup):
            cards[f"{pid}{i + 1}"] = _hero(pw, f"{pid} hero {i + 1}")
        for i in range(4):
            cards[f"{pid}B{i + 1}"] = _hero((bench_power, "Ice"), f"{pid} bench {i + 1}")
        for i in range(9):
            cards[f"{pid}D{i + 1}"] = _hero((100 + 10 * i, "Steel"), f"{pid} deck {i + 1}")
        entry: dict[str, Any] = {"battles": [f"{pid}{i + 1}" for i in range(7)]}
        if mode != "rookie":
            entry["bench"] = [f"{pid}B{i + 1}" for i in range(4)]
            entry["hot_dogs"] = hot_dogs
        if mode == "playmaker":
            entry["hand"] = list((hands or {}).get(pid, []))
            entry["playbook_size"] = playbook_size
        setup[pid] = entry
    for pid, card in (plays or {}).items():
        cards[pid] = {"kind": "play", **card}
    return {
        "format": "boba-game-record/1",
        "mode": mode,
        "options": options or {"stop_at_four": True, "tiebreakers": False},
        "players": {"A": "Alice", "B": "Bob"},
        "honors": honors,
        "direction": "left-to-right",
        "cards": cards,
        "setup": setup,
        "actions": actions or [],
    }


def act(player: str, do: str, card: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"player": player, "do": do}
    if card is not None:
        out["card"] = card
    out.update(extra)
    return out


def passes(first: str = "A") -> list[dict[str, Any]]:
    """Both players pass (first, then the other)."""
    second = "B" if first == "A" else "A"
    return [act(first, "pass"), act(second, "pass")]


def run_json(record: dict[str, Any], upto: int | None = None) -> dict[str, Any]:
    return replay(record, upto=upto).to_json()


def rp(record: dict[str, Any]) -> Replay:
    return replay(record)


PM = "playmaker"


PLAYS_JSON = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "boba" / "plays.json"


FILLER = {"name": "Filler", "cost": 9, "effect": []}


def named(name: str) -> dict[str, Any]:
    return {"name": name}


def battle_one(
    plays: dict[str, dict[str, Any]],
    a_runs: list[dict[str, Any]],
    b_runs: list[dict[str, Any]] | None = None,
    honors: str = "A",
    **kw: Any,
) -> dict[str, Any]:
    """Battle 1 with these runs (a* ids in A's hand, b* in B's); the replay JSON."""
    hands = {
        "A": [k for k in plays if k.startswith("a")],
        "B": [k for k in plays if k.startswith("b")],
    }
    first, second = (a_runs, b_runs or []) if honors == "A" else (b_runs or [], a_runs)
    p1, p2 = ("A", "B") if honors == "A" else ("B", "A")
    actions = [*passes(p1), *first, act(p1, "pass"), *second, act(p2, "pass")]
    record = make_record(PM, plays=plays, hands=hands, actions=actions, honors=honors, **kw)
    return run_json(record)


def two_battles(
    plays: dict[str, dict[str, Any]],
    a_runs: list[dict[str, Any]],
    a_runs_2: list[dict[str, Any]] | None = None,
    honors_2: str = "A",
    **kw: Any,
) -> dict[str, Any]:
    """A runs a_runs in battle 1, both draw a filler play, then battle 2 (``honors_2``: who
    has honors in it, the winner of battle 1) with a_runs_2 from A."""
    plays = {**plays, "x1": FILLER, "x2": FILLER}
    hands = {"A": [k for k in plays if k.startswith("a")], "B": []}
    actions = [*passes(), *a_runs, *passes()]
    actions += [act("A", "draw", "x1"), act("B", "draw", "x2")]
    if honors_2 == "A":
        actions += [*passes(), *(a_runs_2 or []), *passes()]
    else:
        actions += [*passes("B"), act("B", "pass"), *(a_runs_2 or []), act("A", "pass")]
    return run_json(make_record(PM, plays=plays, hands=hands, actions=actions, **kw))


def power(out: dict[str, Any], battle: int = 1) -> dict[str, int]:
    assert out["error"] is None, out["error"]
    result: dict[str, int] = out["battles"][battle - 1]["power"]
    return result


def drawn_battles(n: int, start: int = 0) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Actions for n drawn battles (equal lineups, nobody substitutes or runs a play), each
    followed by both players drawing a filler; and the fillers' cards."""
    actions: list[dict[str, Any]] = []
    fillers = {f"x{start + i}": FILLER for i in range(2 * n)}
    for k in range(n):
        actions += [*passes(), *passes()]
        actions += [
            act("A", "draw", f"x{start + 2 * k}"),
            act("B", "draw", f"x{start + 2 * k + 1}"),
        ]
    return actions, fillers
