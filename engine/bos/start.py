"""How a BOS game starts: the ether bidding game and the starting life, vim and ether.

Notes on terminology
--------------------
bids
    Each player secretly chooses a non-negative number; the higher bidder chooses who goes
    first, the lower bidder receives ether equal to their bid, the other none (BOS: Going
    First). The rules are silent on equal bids; decision (docs/bos-matches.md): a tie decides
    nothing, the players bid again, and the record keeps the deciding bids.
chose_first
    The player who chose who goes first: the higher bidder. Who they chose is the record's
    ``first``.
the rules' values
    30 life and 1 vim each (BOS: Starting Info), and the ether the bids give (BOS: Going
    First; unknown when the record has no bids).
set by hand
    A value the rules did not give: a starting value other than the rules', or a value a
    ``judge`` step set. The replay accepts it (a judge's ruling is not second-guessed) and
    flags it (:class:`SetByHand`) so that nobody mistakes it for the rules' own.

Pure data and arithmetic: no record parsing here (engine.bos.record), no game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

GOING_FIRST = "BOS: Going First"
STARTING_INFO = "BOS: Starting Info"

STARTING_LIFE = 30
STARTING_VIM = 1
# The report form's and the clock's bound on a bid; the rules set none, a record shares it.
MAX_BID = 99


def ether_for(bids: tuple[int, int]) -> tuple[int, int]:
    """The lower bidder receives ether equal to their bid, the other none (BOS: Going First)."""
    bid_a, bid_b = bids
    if bid_a < bid_b:
        return (bid_a, 0)
    if bid_b < bid_a:
        return (0, bid_b)
    return (0, 0)


def higher_bid(bids: tuple[int, int]) -> int | None:
    """0 or 1, whose bid is higher (they choose who goes first); None for equal bids."""
    if bids[0] == bids[1]:
        return None
    return 0 if bids[0] > bids[1] else 1


@dataclass(frozen=True, slots=True)
class SetByHand:
    """One value the rules did not give. ``action`` None: a starting value (``instead_of``
    the rules' value, ``rule`` the rule that gives it); else the index of the ``judge`` step
    that set it (``instead_of`` the value before it, ``rule`` None)."""

    action: int | None
    player: str
    value: str  # life, vim or ether
    set: int
    instead_of: int
    rule: str | None = None
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "player": self.player,
            "value": self.value,
            "set": self.set,
            "instead_of": self.instead_of,
            "rule": self.rule,
            "note": self.note,
        }

    def describe(self) -> str:
        what = f"{self.player} {self.value} {self.set}"
        if self.action is None:
            why = f"at the start, instead of the rules' {self.instead_of} ({self.rule})"
        else:
            why = f"by the judge step at action {self.action}, was {self.instead_of}"
        note = f": {self.note}" if self.note else ""
        return f"Set by hand: {what} {why}{note}."


def rules_start(
    players: tuple[str, str], bids: Mapping[str, int] | None
) -> dict[str, dict[str, int | None]]:
    """Each player's starting life, vim and ether by the rules (ether None: no bids)."""
    ether: tuple[int | None, int | None] = (None, None)
    if bids is not None:
        ether = ether_for((bids[players[0]], bids[players[1]]))
    return {
        p: {"life": STARTING_LIFE, "vim": STARTING_VIM, "ether": ether[i]}
        for i, p in enumerate(players)
    }


def set_by_hand_at_start(
    stated: Mapping[str, Mapping[str, int]],
    rules: Mapping[str, Mapping[str, int | None]],
    note: str | None = None,
) -> tuple[SetByHand, ...]:
    """The starting values ``stated`` (by player: life, vim, ether) that differ from the
    rules' (``rules_start``); a value the rules cannot tell (ether without bids) is none."""
    out: list[SetByHand] = []
    for p, values in stated.items():
        for key, value in values.items():
            expected = rules[p][key]
            if expected is not None and value != expected:
                rule = GOING_FIRST if key == "ether" else STARTING_INFO
                out.append(SetByHand(None, p, key, value, expected, rule, note))
    return tuple(out)
