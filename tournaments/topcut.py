"""Top cut: the cut line on the final Swiss standings, and seeded single-elimination brackets.

Pure code: no Django. Vocabulary:

seed
    A player's place among the players who play the cut; seed 1 is first. Dropped players
    cannot play the cut, so they have no seed: the next player moves up.
cut line
    Drawn on the frozen final standings (rules README, decision 13). Policy ``"strict"``: the
    top N by the standings with the event's tiebreakers. Policy ``"points"``: also everyone tied
    on match points with the Nth player (an asymmetric cut, so the bracket has byes).
bracket
    A power of two, 2 to 64 places. In the first round seed s meets seed size + 1 - s, laid out
    so that the top seeds can only meet late: for 8, 1 v 8, 4 v 5, 2 v 7, 3 v 6 (the winners of
    the first two matches meet, and so on). When fewer players qualify than the bracket has
    places, seed s has a bye where seed size + 1 - s does not exist: a :class:`BracketMatch`
    with ``b`` and ``seed_b`` None, won by ``a``. Byes therefore go to the top seeds.
bracket round
    The matches played at the same time; the next round pairs the winners of matches 1 and 2,
    3 and 4, ... of the previous one, the better seed first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from engine.errors import BattledeskError
from tournaments.tiebreakers import is_head_to_head
from tournaments.tiebreakers import label as tiebreaker_label

BRACKET_SIZES = (2, 4, 8, 16)
MAX_BRACKET: Final = 64

CUT_POLICIES: Final = ("strict", "points")
"""``"strict"``: top N by standings. ``"points"``: also everyone on the Nth player's points."""

# Criteria named by :class:`Separation.criterion` besides the tiebreaker names.
BY_POINTS: Final = "points"
BY_HEAD_TO_HEAD: Final = "head-to-head"
BY_LIST_ORDER: Final = "list order"

_KEY_DIGITS = 9  # the standings core compares tiebreaker values rounded to 9 digits


class BracketError(BattledeskError, ValueError):
    """Bad bracket or cut input; ``field`` names the offending argument."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


# -- the cut line ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CutRow:
    """What the cut needs of one standings row (see :func:`cut_rows_from_standings`).

    ``head_to_head`` is optional: the net match result (wins minus losses) against each
    opponent, used only to name a head-to-head decision.
    """

    player_id: str
    rank: int
    points: int
    tiebreakers: tuple[tuple[str, float | int | None], ...]
    dropped: bool = False
    head_to_head: tuple[tuple[str, int], ...] = ()


class StandingLike(Protocol):
    """Anything shaped like ``standings.StandingRow`` (only these attributes are read)."""

    @property
    def player_id(self) -> str: ...
    @property
    def rank(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def tiebreakers(self) -> tuple[tuple[str, float | int | None], ...]: ...
    @property
    def dropped(self) -> bool: ...


def cut_rows_from_standings(rows: Iterable[StandingLike]) -> list[CutRow]:
    """:class:`CutRow`s from standings rows, in the same order.

    When a row also has ``opponents`` (lines with ``opponent`` and ``result`` "win"/"loss"/
    "draw", as ``standings.StandingRow`` has), the head-to-head records are kept too.
    """
    out: list[CutRow] = []
    for row in rows:
        net: dict[str, int] = {}
        for line in getattr(row, "opponents", ()) or ():
            opponent = getattr(line, "opponent", None)
            result = getattr(line, "result", None)
            if isinstance(opponent, str):
                net[opponent] = net.get(opponent, 0) + (
                    1 if result == "win" else -1 if result == "loss" else 0
                )
        out.append(
            CutRow(
                player_id=row.player_id,
                rank=row.rank,
                points=row.points,
                tiebreakers=tuple(row.tiebreakers),
                dropped=bool(row.dropped),
                head_to_head=tuple(sorted(net.items())),
            )
        )
    return out


@dataclass(frozen=True)
class Separation:
    """Why one player is placed directly above the next player who can play the cut.

    ``criterion`` is ``"points"``, a tiebreaker key from the rows' ``tiebreakers`` (the
    registry's, tournaments.tiebreakers: ``"omw"``, ``"gw"``, ...), ``"head-to-head"``, or ``"list order"`` when
    nothing separated them (a full tie: ``tied`` is True). ``above_value``/``below_value`` are
    the two values of that criterion (match points; the tiebreaker values; each one's net
    result against the other for head-to-head; None for list order). Seeds count only players
    who can play the cut; ranks are the standings ranks.
    """

    above_id: str
    below_id: str
    above_seed: int
    below_seed: int
    above_rank: int
    below_rank: int
    above_points: int
    below_points: int
    criterion: str
    above_value: float | int | None
    below_value: float | int | None
    tied: bool

    @property
    def label(self) -> str:
        """The criterion in words: "match points", "opponents' match-win %", ..."""
        if self.criterion == BY_POINTS:
            return "match points"
        return tiebreaker_label(self.criterion).render()

    def sentence(self, names: Mapping[str, str] | None = None) -> str:
        """Plain English, e.g. "8th place (p8, 12 pts) is ahead of 9th (p9, 12 pts) on
        opponents' match-win % 0.612 vs 0.587". ``names`` maps ids to display names."""
        names = names or {}
        a = names.get(self.above_id, self.above_id)
        b = names.get(self.below_id, self.below_id)
        head = (
            f"{_ordinal(self.above_seed)} place ({a}, {self.above_points} pts) "
            f"{{verb}} {_ordinal(self.below_seed)} ({b}, {self.below_points} pts)"
        )
        if self.criterion == BY_LIST_ORDER:
            return (
                head.format(verb="and")
                + f" are tied on points and every tiebreaker; {a} is listed first"
            )
        head = head.format(verb="is ahead of")
        if self.criterion == BY_POINTS:
            return f"{head} on match points"
        if self.criterion == BY_HEAD_TO_HEAD:
            return f"{head} on head-to-head ({a} did better in their matches)"
        x, y = _format_pair(self.above_value, self.below_value)
        return f"{head} on {self.label} {x} vs {y}"


