"""Game records (../shared/spec/boba-game-record.md): parse, validate, serialise.

:func:`load_record` takes JSON text (or bytes), :func:`parse_record` an already-decoded
object; both return a :class:`Record` or raise :class:`RecordError` naming the offending field
(``setup.A.battles``). Shape, types, card ids and the setup are checked here; whether the
actions are legal is the state's business (:mod:`engine.boba.state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import decode_record_json
from .actions import Action, action_from_json
from .cards import Card, Hero, HotDog, Play
from .effects import WEAPONS, EffectError, check_play_extras, validate_effect
from .errors import RecordError
from .play_library import base_name, lookup_play
from .rules import BATTLES, BENCH_SIZE, HOT_DOGS, MODES, PLAYERS, Options

RECORD_FORMAT = "boba-game-record/1"
MAX_BYTES = 32 * 1024 * 1024
MAX_ACTIONS = 5000
MAX_CARDS = 5000
MAX_TEXT = 200
MAX_PLAYBOOK = 1000
PLAYBOOK_SIZE = 30


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """One player's opening position (CR 4.1.1, 4.2.1, 4.3.1)."""

    battles: tuple[str, ...]
    bench: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    hot_dogs: int = 0
    playbook_size: int = 0


@dataclass(frozen=True, slots=True)
class Record:
    """A parsed game record."""

    mode: str
    options: Options
    players: dict[str, str]
    honors: str
    direction: str
    cards: dict[str, Card]
    setup: dict[str, PlayerSetup]
    actions: tuple[Action, ...]
    raw_cards: dict[str, Any]

    def with_actions(self, actions: tuple[Action, ...]) -> Record:
        return Record(
            self.mode,
            self.options,
            self.players,
            self.honors,
            self.direction,
            self.cards,
            self.setup,
            actions,
            self.raw_cards,
        )

    def to_json(self) -> dict[str, Any]:
        setup: dict[str, Any] = {}
        for p in PLAYERS:
            s = self.setup[p]
            entry: dict[str, Any] = {"battles": list(s.battles)}
            if self.mode != "rookie":
                entry["bench"] = list(s.bench)
                entry["hot_dogs"] = s.hot_dogs
            if self.mode == "playmaker":
                entry["hand"] = list(s.hand)
                entry["playbook_size"] = s.playbook_size
            setup[p] = entry
        return {
            "format": RECORD_FORMAT,
            "mode": self.mode,
            "options": {
                "stop_at_four": self.options.stop_at_four,
                "tiebreakers": self.options.tiebreakers,
            },
            "players": dict(self.players),
            "honors": self.honors,
            "direction": self.direction,
            "cards": self.raw_cards,
            "setup": setup,
            "actions": [a.to_json() for a in self.actions],
        }


def _text(v: Any, path: str) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > MAX_TEXT:
        raise RecordError(path, f"must be a non-empty string of at most {MAX_TEXT} characters")
    return v


