"""What a BOS match result records per game (pure: no Django).

``game_details`` is a list, one object per game played, in order::

    {"winner": "a"|"b", "bids": [bid_a, bid_b], "chose_first": "a"|"b",
     "first": "a"|"b",                   # optional: who played first
     "ether": [ether_a, ether_b],        # optional on input, always in the output
     "swaps": {"a": [{"out": "Card", "in": "Card", "count": 1}], "b": [...]},
                                         # optional, games 2+ only: reserve swaps before it
     "end": "played"|"time"}             # optional, default "played"; "time": lost on time

The rules it checks, each cited in its errors:

- BOS: Going First: bids are non-negative whole numbers (at most ``MAX_BID``); the higher
  bidder chooses who goes first (``chose_first``, derived when left out) and the lower bidder
  receives ether equal to their bid, the other none. The rules are silent on equal bids;
  decision (docs/bos-matches.md): a tie is bid again and the record keeps the deciding bids,
  so equal bids are refused.
- BOS: Decay: every game has a winner; no drawn games.
- BOS: Best of 3 Match: the winners counted match the reported games, and no game is played
  once a player has won the match.
- BOS: Reserves: swaps are made between games (not before game 1) and are cumulative (those
  before game 3 apply to the deck as it was in game 2); ``out`` is a summon or spell in the
  main deck, ``in`` a card in the reserves; after a game's swaps the list has no violation of
  the deck rules (engine.bos.validation) that the registered list did not already have.
  Without a registered list swaps cannot be checked and are refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from engine.bos.cards import BosCard, CardType, Catalog, normalize_name
from engine.bos.decklist import SECTION_TYPE, DeckLine, Decklist, decklist_from_dict
from engine.bos.formats import Format
from engine.bos.start import GOING_FIRST as GOING_FIRST  # re-exported: was defined here
from engine.bos.start import MAX_BID as MAX_BID
from engine.bos.start import ether_for as ether_for
from engine.bos.start import higher_bid
from engine.bos.validation import Violation, validate_decklist
from engine.frozen import Frozen, FrozenMap, FrozenRows, freeze, freeze_map
from engine.plugin import (
    N_,
    BidRange,
    ClockGame,
    ClockRules,
    DetailField,
    DetailsAsStored,
    GameDetails,
    GameDetailsError,
    PlayerRef,
    RegisteredDeck,
    ResultContext,
    Score,
    Text,
)

Side = Literal["a", "b"]
End = Literal["played", "time"]
SIDES: tuple[Side, Side] = ("a", "b")
ENDS: tuple[End, ...] = ("played", "time")

BEST_OF_3 = "BOS: Best of 3 Match"
RESERVES = "BOS: Reserves"
DECAY = "BOS: Decay"

# The clock takes the deciding bids with a game's start; a tie is bid again (docs/bos-matches.md).
CLOCK_RULES = ClockRules(asks_bids=True, bids=BidRange(maximum=MAX_BID, rule=GOING_FIRST))
MAX_SWAPS = 20  # swap lines per player per game (the reserves hold at most 10 cards)
MAX_SWAP_COUNT = 10
MAX_NAME = 200
GAME_KEYS = frozenset({"winner", "bids", "chose_first", "first", "ether", "swaps", "end"})
SWAP_KEYS = frozenset({"out", "in", "count"})


class DetailsError(GameDetailsError):
    """BOS game details refused; ``field`` names the part (``game_details[1].bids``)."""


@dataclass(frozen=True, slots=True)
class Swap:
    """``count`` copies of ``out`` (main deck) swapped for ``in_`` (reserves)."""

    out: str
    in_: str
    count: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"out": self.out, "in": self.in_, "count": self.count}


@dataclass(frozen=True, slots=True)
class GameRecord:
    winner: Side
    bids: tuple[int, int]
    chose_first: Side
    ether: tuple[int, int]
    first: Side | None = None
    swaps_a: tuple[Swap, ...] = ()
    swaps_b: tuple[Swap, ...] = ()
    end: End = "played"

    def swaps(self, side: Side) -> tuple[Swap, ...]:
        return self.swaps_a if side == "a" else self.swaps_b

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winner": self.winner,
            "bids": list(self.bids),
            "chose_first": self.chose_first,
        }
        if self.first is not None:
            out["first"] = self.first
        out["ether"] = list(self.ether)
        if self.swaps_a or self.swaps_b:
            out["swaps"] = {
                "a": [s.to_json() for s in self.swaps_a],
                "b": [s.to_json() for s in self.swaps_b],
            }
        out["end"] = self.end
        return out


@dataclass(frozen=True, slots=True)
class BosDeck:
    """A player's registered list with the catalog and format it is checked against."""

    decklist: Decklist
    catalog: Catalog
    fmt: Format


