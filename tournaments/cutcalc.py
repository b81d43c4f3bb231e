"""Cut calculator: before a Swiss round, what a win, a draw or a loss does for the top cut.

Pure code: no Django, no I/O. For each player still able to play the cut, and each result of
his next match, the verdict on match points alone is one of :data:`VERDICTS`:

``"certain"``
    Whatever else happens, fewer than N other players can finish on his points or more, so he
    makes the top N on points (ties at his points are counted as above him: tiebreakers could
    go either way).
``"impossible"``
    Whatever else happens, at least N other players finish on strictly more points.
``"possible"``
    Neither: it depends on other results or on tiebreakers.

With the next round's pairings known, the next round is exact: two players paired together
cannot both win, a bye is a win, and the player's own result fixes his opponent's. Matches
are independent, so the worst (best) case picks, per match, the result that puts the most
(fewest) other players at or above (strictly above) his points. Later rounds
(``rounds_left`` > 1) are bounded: everyone else may win them all (worst case) or lose them
all (best case), and the player himself loses (worst) or wins (best) them. With more than one
round left "certain" and "impossible" are still never wrong, but some "possible" could be one
of the two. Without pairings the next round is bounded the same way.

Dropped players are not in contention and take no place: leave them out, or list them in
``dropped``. Policy ``"points"`` (an asymmetric cut, rules README decision 13: everyone tied
on points with the Nth player is in) makes ties at the player's points harmless: "certain" then
needs fewer than N others strictly above him.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from engine.errors import BattledeskError

OUTCOMES: Final = ("win", "draw", "loss")
VERDICTS: Final = ("certain", "possible", "impossible")
CUT_POLICIES: Final = ("strict", "points")


class CutCalcError(BattledeskError, ValueError):
    """Bad input; ``field`` names the offending argument."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


class ScoringLike(Protocol):
    """Match points per result (``standings.Scoring`` fits)."""

    @property
    def win(self) -> int: ...
    @property
    def draw(self) -> int: ...
    @property
    def loss(self) -> int: ...


@dataclass(frozen=True)
class MatchPoints:
    """Match points for a win (or a bye), a draw and a loss."""

    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class OutcomeVerdict:
    """The verdict for one result of the player's next match, with the numbers behind it.

    ``floor``/``ceiling``: the player's final points in his worst/best case after this result
    (equal when it is the last round). ``rivals_at_or_above``: in the worst case, the most other
    players who can finish on ``floor`` or more (strictly more under policy "points").
    ``rivals_above``: in the best case, the fewest who must finish on more than ``ceiling``.
    """

    outcome: str
    verdict: str
    floor: int
    ceiling: int
    rivals_at_or_above: int
    rivals_above: int
    cut_size: int
    policy: str = "strict"

    def explanation(self) -> str:
        """One plain-English sentence, addressed to the player."""
        result = {"win": "A win", "draw": "A draw", "loss": "A loss"}[self.outcome]
        exact = self.floor == self.ceiling
        n = self.cut_size
        if self.verdict == "certain":
            on = f"{self.floor}" if exact else f"at least {self.floor}"
            k = self.rivals_at_or_above
            reach = (
                f"finish above {self.floor}" if self.policy == "points" else f"reach {self.floor}"
            )
            return (
                f"{result} puts you on {on} points: at most {k} other{_s(k)} can {reach}, "
                f"so you make the top {n} whatever happens."
            )
        if self.verdict == "impossible":
            on = f"{self.ceiling}" if exact else f"at most {self.ceiling}"
            k = self.rivals_above
            return (
                f"{result} leaves you on {on} points: at least {k} other{_s(k)} will finish "
                f"above {self.ceiling}, so you cannot make the top {n}."
            )
        on = f"{self.floor}" if exact else f"{self.floor} to {self.ceiling}"
        k = self.rivals_at_or_above
        above = "finish above" if self.policy == "points" else "reach"
        return (
            f"{result} puts you on {on} points: up to {k} other{_s(k)} could {above} "
            f"{self.floor}, so making the top {n} depends on other results"
            + (" and on tiebreakers." if self.policy == "strict" else ".")
        )


@dataclass(frozen=True)
class CutOutlook:
    """One player's outlook. ``win``/``draw``/``loss`` are verdicts (see :data:`VERDICTS`).

    ``has_bye``: his next round is a bye (known pairings), so only ``win`` can happen; the
    other two are what they would be. ``in_contention``: some result that can happen is not
    "impossible".
    """

    player_id: str
    points: int
    win: str
    draw: str
    loss: str
    in_contention: bool
    has_bye: bool
    details: tuple[OutcomeVerdict, OutcomeVerdict, OutcomeVerdict]

    def verdict(self, outcome: str) -> str:
        return self.detail(outcome).verdict

    def detail(self, outcome: str) -> OutcomeVerdict:
        if outcome not in OUTCOMES:
            raise CutCalcError("outcome", f"must be one of {OUTCOMES}")
        return self.details[OUTCOMES.index(outcome)]

    def explain(self, outcome: str) -> str:
        """E.g. "A win puts you on 15 points: at most 6 others can reach 15, so you make the
        top 8 whatever happens." """
        return self.detail(outcome).explanation()


