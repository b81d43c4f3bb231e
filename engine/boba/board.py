"""The table as a judge reads it: pure helpers for the adjudication page.

:func:`board` turns a :class:`~engine.boba.state.GameState` into the seven battle zones per
player (hero, power, the modifiers that made it, winner and how decided), each player's hot
dogs, bench, hand and trophies, and who has honors. :func:`legal_options` lists the actions
allowed now in a form-friendly way (a label and which outcome fields the action still needs).
:func:`position` gives the position after the first ``step`` actions of a replay. No Django.
"""

from __future__ import annotations

from typing import Any

from .actions import Action
from .cards import Hero, Play
from .record import Record
from .replay import Replay
from .results import BattleResult
from .rules import BATTLES, PLAYERS
from .state import GameState

DECIDED_BY = {
    "power": "higher power",
    "super": "Super tie breaker (CR 4.3.2)",
    "draw": "a draw",
    "rule": "a play's rule",
}

# What each kind of action still needs from the judge (outcomes from hidden zones).
NEEDS: dict[str, tuple[str, ...]] = {
    "substitute": ("draw",),
    "draw": ("card",),
    "reveal": ("card",),
    "run": ("choices", "random", "drawn"),
    "pass": (),
}


def card_name(record: Record, card_id: str | None) -> str:
    """A card as a judge reads it: its printed name with the record's id."""
    if card_id is None:
        return "-"
    card = record.cards.get(card_id)
    name = getattr(card, "name", None)
    return f"{name} ({card_id})" if name else card_id


def _hero(record: Record, card_id: str) -> dict[str, Any]:
    card = record.cards.get(card_id)
    if isinstance(card, Hero):
        return {
            "id": card_id,
            "name": card.name,
            "variant": card.variant,
            "printed": card.power,
            "weapon": card.weapon,
        }
    return {"id": card_id, "name": card_id, "variant": "", "printed": 0, "weapon": ""}


def _mods(record: Record, mods: Any) -> list[dict[str, Any]]:
    return [
        {"source": src, "name": card_name(record, src), "amount": amount} for src, amount in mods
    ]


def _resolved_zone(record: Record, r: BattleResult) -> dict[str, Any]:
    sides = {}
    for i, p in enumerate(PLAYERS):
        hero = _hero(record, r.heroes[i])
        hero["power"] = r.power[i]
        hero["modifiers"] = _mods(record, r.modifiers[i])
        hero["won"] = r.winner == i
        sides[p] = hero
    return {
        "battle": r.battle,
        "status": "resolved",
        "sides": sides,
        "winner": None if r.winner is None else PLAYERS[r.winner],
        "decided_by": r.decided_by,
        "decided_by_text": DECIDED_BY.get(r.decided_by, r.decided_by),
        "honors_next": PLAYERS[r.honors_next],
    }


def zones(record: Record, state: GameState) -> list[dict[str, Any]]:
    """The seven battle zones, battle 1 first: resolved ones from the history, the battle being
    fought with its power now, later ones with the heroes waiting in them."""
    done = {r.battle: r for r in state.history}
    live = state.phase in ("substitution", "play") and state.battle not in done
    out: list[dict[str, Any]] = []
    for b in range(1, BATTLES + 1):
        if b in done:
            out.append(_resolved_zone(record, done[b]))
            continue
        current = live and b == state.battle
        sides = {}
        for i, p in enumerate(PLAYERS):
            lineup = state.p[i].lineup
            hero = _hero(record, lineup[b - 1]) if b - 1 < len(lineup) else _hero(record, "?")
            if current:
                hero["power"] = state.power(i)
                hero["modifiers"] = _mods(record, state.modifiers(i))
            else:
                hero["power"] = hero["printed"]
                hero["modifiers"] = []
            hero["won"] = False
            sides[p] = hero
        out.append(
            {
                "battle": b,
                "status": "current" if current else "upcoming",
                "sides": sides,
                "winner": None,
                "decided_by": None,
                "decided_by_text": "",
                "honors_next": None,
            }
        )
    return out


def players(record: Record, state: GameState) -> dict[str, dict[str, Any]]:
    """Each player's counters and hidden-ish zones, by "A"/"B"."""
    out = {}
    for i, p in enumerate(PLAYERS):
        ps = state.p[i]
        out[p] = {
            "name": record.players.get(p, p),
            "trophies": ps.trophies,
            "hot_dogs": ps.hot_dogs,
            "hot_dogs_discarded": ps.hot_dogs_discarded,
            "honors": state.honors == i,
            "bench": [card_name(record, c) for c in ps.bench],
            "hand": [card_name(record, c) for c in ps.hand],
            "discard": [card_name(record, c) for c in ps.discard],
            "playbook_size": ps.playbook_size,
        }
    return out


def describe_action(record: Record, action: Action) -> str:
    """One action in words: "A substitutes Name (h2), draws Name (h9)"."""
    who = action.player
    if action.do == "pass":
        return f"{who} passes"
    if action.do == "substitute":
        drawn = card_name(record, action.draw) if action.draw else "nothing"
        return f"{who} substitutes {card_name(record, action.card)}, draws {drawn}"
    if action.do == "run":
        text = f"{who} runs {card_name(record, action.card)}"
        if action.random:
            text += f" (random: {', '.join(str(r) for r in action.random)})"
        return text
    if action.do == "draw":
        card = card_name(record, action.card) if action.card else "a play"
        return f"{who} draws {card}"
    card = card_name(record, action.card) if action.card else "the top hero"
    return f"{who} reveals {card}"


def board(record: Record, state: GameState) -> dict[str, Any]:
    """Everything the page shows of one position."""
    result = state.result
    return {
        "battle": state.battle,
        "phase": state.phase,
        "honors": PLAYERS[state.honors],
        "zones": zones(record, state),
        "players": players(record, state),
        "sudden_death": [r.to_json() for r in state.sd_rounds],
        "result": result.to_json() if result is not None else None,
        "next": state.next_expected(),
    }


def legal_options(record: Record, state: GameState) -> list[dict[str, Any]]:
    """The actions allowed now, each with a stable ``key`` (its index), a label, the action's
    JSON (hidden outcomes left out) and the outcome fields it still needs."""
    out = []
    for i, action in enumerate(state.legal_actions()):
        needs = NEEDS.get(action.do, ())
        label = describe_action(record, action)
        if action.do == "substitute":
            label = f"{action.player} substitutes {card_name(record, action.card)}"
        elif action.do == "run":
            play = record.cards.get(action.card or "")
            cost = (
                state.play_cost(PLAYERS.index(action.player), play)
                if isinstance(play, Play)
                else None
            )
            if cost is not None:
                label += f" (cost {cost})"
        out.append(
            {
                "key": str(i),
                "label": label,
                "action": action.to_json(),
                "player": action.player,
                "do": action.do,
                "needs": list(needs),
            }
        )
    return out


def position(rep: Replay, step: int) -> GameState | None:
    """The position after the first ``step`` actions (0: after setup) of a replay kept with
    its states; None for a malformed record."""
    if rep.record is None:
        return None
    if step <= 0 or not rep.states:
        return GameState.initial(rep.record)
    return rep.states[min(step, len(rep.states)) - 1]


def max_step(rep: Replay) -> int:
    """The last step a replay reached: the number of legal actions it applied."""
    return len(rep.states)