DeckOf = Callable[[Side], "BosDeck | None"]


def _no_deck(side: Side) -> BosDeck | None:
    return None


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _side(value: object, where: str, rule: str, *, optional: bool = False) -> Side | None:
    if value is None and optional:
        return None
    if value == "a":
        return "a"
    if value == "b":
        return "b"
    raise DetailsError(
        where,
        f'must be "a" or "b" ({rule})',
        text=Text.of(N_("choose a player (%(rule)s)"), rule=rule),
    )


def higher_bidder(bids: tuple[int, int]) -> Side | None:
    high = higher_bid(bids)
    return None if high is None else SIDES[high]


def _pair(value: object, where: str, what: str) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise DetailsError(
            where,
            f"must be two numbers, {what} of a and of b ({GOING_FIRST})",
            text=Text.of(N_("give two numbers, one for each player (%(rule)s)"), rule=GOING_FIRST),
        )
    a, b = value
    for v in (a, b):
        if not _whole(v) or not 0 <= v <= MAX_BID:
            raise DetailsError(
                where,
                f"{what} are whole numbers from 0 to {MAX_BID} ({GOING_FIRST})",
                text=Text.of(
                    N_("give whole numbers from 0 to %(max)d (%(rule)s)"),
                    max=MAX_BID,
                    rule=GOING_FIRST,
                ),
            )
    assert _whole(a) and _whole(b)
    return (a, b)


def _swaps(value: object, where: str, game: int) -> tuple[tuple[Swap, ...], tuple[Swap, ...]]:
    if value is None:
        return (), ()
    if not isinstance(value, Mapping):
        raise DetailsError(
            where,
            f'must be an object with the swaps of "a" and "b" ({RESERVES})',
            text=Text.of(N_("not a list of swaps (%(rule)s)"), rule=RESERVES),
        )
    unknown = sorted(str(k) for k in value if k not in SIDES)
    if unknown:
        raise DetailsError(
            f"{where}.{unknown[0]}",
            'not a side (expected "a" or "b")',
            text=Text.of(N_("not a player")),
        )
    out: dict[Side, tuple[Swap, ...]] = {}
    for side in SIDES:
        items = value.get(side) or []
        side_where = f"{where}.{side}"
        if not isinstance(items, list | tuple):
            raise DetailsError(
                side_where,
                "must be a list of swaps",
                text=Text.of(N_("not a list of swaps (%(rule)s)"), rule=RESERVES),
            )
        if items and game == 0:
            raise DetailsError(
                side_where,
                f"reserve swaps are made between games, so game 1 has none ({BEST_OF_3}; "
                f"{RESERVES})",
                text=Text.of(
                    N_("reserve swaps are made between games, so game 1 has none (%(rule)s)"),
                    rule=f"{BEST_OF_3}; {RESERVES}",
                ),
            )
        if len(items) > MAX_SWAPS:
            raise DetailsError(
                side_where,
                f"at most {MAX_SWAPS} swaps before a game",
                text=Text.of(N_("at most %(max)d swaps before a game"), max=MAX_SWAPS),
            )
        swaps = []
        for j, item in enumerate(items):
            at = f"{side_where}[{j}]"
            if not isinstance(item, Mapping):
                raise DetailsError(
                    at,
                    'must be an object {"out", "in", "count"}',
                    text=Text.of(N_("write a swap as: card out > card in")),
                )
            _reject_unknown_fields(item, SWAP_KEYS, at)
            names = []
            for key in ("out", "in"):
                name = item.get(key)
                if (
                    not isinstance(name, str)
                    or not name.strip()
                    or len(name) > MAX_NAME
                    or "\x00" in name  # no card has one, and PostgreSQL stores none
                ):
                    raise DetailsError(
                        f"{at}.{key}",
                        "must be a card name",
                        text=Text.of(N_("write a swap as: card out > card in")),
                    )
                names.append(" ".join(name.split()))
            count = item.get("count", 1)
            if not _whole(count) or not 1 <= count <= MAX_SWAP_COUNT:
                raise DetailsError(
                    f"{at}.count",
                    f"must be a whole number from 1 to {MAX_SWAP_COUNT}",
                    text=Text.of(N_("a swap moves from 1 to %(max)d copies"), max=MAX_SWAP_COUNT),
                )
            swaps.append(Swap(names[0], names[1], count))
        out[side] = tuple(swaps)
    return out["a"], out["b"]


