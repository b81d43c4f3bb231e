"""Harness for the table-driven Play card tests (cards A-L).

A row names one Play card, a setup (keyword arguments of :func:`scene`) and the outcome the
card's text gives (keys of :func:`check`). :func:`scene` builds a Playmaker record with
``tests.engine.boba.helpers.make_record`` in which player A runs the card in the chosen
battle, plays the record forward action by action (both players pass unless told otherwise,
end-of-battle draws are fillers), and returns the replay JSON and the final position.

Cards: the card under test is ``a1`` in A's hand; extra plays in A's hand ``a2``, ``a3``...;
B's plays ``b1``...; plays run before/after the card ``p1``.../``q1``... Heroes: the battle
lineups are ``A1``..``A7`` / ``B1``..``B7``, heroes in hand (the bench) ``AB1``.. / ``BB1``..,
spare heroes ``AD1``..``AD9`` (power 100 + 10 n, Steel) as in the helpers; the default bench
is 4 heroes of 200 Ice. The default weapon of the lineups is Brawl, which no Play names.
Expected outcomes are worked out from the card texts and the rules, never read off the engine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engine.boba.replay import Replay, replay
from tests.engine.boba.helpers import act, make_record

Hero = tuple[int, str]
NEUTRAL = "Brawl"
FILLER = {"name": "Filler", "cost": 9, "effect": []}
# A spec for a play to run: its name, (name, extra action fields), or a card dict.
RunSpec = str | tuple[str | dict[str, Any], dict[str, Any]] | dict[str, Any]


def cheap(cost: int, name: str = "") -> dict[str, Any]:
    """A play of the given printed cost that does nothing (for draws, reveals, discards)."""
    return {"name": name or f"Blank {cost}", "cost": cost, "effect": []}


def prep(*effect: dict[str, Any], name: str = "Prep") -> dict[str, Any]:
    """A free play with an ad-hoc effect, used to set a position up (not a card under test)."""
    return {"name": name, "cost": 0, "effect": list(effect)}


def _hero(pw: int | Hero) -> Hero:
    return (pw, NEUTRAL) if isinstance(pw, int) else pw


@dataclass
class Out:
    record: dict[str, Any]
    json: dict[str, Any]
    replay: Replay
    battle: int  # the battle in which the card was run

    def battle_json(self, offset: int = 0) -> dict[str, Any]:
        n = self.battle + offset
        battles = self.json["battles"]
        assert len(battles) >= n, f"battle {n} was not played: {self.json['error']}"
        result: dict[str, Any] = battles[n - 1]
        return result


def _card(spec: Any) -> dict[str, Any]:
    if isinstance(spec, tuple):
        spec = spec[0]
    if isinstance(spec, dict):
        return spec
    return FILLER if spec == "Filler" else {"name": spec}


def scene(
    card: str,
    *,
    a: int | Hero = 100,
    b: int | Hero = 100,
    prior: str = "",
    prior_a: Sequence[int | Hero] = (),
    prior_b: Sequence[int | Hero] = (),
    later_a: Sequence[int | Hero] = (),
    later_b: Sequence[int | Hero] = (),
    honors: str = "A",
    dogs: tuple[int, int] = (10, 10),
    hand: Sequence[RunSpec] = (),
    opp_hand: Sequence[RunSpec] = (),
    bench: Sequence[int | Hero] | None = None,
    opp_bench: Sequence[int | Hero] | None = None,
    playbook: tuple[int, int] = (26, 26),
    pre: Sequence[RunSpec] = (),
    post: Sequence[RunSpec] = (),
    opp_runs: Sequence[RunSpec] = (),
    sub: str | None = None,
    opp_sub: str | None = None,
    extra: int = 0,
    next_a: Sequence[RunSpec] = (),
    next_b: Sequence[RunSpec] = (),
    next_sub_b: str | None = None,
    earlier: Sequence[RunSpec] = (),
    earlier_b: Sequence[RunSpec] = (),
    runner: str = "A",
    **run: Any,
) -> Out:
    """Player ``runner`` (A) runs ``card`` in battle ``len(prior) + 1``.

    ``prior``: winners of the earlier battles ("A", "B" or "D" for a draw), made with
    150-v-100 heroes (``prior_a``/``prior_b`` override them). ``a``/``b``: the heroes of the
    card's battle; ``later_a``/``later_b`` those of the battles after it (default 100).
    ``pre``/``post``: plays A runs before/after the card; ``opp_runs``: plays B runs in the
    same battle (before A when B has honors, else after); ``sub``/``opp_sub``: a bench hero
    substituted in this battle (a 2-hot-dog substitution). ``extra``: battles played after
    it (``next_a``/``next_b`` run there). Remaining keywords (``choices``, ``random``,
    ``drawn``) go into the card's run action; ``earlier``/``earlier_b``: plays A/B run in
    the battle before the card's; ``drawn`` entries may be hero tuples or play
    specs, turned into fresh cards.
    """
    n = len(prior) + 1
    la: list[Hero] = []
    lb: list[Hero] = []
    for i, w in enumerate(prior):
        pa: int | Hero = 150 if w == "A" else 100
        pb: int | Hero = 150 if w == "B" else 100
        la.append(_hero(prior_a[i] if i < len(prior_a) else pa))
        lb.append(_hero(prior_b[i] if i < len(prior_b) else pb))
    la.append(_hero(a))
    lb.append(_hero(b))
    for i in range(7 - n):
        la.append(_hero(later_a[i] if i < len(later_a) else 100))
        lb.append(_hero(later_b[i] if i < len(later_b) else 100))
    cards: dict[str, dict[str, Any]] = {"a1": {"name": card}}
    hands: dict[str, list[str]] = {"A": ["a1"], "B": []}
    counter: dict[str, int] = {"a": 1}

    def new(prefix: str, spec: dict[str, Any], owner: str | None) -> str:
        counter[prefix] = counter.get(prefix, 0) + 1
        cid = f"{prefix}{counter[prefix]}"
        cards[cid] = spec
        if owner is not None:
            hands[owner].append(cid)
        return cid

    for spec in hand:
        new("a", _card(spec), "A")
    for spec in opp_hand:
        new("b", _card(spec), "B")

    def drawn_ids(items: Sequence[Any]) -> list[str]:
        ids = []
        for it in items:
            if isinstance(it, str) and (it in cards or re.fullmatch(r"[AB][BD]?\d", it)):
                ids.append(it)
            elif isinstance(it, tuple) and isinstance(it[0], int):
                p, w = it
                cid = new("h", {"kind": "hero", "name": f"Hero {p} {w}", "variant": "Base"}, None)
                cards[cid].update({"power": p, "weapon": w})
                ids.append(cid)
            else:
                ids.append(new("x", _card(it), None))
        return ids

    def runs(specs: Sequence[RunSpec], prefix: str, who: str) -> list[dict[str, Any]]:
        out = []
        for spec in specs:
            extra_fields = dict(spec[1]) if isinstance(spec, tuple) else {}
            if "drawn" in extra_fields:
                extra_fields["drawn"] = drawn_ids(extra_fields["drawn"])
            cid = new(prefix, _card(spec), who)
            out.append(act(who, "run", cid, **extra_fields))
        return out

    if "drawn" in run:
        run["drawn"] = drawn_ids(run["drawn"])
    if isinstance(run.get("choices"), dict) and "trigger" in run["choices"]:
        trig = dict(run["choices"]["trigger"])
        if "drawn" in trig:
            trig["drawn"] = drawn_ids(trig["drawn"])
        run["choices"] = {**run["choices"], "trigger": trig}
    plan: dict[int, dict[str, list[dict[str, Any]]]] = {}
    mine = [*runs(pre, "p", runner), act(runner, "run", "a1", **run), *runs(post, "q", runner)]
    other = "B" if runner == "A" else "A"
    if earlier or earlier_b:
        plan[n - 1] = {"A": runs(earlier, "e", "A"), "B": runs(earlier_b, "c", "B")}
    plan[n] = {runner: mine, other: runs(opp_runs, "b", other)}
    if extra:
        plan[n + 1] = {"A": runs(next_a, "a", "A"), "B": runs(next_b, "b", "B")}
    subs = {(n, "A"): sub, (n, "B"): opp_sub, (n + 1, "B"): next_sub_b}
    record = make_record("playmaker", a=list(la), b=list(lb), plays={}, hands=hands, honors=honors)
    record["cards"].update({cid: {"kind": "play", **c} for cid, c in cards.items()})
    for cid, c in cards.items():
        if c.get("kind") == "hero":
            record["cards"][cid] = c
    for pid, heroes in (("A", bench), ("B", opp_bench)):
        if heroes is not None:
            ids = []
            padded = [*heroes, *[(200, NEUTRAL)] * (4 - len(heroes))]
            for i, h in enumerate(padded):
                p, w = _hero(h)
                cid = f"{pid}B{i + 1}"
                record["cards"][cid] = {
                    "kind": "hero",
                    "name": f"{pid} bench {i + 1}",
                    "variant": "Base",
                    "power": p,
                    "weapon": w,
                }
                ids.append(cid)
            record["setup"][pid]["bench"] = ids
    for i, pid in enumerate("AB"):
        record["setup"][pid]["hot_dogs"] = dogs[i]
        record["setup"][pid]["playbook_size"] = playbook[i]
    fillers = 0
    last = n + extra
    acts: list[dict[str, Any]] = record["actions"]
    done_play: set[tuple[int, str]] = set()
    while True:
        r = replay(record)
        s = r.state
        if r.error is not None or s is None or s.phase == "over":
            break
        if s.battle > last or (s.battle == last and s.phase == "draw"):
            break
        who = "AB"[s.turn]
        if s.phase == "draw":
            for i, pid in enumerate("AB"):
                if s.p[i].pending_draws > 0:
                    fillers += 1
                    record["cards"][f"f{fillers}"] = {"kind": "play", **FILLER}
                    acts.append(act(pid, "draw", f"f{fillers}"))
                    break
        elif s.phase == "substitution":
            bench_id = subs.get((s.battle, who))
            if bench_id:
                acts.append(act(who, "substitute", bench_id, draw=None))
            else:
                acts.append(act(who, "pass"))
        elif s.phase == "play":
            key = (s.battle, who)
            todo = plan.get(s.battle, {}).get(who, [])
            if key not in done_play and todo:
                done_play.add(key)
                acts.extend(todo)
            else:
                acts.append(act(who, "pass"))
        else:
            break
    r = replay(record)
    return Out(record, r.to_json(), r, n)


def check(out: Out, expected: dict[str, Any]) -> None:
    """Assert the outcome keys in ``expected`` (pairs are (A, B)):

    ``error`` (code; otherwise the record must be legal), ``power`` / ``next`` (final power
    in the card's battle / the one after), ``winner`` / ``next_winner``, ``heroes`` (ids of
    the battle's heroes), ``dogs`` (available hot dogs at the end), ``hand`` (plays in hand),
    ``bench`` (heroes in hand; a ``bench`` setup is padded to 4 with 200 Brawl heroes),
    ``discard`` (cards in the discard pile), ``playbook``,
    ``pending`` (play draws due), ``honors_next``, ``trophies``.
    """
    err = out.json["error"]
    if "error" in expected:
        assert (err or {}).get("code") == expected["error"], f"got error {err}"
        return
    assert err is None, f"unexpected error {err}"
    s = out.replay.state
    assert s is not None
    got: dict[str, Any] = {}
    for key in expected:
        if key == "power":
            got[key] = _pair(out.battle_json()["power"])
        elif key == "next":
            got[key] = _pair(out.battle_json(1)["power"])
        elif key == "next2":
            got[key] = _pair(out.battle_json(2)["power"])
        elif key == "winner":
            got[key] = out.battle_json()["winner"]
        elif key == "next_winner":
            got[key] = out.battle_json(1)["winner"]
        elif key == "heroes":
            got[key] = _pair(out.battle_json()["heroes"])
        elif key == "honors_next":
            got[key] = out.battle_json()["honors_next"]
        elif key == "trophies":
            got[key] = _pair(out.json["trophies"])
        elif key == "dogs":
            got[key] = (s.p[0].hot_dogs, s.p[1].hot_dogs)
        elif key == "hand":  # the driver's end-of-battle fillers (f*) left out
            got[key] = tuple(sum(not c.startswith("f") for c in s.p[i].hand) for i in (0, 1))
        elif key == "bench":
            got[key] = (len(s.p[0].bench), len(s.p[1].bench))
        elif key == "discard":
            got[key] = (len(s.p[0].discard), len(s.p[1].discard))
        elif key == "playbook":  # before the driver's end-of-battle draws
            got[key] = tuple(
                s.p[i].playbook_size + sum(c.startswith("f") for c in s.p[i].hand) for i in (0, 1)
            )
        elif key == "pending":
            got[key] = (s.p[0].pending_draws, s.p[1].pending_draws)
        else:
            raise KeyError(key)
    assert got == expected, f"got {got}, expected {expected}"


def _pair(d: dict[str, Any]) -> tuple[Any, Any]:
    return (d["A"], d["B"])


def row(
    card: str,
    expected: dict[str, Any],
    note: str = "",
    marks: Any = (),
    **setup: Any,
) -> Any:
    """One table row: ``card`` run with ``setup`` (keywords of :func:`scene`) gives
    ``expected`` (keys of :func:`check`); the id is the card's name (plus `` | note``)."""
    return pytest.param(
        card, setup, expected, id=card + (f" | {note}" if note else ""), marks=marks
    )


def disagreement(card: str, what: str) -> Any:
    """An engine result that differs from the card text (strict xfail, see findings)."""
    return pytest.mark.xfail(strict=True, reason=f"engine disagreement: {card}: {what}")


def card_of(row_id: str) -> str:
    return row_id.split(" | ")[0]