@dataclass(frozen=True)
class CutResult:
    """The cut drawn on the final standings.

    ``qualified``: ids in seed order (feed them to :func:`seed_cut_bracket`). ``line``: the last
    qualified player against the first one out (None when nobody is out). ``places``: for each
    qualified seed that has a next player, what placed it above that player (``places[k]`` is
    seed k + 1 against seed k + 2; the last one is ``line``). ``tie_at_line``: the two at the
    line are tied on points and every tiebreaker, the better listed one got in ("strict" only):
    warn on the page. ``skipped_dropped``: dropped players who stood inside the line; they
    cannot play the cut and the next players moved up.
    """

    qualified: tuple[str, ...]
    size: int
    policy: str
    line: Separation | None
    places: tuple[Separation, ...]
    tie_at_line: bool
    skipped_dropped: tuple[str, ...]

    @property
    def bracket_size(self) -> int:
        """Places in the bracket: the next power of two (the top seeds get the byes)."""
        return bracket_size_for(len(self.qualified))

    @property
    def byes(self) -> int:
        return self.bracket_size - len(self.qualified)

    def notes(self, names: Mapping[str, str] | None = None) -> list[str]:
        """Plain-English sentences for the page: the line, ties, drops, byes."""
        names = names or {}
        out: list[str] = []
        if self.line is not None:
            out.append(self.line.sentence(names) + ".")
        if self.tie_at_line:
            out.append(
                "The players at the line are tied on points and every tiebreaker; the one "
                "listed first gets the last place."
            )
        if self.skipped_dropped:
            who = ", ".join(names.get(p, p) for p in self.skipped_dropped)
            out.append(f"Dropped players cannot play the cut ({who}); the next players move up.")
        if len(self.qualified) != self.size:
            extra = len(self.qualified) - self.size
            out.append(
                f"{extra} more player{'s are' if extra != 1 else ' is'} tied on points with "
                f"the {_ordinal(self.size)} place, so {len(self.qualified)} players make the cut."
            )
        if 2 <= len(self.qualified) <= MAX_BRACKET and self.byes:
            out.append(
                f"The top {self.byes} seed{'s get a bye' if self.byes != 1 else ' gets a bye'} "
                f"in the first round of the {self.bracket_size}-player bracket."
            )
        return out