def _reject_unknown_fields(value: Mapping[Any, Any], allowed: Collection[str], where: str) -> None:
    """Name the first field (alphabetically) the details do not know."""
    extra = sorted(str(k) for k in value if k not in allowed)
    if extra:
        raise DetailsError(
            f"{where}.{extra[0]}", "unknown field", text=Text.of(N_("unknown field"))
        )


def _game(value: object, i: int) -> GameRecord:
    where = f"game_details[{i}]"
    if not isinstance(value, Mapping):
        raise DetailsError(
            where,
            "must be an object with the game's winner and bids",
            text=Text.of(N_("give the game's winner and bids")),
        )
    _reject_unknown_fields(value, GAME_KEYS, where)
    if "winner" not in value or value["winner"] is None:
        raise DetailsError(
            f"{where}.winner",
            f"every BOS game has a winner: no drawn games ({DECAY})",
            text=Text.of(
                N_("choose the winner: every game has one, there are no drawn games (%(rule)s)"),
                rule=DECAY,
            ),
        )
    winner = _side(value["winner"], f"{where}.winner", DECAY)
    assert winner is not None
    if "bids" not in value:
        raise DetailsError(
            f"{where}.bids",
            f"give both ether bids ({GOING_FIRST})",
            text=Text.of(N_("give both ether bids (%(rule)s)"), rule=GOING_FIRST),
        )
    bids = _pair(value["bids"], f"{where}.bids", "bids")
    high = higher_bidder(bids)
    if high is None:
        raise DetailsError(
            f"{where}.bids",
            f"equal bids decide nothing: the players bid again; record the deciding bids "
            f"({GOING_FIRST})",
            text=Text.of(
                N_(
                    "equal bids decide nothing: the players bid again; enter the deciding "
                    "bids (%(rule)s)"
                ),
                rule=GOING_FIRST,
            ),
        )
    chose = _side(value.get("chose_first"), f"{where}.chose_first", GOING_FIRST, optional=True)
    if chose is not None and chose != high:
        raise DetailsError(
            f"{where}.chose_first",
            f"the higher bidder ({high}) chooses who goes first ({GOING_FIRST})",
            text=Text.of(
                N_("the higher bidder (%(player)s) chooses who goes first (%(rule)s)"),
                player=PlayerRef(high),
                rule=GOING_FIRST,
            ),
        )
    first = _side(value.get("first"), f"{where}.first", GOING_FIRST, optional=True)
    ether = ether_for(bids)
    if value.get("ether") is not None:
        given = _pair(value["ether"], f"{where}.ether", "ether")
        if given != ether:
            raise DetailsError(
                f"{where}.ether",
                f"the lower bidder receives ether equal to their bid, the other none: "
                f"{list(ether)} for bids {list(bids)} ({GOING_FIRST})",
                text=Text.of(
                    N_(
                        "the lower bidder (%(player)s) receives %(ether)d ether, the other "
                        "none (%(rule)s)"
                    ),
                    player=PlayerRef("a" if high == "b" else "b"),
                    ether=min(bids),
                    rule=GOING_FIRST,
                ),
            )
    end = value.get("end", "played")
    if end is None:
        end = "played"
    if end not in ENDS:
        raise DetailsError(
            f"{where}.end",
            'must be "played" or "time"',
            text=Text.of(N_("choose how the game ended")),
        )
    swaps_a, swaps_b = _swaps(value.get("swaps"), f"{where}.swaps", i)
    return GameRecord(
        winner=winner,
        bids=bids,
        chose_first=high,
        ether=ether,
        first=first,
        swaps_a=swaps_a,
        swaps_b=swaps_b,
        end="time" if end == "time" else "played",
    )


