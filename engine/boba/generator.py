"""A seeded random game generator: legal BoBA games in every mode, as records.

``random_game(seed, mode)`` deals two decks from a :class:`Catalog`, picks among
``GameState.legal_actions()`` with one ``random.Random(seed)`` (never the module-level
``random``), and fills in what the engine cannot know (the next card of a deck, coin and die
results, choices) by asking the engine: an action that lacks an outcome raises
IllegalActionError with ``needs``, which the generator supplies from its own decks and
generator before trying again. The same seed always gives the same record.

:func:`deal` is the start of such a game (the record without actions, its position and the
hidden decks); :meth:`Deal.choose` picks and completes one action at random: what
:func:`random_game` plays with, and what every game's protocol tests drive BoBA with.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .actions import Action
from .effects import WEAPONS
from .errors import IllegalActionError
from .play_library import base_name, library_names, lookup_play, normalise_name
from .record import RECORD_FORMAT, parse_record
from .rules import BATTLES, BENCH_SIZE, HOT_DOGS, OPENING_PLAYS, PLAYERS
from .state import GameState

HERO_DECK = 60
PLAYBOOK = 30
MAX_TRIES = 40
MAX_PLAYS_PER_TURN = 4

# Synthetic plays exercising the vocabulary (not real cards; the real ones are in the library).
SYNTHETIC_PLAYS: tuple[tuple[str, int, list[dict[str, Any]]], ...] = (
    ("Gen Boost", 1, [{"power": 10, "target": "own"}]),
    ("Gen Drain", 2, [{"power": -20, "target": "opp"}]),
    ("Gen Coin", 1, [{"flip": 2}, {"power": {"count": "heads", "times": 10}}]),
    ("Gen Die", 1, [{"roll": 1}, {"if": {"die": [5, 6]}, "then": [{"power": 30}]}]),
    ("Gen Draw", 1, [{"draw": 1, "deck": "plays"}]),
    ("Gen Recover", 0, [{"recover": 2}]),
    ("Gen Later", 2, [{"power": 15, "target": "own", "battles": [1, 2]}]),
    ("Gen Aura", 2, [{"power": 5, "target": "both", "weapon": "Fire", "battles": "rest"}]),
    ("Gen Tax", 1, [{"cost": 1, "who": "opp", "battles": [0, 1]}]),
    ("Gen Lock", 3, [{"prevent": "substitute", "who": "opp", "battles": [1]}]),
    ("Gen Winner", 1, [{"on": "win", "do": [{"recover": 2}]}]),
    ("Gen Discard", 0, [{"discard": 1, "from": "hand_plays", "required": True}, {"power": 20}]),
    ("Gen Choose", 1, [{"choose": {"a": [{"power": 10}], "b": [{"recover": 1}]}}]),
    ("Gen Swap", 3, [{"swap_power": True}]),
    ("Gen Hero Swap", 2, [{"replace_hero": "hand", "old_to": "hand"}]),
    ("Gen Pay", 0, [{"pay": "any", "required": True}, {"power": {"count": "paid", "times": 10}}]),
    ("Gen Stop", 3, [{"prevent": "run_plays", "who": "opp"}]),
    ("Gen Top", 1, [{"reveal_top": 2, "deck": "plays", "keep": 1, "rest": "discard"}]),
    ("Gen Cancel", 1, [{"cancel": "ongoing", "who": "opp"}]),
    ("Gen Weapons", 2, [{"set_weapon": "Super", "target": "own", "battles": "this"}]),
)


@dataclass(frozen=True, slots=True)
class Catalog:
    """Cards to deal from: heroes (name, variant, power, weapon) and plays (name, cost,
    effect; effect None means the play library's)."""

    heroes: tuple[tuple[str, str, int, str], ...]
    plays: tuple[tuple[str, int | None, list[dict[str, Any]] | None], ...] = field(default=())


@cache
def default_catalog(seed: int = 0) -> Catalog:
    """A generated catalog: 150 synthetic heroes, the whole play library (variants included:
    they resolve to their base play's effect at their own cost, CR 2.1.2) and synthetic plays."""
    rng = random.Random(seed)
    heroes = tuple(
        (f"Hero {i}", "Base", rng.randrange(55, 251, 5), rng.choice(WEAPONS)) for i in range(150)
    )
    plays: list[tuple[str, int | None, list[dict[str, Any]] | None]] = [
        (name, None, None) for name in library_names()
    ]
    plays.extend((n, c, e) for n, c, e in SYNTHETIC_PLAYS)
    return Catalog(heroes, tuple(plays))


def _deal_plays(
    rng: random.Random, plays: tuple[tuple[str, int | None, Any], ...], n: int
) -> list[int]:
    """Indices of up to ``n`` catalog plays, no two of them the same Play: a variant and its
    base count as one card, and a playbook holds one copy of a Play (CR 2.1.2)."""
    picks = rng.sample(range(len(plays)), min(n, len(plays)))
    seen: set[str] = set()
    out: list[int] = []
    for k in picks:
        key = normalise_name(base_name(plays[k][0]))
        if key not in seen:
            seen.add(key)
            out.append(k)
    if len(out) < len(picks):  # a variant came with its base (rare): deal others instead
        for k in rng.sample(range(len(plays)), len(plays)):
            key = normalise_name(base_name(plays[k][0]))
            if key not in seen:
                seen.add(key)
                out.append(k)
                if len(out) == len(picks):
                    break
    return out


class _Dealer:
    """The hidden decks the generator knows and the engine doesn't."""

    def __init__(self, rng: random.Random, catalog: Catalog, mode: str) -> None:
        self.cards: dict[str, dict[str, Any]] = {}
        self.heroes: list[list[str]] = [[], []]
        self.plays: list[list[str]] = [[], []]
        for i, pid in enumerate(PLAYERS):
            picks = rng.sample(range(len(catalog.heroes)), min(HERO_DECK, len(catalog.heroes)))
            for n, k in enumerate(picks):
                name, variant, power, weapon = catalog.heroes[k]
                cid = f"{pid}h{n}"
                self.cards[cid] = {
                    "kind": "hero",
                    "name": name,
                    "variant": variant,
                    "power": power,
                    "weapon": weapon,
                }
                self.heroes[i].append(cid)
            if mode == "playmaker":
                for n, k in enumerate(_deal_plays(rng, catalog.plays, PLAYBOOK)):
                    name, cost, effect = catalog.plays[k]
                    cid = f"{pid}p{n}"
                    entry: dict[str, Any] = {"kind": "play", "name": name}
                    if effect is not None or lookup_play(name) is None:
                        entry["cost"] = cost if cost is not None else 0
                        entry["effect"] = effect or []
                    self.cards[cid] = entry
                    self.plays[i].append(cid)

    def next(self, state: GameState, pi: int, kind: str) -> str | None:
        for cid in self.heroes[pi] if kind == "hero" else self.plays[pi]:
            if cid not in state.located:
                return cid
        return None


@dataclass(slots=True)
class Deal:
    """A dealt game: its ``record`` (no actions yet), the position after setup, and the
    hidden decks and random generator that fill in what the engine cannot know."""

    record: dict[str, Any]
    state: GameState
    dealer: _Dealer
    rng: random.Random
    runs: int = 0  # plays run in a row by the current player (kept under MAX_PLAYS_PER_TURN)

    def choose(self, state: GameState) -> tuple[GameState, Action] | None:
        """A legal action for ``state``, picked at random and completed (the next card of a
        deck, coins, dice, choices), with the position after it (a copy: ``state`` itself is
        not changed); None when none can be completed (the game cannot go on)."""
        legal = state.legal_actions()
        if not legal:
            return None
        action = _pick(self.rng, legal, self.runs < MAX_PLAYS_PER_TURN)
        done = _try(state, action, self.dealer, self.rng)
        if done is None:
            # cannot complete this one (e.g. a required discard it can't make): pass instead
            fallback = [a for a in legal if a.do in ("pass", "draw", "reveal")]
            done = _try(state, fallback[0], self.dealer, self.rng) if fallback else None
            if done is None:
                return None
        self.runs = self.runs + 1 if done[1].do == "run" else 0
        return done


def deal(
    seed: int,
    mode: str = "playmaker",
    catalog: Catalog | None = None,
    options: dict[str, bool] | None = None,
) -> Deal:
    """The start of a random game from ``seed``: decks dealt, honors and direction drawn."""
    rng = random.Random(seed)
    catalog = catalog or default_catalog()
    dealer = _Dealer(rng, catalog, mode)
    if options is None:
        options = {"stop_at_four": rng.random() < 0.7, "tiebreakers": rng.random() < 0.5}
    setup: dict[str, Any] = {}
    for i, pid in enumerate(PLAYERS):
        deck = dealer.heroes[i]
        entry: dict[str, Any] = {"battles": deck[:BATTLES]}
        if mode != "rookie":
            entry["bench"] = deck[BATTLES : BATTLES + BENCH_SIZE]
            entry["hot_dogs"] = HOT_DOGS
        if mode == "playmaker":
            entry["hand"] = dealer.plays[i][:OPENING_PLAYS]
            entry["playbook_size"] = len(dealer.plays[i]) - OPENING_PLAYS
        setup[pid] = entry
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "mode": mode,
        "options": options,
        "players": {"A": f"Player A{seed}", "B": f"Player B{seed}"},
        "honors": rng.choice(PLAYERS),
        "direction": rng.choice(("left-to-right", "right-to-left")),
        "cards": dealer.cards,
        "setup": setup,
        "actions": [],
    }
    return Deal(record, GameState.initial(parse_record(record)), dealer, rng)


