"""BOS: Reserves: the reserve swaps of a match result checked against the registered list
(pure: no Django). Swaps are made between games and are cumulative; ``out`` is a summon or
spell in the main deck, ``in`` a card in the reserves; after a game's swaps the list has no
violation of the deck rules that the registered list did not already have
(`engine.bos.match`'s docstring has the whole format).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.bos.cards import BosCard, CardType, Catalog, normalize_name
from engine.bos.decklist import SECTION_TYPE, DeckLine, Decklist
from engine.bos.match_records import RESERVES, SIDES, DeckOf, DetailsError, GameRecord, Swap
from engine.bos.validation import Violation, validate_decklist
from engine.plugin import (
    N_,
    Text,
)


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


def check_swaps(records: Sequence[GameRecord], deck_of: DeckOf) -> tuple[GameRecord, ...]:
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