def _check_games(records: Sequence[GameRecord], games: tuple[int, int, int], to_win: int) -> None:
    won_a, won_b, drawn = games
    if drawn:
        raise DetailsError(
            "game_details",
            f"the games count {drawn} drawn, but every BOS game has a winner ({DECAY})",
            text=Text.of(
                N_("there are no drawn games, but the result counts %(drawn)d (%(rule)s)"),
                drawn=drawn,
                rule=DECAY,
            ),
        )
    if len(records) != won_a + won_b:
        raise DetailsError(
            "game_details",
            f"give one entry per game played: {won_a + won_b} for games {list(games)} "
            f"({BEST_OF_3})",
            text=Text.of(
                N_(
                    "fill in every game played or none: %(played)d games for a %(score)s "
                    "result, %(given)d filled in (%(rule)s)"
                ),
                played=won_a + won_b,
                score=Score(won_a, won_b),
                given=len(records),
                rule=BEST_OF_3,
            ),
        )
    wins = {"a": 0, "b": 0}
    for i, record in enumerate(records):
        if max(wins.values()) >= to_win:
            raise DetailsError(
                f"game_details[{i}]",
                f"the match was already won {wins['a']}-{wins['b']}: no game after it "
                f"({BEST_OF_3})",
                text=Text.of(
                    N_(
                        "the match was already won %(score)s: no game is played after it (%(rule)s)"
                    ),
                    score=Score(wins["a"], wins["b"]),
                    rule=BEST_OF_3,
                ),
            )
        wins[record.winner] += 1
    if (wins["a"], wins["b"]) != (won_a, won_b):
        raise DetailsError(
            "game_details",
            f"the winners of the games ({wins['a']}-{wins['b']}) do not match the reported "
            f"games {won_a}-{won_b} ({BEST_OF_3})",
            text=Text.of(
                N_(
                    "the winners of the games make %(winners)s, but the games count says "
                    "%(score)s (%(rule)s)"
                ),
                winners=Score(wins["a"], wins["b"]),
                score=Score(won_a, won_b),
                rule=BEST_OF_3,
            ),
        )


# --- reserve swaps ------------------------------------------------------------------------


class _Deck:
    """A list being swapped: section -> card name (normalised) -> [card id, count]."""

    def __init__(self, decklist: Decklist) -> None:
        self.counts: dict[str, dict[str, list[Any]]] = {}
        self.names: dict[str, str] = {}
        for section, lines in decklist.sections.items():
            for line in lines:
                key = normalize_name(line.name)
                entry = self.counts.setdefault(section, {}).setdefault(key, [line.card_id, 0])
                entry[1] += line.count
                self.names.setdefault(line.card_id, line.name)

    def count(self, section: str, card: BosCard) -> int:
        entry = self.counts.get(section, {}).get(normalize_name(card.name))
        return int(entry[1]) if entry else 0

    def move(self, card: BosCard, source: str, target: str, n: int) -> None:
        key = normalize_name(card.name)
        src = self.counts.setdefault(source, {})
        src[key][1] -= n
        if src[key][1] <= 0:
            del src[key]
        dst = self.counts.setdefault(target, {}).setdefault(key, [card.id, 0])
        dst[1] += n
        self.names.setdefault(dst[0], card.name)

    def decklist(self, title: str | None) -> Decklist:
        return Decklist(
            sections={
                section: tuple(
                    DeckLine(int(n), str(cid), self.names[cid])
                    for cid, n in sorted(lines.values(), key=lambda e: self.names[e[0]].casefold())
                )
                for section, lines in self.counts.items()
                if lines
            },
            title=title,
        )


def _main_section(card: BosCard) -> str | None:
    if card.type not in (CardType.SUMMON, CardType.SPELL):
        return None
    return next(s for s, t in SECTION_TYPE.items() if t is card.type)


def _swap(deck: _Deck, catalog: Catalog, swap: Swap, at: str) -> Swap:
    out_card = catalog.by_name(swap.out)
    if out_card is None:
        raise DetailsError(
            f"{at}.out",
            f"unknown card {swap.out!r}",
            text=Text.of(N_("unknown card “%(card)s”"), card=swap.out),
        )
    section = _main_section(out_card)
    if section is None:
        raise DetailsError(
            f"{at}.out",
            f"only summons and spells are swapped with the reserves; {out_card.name} is a "
            f"{out_card.type.value} ({RESERVES})",
            text=Text.of(
                N_(
                    "only summons and spells are swapped with the reserves, not %(card)s (%(rule)s)"
                ),
                card=out_card.name,
                rule=RESERVES,
            ),
        )
    if deck.count(section, out_card) < swap.count:
        raise DetailsError(
            f"{at}.out",
            f"{out_card.name}: the main deck holds {deck.count(section, out_card)}, "
            f"not {swap.count} ({RESERVES})",
            text=Text.of(
                N_("%(card)s: the main deck holds %(held)d, not %(count)d (%(rule)s)"),
                card=out_card.name,
                held=deck.count(section, out_card),
                count=swap.count,
                rule=RESERVES,
            ),
        )
    in_card = catalog.by_name(swap.in_)
    if in_card is None:
        raise DetailsError(
            f"{at}.in",
            f"unknown card {swap.in_!r}",
            text=Text.of(N_("unknown card “%(card)s”"), card=swap.in_),
        )
    if deck.count("reserves", in_card) < swap.count:
        raise DetailsError(
            f"{at}.in",
            f"{in_card.name}: the reserves hold {deck.count('reserves', in_card)}, "
            f"not {swap.count} ({RESERVES})",
            text=Text.of(
                N_("%(card)s: the reserves hold %(held)d, not %(count)d (%(rule)s)"),
                card=in_card.name,
                held=deck.count("reserves", in_card),
                count=swap.count,
                rule=RESERVES,
            ),
        )
    target = _main_section(in_card)
    if target is None:  # pragma: no cover - a legal list's reserves hold summons and spells
        raise DetailsError(f"{at}.in", f"{in_card.name} cannot enter the main deck ({RESERVES})")
    deck.move(out_card, section, "reserves", swap.count)
    deck.move(in_card, "reserves", target, swap.count)
    return Swap(out_card.name, in_card.name, swap.count)