def cut_line(rows: Sequence[CutRow], size: int, policy: str = "strict") -> CutResult:
    """Draw the cut line for a top ``size`` on the final standings ``rows``.

    ``rows`` are in standings order (rank, then the standings core's list order, by id); they
    are sorted by rank, keeping the list order among equal ranks. Dropped rows stay in the
    standings but never qualify. ``policy`` is one of :data:`CUT_POLICIES`.
    """
    if policy not in CUT_POLICIES:
        raise BracketError("policy", f"must be one of {CUT_POLICIES}")
    if isinstance(size, bool) or not isinstance(size, int) or size < 2:
        raise BracketError("size", "must be an integer >= 2")
    ids = [r.player_id for r in rows]
    if len(set(ids)) != len(ids):
        raise BracketError("rows", "a player is listed twice")
    ordered = [r for _, r in sorted(enumerate(rows), key=lambda t: (t[1].rank, t[0]))]
    eligible = [r for r in ordered if not r.dropped]
    if len(eligible) < size:
        raise BracketError(
            "size", f"only {len(eligible)} players can play the cut, a top {size} needs {size}"
        )
    count = size
    if policy == "points":
        line_points = eligible[size - 1].points
        while count < len(eligible) and eligible[count].points == line_points:
            count += 1
    qualified = eligible[:count]
    last = next(i for i, r in enumerate(ordered) if r is qualified[-1])
    skipped = tuple(r.player_id for r in ordered[:last] if r.dropped)
    places = tuple(
        _separation(eligible[k], eligible[k + 1], k + 1, ordered)
        for k in range(min(count, len(eligible) - 1))
    )
    line = places[-1] if count < len(eligible) else None
    return CutResult(
        qualified=tuple(r.player_id for r in qualified),
        size=size,
        policy=policy,
        line=line,
        places=places,
        tie_at_line=line is not None and line.tied,
        skipped_dropped=skipped,
    )


def _key(value: float | int | None) -> float | None:
    return None if value is None else round(float(value), _KEY_DIGITS)


def _separation(x: CutRow, y: CutRow, seed: int, everyone: Sequence[CutRow]) -> Separation:
    """What puts ``x`` (seed ``seed``) above ``y`` (the next player who can play the cut)."""

    def made(criterion: str, vx: float | int | None, vy: float | int | None) -> Separation:
        return Separation(
            above_id=x.player_id,
            below_id=y.player_id,
            above_seed=seed,
            below_seed=seed + 1,
            above_rank=x.rank,
            below_rank=y.rank,
            above_points=x.points,
            below_points=y.points,
            criterion=criterion,
            above_value=vx,
            below_value=vy,
            tied=criterion == BY_LIST_ORDER,
        )

    if x.points != y.points:
        return made(BY_POINTS, x.points, y.points)
    if x.rank == y.rank:
        return made(BY_LIST_ORDER, None, None)
    values_y = dict(y.tiebreakers)
    for i, (name, vx) in enumerate(x.tiebreakers):
        vy = values_y.get(name)
        if is_head_to_head(name):
            verdict = _head_to_head(x, y, x.tiebreakers[:i], everyone)
            if verdict is not None:
                return made(BY_HEAD_TO_HEAD, verdict, -verdict)
            continue
        if _key(vx) != _key(vy) and vx is not None and vy is not None:
            return made(name, vx, vy)
    return made(BY_LIST_ORDER, None, None)


def _head_to_head(
    x: CutRow,
    y: CutRow,
    before: tuple[tuple[str, float | int | None], ...],
    everyone: Sequence[CutRow],
) -> int | None:
    """x's net result against y if head-to-head is what separated them, else None.

    The standings core applies head-to-head only to exactly two players still tied when it is
    reached; the group is rebuilt from the rows (dropped ones included).
    """
    wanted = (x.points, tuple((n, _key(v)) for n, v in before))
    group = [
        r
        for r in everyone
        if (r.points, tuple((n, _key(dict(r.tiebreakers).get(n))) for n, _ in before)) == wanted
    ]
    if len(group) != 2:
        return None
    if x.head_to_head or y.head_to_head:
        net = dict(x.head_to_head).get(y.player_id, 0)
        return net if net > 0 else None
    # No records: head-to-head decided it if nothing after it tells them apart.
    after = x.tiebreakers[len(before) + 1 :]
    values_y = dict(y.tiebreakers)
    if all(_key(v) == _key(values_y.get(n)) for n, v in after):
        return 1
    return None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _format_pair(x: float | int | None, y: float | int | None) -> tuple[str, str]:
    """Both values, with as many decimals as it takes to tell them apart (3 at least)."""
    if x is None or y is None or (isinstance(x, int) and isinstance(y, int)):
        return str(x), str(y)
    for digits in range(3, _KEY_DIGITS + 1):
        sx, sy = f"{x:.{digits}f}", f"{y:.{digits}f}"
        if sx != sy:
            return sx, sy
    return sx, sy


