"""Builders for hand-written BoBA records in tests (plain dicts, as a record file holds)."""

from __future__ import annotations

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