def _blame(swaps: Sequence[Swap], catalog: Catalog, violation: Violation) -> int:
    """The swap a new violation is laid on: the first naming one of its cards, else the first
    that changes a card's type (a summon for a spell), else the last."""
    named = set(violation.cards)
    for j, swap in enumerate(swaps):
        if swap.out in named or swap.in_ in named:
            return j
    for j, swap in enumerate(swaps):
        out_card, in_card = catalog.by_name(swap.out), catalog.by_name(swap.in_)
        if out_card is not None and in_card is not None and out_card.type is not in_card.type:
            return j
    return len(swaps) - 1


def _check_swaps(records: Sequence[GameRecord], deck_of: DeckOf) -> tuple[GameRecord, ...]:
    out = list(records)
    for side in SIDES:
        if not any(r.swaps(side) for r in records):
            continue
        first_at = next(i for i, r in enumerate(records) if r.swaps(side))
        registered = deck_of(side)
        if registered is None:
            raise DetailsError(
                f"game_details[{first_at}].swaps.{side}",
                f"this player has no registered decklist, so reserve swaps cannot be checked; "
                f"ask a judge ({RESERVES})",
                text=Text.of(
                    N_(
                        "this player has no registered decklist, so reserve swaps cannot be "
                        "checked; ask a judge (%(rule)s)"
                    ),
                    rule=RESERVES,
                ),
            )
        if registered.decklist.errors:
            raise DetailsError(
                f"game_details[{first_at}].swaps.{side}",
                f"this player's registered decklist no longer reads against the event's cards, "
                f"so reserve swaps cannot be checked; ask a judge ({RESERVES})",
                text=Text.of(
                    N_(
                        "this player's registered decklist no longer reads against the event's "
                        "cards, so reserve swaps cannot be checked; ask a judge (%(rule)s)"
                    ),
                    rule=RESERVES,
                ),
            )
        catalog, fmt = registered.catalog, registered.fmt
        # A violation the registered list already had is the deck checks' business; one the
        # swaps make worse (11 summons become 14) says something new, so it is refused too.
        known = {
            (v.rule, v.message)
            for v in validate_decklist(registered.decklist, catalog, fmt).violations
        }
        deck = _Deck(registered.decklist)
        for i, record in enumerate(records):
            swaps = record.swaps(side)
            if not swaps:
                continue
            done = tuple(
                _swap(deck, catalog, swap, f"game_details[{i}].swaps.{side}[{j}]")
                for j, swap in enumerate(swaps)
            )
            report = validate_decklist(deck.decklist(registered.decklist.title), catalog, fmt)
            new = [v for v in report.violations if (v.rule, v.message) not in known]
            if new:
                violation = new[0]
                j = _blame(done, catalog, violation)
                raise DetailsError(
                    f"game_details[{i}].swaps.{side}[{j}]",
                    f"after these swaps the deck is not legal: {violation.message} "
                    f"({violation.citation}; {RESERVES})",
                    text=Text.of(
                        N_("after these swaps the deck is not legal: %(problem)s (%(rule)s)"),
                        problem=violation.message,
                        rule=f"{violation.citation}; {RESERVES}",
                    ),
                )
            current = out[i]
            out[i] = GameRecord(
                winner=current.winner,
                bids=current.bids,
                chose_first=current.chose_first,
                ether=current.ether,
                first=current.first,
                swaps_a=done if side == "a" else current.swaps_a,
                swaps_b=done if side == "b" else current.swaps_b,
                end=current.end,
            )
    return tuple(out)