def _s(k: int) -> str:
    return "" if k == 1 else "s"


# A unit is a set of players whose next-round results are linked: a match (three outcomes),
# a bye (one) or, without pairings, a single player (his own three results). It is kept as
# (the members' current points, the possible results as points per member).
_Unit = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]


def cut_outlook(
    points: Mapping[str, int],
    cut_size: int,
    *,
    scoring: ScoringLike | None = None,
    rounds_left: int = 1,
    pairings: Sequence[tuple[str, str | None]] | None = None,
    dropped: Collection[str] = (),
    policy: str = "strict",
) -> list[CutOutlook]:
    """Each eligible player's outlook for the top ``cut_size``, best points first (then id).

    ``points``: current match points per player; ids in ``dropped`` are ignored. ``pairings``:
    the next round as (a, b) pairs, b None for a bye; when given, it must pair every eligible
    player exactly once. ``scoring`` defaults to 3/1/0.
    """
    sc = scoring if scoring is not None else MatchPoints()
    win, draw, loss = sc.win, sc.draw, sc.loss
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (win, draw, loss)) or not (
        win >= draw >= loss
    ):
        raise CutCalcError("scoring", "need whole numbers with win >= draw >= loss")
    if isinstance(cut_size, bool) or not isinstance(cut_size, int) or cut_size < 1:
        raise CutCalcError("cut_size", "must be an integer >= 1")
    if isinstance(rounds_left, bool) or not isinstance(rounds_left, int) or rounds_left < 1:
        raise CutCalcError("rounds_left", "must be an integer >= 1")
    if policy not in CUT_POLICIES:
        raise CutCalcError("policy", f"must be one of {CUT_POLICIES}")
    gone = set(dropped)
    pts: dict[str, int] = {}
    for pid, p in points.items():
        if pid in gone:
            continue
        if isinstance(p, bool) or not isinstance(p, int):
            raise CutCalcError(f"points[{pid!r}]", "must be an integer")
        pts[pid] = p

    # Next-round units as (members' points, possible results), with each player's unit and
    # opponent. Units with the same points behave the same, so they are counted, not listed.
    match_results = ((win, loss), (loss, win), (draw, draw))
    unit_of: dict[str, _Unit] = {}
    opponent: dict[str, str] = {}
    byes: set[str] = set()
    if pairings is None:
        for pid in pts:
            unit_of[pid] = ((pts[pid],), ((win,), (draw,), (loss,)))
    else:
        for i, (a, b) in enumerate(pairings):
            for side in (a, b):
                if side is None:
                    continue
                if side not in pts:
                    raise CutCalcError(f"pairings[{i}]", f"{side!r} is not an eligible player")
                if side in unit_of:
                    raise CutCalcError(f"pairings[{i}]", f"{side!r} is paired twice")
            if b is None:
                unit_of[a] = ((pts[a],), ((win,),))
                byes.add(a)
            else:
                if a == b:
                    raise CutCalcError(f"pairings[{i}]", f"{a!r} is paired with himself")
                unit_of[a] = unit_of[b] = ((pts[a], pts[b]), match_results)
                opponent[a], opponent[b] = b, a
        missing = sorted(set(pts) - set(unit_of))
        if missing:
            raise CutCalcError("pairings", f"{missing[0]!r} is not paired")
    # a match is one unit for both its players
    units = Counter(u for pid, u in unit_of.items() if pid not in opponent or pid < opponent[pid])

    later_hi = (rounds_left - 1) * win
    later_lo = (rounds_left - 1) * loss
    strict = policy == "strict"

    def worst(unit: _Unit, t: int) -> int:
        """Most of the unit's players finishing at or above (strict) / above (points) t."""
        points_now, results = unit
        most = 0
        for res in results:
            c = 0
            for p, r in zip(points_now, res, strict=True):
                final = p + r + later_hi
                if final > t or (strict and final == t):
                    c += 1
            most = max(most, c)
        return most

    def best(unit: _Unit, t: int) -> int:
        """Fewest of the unit's players finishing strictly above t."""
        points_now, results = unit
        return min(
            sum(1 for p, r in zip(points_now, res, strict=True) if p + r + later_lo > t)
            for res in results
        )

    worst_total: dict[int, int] = {}
    best_total: dict[int, int] = {}

    def worst_sum(t: int) -> int:
        if t not in worst_total:
            worst_total[t] = sum(n * worst(u, t) for u, n in units.items())
        return worst_total[t]

    def best_sum(t: int) -> int:
        if t not in best_total:
            best_total[t] = sum(n * best(u, t) for u, n in units.items())
        return best_total[t]

    gained = {"win": win, "draw": draw, "loss": loss}
    answer = {"win": loss, "draw": draw, "loss": win}  # the opponent's result
    out: list[CutOutlook] = []
    for pid in sorted(pts, key=lambda p: (-pts[p], p)):
        own = unit_of[pid]
        opp = opponent.get(pid)
        details: list[OutcomeVerdict] = []
        for outcome in OUTCOMES:
            floor = pts[pid] + gained[outcome] + later_lo
            ceiling = pts[pid] + gained[outcome] + later_hi
            # everyone outside the player's own unit, then his opponent with his result fixed
            # (without pairings his opponent is unknown and bounded among the others)
            hi = worst_sum(floor) - worst(own, floor)
            lo = best_sum(ceiling) - best(own, ceiling)
            if opp is not None:
                opp_hi = pts[opp] + answer[outcome] + later_hi
                opp_lo = pts[opp] + answer[outcome] + later_lo
                hi += opp_hi > floor or (strict and opp_hi == floor)
                lo += opp_lo > ceiling
            if hi < cut_size:
                verdict = "certain"
            elif lo >= cut_size:
                verdict = "impossible"
            else:
                verdict = "possible"
            details.append(
                OutcomeVerdict(outcome, verdict, floor, ceiling, hi, lo, cut_size, policy)
            )
        w, d, lo_ = details
        can_happen = (w,) if pid in byes else (w, d, lo_)
        out.append(
            CutOutlook(
                player_id=pid,
                points=pts[pid],
                win=w.verdict,
                draw=d.verdict,
                loss=lo_.verdict,
                in_contention=any(v.verdict != "impossible" for v in can_happen),
                has_bye=pid in byes,
                details=(w, d, lo_),
            )
        )
    return out