def _int(v: Any, path: str, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RecordError(path, f"must be an integer from {lo} to {hi}")
    return v


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise RecordError(path, "must be true or false")
    return v


def _parse_card(cid: str, data: Any, path: str) -> Card:
    if not isinstance(data, dict):
        raise RecordError(path, "a card must be an object")
    kind = data.get("kind")
    if kind == "hero":
        weapon = data.get("weapon")
        if weapon not in WEAPONS:
            raise RecordError(f"{path}.weapon", f"must be one of {', '.join(WEAPONS)}")
        variant = data.get("variant", "")
        if not isinstance(variant, str) or len(variant) > MAX_TEXT:
            raise RecordError(f"{path}.variant", "must be a string")
        return Hero(
            cid,
            _text(data.get("name"), f"{path}.name"),
            variant,
            _int(data.get("power"), f"{path}.power", 0, 10000),
            weapon,
        )
    if kind == "play":
        name = _text(data.get("name"), f"{path}.name")
        known = lookup_play(name)
        try:
            if "effect" in data:
                effect = validate_effect(data["effect"], f"{path}.effect")
            elif known is not None:
                effect = known.effect
            else:
                raise RecordError(
                    f"{path}.effect", f"{name!r} is not in the play library: give its effect"
                )
            check_play_extras(data, path)
        except EffectError as exc:
            raise RecordError(exc.field, exc.message) from None
        except RecursionError:
            raise RecordError(f"{path}.effect", "is nested too deeply") from None
        if "cost" in data:
            cost = data["cost"]
            if cost is not None:
                cost = _int(cost, f"{path}.cost", 0, 100)
        elif known is not None:
            cost = known.cost
        else:
            raise RecordError(f"{path}.cost", f"{name!r} is not in the play library: give its cost")
        requires = data.get("requires", known.requires if known and "effect" not in data else None)
        cost_if = data.get("cost_if", known.cost_if if known and "effect" not in data else ())
        bonus = _bool(data.get("bonus", known.bonus if known else False), f"{path}.bonus")
        return Play(
            cid,
            name,
            known.base if known else base_name(name),
            cost,
            effect,
            bonus,
            requires,
            tuple(cost_if),
        )
    if kind in ("hot_dog", "hotdog"):
        return HotDog(cid, _text(data.get("name", "Hot Dog"), f"{path}.name"))
    raise RecordError(f"{path}.kind", "must be 'hero', 'play' or 'hot_dog'")


def _ids(
    v: Any, path: str, cards: Mapping[str, Card], kind: str, size: int | None
) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise RecordError(path, "must be a list of card ids")
    if size is not None and len(v) != size:
        raise RecordError(path, f"must list exactly {size} {kind} ids, not {len(v)}")
    if len(v) > MAX_PLAYBOOK:
        raise RecordError(path, "is too long")
    out = []
    for i, cid in enumerate(v):
        sub = f"{path}[{i}]"
        if not isinstance(cid, str):
            raise RecordError(sub, "must be a card id")
        card = cards.get(cid)
        if card is None:
            raise RecordError(sub, f"unknown card id {cid[:MAX_TEXT]!r}")
        if card.kind != kind:
            raise RecordError(sub, f"{cid!r} is a {card.kind}, not a {kind}")
        out.append(cid)
    return tuple(out)


_NOT_IN_MODE: dict[str, tuple[str, ...]] = {
    "rookie": ("bench", "hand", "hot_dogs", "playbook_size"),
    "substitution": ("hand", "playbook_size"),
    "playmaker": (),
}


def _parse_setup(v: Any, path: str, mode: str, cards: Mapping[str, Card]) -> PlayerSetup:
    if not isinstance(v, dict):
        raise RecordError(path, "must be an object")
    battles = _ids(v.get("battles"), f"{path}.battles", cards, "hero", BATTLES)
    # Spec: Rookie setups have no bench, hand or hot dogs (CR 1.2.1: the Hero deck only);
    # Substitution setups have no hand or playbook_size (CR 1.2.2: no Playbook).
    for key in _NOT_IN_MODE[mode]:
        if v.get(key) is not None:
            raise RecordError(f"{path}.{key}", f"a {mode.capitalize()} setup has no {key}")
    if mode == "rookie":
        return PlayerSetup(battles)
    bench = _ids(v.get("bench"), f"{path}.bench", cards, "hero", BENCH_SIZE)
    hot_dogs = _int(v.get("hot_dogs", HOT_DOGS), f"{path}.hot_dogs", 0, HOT_DOGS)
    if mode == "substitution":
        return PlayerSetup(battles, bench, (), hot_dogs)
    hand = _ids(v.get("hand"), f"{path}.hand", cards, "play", None)
    # a Playbook is exactly 30 plays (README decision 2): by default the rest are still in it
    default_size = max(0, PLAYBOOK_SIZE - len(hand))
    size = _int(v.get("playbook_size", default_size), f"{path}.playbook_size", 0, MAX_PLAYBOOK)
    return PlayerSetup(battles, bench, hand, hot_dogs, size)


def parse_record(data: Any) -> Record:
    """Validate a decoded record; raise RecordError naming the first offending field."""
    try:
        return _parse_record(data)
    except RecursionError:
        raise RecordError("record", "is nested too deeply") from None


def _parse_record(data: Any) -> Record:
    if not isinstance(data, dict):
        raise RecordError("record", "must be a JSON object")
    fmt = data.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise RecordError("format", f"must be {RECORD_FORMAT!r}")
    mode = data.get("mode")
    if mode not in MODES:
        raise RecordError("mode", f"must be one of {', '.join(MODES)}")
    opts = data.get("options", {})
    if opts is None:
        opts = {}
    if not isinstance(opts, dict):
        raise RecordError("options", "must be an object")
    options = Options(
        _bool(opts.get("stop_at_four", True), "options.stop_at_four"),
        _bool(opts.get("tiebreakers", False), "options.tiebreakers"),
    )
    players_raw = data.get("players", {"A": "A", "B": "B"})
    if not isinstance(players_raw, dict):
        raise RecordError("players", "must be an object with A and B")
    players = {p: _text(players_raw.get(p, p), f"players.{p}") for p in PLAYERS}
    honors = data.get("honors")
    if honors not in PLAYERS:
        raise RecordError("honors", "must be 'A' or 'B'")
    direction = data.get("direction", "left-to-right")
    if direction not in ("left-to-right", "right-to-left"):
        raise RecordError("direction", "must be 'left-to-right' or 'right-to-left'")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, dict):
        raise RecordError("cards", "must be an object of cards by id")
    if len(raw_cards) > MAX_CARDS:
        raise RecordError("cards", f"lists more than {MAX_CARDS} cards")
    cards: dict[str, Card] = {}
    for cid, cdata in raw_cards.items():
        if len(cid) > MAX_TEXT or not cid:
            raise RecordError("cards", f"card ids are 1-{MAX_TEXT} characters")
        cards[cid] = _parse_card(cid, cdata, f"cards.{cid}")
    setup_raw = data.get("setup")
    if not isinstance(setup_raw, dict):
        raise RecordError("setup", "must be an object with A and B")
    setup = {p: _parse_setup(setup_raw.get(p), f"setup.{p}", mode, cards) for p in PLAYERS}
    seen: dict[str, str] = {}
    for p in PLAYERS:
        s = setup[p]
        for zone, ids in (("battles", s.battles), ("bench", s.bench), ("hand", s.hand)):
            for i, cid in enumerate(ids):
                if cid in seen:
                    raise RecordError(
                        f"setup.{p}.{zone}[{i}]", f"{cid!r} is already in {seen[cid]}"
                    )
                seen[cid] = f"setup.{p}.{zone}"
    actions_raw = data.get("actions", [])
    if not isinstance(actions_raw, list):
        raise RecordError("actions", "must be a list")
    if len(actions_raw) > MAX_ACTIONS:
        raise RecordError("actions", f"lists more than {MAX_ACTIONS} actions")
    actions = tuple(action_from_json(a, f"actions[{i}]", cards) for i, a in enumerate(actions_raw))
    for i, action in enumerate(actions):
        _check_chosen_hero(action, f"actions[{i}].choices.hero", cards)
    return Record(mode, options, players, honors, direction, cards, setup, actions, raw_cards)


def _check_chosen_hero(action: Action, path: str, cards: Mapping[str, Card]) -> None:
    """``choices.hero`` given as a card id (a hero a play chooses: Delayed Recovery, or the
    hero a replacement brings in) must be a hero of the record's cards; whether it is one the
    play may choose is a rules question, checked when the play runs (invalid_choice)."""
    cid = action.choices.get("hero")
    if not isinstance(cid, str):
        return  # absent, false (a declined replacement) or per player: checked when run
    if not isinstance(cards.get(cid), Hero):
        raise RecordError(path, f"must be the card id of a hero, not {cid[:40]!r}")


def load_record(text: str | bytes) -> Record:
    """Decode JSON text and parse it (RecordError for bad JSON or an oversized record)."""
    return parse_record(decode_record_json(text, MAX_BYTES))