# -- brackets --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BracketMatch:
    """One elimination match. ``a`` is the better seed; ``table`` counts from 1.

    A bye has ``b`` and ``seed_b`` None: ``a`` goes through without playing. ``table`` is the
    match's position in the bracket round (byes have one too, so that positions line up).
    """

    table: int
    a: str
    b: str | None
    seed_a: int
    seed_b: int | None

    @property
    def is_bye(self) -> bool:
        return self.b is None


def bracket_size_for(players: int) -> int:
    """The bracket for ``players`` qualified players: the next power of two (2 to 64)."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise BracketError("players", "a bracket needs at least 2 players")
    if players > MAX_BRACKET:
        raise BracketError("players", f"at most {MAX_BRACKET} players")
    size = 2
    while size < players:
        size *= 2
    return size


def _check_size(size: int) -> None:
    if size in BRACKET_SIZES:
        return
    if (
        isinstance(size, bool)
        or not isinstance(size, int)
        or not 2 <= size <= MAX_BRACKET
        or size & (size - 1)
    ):
        raise BracketError("size", f"must be one of {BRACKET_SIZES} (or 32, 64)")


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order: 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    _check_size(size)
    order = [1, 2]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def seed_bracket(ranked_ids: Sequence[str], size: int) -> list[BracketMatch]:
    """First bracket round for the top ``size`` of ``ranked_ids`` (standings order).

    ``size`` is a power of two; for any number of qualified players use
    :func:`seed_cut_bracket`.
    """
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


def seed_cut_bracket(qualified_ids: Sequence[str]) -> list[BracketMatch]:
    """First bracket round for every one of ``qualified_ids`` (seed order), 2 to 64 players.

    The bracket is the next power of two; seed s meets seed size + 1 - s, and has a bye when
    that seed does not exist (so the byes go to the top seeds). For a power of two this is
    ``seed_bracket(qualified_ids, len(qualified_ids))``.
    """
    n = len(qualified_ids)
    size = bracket_size_for(n)
    ids = list(qualified_ids)
    if len(set(ids)) != n:
        raise BracketError("qualified_ids", "a player is listed twice")
    order = bracket_order(size)
    out: list[BracketMatch] = []
    for k in range(0, size, 2):
        sa, sb = order[k], order[k + 1]
        if sb <= n:
            out.append(BracketMatch(k // 2 + 1, ids[sa - 1], ids[sb - 1], sa, sb))
        else:
            out.append(BracketMatch(k // 2 + 1, ids[sa - 1], None, sa, None))
    return out


def next_bracket_round(
    matches: Sequence[BracketMatch], winners: Mapping[int, str] | Sequence[str]
) -> list[BracketMatch]:
    """The next bracket round from a finished one.

    ``winners`` gives each match's winner, by table (a mapping) or in the order of
    ``matches``. A bye's winner is its ``a`` and may be left out: a mapping need not name the
    bye tables, and a sequence may list the winners of the played matches only. Returns []
    after the final; :func:`champion` names its winner.
    """
    ordered = sorted(matches, key=lambda m: m.table)
    if len(ordered) not in (1, 2, 4, 8, 16, 32):
        raise BracketError("matches", "a bracket round has 1, 2, 4, ..., 32 matches")
    if isinstance(winners, Mapping):
        try:
            won = [
                winners[m.table] if m.b is not None else winners.get(m.table, m.a) for m in ordered
            ]
        except KeyError as exc:
            raise BracketError("winners", f"no winner for table {exc.args[0]}") from None
    else:
        played = [m for m in matches if m.b is not None]
        if len(winners) == len(matches):
            by_position = dict(zip((m.table for m in matches), winners, strict=True))
        elif len(winners) == len(played):
            by_position = {m.table: m.a for m in matches}
            by_position.update(zip((m.table for m in played), winners, strict=True))
        else:
            raise BracketError("winners", f"need {len(matches)} winners, got {len(winners)}")
        won = [by_position[m.table] for m in ordered]
    seeds: list[tuple[str, int]] = []
    for match, winner in zip(ordered, won, strict=True):
        if winner == match.a:
            seeds.append((match.a, match.seed_a))
        elif match.b is not None and match.seed_b is not None and winner == match.b:
            seeds.append((match.b, match.seed_b))
        elif match.b is None:
            raise BracketError("winners", f"table {match.table} is a bye for {match.a!r}")
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