@dataclass(frozen=True)
class PointsOutlook:
    """One player's outlook against a points threshold (a day 2 of "at least P points",
    event-structures: Stages). Each verdict as :data:`VERDICTS`: ``certain`` when even losing
    every later round leaves him on P or more, ``impossible`` when even winning them all
    leaves him below P. Nobody else's results matter: a threshold is no race."""

    player_id: str
    points: int
    win: str
    draw: str
    loss: str
    in_contention: bool
    threshold: int
    floors: tuple[int, int, int]
    ceilings: tuple[int, int, int]

    def explain(self, outcome: str) -> str:
        if outcome not in OUTCOMES:
            raise CutCalcError("outcome", f"must be one of {OUTCOMES}")
        k = OUTCOMES.index(outcome)
        result = {"win": "A win", "draw": "A draw", "loss": "A loss"}[outcome]
        floor, ceiling, p = self.floors[k], self.ceilings[k], self.threshold
        verdict = (self.win, self.draw, self.loss)[k]
        if verdict == "certain":
            on = f"{floor}" if floor == ceiling else f"at least {floor}"
            return f"{result} puts you on {on} points: you reach the {p} needed."
        if verdict == "impossible":
            on = f"{ceiling}" if floor == ceiling else f"at most {ceiling}"
            return f"{result} leaves you on {on} points: below the {p} needed."
        return (
            f"{result} puts you on {floor} to {ceiling} points: you need {p}, "
            "so it depends on your later rounds."
        )


def points_outlook(
    points: Mapping[str, int],
    threshold: int,
    *,
    scoring: ScoringLike | None = None,
    rounds_left: int = 1,
    dropped: Collection[str] = (),
) -> list[PointsOutlook]:
    """Each player's outlook for reaching ``threshold`` match points with ``rounds_left``
    rounds to play (the next one included), best points first (then id)."""
    sc = scoring if scoring is not None else MatchPoints()
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
        raise CutCalcError("threshold", "must be an integer >= 0")
    if isinstance(rounds_left, bool) or not isinstance(rounds_left, int) or rounds_left < 1:
        raise CutCalcError("rounds_left", "must be an integer >= 1")
    gone = set(dropped)
    out = []
    for pid, p in sorted(points.items(), key=lambda kv: (-kv[1], kv[0])):
        if pid in gone:
            continue
        later = rounds_left - 1
        floors = tuple(p + r + later * sc.loss for r in (sc.win, sc.draw, sc.loss))
        ceilings = tuple(p + r + later * sc.win for r in (sc.win, sc.draw, sc.loss))
        verdicts = [
            "certain" if f >= threshold else "impossible" if c < threshold else "possible"
            for f, c in zip(floors, ceilings, strict=True)
        ]
        out.append(
            PointsOutlook(
                player_id=pid,
                points=p,
                win=verdicts[0],
                draw=verdicts[1],
                loss=verdicts[2],
                in_contention=any(v != "impossible" for v in verdicts),
                threshold=threshold,
                floors=(floors[0], floors[1], floors[2]),
                ceilings=(ceilings[0], ceilings[1], ceilings[2]),
            )
        )
    return out
