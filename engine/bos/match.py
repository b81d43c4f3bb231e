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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bos.cards import Catalog
from engine.bos.decklist import decklist_from_dict
from engine.bos.formats import Format
from engine.bos.match_records import BEST_OF_3 as BEST_OF_3
from engine.bos.match_records import CLOCK_RULES as CLOCK_RULES
from engine.bos.match_records import DECAY as DECAY
from engine.bos.match_records import ENDS as ENDS
from engine.bos.match_records import GAME_KEYS as GAME_KEYS
from engine.bos.match_records import MAX_NAME as MAX_NAME
from engine.bos.match_records import MAX_SWAP_COUNT as MAX_SWAP_COUNT
from engine.bos.match_records import MAX_SWAPS as MAX_SWAPS
from engine.bos.match_records import RESERVES as RESERVES
from engine.bos.match_records import SIDES as SIDES
from engine.bos.match_records import SWAP_KEYS as SWAP_KEYS
from engine.bos.match_records import BosDeck as BosDeck
from engine.bos.match_records import DeckOf as DeckOf
from engine.bos.match_records import DetailsError as DetailsError
from engine.bos.match_records import End as End
from engine.bos.match_records import GameRecord as GameRecord
from engine.bos.match_records import Side as Side
from engine.bos.match_records import Swap as Swap
from engine.bos.match_records import check_games, game_record, no_deck
from engine.bos.match_records import higher_bidder as higher_bidder
from engine.bos.reserve_swaps import check_swaps
from engine.bos.start import GOING_FIRST as GOING_FIRST  # re-exported: was defined here
from engine.bos.start import MAX_BID as MAX_BID
from engine.bos.start import ether_for as ether_for
from engine.frozen import Frozen, FrozenMap, FrozenRows, freeze, freeze_map
from engine.plugin import (
    N_,
    ClockGame,
    ClockRules,
    DetailField,
    DetailsAsStored,
    GameDetails,
    RegisteredDeck,
    ResultContext,
    Text,
)


def clean_game_details(
    details: object,
    *,
    games: tuple[int, int, int],
    games_to_win: int,
    deck_of: DeckOf = no_deck,
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
    records = tuple(game_record(game, i) for i, game in enumerate(details))
    check_games(records, games, games_to_win)
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
    return check_swaps(records, deck_of)


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
            record = game_record(raw, i)
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
            record = game_record(raw, number - 1)
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