def clean_game_details(
    details: object,
    *,
    games: tuple[int, int, int],
    games_to_win: int,
    deck_of: DeckOf = _no_deck,
    reporter: Side | None = None,
) -> tuple[GameRecord, ...]:
    """The details as checked records (swapped card names as the catalog spells them), or
    DetailsError naming the field. ``games`` is the result already checked (won by a, by b,
    drawn); ``deck_of(side)`` the registered list, asked only for a side that swapped.
    ``reporter``: the side of the player reporting (None: staff); a player reports only
    their own swaps, since the opponent's list is private (an answer about it would tell what
    it holds)."""
    max_games = 2 * games_to_win - 1
    if not isinstance(details, list | tuple):
        raise DetailsError(
            "game_details",
            "must be a list: one object per game played",
            text=Text.of(N_("not a list of games")),
        )
    if len(details) > max_games:
        raise DetailsError(
            "game_details",
            f"a best of {max_games} has at most {max_games} game{'s' if max_games > 1 else ''} "
            f"({BEST_OF_3})",
            text=Text.of(
                N_("a best of %(n)d has at most %(n)d games (%(rule)s)"),
                n=max_games,
                rule=BEST_OF_3,
            ),
        )
    records = tuple(_game(game, i) for i, game in enumerate(details))
    _check_games(records, games, games_to_win)
    if reporter is not None:
        other: Side = "b" if reporter == "a" else "a"
        for i, record in enumerate(records):
            if record.swaps(other):
                raise DetailsError(
                    f"game_details[{i}].swaps.{other}",
                    f"report your own reserve swaps; your opponent reports theirs ({RESERVES})",
                    text=Text.of(
                        N_(
                            "report your own reserve swaps; your opponent reports theirs (%(rule)s)"
                        ),
                        rule=RESERVES,
                    ),
                )
    return _check_swaps(records, deck_of)


