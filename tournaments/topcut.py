"""Top cut: seeded single-elimination brackets after the Swiss rounds.

Pure code: no Django. Vocabulary:

seed
    A player's place in the final Swiss standings; seed 1 is first.
bracket
    2, 4, 8 or 16 players. In the first round seed s meets seed size + 1 - s, laid out so
    that the top seeds can only meet late: for 8, 1 v 8, 4 v 5, 2 v 7, 3 v 6 (the winners of
    the first two matches meet, and so on).
bracket round
    The matches played at the same time; the next round pairs the winners of matches 1 and 2,
    3 and 4, ... of the previous one, the better seed first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

BRACKET_SIZES = (2, 4, 8, 16)


class BracketError(ValueError):
    """Bad bracket input; ``field`` names the offending argument."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class BracketMatch:
    """One elimination match. ``a`` is the better seed; ``table`` counts from 1."""

    table: int
    a: str
    b: str
    seed_a: int
    seed_b: int


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order: 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size not in BRACKET_SIZES:
        raise BracketError("size", f"must be one of {BRACKET_SIZES}")
    order = [1, 2]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def seed_bracket(ranked_ids: Sequence[str], size: int) -> list[BracketMatch]:
    """First bracket round for the top ``size`` of ``ranked_ids`` (standings order)."""
    order = bracket_order(size)
    if len(ranked_ids) < size:
        raise BracketError("ranked_ids", f"need {size} players, got {len(ranked_ids)}")
    top = list(ranked_ids[:size])
    if len(set(top)) != size:
        raise BracketError("ranked_ids", "a player is listed twice")
    return [
        BracketMatch(k // 2 + 1, top[order[k] - 1], top[order[k + 1] - 1], order[k], order[k + 1])
        for k in range(0, size, 2)
    ]


def next_bracket_round(
    matches: Sequence[BracketMatch], winners: Mapping[int, str] | Sequence[str]
) -> list[BracketMatch]:
    """The next bracket round from a finished one.

    ``winners`` gives each match's winner, by table (a mapping) or in the order of
    ``matches``. Returns [] after the final; :func:`champion` names its winner.
    """
    ordered = sorted(matches, key=lambda m: m.table)
    if isinstance(winners, Mapping):
        try:
            won = [winners[m.table] for m in ordered]
        except KeyError as exc:
            raise BracketError("winners", f"no winner for table {exc.args[0]}") from None
    else:
        if len(winners) != len(matches):
            raise BracketError("winners", f"need {len(matches)} winners, got {len(winners)}")
        by_position = dict(zip((m.table for m in matches), winners, strict=True))
        won = [by_position[m.table] for m in ordered]
    if len(ordered) not in (1, 2, 4, 8):
        raise BracketError("matches", "a bracket round has 1, 2, 4 or 8 matches")
    seeds: list[tuple[str, int]] = []
    for match, winner in zip(ordered, won, strict=True):
        if winner == match.a:
            seeds.append((match.a, match.seed_a))
        elif winner == match.b:
            seeds.append((match.b, match.seed_b))
        else:
            raise BracketError("winners", f"{winner!r} did not play at table {match.table}")
    if len(seeds) == 1:
        return []
    out: list[BracketMatch] = []
    for k in range(0, len(seeds), 2):
        (x, sx), (y, sy) = sorted(seeds[k : k + 2], key=lambda t: t[1])
        out.append(BracketMatch(k // 2 + 1, x, y, sx, sy))
    return out


def champion(final: BracketMatch, winner: str) -> str:
    """The winner of the final, checked."""
    if winner not in (final.a, final.b):
        raise BracketError("winner", f"{winner!r} did not play in the final")
    return winner
