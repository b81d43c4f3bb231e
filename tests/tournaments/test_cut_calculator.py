"""Cut calculator: what a win, a draw or a loss in the next round does for the top cut.

Hand-worked example (3/1/0, top 4, last round, pairings known):

    A 12 v B 12 | C 9 v D 9 | E 9 v F 9 | G 6 v H 6 | I 3 v J 3

    A: a win (15), draw (13, B 13) or even a loss (12; B 15, one of C/D and one of E/F can
       reach 12 but not both: a C-D draw leaves both on 10) keeps at most 3 others at 12 or
       more: certain every way.
    C: win -> 12; others at 12+: A, B (a draw gives 13 each) and one of E/F: 3 -> certain.
       draw -> 10; D 10, A, B, and E and F (a draw: 10 each): up to 5 -> not certain; at
       best only A and B are above 10 -> possible.
       loss -> 9; D 12, A and B above 9 whatever happens, and E or F wins (12) unless they
       draw (10 each): at least 4 above -> impossible.
    G: win -> 9; A, B above whatever; C-D and E-F each put at least one on 12: 4 above ->
       impossible. Out of contention, like H, I and J.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.cutcalc import (
    CUT_POLICIES,
    OUTCOMES,
    VERDICTS,
    CutCalcError,
    CutOutlook,
    MatchPoints,
    cut_outlook,
)

POINTS = {"A": 12, "B": 12, "C": 9, "D": 9, "E": 9, "F": 9, "G": 6, "H": 6, "I": 3, "J": 3}
PAIRS: list[tuple[str, str | None]] = [
    ("A", "B"),
    ("C", "D"),
    ("E", "F"),
    ("G", "H"),
    ("I", "J"),
]


def by_id(rows: list[CutOutlook]) -> dict[str, CutOutlook]:
    return {r.player_id: r for r in rows}


def test_decision_13_hand_worked_last_round_with_pairings() -> None:
    rows = cut_outlook(POINTS, 4, pairings=PAIRS)
    assert [r.player_id for r in rows] == list("ABCDEFGHIJ")  # best points first, then id
    got = {r.player_id: (r.win, r.draw, r.loss, r.in_contention) for r in rows}
    assert got == {
        "A": ("certain", "certain", "certain", True),
        "B": ("certain", "certain", "certain", True),
        **{p: ("certain", "possible", "impossible", True) for p in "CDEF"},
        **{p: ("impossible", "impossible", "impossible", False) for p in "GHIJ"},
    }
    c = by_id(rows)["C"]
    assert c.explain("win") == (
        "A win puts you on 12 points: at most 3 others can reach 12, so you make the top 4 "
        "whatever happens."
    )
    assert c.explain("draw") == (
        "A draw puts you on 10 points: up to 5 others could reach 10, so making the top 4 "
        "depends on other results and on tiebreakers."
    )
    assert c.explain("loss") == (
        "A loss leaves you on 9 points: at least 4 others will finish above 9, so you cannot "
        "make the top 4."
    )
    assert by_id(rows)["A"].explain("loss") == (
        "A loss puts you on 12 points: at most 3 others can reach 12, so you make the top 4 "
        "whatever happens."
    )
    detail = c.detail("draw")
    assert (detail.floor, detail.ceiling, detail.rivals_at_or_above, detail.rivals_above) == (
        10,
        10,
        5,
        2,
    )


def test_decision_13_without_pairings_every_other_player_is_bounded() -> None:
    # C's win (12): without the pairings D, E and F could all win too, so it is only possible
    rows = by_id(cut_outlook(POINTS, 4))
    assert (rows["C"].win, rows["C"].draw, rows["C"].loss) == ("possible", "possible", "possible")
    assert rows["A"].win == "certain" and rows["A"].loss == "possible"
    assert rows["G"].win == "possible"  # 9 points; only A and B are surely above 9
    assert not rows["I"].in_contention


def test_decision_13_points_policy_ties_at_the_line_are_in() -> None:
    # everyone tied on points with the 4th makes an asymmetric cut: C's draw (10) is then
    # safe unless 4 others finish above 10; A, B, and at most one of E/F (12) can
    rows = by_id(cut_outlook(POINTS, 4, pairings=PAIRS, policy="points"))
    assert (rows["C"].win, rows["C"].draw, rows["C"].loss) == ("certain", "certain", "impossible")
    assert (
        rows["C"]
        .explain("draw")
        .startswith("A draw puts you on 10 points: at most 3 others can finish above 10")
    )


def test_decision_14_dropped_players_take_no_place() -> None:
    points = {**POINTS, "Z": 15}
    rows = cut_outlook(points, 4, pairings=PAIRS, dropped={"Z"})
    assert "Z" not in by_id(rows)
    assert [(r.win, r.draw, r.loss) for r in rows] == [
        (r.win, r.draw, r.loss) for r in cut_outlook(POINTS, 4, pairings=PAIRS)
    ]


def test_decision_11_a_bye_is_a_win() -> None:
    points = {**POINTS, "K": 9}
    pairs = [*PAIRS, ("K", None)]
    rows = by_id(cut_outlook(points, 4, pairings=pairs))
    assert rows["K"].has_bye and not rows["C"].has_bye
    # K's bye takes K to 12: C's win (12) now has A, B, K and one of E/F at 12 -> possible
    assert rows["C"].win == "possible"
    # only the win can happen to K, so his contention follows the win
    assert rows["K"].in_contention == (rows["K"].win != "impossible")


def test_two_rounds_left_bounds_later_rounds() -> None:
    rows = by_id(cut_outlook(POINTS, 4, pairings=PAIRS, rounds_left=2))
    a = rows["A"]
    assert a.detail("win").floor == 15 and a.detail("win").ceiling == 18
    # A on 15 at least; B (12, lost to A), the C-D winner and the E-F winner can reach 15,
    # but C and D cannot both win next round: at most 3 others
    assert a.win == "certain"
    assert a.explain("win").startswith("A win puts you on at least 15 points: at most 3 others")
    # a loss: 12 at least; B, C and D (a draw then a win: 13), E and F, and G or H reach 12
    assert a.loss == "possible" and a.detail("loss").rivals_at_or_above == 6
    assert "12 to 15 points" in a.explain("loss")
    assert rows["I"].win == "impossible"  # 3 + 3 + 3 = 9 at most: A, B, and C-D, E-F above
    assert "at most 9 points" in rows["I"].explain("win")


def test_custom_scoring() -> None:
    # 2/1/0: C's win (11) against A/B draw (13, 13) and E or F (11)
    points = {p: v * 2 // 3 for p, v in POINTS.items()}
    rows = by_id(cut_outlook(points, 4, pairings=PAIRS, scoring=MatchPoints(2, 1, 0)))
    assert rows["A"].win == "certain"
    assert set(VERDICTS) >= {rows["C"].win, rows["C"].draw, rows["C"].loss}


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"cut_size": 0}, "cut_size"),
        ({"rounds_left": 0}, "rounds_left"),
        ({"policy": "loose"}, "policy"),
        ({"scoring": MatchPoints(1, 3, 0)}, "scoring"),
        ({"pairings": [("A", "B"), ("A", "C")]}, "pairings[1]"),
        ({"pairings": [("A", "Q")]}, "pairings[0]"),
        ({"pairings": [("A", "A")]}, "pairings[0]"),
        ({"pairings": [("A", "B")]}, "pairings"),
    ],
)
def test_bad_calculator_input(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"cut_size": 4, **kwargs}
    with pytest.raises(CutCalcError) as info:
        cut_outlook(POINTS, **args)  # type: ignore[arg-type]
    assert info.value.field == field
    with pytest.raises(CutCalcError):
        cut_outlook(POINTS, 4).__getitem__(0).detail("bye")


def test_2048_players_all_get_an_outlook() -> None:
    """Speed is measured in bench/rounds.py, never asserted here (machines are noisy)."""
    ids = [f"p{k:04d}" for k in range(2048)]
    points = {p: 3 * ((k * 7919) % 9) + (k % 5 == 0) for k, p in enumerate(ids)}
    shuffled = sorted(ids, key=lambda p: (p[::-1]))
    pairs: list[tuple[str, str | None]] = list(zip(shuffled[::2], shuffled[1::2], strict=True))
    rows = cut_outlook(points, 64, pairings=pairs)
    assert len(rows) == 2048
    assert {r.player_id for r in rows} == set(ids)
    assert len(cut_outlook(points, 64, rounds_left=3)) == 2048


# -- brute force -----------------------------------------------------------------------------------
def brute_force(
    points: dict[str, int],
    pairs: list[tuple[str, str | None]],
    n: int,
    pid: str,
    outcome: str,
    policy: str,
    sc: MatchPoints,
) -> str:
    """Enumerate every result of every other match, with the player's own result fixed."""
    gain = {"win": sc.win, "draw": sc.draw, "loss": sc.loss}
    results = [(sc.win, sc.loss), (sc.loss, sc.win), (sc.draw, sc.draw)]
    own = next(p for p in pairs if pid in p)
    others = [p for p in pairs if p is not own]
    always_in = always_out = True
    for combo in itertools.product(*[[(sc.win, 0)] if b is None else results for _, b in others]):
        final = dict(points)
        for (a, b), (ra, rb) in zip(others, combo, strict=True):
            final[a] += ra
            if b is not None:
                final[b] += rb
        final[pid] += gain[outcome]
        opp = own[1] if own[0] == pid else own[0]
        if opp is not None:
            final[opp] += {"win": sc.loss, "draw": sc.draw, "loss": sc.win}[outcome]
        mine = final[pid]
        above = sum(1 for q, v in final.items() if q != pid and v > mine)
        at_or_above = sum(1 for q, v in final.items() if q != pid and v >= mine)
        surely_in = (above if policy == "points" else at_or_above) < n
        surely_out = above >= n
        always_in &= surely_in
        always_out &= surely_out
    if always_in:
        return "certain"
    if always_out:
        return "impossible"
    return "possible"


