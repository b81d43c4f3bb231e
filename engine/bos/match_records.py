"""A BOS match result's per-game details read into records (pure: no Django): the record
types (`GameRecord`, `Swap`, `BosDeck`), one game's details read and checked against BOS:
Going First and BOS: Decay (`game_record`), and the games counted against BOS: Best of 3
Match (`check_games`). The reserve swaps are checked in `engine.bos.reserve_swaps`; the whole
check, the report form and the plugin's `MatchRules` are `engine.bos.match`'s, which
re-exports the names here (docstring there: the format and the rules).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from engine.bos.cards import Catalog
from engine.bos.decklist import Decklist
from engine.bos.formats import Format
from engine.bos.start import GOING_FIRST, MAX_BID, ether_for, higher_bid
from engine.plugin import (
    N_,
    BidRange,
    ClockRules,
    GameDetailsError,
    PlayerRef,
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


def no_deck(side: Side) -> BosDeck | None:
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


def game_record(value: object, i: int) -> GameRecord:
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


def check_games(records: Sequence[GameRecord], games: tuple[int, int, int], to_win: int) -> None:
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
