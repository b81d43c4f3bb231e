"""A small harness for the table-driven Play card tests (cards M-Z).

Each row of a table names a real Play card, a scenario (keyword arguments of
:func:`scenario`) and what the card's text says should follow (:func:`check`). The scenario
is a Playmaker record built battle by battle through the public replay API; honors (who acts
first) are read from the engine after each battle, so a row only says what each player does.

Card ids: the card under test is ``c`` in A's hand; other plays are named by the row
(``a*`` in A's hand, ``b*`` in B's, anything else hidden in a deck). Hidden fillers ``x1``..
``x9`` (plays costing 9 that do nothing) are always there to be drawn or revealed; the
end-of-battle draws use fresh fillers ``dA1``, ``dB1``, ...  Heroes as in
:func:`tests.engine.boba.helpers.make_record`: A1..A7 in battle order, bench AB1..AB4
(power 200, Ice), hidden AD1..AD9 (power 100 + 10 (n - 1), Steel); the same for B.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from engine.boba.replay import Replay, replay
from engine.boba.rules import PLAYERS
from engine.boba.state import GameState
from tests.engine.boba.helpers import Lineup, act, make_record

FILLER: dict[str, Any] = {"name": "Filler", "cost": 9, "effect": []}
HIDDEN_FILLERS = {f"x{i}": FILLER for i in range(1, 10)}
Runs = Sequence[str | dict[str, Any]]


def named(name: str) -> dict[str, Any]:
    """A play card whose cost and effect come from the play library."""
    return {"name": name}


def play(name: str, cost: int) -> dict[str, Any]:
    """A play with no effect at a given printed cost (a stand-in for 'a play costing N')."""
    return {"name": f"Stand-in {cost}", "cost": cost, "effect": []}


class Game:
    """A Playmaker record built battle by battle, honors followed from the engine."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self._draws = 0
        self.card_battle = 1

    @property
    def actions(self) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = self.record["actions"]
        return actions

    def result(self) -> Replay:
        return replay(self.record, keep_states=False)

    def state(self) -> GameState:
        r = self.result()
        assert r.state is not None
        return r.state

    def ok(self) -> bool:
        return self.result().error is None

    def battle(
        self,
        a: Runs = (),
        b: Runs = (),
        sub_a: str | None = None,
        sub_b: str | None = None,
        draw: bool = True,
    ) -> Game:
        """One battle: substitution decisions, then each player's runs and pass, honors
        first; then the end-of-battle draws (fillers) unless ``draw`` is false."""
        if not self.ok():
            return self
        s = self.state()
        first = PLAYERS[s.honors]
        order = (first, "B" if first == "A" else "A")
        subs = {"A": sub_a, "B": sub_b}
        runs = {"A": a, "B": b}
        for p in order:
            sub = subs[p]
            self.actions.append(act(p, "substitute", sub) if sub else act(p, "pass"))
        for p in order:
            for r in runs[p]:
                self.actions.append(act(p, "run", r) if isinstance(r, str) else r)
            self.actions.append(act(p, "pass"))
        if draw:
            self.draws()
        return self

    def draws(self) -> dict[str, int]:
        """Make every draw that is due with fresh fillers; how many each player drew."""
        drawn = {"A": 0, "B": 0}
        while self.ok():
            s = self.state()
            nxt = s.next_expected()
            if s.phase != "draw" or nxt is None or "draw" not in nxt["expects"]:
                break
            self._draws += 1
            cid = f"d{nxt['player']}{self._draws}"
            self.record["cards"][cid] = {"kind": "play", **FILLER}
            self.actions.append(act(nxt["player"], "draw", cid))
            drawn[nxt["player"]] += 1
        return drawn