@settings(max_examples=300)
@given(
    data=st.data(),
    size=st.integers(2, 8),
    n=st.integers(1, 5),
    policy=st.sampled_from(CUT_POLICIES),
    scoring=st.sampled_from([MatchPoints(), MatchPoints(2, 1, 0), MatchPoints(3, 0, 0)]),
)
def test_decision_13_verdicts_match_brute_force(
    data: st.DataObject, size: int, n: int, policy: str, scoring: MatchPoints
) -> None:
    ids = [f"p{k}" for k in range(size)]
    points = {p: data.draw(st.integers(0, 9), label=p) for p in ids}
    order = data.draw(st.permutations(ids), label="pairing order")
    pairs: list[tuple[str, str | None]] = list(zip(order[::2], order[1::2], strict=False))
    if size % 2:
        pairs.append((order[-1], None))
    rows = cut_outlook(points, n, pairings=pairs, policy=policy, scoring=scoring)
    assert sorted(r.player_id for r in rows) == sorted(ids)
    for row in rows:
        for outcome in OUTCOMES:
            expected = brute_force(points, pairs, n, row.player_id, outcome, policy, scoring)
            assert row.verdict(outcome) == expected, (row.player_id, outcome, row.explain(outcome))


@settings(max_examples=40)
@given(
    data=st.data(),
    n=st.integers(1, 4),
    policy=st.sampled_from(CUT_POLICIES),
)
def test_two_rounds_left_verdicts_are_never_wrong(data: st.DataObject, n: int, policy: str) -> None:
    # six players, next round paired, the last one any pairing: "certain" and "impossible"
    # must hold in every continuation ("possible" may be cautious)
    ids = [f"p{k}" for k in range(6)]
    points = {p: data.draw(st.integers(0, 6), label=p) for p in ids}
    order = data.draw(st.permutations(ids), label="pairing order")
    pairs = list(zip(order[::2], order[1::2], strict=True))
    rows = cut_outlook(points, n, pairings=pairs, rounds_left=2, policy=policy)  # type: ignore[arg-type]
    matchings = list(_matchings(ids))
    results = [(3, 0), (0, 3), (1, 1)]
    for row in rows:
        pid = row.player_id
        own = next(p for p in pairs if pid in p)
        others = [p for p in pairs if p is not own]
        for outcome in OUTCOMES:
            verdict = row.verdict(outcome)
            if verdict == "possible":
                continue
            mine = {"win": (3, 0), "draw": (1, 1), "loss": (0, 3)}[outcome]
            own_result = mine if own[0] == pid else mine[::-1]
            for first in itertools.product(results, repeat=len(others)):
                after_one = dict(points)
                for (a, b), (ra, rb) in zip([own, *others], [own_result, *first], strict=True):
                    after_one[a] += ra
                    after_one[b] += rb
                for matching in matchings:
                    for second in itertools.product(results, repeat=3):
                        final = dict(after_one)
                        for (a, b), (ra, rb) in zip(matching, second, strict=True):
                            final[a] += ra
                            final[b] += rb
                        above = sum(v > final[pid] for q, v in final.items() if q != pid)
                        level = sum(v >= final[pid] for q, v in final.items() if q != pid)
                        if verdict == "certain":
                            assert (above if policy == "points" else level) < n
                        else:
                            assert above >= n


def _matchings(
    ids: list[str],
) -> itertools.chain[list[tuple[str, str]]] | list[list[tuple[str, str]]]:
    if not ids:
        return [[]]
    first, rest = ids[0], ids[1:]
    out: list[list[tuple[str, str]]] = []
    for k, other in enumerate(rest):
        for tail in _matchings(rest[:k] + rest[k + 1 :]):
            out.append([(first, other), *tail])
    return out