def random_game(
    seed: int,
    mode: str = "playmaker",
    catalog: Catalog | None = None,
    options: dict[str, bool] | None = None,
    max_actions: int = 600,
) -> dict[str, Any]:
    """A legal game record (decoded JSON) played out at random from ``seed``."""
    game = deal(seed, mode, catalog, options)
    state = game.state
    actions: list[dict[str, Any]] = []
    while not state.is_terminal() and len(actions) < max_actions:
        done = game.choose(state)
        if done is None:
            break
        state, action = done
        actions.append(action.to_json())
    record = dict(game.record)
    record["actions"] = actions
    return record


def _pick(rng: random.Random, legal: list[Action], runs_ok: bool) -> Action:
    subs = [a for a in legal if a.do == "substitute"]
    runs = [a for a in legal if a.do == "run"]
    if subs and rng.random() < 0.3:
        return rng.choice(subs)
    if runs and runs_ok and rng.random() < 0.6:
        return rng.choice(runs)
    for a in legal:
        if a.do in ("pass", "draw", "reveal"):
            return a
    return legal[0]


def _try(
    state: GameState, action: Action, dealer: _Dealer, rng: random.Random
) -> tuple[GameState, Action] | None:
    """Fill in the action's hidden outcomes and apply it to a clone; None if impossible."""
    pi = PLAYERS.index(action.player)
    if action.do == "substitute":
        action = Action(action.player, "substitute", action.card, dealer.next(state, pi, "hero"))
    elif action.do in ("draw", "reveal"):
        kind = "play" if action.do == "draw" else "hero"
        card = dealer.next(state, pi, kind)
        if card is None:
            return None
        action = Action(action.player, action.do, card)
    rnd: list[str | int] = list(action.random)
    drawn: list[str] = list(action.drawn)
    choices: dict[str, Any] = dict(action.choices)
    probe = True
    for _ in range(MAX_TRIES):
        trial = Action(
            action.player, action.do, action.card, action.draw, choices, tuple(rnd), tuple(drawn)
        )
        s = state.clone()
        s.probe = probe
        try:
            s.apply(trial)
        except IllegalActionError as exc:
            need = exc.needs
            if need is None:
                return None
            if need.kind == "random":
                rnd.append(
                    rng.choice(("heads", "tails")) if need.detail == "coin" else rng.randint(1, 6)
                )
            elif need.kind == "drawn":
                owner = pi if need.player is None else need.player
                nxt = dealer.next(_with_drawn(state, drawn), owner, need.detail)
                if nxt is None:
                    if "optional" in need.options:
                        probe = False
                        continue
                    return None
                drawn.append(nxt)
            elif need.kind == "pick" and need.options:
                drawn.append(rng.choice(need.options))
            elif need.kind == "choice" and need.options:
                if need.count > 1 or need.detail in ("discard", "keep", "search"):
                    k = min(need.count, len(need.options))
                    choices[need.detail] = rng.sample(list(need.options), k)
                else:
                    choices[need.detail] = rng.choice(need.options)
            else:
                return None
            continue
        s.probe = False
        return s, trial
    return None


def _with_drawn(before: GameState, drawn: list[str]) -> GameState:
    """The position before the action, with the cards already promised in ``drawn`` taken."""
    view = before.clone()
    view.located.update(drawn)
    return view