def details_json(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    return [r.to_json() for r in records]


# --- the report form ----------------------------------------------------------------------

_SWAP_LINE = re.compile(r"^(?:(\d{1,2})\s*[xX]?\s+)?(.+?)\s*(?:>|->|→)\s*(.+)$")

FORM_FIELDS: tuple[DetailField, ...] = (
    DetailField("winner", Text(N_("Winner")), "side", required=True),
    DetailField(
        "bids",
        Text(N_("Ether bid")),
        "number",
        per_side=True,
        required=True,
        maximum=MAX_BID,
        help=Text(N_("The higher bid chooses who goes first; the lower bid receives its ether.")),
    ),
    DetailField("chose_first", Text(N_("Chose who went first")), "side"),
    DetailField("first", Text(N_("Went first")), "side"),
    DetailField(
        "swaps",
        Text(N_("Reserve swaps before this game")),
        "lines",
        per_side=True,
        own_only=True,
        help=Text(N_("One swap a line: card out > card in, e.g. “2 Spark Pup > Brand Knight”.")),
        from_game=2,
    ),
    DetailField(
        "end",
        Text(N_("How the game ended")),
        "choice",
        choices=(
            ("played", Text(N_("Played out"))),
            ("time", Text(N_("The loser ran out of time"))),
        ),
    ),
)


def _form_int(text: str) -> object:
    text = text.strip()
    return int(text) if text.isdigit() and len(text) <= 6 else text


MAX_SWAP_LINES = 20  # a reserve holds at most 10 cards
MAX_SWAP_LINE = 200


def form_swaps(text: str, where: str) -> list[dict[str, Any]]:
    """Swap lines ("2 Card out > Card in", one a line) as details JSON swaps."""
    swaps: list[dict[str, Any]] = []
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_SWAP_LINES:
        raise DetailsError(
            where,
            f"at most {MAX_SWAP_LINES} swaps ({RESERVES})",
            text=Text.of(N_("at most %(n)d swaps (%(rule)s)"), n=MAX_SWAP_LINES, rule=RESERVES),
        )
    for raw in lines:
        line = raw.strip()[:MAX_SWAP_LINE]
        if not line:
            continue
        match = _SWAP_LINE.match(line)
        at = f"{where}[{len(swaps)}]"
        if match is None:
            raise DetailsError(
                at,
                "write a swap as: card out > card in",
                text=Text.of(N_("write a swap as: card out > card in")),
            )
        count = int(match.group(1)) if match.group(1) else 1
        swaps.append({"out": match.group(2).strip(), "in": match.group(3).strip(), "count": count})
    return swaps


def details_from_form(games: Sequence[Mapping[str, object]]) -> FrozenRows | None:
    """The report form's values (a/b terms) as details JSON (frozen); trailing empty games
    dropped, None when nothing was filled in."""
    out: list[dict[str, Any]] = []
    for i, values in enumerate(games):
        game: dict[str, Any] = {}
        for key in ("winner", "chose_first", "first"):
            value = str(values.get(key) or "").strip()
            if value:
                game[key] = value
        end = str(values.get("end") or "").strip()
        if end and end != "played":
            game["end"] = end
        bids = values.get("bids")
        if isinstance(bids, list | tuple) and any(str(b).strip() for b in bids):
            game["bids"] = [_form_int(str(b)) for b in bids]
        swaps = values.get("swaps")
        if isinstance(swaps, list | tuple) and any(str(s).strip() for s in swaps):
            game["swaps"] = {
                side: form_swaps(str(text), f"game_details[{i}].swaps.{side}")
                for side, text in zip(SIDES, swaps, strict=False)
            }
        out.append(game)
    while out and not out[-1]:
        out.pop()
    return tuple(freeze_map(game) for game in out) or None


def visible_details(details: object, side: str | None) -> Frozen:
    """The details (frozen) without the reserve swaps of anyone but `side` (None: without
    any): the swaps tell what a private list holds (BOS: Reserves; swapped cards stay
    face-down)."""
    if not isinstance(details, list | tuple):
        return freeze(details)
    out: list[object] = []
    for game in details:
        if not isinstance(game, Mapping) or "swaps" not in game:
            out.append(game)
            continue
        swaps = game["swaps"] if isinstance(game["swaps"], Mapping) else {}
        kept = {s: (swaps.get(s) or []) if s == side else [] for s in SIDES}
        shown = {k: v for k, v in game.items() if k != "swaps"}
        if any(kept.values()):
            shown = {**{k: v for k, v in shown.items() if k != "end"}, "swaps": kept}
            if "end" in game:
                shown["end"] = game["end"]
        out.append(shown)
    return freeze(out)


def agree(details_a: object, details_b: object) -> list[dict[str, Any]] | None:
    """The match's details from the two players' cleaned reports: everything but the swaps
    must be the same; each player's swaps come from their own report. None: they disagree."""
    if not isinstance(details_a, list | tuple) or not isinstance(details_b, list | tuple):
        return None
    if len(details_a) != len(details_b):
        return None
    if not all(isinstance(g, Mapping) for g in (*details_a, *details_b)):
        return None

    def without_swaps(game: Mapping[str, object]) -> Frozen:
        return freeze({k: v for k, v in game.items() if k != "swaps"})

    if [without_swaps(g) for g in details_a] != [without_swaps(g) for g in details_b]:
        return None
    out: list[dict[str, Any]] = []
    for game_a, game_b in zip(details_a, details_b, strict=True):
        merged = dict(game_a)
        merged.pop("swaps", None)
        swaps_a = (game_a.get("swaps") or {}).get("a") or []
        swaps_b = (game_b.get("swaps") or {}).get("b") or []
        if swaps_a or swaps_b:
            merged = {
                **{k: v for k, v in merged.items() if k != "end"},
                "swaps": {"a": swaps_a, "b": swaps_b},
            }
            merged["end"] = game_a.get("end", "played")
        out.append(merged)
    return out


def form_values(details: object) -> FrozenRows:
    """Recorded details as the report form's values (a/b terms, frozen), the inverse of
    `details_from_form`; unreadable details give none."""
    if not isinstance(details, list | tuple):
        return ()
    out: list[FrozenMap] = []
    for i, raw in enumerate(details):
        try:
            record = _game(raw, i)
        except DetailsError:
            return ()
        values: dict[str, object] = {
            "winner": record.winner,
            "bids": (str(record.bids[0]), str(record.bids[1])),
            "chose_first": record.chose_first,
            "first": record.first or "",
            "end": record.end,
            "swaps": tuple(
                "\n".join(f"{s.count} {s.out} > {s.in_}" for s in record.swaps(side))
                for side in SIDES
            ),
        }
        out.append(freeze_map(values))
    return tuple(out)


def details_from_clock(games: Sequence[ClockGame]) -> FrozenRows | None:
    """The details a match clock can tell (winner, bids, who went first, how the game ended),
    frozen; None when a game was started without its bids: every game needs them (BOS: Going
    First)."""
    details: list[FrozenMap] = []
    for game in games:
        if game.bids is None:
            return None
        entry: dict[str, Any] = {"winner": game.winner, "bids": list(game.bids)}
        if game.first is not None:
            entry["first"] = game.first
        entry["end"] = "time" if game.on_time else "played"
        details.append(freeze_map(entry))
    return tuple(details)


# --- for people ---------------------------------------------------------------------------


def describe(details: object, names: Mapping[str, str]) -> tuple[tuple[Text, ...], ...]:
    """Per game, its sentences (translated by the site); unreadable details give nothing."""
    if not isinstance(details, list | tuple):
        return ()
    out: list[tuple[Text, ...]] = []
    for number, raw in enumerate(details, start=1):
        try:
            record = _game(raw, number - 1)
        except DetailsError:
            return ()
        lines: list[Text] = []
        winner = names.get(record.winner, record.winner)
        if record.end == "time":
            lines.append(
                Text.of(N_("Game %(n)d: %(winner)s won on time."), n=number, winner=winner)
            )
        else:
            lines.append(Text.of(N_("Game %(n)d: %(winner)s won."), n=number, winner=winner))
        low: Side = "a" if record.bids[0] < record.bids[1] else "b"
        lines.append(
            Text.of(
                N_(
                    "Bids %(a)s %(bid_a)d, %(b)s %(bid_b)d: %(chooser)s chose who went first, "
                    "%(low)s received %(ether)d ether."
                ),
                a=names.get("a", "a"),
                bid_a=record.bids[0],
                b=names.get("b", "b"),
                bid_b=record.bids[1],
                chooser=names.get(record.chose_first, record.chose_first),
                low=names.get(low, low),
                ether=record.ether[0 if low == "a" else 1],
            )
        )
        if record.first is not None:
            lines.append(
                Text.of(N_("%(first)s went first."), first=names.get(record.first, record.first))
            )
        for side in SIDES:
            swaps = record.swaps(side)
            if swaps:
                lines.append(
                    Text.of(
                        N_("Reserve swaps by %(name)s: %(swaps)s."),
                        name=names.get(side, side),
                        swaps=", ".join(f"{s.count} {s.out} → {s.in_}" for s in swaps),
                    )
                )
        out.append(tuple(lines))
    return tuple(out)


# --- the plugin -----------------------------------------------------------------------------


def _bos_deck(registered: RegisteredDeck | None) -> BosDeck | None:
    if registered is None:
        return None
    catalog, fmt = registered.catalog, registered.fmt
    if not isinstance(catalog, Catalog) or not isinstance(fmt, Format):
        return None
    return BosDeck(decklist_from_dict(registered.data, catalog), catalog, fmt)


@dataclass(frozen=True, slots=True)
class BosMatchRules(DetailsAsStored):
    """engine.plugin.MatchRules for BOS: the API takes and shows its details as stored, and
    a game given by a penalty has no bids to record (DetailsAsStored)."""

    has_game_details: bool = True
    fields: tuple[DetailField, ...] = field(default=FORM_FIELDS)

    def clean_details(self, details: object, context: ResultContext) -> GameDetails:
        records = clean_game_details(
            details,
            games=context.games,
            games_to_win=context.structure.games_to_win,
            deck_of=lambda side: _bos_deck(context.deck(side)),
            reporter="a" if context.reporter == "a" else "b" if context.reporter == "b" else None,
        )
        return GameDetails(tuple(r.to_json() for r in records))

    def form_fields(self) -> tuple[DetailField, ...]:
        return self.fields

    def details_from_form(self, games: Sequence[Mapping[str, object]]) -> FrozenRows | None:
        return details_from_form(games)

    def visible_details(self, details: object, side: str | None) -> Frozen:
        return visible_details(details, side)

    def form_values(self, details: object) -> FrozenRows:
        return form_values(details)

    def agree(self, details_a: object, details_b: object) -> GameDetails | None:
        merged = agree(details_a, details_b)
        return GameDetails(tuple(merged)) if merged is not None else None

    def describe(self, details: object, names: Mapping[str, str]) -> tuple[tuple[Text, ...], ...]:
        return describe(details, names)

    # Each game starts with the ether bid (BOS: Going First), so the clock asks for it.
    clock_rules: ClockRules = CLOCK_RULES

    @staticmethod
    def details_from_clock(games: Sequence[ClockGame]) -> FrozenRows | None:
        return details_from_clock(games)


MATCH_RULES = BosMatchRules()
