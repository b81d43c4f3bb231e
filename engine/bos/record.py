"""The BOS game record, format ``bos-game-record/1`` (docs/bos-game-record.md).

:func:`parse_record` turns decoded JSON into a :class:`Record`, checking every field's type; a
malformed record raises :class:`RecordError` naming the field (replay exit status 2). Rules
of play are not checked here: that is :mod:`engine.bos.state` (exit status 1); what the
record states about the game's start is (three different wizards, BOS: Starting Info; bids
that decide who chose the first player, BOS: Going First: :mod:`engine.bos.start`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import RecordError as RecordError  # the family's, shared by every game
from engine.errors import decode_record_json

from .start import GOING_FIRST, MAX_BID, STARTING_LIFE, STARTING_VIM, higher_bid, rules_start

RECORD_FORMAT = "bos-game-record/1"
PLAYERS = ("A", "B")
CARD_TYPES = ("wizard", "summon", "spell", "boss")
COLOURS = ("red", "yellow", "blue")
ACTION_TYPES = (
    "start_turn",
    "summon",
    "summon_boss",
    "attack",
    "cast",
    "abilities",
    "end_turn",
    "judge",
)
EFFECT_KINDS = ("strength", "damage", "vim", "ether")
MAX_BYTES = 4 * 1024 * 1024
MAX_ACTIONS = 10_000
# Two decks of 24 plus 10 reserves each name at most 68 different cards; the rest is headroom,
# and a bound on what one record can make the engine do.
MAX_CARDS = 500
MAX_NUMBER = 10**9


@dataclass(frozen=True, slots=True)
class Card:
    """A card as the record states it: type, colour, vim cost (spells), strength (summons and
    bosses) and summoning condition (summons: a wizard id or a colour; bosses: free text)."""

    id: str
    name: str
    type: str
    colour: str
    vim_cost: int | None = None
    strength: int | None = None
    condition_wizard: str | None = None
    condition_colour: str | None = None


@dataclass(frozen=True, slots=True)
class Deck:
    wizards: tuple[str, str, str]
    boss: str
    castle: tuple[str, ...]
    spellbook: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Action:
    """One recorded action; ``data`` is its validated JSON (see the docs for each type)."""

    type: str
    player: str
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


@dataclass(frozen=True, slots=True)
class GoingFirst:
    """The ether bidding game (BOS: Going First): each player's bid, and the higher bidder,
    who chose who goes first (the record's ``first``)."""

    bids: dict[str, int]
    chose_first: str

    def to_json(self) -> dict[str, Any]:
        return {"bids": dict(self.bids), "chose_first": self.chose_first}


@dataclass(frozen=True, slots=True)
class Record:
    players: dict[str, str]
    first: str
    cards: dict[str, Card]
    decks: dict[str, Deck]
    life: int
    vim: int
    ether: dict[str, int]
    actions: tuple[Action, ...]
    going_first: GoingFirst | None = None  # None: the record does not say how it was decided
    note: str | None = None  # initial.note: why a starting value is not the rules'

    def starting_values(self) -> dict[str, dict[str, int]]:
        """Each player's starting life, vim and ether as the record states them."""
        return {p: {"life": self.life, "vim": self.vim, "ether": self.ether[p]} for p in PLAYERS}


def _obj(v: Any, f: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise RecordError(f, "must be an object")
    return v


def _str(v: Any, f: str) -> str:
    if not isinstance(v, str) or not v:
        raise RecordError(f, "must be a non-empty string")
    return v


def _int(v: Any, f: str, lo: int = 0) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= MAX_NUMBER:
        raise RecordError(f, f"must be an integer from {lo} to {MAX_NUMBER}")
    return v


def _list(v: Any, f: str) -> list[Any]:
    if not isinstance(v, list):
        raise RecordError(f, "must be a list")
    return v


def _player(v: Any, f: str) -> str:
    if v not in PLAYERS:
        raise RecordError(f, 'must be "A" or "B"')
    return str(v)


def _card(cid: str, v: Any, f: str) -> Card:
    d = _obj(v, f)
    ctype = d.get("type")
    if ctype not in CARD_TYPES:
        raise RecordError(f"{f}.type", f"must be one of {', '.join(CARD_TYPES)}")
    colour = d.get("colour")
    if colour not in COLOURS:
        raise RecordError(f"{f}.colour", f"must be one of {', '.join(COLOURS)}")
    name = _str(d.get("name", cid), f"{f}.name")
    vim_cost = _int(d.get("vim_cost"), f"{f}.vim_cost") if ctype == "spell" else None
    strength = _int(d.get("strength"), f"{f}.strength", 1) if ctype in ("summon", "boss") else None
    cw = cc = None
    if ctype == "summon":
        cond = _obj(d.get("summoning_condition"), f"{f}.summoning_condition")
        if ("wizard" in cond) == ("colour" in cond):
            raise RecordError(f"{f}.summoning_condition", 'must name one "wizard" or "colour"')
        if "wizard" in cond:
            cw = _str(cond["wizard"], f"{f}.summoning_condition.wizard")
        else:
            if cond["colour"] not in COLOURS:
                raise RecordError(f"{f}.summoning_condition.colour", "is not a colour")
            cc = str(cond["colour"])
    return Card(str(cid), str(name), str(ctype), str(colour), vim_cost, strength, cw, cc)


def _ids(v: Any, f: str, cards: dict[str, Card], ctype: str) -> tuple[str, ...]:
    out = []
    for i, cid in enumerate(_list(v, f)):
        if not isinstance(cid, str) or cid not in cards:
            raise RecordError(f"{f}[{i}]", "is not a card id of the record's cards")
        if cards[cid].type != ctype:
            raise RecordError(f"{f}[{i}]", f"is not a {ctype}")
        out.append(cid)
    return tuple(out)


def _deck(v: Any, f: str, cards: dict[str, Card]) -> Deck:
    d = _obj(v, f)
    wiz = _ids(d.get("wizards"), f"{f}.wizards", cards, "wizard")
    if len(wiz) != 3:
        raise RecordError(f"{f}.wizards", "must list 3 wizards (one per column)")
    if len(set(wiz)) != 3:
        raise RecordError(f"{f}.wizards", "must be 3 different wizards (BOS: Starting Info)")
    boss = d.get("boss")
    if not isinstance(boss, str) or boss not in cards or cards[boss].type != "boss":
        raise RecordError(f"{f}.boss", "must be the id of a boss among the record's cards")
    castle = _ids(d.get("castle"), f"{f}.castle", cards, "summon")
    spellbook = _ids(d.get("spellbook"), f"{f}.spellbook", cards, "spell")
    return Deck((wiz[0], wiz[1], wiz[2]), boss, castle, spellbook)


def _slot(v: Any, f: str) -> str | int:
    """A battlefield position: a column 0..2 or "boss"."""
    if v == "boss":
        return "boss"
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 2:
        return v
    raise RecordError(f, 'must be a column 0, 1 or 2, or "boss"')


def _target(v: Any, f: str, allow_player: bool) -> dict[str, Any]:
    d = _obj(v, f)
    out: dict[str, Any] = {"player": _player(d.get("player"), f"{f}.player")}
    if "slot" in d:
        out["slot"] = _slot(d["slot"], f"{f}.slot")
    elif not allow_player:
        raise RecordError(f"{f}.slot", "is required")
    return out


def _effect(v: Any, f: str) -> dict[str, Any]:
    d = _obj(v, f)
    kind = d.get("kind")
    if kind not in EFFECT_KINDS:
        raise RecordError(f"{f}.kind", f"must be one of {', '.join(EFFECT_KINDS)}")
    mandatory = d.get("mandatory", False)
    if not isinstance(mandatory, bool):
        raise RecordError(f"{f}.mandatory", "must be true or false")
    out: dict[str, Any] = {
        "kind": kind,
        "source": _str(d.get("source"), f"{f}.source"),
        "mandatory": mandatory,
        "amount": _int(d.get("amount"), f"{f}.amount", -MAX_NUMBER),
    }
    target = _target(d.get("target"), f"{f}.target", kind != "strength")
    out["target"] = target
    if "slot" in target:
        if kind in ("vim", "ether"):
            raise RecordError(f"{f}.target.slot", "a vim or ether change targets a player")
        affects = d.get("affects")
        if affects not in ("summon", "boss"):
            raise RecordError(f"{f}.affects", 'must be "summon" or "boss"')
        out["affects"] = affects
    if kind == "damage" and out["amount"] < 0:
        raise RecordError(f"{f}.amount", "damage must not be negative")
    return out


def _action(v: Any, f: str, cards: dict[str, Card]) -> Action:
    d = _obj(v, f)
    t = d.get("type")
    if t not in ACTION_TYPES:
        raise RecordError(f"{f}.type", f"must be one of {', '.join(ACTION_TYPES)}")
    p = _player(d.get("player"), f"{f}.player")
    out: dict[str, Any] = {"type": t, "player": p}
    if t == "summon":
        out["wizard"] = _slot(d.get("wizard"), f"{f}.wizard")
        if out["wizard"] == "boss":
            raise RecordError(f"{f}.wizard", "must be a column 0, 1 or 2")
        out["card"] = _ids([d.get("card")], f"{f}.card", cards, "summon")[0]
    elif t == "attack":
        out["attacker"] = _slot(d.get("attacker"), f"{f}.attacker")
        out["target"] = _target(d.get("target"), f"{f}.target", True)
        blocker = d.get("blocker")
        out["blocker"] = None if blocker is None else _slot(blocker, f"{f}.blocker")
    elif t == "cast":
        out["card"] = _ids([d.get("card")], f"{f}.card", cards, "spell")[0]
        out["vim"] = _int(d.get("vim", 0), f"{f}.vim")
        out["ether"] = _int(d.get("ether", 0), f"{f}.ether")
    elif t == "abilities":
        effects = _list(d.get("effects"), f"{f}.effects")
        if not effects:
            raise RecordError(f"{f}.effects", "must not be empty")
        out["effects"] = [_effect(e, f"{f}.effects[{i}]") for i, e in enumerate(effects)]
    elif t == "judge":
        out["note"] = _str(d.get("note"), f"{f}.note")
        adjust = _obj(d.get("adjust", {}), f"{f}.adjust")
        adj: dict[str, dict[str, int]] = {}
        for who, vals in adjust.items():
            _player(who, f"{f}.adjust")
            vals = _obj(vals, f"{f}.adjust.{who}")
            adj[who] = {}
            for key, n in vals.items():
                if key not in ("life", "vim", "ether"):
                    raise RecordError(f"{f}.adjust.{who}", "may set only life, vim and ether")
                adj[who][key] = _int(n, f"{f}.adjust.{who}.{key}")
        out["adjust"] = adj
    return Action(str(t), p, out)


def _going_first(v: Any) -> GoingFirst:
    d = _obj(v, "going_first")
    raw = _obj(d.get("bids"), "going_first.bids")
    bids: dict[str, int] = {}
    for p in PLAYERS:
        bid = raw.get(p)
        if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= MAX_BID:
            raise RecordError(
                f"going_first.bids.{p}",
                f"must be a whole number from 0 to {MAX_BID} ({GOING_FIRST})",
            )
        bids[p] = bid
    high = higher_bid((bids["A"], bids["B"]))
    if high is None:
        raise RecordError(
            "going_first.bids",
            f"equal bids decide nothing: the players bid again; record the deciding bids "
            f"({GOING_FIRST})",
        )
    chose = PLAYERS[high]
    stated = d.get("chose_first")
    if stated is not None and _player(stated, "going_first.chose_first") != chose:
        raise RecordError(
            "going_first.chose_first",
            f"the higher bidder ({chose}) chooses who goes first ({GOING_FIRST})",
        )
    return GoingFirst(bids, chose)


def parse_record(data: Any) -> Record:
    """Check and convert decoded JSON (RecordError naming the field when malformed)."""
    d = _obj(data, "record")
    if d.get("format") != RECORD_FORMAT:
        raise RecordError("format", f'must be "{RECORD_FORMAT}"')
    players = _obj(d.get("players"), "players")
    names = {p: _str(players.get(p), f"players.{p}") for p in PLAYERS}
    first = _player(d.get("first"), "first")
    raw_cards = _obj(d.get("cards"), "cards")
    if len(raw_cards) > MAX_CARDS:
        raise RecordError("cards", f"has more than {MAX_CARDS} cards")
    cards = {str(k): _card(str(k), v, f"cards.{k}") for k, v in raw_cards.items()}
    for card in cards.values():
        wizard = card.condition_wizard
        if wizard is not None and (wizard not in cards or cards[wizard].type != "wizard"):
            # Otherwise the summon could never be conducted, and the replay would blame play.
            raise RecordError(
                f"cards.{card.id}.summoning_condition.wizard",
                "must be the id of a wizard among the record's cards",
            )
    raw_decks = _obj(d.get("decks"), "decks")
    decks = {p: _deck(raw_decks.get(p), f"decks.{p}", cards) for p in PLAYERS}
    going_first = None if d.get("going_first") is None else _going_first(d["going_first"])
    initial = _obj(d.get("initial", {}), "initial")
    life = _int(initial.get("life", STARTING_LIFE), "initial.life", 1)
    vim = _int(initial.get("vim", STARTING_VIM), "initial.vim")
    raw_ether = _obj(initial.get("ether", {}), "initial.ether")
    # Left out, a player's ether is what the bids give (none without bids).
    by_rules = rules_start(PLAYERS, going_first.bids if going_first else None)
    ether = {
        p: _int(raw_ether.get(p, by_rules[p]["ether"] or 0), f"initial.ether.{p}") for p in PLAYERS
    }
    note = None if initial.get("note") is None else _str(initial["note"], "initial.note")
    acts = _list(d.get("actions"), "actions")
    if len(acts) > MAX_ACTIONS:
        raise RecordError("actions", f"has more than {MAX_ACTIONS} actions")
    actions = tuple(_action(a, f"actions[{i}]", cards) for i, a in enumerate(acts))
    return Record(names, first, cards, decks, life, vim, ether, actions, going_first, note)


def load_record(text: str | bytes) -> Record:
    """Decode JSON text and parse it (RecordError for bad JSON or an oversized record)."""
    return parse_record(decode_record_json(text, MAX_BYTES))