def scenario(
    card: str,
    *,
    a: Lineup | None = None,
    b: Lineup | None = None,
    hot_dogs: tuple[int, int] = (10, 10),
    honors: str = "A",
    hand_a: dict[str, dict[str, Any]] | None = None,
    hand_b: dict[str, dict[str, Any]] | None = None,
    hidden: dict[str, dict[str, Any]] | None = None,
    playbook: tuple[int, int] = (26, 26),
    before: int = 0,
    before_runs: Sequence[tuple[Any, ...]] = (),
    patch: dict[str, dict[str, Any]] | None = None,
    pre_a: Runs = (),
    b_runs: Runs = (),
    run: dict[str, Any] | None = None,
    post_a: Runs = (),
    sub_a: str | None = None,
    sub_b: str | None = None,
    after: int = 0,
    after_a: Runs = (),
    after_b: Runs = (),
    after_sub_a: str | None = None,
    after_sub_b: str | None = None,
    after_runs: Sequence[tuple[Any, ...]] = (),
    draw_after: bool = False,
) -> Game:
    """Battles ``before`` (plain passes, or ``before_runs``: (A's runs, B's runs) or (A's runs,
    B's runs, A's substitute, B's substitute) per battle; ``patch`` updates card entries,
    e.g. ``{"AB1": {"weapon": "Steel"}}``),
    then the card's battle: A runs ``pre_a``, then the card (``run``: the run action's
    ``random``/``drawn``/``choices``; ``None``: not run), then ``post_a``; B runs ``b_runs``; then ``after``
    more battles (A runs ``after_a`` and B ``after_b`` in the first of them, substitutes
    ``after_sub_a``/``after_sub_b``; ``after_runs`` scripts the ones after it). The draws after
    the card's last battle are made only with ``draw_after``."""
    plays = {"c": named(card), **(hand_a or {}), **(hand_b or {})}
    plays.update(HIDDEN_FILLERS)
    plays.update(hidden or {})
    hands = {"A": ["c", *(hand_a or {})], "B": list(hand_b or {})}
    record = make_record(
        "playmaker", a=a, b=b, plays=plays, hands=hands, hot_dogs=hot_dogs[0], honors=honors
    )
    record["setup"]["B"]["hot_dogs"] = hot_dogs[1]
    for cid, fields in (patch or {}).items():
        record["cards"][cid] = {**record["cards"][cid], **fields}
    record["setup"]["A"]["playbook_size"] = playbook[0]
    record["setup"]["B"]["playbook_size"] = playbook[1]
    g = Game(record)
    scripted = list(before_runs) + [((), ())] * max(0, before - len(before_runs))
    for step in scripted:
        g.battle(*step)
    g.card_battle = len(scripted) + 1
    runs: list[str | dict[str, Any]] = list(pre_a)
    if run is not None:
        runs.append(act("A", "run", "c", **run))
    runs.extend(post_a)
    last = after == 0
    g.battle(runs, b_runs, sub_a=sub_a, sub_b=sub_b, draw=not last or draw_after)
    later = [(after_a, after_b, after_sub_a, after_sub_b), *after_runs]
    later += [((), ())] * max(0, after - len(later))
    for k in range(after):
        plan: tuple[Any, ...] = (*later[k], None, None)
        g.battle(plan[0], plan[1], plan[2], plan[3], draw=k < after - 1 or draw_after)
    return g


def row(card: str, expect: dict[str, Any], tag: str = "", xfail: str = "", **setup: Any) -> Any:
    """A table row: the card, its scenario, what its text says. ``tag`` tells apart a second
    row of one card (id ``"Card [tag]"``); ``xfail``: an engine disagreement (strict)."""
    setup.setdefault("run", {})
    marks = (
        [pytest.mark.xfail(strict=True, reason=f"engine disagreement: {xfail}")] if xfail else []
    )
    return pytest.param(card, setup, expect, id=f"{card} [{tag}]" if tag else card, marks=marks)


def card_of(row_id: str) -> str:
    """The card a row id names."""
    return row_id.split(" [", 1)[0]


def _per_player(value: Any) -> Iterable[tuple[int, str, Any]]:
    for i, p in enumerate(PLAYERS):
        if p in value:
            yield i, p, value[p]


def check(g: Game, expect: dict[str, Any]) -> None:
    """Assert what a row expects. Keys: ``error`` (an error code, or absent: none);
    ``power`` ({"A": .., "B": ..} at the end of the card's battle; ``power+1`` the battle
    after, ``power@N`` battle N); ``winner`` (likewise ``winner+1``, a player or None);
    ``hero`` (the hero in the card's battle); and, at the end of the record, ``hot_dogs``,
    ``hand``, ``hand_n``, ``hand_has``, ``discard``, ``discard_has``, ``discard_lacks``, ``bench``, ``lineup``, ``playbook``,
    ``trophies``; ``dogs_discarded``."""
    r = g.result()
    if "error" in expect:
        assert r.error is not None and r.error.code == expect["error"], (
            r.error.to_json() if r.error else None
        )
    else:
        assert r.error is None, r.error.to_json()
    s = r.state
    assert s is not None
    history = {h.battle: h.to_json() for h in s.history}
    for key, want in expect.items():
        if key == "error":
            continue
        name, _, where = key.partition("@")
        if "+" in name:
            name, _, offset = name.partition("+")
            battle = g.card_battle + int(offset)
        else:
            battle = int(where) if where else g.card_battle
        if name in ("power", "winner", "hero"):
            assert battle in history, f"battle {battle} was not played ({key})"
            got = history[battle][{"hero": "heroes"}.get(name, name)]
            if name == "winner":
                assert got == want, f"{key}: {got!r} != {want!r}"
            else:
                assert {p: got[p] for p in want} == want, f"{key}: {got!r} != {want!r}"
            continue
        for i, p, value in _per_player(want):
            ps = s.p[i]
            actual: Any
            if name == "hot_dogs":
                actual = ps.hot_dogs
            elif name == "dogs_discarded":
                actual = ps.hot_dogs_discarded
            elif name == "hand":
                actual = sorted(ps.hand)
                value = sorted(value)
            elif name == "hand_n":
                actual = len(ps.hand)
            elif name == "discard":
                actual = sorted(ps.discard)
                value = sorted(value)
            elif name == "discard_has":
                actual = set(value) & set(ps.discard)
                value = set(value)
            elif name == "discard_lacks":
                actual = set(value) & set(ps.discard)
                value = set()
            elif name == "hand_has":
                actual = set(value) & set(ps.hand)
                value = set(value)
            elif name == "bench":
                actual = sorted(ps.bench)
                value = sorted(value)
            elif name == "lineup":
                actual = ps.lineup
            elif name == "playbook":
                actual = ps.playbook_size
            elif name == "trophies":
                actual = ps.trophies
            else:
                raise AssertionError(f"unknown expectation {key}")
            assert actual == value, f"{key}[{p}]: {actual!r} != {value!r}"
